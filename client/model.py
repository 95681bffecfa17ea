"""What a client knows, kept up to date by feeding it the server's messages.

``ClientModel.apply(msg)`` takes one decoded server message (``protocol.messages``) and
updates the state a client shows or decides from: who I am, the lobby, the table I sit at
or watch, my cards, my pending turn, a readable hand log, chat, announcements, standings
and the connection. It is pure (no trio, no socket, no clock): the session passes the
time a message arrived when it matters (``now``, seconds on any monotonic clock), so the
terminal client, the bots and the tests all drive the same object the same way.

The table is rebuilt from every ``table_snapshot`` and then moved forward by the hand
events. Anything the events cannot tell (a bet returned uncalled, a player who moved in
from another table) is repaired by the next ``pots``, ``hand_ended`` or snapshot. A gap in
the server's ``seq`` numbers sets ``needs_resync``; the session then asks for a snapshot.

``legal_from_protocol`` and ``situation_from_model`` turn the model into the engine's
``LegalActions`` and the strategies' ``Situation``, so a bot decides from exactly what a
person at the terminal would see; ``action_to_act`` turns an engine ``Action`` back into
the protocol's ``act``.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable
from typing import Any, Literal

import attrs

from client.deckcheck import DeckLog
from client.strategies.base import SeenAction, Situation, opponent
from poker.actions import Action, ActionKind, LegalActions
from poker.cards import Card, parse_card
from poker.evaluator import evaluate
from poker.events import Street
from protocol import messages as m

__all__ = [
    "ChatLine",
    "ClientModel",
    "ConnectionState",
    "Identity",
    "PendingTurn",
    "SeatModel",
    "TableModel",
    "TurnClock",
    "Won",
    "action_to_act",
    "legal_from_protocol",
    "situation_from_model",
]

LOG_LINES = 1000
"""Lines of hand log, chat and announcements kept (oldest dropped first)."""


def chips(n: int) -> str:
    """A chip amount as people read it: ``1,200``."""
    return f"{n:,}"


class ConnectionState(enum.StrEnum):
    """Where the session's connection stands; ``refused`` and ``closed`` are final."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    REFUSED = "refused"
    CLOSED = "closed"


@attrs.define(kw_only=True)
class Identity:
    """Who this connection is, from ``welcome`` (the token only arrives in a join's welcome)."""

    role: m.Role | None = None
    player_id: int | None = None
    name: str | None = None
    token: str | None = None
    version: int | None = None
    table: int | None = None
    seat: int | None = None


@attrs.define(kw_only=True)
class SeatModel:
    """One occupied seat. ``cards`` are card strings ("As") when this connection may see them.

    ``in_hand``: dealt into the hand in play; ``committed``: chips put in this hand (as far
    as seen: a snapshot taken mid-hand only knows this round's bet); ``showed``: the cards
    were shown this hand; ``shown``: the name of the hand shown (named by the client once
    the board is out if they were shown all in before it); ``last``: the seat's last
    action, for display.
    """

    seat: int
    player_id: int
    name: str
    stack: int
    bet: int = 0
    folded: bool = False
    all_in: bool = False
    sitting_out: bool = False
    connected: bool = True
    cards: tuple[str, ...] | None = None
    in_hand: bool = False
    committed: int = 0
    shown: str | None = None
    showed: bool = False
    last: str | None = None

    def put_in(self, amount: int, *, to: int, all_in: bool) -> None:
        """``amount`` chips go from the stack into the bet in front, which is then ``to``."""
        self.stack -= amount
        self.bet = to
        self.committed += amount
        self.all_in = all_in


@attrs.frozen(kw_only=True)
class TurnClock:
    """The acting seat's clocks, from a ``turn`` message or a snapshot (protocol v2).

    ``received_at`` is the caller's clock reading when it arrived (None if not given);
    the action clock runs out ``deadline_ms`` after it, then the time bank.
    """

    seat: int
    deadline_ms: int
    time_bank_ms: int
    received_at: float | None = None

    def left(self, now: float) -> tuple[str, float]:
        """("clock" or "bank", seconds left on it) at ``now``."""
        start = self.received_at if self.received_at is not None else now
        gone = max(0.0, now - start)
        clock = self.deadline_ms / 1000 - gone
        if clock > 0:
            return "clock", clock
        return "bank", max(0.0, self.time_bank_ms / 1000 + clock)


@attrs.frozen(kw_only=True)
class Won:
    """What a seat won in the hand just played: shown on the table until the next hand."""

    amount: int
    hand: str | None = None


