"""The field: who entered, who is still in, and where each entry that is out finished.

Places (interpretation 6): players busted in the same hand share the best place their
number leaves, a player removed by the director is placed as if eliminated then, and an
entry that joins late (a late registration or a re-entry, issue 27) joins above every
entry already out, so each of those places moves one down and no two entries ever share
a place by accident.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from .errors import TournamentError
from .events import PlayerEliminated, TournamentEvent, player_eliminated
from .standings import Standing, place_busts, rank_by_chips, standing


@attrs.define(kw_only=True)
class PastEntry:
    """An entry of a player who re-entered: where it finished (issue 27)."""

    place: int
    hand_no: int | None


@attrs.define(kw_only=True)
class Entrant:
    player_id: str
    name: str
    out: bool = False
    removed: bool = False
    place: int | None = None
    hand_no: int | None = None
    entries: int = 1  # this entry's number: 2 after one re-entry
    past: list[PastEntry] = attrs.Factory(list)  # the entries before it, first first


class Field:
    def __init__(self) -> None:
        self.entrants: dict[str, Entrant] = {}  # in registration order
        self.left = 0  # entrants not out: ``len(players_in())`` without the walk

    def entrant(self, player_id: str) -> Entrant:
        try:
            return self.entrants[player_id]
        except KeyError:
            raise TournamentError(f"there is no player {player_id}") from None

    def who(self, player_id: str) -> str:
        """A player in a person's words, for errors: "bob (player 2)", the name and the
        number the lobby shows (a name may be shared in spirit, or hard to type)."""
        e = self.entrants.get(player_id)
        return f"player {player_id}" if e is None else f"{e.name} (player {player_id})"

    def players_in(self) -> list[str]:
        """Players not eliminated, in registration order."""
        return [e.player_id for e in self.entrants.values() if not e.out]

    def entries_made(self) -> int:
        """Every entry so far: the players registered and their re-entries."""
        return sum(e.entries for e in self.entrants.values())

    def add(self, player_id: str, name: str, *, late: bool) -> None:
        if late:
            self._grows()
        self.entrants[player_id] = Entrant(player_id=player_id, name=name)
        self.left += 1

    def reenter(self, player_id: str) -> Entrant:
        """The player's entry that is out becomes a past entry; they are in again."""
        e = self.entrants[player_id]
        self._grows()
        assert e.place is not None
        e.past.append(PastEntry(place=e.place, hand_no=e.hand_no))
        e.out, e.place, e.hand_no = False, None, None
        e.entries += 1
        self.left += 1
        return e

    def _grows(self) -> None:
        for e in self.entrants.values():
            if e.out and e.place is not None:
                e.place += 1
            for p in e.past:
                p.place += 1

    def place_busts(
        self, table_id: int, hand_no: int, busts: Sequence[tuple[str, int]]
    ) -> list[TournamentEvent]:
        """Players busted in one hand, with the stacks they started it with."""
        remaining_after = self.left - len(busts)
        placed = place_busts(busts, remaining_after)
        counts: dict[int, int] = {}
        for _, place in placed:
            counts[place] = counts.get(place, 0) + 1
        starts = dict(busts)
        events: list[TournamentEvent] = []
        for pid, place in reversed(placed):  # the lowest place is announced first
            e = self.entrants[pid]
            e.out, e.place, e.hand_no = True, place, hand_no
            self.left -= 1
            events.append(player_eliminated(  # player_id, name, place, shared, table_id,
                pid, e.name, place, counts[place] > 1, table_id,  # hand_no, starting_stack,
                hand_no, starts[pid], False, remaining_after,  # removed, players_left
            ))
        return events

    def remove(self, player_id: str, table_id: int, stack: int) -> PlayerEliminated:
        """A player disqualified: placed as if eliminated now (interpretation 9)."""
        e = self.entrants[player_id]
        place = self.left
        e.out, e.removed, e.place, e.hand_no = True, True, place, None
        self.left -= 1
        return PlayerEliminated(
            player_id=player_id, name=e.name, place=place, shared=False,
            table_id=table_id, hand_no=None, starting_stack=stack, removed=True,
            players_left=place - 1,
        )

    def standings(self, stacks: Mapping[str, int]) -> list[Standing]:
        """Players still in by chips (equal chips share a place), then the eliminated,
        the last eliminated highest (interpretation 6)."""
        ins = [(e.player_id, stacks.get(e.player_id, 0)) for e in self.entrants.values() if not e.out]
        # standing(place, player_id, name, chips, eliminated, removed, hand_no, entry, entries)
        entrants = self.entrants
        out: list[Standing] = []
        for place, pid, chips in rank_by_chips(ins):
            e = entrants[pid]
            out.append(standing(place, pid, e.name, chips, False, False, None, e.entries, e.entries))
        gone = [
            standing(e.place or 0, e.player_id, e.name, 0, True, e.removed, e.hand_no, e.entries, e.entries)
            for e in entrants.values() if e.out
        ]
        # The entries before a re-entry: each finished where it was placed (issue 27).
        gone += [
            Standing(place=p.place, player_id=e.player_id, name=e.name, chips=0, eliminated=True,
                     hand_no=p.hand_no, entry=n, entries=e.entries)
            for e in self.entrants.values() for n, p in enumerate(e.past, start=1)
        ]
        out += sorted(gone, key=lambda s: s.place)
        return out
