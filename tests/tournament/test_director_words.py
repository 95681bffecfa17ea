"""What the director reads back: each operation's audit record (its action name and
summary, the words players are told) and each refusal's message, exactly
(docs/testing.md: mutants of these texts lived, since other tests only looked at state)."""

from __future__ import annotations

import pytest

from server.tournament import Announcement, Director, TournamentError
from server.tournament.director_limits import MAX_ANNOUNCEMENT
from server.tournament.director_words import deadline_summary

from .helpers import play_out, player_at, shove, stacked_deck, started


def refused(call: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(TournamentError) as info:
        call(*args, **kwargs)  # type: ignore[operator]
    return str(info.value)


def test_pause_and_resume_in_words() -> None:
    t = started(3)
    d = Director(t)
    assert refused(d.resume, 1.0, reason="x") == "the clock is not paused"
    (record, _) = d.pause(1.0, reason="phone call")
    assert (record.action, record.summary) == ("pause", "The clock is paused: hands in progress finish, no new hand starts")
    assert refused(d.pause, 2.0, reason="x") == "the clock is already paused"
    (record, *_) = d.resume(3.0, reason="back")
    assert (record.action, record.summary) == ("resume", "The clock resumes")


def test_resume_ends_a_break_with_a_resume_record() -> None:
    t = started(3, level_minutes=20)
    d = Director(t)
    d.set_break(1.0, 1, 30, reason="dinner")
    t.tick(20 * 60.0)
    (record, *_) = d.resume(25 * 60.0, reason="everyone is back")
    assert record.action == "resume" and record.reason == "everyone is back"


def test_late_registration_in_words() -> None:
    t = started(3)
    d = Director(t)
    (record,) = d.late_registration(1.0, 2, reason="friends")
    assert (record.action, record.summary) == (
        "late_registration", "Rules v2: Late registration is open until the end of level 2, with 10,000 chips")
    (record,) = d.late_registration(2.0, None, reason="full")
    assert record.summary == "Rules v3: Late registration is closed"
    assert refused(d.late_registration, 3.0, "2", reason="x") == (
        "late registration runs to a level (a number) or is closed, not '2'")


def test_announcements_in_words_and_bounds() -> None:
    t = started(3)
    d = Director(t)
    record, said = d.announce(1.0, "  Dinner at nine  ", to=["p02"])
    assert (record.action, record.reason, record.summary, record.concerns) == (
        "announce", "announcement", "Dinner at nine", ("p02",))
    assert said == Announcement(at=1.0, text="Dinner at nine", to=("p02",), reason="announcement")
    d.announce(2.0, "x" * MAX_ANNOUNCEMENT)  # the longest
    assert refused(d.announce, 3.0, "x" * (MAX_ANNOUNCEMENT + 1)) == (
        f"an announcement is at most {MAX_ANNOUNCEMENT} characters, not {MAX_ANNOUNCEMENT + 1}")
    assert refused(d.announce, 3.0, "  ") == "an announcement needs a text"
    assert refused(d.announce, 3.0, "hi", to="p02") == "an announcement goes to a list of players, not 'p02'"
    assert refused(d.announce, 3.0, "hi", to=[2]) == "an announcement goes to a list of players, not [2]"


def test_a_removal_waiting_for_a_hand_the_player_busts_in_is_not_applied() -> None:
    t = started(3)
    a, b = (player_at(t, 1, s) for s in sorted(t.table(1).seats)[:2])
    hand, _ = t.begin_hand(1, 1.0, deck=stacked_deck(t, 1, {a: "2c7d", b: "AsAh"}, "Ks Qh 6c 5s Jd"))
    (record,) = Director(t).remove_player(2.0, a, reason="collusion")
    assert record.pending and record.summary == f"{t.name_of(a)} is removed from the tournament after the current hand"
    play_out(t, 1, hand, shove([a, b]))
    events = t.end_hand(1, 3.0)
    (note,) = [e for e in events if isinstance(e, Announcement)]
    assert note == Announcement(at=2.0, to=(a,), text=(
        f"The director's the removal for {t.name_of(a)} was not applied: eliminated first (place 3)"))


def test_the_deadline_in_words() -> None:
    assert deadline_summary(0.0, None) == "No deadline"
    assert deadline_summary(100.0, 40.0) == "The deadline is now in 0 min"  # already past: now
    assert deadline_summary(100.0, 100.0 + 29) == "The deadline is now in 0 min"
    assert deadline_summary(100.0, 100.0 + 17 * 60) == "The deadline is now in 17 min"
    assert deadline_summary(100.0, 100.0 + 2 * 3600) == "The deadline is now in 2 h"
    assert deadline_summary(100.0, 100.0 + 2 * 3600 + 5 * 60) == "The deadline is now in 2 h 05 min"


def test_the_directors_common_refusals_word_for_word() -> None:
    from server.tournament.director_limits import MAX_REASON

    t = started(3)
    d = Director(t)
    assert refused(d.pause, 1.0, reason=" ") == "every director action needs a reason (it goes in the audit log)"
    d.announce(1.0, "hi", reason="r" * MAX_REASON)  # the longest reason
    assert refused(d.announce, 1.0, "hi", reason="r" * (MAX_REASON + 1)) == (
        f"a reason is at most {MAX_REASON} characters, not {MAX_REASON + 1}")
    assert refused(d.void_hand, 1.0, "1", reason="x") == "a table is a number, not '1'"
    assert refused(d.change_rules, 1.0, reason="x", level_minutes=10, hands_per_level=5) == (
        "levels run by minutes or by hands, not both: give one")
    assert refused(d.change_rules, 1.0, reason="x") == "no rule to change was given"
    assert refused(d.correct_chips, 1.0, "p01", -10_000, reason="x") == (
        "P01 (player p01) has 10000 chips: a change of -10000 would leave none; remove the player instead")
    d.correct_chips(1.0, "p01", -9_999, reason="down to one chip")  # one chip left is allowed
    assert refused(t.end_hand, 1, 2.0) == "table 1 has no hand to end"
    hand, _ = t.begin_hand(1, 2.0)
    assert refused(t.end_hand, 1, 2.0) == f"hand #{hand.hand_no} at table 1 is still being played"


def test_the_start_the_schedule_and_the_end_in_the_directors_words() -> None:
    from poker.cards import seeded_rng
    from server.tournament import RulesChanged, Settings, Tournament

    t = Tournament(Settings(), seeded_rng(1))
    for i in range(1, 4):
        t.register(f"p{i:02d}", f"P{i:02d}")
    (record, *_) = Director(t).start(1.0, reason="seven o'clock")
    assert (record.action, record.summary) == ("start", "The tournament starts")
    events = Director(t).change_schedule(2.0, [(100, 200), (300, 600)], reason="faster")
    assert events[0].summary == "Rules v2: new blind schedule from the next hand: 100/200, 300/600"
    assert RulesChanged(changes=(("schedule", "100/200, 300/600"),), version=2) in events
    Director(t).remove_player(3.0, "p01", reason="gone home")
    Director(t).remove_player(3.0, "p02", reason="gone home")
    assert t.state == "finished"
    assert refused(Director(t).set_level, 4.0, 1, reason="x") == "the tournament is over"
    assert refused(Director(t).pause, 4.0, reason="x") == "the tournament is not running (finished)"


def test_an_operation_on_a_player_who_is_out_names_them_and_their_place() -> None:
    t = started(4)
    Director(t).remove_player(1.0, "p01", reason="gone home")
    assert refused(Director(t).correct_chips, 2.0, "p01", 5, reason="x") == (
        "P01 (player p01) is out of the tournament (place 4)")