@attrs.define(kw_only=True)
class TableModel:
    """The table this connection sits at or watches, as of the last message applied.

    ``street`` is None between hands. ``pots`` are the pots as the server last reported
    them (a snapshot counts the bets in front in them, a ``pots`` message comes when the
    bets are collected; both count the carried chips in the main pot). ``collected`` is
    the chips gathered into the pots so far, carried chips included, bets in front not:
    ``pot_total`` (collected plus bets) is what the hand is worth now.
    ``carried`` is for display only (already in ``collected``). ``small_blind_seat`` and
    ``big_blind_seat`` are known from ``hand_started`` (None after a snapshot taken
    mid-hand). ``actions`` is the hand's actions so far (empty if joined mid-hand).
    """

    table: int
    max_seats: int
    hand_no: int | None = None
    street: Street | None = None
    button: int | None = None
    small_blind: int = 0
    big_blind: int = 0
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    seats: dict[int, SeatModel] = attrs.Factory(dict)
    board: tuple[str, ...] = ()
    pots: list[m.Pot] = attrs.Factory(list)
    carried: int = 0
    collected: int = 0
    to_act: int | None = None
    your_seat: int | None = None
    your_cards: tuple[str, ...] | None = None
    dealt: tuple[int, ...] = ()
    actions: list[SeenAction] = attrs.Factory(list)
    clock: TurnClock | None = None
    winners: dict[int, Won] = attrs.Factory(dict)

    @property
    def current_bet(self) -> int:
        """The largest bet in front this round."""
        return max((s.bet for s in self.seats.values()), default=0)

    @property
    def pot_total(self) -> int:
        """Every pot, every bet in front and the carried chips: what the hand is worth now."""
        return self.collected + sum(s.bet for s in self.seats.values())

    @property
    def me(self) -> SeatModel | None:
        return None if self.your_seat is None else self.seats.get(self.your_seat)

    def name_of(self, seat: int) -> str:
        s = self.seats.get(seat)
        return s.name if s is not None else f"seat {seat}"

    def seat_of_player(self, player_id: int) -> SeatModel | None:
        for s in self.seats.values():
            if s.player_id == player_id:
                return s
        return None

    @classmethod
    def from_snapshot(cls, snap: m.TableSnapshot) -> TableModel:
        running = snap.street is not None
        seats = {
            v.seat: SeatModel(
                seat=v.seat,
                player_id=v.player_id,
                name=v.name,
                stack=v.stack,
                bet=v.bet,
                folded=v.folded,
                all_in=v.all_in,
                sitting_out=v.sitting_out,
                connected=v.connected,
                cards=v.cards,
                in_hand=running,
                committed=v.bet,
            )
            for v in snap.seats
        }
        return cls(
            table=snap.table,
            max_seats=snap.max_seats,
            hand_no=snap.hand_no,
            street=Street(snap.street) if snap.street is not None else None,
            button=snap.button,
            small_blind=snap.small_blind,
            big_blind=snap.big_blind,
            seats=seats,
            board=snap.board,
            pots=list(snap.pots),
            carried=snap.carried,
            collected=max(0, sum(p.amount for p in snap.pots) - sum(v.bet for v in snap.seats)),
            to_act=snap.to_act,
            your_seat=snap.your_seat,
            your_cards=snap.your_cards,
            dealt=tuple(sorted(seats)) if running else (),
        )

    def move_seat(self, from_seat: int, to_seat: int) -> SeatModel | None:
        """A player changes seats at this table: the same seat object, bets and all."""
        s = self.seats.pop(from_seat, None)
        if s is None:
            return None
        s.seat = to_seat
        self.seats[to_seat] = s
        if self.to_act == from_seat:
            self.to_act = to_seat
        if self.your_seat == from_seat:
            self.your_seat = to_seat
        self.dealt = tuple(sorted(to_seat if x == from_seat else x for x in self.dealt))
        return s


@attrs.define(kw_only=True)
class PendingTurn:
    """A ``your_turn`` not yet answered by an action of mine.

    ``received_at`` is the caller's clock reading when it arrived (None if not given);
    ``deadline`` and ``bank_deadline`` are on that same clock. ``acted`` is set by the
    session once it has sent an ``act`` for this turn.
    """

    msg: m.YourTurn
    legal: LegalActions
    received_at: float | None = None
    acted: bool = False

    @property
    def hand_no(self) -> int:
        return self.msg.hand_no

    @property
    def deadline(self) -> float | None:
        """When the action clock runs out (the time bank follows)."""
        if self.received_at is None:
            return None
        return self.received_at + self.msg.deadline_ms / 1000

    @property
    def bank_deadline(self) -> float | None:
        """When the action clock and the time bank are both spent."""
        if self.received_at is None:
            return None
        return self.received_at + (self.msg.deadline_ms + self.msg.time_bank_ms) / 1000


@attrs.frozen(kw_only=True)
class ChatLine:
    scope: m.Scope
    table: int | None
    player_id: int | None
    name: str
    role: m.Role
    text: str

    def __str__(self) -> str:
        where = f"table {self.table}" if self.scope == "table" else "lobby"
        who = self.name if self.role == "player" else f"{self.name} ({self.role})"
        return f"[{where}] {who}: {self.text}"


