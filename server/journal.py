"""Store, then send: every change is committed before any client sees its effect.

The journal turns the server's inputs and the hands' events into rows for the store and
waits for their commit. A failed write stops the task that asked (the game never runs
ahead of the database) and reports once through ``on_failure`` so players are told.

Every row the server writes while it runs is built here, by a method named for what
happened: ``input`` and ``meta`` (``inputs``, ``meta``), ``player_registered``
(``players``), ``hand_started``, ``hand_finished`` and ``hand_voided`` (``hands``),
``hand_events``, ``audit`` and ``chat``. The repairs of a start-up are the store's own
(``Store.drop_hands_after``); a hand voided or an input set aside at start-up takes its
row from here too (``hand_voided_record``, ``audit_record``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import trio

from poker import events as ev
from poker.hand import Hand
from server.records import event_to_json
from server.rows import Record, input_record, make_record, meta_record
from server.store import Store, StoreError
from server.tournament import events as tev


class Journal:
    def __init__(self, store: Store | None, on_failure: Callable[[str], None]) -> None:
        self.store = store
        self.on_failure = on_failure
        self.failed: str | None = None  # the first write failure: the game is paused
        self._in_flight = 0  # commits awaited now (``settled``)
        self._settled = trio.Event()

    async def commit(self, records: list[Record]) -> None:
        """Wait until ``records`` are committed. Without a store, a no-op."""
        if self.store is None or not records:
            return
        self._in_flight += 1
        try:
            await self.store.write(records)
        except StoreError as exc:
            # Never let the game run ahead of what is stored: stop this task's progress.
            if self.failed is None:
                self.failed = str(exc)
                self.on_failure(f"The game is paused: {exc}")
            await trio.sleep_forever()
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._settled.set()

    def submit(self, records: list[Record]) -> None:
        """Queue rows nobody waits for (chat, status): stored in order with the rest."""
        if self.store is not None and records:
            self.store.submit(records)

    async def settled(self, limit: float = 1.0) -> None:
        """Wait (at most ``limit`` seconds) until no change is waiting for its commit.

        A snapshot built then shows only what is stored, and every later change reaches the
        client as an event after it: a client resuming just before a crash never sees an
        action the restarted server does not know.
        """
        with trio.move_on_after(limit):
            while self._in_flight:
                if self._settled.is_set():
                    self._settled = trio.Event()
                await self._settled.wait()

    def input(self, kind: str, payload: dict[str, Any], table_id: int | None = None) -> list[Record]:
        """An input to the tournament, as the row its replay reads (``recovery.py``)."""
        return [input_record(kind, payload, table_id)] if self.store is not None else []

    def meta(self, key: str, value: str) -> list[Record]:
        """A setting kept beside the log (the deadline's wall time, the clock)."""
        return [meta_record(key, value)] if self.store is not None else []

    def player_registered(self, player_id: str, name: str, token_hash: str, number: int) -> list[Record]:
        """A new entrant's row (the token only as its hash), the ``number``-th registered."""
        if self.store is None:
            return []
        return [Record(sql="INSERT INTO players (player_id, name, token_hash, registered_seq) VALUES (?, ?, ?, ?)",
                       params=(player_id, name, token_hash, number))]

    def hand_started(self, hand_no: int, table_id: int, level: int,
                     seats: Mapping[int, Sequence[str]]) -> list[Record]:
        """The row of a hand just dealt, ``playing``; ``seats``: seat -> [player_id, name]. A
        number dealt again (its first deal was set aside at a start-up) replaces the old row."""
        if self.store is None:
            return []
        return [Record(sql="INSERT OR REPLACE INTO hands (hand_no, table_id, level, started_at, status, seats) "
                           "VALUES (?, ?, ?, ?, 'playing', ?)",
                       params=(hand_no, table_id, level, wall_clock(), json.dumps(seats)))]

    def hand_finished(self, hand_no: int, summary: Mapping[str, Any]) -> list[Record]:
        """The hand is over: ``finished``, with its result (``summary``)."""
        if self.store is None:
            return []
        return [Record(sql="UPDATE hands SET status='finished', summary=? WHERE hand_no=?",
                       params=(json.dumps(summary), hand_no))]

    def hand_voided(self, hand_no: int) -> list[Record]:
        """The hand was called off (the director, or a start-up that cannot resume it)."""
        return [hand_voided_record(hand_no)] if self.store is not None else []

    def hand_events(self, hand: Hand, events: Sequence[ev.Event]) -> list[Record]:
        """The newest ``events`` of ``hand``, numbered after the ones stored before."""
        if self.store is None:
            return []
        base = len(hand.events) - len(events)
        return [
            make_record(sql=HAND_EVENT_SQL, params=(hand.hand_no, base + i, event_to_json(e)))
            for i, e in enumerate(events)
        ]

    def audit(self, events: Iterable[object]) -> list[Record]:
        """The director's actions among ``events``, for the audit table."""
        if self.store is None:
            return []
        return [audit_record(wall_clock(), e.action, e.reason, e.summary)
                for e in events if isinstance(e, tev.DirectorAction)]

    def chat(self, scope: str, player_id: str | None, text: str) -> list[Record]:
        """A chat line as sent (``player_id`` None: the director or a spectator)."""
        if self.store is None:
            return []
        return [Record(sql="INSERT INTO chat (at, scope, player_id, text) VALUES (?, ?, ?, ?)",
                       params=(wall_clock(), scope, player_id, text))]


HAND_EVENT_SQL = "INSERT INTO hand_events (hand_no, idx, event) VALUES (?, ?, ?)"


def hand_event_texts(records: Iterable[Record]) -> Iterator[str]:
    """The stored text of each hand event among ``records`` (``Journal.hand_events``'s rows),
    in order: what the hand's record in the hash chain is made of (``fairness.py``)."""
    for r in records:
        if r.sql == HAND_EVENT_SQL:
            yield str(r.params[2])


def hand_voided_record(hand_no: int | None) -> Record:
    return Record(sql="UPDATE hands SET status='voided' WHERE hand_no=?", params=(hand_no,))


def audit_record(at: str, action: str, reason: str, detail: str) -> Record:
    return Record(sql="INSERT INTO audit (at, action, reason, detail) VALUES (?, ?, ?, ?)",
                  params=(at, action, reason, detail))


def wall_clock() -> str:
    """The local time, as stored beside audit, chat and hand rows (for people reading them)."""
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")
