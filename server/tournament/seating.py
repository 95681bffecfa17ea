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

``Seating`` holds who sits where and applies that rule: the tables in play, the players on
their way to a table in a hand, the tables broken, and the moves themselves. The
``Tournament`` owns one and asks it; the director's moves go through it too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

import attrs

from poker.cards import RandomSource, below
from poker.makers import maker
from poker.table import Table

from .errors import TournamentError
from .events import (
    FinalTable,
    MoveReason,
    PlayerMoved,
    TableBroken,
    TournamentEvent,
    player_moved,
    player_seated,
)

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
    return _fit_in_fewer([t.players for t in loads], seats_per_table)


def _fit_in_fewer(players: Sequence[int], seats_per_table: int) -> bool:
    return len(players) > 1 and sum(players) <= (len(players) - 1) * seats_per_table


def unsettled(players: Sequence[int], seats_per_table: int) -> bool:
    """Whether tables with these numbers of players call for a break or a move (one may
    still wait for a hand to end). When not, ``next_step`` is None whatever the tables are
    doing: ``step_among`` asks this first, from the counts alone."""
    return _fit_in_fewer(players, seats_per_table) or (len(players) > 1 and max(players) - min(players) >= 2)


def next_step(loads: Sequence[TableLoad], seats_per_table: int) -> Step | None:
    """The next break or move the rule calls for now, or None (balanced, or waiting for a hand)."""
    return step_among(
        [t.table_id for t in loads], [t.players for t in loads], [t.idle for t in loads], seats_per_table
    )


