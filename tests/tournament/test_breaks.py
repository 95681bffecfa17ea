"""Breaks and rule versions (issue 12, "the director's whole role"): a break after level N
stops play when the level clock moves on from N by itself, by time or by hands (hands in
play finish, no new hand starts) and play resumes by itself once it has run; the
director's ``resume`` ends it early; every rule change is a new rules version, kept with
what changed and why."""

from __future__ import annotations

from typing import Any

import pytest

from poker.actions import Ruleset
from server.tournament import (
    BreakEnded,
    BreakStarted,
    Director,
    LevelChanged,
    RulesChanged,
    TournamentError,
)
from server.tournament.inputs import apply_director

from .helpers import check_chips, fingerprint, play_hand, shove, started

MIN = 60.0


def op(t: Any, now: float, **payload: Any) -> list[Any]:
    return apply_director(t, {"now": now, "reason": "testing", **payload})


def refused(t: Any, payload: dict[str, Any]) -> str:
    before = fingerprint(t)
    with pytest.raises(TournamentError) as info:
        apply_director(t, {"now": 10.0, "reason": "testing", **payload})
    assert fingerprint(t) == before, f"{payload} was refused but changed the tournament"
    return str(info.value)


def test_a_break_by_time_stops_play_and_resumes_by_itself_at_the_next_level() -> None:
    t = started(4, level_minutes=20)
    op(t, 60.0, op="set_break", after_level=2, minutes=10)
    assert t.tick(40 * MIN - 1) == [LevelChanged(level=2, small_blind=150, big_blind=300)]
    hand, _ = t.begin_hand(1, 40 * MIN - 1)  # dealt just before level 2 runs out
    events = t.tick(40 * MIN)
    assert events == [
        LevelChanged(level=3, small_blind=200, big_blind=400),
        BreakStarted(at=40 * MIN, after_level=2, minutes=10, until=50 * MIN, next_level=3,
                     tables_in_hand=(1,)),
    ]
    assert t.state == "paused" and t.break_left(45 * MIN) == 5 * MIN
    # The hand in play finishes; no new hand starts, however long the break runs.
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, shove([])(t.table(1).seats[legal.seat].player_id, legal))
    t.end_hand(1, 41 * MIN)
    assert t.why_not_deal(1, 45 * MIN) == "the tournament is on a break after level 2: no new hand starts until it ends"
    # Level 3 does not run during the break: 10 break minutes do not end it.
    assert t.tick(50 * MIN - 1) == []
    assert t.tick(50 * MIN) == [
        BreakEnded(at=50 * MIN, after_level=2, level=3, small_blind=200, big_blind=400, early=False, resumed=True)
    ]
    assert t.state == "running" and t.can_deal(1, 50 * MIN)
    # Level 3 runs its whole 20 minutes from the end of the break; the break is not taken twice.
    assert t.level_info(50 * MIN).seconds_left == 20 * MIN
    assert [e.level for e in t.tick(70 * MIN)] == [4]  # type: ignore[union-attr]
    op(t, 70 * MIN, op="set_level", level=2)
    assert not any(isinstance(e, BreakStarted) for e in t.tick(90 * MIN))
    check_chips(t)


def test_levels_after_a_break_wait_for_it_even_when_several_ran_out_at_once() -> None:
    t = started(4, level_minutes=20)
    op(t, 60.0, op="set_break", after_level=1, minutes=5)
    events = t.tick(100 * MIN)  # levels 2..6 would have run out: only level 2 comes, then the break
    assert [type(e).__name__ for e in events] == ["LevelChanged", "BreakStarted"]
    assert t.level == 2


def test_a_break_by_hands_starts_when_the_last_hand_of_the_level_ends() -> None:
    t = started(2, hands_per_level=2)
    op(t, 1.0, op="set_break", after_level=1, minutes=15)
    _, first = play_hand(t, 1, 10.0, shove([]))
    assert not any(isinstance(e, BreakStarted) for e in first)
    _, second = play_hand(t, 1, 20.0, shove([]))
    assert BreakStarted(at=20.0, after_level=1, minutes=15, until=20.0 + 15 * MIN, next_level=2,
                        tables_in_hand=()) in second
    assert not t.can_deal(1, 30.0)
    assert t.level_info(30.0).hands_left == 2
    ended = t.tick(20.0 + 15 * MIN)
    assert [type(e).__name__ for e in ended] == ["BreakEnded"]
    assert t.can_deal(1, 20.0 + 15 * MIN)