class ClientModel:
    """Everything a client knows; change it only through ``apply`` and the ``set_*`` calls.

    Fields (read freely):

    - ``connection`` (``ConnectionState``), ``connection_reason`` (why refused, closed or
      reconnecting), ``reconnects`` (how many times the session reconnected)
    - ``server``, ``tournament``, ``versions``, ``max_line``: from ``hello``
    - ``me``: ``Identity`` (role, player_id, name, token, version, table, seat)
    - ``lobby``: the last ``Lobby`` message, with player statuses kept current;
      ``lobby_received_at``: the ``now`` it arrived (to count down ``next_level_in``)
    - ``table``: ``TableModel`` or None; ``turn``: ``PendingTurn`` or None
    - ``log``: the hand log, readable lines; ``chat``: ``ChatLine``s; ``announcements``
    - ``standings`` (places, leader first) and ``standings_final``; ``finished``: the
      ``TournamentFinished`` message once the tournament is over
    - ``history``: the last ``History`` reply; ``director_calls`` (directors only)
    - ``last_error``: the last ``Error``; ``goodbye``: the server's goodbye reason
    - ``last_seq``, ``needs_resync``, ``resync_requested``, ``gaps``: sequence tracking
    - ``changes``: incremented by every update, so a view can tell it must redraw
    - ``decks``: the fair-deck record and its checks (``client.deckcheck.DeckLog``) when the
      client keeps one; its verdict is also written to the log once the seeds are revealed
    """

    def __init__(self, *, log_lines: int = LOG_LINES, decks: DeckLog | None = None) -> None:
        self.decks = decks  # the fair-deck record and checks, when this client keeps them
        self.connection = ConnectionState.CONNECTING
        self.connection_reason: str | None = None
        self.reconnects = 0
        self.server: str | None = None
        self.tournament: str | None = None
        self.versions: tuple[int, ...] = ()
        self.max_line: int | None = None
        self.me = Identity()
        self.lobby: m.Lobby | None = None
        self.lobby_received_at: float | None = None  # ``now`` when the lobby came: counts down next_level_in
        self.table: TableModel | None = None
        self.turn: PendingTurn | None = None
        self.log: deque[str] = deque(maxlen=log_lines)
        self.chat: deque[ChatLine] = deque(maxlen=log_lines)
        self.announcements: deque[str] = deque(maxlen=log_lines)
        self.standings: tuple[m.Place, ...] = ()
        self.standings_final = False
        self.finished: m.TournamentFinished | None = None
        self.history: m.History | None = None
        self.director_calls: deque[m.DirectorCalled] = deque(maxlen=log_lines)
        self.last_error: m.Error | None = None
        self.goodbye: str | None = None
        self.last_seq: int | None = None
        self.needs_resync = False
        self.resync_requested = False
        self.gaps = 0
        self.changes = 0
        self.out_place: int | None = None  # my place, worked out when I was eliminated
        self.turn_messages = False  # the server sends ``turn`` (v2): its clocks are exact

    # -- derived -------------------------------------------------------------------------

    @property
    def my_cards(self) -> tuple[str, ...] | None:
        return self.table.your_cards if self.table is not None else None

    @property
    def my_seat(self) -> SeatModel | None:
        return self.table.me if self.table is not None else None

    @property
    def my_place(self) -> int | None:
        """My finishing place: from the final result, else from standings that show me
        eliminated, else the place worked out when my elimination arrived (the players
        still in then, plus one). None while I am still in."""
        me = self.me.player_id
        if me is None:
            return None
        if self.finished is not None:
            for p in self.finished.places:
                if p.player_id == me:
                    return p.place
        for p in self.standings:
            if p.player_id == me and p.eliminated_in_hand is not None:
                return p.place
        return self.out_place

    @property
    def players_left(self) -> int | None:
        """Players still in the tournament, from the lobby."""
        if self.lobby is None:
            return None
        return sum(1 for p in self.lobby.players if p.status != "eliminated")

    @property
    def average_stack(self) -> int | None:
        """The chips in play shared among the players still in."""
        left = self.players_left
        if not left or self.lobby is None:
            return None
        return sum(p.chips for p in self.lobby.players if p.status != "eliminated") // left

    @property
    def chip_place(self) -> int | None:
        """My place by chips among the players still in (1 is the chip leader), or None."""
        me = self.me.player_id
        if self.lobby is None or me is None:
            return None
        alive = sorted((p for p in self.lobby.players if p.status != "eliminated"), key=lambda p: -p.chips)
        for i, p in enumerate(alive):
            if p.player_id == me:
                return i + 1
        return None

    @property
    def level(self) -> m.Level | None:
        return self.lobby.level if self.lobby is not None else None

    # -- the connection (called by the session) -----------------------------------------

    def set_connecting(self) -> None:
        """A new connection is being opened: sequence numbers start over."""
        self.last_seq = None
        self.needs_resync = False
        self.resync_requested = False
        if self.connection is not ConnectionState.RECONNECTING:
            self.connection = ConnectionState.CONNECTING
        self._changed()

    def set_connected(self) -> None:
        self.connection = ConnectionState.CONNECTED
        self.connection_reason = None
        self._changed()

    def set_reconnecting(self, reason: str) -> None:
        """The connection was lost; the turn in flight is void (resume sends it again)."""
        self._set_down(ConnectionState.RECONNECTING, reason)

    def set_refused(self, reason: str) -> None:
        self._set_down(ConnectionState.REFUSED, reason)

    def set_closed(self, reason: str | None = None) -> None:
        self._set_down(ConnectionState.CLOSED, reason)

    def _set_down(self, state: ConnectionState, reason: str | None) -> None:
        """No connection now: the turn in flight is void."""
        self.connection = state
        self.connection_reason = reason
        self.turn = None
        self._changed()

    # -- applying server messages -------------------------------------------------------

    def apply(self, msg: m.ServerMessage, now: float | None = None) -> None:
        """Update the state from one server message (``now``: when it arrived, if known)."""
        self._track_seq(msg.seq)
        handler = _HANDLERS.get(type(msg))
        if handler is not None:
            handler(self, msg, now)
        if self.decks is not None:
            for line in self.decks.received(msg):
                self._say(line)
        self._changed()

    def skipped(self, seq: int | None) -> None:
        """A server line the client chose not to decode: its ``seq`` still counts."""
        self._track_seq(seq)

    def _changed(self) -> None:
        self.changes += 1

    def _track_seq(self, seq: int | None) -> None:
        if seq is None:
            return
        if self.last_seq is not None and seq != self.last_seq + 1:
            self.gaps += 1
            self.needs_resync = True
            self.resync_requested = False
        self.last_seq = seq

    def _say(self, line: str) -> None:
        self.log.append(line)

    def _table_for(self, table: int) -> TableModel | None:
        t = self.table
        return t if t is not None and t.table == table else None

    # session

    def _hello(self, msg: m.Hello, now: float | None) -> None:
        self.server = msg.server
        self.tournament = msg.tournament
        self.versions = msg.versions
        self.max_line = msg.max_line

    def _welcome(self, msg: m.Welcome, now: float | None) -> None:
        me = self.me
        me.role = msg.role
        me.version = msg.version
        me.player_id = msg.player_id
        me.name = msg.name
        if msg.token is not None:
            me.token = msg.token
        me.table = msg.table
        me.seat = msg.seat

    def _error(self, msg: m.Error, now: float | None) -> None:
        self.last_error = msg
        if msg.code in ("stale_hand", "not_your_turn") and self.turn is not None:
            # The turn this answered is gone; the server sends your_turn again if it is not.
            self.turn = None

    def _goodbye(self, msg: m.ServerGoodbye, now: float | None) -> None:
        self.goodbye = msg.reason
        self._say(f"server: {msg.reason}")

    # lobby

    def _lobby(self, msg: m.Lobby, now: float | None) -> None:
        old = self.lobby.level if self.lobby is not None else None
        new = msg.level
        if new is not None and old is not None and new.index != old.index:
            self._say(
                f"-- level {new.index + 1}: blinds {chips(new.small_blind)}/{chips(new.big_blind)}"
            )
        self.lobby = msg
        self.lobby_received_at = now
        self._rerank()
        if self.table is None and self.needs_resync:
            self.needs_resync = False

    def _set_lobby_status(self, player_id: int, status: str, table: int | None, seat: int | None) -> None:
        lobby = self.lobby
        if lobby is None:
            return
        players = []
        for p in lobby.players:
            if p.player_id == player_id:
                p = attrs.evolve(p, status=status, table=table, seat=seat)  # type: ignore[arg-type]
            players.append(p)
        self.lobby = attrs.evolve(lobby, players=tuple(players))

    def _lobby_player(self, player_id: int) -> m.LobbyPlayer | None:
        if self.lobby is None:
            return None
        for p in self.lobby.players:
            if p.player_id == player_id:
                return p
        return None

    # the table

    def _snapshot(self, msg: m.TableSnapshot, now: float | None) -> None:
        old = self.table
        if old is not None and old.table != msg.table and self.me.role in ("spectator", "director"):
            # A watcher switched tables: the log is the new table's from here.
            self.log.clear()
        if old is not None and old.table != msg.table:
            self._say(f"-- table {msg.table}" + (f", hand #{msg.hand_no}" if msg.hand_no else ""))
        self.table = TableModel.from_snapshot(msg)
        if msg.to_act is not None and msg.deadline_ms is not None:
            self.table.clock = TurnClock(
                seat=msg.to_act, deadline_ms=msg.deadline_ms,
                time_bank_ms=msg.time_bank_ms or 0, received_at=now,
            )
        self.needs_resync = False
        self.resync_requested = False
        if self.me.role == "player":
            self.me.table = msg.table
            self.me.seat = msg.your_seat
        turn = self.turn
        if turn is not None and (msg.to_act != msg.your_seat or msg.hand_no != turn.hand_no):
            self.turn = None

    def _hand_started(self, msg: m.HandStarted, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        t.hand_no = msg.hand_no
        t.street = Street.PREFLOP
        t.button = msg.button
        t.small_blind, t.big_blind = msg.small_blind, msg.big_blind
        t.small_blind_seat, t.big_blind_seat = msg.small_blind_seat, msg.big_blind_seat
        t.board = ()
        t.pots = []
        t.carried = t.collected = msg.carried_in
        t.to_act = None
        t.clock = None
        t.winners = {}
        t.your_cards = None
        t.actions = []
        stacks = {s.seat: s.stack for s in msg.stacks}
        t.dealt = tuple(sorted(stacks))
        for seat in t.seats.values():
            seat.in_hand = seat.seat in stacks
            if seat.in_hand:
                seat.stack = stacks[seat.seat]
            seat.bet = seat.committed = 0
            seat.folded = not seat.in_hand
            seat.all_in = False
            seat.cards = None
            seat.shown = seat.last = None
            seat.showed = False
        if self.turn is not None and self.turn.hand_no != msg.hand_no:
            self.turn = None
        self._say(
            f"-- hand #{msg.hand_no} at table {msg.table}: blinds {chips(msg.small_blind)}/"
            f"{chips(msg.big_blind)}, {t.name_of(msg.button)} has the button"
        )

    def _blind_posted(self, msg: m.BlindPosted, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        s = t.seats.get(msg.seat)
        if s is not None:
            s.put_in(msg.amount, to=s.bet + msg.amount, all_in=msg.all_in)
            s.last = f"{msg.blind} blind"
        tail = " and is all in" if msg.all_in else ""
        self._say(f"{t.name_of(msg.seat)} posts the {msg.blind} blind {chips(msg.amount)}{tail}")

    def _hole_cards(self, msg: m.HoleCards, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        t.your_cards = msg.cards
        t.your_seat = msg.seat
        s = t.seats.get(msg.seat)
        if s is not None:
            s.cards = msg.cards
        self._say(f"you are dealt {' '.join(msg.cards)}")

    def _action(self, msg: m.Action, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        s = t.seats.get(msg.seat)
        if s is not None:
            s.put_in(msg.amount, to=msg.to, all_in=msg.all_in)
            if msg.action == "fold":
                s.folded = True
            s.last = msg.action.replace("_", " ")
        street = t.street if t.street is not None else Street.PREFLOP
        t.actions.append(
            SeenAction(
                seat=msg.seat, street=street, kind=ActionKind(msg.action),
                amount=msg.amount, to=msg.to, all_in=msg.all_in,
            )
        )
        t.to_act = None
        t.clock = None
        if msg.seat == t.your_seat:
            self.turn = None
        self._say(describe_action(t.name_of(msg.seat), msg))

    def _board(self, msg: m.Board, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        self._collect(t)
        t.board = msg.board
        t.street = Street(msg.street)
        self._say(f"board: {' '.join(msg.board)}")

    def _collect(self, t: TableModel) -> None:
        """A betting round is over: the bets go into the pots, and the part of the biggest
        bet that nobody matched goes back to its owner (the engine's rule; the protocol has
        no message for it, so the model applies it itself, the moment the round ends)."""
        betting = sorted((s for s in t.seats.values() if s.bet > 0), key=lambda s: -s.bet)
        if betting:
            top = betting[0]
            back = top.bet - (betting[1].bet if len(betting) > 1 else 0)
            if back > 0:
                top.bet -= back
                top.stack += back
                top.committed -= back
                top.all_in = False
            t.collected += sum(s.bet for s in betting)
        for s in t.seats.values():
            s.bet = 0
            if s.last != "fold" and not s.all_in:
                s.last = None

    def _pots(self, msg: m.Pots, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        self._collect(t)
        # The chip count is the model's own (collected); the message gives the split into
        # side pots. One that does not add up to the same (the server sent the state of a
        # later moment) is not used for the split either.
        if sum(p.amount for p in msg.pots) == t.collected:
            t.pots = list(msg.pots)
        t.carried = msg.carried

    def _showdown(self, msg: m.Showdown, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        self._collect(t)
        s = t.seats.get(msg.seat)
        if s is not None:
            s.cards = msg.cards
            s.showed = True
            s.shown = msg.hand_name or None
        shown = msg.hand_detail or msg.hand_name
        name = f" ({shown})" if shown else ""
        self._say(f"{t.name_of(msg.seat)} shows {' '.join(msg.cards)}{name}")

    def _pot_awarded(self, msg: m.PotAwarded, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        self._collect(t)
        if 0 <= msg.pot < len(t.pots):
            t.pots[msg.pot] = attrs.evolve(t.pots[msg.pot], amount=0)
        t.collected = max(0, t.collected - msg.amount)
        which = "" if msg.pot == 0 else f" from side pot {msg.pot}"
        for w in msg.winners:
            s = t.seats.get(w.seat)
            if s is not None:
                s.stack += w.amount
            shown = msg.hand_detail
            if shown is None and s is not None and s.showed and s.cards and len(t.board) == 5:
                # The kickers, from the cards shown (a version 1 server names no kickers;
                # a hand shown all in before the board was out is named now).
                shown = s.shown = evaluate(_cards(s.cards + t.board)).detail
            shown = shown or msg.hand_name or (s.shown if s is not None else None)
            how = f" with {shown}" if shown else ""
            before = t.winners.get(w.seat)
            t.winners[w.seat] = Won(
                amount=w.amount + (before.amount if before else 0),
                hand=shown or (before.hand if before else None),
            )
            self._say(f"{t.name_of(w.seat)} wins {chips(w.amount)}{which}{how}")
        if msg.remainder_carried:
            odd = "odd chip" if msg.remainder_carried == 1 else "odd chips"
            self._say(f"{msg.remainder_carried} {odd} carried to the next hand")

    def _hand_ended(self, msg: m.HandEnded, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        for st in msg.stacks:
            s = t.seats.get(st.seat)
            if s is not None:
                s.stack = st.stack
        for s in t.seats.values():
            s.bet = 0
            s.all_in = False
            s.last = None
        t.street = None
        t.to_act = None
        t.clock = None
        t.pots = []
        t.carried = msg.carried_out
        t.collected = 0
        if self.turn is not None and self.turn.hand_no == msg.hand_no:
            self.turn = None
        self._update_chips({s.player_id: s.stack for s in t.seats.values()})

    def _your_turn(self, msg: m.YourTurn, now: float | None) -> None:
        t = self._table_for(msg.table)
        stack = bet = None
        if t is not None:
            t.to_act = msg.seat
            t.your_seat = msg.seat
            s = t.seats.get(msg.seat)
            if s is not None:
                stack, bet = s.stack, s.bet
        legal = legal_from_protocol(
            msg.legal, seat=msg.seat, stack=stack, bet=bet,
            current_bet=t.current_bet if t is not None else None,
        )
        self.turn = PendingTurn(msg=msg, legal=legal, received_at=now)
        if t is not None:
            t.clock = TurnClock(
                seat=msg.seat, deadline_ms=msg.deadline_ms, time_bank_ms=msg.time_bank_ms,
                received_at=now,
            )

    def _turn(self, msg: m.Turn, now: float | None) -> None:
        self.turn_messages = True
        t = self._table_for(msg.table)
        if t is None:
            return
        t.to_act = msg.seat
        t.clock = TurnClock(
            seat=msg.seat, deadline_ms=msg.deadline_ms, time_bank_ms=msg.time_bank_ms,
            received_at=now,
        )

    def _bet_returned(self, msg: m.BetReturned, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        s = t.seats.get(msg.seat)
        if s is not None:
            from_bet = min(msg.amount, s.bet)
            s.bet -= from_bet
            s.committed -= msg.amount
            s.stack += msg.amount
            s.all_in = False
            t.collected = max(0, t.collected - (msg.amount - from_bet))
        self._say(f"{chips(msg.amount)} returned to {t.name_of(msg.seat)} (uncalled)")

    def _table_broken(self, msg: m.TableBroken, now: float | None) -> None:
        others = ", ".join(str(x) for x in msg.tables) or "none"
        self._say(f"table {msg.table} is broken up; tables in play: {others}")
        if self.table is not None and self.table.table == msg.table:
            self.table = None

    # standings between the server's replies

    def _update_chips(self, stacks: dict[int, int]) -> None:
        """New chip counts for some players (a hand ended): the lobby and the standings
        follow at once, without waiting for the next ``lobby`` or ``standings``."""
        if self.lobby is not None:
            players = tuple(
                attrs.evolve(p, chips=stacks[p.player_id])
                if p.player_id in stacks and p.status != "eliminated" else p
                for p in self.lobby.players
            )
            self.lobby = attrs.evolve(self.lobby, players=players)
        if self.standings and not self.standings_final:
            self.standings = tuple(
                attrs.evolve(p, chips=stacks[p.player_id])
                if p.player_id in stacks and p.eliminated_in_hand is None else p
                for p in self.standings
            )
        self._rerank()

    def _rerank(self) -> None:
        """Standings in chip order for the players still in; the eliminated keep their
        places. The lobby's chip counts, newer than the last standings, are used."""
        if not self.standings or self.standings_final:
            return
        chips_now = {p.player_id: p.chips for p in self.lobby.players} if self.lobby else {}
        out = [p for p in self.standings if p.eliminated_in_hand is not None]
        alive = [
            attrs.evolve(p, chips=chips_now.get(p.player_id, p.chips))
            for p in self.standings if p.eliminated_in_hand is None
        ]
        alive.sort(key=lambda p: -p.chips)
        self.standings = tuple(
            [attrs.evolve(p, place=i + 1) for i, p in enumerate(alive)]
            + sorted(out, key=lambda p: p.place)
        )

    # people

    def _player_status(self, msg: m.PlayerStatus, now: float | None) -> None:
        words = {
            "sitting_out": "is sitting out",
            "back": "is back",
            "disconnected": "disconnected",
            "reconnected": "reconnected",
            "eliminated": "is eliminated",
            "removed": "was removed by the director",
        }
        lobby_status = {
            "sitting_out": "sitting_out",
            "back": "playing",
            "disconnected": "disconnected",
            "reconnected": "playing",
            "eliminated": "eliminated",
            "removed": "eliminated",
        }[msg.status]
        gone = msg.status in ("eliminated", "removed")
        self._set_lobby_status(
            msg.player_id, lobby_status, None if gone else msg.table, None if gone else msg.seat
        )
        if gone:
            self._eliminated(msg.player_id)
        t = self.table
        s = t.seat_of_player(msg.player_id) if t is not None else None
        if t is not None and s is not None:
            if msg.status == "sitting_out":
                s.sitting_out = True
            elif msg.status == "back":
                s.sitting_out = False
            elif msg.status == "disconnected":
                s.connected = False
            elif msg.status == "reconnected":
                s.connected = True
            elif gone:
                del t.seats[s.seat]
        if t is not None and (s is not None or msg.table == t.table) or gone:
            self._say(f"{msg.name} {words[msg.status]}")

    def _eliminated(self, player_id: int) -> None:
        """A player is out: their place is one more than the players still in."""
        left = self.players_left
        if left is None:
            left = sum(1 for p in self.standings if p.eliminated_in_hand is None and p.player_id != player_id)
        place = left + 1
        if player_id == self.me.player_id and self.out_place is None:
            self.out_place = place
        if self.standings and not self.standings_final:
            hand = self.table.hand_no if self.table is not None else None
            self.standings = tuple(
                attrs.evolve(p, chips=0, eliminated_in_hand=hand or 0, place=place)
                if p.player_id == player_id and p.eliminated_in_hand is None else p
                for p in self.standings
            )
            self._rerank()

    def _player_moved(self, msg: m.PlayerMoved, now: float | None) -> None:
        lp = self._lobby_player(msg.player_id)
        self._set_lobby_status(
            msg.player_id, lp.status if lp is not None else "playing", msg.table, msg.seat
        )
        t = self.table
        if t is not None and msg.from_table == msg.table == t.table:
            # A change of seats at this table: the player, their bet and cards move along.
            if t.move_seat(msg.from_seat, msg.seat) is not None:
                self._say(f"{msg.name} moves to seat {msg.seat}")
            if msg.player_id == self.me.player_id:
                self.me.seat = msg.seat
            return
        if msg.player_id == self.me.player_id:
            self.me.table, self.me.seat = msg.table, msg.seat
            self._say(f"you move to table {msg.table}, seat {msg.seat}")
            if t is not None and t.table != msg.table:
                # The snapshot of the new table follows.
                self.table = None
                self.turn = None
            return
        if t is None:
            return
        if t.table == msg.from_table:
            s = t.seats.get(msg.from_seat)
            if s is not None and s.player_id == msg.player_id:
                del t.seats[msg.from_seat]
            self._say(f"{msg.name} moves to table {msg.table}")
        elif t.table == msg.table:
            stack = lp.chips if lp is not None else 0
            t.seats[msg.seat] = SeatModel(
                seat=msg.seat, player_id=msg.player_id, name=msg.name, stack=stack
            )
            self._say(f"{msg.name} joins from table {msg.from_table}, seat {msg.seat}")

    def _chat(self, msg: m.ChatMessage, now: float | None) -> None:
        self.chat.append(
            ChatLine(
                scope=msg.scope, table=msg.table, player_id=msg.player_id, name=msg.name,
                role=msg.role, text=msg.text,
            )
        )

    def _director_called(self, msg: m.DirectorCalled, now: float | None) -> None:
        self.director_calls.append(msg)

    def _announcement(self, msg: m.Announcement, now: float | None) -> None:
        why = f" ({msg.reason})" if msg.reason else ""
        line = f"{msg.by}: {msg.text}{why}"
        self.announcements.append(line)
        self._say(line)

    def _history(self, msg: m.History, now: float | None) -> None:
        self.history = msg

    def _standings(self, msg: m.Standings, now: float | None) -> None:
        self.standings = msg.places
        self.standings_final = msg.final

    def _finished(self, msg: m.TournamentFinished, now: float | None) -> None:
        self.finished = msg
        self.standings = msg.places
        self.standings_final = True
        self.turn = None
        winner = msg.places[0].name if msg.places else "nobody"
        self._say(f"{msg.name} is over: {winner} wins")
        place = self.my_place
        if place is not None:
            self._say(f"you finish in place {place}")


_Handler = Callable[[ClientModel, Any, "float | None"], None]
_HANDLERS: dict[type, _Handler] = {}


def _register() -> None:
    c = ClientModel
    pairs: list[tuple[type, _Handler]] = [
        (m.Hello, c._hello),
        (m.Welcome, c._welcome),
        (m.Error, c._error),
        (m.ServerGoodbye, c._goodbye),
        (m.Lobby, c._lobby),
        (m.TableSnapshot, c._snapshot),
        (m.HandStarted, c._hand_started),
        (m.BlindPosted, c._blind_posted),
        (m.HoleCards, c._hole_cards),
        (m.Action, c._action),
        (m.Board, c._board),
        (m.Pots, c._pots),
        (m.Showdown, c._showdown),
        (m.PotAwarded, c._pot_awarded),
        (m.HandEnded, c._hand_ended),
        (m.YourTurn, c._your_turn),
        (m.PlayerStatus, c._player_status),
        (m.PlayerMoved, c._player_moved),
        (m.ChatMessage, c._chat),
        (m.DirectorCalled, c._director_called),
        (m.Announcement, c._announcement),
        (m.History, c._history),
        (m.Standings, c._standings),
        (m.TournamentFinished, c._finished),
        (m.Turn, c._turn),
        (m.BetReturned, c._bet_returned),
        (m.TableBroken, c._table_broken),
    ]
    _HANDLERS.update(pairs)


_register()


def describe_action(name: str, msg: m.Action) -> str:
    """One action as a log line: "bob raises to 600", "carol calls 200 and is all in"."""
    kind = msg.action
    if kind == "fold":
        text = f"{name} folds"
    elif kind == "check":
        text = f"{name} checks"
    elif kind == "call":
        text = f"{name} calls {chips(msg.amount)}"
    elif kind == "bet":
        text = f"{name} bets {chips(msg.to)}"
    elif kind == "raise":
        text = f"{name} raises to {chips(msg.to)}"
    else:
        text = f"{name} goes all in for {chips(msg.to)}"
    if msg.all_in and kind != "all_in":
        text += " and is all in"
    if msg.automatic:
        text += " (automatic)"
    return text


# =====================================================================================
# To and from the engine's types
# =====================================================================================


def legal_from_protocol(
    legal: m.Legal,
    *,
    seat: int,
    stack: int | None = None,
    bet: int | None = None,
    current_bet: int | None = None,
) -> LegalActions:
    """The engine's ``LegalActions`` for a ``your_turn``'s ``legal``.

    ``stack`` and ``bet`` are mine (chips behind, chips in front this round) and
    ``current_bet`` the bet to match, as the model knows them. The protocol's numbers win
    where they determine these: checking means my bet is the bet to match, a call short of
    my stack means the bet to match is my bet plus the call, and ``max_raise_to`` is always
    my bet plus my stack. So whether a raise-to is a ``bet`` or a ``raise`` (the engine
    refuses the wrong word) comes out right even if the model missed something.
    """
    if legal.max_raise_to is not None:
        if bet is None:
            bet = 0 if stack is None else max(0, legal.max_raise_to - stack)
        stack = legal.max_raise_to - bet
    bet = bet or 0
    if stack is None:
        stack = legal.call or 0
    if legal.check:
        current = bet
        to_call = 0
    elif legal.call is not None and legal.call < stack:
        current = bet + legal.call
        to_call = legal.call
    else:
        # Calling is all in (or nothing is known): the bet to match is at least that much.
        owed = legal.call or 0
        current = max(bet + owed, current_bet or 0)
        to_call = current - bet
    return LegalActions(
        seat=seat,
        fold=legal.fold,
        check=legal.check,
        call=legal.call,
        min_raise_to=legal.min_raise_to,
        max_raise_to=legal.max_raise_to,
        to_call=to_call,
        current_bet=current,
        stack=stack,
        bet=bet,
    )


_ACT_KINDS: dict[ActionKind, Literal["fold", "check", "call", "bet", "raise", "all_in"]] = {
    ActionKind.FOLD: "fold",
    ActionKind.CHECK: "check",
    ActionKind.CALL: "call",
    ActionKind.BET: "bet",
    ActionKind.RAISE: "raise",
    ActionKind.ALL_IN: "all_in",
}


def action_to_act(action: Action, hand_no: int, table: int | None = None, *, id: int | None = None) -> m.Act:
    """The protocol's ``act`` for an engine ``Action`` (amount only for bet and raise)."""
    kind = _ACT_KINDS[action.kind]
    amount = action.amount if kind in ("bet", "raise") else None
    return m.Act(id=id, table=table, hand_no=hand_no, action=kind, amount=amount)


def _cards(texts: tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in texts)


def _guess_blinds(t: TableModel, dealt: list[int]) -> tuple[int, int]:
    """Blind seats after a snapshot taken mid-hand: the next seats after the button."""
    if t.small_blind_seat is not None and t.big_blind_seat is not None:
        return t.small_blind_seat, t.big_blind_seat
    button = t.button if t.button is not None else dealt[-1]
    after = [s for s in dealt if s > button] + [s for s in dealt if s <= button]
    if len(dealt) == 2:
        # Heads-up the button posts the small blind.
        return after[1], after[0]
    return after[0], after[1 % len(after)]


def situation_from_model(model: ClientModel) -> Situation:
    """The strategies' ``Situation`` for my pending turn (ValueError if there is none).

    Built from the same model the terminal shows: the table's seats, pots and board, the
    actions seen this hand (none if I joined mid-hand: then, as with
    ``situation_from_view``, who raised is guessed from the bets in front) and the turn's
    legal actions.
    """
    turn, t = model.turn, model.table
    if turn is None:
        raise ValueError("no pending turn: a situation is for the player to act")
    if t is None or t.table != turn.msg.table:
        raise ValueError("no table for the pending turn (waiting for a snapshot)")
    seat = turn.msg.seat
    me = t.seats.get(seat)
    hole = t.your_cards or (me.cards if me is not None else None)
    if me is None or not hole:
        raise ValueError(f"seat {seat} has no hole cards in the model")
    street = t.street if t.street is not None else Street.PREFLOP
    dealt = sorted(s for s in (t.dealt or tuple(t.seats)) if s in t.seats or s == seat)
    if seat not in dealt:
        dealt = sorted([*dealt, seat])
    button = t.button if t.button is not None else dealt[-1]
    i = next((k for k, s in enumerate(dealt) if s > button), 0)
    order = tuple(dealt[i:] + dealt[:i])
    sb_seat, bb_seat = _guess_blinds(t, dealt)
    if bb_seat not in order:
        bb_seat = order[min(1, len(order) - 1)]
    legal = turn.legal
    current_bet = legal.current_bet
    actions = tuple(t.actions)
    opponents = []
    for s_no in order:
        s = t.seats.get(s_no)
        if s_no == seat or s is None or s.folded:
            continue
        opponents.append(
            opponent(
                s_no, stack=s.stack, bet=s.bet, committed=s.committed, all_in=s.all_in,
                actions=actions, street=street, current_bet=current_bet, big_blind=t.big_blind,
            )
        )
    return Situation(
        hand_no=turn.hand_no,
        seat=seat,
        hole=_cards(hole),
        board=_cards(t.board),
        street=street,
        pot=t.pot_total,
        stack=legal.stack,
        bet=legal.bet,
        current_bet=current_bet,
        small_blind=t.small_blind,
        big_blind=t.big_blind or 1,
        button=button,
        small_blind_seat=sb_seat,
        big_blind_seat=bb_seat,
        seats=order,
        opponents=tuple(opponents),
        actions=actions,
        legal=legal,
    )