def step_among(
    ids: Sequence[int], players: Sequence[int], idle: Sequence[bool], seats_per_table: int
) -> Step | None:
    """``next_step`` of the tables given as three lists in step (ids, players, between
    hands): how ``Seating`` asks after every hand end, without a ``TableLoad`` per table."""
    if not unsettled(players, seats_per_table):
        return None
    fewest = min(players)
    if _fit_in_fewer(players, seats_per_table):
        breakable = [tid for tid, n, free in zip(ids, players, idle, strict=True) if free and n == fewest]
        return BreakTable(table_id=max(breakable)) if breakable else None
    most = max(players)
    sources = [tid for tid, n, free in zip(ids, players, idle, strict=True) if free and n == most]
    if not sources:
        return None
    target = min([tid for tid, n in zip(ids, players, strict=True) if n == fewest])
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
    """Fisher-Yates with only ``randrange`` (``below``), so ``secrets.SystemRandom`` works as the RNG."""
    out = list(items)
    draw = below(rng)
    for i in range(len(out) - 1, 0, -1):
        j = draw(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def choose(items: Sequence[T], rng: RandomSource) -> T:
    if not items:
        raise ValueError("nothing to choose from")
    return items[below(rng)(len(items))]


def arrival_seat(free: Sequence[int], at_once: Sequence[int], rng: RandomSource) -> int:
    """The seat a moved player takes: at random among the ``free`` seats where they are
    dealt in at once (``at_once``, ``Table.dealt_at_once``), else at random among all of them."""
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


# -- who sits where ---------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Location:
    table_id: int
    seat: int
    on_the_way: bool  # on the way to this table: sits when its hand ends


# Location(table_id, seat, on_the_way) through ``poker.makers``: the server locates the
# player behind every action (``House.locate``).
make_location = maker(Location)


@attrs.define(kw_only=True)
class Arrival:
    """A player moved to a table that was in a hand: the seat is theirs, they sit at its end."""

    player_id: str
    seat: int
    stack: int


class Seating:
    """The tables in play and who sits at each, seated or on the way; moves, breaks and
    balancing by the rule above. ``rng`` draws the seats of moved players and the order a
    breaking table's players leave in; ``who`` names a player in errors."""

    def __init__(self, rng: RandomSource, who: Callable[[str], str]) -> None:
        self.rng = rng
        self.who = who
        self.tables: dict[int, Table] = {}
        self.broken: list[int] = []  # table ids, in the order they broke
        self.incoming: dict[int, list[Arrival]] = {}  # table id -> players on the way to it
        self.final_table_announced = False

    # -- queries ------------------------------------------------------------------------

    def no_table(self, table_id: int) -> str:
        """Why there is no table ``table_id``, in words."""
        if table_id in self.broken:
            return f"table {table_id} has broken"
        return f"there is no table {table_id} (tables: {', '.join(map(str, sorted(self.tables))) or 'none'})"

    def arrivals(self, table_id: int) -> list[tuple[str, int]]:
        return [(a.player_id, a.seat) for a in self.incoming.get(table_id, [])]

    def location(self, player_id: str) -> Location | None:
        for tid, table in self.tables.items():
            seat = table.seat_of(player_id)
            if seat is not None:
                return make_location(tid, seat, False)
        for tid, arrivals in self.incoming.items():
            for a in arrivals:
                if a.player_id == player_id:
                    return Location(table_id=tid, seat=a.seat, on_the_way=True)
        return None

    def stacks(self) -> dict[str, int]:
        stacks = {p.player_id: p.stack for t in self.tables.values() for p in t.seats.values()}
        for arrivals in self.incoming.values():
            for a in arrivals:
                stacks[a.player_id] = a.stack
        return stacks

    def chips_on_the_way(self) -> int:
        total = 0
        for arrivals in self.incoming.values():
            for a in arrivals:
                total += a.stack
        return total

    def free_seats(self, table_id: int) -> list[int]:
        """Empty seats not promised to a player on the way."""
        empty = self.tables[table_id].empty_seats()
        arrivals = self.incoming.get(table_id)
        if not arrivals:
            return empty
        reserved = {a.seat for a in arrivals}
        return [s for s in empty if s not in reserved]

    def in_a_hand(self, player_id: str) -> bool:
        """Whether the player sits at a table in a hand (their chips are in play there)."""
        loc = self.location(player_id)
        return loc is not None and not loc.on_the_way and self.tables[loc.table_id].hand is not None

    def counts(self) -> list[int]:
        """Each table's players, seated and on the way to it, in ``tables`` order: what the
        rule is asked from after every hand (``loads`` describes the tables more)."""
        incoming = self.incoming
        if not incoming:
            return [len(t.seats) for t in self.tables.values()]
        return [len(t.seats) + len(incoming.get(tid, ())) for tid, t in self.tables.items()]

    def loads(self, exclude: int | None = None) -> list[TableLoad]:
        """Each table as the rule sees it (a breaking table spreads its players by them)."""
        return [
            TableLoad(tid, players, t.hand is None)
            for (tid, t), players in zip(self.tables.items(), self.counts(), strict=True)
            if tid != exclude
        ]

    def late_table(self) -> int:
        """Where a late entry sits: the table with the fewest players and a free seat."""
        counts = dict(zip(self.tables, self.counts(), strict=True))
        return min((tid for tid in self.tables if self.free_seats(tid)), key=lambda tid: (counts[tid], tid))

    # -- operations ---------------------------------------------------------------------

    def take(self, player_id: str, at: Location | None = None) -> tuple[Location, int]:
        """Take a player (not in a hand) off their seat or off the way; their location and stack.
        ``at``: where they are, when the caller knows (saves looking at every table)."""
        loc = self.location(player_id) if at is None else at
        if loc is None:
            raise TournamentError(f"{self.who(player_id)} has no seat")
        if loc.on_the_way:
            arrivals = self.incoming[loc.table_id]
            arrival = next(a for a in arrivals if a.player_id == player_id)
            arrivals.remove(arrival)
            return loc, arrival.stack
        table = self.tables[loc.table_id]
        assert table.seats[loc.seat].player_id == player_id, (player_id, loc)
        return loc, table.unsit(loc.seat).stack

    def put(self, player_id: str, stack: int, table_id: int, seat: int | None) -> tuple[int, bool]:
        """Seat a player at a table (now if it is between hands, else when its hand ends);
        the seat, and whether they are on the way."""
        table = self.tables[table_id]
        if seat is None:
            free = self.free_seats(table_id)
            # One free seat is the seat whichever way the rule goes (the draw is still made:
            # the RNG's stream is the same either way).
            seat = arrival_seat(free, table.dealt_at_once(free) if len(free) > 1 else free, self.rng)
        if table.hand is None:
            table.sit(seat, player_id, stack, arriving=True)
            return seat, False
        self.incoming.setdefault(table_id, []).append(Arrival(player_id=player_id, seat=seat, stack=stack))
        return seat, True

    def move(
        self, player_id: str, to_table: int, to_seat: int | None, reason: MoveReason,
        *, at: Location | None = None,
    ) -> PlayerMoved:
        loc, stack = self.take(player_id, at)
        seat, waiting = self.put(player_id, stack, to_table, to_seat)
        # player_id, from_table, from_seat, to_table, to_seat, stack, reason, on_the_way
        return player_moved(player_id, loc.table_id, loc.seat, to_table, seat, stack, reason, waiting)

    def add_chips(self, player_id: str, delta: int) -> int:
        """Change a player's stack (not in a hand); the new stack."""
        loc = self.location(player_id)
        if loc is None:
            raise TournamentError(f"{self.who(player_id)} has no seat")
        if loc.on_the_way:
            arrival = next(a for a in self.incoming[loc.table_id] if a.player_id == player_id)
            arrival.stack += delta
            return arrival.stack
        seated = self.tables[loc.table_id].seats[loc.seat]
        seated.stack += delta
        return seated.stack

    def deliver(self, table_id: int) -> list[TournamentEvent]:
        """Players who were on the way to this table take their seats."""
        if table_id not in self.incoming:
            return []
        events: list[TournamentEvent] = []
        table = self.tables.get(table_id)
        for a in self.incoming.pop(table_id):
            assert table is not None
            table.sit(a.seat, a.player_id, a.stack, arriving=True)
            events.append(player_seated(a.player_id, table_id, a.seat, a.stack))
        return events

    def rebalance(self, seats: int) -> list[TournamentEvent]:
        """Apply the rule's steps until it calls for nothing more now."""
        events: list[TournamentEvent] = []
        tables = self.tables
        while (
            step := step_among(list(tables), self.counts(), [t.hand is None for t in tables.values()], seats)
        ) is not None:
            if isinstance(step, BreakTable):
                events += self.break_table(step.table_id, seats)
            else:
                source = self.tables[step.from_table]
                seat = source.next_big_blind()
                at = Location(table_id=step.from_table, seat=seat, on_the_way=False)
                player = source.seats[seat].player_id
                events.append(self.move(player, step.to_table, None, MoveReason.BALANCE, at=at))
        return events + self.announce_final_table()  # (once, when one table is left)

    def break_table(self, table_id: int, seats: int) -> list[TournamentEvent]:
        """Spread a table's players over the others, each to the table with the fewest; the
        carry follows the first player moved (interpretation 5)."""
        table = self.tables[table_id]
        assert table.hand is None and not self.incoming.get(table_id)
        order = shuffle(sorted(table.seats), self.rng)
        players = [table.seats[s].player_id for s in order]
        moves: list[TournamentEvent] = []
        first: int | None = None
        # The other tables' loads, kept up to date here: a move adds one to its target only.
        loads = {load.table_id: load for load in self.loads(exclude=table_id)}
        for seat, pid in zip(order, players, strict=True):
            target = spread_target(list(loads.values()), seats)
            if target is None:  # cannot happen: a table breaks only when the players fit
                raise TournamentError(f"no seat for {self.who(pid)} when table {table_id} breaks")
            at = Location(table_id=table_id, seat=seat, on_the_way=False)
            moves.append(self.move(pid, target, None, MoveReason.BREAK, at=at))
            old = loads[target]
            loads[target] = TableLoad(target, old.players + 1, old.idle)
            first = target if first is None else first
        carry, carry_to = table.carry, first
        if carry:
            if carry_to is None:  # nobody to follow: the lowest-numbered table's next hand
                carry_to = min(t for t in self.tables if t != table_id)
            self.tables[carry_to].carry += carry
            table.carry = 0
        del self.tables[table_id]
        self.broken.append(table_id)
        broken = TableBroken(
            table_id=table_id, players=tuple(players), carry=carry,
            carry_to=carry_to if carry else None, tables_left=len(self.tables),
        )
        return [broken, *moves]

    def announce_final_table(self) -> list[TournamentEvent]:
        if len(self.tables) != 1 or self.final_table_announced:
            return []
        self.final_table_announced = True
        (tid, table), = self.tables.items()
        players = tuple(p.player_id for _, p in sorted(table.seats.items()))
        players += tuple(a.player_id for a in self.incoming.get(tid, []))
        return [FinalTable(table_id=tid, players=players)]
