"""The director's operations (interpretation 9): each has a reason and an audit record, and
the ones that touch a hand apply when it ends."""

from __future__ import annotations

import pytest

from poker.actions import Ruleset
from poker.cards import seeded_rng
from poker.limits import MAX_CHIPS
from server.tournament import (
    Announcement,
    ChipsCorrected,
    DirectorAction,
    FloorCalled,
    LevelChanged,
    MoveReason,
    PlayerEliminated,
    PlayerMoved,
    RulesChanged,
    Settings,
    Tournament,
    TournamentError,
)
from server.tournament.director import Director

from .helpers import act_once, check_balanced, check_chips, check_seating, player_at, shove, started


def audited(events, action):  # type: ignore[no-untyped-def]
    record = events[0]
    assert isinstance(record, DirectorAction) and record.action == action
    return record


def test_every_operation_needs_a_reason() -> None:
    t = started(4)
    with pytest.raises(TournamentError, match="reason"):
        Director(t).pause(0.0, reason="  ")
    with pytest.raises(TournamentError, match="reason"):
        Director(t).correct_chips(0.0, "p01", 100, reason="")
    assert t.audit_log == []


def test_every_operation_is_kept_in_the_audit_log_in_order() -> None:
    t = Tournament(Settings(), seeded_rng(1))
    for i in range(1, 13):
        t.register(f"p{i:02d}", f"P{i:02d}")
    d = Director(t)
    ops = [
        d.start(0.0, reason="7pm, all seated"),
        d.pause(60.0, reason="fire alarm"),
        d.resume(120.0, reason="all clear"),
        d.set_level(130.0, 3, reason="late start, catch up"),
        d.change_schedule(140.0, [(100, 200), (200, 400), (300, 600), (500, 1000)], reason="shorter night"),
        d.change_rules(150.0, reason="vote", ruleset="standard", action_clock=20, time_bank=90),
        d.set_deadline(160.0, 5000.0, reason="the hall closes at midnight"),
        d.move_player(170.0, "p01", 2 if t.location("p01").table_id == 1 else 1, reason="seat swap"),  # type: ignore[union-attr]
        d.correct_chips(180.0, "p02", 500, reason="miscount"),
        d.transfer_chips(190.0, "p03", "p04", 200, reason="pot pushed to the wrong player"),
        d.remove_player(200.0, "p05", reason="collusion"),
        d.announce(210.0, "Last level before the break", reason="information"),
    ]
    actions = [audited(e, a).action for e, a in zip(ops, [
        "start", "pause", "resume", "set_level", "change_schedule", "change_rules", "set_deadline",
        "move_player", "correct_chips", "transfer_chips", "remove_player", "announce",
    ], strict=True)]
    assert [r.action for r in t.audit_log] == actions
    assert [r.seq for r in t.audit_log] == list(range(1, 13))
    assert t.audit_log[1].reason == "fire alarm" and t.audit_log[1].at == 60.0
    check_chips(t)
    check_seating(t)


def test_a_chip_correction_goes_through_the_adjustment_account_and_reconciles() -> None:
    t = started(4)
    events = Director(t).correct_chips(5.0, "p01", 750, reason="dealer miscount")
    record = audited(events, "correct_chips")
    assert record.concerns == ("p01",) and "750" in record.summary
    assert ChipsCorrected(player_id="p01", delta=750, stack=10750, counterpart=None, adjustment=-750) in events
    assert t.total_chips() == t.chips_issued == 40000
    assert t.chips_in_play() == 40750
    Director(t).correct_chips(6.0, "p02", -250, reason="chips found")
    assert t.adjustment == -500 and t.total_chips() == 40000
    with pytest.raises(TournamentError, match="remove the player"):
        Director(t).correct_chips(7.0, "p03", -10000, reason="no")


def test_a_chip_transfer_moves_chips_between_players() -> None:
    t = started(4)
    events = Director(t).transfer_chips(0.0, "p01", "p02", 1000, reason="pot misread")
    assert [(e.player_id, e.delta, e.stack) for e in events if isinstance(e, ChipsCorrected)] == [
        ("p01", -1000, 9000), ("p02", 1000, 11000),
    ]
    assert t.adjustment == 0 and t.total_chips() == 40000


def test_a_correction_for_a_player_in_a_hand_applies_when_the_hand_ends() -> None:
    t = started(4)
    hand, _ = t.begin_hand(1, 0.0)
    events = Director(t).correct_chips(1.0, "p01", 300, reason="miscount before the deal")
    assert audited(events, "correct_chips").pending and len(events) == 1
    assert hand.stack(t.location("p01").seat) <= 10000  # type: ignore[union-attr]
    check_chips(t)
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    before = dict(hand.result.stacks)[t.location("p01").seat]  # type: ignore[union-attr]
    events = t.end_hand(1, 2.0)
    assert [e.stack for e in events if isinstance(e, ChipsCorrected)] == [before + 300]
    check_chips(t)


