"""Every director input is checked against the rules before anything changes (issue 12,
defect 1): a level past the schedule, blinds or chips above 2^53-1, absurd clocks, unknown
players, seats that do not exist, deadlines in the past... each is refused with a message a
director can act on, and a refused input leaves the tournament exactly as it was."""

from __future__ import annotations

import math
from typing import Any

import pytest

from poker.limits import MAX_CHIPS
from protocol.fields import MAX_INT
from server.tournament import LevelChanged, Settings, TournamentError
from server.tournament.inputs import apply_director, apply_input

from .helpers import check_chips, fingerprint, started

MIN = 60.0


def refused(t, payload: dict[str, Any], match: str) -> str:  # type: ignore[no-untyped-def]
    """Apply a logged director operation that must be refused; nothing may change."""
    before = fingerprint(t)
    with pytest.raises(TournamentError, match=match) as info:
        apply_director(t, {"now": 10.0, "reason": "testing", **payload})
    assert fingerprint(t) == before, f"{payload} was refused but changed the tournament"
    return str(info.value)


def test_the_chip_limit_is_the_protocols_integer_limit() -> None:
    assert MAX_CHIPS == MAX_INT == 2**53 - 1


def test_a_level_past_the_schedule_is_refused_with_the_number_of_levels() -> None:
    t = started(4)
    assert refused(t, {"op": "set_level", "level": 99}, "level 99") == (
        "level 99 does not exist: the schedule has 15 levels (change the schedule to add levels)"
    )
    refused(t, {"op": "set_level", "level": 50}, "level 50 does not exist")
    refused(t, {"op": "set_level", "level": 16}, "the schedule has 15 levels")
    refused(t, {"op": "set_level", "level": 10**30}, "does not exist")
    for bad in (0, -3, 2.0, "3", True, None, [3]):
        refused(t, {"op": "set_level", "level": bad}, "numbered from 1")
    events = apply_director(t, {"op": "set_level", "now": 10.0, "reason": "catch up", "level": 15})
    assert LevelChanged(level=15, small_blind=10000, big_blind=20000, by_director=True) in events


def test_a_level_the_clock_has_reached_past_the_schedule_can_be_set_again() -> None:
    t = started(2, schedule=[(100, 200), (200, 400)], level_minutes=1)
    t.tick(3 * MIN)
    assert t.level == 4
    apply_director(t, {"op": "set_level", "now": 200.0, "reason": "one back", "level": 3})
    assert t.blinds == (400, 800)
    refused(t, {"op": "set_level", "level": 5}, "the schedule has 2 levels and the level on now is 3")


def test_levels_stop_rising_where_the_blinds_would_pass_the_chip_limit() -> None:
    t = started(2, schedule=[(1, 2)], level_minutes=1, starting_stack=5)
    t.tick(10_000 * MIN)  # a night far longer than any: the clock stops at the last level
    sb, bb = t.blinds
    assert bb <= MAX_CHIPS < 2 * bb and t.level == 52
    info = t.level_info(10_000 * MIN)
    assert (info.next_small_blind, info.next_big_blind) == (sb, bb)
    assert t.tick(20_000 * MIN) == []


def test_a_schedule_is_whole_chips_rising_within_the_limit() -> None:
    t = started(4)
    cases: list[tuple[object, str]] = [
        ([], "at least one level"),
        ([(300, 200)], "small blind <= big blind"),
        ([(0, 0)], "small blind <= big blind"),
        ([(-100, 200)], "small blind <= big blind"),
        ([(100, 200), (100, 200)], "blinds rise"),
        ([(100, 200), (50, 400)], "blinds rise"),
        ([(100, 200), (150, 150)], "blinds rise"),
        ([(1, MAX_CHIPS + 1)], f"at most {MAX_CHIPS}"),
        ([(100, 200.5)], "whole chips"),
        ([("100", "200")], "whole chips"),
        ([(True, 2)], "whole chips"),
        ([(100, 200, 300, 400)], "whole chips"),  # (three numbers: a big-blind ante, issue 27)
        ([(100, 200, -1)], "the ante of level 1 is 0 to"),
        ([(100, 200, 2.5)], "the ante of level 1 is 0 to"),
        (["100/200"], "level 1 is"),
        ([5], "level 1 is"),
        ("100/200", "a blind schedule is a list"),
        (None, "a blind schedule is a list"),
        ([(i, i + 1) for i in range(1, 300)], "at most 200 levels"),
    ]
    for schedule, match in cases:
        refused(t, {"op": "set_schedule", "schedule": schedule}, match)


