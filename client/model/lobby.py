"""The lobby and the standings: who is still in, with how many chips, in which place.

``LobbyUpdates`` applies the ``lobby``, ``standings`` and ``tournament_finished`` messages
and keeps the standings current between the server's replies (a hand ended, a player
was eliminated), and answers the questions the header asks (players left, my place).
"""

from __future__ import annotations

import attrs

from client.model.log import chips
from client.model.state import ModelState
from protocol import messages as m


class LobbyUpdates(ModelState):
    """The lobby and standings part of ``ClientModel``."""

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

    def _lobby(self, msg: m.Lobby, now: float | None) -> None:
        old = self.lobby.level if self.lobby is not None else None
        new = msg.level
        if new is not None and old is not None and new.index != old.index:
            self._say(
                f"-- level {new.index + 1}: blinds {chips(new.small_blind)}/{chips(new.big_blind)}"
                + (f", ante {chips(new.ante)}" if new.ante else "")
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
