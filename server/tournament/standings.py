"""Places: busts in one hand, players still in by chips, shared places (interpretation 6).

Shared places use competition ranking: two players tied for 9th are both 9th and nobody is
10th. Busts are placed when they happen, below everyone still in, so a tournament's places
stay fixed as it goes on; at the end the players still in take the places above them.
Busts at two tables whose hands end at different moments are placed in the order the
hands ended (the tournament has no hand-for-hand play).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs


@attrs.frozen(kw_only=True)
class Standing:
    place: int
    player_id: str
    name: str
    chips: int  # 0 for an eliminated player
    eliminated: bool
    removed: bool = False  # disqualified by the director (placed as if eliminated then)
    hand_no: int | None = None  # the hand they were eliminated in (None: removed between hands)


def place_busts(busts: Sequence[tuple[str, int]], remaining_after: int) -> list[tuple[str, int]]:
    """Places for the players eliminated in one hand, given ``(player_id, starting stack)``.

    ``remaining_after`` is how many players are still in after this hand. The player who
    started the hand with more chips places higher; equal starting stacks share a place.
    Returned best place first.
    """
    ordered = sorted(busts, key=lambda b: -b[1])
    return [
        (pid, remaining_after + 1 + sum(1 for _, s in ordered if s > start))
        for pid, start in ordered
    ]


def rank_by_chips(players: Sequence[tuple[str, int]]) -> list[tuple[int, str, int]]:
    """``(place, player_id, chips)`` for the players still in, most chips first, ties sharing."""
    ordered = sorted(players, key=lambda p: -p[1])
    return [
        (1 + sum(1 for _, c in ordered if c > chips), pid, chips) for pid, chips in ordered
    ]