def test_a_level_due_for_its_break_deals_no_hand_before_the_tick_begins_it() -> None:
    t = started(2, level_minutes=20)
    op(t, 1.0, op="set_break", after_level=1, minutes=5)
    assert t.why_not_deal(1, 20 * MIN) == "level 1 is over and a break follows it: no new hand starts"


def test_the_directors_resume_ends_a_break_early_and_pause_is_refused_during_one() -> None:
    t = started(4, level_minutes=20)
    op(t, 1.0, op="set_break", after_level=1, minutes=30)
    t.tick(20 * MIN)
    message = refused(t, {"op": "pause"})
    assert message == ("the tournament is on a break after level 1 (no hand starts until it ends): "
                       "`resume` ends it early, `set_break 1 MINUTES` changes its length")
    events = op(t, 25 * MIN, op="resume")
    assert events[0].summary == "The break after level 1 ends early: play resumes at level 2"
    assert BreakEnded(at=25 * MIN, after_level=1, level=2, small_blind=150, big_blind=300,
                      early=True, resumed=True) in events
    assert t.state == "running" and t.break_left(25 * MIN) is None
    assert t.tick(44 * MIN) == []  # the break's own end does not come again; level 2 runs from 25 min
    refused(t, {"op": "resume"})  # not paused any more


def test_a_break_in_progress_can_be_shortened_or_lengthened() -> None:
    t = started(4, level_minutes=20)
    op(t, 1.0, op="set_break", after_level=1, minutes=30)
    t.tick(20 * MIN)
    op(t, 21 * MIN, op="set_break", after_level=1, minutes=45)
    assert t.break_left(21 * MIN) == 44 * MIN
    events = op(t, 30 * MIN, op="set_break", after_level=1, minutes=5)  # already over: ends now
    assert any(isinstance(e, BreakEnded) for e in events) and t.state == "running"


def test_a_break_that_begins_while_the_director_has_paused_the_clock_leaves_it_paused() -> None:
    t = started(2, hands_per_level=1)
    op(t, 1.0, op="set_break", after_level=1, minutes=5)
    hand, _ = t.begin_hand(1, 2.0)
    op(t, 3.0, op="pause")
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, shove([])("", legal))
    events = t.end_hand(1, 4.0)
    assert any(isinstance(e, BreakStarted) and e.held for e in events)
    ended = t.tick(4.0 + 5 * MIN)
    assert ended[0] == BreakEnded(at=4.0 + 5 * MIN, after_level=1, level=2, small_blind=150, big_blind=300,
                                  early=False, resumed=False)
    assert t.state == "paused"  # the director's pause stands
    op(t, 400.0, op="resume")
    assert t.state == "running"


def test_set_break_refuses_what_cannot_be_with_a_message_to_act_on() -> None:
    t = started(4)
    assert refused(t, {"op": "set_break", "after_level": 99, "minutes": 10}) == (
        "level 99 does not exist: the schedule has 15 levels (change the schedule to add levels)")
    for minutes in (121, -1, 2.5, "10", None, True):
        assert "a break lasts 1 to 120 minutes" in refused(t, {"op": "set_break", "after_level": 3, "minutes": minutes})
    for level in (0, -1, "3", 1.0, None):
        assert "numbered from 1" in refused(t, {"op": "set_break", "after_level": level, "minutes": 10})
    assert refused(t, {"op": "set_break", "after_level": 3, "minutes": 0}) == (
        "there is no break after level 3 to remove")
    assert "needs a reason" in refused(t, {"op": "set_break", "after_level": 3, "minutes": 5, "reason": " "})
    op(t, 1.0, op="set_break", after_level=3, minutes=10)
    assert refused(t, {"op": "set_break", "after_level": 3, "minutes": 10}) == (
        "the break after level 3 is 10 minutes already")
    t.tick(61 * MIN)  # level 4: the break after 3 is taken, level 2 is over
    assert t.level == 4 and t.on_break is not None
    assert refused(t, {"op": "set_break", "after_level": 2, "minutes": 10}) == (
        "level 2 is over (the level on now is 4): a break goes after level 4 or a later one")
    assert refused(t, {"op": "set_break", "after_level": 3, "minutes": 0}) == (
        "the break after level 3 is in progress: `resume` ends it now")