def test_setting_a_stack_between_hands_moves_the_difference_through_the_adjustment_account() -> None:
    t = started(4)
    events = Director(t).set_stack(0.0, "p01", 12_345, reason="miscount")
    (corrected,) = [e for e in events if isinstance(e, ChipsCorrected)]
    assert (corrected.delta, corrected.stack, t.adjustment) == (2345, 12_345, -2345)
    assert audited(events, "set_stack").summary == "Chip count of P01 set to 12345"
    again = Director(t).set_stack(1.0, "p01", 12_345, reason="said twice")
    assert not any(isinstance(e, ChipsCorrected) for e in again) and t.stack_of("p01") == 12_345
    Director(t).set_stack(2.0, "p02", 1, reason="down to one chip")
    assert t.stack_of("p02") == 1 and t.adjustment == -2345 + 9999
    check_chips(t)
    for bad in (0, -5, True, 2.5):
        with pytest.raises(TournamentError, match="remove the player instead"):
            Director(t).set_stack(3.0, "p03", bad, reason="typo")  # type: ignore[arg-type]


def test_setting_the_stack_of_a_player_in_a_hand_gives_exactly_that_stack_after_it() -> None:
    # The hand changes the stack before the setting applies: the player still ends with
    # exactly the number the director gave (a difference fixed at once would not).
    t = started(4)
    hand, _ = t.begin_hand(1, 0.0)
    events = Director(t).set_stack(1.0, "p01", 15_000, reason="count after the hand")
    assert audited(events, "set_stack").pending
    while not hand.is_over:
        act_once(t, 1, hand, shove(["p01", "p02"]))
    assert dict(hand.result.stacks)[t.location("p01").seat] != 10_000  # type: ignore[union-attr]
    events = t.end_hand(1, 2.0)
    if t.location("p01") is None:  # busted in the hand: not applied, and told so
        assert any(isinstance(e, Announcement) and "not applied" in e.text for e in events)
    else:
        assert t.stack_of("p01") == 15_000
    check_chips(t)


def test_removal_places_the_player_as_eliminated_then_and_their_chips_leave_play() -> None:
    t = started(6)
    events = Director(t).remove_player(3.0, "p04", reason="abusive behaviour")
    (out,) = [e for e in events if isinstance(e, PlayerEliminated)]
    assert (out.place, out.removed, out.starting_stack, out.players_left) == (6, True, 10000, 5)
    assert t.adjustment == 10000 and t.total_chips() == 60000 and t.chips_in_play() == 50000
    last = t.standings()[-1]
    assert (last.player_id, last.place, last.removed, last.eliminated) == ("p04", 6, True, True)
    assert t.location("p04") is None
    check_seating(t)
    with pytest.raises(TournamentError, match="out of the tournament"):
        Director(t).correct_chips(4.0, "p04", 100, reason="too late")


def test_removal_of_a_player_in_a_hand_waits_for_the_hand() -> None:
    t = started(4)
    hand, _ = t.begin_hand(1, 0.0)
    victim = player_at(t, 1, hand.seats[0])
    events = Director(t).remove_player(1.0, victim, reason="disqualified")
    assert audited(events, "remove_player").pending
    assert victim in t.players_in()
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    events = t.end_hand(1, 2.0)
    (out,) = [e for e in events if isinstance(e, PlayerEliminated) and e.player_id == victim]
    assert out.removed and out.place == len(t.players_in()) + 1
    check_chips(t)
    check_seating(t)


def test_a_rule_change_takes_effect_from_the_next_hand() -> None:
    t = started(4)
    hand, _ = t.begin_hand(1, 0.0)
    events = Director(t).change_rules(1.0, reason="players' vote", ruleset=Ruleset.STANDARD, action_clock=15.0)
    assert RulesChanged(changes=(("ruleset", "standard"), ("action_clock", "15.0")), version=2) in events
    record = audited(events, "change_rules")
    assert record.concerns == () and "next hand" in record.summary  # announced to everyone
    assert hand.ruleset is Ruleset.HICKORY
    assert t.hand_settings(1).action_clock == 30.0  # the hand in progress keeps its clock
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    t.end_hand(1, 2.0)
    nxt, _ = t.begin_hand(1, 3.0)
    assert nxt.ruleset is Ruleset.STANDARD and t.hand_settings(1).action_clock == 15.0


