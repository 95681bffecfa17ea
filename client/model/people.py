"""People: players coming, going and moving between tables; chat, calls and announcements.

``PeopleUpdates`` keeps the lobby's player statuses and the table's seats in step with
``player_status`` and ``player_moved``, and collects what people say.
"""

from __future__ import annotations

from client.model.lobby import LobbyUpdates
from client.model.log import ChatLine, ruling_where
from client.model.table import SeatModel
from protocol import messages as m

BUSTED = "busted"
"""``SeatModel.last`` of a player just eliminated: the seat shows until the next hand."""


class PeopleUpdates(LobbyUpdates):
    """The people part of ``ClientModel``."""

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
            elif msg.status == "eliminated" and t.hand_no is not None:
                # The seat stays, marked, with the cards it showed, until the next hand.
                s.last = BUSTED
            elif gone:
                del t.seats[s.seat]
        if t is not None and (s is not None or msg.table == t.table) or gone:
            self._say(f"{msg.name} {words[msg.status]}")

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
            # Version 3 says the stack they bring; earlier versions get the table anew next.
            stack = msg.stack if msg.stack is not None else lp.chips if lp is not None else 0
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
        if msg.call_id is not None:  # sent again to a director who logs in: kept once
            self.open_calls[msg.call_id] = msg

    def _ruling(self, msg: m.Ruling, now: float | None) -> None:
        if msg.call_id is not None:
            self.open_calls.pop(msg.call_id, None)
        line = f"director rules{ruling_where(msg)}: {msg.decision}"
        self.announcements.append(line)
        self._say(line)

    def _announcement(self, msg: m.Announcement, now: float | None) -> None:
        why = f" ({msg.reason})" if msg.reason else ""
        line = f"{msg.by}: {msg.text}{why}"
        self.announcements.append(line)
        self._say(line)