def test_a_schedule_that_would_put_the_current_level_above_the_limit_is_refused() -> None:
    t = started(2, schedule=[(1, 2)], level_minutes=1, starting_stack=5)
    t.tick(45 * MIN)  # level 46: 2^45 chips big blind
    msg = refused(t, {"op": "set_schedule", "schedule": [(2**50, 2**51)]}, "level 46")
    assert "set an earlier level first" in msg


def test_clocks_and_options_must_be_sensible() -> None:
    t = started(4)
    cases: list[tuple[dict[str, object], str]] = [
        ({"action_clock": -5}, "action_clock is from 1 to 3600 seconds"),
        ({"action_clock": 0}, "action_clock"),
        ({"action_clock": 10**9}, "action_clock"),
        ({"action_clock": math.nan}, "action_clock"),
        ({"action_clock": math.inf}, "action_clock"),
        ({"action_clock": "30"}, "action_clock"),
        ({"action_clock": True}, "action_clock"),
        ({"time_bank": -1}, "time_bank is from 0 to 86400"),
        ({"time_bank": 1e300}, "time_bank"),
        ({"reconnect_grace": -0.5}, "reconnect_grace"),
        ({"level_minutes": 0.001}, "level_minutes is from 1 to 1e\\+06 minutes"),
        ({"level_minutes": 1e12}, "level_minutes"),
        ({"hands_per_level": 0}, "hands_per_level is a whole number"),
        ({"hands_per_level": 2.5}, "hands_per_level"),
        ({"hands_per_level": 10**12}, "hands_per_level"),
        ({"ruleset": "poker"}, "unknown ruleset 'poker' \\(known: hickory, standard\\)"),
        ({"ruleset": ["hickory"]}, "unknown ruleset"),
        ({"level_minutes": 5, "hands_per_level": 5}, "not both"),
        ({}, "no rule to change"),
        ({"antes": 25}, "unknown option antes"),
    ]
    for options, match in cases:
        refused(t, {"op": "set_options", "options": options}, match)
    refused(t, {"op": "set_options", "options": [("action_clock", 5)]}, "a mapping of options")


def test_a_deadline_in_the_past_or_not_a_time_is_refused() -> None:
    t = started(4)
    msg = refused(t, {"op": "set_deadline", "now": 500.0, "deadline": 200.0}, "300 seconds in the past")
    assert "give a later one" in msg
    for bad in (math.nan, math.inf, "midnight", True):
        refused(t, {"op": "set_deadline", "deadline": bad}, "the deadline is a time")
    refused(t, {"op": "set_deadline", "now": 500.0, "deadline": 439.0}, "61 seconds in the past")
    # The time now, typed to the minute, arrives a little late: it means now.
    apply_director(t, {"op": "set_deadline", "now": 500.0, "reason": "now", "deadline": 450.0})
    assert t.settings.deadline == 500.0 and not t.can_deal(1, 500.0)


def test_chip_corrections_stay_within_the_limit() -> None:
    t = started(4)
    room = MAX_CHIPS - t.chips_in_play()
    msg = refused(t, {"op": "adjust_chips", "player_id": "p01", "delta": room + 1}, "above the limit")
    assert str(MAX_CHIPS) in msg
    refused(t, {"op": "adjust_chips", "player_id": "p01", "delta": 2**64}, "above the limit")
    for bad in (0, 1.5, "100", None, True):
        refused(t, {"op": "adjust_chips", "player_id": "p01", "delta": bad}, "whole number of chips")
    refused(t, {"op": "adjust_chips", "player_id": "p01", "delta": -(2**70)}, "remove the player instead")
    apply_director(t, {"op": "adjust_chips", "now": 10.0, "reason": "all in", "player_id": "p01", "delta": room})
    assert t.chips_in_play() == MAX_CHIPS
    check_chips(t)
    refused(t, {"op": "transfer_chips", "from_player": "p01", "to_player": "p02", "amount": 0}, "above 0")
    refused(t, {"op": "transfer_chips", "from_player": "p02", "to_player": "p01", "amount": 10**6},
            "would leave none")


