"""``ClientModel``: one server message at a time, dispatched to the part that handles it.

The state and the connection are in ``state``, the lobby and standings in ``lobby``, the
table in ``table_updates``, people in ``people``; this puts them together, handles the
session's own messages (``hello``, ``welcome``, errors, goodbye) and maps every server
message class to its handler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.model.people import PeopleUpdates
from client.model.table_updates import TableUpdates
from protocol import messages as m


class ClientModel(TableUpdates, PeopleUpdates):
    """Everything a client knows; change it only through ``apply`` and the ``set_*`` calls.

    The fields are listed on ``client.model.state.ModelState``.
    """

    def apply(self, msg: m.ServerMessage, now: float | None = None) -> None:
        """Update the state from one server message (``now``: when it arrived, if known)."""
        self._track_seq(msg.seq)
        handler = _HANDLERS.get(type(msg))
        if handler is not None:
            handler(self, msg, now)
        self.seen.received(msg, self.table, self.lobby)
        if self.decks is not None:
            for line in self.decks.received(msg):
                self._say(line)
        self._changed()

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

    def _history(self, msg: m.History, now: float | None) -> None:
        self.history = msg


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
        (m.Ruling, c._ruling),
        (m.Announcement, c._announcement),
        (m.History, c._history),
        (m.Standings, c._standings),
        (m.TournamentFinished, c._finished),
        (m.Turn, c._turn),
        (m.BetReturned, c._bet_returned),
        (m.TableBroken, c._table_broken),
        (m.TvCards, c._tv_cards),
    ]
    _HANDLERS.update(pairs)


_register()
