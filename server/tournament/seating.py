"""Random seating, and the balancing and breaking rule of interpretation section 7, as data.

``next_step`` looks only at how many players each table has (counting players already on
their way to it) and whether the table is between hands, and says what to do next: break a
table, move one player, or nothing. The tournament applies the step (it knows who is due
the big blind and where the empty seats are) and asks again until the answer is nothing.
Keeping the rule this small is what lets a property test check it against random busts.

Tables play concurrently, so the rule only ever takes players from a table between hands:
- Balance: when a table has two or more players fewer than the largest, the player due to
  post the next big blind at the largest table moves to the shortest. Only a largest table
  that is between hands can give a player; if every largest table is in a hand, the move
  waits for one of them to finish. The shortest table may be in a hand: the player then
  waits for its next hand (and is counted there already). Ties (docs/rules.md section 7):
  of several largest tables the highest-numbered between hands gives the player, of several
  shortest the lowest-numbered receives them, the same order tables break in.
- Break: when the players fit in one fewer table, the table with the fewest players breaks.
  If that table is in a hand, the break waits for the hand to end, and no balancing move is
  made meanwhile (the break will spread the players anyway). Tables break from the highest
  number down, so the final table is the lowest-numbered one still running.

Where a moved player sits (TDA, as for a new player): any empty seat, drawn at random, but
never one where they would skip the big blind. ``arrival_seat`` draws among the empty seats
where they are dealt in at once (not on the button, not in the small blind, of their first
hand there); if there is none, any empty seat, and the table deals them in once the button
has passed them (``poker.table``). So a moved player never lands on the button at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

import attrs

from poker.cards import RandomSource

T = TypeVar("T")


class TableLoad(NamedTuple):
    """One table as the rule sees it. A named tuple, not an attrs class: the tournament
    builds one per table after most hands, and a tuple is made several times faster."""

    table_id: int
    players: int  # seated plus on their way to it
    idle: bool  # between hands: players may be taken from it


@attrs.frozen(kw_only=True)
class BreakTable:
    table_id: int


@attrs.frozen(kw_only=True)
class MoveOne:
    from_table: int
    to_table: int


Step = BreakTable | MoveOne


def fits_in_fewer(loads: Sequence[TableLoad], seats_per_table: int) -> bool:
    """Whether the players would fit in one table fewer than there are."""
    return len(loads) > 1 and sum([t.players for t in loads]) <= (len(loads) - 1) * seats_per_table


def unsettled(players: Sequence[int], seats_per_table: int) -> bool:
    """Whether tables with these numbers of players call for a break or a move (one may
    still wait for a hand to end). When not, ``next_step`` is None whatever the tables are
    doing: the tournament asks this first, after every hand, from the counts alone."""
    return len(players) > 1 and (
        sum(players) <= (len(players) - 1) * seats_per_table or max(players) - min(players) >= 2
    )


def next_step(loads: Sequence[TableLoad], seats_per_table: int) -> Step | None:
    """The next break or move the rule calls for now, or None (balanced, or waiting for a hand)."""
    players = [t.players for t in loads]
    if not unsettled(players, seats_per_table):
        return None
    fewest = min(players)
    if fits_in_fewer(loads, seats_per_table):
        idle = [t.table_id for t in loads if t.players == fewest and t.idle]
        return BreakTable(table_id=max(idle)) if idle else None
    most = max(players)
    sources = [t.table_id for t in loads if t.players == most and t.idle]
    if not sources:
        return None
    target = min([t.table_id for t in loads if t.players == fewest])
    return MoveOne(from_table=max(sources), to_table=target)


def spread_target(loads: Sequence[TableLoad], seats_per_table: int) -> int | None:
    """Where a player from a breaking table goes: the table with the fewest, lowest number first."""
    open_ = [(t.players, t.table_id) for t in loads if t.players < seats_per_table]
    if not open_:
        return None
    return min(open_)[1]


def table_count(players: int, seats_per_table: int) -> int:
    """As many tables as needed, and no more."""
    return max(1, -(-players // seats_per_table))


def shuffle(items: Sequence[T], rng: RandomSource) -> list[T]:
    """Fisher-Yates with only ``randrange``, so ``secrets.SystemRandom`` works as the RNG."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def choose(items: Sequence[T], rng: RandomSource) -> T:
    if not items:
        raise ValueError("nothing to choose from")
    return items[rng.randrange(len(items))]


def arrival_seat(free: Sequence[int], would_wait: Callable[[int], bool], rng: RandomSource) -> int:
    """The seat a moved player takes: at random among the ``free`` seats where they are
    dealt in at once (``would_wait`` is false), else at random among all of them."""
    at_once = [s for s in free if not would_wait(s)]
    return choose(at_once or free, rng)


def initial_seating(
    player_ids: Sequence[str], seats_per_table: int, rng: RandomSource
) -> dict[int, dict[int, str]]:
    """Random seats over as many tables as needed, table sizes differing by at most one.

    Returns ``{table_id: {seat: player_id}}`` with tables numbered from 1.
    """
    n = table_count(len(player_ids), seats_per_table)
    order = shuffle(player_ids, rng)
    tables: dict[int, dict[int, str]] = {}
    for t in range(n):
        group = order[t::n]
        seats = shuffle(range(1, seats_per_table + 1), rng)[: len(group)]
        tables[t + 1] = dict(sorted(zip(seats, group, strict=True)))
    return tables
