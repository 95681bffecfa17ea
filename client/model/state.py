"""Every field a client knows, and the connection's state as the session reports it.

``ModelState`` holds the fields (documented below) and the calls the session makes about
the connection (``set_connecting`` ... ``set_closed``, ``skipped``) and the sequence
numbers. The server's messages change it through the handlers in ``lobby``,
``table_updates`` and ``people``, which ``ClientModel`` (``client.model.client_model``)
puts together and dispatches to from ``apply``.
"""

from __future__ import annotations

from collections import deque

from client.deckcheck import DeckLog
from client.model.connection import ConnectionState, Identity
from client.model.log import LOG_LINES, ChatLine
from client.model.seen import SeenHands
from client.model.table import SeatModel, TableModel
from client.model.turn import PendingTurn
from protocol import messages as m


class ModelState:
    """The fields of the client model; change them only through ``ClientModel.apply`` and
    the ``set_*`` calls.

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
    - ``history``: the last ``History`` reply; ``director_calls`` (directors only), and
      ``open_calls``: those no ruling has answered yet, by call number
    - ``last_error``: the last ``Error``; ``goodbye``: the server's goodbye reason
    - ``last_seq``, ``needs_resync``, ``resync_requested``, ``gaps``: sequence tracking
    - ``changes``: incremented by every update, so a view can tell it must redraw
    - ``decks``: the fair-deck record and its checks (``client.deckcheck.DeckLog``) when the
      client keeps one; its verdict is also written to the log once the seeds are revealed
    - ``seen``: the hands seen whole, as the engine's events (``client.model.seen``), for
      the statistics view and the replayer
    """

    def __init__(self, *, log_lines: int = LOG_LINES, decks: DeckLog | None = None) -> None:
        self.decks = decks  # the fair-deck record and checks, when this client keeps them
        self.seen = SeenHands()
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
        self.open_calls: dict[int, m.DirectorCalled] = {}
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
