"""The hands this client saw, rebuilt from the live table messages into the engine's events.

The live messages mirror the engine's events one for one (a ``hand_started`` is a
``HandStarted``, a ``bet_returned`` an ``UncalledBetReturned``...), so a hand seen live can
be handed to everything written for the engine's events: the PokerStars writer (the
terminal client's hand log, ``client/handlog.py``), the statistics (``poker/stats.py``)
and the replayer. Hole cards are only those this client was sent (its own) or shown.

A hand joined in the middle (after a reconnect or a table change) is not kept: its start
is missing. Pure: no clock (the caller passes the time), no I/O.
"""

from __future__ import annotations

import datetime as dt
from collections import deque

import attrs

from client.model.table import TableModel
from poker.actions import ActionKind
from poker.cards import parse_card
from poker.events import (
    ActionTaken,
    AntePosted,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    Street,
    UncalledBetReturned,
)
from poker.history import HandInfo
from protocol import messages as m

SEEN_HANDS = 500
"""Finished hands a client keeps for its statistics and replays (oldest dropped first)."""


def _cards(cards: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in cards)


def _level_of(lobby: m.Lobby | None, small_blind: int, big_blind: int) -> int:
    """The level (from 1) of a hand's blinds: the schedule's level with those blinds
    nearest the lobby's current one (a new level's lobby can come after its first hand)."""
    if lobby is None:
        return 1
    current = lobby.level.index if lobby.level is not None else 0
    matches = [i for i, lv in enumerate(lobby.schedule)
               if (lv.small_blind, lv.big_blind) == (small_blind, big_blind)]
    return min(matches, key=lambda i: abs(i - current), default=current) + 1