def test_adjust_chips_sets_the_stack_and_older_logs_with_a_difference_replay_as_they_were() -> None:
    t = started(4)
    apply_director(t, {"op": "adjust_chips", "now": 1.0, "reason": "recount", "player_id": "p01", "chips": 12_000})
    assert t.stack_of("p01") == 12_000
    apply_director(t, {"op": "adjust_chips", "now": 2.0, "reason": "old log", "player_id": "p02", "delta": 500})
    assert t.stack_of("p02") == 10_500
    check_chips(t)
    refused(t, {"op": "adjust_chips", "player_id": "p01"}, "the director operation adjust_chips has no chips")
    for bad in (0, -5, 1.5, "100", None, True):
        refused(t, {"op": "adjust_chips", "player_id": "p01", "chips": bad}, "remove the player instead")
    refused(t, {"op": "adjust_chips", "player_id": "p01", "chips": MAX_CHIPS}, "the limit")


def test_players_tables_and_seats_must_exist() -> None:
    t = started(12, seats_per_table=6)
    refused(t, {"op": "remove_player", "player_id": "p99"}, "there is no player p99")
    refused(t, {"op": "remove_player", "player_id": 1}, "no player 1 is registered")
    refused(t, {"op": "adjust_chips", "player_id": None, "delta": 5}, "no player None is registered")
    other = 2 if t.location("p01").table_id == 1 else 1  # type: ignore[union-attr]
    refused(t, {"op": "move_player", "player_id": "p01", "table": 9, "seat": None}, "there is no table 9")
    refused(t, {"op": "move_player", "player_id": "p01", "table": "2", "seat": None}, "a table is a number")
    refused(t, {"op": "move_player", "player_id": "p01", "table": True, "seat": None}, "a table is a number")
    for seat in (0, 7, -1, 10**20):
        refused(t, {"op": "move_player", "player_id": "p01", "table": other, "seat": seat},
                f"seat {seat} does not exist \\(seats 1 to 6\\)")
    for seat in (1.0, "3", False):
        refused(t, {"op": "move_player", "player_id": "p01", "table": other, "seat": seat}, "a seat is a number")
    refused(t, {"op": "announce", "text": "hello", "to": ["p01", "nobody"]}, "there is no player nobody")
    refused(t, {"op": "announce", "text": "hello", "to": "p01"}, "a list of players")


def test_reasons_texts_times_and_unknown_operations() -> None:
    t = started(4)
    refused(t, {"op": "pause", "reason": "x" * 201}, "a reason is at most 200 characters")
    refused(t, {"op": "pause", "reason": 5}, "needs a reason")
    refused(t, {"op": "pause", "now": math.nan}, "the time of an operation")
    refused(t, {"op": "pause", "now": "soon"}, "the time of an operation")
    refused(t, {"op": "announce", "text": "x" * 501}, "at most 500 characters")
    refused(t, {"op": "announce", "text": 7}, "needs a text")
    refused(t, {"op": "deal_everyone_aces"}, "unknown director operation 'deal_everyone_aces'")
    refused(t, {"op": "set_level"}, "set_level has no level")
    before = fingerprint(t)
    with pytest.raises(TournamentError, match="has no now, reason"):
        apply_director(t, {"op": "pause"})
    with pytest.raises(TournamentError, match="a mapping"):
        apply_director(t, ["pause"])  # type: ignore[arg-type]
    assert fingerprint(t) == before