def test_removing_a_break_before_its_level_ends_means_no_break() -> None:
    t = started(4, level_minutes=20)
    op(t, 1.0, op="set_break", after_level=1, minutes=10)
    op(t, 2.0, op="set_break", after_level=1, minutes=0)
    assert t.settings.breaks == ()
    assert [type(e).__name__ for e in t.tick(20 * MIN)] == ["LevelChanged"]


def test_every_rule_change_is_a_new_version_with_what_and_why() -> None:
    t = started(4)
    d = Director(t)
    assert t.rules_version == 1 and t.rule_changes == []
    d.change_rules(1.0, reason="slow players", action_clock=30.0)
    d.change_schedule(2.0, [(100, 200), (200, 400)], reason="shorter night")
    d.set_deadline(3.0, 4 * 3600.0, reason="the hall closes")
    d.late_registration(4.0, 2, reason="friends on the way")
    events = d.set_break(5.0, 2, 10, reason="dinner")
    d.set_level(6.0, 2, reason="catching up")  # moving the clock is not a rule change
    d.pause(7.0, reason="phone call")
    assert t.rules_version == 6
    assert [(c.version, c.at, c.what, c.reason) for c in t.rule_changes] == [
        (2, 1.0, "action clock 30 s from the next hand", "slow players"),
        (3, 2.0, "new blind schedule from the next hand: 100/200, 200/400", "shorter night"),
        (4, 3.0, "The deadline is now in 4 h", "the hall closes"),
        (5, 4.0, "Late registration is open until the end of level 2, with 10,000 chips", "friends on the way"),
        (6, 5.0, "a break of 10 minutes after level 2", "dinner"),
    ]
    assert events[0].summary == "Rules v6: a break of 10 minutes after level 2"
    before = fingerprint(t)
    with pytest.raises(TournamentError):
        d.change_rules(8.0, reason="typo", action_clock=0.0)
    assert fingerprint(t) == before  # a refused change makes no version


def test_option_changes_read_as_words() -> None:
    t = started(4)
    events = Director(t).change_rules(1.0, reason="vote", ruleset="standard", level_minutes=15)
    assert events[0].summary == "Rules v2: ruleset standard, levels of 15 min from the next hand"
    events = Director(t).change_rules(2.0, reason="vote", hands_per_level=12, time_bank=90)
    assert events[0].summary == "Rules v3: time bank 90 s, levels of 12 hands per table from the next hand"
    events = Director(t).change_rules(3.0, reason="vote", ruleset=Ruleset.HICKORY, action_clock=7.5,
                                      reconnect_grace=120.0, level_minutes=1_000_000)
    assert events[0].summary == ("Rules v4: ruleset hickory, action clock 7.5 s, reconnect grace 120 s, "
                                 "levels of 1000000 min from the next hand")


