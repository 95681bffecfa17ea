"""The TV table (issue 27 part 6): its spectators see every player's hole cards, once the
hand is over.

Hidden information, by construction: the cards leave only here; only for a hand whose end
is stored and already queued to every connection (the reveal is a task of its own, which
runs after the table's task has sent ``hand_ended``, and ``tv_delay`` seconds later);
only to connections whose role is "spectator" watching that table, on version 3 (older
versions have no such message). Players at the table, players who are out and watch it,
the director, and the spectators of every other table get nothing new. The table and the
delay are the ones the hand was dealt with (a rule change applies from the next hand).
"""

from __future__ import annotations

from collections.abc import Sequence

import trio

import protocol.messages as m
from poker import events as ev
from poker.cards import card_str
from poker.hand import Hand
from server.house import House, Watcher


class TvTable(Watcher):
    """Watches every hand; at the end of one at the TV table, reveals it to its spectators."""

    def __init__(self, house: House) -> None:
        self.house = house
        self.revealed = 0  # hands revealed (tests and the log)

    def hand_events(self, table_id: int, hand: Hand, events: Sequence[ev.Event]) -> None:
        h = self.house
        settings = h.tournament.hand_settings(table_id)
        if settings.tv_table != table_id or h.nursery is None:
            return
        if not any(isinstance(e, ev.HandEnded) for e in events):
            return
        msg = m.TvCards(table=table_id, hand_no=hand.hand_no, hands=tuple(
            m.DealtCards(seat=e.seat, cards=tuple(card_str(c) for c in e.cards))
            for e in hand.events if isinstance(e, ev.HoleCardsDealt)
        ))
        h.nursery.start_soon(self._reveal, table_id, msg, settings.tv_delay)

    async def _reveal(self, table_id: int, msg: m.TvCards, delay: float) -> None:
        await trio.sleep(delay)  # 0: still after the table's task queued the hand's end
        for c in [c for c in self.house.viewers if c.watching == table_id and c.role == "spectator"]:
            c.send_nowait(msg)
        self.revealed += 1