def test_a_tournament_whose_chips_would_pass_the_limit_does_not_start() -> None:
    from poker.cards import seeded_rng
    from server.tournament import Tournament

    t = Tournament(Settings(starting_stack=MAX_CHIPS // 2), seeded_rng(1))
    for i in range(3):
        t.register(f"p{i}", f"P{i}")
    before = fingerprint(t)
    with pytest.raises(TournamentError, match="lower the starting stack"):
        apply_input(t, "start", None, {"now": 0.0, "deadline": None})
    assert fingerprint(t) == before
    with pytest.raises(TournamentError, match="starting_stack"):
        Settings(starting_stack=MAX_CHIPS + 1)


def test_a_refused_operation_on_a_player_in_a_hand_changes_nothing() -> None:
    t = started(4)
    hand, _ = t.begin_hand(1, 0.0)
    refused(t, {"op": "adjust_chips", "player_id": "p01", "delta": -(10**6)}, "remove the player")
    refused(t, {"op": "move_player", "player_id": "p01", "table": 1, "seat": 99}, "seat 99")
    assert not hand.is_over


def test_a_logged_action_is_applied_exactly_or_refused_saying_why() -> None:
    from poker.events import ActionTaken

    t = started(3)
    with pytest.raises(TournamentError, match="^table 1 has no hand in progress for this action$"):
        apply_input(t, "act", 1, {"seat": 1, "kind": "call", "amount": None, "automatic": False})
    hand, _ = t.begin_hand(1, 0.0)
    seat = hand.to_act
    with pytest.raises(TournamentError, match="^an action has no kind, automatic$"):
        apply_input(t, "act", 1, {"seat": seat, "amount": None})
    for bad in ("raise_to", None, 3):
        with pytest.raises(TournamentError, match=f"^unknown action {bad!r}$"):
            apply_input(t, "act", 1, {"seat": seat, "kind": bad, "amount": None, "automatic": False})
    with pytest.raises(TournamentError, match="^a act input needs a table$"):
        apply_input(t, "act", None, {"seat": seat, "kind": "call", "amount": None, "automatic": False})
    assert len(hand.events) == len(t.table(1).hand.events)  # type: ignore[union-attr]
    apply_input(t, "act", 1, {"seat": seat, "kind": "raise", "amount": 600, "automatic": 1})
    taken = [e for e in hand.events if isinstance(e, ActionTaken)]
    assert [(e.seat, e.action.value, e.to, e.automatic) for e in taken] == [(seat, "raise", 600, True)]
    apply_input(t, "act", 1, {"seat": hand.to_act, "kind": "fold", "amount": None, "automatic": 0})
    assert [e for e in hand.events if isinstance(e, ActionTaken)][-1].automatic is False


# Each logged input of the tournament, a payload that applies, and the name its refusal uses.
WHOLE_INPUTS: list[tuple[str, int | None, dict[str, Any], str]] = [
    ("register", None, {"player_id": "late", "name": "Late"}, "a registration"),
    ("start", None, {"now": 0.0}, "the start"),
    ("tick", None, {"now": 1.0}, "a tick"),
    ("call_floor", None, {"now": 1.0, "player_id": "p01", "message": "misdeal"}, "a call to the floor"),
    ("begin_hand", 1, {"now": 1.0, "deck": None}, "a deal"),
    ("act", 1, {"seat": 0, "kind": "fold", "amount": None, "automatic": False}, "an action"),
    ("end_hand", 1, {"now": 1.0}, "a hand's end"),
]


@pytest.mark.parametrize(("kind", "table", "payload", "what"), WHOLE_INPUTS, ids=[w[0] for w in WHOLE_INPUTS])
def test_a_logged_input_missing_a_key_is_refused_naming_the_input_and_the_key(
    kind: str, table: int | None, payload: dict[str, Any], what: str
) -> None:
    t = started(3)
    for key in payload:
        short = {k: v for k, v in payload.items() if k != key}
        before = fingerprint(t)
        with pytest.raises(TournamentError) as info:
            apply_input(t, kind, table, short)
        assert str(info.value) == f"{what} has no {key}"
        assert fingerprint(t) == before
    with pytest.raises(TournamentError) as info:
        apply_input(t, kind, table, [("now", 1.0)])  # type: ignore[arg-type]
    assert str(info.value) == "a logged input is a mapping, not [('now', 1.0)]"


def test_the_logged_start_sets_its_deadline_and_floor_calls_replay_whole() -> None:
    from poker.cards import seeded_rng
    from server.tournament import Tournament

    t = Tournament(Settings(), seeded_rng(1))
    for i in range(1, 4):
        apply_input(t, "register", None, {"player_id": f"p{i:02d}", "name": f"P{i:02d}"})
    assert [e.name for e in t.standings()] == ["P01", "P02", "P03"]
    with pytest.raises(TournamentError):
        apply_input(t, "start", None, {"now": 0.0, "deadline": "midnight"})
    assert t.settings.deadline is None and t.state == "registering"
    apply_input(t, "start", None, {"now": 0.0, "deadline": 7200.0})
    assert t.settings.deadline == 7200.0 and t.state == "running"
    (called,) = apply_input(t, "call_floor", None, {"now": 5.0, "player_id": "p02", "message": "misdeal"})
    loc = t.location("p02")
    assert loc is not None
    assert (called.at, called.player_id, called.table_id, called.seat, called.message) == (
        5.0, "p02", loc.table_id, loc.seat, "misdeal")
    assert [(c.at, c.player_id, c.message) for c in t.floor.open.values()] == [(5.0, "p02", "misdeal")]
    with pytest.raises(TournamentError, match="^a begin_hand input needs a table$"):
        apply_input(t, "begin_hand", None, {"now": 6.0, "deck": None})
    with pytest.raises(TournamentError, match="^unknown input 'status'$"):
        apply_input(t, "status", 1, {"now": 6.0})