def test_set_break_takes_its_bounds_and_names_the_level_on_now_only_past_the_schedule() -> None:
    from poker.levels import MAX_CHIPS

    t = started(4)
    op(t, 1.0, op="set_break", after_level=2, minutes=1)  # the shortest break
    op(t, 2.0, op="set_break", after_level=3, minutes=120)  # and the longest
    assert t.settings.breaks == ((2, 1), (3, 120))
    # At the schedule's last level, the message names the schedule alone.
    t = started(4, level_minutes=1)
    t.tick(14 * MIN)
    assert t.level == 15
    assert refused(t, {"op": "set_break", "after_level": 16, "minutes": 10}) == (
        "level 16 does not exist: the schedule has 15 levels (change the schedule to add levels)")
    # Past it (the blinds double on), it also names the level on now.
    t.tick(15 * MIN)
    assert t.level == 16
    assert refused(t, {"op": "set_break", "after_level": 17, "minutes": 10}) == (
        "level 17 does not exist: the schedule has 15 levels and the level on now is 16 "
        "(change the schedule to add levels)")
    # A schedule whose last level cannot double: a break may follow the level before it, not it.
    short = started(4)
    op(short, 1.0, op="set_schedule", schedule=[[100, 200], [MAX_CHIPS // 2, MAX_CHIPS]])
    op(short, 2.0, op="set_break", after_level=1, minutes=10)
    assert refused(short, {"op": "set_break", "after_level": 2, "minutes": 10}) == (
        "level 2 is the last level (its blinds cannot double again): no break can follow it")


def test_set_break_is_one_logged_versioned_rule_change() -> None:
    t = started(4)
    events = op(t, 5.0, op="set_break", after_level=2, minutes=10)
    record, changed = events
    assert (record.action, record.at, record.reason) == ("set_break", 5.0, "testing")
    assert record.summary == "Rules v2: a break of 10 minutes after level 2"
    assert changed == RulesChanged(changes=(("break", "2:10"),), version=2)
    assert t.audit_log[-1] is record
    events = op(t, 6.0, op="set_break", after_level=2, minutes=0)
    assert events[1] == RulesChanged(changes=(("break", "2:0"),), version=3)
    assert events[0].summary == "Rules v3: no break after level 2"


def test_a_break_taken_is_not_taken_twice_even_when_the_level_comes_again() -> None:
    t = started(4, level_minutes=20)
    op(t, 1.0, op="set_break", after_level=1, minutes=10)
    t.tick(20 * MIN)
    t.tick(30 * MIN)  # the break ran: level 2
    assert t.level == 2 and t.on_break is None
    op(t, 31 * MIN, op="set_level", level=1)
    assert refused(t, {"op": "set_break", "after_level": 1, "minutes": 10}) == (
        "the break after level 1 was taken already")


def test_a_break_shortened_to_end_right_now_ends_by_its_time() -> None:
    t = started(4, level_minutes=20)
    op(t, 1.0, op="set_break", after_level=1, minutes=30)
    t.tick(20 * MIN)
    events = op(t, 25 * MIN, op="set_break", after_level=1, minutes=5)  # ends exactly now
    assert events[0].summary == "Rules v3: the break after level 1 now lasts 5 minutes"
    assert events[1] == RulesChanged(changes=(("break", "1:5"),), version=3)
    assert BreakEnded(at=25 * MIN, after_level=1, level=2, small_blind=150, big_blind=300,
                      early=False, resumed=True) in events
    assert t.on_break is None and t.level == 2


def test_the_deadline_during_a_break_ends_the_night_and_the_break() -> None:
    from server.tournament import TournamentFinished

    t = started(4, level_minutes=20, deadline=40 * MIN)
    op(t, 1.0, op="set_break", after_level=1, minutes=30)
    t.tick(20 * MIN)
    assert t.on_break is not None
    events = t.tick(40 * MIN)  # the deadline comes before the break's end
    assert any(isinstance(e, TournamentFinished) for e in events)
    assert t.state == "finished" and t.on_break is None and t.break_left(41 * MIN) is None


def test_a_break_that_ends_as_the_deadline_passes_ends_the_night_in_the_same_tick() -> None:
    from server.tournament import DeadlinePassed, TournamentFinished

    t = started(4, level_minutes=20, deadline=40 * MIN)
    op(t, 1.0, op="set_break", after_level=1, minutes=20)
    t.tick(20 * MIN)
    events = t.tick(40 * MIN)  # the break's end and the deadline at once
    assert [type(e) for e in events] == [BreakEnded, DeadlinePassed, TournamentFinished]
    assert t.state == "finished"


def test_a_deal_after_two_levels_ran_out_unticked_is_refused_when_a_break_follows_the_second() -> None:
    """No tick for two levels (the loop was busy, say): the break after level 2 is due, so
    the deal is refused, and a refused deal changes nothing (issue 24: no events are kept
    back for a later call); the next tick takes both levels and begins the break."""
    t = started(4, level_minutes=20)
    op(t, 60.0, op="set_break", after_level=2, minutes=10)
    before = fingerprint(t)
    assert t.why_not_deal(1, 40 * MIN + 1) == "level 2 is over and a break follows it: no new hand starts"
    with pytest.raises(TournamentError):
        t.begin_hand(1, 40 * MIN + 1)
    assert fingerprint(t) == before
    assert t.tick(40 * MIN + 1) == [
        LevelChanged(level=2, small_blind=150, big_blind=300),
        LevelChanged(level=3, small_blind=200, big_blind=400),
        BreakStarted(at=40 * MIN + 1, after_level=2, minutes=10, until=50 * MIN + 1, next_level=3,
                     tables_in_hand=()),
    ]