def test_setting_the_level_changes_the_blinds_of_the_next_hand() -> None:
    t = started(4)
    hand, _ = t.begin_hand(1, 0.0)
    events = Director(t).set_level(1.0, 4, reason="catch up")
    assert LevelChanged(level=4, small_blind=300, big_blind=600, by_director=True) in events
    assert hand.big_blind == 200
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    t.end_hand(1, 2.0)
    assert t.begin_hand(1, 3.0)[0].big_blind == 600
    # the level restarts: 20 minutes from when it was set
    assert t.tick(20 * 60.0) == []
    assert [e.level for e in t.tick(21 * 60.0 + 1)] == [5]  # type: ignore[union-attr]
    with pytest.raises(TournamentError, match="from 1"):
        Director(t).set_level(4.0, 0, reason="bad")


def test_a_new_schedule_applies_to_the_current_level_from_the_next_hand() -> None:
    t = started(4)
    events = Director(t).change_schedule(0.0, [(50, 100), (100, 200)], reason="slower start")
    assert LevelChanged(level=1, small_blind=50, big_blind=100, by_director=True) in events
    assert t.begin_hand(1, 1.0)[0].big_blind == 100
    with pytest.raises(TournamentError, match="small blind <= big blind"):
        Director(t).change_schedule(2.0, [(300, 200)], reason="typo")


def test_moving_a_player_to_a_table_in_a_hand_seats_them_after_it() -> None:
    t = started(12, seats_per_table=7)
    hand, _ = t.begin_hand(2, 0.0)
    mover = player_at(t, 1, min(t.table(1).seats))
    events = Director(t).move_player(1.0, mover, 2, reason="sit with the right table number")
    (moved,) = [e for e in events if isinstance(e, PlayerMoved)]
    assert moved.reason is MoveReason.DIRECTOR and moved.on_the_way and moved.to_table == 2
    check_seating(t)
    while not hand.is_over:
        act_once(t, 2, hand, shove([]))
    t.end_hand(2, 2.0)
    assert t.location(mover) is not None and not t.location(mover).on_the_way  # type: ignore[union-attr]
    check_balanced(t)  # 7 against 5: the next big blind at table 2 went to table 1
    check_seating(t)
    check_chips(t)


def test_moving_a_player_in_a_hand_waits_for_the_hand() -> None:
    t = started(12, seats_per_table=7)
    hand, _ = t.begin_hand(1, 0.0)
    mover = player_at(t, 1, hand.seats[0])
    seat = t.table(2).empty_seats()[0]
    events = Director(t).move_player(1.0, mover, 2, seat, reason="wrong seat")
    assert audited(events, "move_player").pending and t.location(mover).table_id == 1  # type: ignore[union-attr]
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    events = t.end_hand(1, 2.0)
    moved = [e for e in events if isinstance(e, PlayerMoved) and e.player_id == mover]
    assert moved and moved[0].to_table == 2 and moved[0].to_seat == seat
    check_seating(t)


def test_a_taken_seat_or_a_missing_table_is_refused() -> None:
    t = started(12, seats_per_table=6)
    taken = min(t.table(2).seats)
    with pytest.raises(TournamentError, match="taken"):
        Director(t).move_player(0.0, player_at(t, 1, min(t.table(1).seats)), 2, taken, reason="x")
    with pytest.raises(TournamentError, match="no table 7"):
        Director(t).move_player(0.0, "p01", 7, reason="x")


def test_announcements_go_to_everyone_or_to_some() -> None:
    t = started(4)
    events = Director(t).announce(0.0, "Dinner at nine", reason="information")
    assert Announcement(at=0.0, text="Dinner at nine", to=(), reason="information") in events
    events = Director(t).announce(1.0, "Please take your seat", to=["p02"], reason="late")
    assert Announcement(at=1.0, text="Please take your seat", to=("p02",), reason="late") in events
    assert audited(events, "announce").concerns == ("p02",)


def test_moving_the_deadline_earlier_ends_the_tournament_after_the_hands_in_play() -> None:
    t = started(4)
    hand, _ = t.begin_hand(1, 0.0)
    events = Director(t).set_deadline(10.0, 10.0, reason="the hall closes early")
    assert not t.finished and not t.can_deal(1, 10.0)
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    events = t.end_hand(1, 11.0)
    assert t.finished and t.result in events


def test_a_player_can_call_the_floor() -> None:
    t = started(4)
    loc = t.location("p03")
    (e,) = t.call_floor(5.0, "p03", "my cards were exposed")
    assert e == FloorCalled(at=5.0, player_id="p03", table_id=loc.table_id, seat=loc.seat,  # type: ignore[union-attr]
                            message="my cards were exposed", call_id=1, hand_no=None)


