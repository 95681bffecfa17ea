"""A whole tournament over real TCP: 20 bot connections, 3 tables, one winner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import trio

import protocol.messages as m
from poker import events as ev
from poker.hand import Hand
from server.app import Server
from server.house import Watcher
from server.snapshots import standings_message
from tests.server.harness import BotResult, fast_config, joined, play, pusher, running

PLAYERS = 20
STACK = 1000


class AuditedServer(Server, Watcher):
    """Checks that no chip appears or vanishes: after every hand event and hand end."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.watchers.append(self)
        self.problems: list[str] = []
        self.hands_ended = 0
        self.tables_seen: set[int] = set()
        self.hand_chips: dict[int, int] = {}

    def _check(self, where: str) -> None:
        total = self.tournament.total_chips()
        if total != PLAYERS * STACK:
            self.problems.append(f"{where}: {total} chips, expected {PLAYERS * STACK}")

    def hand_events(self, table_id: int, hand: Hand, events: Sequence[ev.Event]) -> None:
        self.tables_seen.add(table_id)
        self._check(f"hand #{hand.hand_no} at table {table_id}")
        start = next((e for e in events if isinstance(e, ev.HandStarted)), None)
        if start is not None:
            self.hand_chips[hand.hand_no] = sum(st for _, st in hand.starting_stacks) + start.carried_in
        if hand.total_chips() != self.hand_chips[hand.hand_no]:
            self.problems.append(f"hand #{hand.hand_no}: {hand.total_chips()} chips in the hand, "
                                 f"{self.hand_chips[hand.hand_no]} at its start")
        if any(isinstance(e, ev.HandEnded) for e in events):
            self.hands_ended += 1

    def hand_ended(self, table_id: int) -> None:
        self._check(f"after ending the hand at table {table_id}")


async def test_twenty_bots_on_three_tables_play_to_one_winner(autojump_clock: object) -> None:
    cfg = fast_config(PLAYERS, seats=7, starting_stack=STACK, hands_per_level=10)
    server = AuditedServer(cfg, seed=7)
    results = [BotResult(name=f"bot{i:02d}") for i in range(PLAYERS)]
    with trio.fail_after(3600):  # virtual time: the whole tournament takes minutes
        async with running(cfg, server=server, seed=7) as (srv, port):
            clients = await joined(port, [r.name for r in results])
            async with trio.open_nursery() as n:
                for i, (c, r) in enumerate(zip(clients, results, strict=True)):
                    n.start_soon(play, c, r, pusher, i)
            for c in clients:
                await c.aclose()
    assert srv.tournament.finished
    assert len(server.tables_seen) == 3, "20 players at 7 seats a table make 3 tables"
    assert server.hands_ended > 20, server.hands_ended
    assert server.problems == []

    finals = [r.finished for r in results]
    assert all(f is not None for f in finals), [r.name for r in results if r.finished is None]
    places = finals[0].places  # type: ignore[union-attr]
    assert all(f.places == places for f in finals if f is not None), "every client got the same standings"
    ranks = sorted(p.place for p in places)
    assert len(ranks) == PLAYERS and ranks.count(1) == 1
    # Players out in the same hand with the same stack share a place (the one above the
    # next); every place is one more than the number of players ahead of it.
    assert all(r == 1 + sum(1 for q in ranks if q < r) for r in ranks), ranks
    winner = next(p for p in places if p.place == 1)
    assert winner.chips == PLAYERS * STACK
    assert all(p.chips == 0 and p.eliminated_in_hand is not None for p in places if p.place != 1)
    assert sorted(p.name for p in places) == sorted(r.name for r in results)
    assert all(not r.errors for r in results), [e for r in results for e in r.errors]
    # And it ends with the same answer on request.
    # (On the version these bots speak: the entry fields are version 3's.)
    assert [attrs.evolve(p, entry=None, entries=None) for p in standings_message(srv).places] == list(places)
    assert isinstance(places[0], m.Place)
