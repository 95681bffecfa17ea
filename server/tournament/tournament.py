"""The tournament as a sans-I/O state object: registration to the last chip.

Like the engine's ``Hand``: the ``Tournament`` holds state, queries say what may happen
(``can_deal``), operations verify, change the state and return frozen event records
(``events.py``). It reads no clock and draws no random number of its own: ``now`` (float
seconds, any monotonic base) comes with every call that may depend on time, and the RNG
(seating, moves and decks) is passed in at construction.

How the server drives it (one task per table, one coordinator; all calls synchronous, so
each is atomic):

- table task: ``while can_deal(t, now)``: ``hand, events = begin_hand(t, now)``, play it
  through the engine, then ``end_hand(t, now)``. Tables play concurrently: table 2 may deal while
  table 1 is mid-hand.
- coordinator: ``tick(now)`` about once a second (level changes, the deadline), and the
  director's operations through ``Director(tournament)`` (``director.py``).

Seats change only at tables between hands. ``end_hand`` is where a table becomes free, so
that is where busts are placed, players waiting for this table sit down, deferred director
operations apply, and balancing runs (``seating.py`` has the rule and how it waits for
tables in a hand). The tournament keeps its parts in their own homes and asks them: who
entered and the places in ``field.py``, who sits where in ``seating.py``, the level clock,
breaks and the deadline in ``clock.py``. The chip total is conserved at every moment: ``total_chips()`` counts
stacks, hands in progress, carried odd chips, players on their way between tables and the
director adjustment account, and always equals ``chips_issued``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from poker.cards import Card, RandomSource, shuffled_deck
from poker.hand import Hand
from poker.limits import MAX_CHIPS
from poker.table import Table

from . import clock
from .clock import LevelClock, LevelInfo, OnBreak
from .errors import TournamentError
from .events import (
    DirectorAction,
    FinishReason,
    FloorCalled,
    HandVoided,
    PlayerReentered,
    PlayerSeated,
    RuleChange,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
    player_registered,
    player_seated,
)
from .field import Entrant, Field
from .floor import Floor
from .phase import FINISHED, REGISTERING, RUNNING, Phase
from .seating import Location, Seating, initial_seating
from .settings import Settings, is_number
from .standings import Standing, podium

__all__ = ["LevelInfo", "Location", "OnBreak", "Phase", "Tournament"]

Events = list[TournamentEvent]


@attrs.define(kw_only=True)
class Deferred:
    """A director operation on players in a hand: it applies when none of them is."""

    players: tuple[str, ...]
    apply: Callable[[], Events]


class Tournament:
    def __init__(self, settings: Settings, rng: RandomSource) -> None:
        self.settings = settings
        self.phase = Phase.REGISTERING
        self.clock = LevelClock()
        # Who sits where, and the moves (``seating.py``); its tables and broken tables are
        # the tournament's, read often enough to be named here too.
        self.seating = Seating(rng, who=self.who)
        self.tables: dict[int, Table] = self.seating.tables
        self.broken_tables: list[int] = self.seating.broken
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
        self.field = Field()  # who entered, who is in, the places of those out
        self.deferred: list[Deferred] = []  # director operations waiting for a hand's end
        self._hands_at: dict[int, int] = {}
        self._hand_settings: dict[int, Settings] = {}
        self._hand_level: dict[int, int] = {}

    @property
    def rng(self) -> RandomSource:
        """Seats, moves and decks draw from it; the server sets the night's seat-draw
        stream once the seeds are in (``coordinator``, ``recovery``)."""
        return self.seating.rng

    @rng.setter
    def rng(self, rng: RandomSource) -> None:
        self.seating.rng = rng

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
        return self.phase is FINISHED

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

    def entrant(self, player_id: str) -> Entrant:
        return self.field.entrant(player_id)

    def name_of(self, player_id: str) -> str:
        return self.field.entrant(player_id).name

    def who(self, player_id: str) -> str:
        return self.field.who(player_id)

    @property
    def registered(self) -> list[str]:
        return list(self.field.entrants)

    def players_in(self) -> list[str]:
        return self.field.players_in()

    def table_ids(self) -> list[int]:
        return sorted(self.tables)

    def table(self, table_id: int) -> Table:
        if table_id not in self.tables:
            raise TournamentError(self.seating.no_table(table_id))
        return self.tables[table_id]

    def in_hand(self, table_id: int) -> bool:
        """Whether the table has a hand not yet ended with ``end_hand``."""
        return self.table(table_id).hand is not None

    def arrivals(self, table_id: int) -> list[tuple[str, int]]:
        """``(player_id, seat)`` of players on their way to this table (it is in a hand)."""
        return self.seating.arrivals(table_id)

    def location(self, player_id: str) -> Location | None:
        """Where a player sits (or will sit, when on the way); None once eliminated."""
        return self.seating.location(player_id)

    def stack_of(self, player_id: str) -> int:
        """Chips behind; for a player in a hand, the stack they started it with."""
        return self.seating.stacks().get(player_id, 0)

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
        return total + self.seating.chips_on_the_way()

    def carried_chips(self) -> int:
        return sum(t.carry for t in self.tables.values())

    def standings(self) -> list[Standing]:
        """Players still in by chips, then the eliminated, the last eliminated highest."""
        return self.field.standings(self.seating.stacks())

    def why_not_deal(self, table_id: int, now: float) -> str | None:
        """Why ``table_id`` may not deal a hand at ``now``, or None if it may."""
        phase = self.phase
        if phase is not RUNNING:
            return "the tournament has not started" if phase is REGISTERING else "the tournament is over"
        if clock.deadline_reached(self, now):
            return "the deadline has passed: no new hand starts"
        if self.on_break is not None:
            return (f"the tournament is on a break after level {self.on_break.after_level}: "
                    "no new hand starts until it ends")
        if (after := clock.break_due(self, now)) is not None:
            return f"level {after} is over and a break follows it: no new hand starts"
        if not self.clock.running:
            return "the tournament clock is paused: no new hand starts until it resumes"
        if table_id not in self.tables:
            return self.seating.no_table(table_id)
        table = self.tables[table_id]
        if table_id in self.held_tables and table.hand is None:
            return f"table {table_id} is paused by the director"
        if table.hand is not None:
            if table.hand.is_over:
                return f"hand #{table.hand.hand_no} at table {table_id} is over: end it first"
            return f"table {table_id} is in a hand (#{table.hand.hand_no})"
        for op in self.deferred:
            # An operation on players at two tables waits for both; this one holds its
            # deal so the other's hand end finds both free (else it could wait for ever).
            if any(table.seat_of(p) is not None for p in op.players):
                return f"table {table_id} waits for a director's operation on a player in a hand elsewhere"
        with_chips = 0  # (a loop that stops at two: asked before every deal)
        for p in table.seats.values():
            if p.stack > 0:
                with_chips += 1
                if with_chips == 2:
                    return None
        return f"table {table_id} has {with_chips} player(s): waiting for players to be moved in"

    def can_deal(self, table_id: int, now: float) -> bool:
        return self.why_not_deal(table_id, now) is None

    # -- registration and start ------------------------------------------------------

    def registration_open(self) -> bool:
        """Before the start, or during late registration (up to the level the director set)."""
        if self.phase is REGISTERING:
            return True
        return self.phase is RUNNING and self.late_until is not None and self.level <= self.late_until

    def register(self, player_id: str, name: str) -> Events:
        """A new entrant; after the start (late registration) they are seated at once with
        the starting stack, at the table with the fewest players."""
        if not self.registration_open():
            if self.phase is Phase.REGISTERING or self.late_until is None:
                raise TournamentError("registration is closed: the tournament has started")
            raise TournamentError(f"late registration closed at the end of level {self.late_until}")
        if not isinstance(player_id, str) or not player_id:
            raise TournamentError(f"a player needs an id (text), not {player_id!r}")
        if player_id in self.field.entrants:
            raise TournamentError(f"{self.who(player_id)} is already registered")
        if not isinstance(name, str):
            raise TournamentError(f"a player's name is text, not {name!r}")
        name = name.strip()
        if not name:
            raise TournamentError("a player needs a name")
        late = self.phase is RUNNING
        if late and not any(self.seating.free_seats(tid) for tid in self.tables):
            raise TournamentError("every seat is taken: a late entry waits for a free seat")
        if late and self.chips_issued + self.settings.starting_stack > MAX_CHIPS:
            raise TournamentError(
                f"another {self.settings.starting_stack} chips would put more than {MAX_CHIPS} chips in play"
            )
        self.field.add(player_id, name, late=late)  # a late entry joins above those out
        events: Events = [player_registered(player_id, name, len(self.field.entrants))]
        if late:
            events += self._seat_late(player_id)
        return events

    def why_no_reentry(self, player_id: str) -> str | None:
        """Why ``player_id`` may not enter again now, in words; None when they may
        (issue 27: during late registration, for a player who is out, up to the
        director's number of entries and level)."""
        e = self.field.entrants.get(player_id)
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
        if not any(self.seating.free_seats(tid) for tid in self.tables):
            return "every seat is taken: a re-entry waits for a free seat"
        if self.chips_issued + s.starting_stack > MAX_CHIPS:
            return f"another {s.starting_stack} chips would put more than {MAX_CHIPS} chips in play"
        return None

    def reenter(self, player_id: str) -> Events:
        """A player who is out enters again for the starting stack, seated as a late entry.
        Their earlier entry keeps its place, one lower for each entry that joins after it
        (``Field.reenter``)."""
        reason = self.why_no_reentry(player_id)
        if reason is not None:
            raise TournamentError(reason)
        e = self.field.reenter(player_id)
        events: Events = [PlayerReentered(player_id=player_id, name=e.name, entry=e.entries,
                                          stack=self.settings.starting_stack)]
        return events + self._seat_late(player_id)

    def entries_made(self) -> int:
        return self.field.entries_made()

    def entries_of(self, player_id: str) -> int:
        return self.entrant(player_id).entries

    def _seat_late(self, player_id: str) -> Events:
        stack = self.settings.starting_stack
        self.chips_issued += stack
        table_id = self.seating.late_table()
        seat, waiting = self.seating.put(player_id, stack, table_id, None)
        if waiting:  # the table is in a hand: they sit down when it ends (``Seating.deliver``)
            return []
        return [PlayerSeated(player_id=player_id, table_id=table_id, seat=seat, stack=stack)]

    def start(self, now: float) -> Events:
        """Seat everyone at random over as many tables as needed and start the level clock."""
        if self.phase is not Phase.REGISTERING:
            raise TournamentError("the tournament has already started")
        if not is_number(now):
            raise TournamentError(f"the start time is a number of seconds, not {now!r}")
        if len(self.field.entrants) < 2:
            raise TournamentError(
                f"a tournament needs at least 2 players; {len(self.field.entrants)} registered"
            )
        s = self.settings
        if len(self.field.entrants) * s.starting_stack > MAX_CHIPS:
            raise TournamentError(
                f"{len(self.field.entrants)} players with {s.starting_stack} chips each would put "
                f"{len(self.field.entrants) * s.starting_stack} chips in play, above the limit of {MAX_CHIPS}: "
                "lower the starting stack"
            )
        seating = initial_seating(list(self.field.entrants), s.seats_per_table, self.rng)
        self.phase = Phase.RUNNING
        self.chips_issued = len(self.field.entrants) * s.starting_stack
        self.clock.start(now)
        sb, bb = self.blinds
        events: Events = [
            TournamentStarted(
                at=now, players=len(self.field.entrants), tables=len(seating),
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
                events.append(player_seated(pid, tid, seat, s.starting_stack))
        events += self.seating.announce_final_table()
        return events

    # -- hands -----------------------------------------------------------------------

    def begin_hand(
        self, table_id: int, now: float, *, deck: Sequence[Card] | None = None
    ) -> tuple[Hand, Events]:
        """Deal the table's next hand at the current level, with a deck from the RNG (or
        ``deck``, when the server replays a stored hand); the hand, and the events of the
        clock moving on to ``now`` first (a level that ran out applies to this hand).

        Raises TournamentError with the reason when the table may not deal
        (``why_not_deal``), and then changes nothing: that check already counts a break or
        the deadline the clock would reach by ``now`` (``clock.break_due``).
        """
        reason = self.why_not_deal(table_id, now)
        if reason is not None:
            raise TournamentError(reason)
        events = clock.advance(self, now)
        table = self.tables[table_id]
        settings, index = self.settings, self.clock.index
        sb, bb = settings.blinds(index)
        table.ruleset = settings.ruleset
        cards = list(deck) if deck is not None else shuffled_deck(self.rng)
        self.hands_dealt += 1
        hand = table.start_hand(hand_no=self.hands_dealt, deck=cards, small_blind=sb, big_blind=bb,
                                ante=settings.ante(index))
        self._hands_at[table_id] = self._hands_at.get(table_id, 0) + 1
        self._hand_settings[table_id] = settings
        self._hand_level[table_id] = index + 1
        return hand, events

    def end_hand(self, table_id: int, now: float) -> Events:
        """Apply the table's finished hand: stacks, busts and their places, players arriving
        at this table, deferred director operations, then balancing and the end check."""
        table = self.table(table_id)
        hand = table.hand
        if hand is None:
            raise TournamentError(f"table {table_id} has no hand to end")
        if not hand.is_over:
            raise TournamentError(f"hand #{hand.hand_no} at table {table_id} is still being played")
        events = clock.advance(self, now)
        busts = table.finish_hand()
        if busts:
            events += self.field.place_busts(table_id, hand.hand_no, [(p.player_id, start) for _, p, start in busts])
        events += clock.count_hand(self, now)
        events += self.seating.deliver(table_id)
        events += self._apply_deferred()
        events += self.settle(now)
        return events

    def void_hand(self, table_id: int, now: float) -> Events:
        """Call off the table's hand in progress; then as at any hand's end, players on the
        way sit down and operations waiting for this hand apply."""
        table = self.table(table_id)
        if table.hand is None or table.hand.is_over:
            raise TournamentError(f"table {table_id} has no hand in progress to void")
        hand = table.void_hand()
        events: Events = [HandVoided(at=now, table_id=table_id, hand_no=hand.hand_no)]
        events += self.seating.deliver(table_id)
        events += self._apply_deferred()
        events += self.settle(now)
        return events

    def tick(self, now: float) -> Events:
        """Let time pass: the end of a break, level changes by the clock, and the deadline."""
        return clock.tick(self, now)

    def call_floor(self, now: float, player_id: str, message: str) -> Events:
        """A player calls the director ("floor!"): the call waits in ``floor.open``."""
        self.entrant(player_id)
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

    # -- players ---------------------------------------------------------------------

    def in_a_hand(self, player_id: str) -> bool:
        """Whether the player sits at a table in a hand (their chips are in play there)."""
        return self.seating.in_a_hand(player_id)

    # -- internals: eliminations and the end -----------------------------------------

    def remove(self, player_id: str) -> Events:
        """Disqualify a player between hands: chips to the adjustment account, placed as if
        eliminated now (interpretation 9)."""
        loc, stack = self.seating.take(player_id)
        self.adjustment += stack
        return [self.field.remove(player_id, loc.table_id, stack)]

    def settle(self, now: float) -> Events:
        """After anything that may end the tournament or unbalance the tables."""
        events = self.finish_if_over(now)
        if self.phase is RUNNING and not self.deadline_passed:
            events += self.seating.rebalance(self.settings.seats_per_table)
        return events

    def finish_if_over(self, now: float) -> Events:
        if self.phase is not RUNNING:
            return []
        if self.field.left <= 1:
            ins = self.players_in()
            carry = 0
            if ins:
                carry = self.carried_chips()
                for t in self.tables.values():
                    t.carry = 0
                self.seating.add_chips(ins[0], carry)  # carried chips go to the winner (section 6)
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

    # -- deferred director operations --------------------------------------------------

    def defer(self, players: tuple[str, ...], apply: Callable[[], Events]) -> None:
        """Apply ``apply`` when none of ``players`` is in a hand (``Director``)."""
        self.deferred.append(Deferred(players=players, apply=apply))

    def _apply_deferred(self) -> Events:
        if not self.deferred:
            return []
        events: Events = []
        blocked: set[str] = set()
        keep: list[Deferred] = []
        for op in self.deferred:
            if blocked.intersection(op.players) or any(self.in_a_hand(p) for p in op.players):
                blocked.update(op.players)
                keep.append(op)
            else:
                events += op.apply()
        self.deferred[:] = keep
        return events

    def pending_for(self, player_id: str) -> bool:
        """Whether a director operation on the player waits for a hand's end."""
        return any(player_id in op.players for op in self.deferred)
