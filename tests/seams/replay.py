"""The log of a live night, and the state after each input, to compare with its replay.

Live, every input the server logs passes through ``Journal.input`` right after it was
applied (``server/inputs.py``: the table's task applies then logs; the director's
commands, registrations, the start and the clock's ticks do the same). ``LogTap`` wraps that
one call: it keeps each input as the log would (through JSON) and the state then. Replaying
the kept log into a fresh house (``recovery.replay_log``, the start-up path) must reach the
same state after every input: live play and replay agree by construction, and this checks
the construction.
"""

from __future__ import annotations

import json
from typing import Any

from server.house import House
from server.rows import Record

Entry = tuple[int, str, int | None, dict[str, Any]]


def state(h: House) -> tuple[object, ...]:
    """What a replay must rebuild, read through public members only: every table's seats,
    button, carried chips and hand (its events in order), the arrivals, the standings, the
    level and phase, the seat-draw stream, and each player's status and time bank."""
    t = h.tournament
    tables = []
    for tid in t.table_ids():
        table = t.table(tid)
        hand = table.hand
        tables.append((
            tid, tuple(sorted((s, p.player_id, p.stack) for s, p in table.seats.items())),
            table.button, table.carry, tuple(t.arrivals(tid)),
            None if hand is None else (hand.hand_no, hand.is_over, tuple(hand.events)),
        ))
    players = tuple(sorted((pid, ps.sitting_out, round(ps.bank, 6)) for pid, ps in h.players.items()))
    return (t.phase, t.level, t.hands_dealt, t.chips_issued, tuple(t.broken_tables), tuple(t.standings()),
            t.rng.getstate() if hasattr(t.rng, "getstate") else None, tuple(tables), players)


class LogTap:
    """Keeps what ``h.journal.input`` is given, and the state at that moment."""

    def __init__(self, h: House) -> None:
        self.house = h
        self.entries: list[Entry] = []
        self.states: list[tuple[object, ...]] = []
        original = h.journal.input

        def tapped(kind: str, payload: dict[str, Any], table_id: int | None = None) -> list[Record]:
            self.entries.append((len(self.entries) + 1, kind, table_id, json.loads(json.dumps(payload))))
            self.states.append(state(h))
            return original(kind, payload, table_id)

        h.journal.input = tapped  # type: ignore[method-assign]
