"""The tournament as a sans-I/O state object: registration to the last chip.

Like the engine's ``Hand``: the ``Tournament`` holds state, queries say what may happen
(``can_deal``), operations verify, change the state and return frozen event records
(``events.py``). It reads no clock and draws no random number of its own: ``now`` (float
seconds, any monotonic base) comes with every call that may depend on time, and the RNG
(seating, moves and decks) is passed in at construction.

How the server drives it (one task per table, one coordinator; all calls synchronous, so
each is atomic):

- table task: ``while can_deal(t, now)``: ``hand = begin_hand(t, now)``, play it through the
  engine, then ``end_hand(t, now)``. Tables play concurrently: table 2 may deal while
  table 1 is mid-hand.
- coordinator: ``tick(now)`` about once a second (level changes, the deadline), and the
  director's operations through ``Director(tournament)`` (``director.py``).

Seats change only at tables between hands. ``end_hand`` is where a table becomes free, so
that is where busts are placed, players waiting for this table sit down, deferred director
operations apply, and balancing runs (``seating.py`` has the rule and how it waits for
tables in a hand). The chip total is conserved at every moment: ``total_chips()`` counts
stacks, hands in progress, carried odd chips, players on their way between tables and the
director adjustment account, and always equals ``chips_issued``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence

import attrs

from poker.cards import Card, RandomSource, shuffled_deck
from poker.hand import Hand
from poker.limits import MAX_CHIPS
from poker.table import Table

from .clock import LevelClock
from .errors import TournamentError
from .events import (
    BreakEnded,
    BreakStarted,
    ClockPaused,
    ClockResumed,
    DeadlinePassed,
    DirectorAction,
    FinalTable,
    FinishReason,
    FloorCalled,
    HandVoided,
    LevelChanged,
    MoveReason,
    PlayerEliminated,
    PlayerMoved,
    PlayerReentered,
    PlayerRegistered,
    PlayerSeated,
    RuleChange,
    TableBroken,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from .floor import Floor
from .seating import (
    BreakTable,
    TableLoad,
    arrival_seat,
    initial_seating,
    next_step,
    shuffle,
    spread_target,
    unsettled,
)
from .settings import Settings, is_number
from .standings import Standing, place_busts, podium, rank_by_chips

Events = list[TournamentEvent]


class Phase(enum.StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


@attrs.define(kw_only=True)
class _PastEntry:
    """An entry of a player who re-entered: where it finished (issue 27)."""

    place: int
    hand_no: int | None


@attrs.define(kw_only=True)
class _Entrant:
    player_id: str
    name: str
    out: bool = False
    removed: bool = False
    place: int | None = None
    hand_no: int | None = None
    entries: int = 1  # this entry's number: 2 after one re-entry
    past: list[_PastEntry] = attrs.Factory(list)  # the entries before it, first first


@attrs.define(kw_only=True)
class _Arrival:
    """A player moved to a table that was in a hand: the seat is theirs, they sit at its end."""

    player_id: str
    seat: int
    stack: int


@attrs.define(kw_only=True)
class _Deferred:
    """A director operation on players in a hand: it applies when none of them is."""

    players: tuple[str, ...]
    apply: Callable[[], Events]


@attrs.frozen(kw_only=True)
class Location:
    table_id: int
    seat: int
    on_the_way: bool  # on the way to this table: sits when its hand ends


@attrs.frozen(kw_only=True)
class OnBreak:
    """A break in progress: after level ``after_level``, from ``began`` to ``until`` (in the
    time base of ``now``). ``held``: the director had paused the clock before it began, so
    the clock stays paused when it ends by itself."""

    after_level: int
    began: float
    until: float
    held: bool


@attrs.frozen(kw_only=True)
class LevelInfo:
    level: int  # the number people see, from 1
    small_blind: int
    big_blind: int
    next_small_blind: int
    next_big_blind: int
    running: bool
    seconds_left: float | None  # levels by time
    hands_left: int | None  # levels by hands
    ante: int = 0  # the big-blind ante of this level (0: none)
    next_ante: int = 0


class Tournament:
    def __init__(self, settings: Settings, rng: RandomSource) -> None:
        self.settings = settings
        self.rng = rng
        self.phase = Phase.REGISTERING
        self.clock = LevelClock()
        self.tables: dict[int, Table] = {}
        self.broken_tables: list[int] = []
        self.hands_dealt = 0  # tournament-wide; the last hand number given out
        self.chips_issued = 0
        self.adjustment = 0  # the director adjustment account: chips taken out of play
        self.deadline_passed = False
        self.floor = Floor()  # calls to the director, rulings, trophies
        self.late_until: int | None = None  # late entries taken through this level (director's)
        self.held_tables: set[int] = set()  # tables the director paused
        self.audit_log: list[DirectorAction] = []  # every director operation, in order
        # The rules in force have a version: 1 as the tournament was set up, +1 with every
        # rule change the director makes (``Director``), each kept with its reason.
        self.rules_version = 1
        self.rule_changes: list[RuleChange] = []
        self.breaks_taken: set[int] = set()  # levels whose break was taken (or begun)
        self.on_break: OnBreak | None = None
        self.result: TournamentFinished | None = None
        self._entrants: dict[str, _Entrant] = {}
        self._left = 0  # entrants not out: ``len(players_in())`` without the walk
        self._incoming: dict[int, list[_Arrival]] = {}
        self._deferred: list[_Deferred] = []
        self._hands_at: dict[int, int] = {}
        self._hand_settings: dict[int, Settings] = {}
        self._hand_level: dict[int, int] = {}
        self._final_table_announced = False
        self._outbox: Events = []  # events made by begin_hand, returned by the next call

    # -- queries ---------------------------------------------------------------------

    @property
    def level(self) -> int:
        """The level on now, as people number it (1 for the first)."""
        return self.clock.index + 1

    @property
    def blinds(self) -> tuple[int, int]:
        """The blinds the next hand dealt will use."""
        return self.settings.blinds(self.clock.index)

    @property
    def ante(self) -> int:
        """The big-blind ante the next hand dealt will use (0: none)."""
        return self.settings.ante(self.clock.index)

    @property
    def paused(self) -> bool:
        return self.phase is Phase.RUNNING and not self.clock.running

    def break_left(self, now: float) -> float | None:
        """Seconds left of the break in progress (0 once over, until a tick ends it), or
        None when there is no break."""
        if self.on_break is None or self.phase is not Phase.RUNNING:
            return None
        return max(0.0, self.on_break.until - now)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def state(self) -> str:
        """What the lobby and the tools show: registering, running, paused or finished."""
        if self.phase is not Phase.RUNNING:
            return self.phase.value
        return "paused" if self.paused else "running"

    def level_info(self, now: float) -> LevelInfo:
        sb, bb = self.blinds
        # At the last level (blinds at most MAX_CHIPS) the next blinds are the same.
        following = min(self.clock.index + 1, self.settings.last_level)
        nsb, nbb = self.settings.blinds(following)
        hpl = self.settings.hands_per_level
        return LevelInfo(
            level=self.level, small_blind=sb, big_blind=bb,
            next_small_blind=nsb, next_big_blind=nbb, running=self.clock.running,
            seconds_left=None if hpl else self.clock.remaining(now, self.settings.level_seconds),
            hands_left=self.clock.hands_left(hpl, len(self.tables)) if hpl else None,
            ante=self.ante, next_ante=self.settings.ante(following),
        )

    def name_of(self, player_id: str) -> str:
        return self._entrant(player_id).name

    def who(self, player_id: str) -> str:
        """A player in a person's words, for errors: "bob (player 2)", the name and the
        number the lobby shows (a name may be shared in spirit, or hard to type)."""
        e = self._entrants.get(player_id)
        return f"player {player_id}" if e is None else f"{e.name} (player {player_id})"

    @property
    def registered(self) -> list[str]:
        return list(self._entrants)

    def players_in(self) -> list[str]:
        """Players not eliminated, in registration order."""
        return [e.player_id for e in self._entrants.values() if not e.out]

    def table_ids(self) -> list[int]:
        return sorted(self.tables)

    def table(self, table_id: int) -> Table:
        if table_id not in self.tables:
            raise TournamentError(self._no_table(table_id))
        return self.tables[table_id]

    def in_hand(self, table_id: int) -> bool:
        """Whether the table has a hand not yet ended with ``end_hand``."""
        return self.table(table_id).hand is not None

    def arrivals(self, table_id: int) -> list[tuple[str, int]]:
        """``(player_id, seat)`` of players on their way to this table (it is in a hand)."""
        return [(a.player_id, a.seat) for a in self._incoming.get(table_id, [])]

    def location(self, player_id: str) -> Location | None:
        """Where a player sits (or will sit, when on the way); None once eliminated."""
        for tid, table in self.tables.items():
            seat = table.seat_of(player_id)
            if seat is not None:
                return Location(table_id=tid, seat=seat, on_the_way=False)
        for tid, arrivals in self._incoming.items():
            for a in arrivals:
                if a.player_id == player_id:
                    return Location(table_id=tid, seat=a.seat, on_the_way=True)
        return None

    def stack_of(self, player_id: str) -> int:
        """Chips behind; for a player in a hand, the stack they started it with."""
        return self._stacks().get(player_id, 0)

    def hands_dealt_at(self, table_id: int) -> int:
        return self._hands_at.get(table_id, 0)

    def hand_settings(self, table_id: int) -> Settings:
        """The settings the table's current (or last) hand was dealt with: the action clock
        and time bank for a hand in progress come from here, not from ``settings``."""
        return self._hand_settings.get(table_id, self.settings)

    def hand_level(self, table_id: int) -> int:
        """The level number the table's current (or last) hand was dealt at."""
        return self._hand_level.get(table_id, self.level)

    def total_chips(self) -> int:
        """Stacks, hands in progress, carries, players on the way, and the adjustment account."""
        return self.chips_in_play() + self.adjustment

    def chips_in_play(self) -> int:
        """``Table.total_chips`` of every table, and the players on the way; in linear time
        and plain loops, since the total is checked after every hand."""
        total = 0
        for table in self.tables.values():
            hand = table.hand
            if hand is not None and hand.result is not None:  # over, not yet ended
                total += table.total_chips()
                continue
            total += table.carry
            if hand is None:
                for p in table.seats.values():
                    total += p.stack
            else:
                total += hand.total_chips()
                # Seats do not change during a hand and every dealt seat is a table seat,
                # so the players outside the hand are the extra seats, if any.
                if len(table.seats) > len(hand.starting_stacks):
                    for s in table.seats.keys() - hand.seats:
                        total += table.seats[s].stack
        for arrivals in self._incoming.values():
            for a in arrivals:
                total += a.stack
        return total

    def carried_chips(self) -> int:
        return sum(t.carry for t in self.tables.values())

    def standings(self) -> list[Standing]:
        """Players still in by chips (equal chips share a place), then the eliminated,
        the last eliminated highest (interpretation 6)."""
        stacks = self._stacks()
        ins = [(e.player_id, stacks.get(e.player_id, 0)) for e in self._entrants.values() if not e.out]
        out: list[Standing] = [
            Standing(place=place, player_id=pid, name=self._entrants[pid].name, chips=chips,
                     eliminated=False)
            for place, pid, chips in rank_by_chips(ins)
        ]
        for s in out:
            e = self._entrants[s.player_id]
            if e.entries > 1:
                out[out.index(s)] = attrs.evolve(s, entry=e.entries, entries=e.entries)
        gone = [
            Standing(place=e.place or 0, player_id=e.player_id, name=e.name, chips=0,
                     eliminated=True, removed=e.removed, hand_no=e.hand_no,
                     entry=e.entries, entries=e.entries)
            for e in self._entrants.values() if e.out
        ]
        # The entries before a re-entry: each finished where it was placed (issue 27).
        gone += [
            Standing(place=p.place, player_id=e.player_id, name=e.name, chips=0, eliminated=True,
                     hand_no=p.hand_no, entry=n, entries=e.entries)
            for e in self._entrants.values() for n, p in enumerate(e.past, start=1)
        ]
        out += sorted(gone, key=lambda s: s.place)
        return out

    def why_not_deal(self, table_id: int, now: float) -> str | None:
        """Why ``table_id`` may not deal a hand at ``now``, or None if it may."""
        if self.phase is Phase.REGISTERING:
            return "the tournament has not started"
        if self.phase is Phase.FINISHED:
            return "the tournament is over"
        if self._deadline_reached(now):
            return "the deadline has passed: no new hand starts"
        if self.on_break is not None:
            return (f"the tournament is on a break after level {self.on_break.after_level}: "
                    "no new hand starts until it ends")
        if self._break_due(now):
            return f"level {self.level} is over and a break follows it: no new hand starts"
        if not self.clock.running:
            return "the tournament clock is paused: no new hand starts until it resumes"
        if table_id not in self.tables:
            return self._no_table(table_id)
        table = self.tables[table_id]
        if table_id in self.held_tables and table.hand is None:
            return f"table {table_id} is paused by the director"
        if table.hand is not None:
            if table.hand.is_over:
                return f"hand #{table.hand.hand_no} at table {table_id} is over: end it first"
            return f"table {table_id} is in a hand (#{table.hand.hand_no})"
        for op in self._deferred:
            # An operation on players at two tables waits for both; this one holds its
            # deal so the other's hand end finds both free (else it could wait for ever).
            if any(table.seat_of(p) is not None for p in op.players):
                return f"table {table_id} waits for a director's operation on a player in a hand elsewhere"
        with_chips = sum(1 for p in table.seats.values() if p.stack > 0)
        if with_chips < 2:
            return f"table {table_id} has {with_chips} player(s): waiting for players to be moved in"
        return None

    def can_deal(self, table_id: int, now: float) -> bool:
        return self.why_not_deal(table_id, now) is None

    # -- registration and start ------------------------------------------------------

    def registration_open(self) -> bool:
        """Before the start, or during late registration (up to the level the director set)."""
        if self.phase is Phase.REGISTERING:
            return True
        return self.phase is Phase.RUNNING and self.late_until is not None and self.level <= self.late_until

    def register(self, player_id: str, name: str) -> Events:
        """A new entrant; after the start (late registration) they are seated at once with
        the starting stack, at the table with the fewest players."""
        if not self.registration_open():
            if self.phase is Phase.REGISTERING or self.late_until is None:
                raise TournamentError("registration is closed: the tournament has started")
            raise TournamentError(f"late registration closed at the end of level {self.late_until}")
        if not isinstance(player_id, str) or not player_id:
            raise TournamentError(f"a player needs an id (text), not {player_id!r}")
        if player_id in self._entrants:
            raise TournamentError(f"{self.who(player_id)} is already registered")
        if not isinstance(name, str):
            raise TournamentError(f"a player's name is text, not {name!r}")
        name = name.strip()
        if not name:
            raise TournamentError("a player needs a name")
        late = self.phase is Phase.RUNNING
        if late and not any(self._free_seats(tid) for tid in self.tables):
            raise TournamentError("every seat is taken: a late entry waits for a free seat")
        if late and self.chips_issued + self.settings.starting_stack > MAX_CHIPS:
            raise TournamentError(
                f"another {self.settings.starting_stack} chips would put more than {MAX_CHIPS} chips in play"
            )
        if late:
            self._field_grows()  # a late entry joins above the players already out
        self._entrants[player_id] = _Entrant(player_id=player_id, name=name)
        self._left += 1
        events: Events = [PlayerRegistered(player_id=player_id, name=name, registered=len(self._entrants))]
        if late:
            events += self._seat_late(player_id)
        return events

    def why_no_reentry(self, player_id: str) -> str | None:
        """Why ``player_id`` may not enter again now, in words; None when they may
        (issue 27: during late registration, for a player who is out, up to the
        director's number of entries and level)."""
        e = self._entrants.get(player_id)
        if e is None:
            return f"there is no player {player_id}"
        s = self.settings
        if self.phase is not Phase.RUNNING:
            return "re-entry is only during the tournament" if self.phase is Phase.REGISTERING \
                else "the tournament is over"
        if not e.out:
            return f"{e.name} is still in: only a player who is out may re-enter"
        if e.removed:
            return f"{e.name} was removed by the director and may not re-enter"
        if s.max_entries <= 1:
            return "re-entry is not allowed in this tournament"
        if e.entries >= s.max_entries:
            return f"{e.name} has made all {s.max_entries} entries allowed"
        if not self.registration_open():
            closed = "late registration is closed" if self.late_until is None \
                else f"late registration closed at the end of level {self.late_until}"
            return f"re-entry is only during late registration: {closed}"
        if s.reentry_until is not None and self.level > s.reentry_until:
            return f"re-entry closed at the end of level {s.reentry_until}"
        if not any(self._free_seats(tid) for tid in self.tables):
            return "every seat is taken: a re-entry waits for a free seat"
        if self.chips_issued + s.starting_stack > MAX_CHIPS:
            return f"another {s.starting_stack} chips would put more than {MAX_CHIPS} chips in play"
        return None

    def reenter(self, player_id: str) -> Events:
        """A player who is out enters again for the starting stack, seated as a late entry.
        Their earlier entry keeps its place, one lower for each entry that joins after it
        (the field grew: ``_field_grows``)."""
        reason = self.why_no_reentry(player_id)
        if reason is not None:
            raise TournamentError(reason)
        e = self._entrants[player_id]
        self._field_grows()
        assert e.place is not None
        e.past.append(_PastEntry(place=e.place, hand_no=e.hand_no))
        e.out, e.place, e.hand_no = False, None, None
        e.entries += 1
        self._left += 1
        events: Events = [PlayerReentered(player_id=player_id, name=e.name, entry=e.entries,
                                          stack=self.settings.starting_stack)]
        return events + self._seat_late(player_id)

    def _field_grows(self) -> None:
        """A new entry joins the field above every entry already out: each of those places
        moves one down, so no two entries ever share a place by accident."""
        for e in self._entrants.values():
            if e.out and e.place is not None:
                e.place += 1
            for p in e.past:
                p.place += 1

    def entries_made(self) -> int:
        """Every entry so far: the players registered and their re-entries."""
        return sum(e.entries for e in self._entrants.values())

    def entries_of(self, player_id: str) -> int:
        return self._entrant(player_id).entries

    def _seat_late(self, player_id: str) -> Events:
        stack = self.settings.starting_stack
        self.chips_issued += stack
        counts = dict(zip(self.tables, self._counts(), strict=True))
        table_id = min((tid for tid in self.tables if self._free_seats(tid)), key=lambda tid: (counts[tid], tid))
        seat, waiting = self._put(player_id, stack, table_id, None)
        if waiting:  # the table is in a hand: they sit down when it ends (``_deliver``)
            return []
        return [PlayerSeated(player_id=player_id, table_id=table_id, seat=seat, stack=stack)]

    def start(self, now: float) -> Events:
        """Seat everyone at random over as many tables as needed and start the level clock."""
        if self.phase is not Phase.REGISTERING:
            raise TournamentError("the tournament has already started")
        if not is_number(now):
            raise TournamentError(f"the start time is a number of seconds, not {now!r}")
        if len(self._entrants) < 2:
            raise TournamentError(
                f"a tournament needs at least 2 players; {len(self._entrants)} registered"
            )
        s = self.settings
        if len(self._entrants) * s.starting_stack > MAX_CHIPS:
            raise TournamentError(
                f"{len(self._entrants)} players with {s.starting_stack} chips each would put "
                f"{len(self._entrants) * s.starting_stack} chips in play, above the limit of {MAX_CHIPS}: "
                "lower the starting stack"
            )
        seating = initial_seating(list(self._entrants), s.seats_per_table, self.rng)
        self.phase = Phase.RUNNING
        self.chips_issued = len(self._entrants) * s.starting_stack
        self.clock.start(now)
        sb, bb = self.blinds
        events: Events = [
            TournamentStarted(
                at=now, players=len(self._entrants), tables=len(seating),
                seats_per_table=s.seats_per_table, starting_stack=s.starting_stack,
                level=self.level, small_blind=sb, big_blind=bb,
            )
        ]
        for tid, seats in seating.items():
            table = Table(table_id=tid, seat_count=s.seats_per_table, ruleset=s.ruleset)
            self.tables[tid] = table
            self._hands_at[tid] = 0
            for seat, pid in seats.items():
                table.sit(seat, pid, s.starting_stack)
                events.append(PlayerSeated(player_id=pid, table_id=tid, seat=seat, stack=s.starting_stack))
        events += self._announce_final_table()
        return events

    # -- hands -----------------------------------------------------------------------

    def begin_hand(self, table_id: int, now: float, *, deck: Sequence[Card] | None = None) -> Hand:
        """Deal the table's next hand at the current level, with a deck from the RNG (or
        ``deck``, when the server replays a stored hand). Raises TournamentError with the
        reason when the table may not deal (``why_not_deal``).

        A level that ran out by ``now`` applies to this hand; its ``LevelChanged`` is
        returned by the next call that returns events.
        """
        self._outbox += self._advance(now)
        reason = self.why_not_deal(table_id, now)
        if reason is not None:
            raise TournamentError(reason)
        table = self.tables[table_id]
        sb, bb = self.blinds
        table.ruleset = self.settings.ruleset
        cards = list(deck) if deck is not None else shuffled_deck(self.rng)
        self.hands_dealt += 1
        hand = table.start_hand(hand_no=self.hands_dealt, deck=cards, small_blind=sb, big_blind=bb,
                                ante=self.ante)
        self._hands_at[table_id] = self._hands_at.get(table_id, 0) + 1
        self._hand_settings[table_id] = self.settings
        self._hand_level[table_id] = self.level
        return hand

    def end_hand(self, table_id: int, now: float) -> Events:
        """Apply the table's finished hand: stacks, busts and their places, players arriving
        at this table, deferred director operations, then balancing and the end check."""
        table = self.table(table_id)
        hand = table.hand
        if hand is None:
            raise TournamentError(f"table {table_id} has no hand to end")
        if not hand.is_over:
            raise TournamentError(f"hand #{hand.hand_no} at table {table_id} is still being played")
        events, self._outbox = self._outbox, []  # events begin_hand made come first
        events += self._advance(now)
        busts = table.finish_hand()
        if busts:
            events += self._place_busts(table_id, hand.hand_no, [(p.player_id, start) for _, p, start in busts])
        hpl = self.settings.hands_per_level
        if hpl is not None and self._levels_move():
            new = self.clock.count_hand(hpl, len(self.tables), self.settings.last_level)
            events += self._level_events(new) + self._break_if_due(new, now)
        events += self._deliver(table_id)
        events += self._apply_deferred()
        events += self._settle(now)
        return events

    def void_hand(self, table_id: int, now: float) -> Events:
        """Call off the table's hand in progress; then as at any hand's end, players on the
        way sit down and operations waiting for this hand apply."""
        table = self.table(table_id)
        if table.hand is None or table.hand.is_over:
            raise TournamentError(f"table {table_id} has no hand in progress to void")
        hand = table.void_hand()
        events: Events = [HandVoided(at=now, table_id=table_id, hand_no=hand.hand_no)]
        events += self._deliver(table_id)
        events += self._apply_deferred()
        events += self._settle(now)
        return events

    def tick(self, now: float) -> Events:
        """Let time pass: the end of a break, level changes by the clock, and the deadline."""
        events, self._outbox = self._outbox, []  # events begin_hand made come first
        if self.phase is Phase.RUNNING and self.on_break is not None and now >= self.on_break.until:
            events += self._end_break(now, early=False)
        if self.phase is Phase.RUNNING and not self.deadline_passed:  # else nothing can pass
            events += self._advance(now)
        return events

    def call_floor(self, now: float, player_id: str, message: str) -> Events:
        """A player calls the director ("floor!"): the call waits in ``floor.open``."""
        self._entrant(player_id)
        loc = self.location(player_id)
        table = self.tables.get(loc.table_id) if loc is not None else None
        hand = table.hand if table is not None else None
        call = self.floor.call(
            at=now, player_id=player_id, table_id=loc.table_id if loc else None,
            seat=loc.seat if loc else None, hand_no=hand.hand_no if hand is not None else None,
            message=message,
        )
        return [
            FloorCalled(
                at=now, player_id=player_id, table_id=call.table_id, seat=call.seat,
                message=message, call_id=call.call_id, hand_no=call.hand_no,
            )
        ]

    # -- internals: time -------------------------------------------------------------

    def _deadline_reached(self, now: float) -> bool:
        d = self.settings.deadline
        return self.deadline_passed or (d is not None and now >= d)

    def _levels_move(self) -> bool:
        return self.phase is Phase.RUNNING and not self.deadline_passed

    def _advance(self, now: float) -> Events:
        # Called for every deal, hand end and tick: the common case (running, deadline not
        # reached, levels by hands) is a few attribute reads.
        if self.phase is not Phase.RUNNING or self.deadline_passed:
            return []  # levels stand still once the deadline has passed
        settings = self.settings
        if settings.deadline is not None and now >= settings.deadline:
            self.deadline_passed = True
            busy = tuple(tid for tid, t in sorted(self.tables.items()) if t.hand is not None)
            events: Events = [DeadlinePassed(at=now, tables_in_hand=busy)]
            events += self._finish_if_over(now)
            return events
        if settings.hands_per_level is None:  # levels by time
            stops = self._break_stops() if settings.breaks else frozenset()
            new = self.clock.advance_by_time(now, settings.level_seconds, settings.last_level, stops)
            return self._level_events(new) + self._break_if_due(new, now)
        return []

    # -- internals: breaks -------------------------------------------------------------

    def _break_stops(self) -> frozenset[int]:
        """The level indices a break comes before: a break after level N (numbered from 1)
        comes before index N, until it is taken."""
        return frozenset(n for n, _ in self.settings.breaks if n not in self.breaks_taken)

    def _break_due(self, now: float) -> bool:
        """The level on now ran out by time and its break has not begun yet (a tick or the
        next deal begins it): no hand may start in between."""
        s = self.settings
        if not s.breaks or s.by_hands or self.on_break is not None or not self.clock.running:
            return False
        return self.level in self._break_stops() and self.clock.due(now, s.level_seconds, s.last_level)

    def _break_if_due(self, new: Sequence[int], now: float) -> Events:
        """After the level clock moved on by itself to ``new``: the break scheduled after
        the level it left, if any and not yet taken."""
        if not new or self.on_break is not None:
            return []
        after = new[-1]  # moving to index N leaves level N (as people number it)
        minutes = self.settings.break_after(after)
        if minutes is None or after in self.breaks_taken:
            return []
        return self._start_break(now, after, minutes)

    def _start_break(self, now: float, after: int, minutes: int) -> Events:
        """Stop play: the clock pauses (hands in progress finish, no new hand starts) and the
        next level will start from its beginning when the break ends."""
        self.breaks_taken.add(after)
        held = not self.clock.running
        self.clock.restart_level(now)
        if not held:
            self.clock.pause(now)
        until = now + minutes * 60.0
        self.on_break = OnBreak(after_level=after, began=now, until=until, held=held)
        busy = tuple(tid for tid, t in sorted(self.tables.items()) if t.hand is not None)
        return [BreakStarted(at=now, after_level=after, minutes=minutes, until=until,
                             next_level=self.level, tables_in_hand=busy, held=held)]

    def _end_break(self, now: float, *, early: bool) -> Events:
        """The break is over: by its time (the clock runs again unless the director had
        paused it before), or early by the director's resume (it always runs again)."""
        brk = self.on_break
        assert brk is not None
        self.on_break = None
        resume = early or not brk.held
        if resume and not self.clock.running:
            self.clock.resume(now)
        sb, bb = self.blinds
        return [BreakEnded(at=now, after_level=brk.after_level, level=self.level, small_blind=sb,
                           big_blind=bb, early=early, resumed=resume)]

    def _level_events(self, indices: Sequence[int], *, by_director: bool = False) -> Events:
        out: Events = []
        for i in indices:
            sb, bb = self.settings.blinds(i)
            out.append(LevelChanged(level=i + 1, small_blind=sb, big_blind=bb, by_director=by_director))
        return out

    def _pause(self, now: float) -> Events:
        self.clock.pause(now)
        remaining = None if self.settings.by_hands else self.clock.remaining(now, self.settings.level_seconds)
        return [ClockPaused(at=now, level=self.level, remaining=remaining)]

    def _resume(self, now: float) -> Events:
        self.clock.resume(now)
        return [ClockResumed(at=now, level=self.level)]

    # -- internals: players and seats ------------------------------------------------

    def _entrant(self, player_id: str) -> _Entrant:
        try:
            return self._entrants[player_id]
        except KeyError:
            raise TournamentError(f"there is no player {player_id}") from None

    def _no_table(self, table_id: int) -> str:
        if table_id in self.broken_tables:
            return f"table {table_id} has broken"
        return f"there is no table {table_id} (tables: {', '.join(map(str, self.table_ids())) or 'none'})"

    def _stacks(self) -> dict[str, int]:
        stacks = {p.player_id: p.stack for t in self.tables.values() for p in t.seats.values()}
        for arrivals in self._incoming.values():
            for a in arrivals:
                stacks[a.player_id] = a.stack
        return stacks

    def _busy_player(self, player_id: str) -> bool:
        """Whether the player sits at a table in a hand (their chips are in play there)."""
        loc = self.location(player_id)
        return loc is not None and not loc.on_the_way and self.tables[loc.table_id].hand is not None

    def _free_seats(self, table_id: int) -> list[int]:
        empty = self.tables[table_id].empty_seats()
        arrivals = self._incoming.get(table_id)
        if not arrivals:
            return empty
        reserved = {a.seat for a in arrivals}
        return [s for s in empty if s not in reserved]

    def _take(self, player_id: str, at: Location | None = None) -> tuple[Location, int]:
        """Take a player (not in a hand) off their seat or off the way; their location and stack.
        ``at``: where they are, when the caller knows (saves looking at every table)."""
        loc = self.location(player_id) if at is None else at
        if loc is None:
            raise TournamentError(f"{self.who(player_id)} has no seat")
        if loc.on_the_way:
            arrivals = self._incoming[loc.table_id]
            arrival = next(a for a in arrivals if a.player_id == player_id)
            arrivals.remove(arrival)
            return loc, arrival.stack
        table = self.tables[loc.table_id]
        assert table.seats[loc.seat].player_id == player_id, (player_id, loc)
        return loc, table.unsit(loc.seat).stack

    def _put(self, player_id: str, stack: int, table_id: int, seat: int | None) -> tuple[int, bool]:
        """Seat a player at a table (now if it is between hands, else when its hand ends)."""
        table = self.tables[table_id]
        if seat is None:
            seat = arrival_seat(self._free_seats(table_id), table.would_wait, self.rng)
        if table.hand is None:
            table.sit(seat, player_id, stack, arriving=True)
            return seat, False
        self._incoming.setdefault(table_id, []).append(
            _Arrival(player_id=player_id, seat=seat, stack=stack)
        )
        return seat, True

    def _move(
        self, player_id: str, to_table: int, to_seat: int | None, reason: MoveReason,
        *, at: Location | None = None,
    ) -> PlayerMoved:
        loc, stack = self._take(player_id, at)
        seat, waiting = self._put(player_id, stack, to_table, to_seat)
        return PlayerMoved(
            player_id=player_id, from_table=loc.table_id, from_seat=loc.seat,
            to_table=to_table, to_seat=seat, stack=stack, reason=reason, on_the_way=waiting,
        )

    def _add_chips(self, player_id: str, delta: int) -> int:
        """Change a player's stack (not in a hand); the new stack."""
        loc = self.location(player_id)
        if loc is None:
            raise TournamentError(f"{self.who(player_id)} has no seat")
        if loc.on_the_way:
            arrival = next(a for a in self._incoming[loc.table_id] if a.player_id == player_id)
            arrival.stack += delta
            return arrival.stack
        seated = self.tables[loc.table_id].seats[loc.seat]
        seated.stack += delta
        return seated.stack

    def _deliver(self, table_id: int) -> Events:
        """Players who were on the way to this table take their seats."""
        events: Events = []
        table = self.tables.get(table_id)
        for a in self._incoming.pop(table_id, []):
            assert table is not None
            table.sit(a.seat, a.player_id, a.stack, arriving=True)
            events.append(PlayerSeated(player_id=a.player_id, table_id=table_id, seat=a.seat, stack=a.stack))
        return events

    # -- internals: eliminations and the end -----------------------------------------

    def _place_busts(self, table_id: int, hand_no: int, busts: Sequence[tuple[str, int]]) -> Events:
        remaining_after = self._left - len(busts)
        placed = place_busts(busts, remaining_after)
        counts: dict[int, int] = {}
        for _, place in placed:
            counts[place] = counts.get(place, 0) + 1
        starts = dict(busts)
        events: Events = []
        for pid, place in reversed(placed):  # the lowest place is announced first
            e = self._entrants[pid]
            e.out, e.place, e.hand_no = True, place, hand_no
            self._left -= 1
            events.append(
                PlayerEliminated(
                    player_id=pid, name=e.name, place=place, shared=counts[place] > 1,
                    table_id=table_id, hand_no=hand_no, starting_stack=starts[pid],
                    removed=False, players_left=remaining_after,
                )
            )
        return events

    def _remove(self, player_id: str) -> Events:
        """Disqualify a player between hands: chips to the adjustment account, placed as if
        eliminated now (interpretation 9)."""
        e = self._entrants[player_id]
        loc, stack = self._take(player_id)
        self.adjustment += stack
        place = self._left
        e.out, e.removed, e.place, e.hand_no = True, True, place, None
        self._left -= 1
        return [
            PlayerEliminated(
                player_id=player_id, name=e.name, place=place, shared=False,
                table_id=loc.table_id, hand_no=None, starting_stack=stack, removed=True,
                players_left=place - 1,
            )
        ]

    def _settle(self, now: float) -> Events:
        """After anything that may end the tournament or unbalance the tables."""
        events = self._finish_if_over(now)
        if self.phase is Phase.RUNNING and not self.deadline_passed:
            events += self._rebalance()
        return events

    def _finish_if_over(self, now: float) -> Events:
        if self.phase is not Phase.RUNNING:
            return []
        if self._left <= 1:
            ins = self.players_in()
            carry = 0
            if ins:
                carry = self.carried_chips()
                for t in self.tables.values():
                    t.carry = 0
                self._add_chips(ins[0], carry)  # carried chips go to the winner (section 6)
            return [self._finish(now, FinishReason.WINNER, carry_to_winner=carry)]
        if self.deadline_passed and all(t.hand is None for t in self.tables.values()):
            return [self._finish(now, FinishReason.DEADLINE, unclaimed=self.carried_chips())]
        return []

    def _finish(
        self, now: float, reason: FinishReason, *, carry_to_winner: int = 0, unclaimed: int = 0
    ) -> TournamentFinished:
        self.clock.pause(now)
        self.on_break = None
        standings = tuple(self.standings())
        self.phase = Phase.FINISHED
        winner, runner_up = podium(standings)
        self.result = TournamentFinished(
            at=now, reason=reason, winner=winner, runner_up=runner_up,
            standings=standings, hands=self.hands_dealt,
            carry_to_winner=carry_to_winner, unclaimed_carry=unclaimed,
        )
        return self.result

    # -- internals: balancing ----------------------------------------------------------

    def _counts(self) -> list[int]:
        """Each table's players, seated and on the way to it, in ``tables`` order: enough for
        ``unsettled``, which is asked after every hand (``_loads`` describes the tables more)."""
        incoming = self._incoming
        if not incoming:
            return [len(t.seats) for t in self.tables.values()]
        return [len(t.seats) + len(incoming.get(tid, ())) for tid, t in self.tables.items()]

    def _loads(self, exclude: int | None = None) -> list[TableLoad]:
        return [
            TableLoad(table_id=tid, players=players, idle=t.hand is None)
            for (tid, t), players in zip(self.tables.items(), self._counts(), strict=True)
            if tid != exclude
        ]

    def _rebalance(self) -> Events:
        events: Events = []
        seats = self.settings.seats_per_table
        while unsettled(self._counts(), seats) and (step := next_step(self._loads(), seats)) is not None:
            if isinstance(step, BreakTable):
                events += self._break(step.table_id)
            else:
                source = self.tables[step.from_table]
                seat = source.next_big_blind()
                at = Location(table_id=step.from_table, seat=seat, on_the_way=False)
                player = source.seats[seat].player_id
                events.append(self._move(player, step.to_table, None, MoveReason.BALANCE, at=at))
        return events + self._announce_final_table()  # (once, when one table is left)

    def _break(self, table_id: int) -> Events:
        """Spread a table's players over the others, each to the table with the fewest; the
        carry follows the first player moved (interpretation 5)."""
        table = self.tables[table_id]
        assert table.hand is None and not self._incoming.get(table_id)
        seats = self.settings.seats_per_table
        order = shuffle(sorted(table.seats), self.rng)
        players = [table.seats[s].player_id for s in order]
        moves: Events = []
        first: int | None = None
        # The other tables' loads, kept up to date here: a move adds one to its target only.
        loads = {load.table_id: load for load in self._loads(exclude=table_id)}
        for seat, pid in zip(order, players, strict=True):
            target = spread_target(list(loads.values()), seats)
            if target is None:  # cannot happen: a table breaks only when the players fit
                raise TournamentError(f"no seat for {self.who(pid)} when table {table_id} breaks")
            at = Location(table_id=table_id, seat=seat, on_the_way=False)
            moves.append(self._move(pid, target, None, MoveReason.BREAK, at=at))
            old = loads[target]
            loads[target] = TableLoad(table_id=target, players=old.players + 1, idle=old.idle)
            first = target if first is None else first
        carry, carry_to = table.carry, first
        if carry:
            if carry_to is None:  # nobody to follow: the lowest-numbered table's next hand
                carry_to = min(t for t in self.tables if t != table_id)
            self.tables[carry_to].carry += carry
            table.carry = 0
        del self.tables[table_id]
        self.broken_tables.append(table_id)
        broken = TableBroken(
            table_id=table_id, players=tuple(players), carry=carry,
            carry_to=carry_to if carry else None, tables_left=len(self.tables),
        )
        return [broken, *moves]

    def _announce_final_table(self) -> Events:
        if len(self.tables) != 1 or self._final_table_announced:
            return []
        self._final_table_announced = True
        (tid, table), = self.tables.items()
        players = tuple(p.player_id for _, p in sorted(table.seats.items()))
        players += tuple(a.player_id for a in self._incoming.get(tid, []))
        return [FinalTable(table_id=tid, players=players)]

    # -- internals: deferred director operations -------------------------------------

    def _defer(self, players: tuple[str, ...], apply: Callable[[], Events]) -> None:
        self._deferred.append(_Deferred(players=players, apply=apply))

    def _apply_deferred(self) -> Events:
        if not self._deferred:
            return []
        events: Events = []
        blocked: set[str] = set()
        keep: list[_Deferred] = []
        for op in self._deferred:
            if blocked.intersection(op.players) or any(self._busy_player(p) for p in op.players):
                blocked.update(op.players)
                keep.append(op)
            else:
                events += op.apply()
        self._deferred = keep
        return events

    def _pending_for(self, player_id: str) -> bool:
        return any(player_id in op.players for op in self._deferred)
