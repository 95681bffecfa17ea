"""A logged director operation (``apply_director``, used for live commands and for the
replay after a restart) does exactly what the director's own call does: the same events,
the same tournament afterwards. Each operation is given every field it can carry, so a
field dropped or misread on the way is a difference (mutation testing found several that
no test noticed: docs/testing.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from server.tournament import Director, Tournament
from server.tournament.inputs import DIRECTOR_OPS, apply_director

from .helpers import fingerprint, started


def tournament() -> Tournament:
    """Two tables of three, a hand in progress at table 1, an open floor call from p04,
    and table 2 held by the director."""
    t = started(6, seats_per_table=4)
    t.begin_hand(1, 1.0)
    t.call_floor(2.0, "p04", "misdeal at my table")
    Director(t).pause_table(3.0, 2, paused=True, reason="a spilled drink")
    return t


def state(t: Tournament) -> tuple[object, ...]:
    floor = sorted((k, repr(v)) for k, v in vars(t.floor).items())
    return fingerprint(t), tuple(floor), tuple(sorted(t.held_tables)), t.late_until


NOW, WHY = 10.0, "because"
# (operation's payload, the same through the director's methods)
CASES: list[tuple[dict[str, Any], Callable[[Director], object]]] = [
    ({"op": "pause"}, lambda d: d.pause(NOW, reason=WHY)),
    ({"op": "pause", "table": 1}, lambda d: d.pause_table(NOW, 1, paused=True, reason=WHY)),
    ({"op": "resume", "table": 2}, lambda d: d.pause_table(NOW, 2, paused=False, reason=WHY)),
    ({"op": "late_registration", "until_level": 3}, lambda d: d.late_registration(NOW, 3, reason=WHY)),
    ({"op": "rule", "decision": "the hand stands", "call_id": 1},
     lambda d: d.rule(NOW, "the hand stands", call_id=1, reason=WHY)),
    ({"op": "rule", "decision": "play on", "table": 2}, lambda d: d.rule(NOW, "play on", table_id=2, reason=WHY)),
    ({"op": "award", "title": "Bravest call", "player_id": "p03"},
     lambda d: d.award(NOW, "Bravest call", "p03", reason=WHY)),
    ({"op": "void_hand", "table": 1}, lambda d: d.void_hand(NOW, 1, reason=WHY)),
    ({"op": "set_level", "level": 3}, lambda d: d.set_level(NOW, 3, reason=WHY)),
    ({"op": "set_schedule", "schedule": [[50, 100], [100, 200]]},
     lambda d: d.change_schedule(NOW, [[50, 100], [100, 200]], reason=WHY)),
    ({"op": "set_options", "options": {"action_clock": 12.0, "ruleset": "standard"}},
     lambda d: d.change_rules(NOW, reason=WHY, action_clock=12.0, ruleset="standard")),
    ({"op": "set_break", "after_level": 2, "minutes": 15}, lambda d: d.set_break(NOW, 2, 15, reason=WHY)),
    ({"op": "set_deadline", "deadline": 7200.0}, lambda d: d.set_deadline(NOW, 7200.0, reason=WHY)),
    ({"op": "move_player", "player_id": "p04", "table": 1, "seat": None},
     lambda d: d.move_player(NOW, "p04", 1, None, reason=WHY)),
    ({"op": "remove_player", "player_id": "p04"}, lambda d: d.remove_player(NOW, "p04", reason=WHY)),
    ({"op": "adjust_chips", "player_id": "p04", "chips": 12_345},
     lambda d: d.set_stack(NOW, "p04", 12_345, reason=WHY)),
    ({"op": "adjust_chips", "player_id": "p04", "chips": 12_345, "delta": 5},  # the stack wins
     lambda d: d.set_stack(NOW, "p04", 12_345, reason=WHY)),
    ({"op": "adjust_chips", "player_id": "p04", "delta": -345},
     lambda d: d.correct_chips(NOW, "p04", -345, reason=WHY)),
    ({"op": "transfer_chips", "from_player": "p04", "to_player": "p05", "amount": 500},
     lambda d: d.transfer_chips(NOW, "p04", "p05", 500, reason=WHY)),
    ({"op": "announce", "text": "Dinner is served", "to": ["p04"]},
     lambda d: d.announce(NOW, "Dinner is served", to=["p04"], reason=WHY)),
    ({"op": "announce", "text": "Dinner is served"}, lambda d: d.announce(NOW, "Dinner is served", reason=WHY)),
]


def test_every_operation_is_covered() -> None:
    covered = {payload["op"] for payload, _ in CASES} | {"start", "resume"}
    assert covered == set(DIRECTOR_OPS)


@pytest.mark.parametrize(("payload", "direct"), CASES, ids=[str(sorted(p.items())) for p, _ in CASES])
def test_a_logged_operation_does_what_the_directors_call_does(
    payload: dict[str, Any], direct: Callable[[Director], object]
) -> None:
    logged, called = tournament(), tournament()
    events = apply_director(logged, {"now": NOW, "reason": WHY, **payload})
    assert events == direct(Director(called))
    assert events, "an operation always leaves a record"
    assert state(logged) == state(called)
    assert state(logged) != state(tournament()), "the operation changed nothing"


def test_start_and_resume_logged_are_the_directors_own() -> None:
    from poker.cards import seeded_rng
    from server.tournament import Settings

    def registered() -> Tournament:
        t = Tournament(Settings(), seeded_rng(1))
        for i in range(1, 4):
            t.register(f"p{i}", f"P{i}")
        return t

    logged, called = registered(), registered()
    assert apply_director(logged, {"op": "start", "now": 1.0, "reason": WHY}) == Director(called).start(
        1.0, reason=WHY)
    assert apply_director(logged, {"op": "pause", "now": 2.0, "reason": WHY}) == Director(called).pause(
        2.0, reason=WHY)
    assert apply_director(logged, {"op": "resume", "now": 3.0, "reason": WHY}) == Director(called).resume(
        3.0, reason=WHY)
    assert state(logged) == state(called) and logged.state == "running"


def test_refused_logged_operations_say_what_is_wrong() -> None:
    t = tournament()
    with pytest.raises(Exception) as info:
        apply_director(t, {"op": "shuffle", "now": NOW, "reason": WHY})
    assert str(info.value) == f"unknown director operation 'shuffle' (known: {', '.join(DIRECTOR_OPS)})"
    with pytest.raises(Exception) as info:
        apply_director(t, {"op": "set_options", "now": NOW, "reason": WHY, "options": {"speed": 2, "colour": 1}})
    assert str(info.value).startswith("unknown option colour, speed (known: ruleset, ")
    for bad in ([("action_clock", 1)], {1: 2}):
        with pytest.raises(Exception) as info:
            apply_director(t, {"op": "set_options", "now": NOW, "reason": WHY, "options": bad})
        assert str(info.value) == f"set_options needs a mapping of options, not {bad!r}"
    with pytest.raises(Exception) as info:
        apply_director(t, {"op": "adjust_chips", "now": NOW, "reason": WHY, "player_id": "p04"})
    assert str(info.value) == "the director operation adjust_chips has no chips"