def test_a_transfer_between_players_at_two_tables_in_hands_waits_for_both() -> None:
    t = started(12, seats_per_table=7)
    h1, _ = t.begin_hand(1, 0.0)
    h2, _ = t.begin_hand(2, 0.0)
    a = player_at(t, 1, h1.seats[0])
    b = player_at(t, 2, h2.seats[0])
    assert audited(Director(t).transfer_chips(1.0, a, b, 100, reason="wrong pot"), "transfer_chips").pending
    while not h1.is_over:
        act_once(t, 1, h1, shove([]))
    assert not any(isinstance(e, ChipsCorrected) for e in t.end_hand(1, 2.0))
    # table 1 holds its next deal until the operation can apply
    assert "director" in (t.why_not_deal(1, 2.0) or "")
    while not h2.is_over:
        act_once(t, 2, h2, shove([]))
    events = t.end_hand(2, 3.0)
    assert [(e.player_id, e.delta) for e in events if isinstance(e, ChipsCorrected)] == [(a, -100), (b, 100)]
    assert t.can_deal(1, 3.0)
    check_chips(t)


def test_a_move_waiting_for_a_hand_is_not_applied_when_the_table_has_filled_meanwhile() -> None:
    """Found by the property test: the move waited for the player's hand, late entries
    took the last empty seat at the destination, and applying it crashed the hand's end."""
    t = started(6, seats_per_table=4)  # two tables of 3
    hand, _ = t.begin_hand(1, 0.0)
    mover = player_at(t, 1, hand.seats[0])
    d = Director(t)
    assert audited(d.move_player(1.0, mover, 2, reason="swap tables"), "move_player").pending
    d.late_registration(1.0, 1, reason="latecomers")
    t.register("late1", "Late One")  # to table 1 (after its hand)
    t.register("late2", "Late Two")  # the last empty seat at table 2
    assert not t.seating.free_seats(2)
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    events = t.end_hand(1, 2.0)
    (note,) = [e for e in events if isinstance(e, Announcement) and e.to == (mover,)]
    assert "no empty seat left" in note.text and t.location(mover).table_id == 1  # type: ignore[union-attr]
    assert (note.at, note.to) == (1.0, (mover,))  # said at the director's time, to the player alone
    check_seating(t)
    check_chips(t)


def test_a_tables_hand_keeps_the_level_and_settings_it_was_dealt_with() -> None:
    t = started(12, seats_per_table=6, schedule=[(100, 200), (200, 400)])
    assert (t.hands_dealt_at(1), t.hand_level(1), t.in_hand(1)) == (0, 1, False)
    assert t.hands_dealt_at(99) == 0  # no such table: none dealt there
    assert t.hand_settings(1) is t.settings  # before any hand: the tournament's
    hand, _ = t.begin_hand(1, 0.0)
    dealt_with = t.settings
    Director(t).set_level(1.0, 2, reason="speed up")
    Director(t).change_rules(1.0, action_clock=12.0, reason="faster")
    assert (t.hands_dealt_at(1), t.hands_dealt_at(2), t.hand_level(1), t.level) == (1, 0, 1, 2)
    assert t.hand_settings(1) == dealt_with and t.hand_settings(1).action_clock == 30.0
    assert t.hand_settings(2).action_clock == 12.0  # no hand there yet: the new settings
    assert t.in_hand(1) and not t.in_hand(2)
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    assert t.in_hand(1), "over but not ended: still the table's hand"
    t.end_hand(1, 2.0)
    assert not t.in_hand(1)
    nxt, _ = t.begin_hand(1, 3.0)
    assert (nxt.big_blind, t.hand_level(1), t.hands_dealt_at(1)) == (400, 2, 2)
    assert t.hand_settings(1).action_clock == 12.0


def test_set_stack_says_what_it_refuses_and_what_it_did_not_apply() -> None:
    t = started(4)
    with pytest.raises(TournamentError) as info:
        Director(t).set_stack(0.0, "p01", 0, reason="x")
    assert str(info.value) == ("a stack is a whole number of chips above 0, not 0: to take every chip, "
                               "remove the player instead")
    with pytest.raises(TournamentError) as info:
        Director(t).set_stack(0.0, "p01", MAX_CHIPS, reason="x")
    assert str(info.value) == f"a stack of {MAX_CHIPS} would put more chips in play than the limit of {MAX_CHIPS}"
    # The most that fits: every other chip in play plus this stack is exactly the limit.
    most = MAX_CHIPS - (t.chips_in_play() - t.stack_of("p01"))
    Director(t).set_stack(0.0, "p01", most, reason="x")
    assert t.chips_in_play() == MAX_CHIPS
    check_chips(t)
    hand, _ = t.begin_hand(1, 1.0)
    (record,) = Director(t).set_stack(1.0, "p02", 5, reason="after the hand")
    assert record.pending and record.summary == "Chip count of P02 set to 5 after the current hand"
    while not hand.is_over:
        act_once(t, 1, hand, shove(["p02", "p01"]))
    events = t.end_hand(1, 2.0)
    if t.location("p02") is None:
        (note,) = [e for e in events if isinstance(e, Announcement)]
        assert "the chip count of 5 for P02 was not applied" in note.text
    else:
        assert t.stack_of("p02") == 5
