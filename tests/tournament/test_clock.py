"""The level clock (interpretation 1): by minutes or by hands, pause and resume, and a new
level applies from the next hand dealt at each table."""

from __future__ import annotations

from server.tournament import ClockPaused, ClockResumed, LevelChanged
from server.tournament.clock import LevelClock
from server.tournament.director import Director

from .helpers import act_once, play_hand, shove, started

MIN = 60.0


def test_the_clock_counts_only_running_time() -> None:
    c = LevelClock()
    c.start(1000.0)
    assert c.elapsed(1600.0) == 600.0
    c.pause(1600.0)
    assert c.elapsed(9999.0) == 600.0
    c.resume(5000.0)
    assert c.elapsed(5060.0) == 660.0
    assert c.advance_by_time(5060.0, 300.0, last=10) == [1, 2]
    assert c.remaining(5060.0, 300.0) == 240.0


def test_levels_by_minutes_start_at_100_200_and_follow_the_schedule() -> None:
    t = started(4)
    assert t.blinds == (100, 200) and t.level == 1
    assert t.tick(20 * MIN - 1) == []
    assert t.tick(20 * MIN) == [LevelChanged(level=2, small_blind=150, big_blind=300)]
    assert t.tick(45 * MIN) == [LevelChanged(level=3, small_blind=200, big_blind=400)]
    # a long gap passes several levels, each announced
    assert [e.level for e in t.tick(100 * MIN)] == [4, 5, 6]  # type: ignore[union-attr]
    assert t.level_info(100 * MIN).seconds_left == 20 * MIN


def test_past_the_schedule_the_blinds_double() -> None:
    t = started(2, schedule=[(100, 200), (200, 400)], level_minutes=1)
    t.tick(3 * MIN)
    assert t.blinds == (800, 1600)


def test_a_new_level_applies_from_the_next_hand_not_the_hand_in_progress() -> None:
    t = started(4)
    hand, _ = t.begin_hand(1, 20 * MIN - 5)
    assert (hand.small_blind, hand.big_blind) == (100, 200)
    assert t.tick(20 * MIN) == [LevelChanged(level=2, small_blind=150, big_blind=300)]
    assert (hand.small_blind, hand.big_blind) == (100, 200)
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    t.end_hand(1, 20 * MIN + 1)
    assert t.hand_level(1) == 1
    nxt, _ = t.begin_hand(1, 20 * MIN + 2)
    assert (nxt.small_blind, nxt.big_blind) == (150, 300) and t.hand_level(1) == 2


def test_a_hand_dealt_after_the_level_ran_out_uses_the_new_level_before_any_tick() -> None:
    t = started(4)
    hand, events = t.begin_hand(1, 20 * MIN + 3)
    assert (hand.small_blind, hand.big_blind) == (150, 300)
    # the deal reports the level change it applied, and nothing reports it twice
    assert events == [LevelChanged(level=2, small_blind=150, big_blind=300)]
    assert t.tick(20 * MIN + 4) == []


def test_pause_stops_the_clock_and_the_dealing_and_resume_restarts_both() -> None:
    t = started(4)
    events = Director(t).pause(10 * MIN, reason="dinner break")
    assert ClockPaused(at=10 * MIN, level=1, remaining=10 * MIN) in events
    assert not t.can_deal(1, 11 * MIN)
    assert "paused" in (t.why_not_deal(1, 11 * MIN) or "")
    assert t.tick(90 * MIN) == []  # no level passes while paused
    assert ClockResumed(at=90 * MIN, level=1) in Director(t).resume(90 * MIN, reason="back")
    assert t.can_deal(1, 90 * MIN)
    assert t.tick(100 * MIN - 1) == []
    assert t.tick(100 * MIN) == [LevelChanged(level=2, small_blind=150, big_blind=300)]


def test_levels_by_hands_count_hands_per_table() -> None:
    t = started(4, hands_per_level=2)
    _, ev = play_hand(t, 1, 0.0, shove([]))
    assert not any(isinstance(e, LevelChanged) for e in ev)
    assert t.level_info(0.0).hands_left == 1
    _, ev = play_hand(t, 1, 99999.0, shove([]))  # time does not matter
    assert [e for e in ev if isinstance(e, LevelChanged)] == [
        LevelChanged(level=2, small_blind=150, big_blind=300)
    ]
    hand, _ = play_hand(t, 1, 0.0, shove([]))
    assert hand.big_blind == 300


def test_levels_by_hands_with_two_tables_last_twice_as_many_hands_in_all() -> None:
    t = started(12, seats_per_table=6, hands_per_level=2)
    changed = []
    for i in range(4):
        _, ev = play_hand(t, 1 + i % 2, 0.0, shove([]))
        changed += [e.level for e in ev if isinstance(e, LevelChanged)]
    assert changed == [2]
    assert t.level_info(0.0).hands_left == 4


