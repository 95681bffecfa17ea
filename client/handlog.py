"""The player's own hand histories, written by the terminal client as it plays.

Each hand this player is dealt into is appended, when it ends, to a PokerStars text file
(``hands/HOST_PORT_NAME.txt`` in the config directory, owner-only), which a tracker
(PokerTracker, Hold'em Manager, hand2note) imports as it is written. The hand is rebuilt
from the live table messages into the engine's own events (they mirror one another: a
``hand_started`` is a ``HandStarted``, a ``bet_returned`` an ``UncalledBetReturned``...)
and written by ``poker.pokerstars``, the same writer ``hickory-server history --format
pokerstars`` uses, so the two files agree line for line on every hand the player saw
whole (tests/client/test_handlog.py).

What a client cannot know: the tournament's number on the host, so it makes its own
(``YYMMDDHHMM`` of the join that started this tournament, kept in the file so a resume
goes on with it); a hand joined in the middle (after a reconnect) is skipped, since its
start is missing; a card shown by choice after the hand ended comes after the file was
written and is left out.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable
from pathlib import Path

from client.model import ClientModel
from poker.actions import ActionKind
from poker.cards import parse_card
from poker.events import (
    ActionTaken,
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
from poker.history import HandInfo, HistoryError
from poker.pokerstars import to_pokerstars
from protocol import messages as m

_TOURNAMENT = re.compile(r"^PokerStars Hand #\d+: Tournament #(\d+),", re.MULTILINE)


def default_hands_path(config_dir: Path, host: str, port: int, name: str) -> Path:
    """Where the terminal client writes a player's hands for one server."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{host}_{port}_{name}")
    return config_dir / "hands" / f"{safe}.txt"


def last_tournament_number(path: Path) -> int | None:
    """The tournament number of the last hand in an existing file, if any."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    found = _TOURNAMENT.findall(text)
    return int(found[-1]) if found else None


def _cards(cards: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in cards)


def _level_of(model: ClientModel, small_blind: int, big_blind: int) -> int:
    """The level (from 1) of a hand's blinds: the schedule's level with those blinds
    nearest the lobby's current one (a new level's lobby can come after its first hand)."""
    lobby = model.lobby
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

    def received(self, msg: m.ServerMessage, model: ClientModel, now: dt.datetime) -> list[Event] | None:
        if isinstance(msg, m.HandStarted):
            self.events = [HandStarted(
                hand_no=msg.hand_no, button=msg.button, small_blind_seat=msg.small_blind_seat,
                big_blind_seat=msg.big_blind_seat, small_blind=msg.small_blind, big_blind=msg.big_blind,
                stacks=tuple((s.seat, s.stack) for s in msg.stacks), carried_in=msg.carried_in)]
            self.hand_no, self.table, self.started_at = msg.hand_no, msg.table, now
            self.my_seat = None
            self._bets, self._returned = {}, False
            table = model.table
            self.names = {s: seat.name for s, seat in table.seats.items()} if table is not None else {}
            self.seat_count = table.max_seats if table is not None else None
            self.level = _level_of(model, msg.small_blind, msg.big_blind)
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


class HandLog:
    """Appends each finished hand of this player to ``path`` as PokerStars text."""

    def __init__(self, path: Path, *, tournament_no: int,
                 clock: Callable[[], dt.datetime] = lambda: dt.datetime.now().astimezone()) -> None:
        self.path = path
        self.tournament_no = tournament_no
        self.clock = clock
        self.recorder = HandRecorder()
        self.written = 0
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))

    @classmethod
    def open(cls, path: Path, *, fresh: bool,
             clock: Callable[[], dt.datetime] = lambda: dt.datetime.now().astimezone()) -> HandLog:
        """A join (``fresh``) starts a new tournament number; a resume goes on with the one
        in the file."""
        number = None if fresh else last_tournament_number(path)
        if number is None:
            number = int(clock().strftime("%y%m%d%H%M"))
        return cls(path, tournament_no=number, clock=clock)

    def received(self, msg: m.ServerMessage, model: ClientModel) -> None:
        events = self.recorder.received(msg, model, self.clock())
        me = self.recorder.my_seat
        if events is None or me is None or not any(isinstance(e, HoleCardsDealt) for e in events):
            return
        try:
            text = to_pokerstars(events, self.recorder.info(), tournament_no=self.tournament_no, viewer=me)
        except (HistoryError, KeyError, ValueError):
            return
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(("\n\n" if self.written or f.tell() else "") + text)
        except OSError:
            return  # a full disk must not stop the game; the server keeps every hand
        self.written += 1


def open_hand_log(config_dir: Path, host: str, port: int, name: str, *, fresh: bool,
                  say: Callable[[str], object]) -> HandLog | None:
    """The terminal client's hand log for this server and name, or None (said why) if the
    file cannot be kept: playing goes on without it."""
    path = default_hands_path(config_dir, host, port, name)
    try:
        return HandLog.open(path, fresh=fresh)
    except OSError as exc:
        say(f"cannot keep your hand histories in {path}: {exc}")
        return None
