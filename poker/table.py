"""A table that plays hand after hand: seats, the moving button, blinds, busting.

Between hands the tournament may seat and unseat players (balancing); during a hand the
seating is frozen. The odd chips a split leaves behind (``carry``) stay with the table and
go into the next hand's main pot (interpretation 5).

Who is dealt in, and where the button goes (interpretation 2 and 7, TDA where the rulebook
is silent; ``deal_plan``):
- The button moves to the next player to the left of the last button who is dealt in.
- Going heads-up, nobody posts the big blind twice in a row: if the player who posted the
  last big blind is one of the two, they take the button (which posts the small blind
  heads-up). Three players, the button busts: without this the last big blind would post
  it again.
- A player who arrives at a table that has dealt (moved to balance, from a broken table,
  by the director, or a late entrant) is dealt in anywhere but on the button or in the
  small blind of their first hand there (TDA: never between the small blind and the
  button, so nobody skips the big blind): there they wait, seated, until the button has
  passed them. Unless fewer than two players would be dealt in without them.
- Heads-up the button does not move round the table (it alternates between the two), so it
  would never pass an arrival: with two players playing, the button is put on the one of
  them that makes the arrival the big blind of the next hand, and the arrival is dealt in
  at once. Every arrival is thus dealt in within (players at the table + 1) hands.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

import attrs

from .actions import Ruleset
from .cards import Card
from .hand import Hand


@attrs.define(kw_only=True)
class SeatedPlayer:
    player_id: str
    stack: int
    awaiting_blind: bool = False  # arrived, not dealt in until they would not skip the big blind


class TableError(Exception):
    """Seating a table in a way it cannot be: a taken seat, or a change mid-hand."""


class Table:
    def __init__(
        self,
        *,
        table_id: int,
        seat_count: int = 9,
        ruleset: Ruleset = Ruleset.HICKORY,
        carry: int = 0,
        button: int | None = None,
    ) -> None:
        if not 2 <= seat_count <= 10:
            raise TableError("seats per table must be 2 to 10")
        self.table_id = table_id
        self.seat_count = seat_count
        self.ruleset = ruleset
        self.carry = carry
        self.button = button  # the button of the last hand dealt (None before the first)
        self._button_before = button  # where it was before the hand in progress (a void puts it back)
        self.last_big_blind: str | None = None  # who posted the big blind of the last hand
        self._last_big_blind_before: str | None = None  # and before the hand in progress (a void)
        self.seats: dict[int, SeatedPlayer] = {}
        self.hand: Hand | None = None
        self.last_hand_no: int | None = None  # the last hand finished here (a void does not count)

    # -- seating (between hands) ------------------------------------------------------

    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.is_over

    def _check_idle(self) -> None:
        if self.in_hand:
            raise TableError(f"table {self.table_id} is in a hand; seating changes wait for it to end")

    def empty_seats(self) -> list[int]:
        return [s for s in range(1, self.seat_count + 1) if s not in self.seats]

    def sit(self, seat: int, player_id: str, stack: int, *, arriving: bool = False) -> None:
        """Seat a player. ``arriving``: moved here from elsewhere after the table has dealt,
        so they are dealt in only where they do not skip the big blind (module docstring)."""
        self._check_idle()
        if not 1 <= seat <= self.seat_count:
            raise TableError(f"seat {seat} does not exist (seats 1 to {self.seat_count})")
        if seat in self.seats:
            raise TableError(f"seat {seat} at table {self.table_id} is taken")
        self.seats[seat] = SeatedPlayer(player_id=player_id, stack=stack,
                                        awaiting_blind=arriving and self.button is not None)

    def unsit(self, seat: int) -> SeatedPlayer:
        self._check_idle()
        return self.seats.pop(seat)

    def seat_of(self, player_id: str) -> int | None:
        return next((s for s, p in self.seats.items() if p.player_id == player_id), None)

    @property
    def player_count(self) -> int:
        return len(self.seats)

    # -- positions ----------------------------------------------------------------------

    def _positions(self, dealt: Sequence[int]) -> tuple[int, int, int]:
        """(button, small blind, big blind) of a hand dealt to ``dealt`` (sorted seats)."""
        if self.button is None:
            button = dealt[0]
        else:
            i = bisect_right(dealt, self.button)  # the first dealt seat after the last button
            button = dealt[i] if i < len(dealt) else dealt[0]
            if len(dealt) == 2 and self.last_big_blind is not None:
                last = self.seat_of(self.last_big_blind)
                if last is not None and last in dealt:  # going (or staying) heads-up: no big blind twice in a row
                    button = last
        return _around(dealt, button)

    def deal_plan(self, extra: int | None = None) -> tuple[list[int], int, int, int]:
        """Who the next hand is dealt to, and its button, small and big blind seats (the
        rules are in the module docstring). ``extra``: an empty seat to imagine an arriving
        player in. Needs two players with chips."""
        seated, arriving = self._with_chips()
        return self._plan(seated, arriving, extra)

    def _with_chips(self) -> tuple[list[int], list[int]]:
        """The seats with chips: those dealt in as usual, and the arrivals awaiting the big
        blind. Plain loops: the tournament asks before every deal, and balancing for every
        empty seat a moved player might take (``dealt_at_once`` splits the seats once)."""
        seated: list[int] = []
        arriving: list[int] = []
        for s, p in self.seats.items():
            if p.stack > 0:
                (arriving if p.awaiting_blind else seated).append(s)
        return seated, arriving

    def _plan(self, seated: list[int], arriving: list[int], extra: int | None) -> tuple[list[int], int, int, int]:
        """``deal_plan`` from the seats with chips (left unchanged, so one split serves
        every imagined ``extra``)."""
        if extra is not None and extra not in seated and extra not in arriving:
            arriving = [*arriving, extra]
        if len(seated) + len(arriving) < 2:
            raise TableError(f"table {self.table_id} needs two players with chips to deal")
        if not arriving:
            dealt = sorted(seated)
            return dealt, *self._positions(dealt)
        dealt = sorted([*seated, *arriving])
        if len(seated) < 2:
            return dealt, *self._positions(dealt)
        while True:  # arrivals who would skip the big blind wait; fewer arrivals, other positions
            button, small, big = self._positions(dealt)
            skipping = [s for s in (button, small) if s in arriving]
            if not skipping:
                return dealt, button, small, big
            if len(seated) == 2:  # heads-up: put the button where the arrivals skip nothing
                for b in seated:
                    button, small, big = _around(dealt, b)
                    if button not in arriving and small not in arriving:
                        return dealt, button, small, big
            dealt.remove(skipping[0])

    def would_wait(self, seat: int) -> bool:
        """Whether a player arriving in the empty ``seat`` now would have to wait for the
        button (balancing prefers the seats where they are dealt in at once)."""
        if self.button is None or not any(p.stack > 0 for p in self.seats.values()):
            return False
        return seat not in self.deal_plan(extra=seat)[0]

    def dealt_at_once(self, free: Sequence[int]) -> list[int]:
        """The seats of ``free`` (empty ones) where an arriving player is dealt in at once,
        as ``would_wait`` says of each: every one before the first hand, or with nobody
        else holding chips."""
        last = self.button
        if last is None:
            return list(free)
        seated, arriving = self._with_chips()
        if not seated and not arriving:
            return list(free)
        if len(seated) >= 3:
            # Three or more dealt in as usual: the plan takes arrivals off the button and
            # the small blind until both are on seated players, never the seated ones, and
            # never shrinks to heads-up. So the button and the small blind are those of the
            # seated alone, and an arrival (this one or one already waiting) waits exactly
            # in the seats after the last button and before that small blind.
            small = self._positions(sorted(seated))[1]
            if last < small:
                return [s for s in free if not last < s < small]
            return [s for s in free if small <= s <= last]
        return [s for s in free if s in self._plan(seated, arriving, s)[0]]

    def next_button(self) -> int:
        """The button of the next hand."""
        return self.deal_plan()[1]

    def next_big_blind(self) -> int:
        """The seat due to post the big blind in the next hand (balancing moves this player)."""
        return self.deal_plan()[3]

    # -- hands ----------------------------------------------------------------------------

    def start_hand(
        self, *, hand_no: int, deck: Sequence[Card], small_blind: int, big_blind: int,
        button: int | None = None, ante: int = 0,
    ) -> Hand:
        """Deal the next hand. ``button`` overrides the moving button (first hand, restore);
        ``ante`` is the level's big-blind ante (0: none)."""
        self._check_idle()
        if button is None:
            dealt, button, _, _ = self.deal_plan()
        else:
            dealt = sorted(s for s, p in self.seats.items() if p.stack > 0)
            if len(dealt) < 2:
                raise TableError(f"table {self.table_id} needs two players with chips to deal")
        players: list[tuple[int, int]] = []
        for s in dealt:
            p = self.seats[s]
            p.awaiting_blind = False
            players.append((s, p.stack))
        self._button_before, self._last_big_blind_before = self.button, self.last_big_blind
        self.button = button
        self.hand = Hand(
            hand_no=hand_no, seats=players, button=self.button, small_blind=small_blind,
            big_blind=big_blind, deck=deck, carried_in=self.carry, ruleset=self.ruleset,
            ante=ante,
        )
        self.carry = 0
        self.last_big_blind = self.seats[self.hand.big_blind_seat].player_id
        return self.hand

    def void_hand(self) -> Hand:
        """Call off the hand in progress (the director's ruling): every bet goes back (the
        stacks here are still those from before it), the carried chips wait for the next
        hand, and the button stays where it was, as after a misdeal."""
        hand = self.hand
        if hand is None or hand.is_over:
            raise TableError(f"table {self.table_id} has no hand in progress to void")
        self.hand = None
        self.carry = hand.carried_in
        self.button = self._button_before
        self.last_big_blind = self._last_big_blind_before
        return hand

    def finish_hand(self) -> list[tuple[int, SeatedPlayer, int]]:
        """Apply the finished hand's stacks; unseat and return the busted players.

        Returns ``(seat, player, stack at the start of the hand)`` for each bust, so the
        tournament can place several busts of one hand by their starting stacks.
        """
        hand = self.hand
        if hand is None or hand.result is None:
            raise TableError("no finished hand to apply")
        result, seats = hand.result, self.seats
        for seat, stack in result.stacks:
            seats[seat].stack = stack
        self.carry += result.carried_out
        busted: list[tuple[int, SeatedPlayer, int]] = []
        out = [s for s, p in seats.items() if p.stack == 0]
        if out:
            starting = dict(result.starting_stacks)
            busted = [(s, seats.pop(s), starting.get(s, 0)) for s in sorted(out)]
        self.hand = None
        self.last_hand_no = hand.hand_no
        return busted

    def total_chips(self) -> int:
        """Chips on this table: stacks, the hand in progress, and the carry."""
        if self.hand is not None and not self.hand.is_over:
            outside = sum(p.stack for s, p in self.seats.items() if s not in self.hand.seats)
            return self.hand.total_chips() + outside + self.carry
        if self.hand is not None and self.hand.result is not None:
            in_hand = dict(self.hand.result.stacks)
            return (
                sum(in_hand.get(s, p.stack) for s, p in self.seats.items())
                + self.hand.result.carried_out + self.carry
            )
        return sum(p.stack for p in self.seats.values()) + self.carry


def _around(dealt: Sequence[int], button: int) -> tuple[int, int, int]:
    """(button, small blind, big blind) with the button on ``button`` (heads-up the button
    posts the small blind)."""
    i = dealt.index(button)
    if len(dealt) == 2:
        return button, button, dealt[1 - i]
    return button, dealt[(i + 1) % len(dealt)], dealt[(i + 2) % len(dealt)]
