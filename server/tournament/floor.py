"""The floor: players' calls to the director, the director's rulings, and the night's trophies.

The rulebook gives the director the last word. A call ("floor!") waits in a queue with
where it came from and the hand being played, so the director can look at the hand
before ruling; a ruling closes the call and is announced to that table and kept in the
audit. A disputed automatic decision (a timeout fold, a misclick) is appealed the same
way: the call names the hand. Trophies are the director's own titles ("best bluff"); the
winner and runner-up are added by the rules at the end (``trophies``).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from .errors import TournamentError
from .standings import Standing


@attrs.frozen(kw_only=True)
class FloorCall:
    call_id: int
    at: float
    player_id: str
    table_id: int | None
    seat: int | None
    hand_no: int | None  # the hand being played at the player's table, or the last one
    message: str


@attrs.frozen(kw_only=True)
class Ruling:
    at: float
    call_id: int | None  # None: a ruling the director makes without a call
    table_id: int | None
    decision: str


@attrs.frozen(kw_only=True)
class Trophy:
    title: str
    player_id: str
    by_rule: bool = False  # winner and runner-up, named by the standings, not the director


class Floor:
    def __init__(self) -> None:
        self.open: dict[int, FloorCall] = {}
        self.rulings: list[Ruling] = []
        self.awarded: list[Trophy] = []
        self._next_call = 1

    def call(self, *, at: float, player_id: str, table_id: int | None, seat: int | None,
             hand_no: int | None, message: str) -> FloorCall:
        call = FloorCall(call_id=self._next_call, at=at, player_id=player_id, table_id=table_id,
                         seat=seat, hand_no=hand_no, message=message)
        self._next_call += 1
        self.open[call.call_id] = call
        return call

    def rule(self, *, at: float, call_id: int | None, table_id: int | None, decision: str) -> Ruling:
        """Close ``call_id`` (if given) with ``decision``; its table is the call's."""
        if not decision.strip():
            raise TournamentError("a ruling needs the decision's text")
        if call_id is not None:
            call = self.open.pop(call_id, None)
            if call is None:
                raise TournamentError(
                    f"there is no open call #{call_id}" + (f" (open: {', '.join(f'#{c}' for c in self.open)})"
                                                           if self.open else " (no call is open)"))
            table_id = call.table_id
        ruling = Ruling(at=at, call_id=call_id, table_id=table_id, decision=decision.strip())
        self.rulings.append(ruling)
        return ruling

    def award(self, *, title: str, player_id: str) -> Trophy:
        title = title.strip()
        if not title:
            raise TournamentError("a trophy needs a title")
        if any(t.title.casefold() == title.casefold() for t in self.awarded):
            raise TournamentError(f"the trophy {title!r} is already awarded")
        trophy = Trophy(title=title, player_id=player_id)
        self.awarded.append(trophy)
        return trophy


def trophies(standings: Sequence[Standing] | None, awarded: Sequence[Trophy]) -> list[Trophy]:
    """Every trophy of the night: the winner and runner-up by the final standings, then the
    director's. Players who share first place are all winners, and the runner-up is the
    next place, never someone who shares first."""
    out: list[Trophy] = []
    if standings:
        first = [s for s in standings if s.place == 1]
        out += [Trophy(title="Winner", player_id=s.player_id, by_rule=True) for s in first]
        rest = [s.place for s in standings if s.place > 1]
        if rest:
            out += [Trophy(title="Runner-up", player_id=s.player_id, by_rule=True)
                    for s in standings if s.place == min(rest)]
    return out + list(awarded)