def test_the_director_switches_from_minutes_to_hands_and_the_level_counts_from_then() -> None:
    t = started(4)
    Director(t).change_rules(5 * MIN, reason="speed up", hands_per_level=1)
    assert t.tick(60 * MIN) == []
    _, ev = play_hand(t, 1, 60 * MIN, shove([]))
    assert [e.level for e in ev if isinstance(e, LevelChanged)] == [2]
    Director(t).change_rules(60 * MIN, reason="back to time", level_minutes=10)
    assert t.tick(69 * MIN) == []
    assert [e.level for e in t.tick(70 * MIN)] == [3]  # type: ignore[union-attr]


def test_the_level_clock_at_its_ends() -> None:
    """The clock alone, at the edges the tournament's tests pass over: a jump or a restart
    counts the level's hands from zero, nothing is left of a level that ran out, and the
    last level is never due to move on."""
    clock = LevelClock()
    clock.start(0.0)
    clock.count_hand(hands_per_level=3, tables=1, last=10)
    clock.count_hand(hands_per_level=3, tables=1, last=10)
    assert clock.hands_left(3, 1) == 1
    clock.set_level(4, 10.0)
    assert (clock.index, clock.hands_in_level, clock.hands_left(3, 2)) == (4, 0, 6)
    clock.count_hand(hands_per_level=3, tables=1, last=10)
    clock.restart_level(20.0)
    assert (clock.hands_in_level, clock.hands_left(3, 1), clock.in_level(20.0)) == (0, 3, 0.0)
    assert clock.remaining(80.0, 60.0) == 0.0  # ran out 60 s after the restart: nothing left
    assert clock.remaining(50.0, 60.0) == 30.0
    assert clock.reaches(80.0, 60.0, last=10, stops=frozenset({5})) == 5  # level 5 ran out: its break
    assert clock.reaches(80.0, 60.0, last=10, stops=frozenset({6})) is None  # one level, not two
    assert clock.reaches(140.0, 60.0, last=10, stops=frozenset({6})) == 6  # two ran out: the second's break
    assert clock.index == 4 and clock.in_level(140.0) == 120.0  # asking changed nothing
    clock.set_level(10, 100.0)  # the last level
    assert clock.reaches(1000.0, 60.0, last=10, stops=frozenset({11})) is None
    assert clock.advance_by_time(1000.0, 60.0, last=10) == [] and clock.index == 10
    for _ in range(5):  # more hands than the level has: none left, not fewer than none
        clock.count_hand(hands_per_level=2, tables=1, last=10)
    assert clock.hands_left(2, 1) == 0


def test_level_info_names_this_level_and_the_next_and_what_is_left_of_it() -> None:
    from server.tournament import Director

    t = started(3, level_minutes=20)
    info = t.level_info(5 * 60.0)
    assert (info.level, info.small_blind, info.big_blind, info.next_small_blind, info.next_big_blind) == (
        1, 100, 200, 150, 300)
    assert (info.running, info.seconds_left, info.hands_left) == (True, 15 * 60.0, None)
    Director(t).change_rules(6 * 60.0, reason="by hands", hands_per_level=4)
    info = t.level_info(7 * 60.0)
    assert (info.seconds_left, info.hands_left) == (None, 4)


def test_a_pause_says_what_is_left_of_the_level_by_time_and_nothing_by_hands() -> None:
    from server.tournament import ClockPaused, Director

    t = started(3, level_minutes=20)
    (_, paused) = Director(t).pause(5 * 60.0, reason="x")
    assert paused == ClockPaused(at=5 * 60.0, level=1, remaining=15 * 60.0)
    t = started(3, hands_per_level=4)
    (_, paused) = Director(t).pause(5 * 60.0, reason="x")
    assert paused == ClockPaused(at=5 * 60.0, level=1, remaining=None)


def test_the_deadline_is_reached_at_its_very_second() -> None:
    t = started(3, deadline=600.0)
    assert t.tick(599.0) == [] and t.state == "running"
    t.tick(600.0)
    assert t.state == "finished"


def test_voiding_needs_a_hand_in_progress() -> None:
    import pytest

    from server.tournament import TournamentError

    t = started(3)
    with pytest.raises(TournamentError) as info:
        t.void_hand(1, 1.0)
    assert str(info.value) == "table 1 has no hand in progress to void"
    hand, _ = t.begin_hand(1, 1.0)
    play_out_hand = shove([])
    while not hand.is_over:
        act_once(t, 1, hand, play_out_hand)
    with pytest.raises(TournamentError) as info:
        t.void_hand(1, 2.0)
    assert str(info.value) == "table 1 has no hand in progress to void"


def test_levels_by_hands_move_one_at_a_time_and_stop_at_the_last() -> None:
    clock = LevelClock()
    clock.start(0.0)
    moved = [clock.count_hand(hands_per_level=1, tables=1, last=3) for _ in range(5)]
    assert moved == [[1], [2], [3], [], []] and clock.index == 3