class HandRecorder:
    """Collects one table's hand from the live messages and, at its end, gives the
    engine's events for it (or None for a hand whose start it did not see)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.hand_no: int | None = None
        self.names: dict[int, str] = {}
        self.level = 1
        self.table = 0
        self.seat_count: int | None = None
        self.started_at: dt.datetime | None = None
        self.my_seat: int | None = None
        self._bets: dict[int, int] = {}  # this betting round's bets, to find an uncalled bet
        self._returned = False  # a bet_returned came this round (version 2 and later)

    def _uncalled(self) -> None:
        """A version 1 server sends no ``bet_returned``: the uncalled part of the top bet
        is worked out as the engine does (the top bet less the next highest) before the
        round's pots or the awards, where the engine's event would have been."""
        if not self._returned and self._bets:
            ranked = sorted(self._bets.items(), key=lambda kv: -kv[1])
            top_seat, top = ranked[0]
            second = ranked[1][1] if len(ranked) > 1 else 0
            if top > second:
                self.events.append(UncalledBetReturned(seat=top_seat, amount=top - second))
        self._bets, self._returned = {}, False

    def received(self, msg: m.ServerMessage, table: TableModel | None, lobby: m.Lobby | None,
                 now: dt.datetime | None = None) -> list[Event] | None:
        """Take one message; the hand's events when this one ended it."""
        if isinstance(msg, m.HandStarted):
            # The message's stacks are after the big-blind ante (version 3); the engine's
            # are before it, and the ante is an event of its own.
            ante = msg.ante or 0
            bb = msg.big_blind_seat
            self.events = [HandStarted(
                hand_no=msg.hand_no, button=msg.button, small_blind_seat=msg.small_blind_seat,
                big_blind_seat=bb, small_blind=msg.small_blind, big_blind=msg.big_blind,
                stacks=tuple((s.seat, s.stack + (ante if s.seat == bb else 0)) for s in msg.stacks),
                carried_in=msg.carried_in, ante=ante)]
            if ante:
                left = next((s.stack for s in msg.stacks if s.seat == bb), 0)
                self.events.append(AntePosted(seat=bb, amount=ante, all_in=left == 0))
            self.hand_no, self.table, self.started_at = msg.hand_no, msg.table, now
            self.my_seat = None
            self._bets, self._returned = {}, False
            self.names = {s: seat.name for s, seat in table.seats.items()} if table is not None else {}
            self.seat_count = table.max_seats if table is not None else None
            self.level = _level_of(lobby, msg.small_blind, msg.big_blind)
            return None
        if self.hand_no is None or getattr(msg, "hand_no", None) != self.hand_no:
            return None
        ev = self.events
        if isinstance(msg, m.BlindPosted):
            ev.append(BlindPosted(seat=msg.seat, blind=msg.blind, amount=msg.amount, all_in=msg.all_in))
            if msg.blind in ("small", "big"):  # an ante is dead money, not a bet
                self._bets[msg.seat] = self._bets.get(msg.seat, 0) + msg.amount
        elif isinstance(msg, m.HoleCards):
            self.my_seat = msg.seat
            ev.append(HoleCardsDealt(seat=msg.seat, cards=_cards(msg.cards)))
        elif isinstance(msg, m.Action):
            street = next((e.street for e in reversed(ev) if isinstance(e, BoardDealt)), Street.PREFLOP)
            ev.append(ActionTaken(seat=msg.seat, street=street, action=ActionKind(msg.action),
                                  amount=msg.amount, to=msg.to, all_in=msg.all_in, automatic=msg.automatic))
            self._bets[msg.seat] = msg.to
        elif isinstance(msg, m.BetReturned):
            ev.append(UncalledBetReturned(seat=msg.seat, amount=msg.amount))
            self._returned = True
        elif isinstance(msg, m.Pots):
            self._uncalled()
        elif isinstance(msg, m.Board):
            ev.append(BoardDealt(street=Street(msg.street), cards=_cards(msg.cards), board=_cards(msg.board)))
        elif isinstance(msg, m.Showdown):
            ev.append(HandShown(seat=msg.seat, cards=_cards(msg.cards), hand_name=msg.hand_name))
        elif isinstance(msg, m.PotAwarded):
            self._uncalled()
            ev.append(PotAwarded(index=msg.pot, amount=msg.amount, eligible=tuple(w.seat for w in msg.winners),
                                 winners=tuple((w.seat, w.amount) for w in msg.winners),
                                 hand_name=msg.hand_name, remainder=msg.remainder_carried))
        elif isinstance(msg, m.HandEnded):
            showdown = any(isinstance(e, HandShown) for e in ev)
            ev.append(HandEnded(stacks=tuple((s.seat, s.stack) for s in msg.stacks),
                                carried_out=msg.carried_out, showdown=showdown))
            self.hand_no = None
            return ev
        return None

    def info(self, event: str | None = None) -> HandInfo:
        return HandInfo(table_id=self.table, level=self.level, players=dict(self.names),
                        seat_count=self.seat_count, event=event, started_at=self.started_at)


@attrs.frozen(kw_only=True)
class SeenHand:
    """One finished hand as this client saw it: the events, who sat where, and whose
    hole cards it holds (``viewer``: this player's seat, or None for a watcher)."""

    events: tuple[Event, ...]
    info: HandInfo
    viewer: int | None

    @property
    def hand_no(self) -> int:
        start = self.events[0]
        assert isinstance(start, HandStarted)
        return start.hand_no


class SeenHands:
    """Every hand seen whole, in the order they ended (the last ``SEEN_HANDS``)."""

    def __init__(self, keep: int = SEEN_HANDS) -> None:
        self.recorder = HandRecorder()
        self.hands: deque[SeenHand] = deque(maxlen=keep)

    def received(self, msg: m.ServerMessage, table: TableModel | None, lobby: m.Lobby | None) -> None:
        events = self.recorder.received(msg, table, lobby)
        if events is not None:
            self.hands.append(SeenHand(events=tuple(events), info=self.recorder.info(),
                                       viewer=self.recorder.my_seat))
