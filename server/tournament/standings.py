"""Places: busts in one hand, players still in by chips, shared places (interpretation 6).

Shared places use competition ranking: two players tied for 9th are both 9th and nobody is
10th. The winner and the runner-up are single players or nobody (``podium``): players who
share first place have no winner among them, and the runner-up is the one player in the
next place after first (third, when two share first), never one who shares first; when
that next place is shared too, there is no runner-up (TDA: a tie is a tie). Busts are placed when they happen, below everyone still in, so a tournament's places
stay fixed as it goes on; at the end the players still in take the places above them.
Busts at two tables whose hands end at different moments are placed in the order the
hands ended (the tournament has no hand-for-hand play).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

import attrs

from poker.makers import maker


@attrs.frozen(kw_only=True)
class Standing:
    place: int
    player_id: str
    name: str
    chips: int  # 0 for an eliminated player
    eliminated: bool
    removed: bool = False  # disqualified by the director (placed as if eliminated then)
    hand_no: int | None = None  # the hand they were eliminated in (None: removed between hands)
    # Re-entry (issue 27): which of the player's entries this row is, and how many they made.
    # A player who re-entered has a row per entry; only the last can still be in.
    entry: int = 1
    entries: int = 1


# Every field positionally, without the keyword parsing (``poker.makers``): the standings
# are built whole, a row per entry, at the end and for every lobby view.
standing = maker(Standing)


def place_busts(busts: Sequence[tuple[str, int]], remaining_after: int) -> list[tuple[str, int]]:
    """Places for the players eliminated in one hand, given ``(player_id, starting stack)``.

    ``remaining_after`` is how many players are still in after this hand. The player who
    started the hand with more chips places higher; equal starting stacks share a place.
    Returned best place first.
    """
    return [(pid, remaining_after + place) for place, pid, _ in rank_by_chips(busts)]


def rank_by_chips(players: Sequence[tuple[str, int]]) -> list[tuple[int, str, int]]:
    """``(place, player_id, chips)`` for the players still in, most chips first, ties sharing."""
    out: list[tuple[int, str, int]] = []
    place = 0
    last: int | None = None
    # Most chips first; reverse=True keeps equal stacks in the order given (a stable sort).
    for n, (pid, chips) in enumerate(sorted(players, key=itemgetter(1), reverse=True), start=1):
        if chips != last:  # 1 + the number with more chips: they all come before
            place, last = n, chips
        out.append((place, pid, chips))
    return out


def podium(standings: Sequence[Standing]) -> tuple[str | None, str | None]:
    """``(winner, runner_up)``: the player alone in first place, and the player alone in the
    next place after it; None where a place is shared (or nobody holds it)."""

    def alone(place: int) -> str | None:
        holders = [s.player_id for s in standings if s.place == place]
        return holders[0] if len(holders) == 1 else None

    if not standings:
        return None, None
    first = [s for s in standings if s.place == standings[0].place]
    following = next((s.place for s in standings if s.place != first[0].place), None)
    return alone(first[0].place), None if following is None else alone(following)
