"""A table that plays hand after hand: seats, the moving button, blinds, busting.

Between hands the tournament may seat and unseat players (balancing); during a hand the
seating is frozen. The odd chips a split leaves behind (``carry``) stay with the table and
go into the next hand's main pot (interpretation 5).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from .actions import Ruleset
from .cards import Card
from .hand import Hand


@attrs.define(kw_only=True)
class SeatedPlayer:
    player_id: str
    stack: int


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
        self.seats: dict[int, SeatedPlayer] = {}
        self.hand: Hand | None = None

    # -- seating (between hands) ------------------------------------------------------

    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.is_over

    def _check_idle(self) -> None:
        if self.in_hand:
            raise TableError(f"table {self.table_id} is in a hand; seating changes wait for it to end")

    def empty_seats(self) -> list[int]:
        return [s for s in range(1, self.seat_count + 1) if s not in self.seats]

    def sit(self, seat: int, player_id: str, stack: int) -> None:
        self._check_idle()
        if not 1 <= seat <= self.seat_count:
            raise TableError(f"seat {seat} does not exist (seats 1 to {self.seat_count})")
        if seat in self.seats:
            raise TableError(f"seat {seat} at table {self.table_id} is taken")
        self.seats[seat] = SeatedPlayer(player_id=player_id, stack=stack)

    def unsit(self, seat: int) -> SeatedPlayer:
        self._check_idle()
        return self.seats.pop(seat)

    def seat_of(self, player_id: str) -> int | None:
        return next((s for s, p in self.seats.items() if p.player_id == player_id), None)

    @property
    def player_count(self) -> int:
        return len(self.seats)

    # -- positions ----------------------------------------------------------------------

    def _next_occupied(self, after: int) -> int:
        occupied = sorted(s for s, p in self.seats.items() if p.stack > 0)
        return next((s for s in occupied if s > after), occupied[0])

    def next_button(self) -> int:
        """The button of the next hand: the next player to the left of the last button."""
        if self.button is None:
            return min(s for s, p in self.seats.items() if p.stack > 0)
        return self._next_occupied(self.button)

    def next_big_blind(self) -> int:
        """The seat due to post the big blind in the next hand (balancing moves this player)."""
        button = self.next_button()
        if sum(1 for p in self.seats.values() if p.stack > 0) == 2:
            return self._next_occupied(button)
        return self._next_occupied(self._next_occupied(button))

    # -- hands ----------------------------------------------------------------------------

    def start_hand(
        self, *, hand_no: int, deck: Sequence[Card], small_blind: int, big_blind: int,
        button: int | None = None,
    ) -> Hand:
        """Deal the next hand. ``button`` overrides the moving button (first hand, restore)."""
        self._check_idle()
        players = [(s, p.stack) for s, p in self.seats.items() if p.stack > 0]
        if len(players) < 2:
            raise TableError(f"table {self.table_id} needs two players with chips to deal")
        self._button_before = self.button
        self.button = button if button is not None else self.next_button()
        self.hand = Hand(
            hand_no=hand_no, seats=players, button=self.button, small_blind=small_blind,
            big_blind=big_blind, deck=deck, carried_in=self.carry, ruleset=self.ruleset,
        )
        self.carry = 0
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
        return hand

    def finish_hand(self) -> list[tuple[int, SeatedPlayer, int]]:
        """Apply the finished hand's stacks; unseat and return the busted players.

        Returns ``(seat, player, stack at the start of the hand)`` for each bust, so the
        tournament can place several busts of one hand by their starting stacks.
        """
        hand = self.hand
        if hand is None or hand.result is None:
            raise TableError("no finished hand to apply")
        for seat, stack in hand.result.stacks:
            self.seats[seat].stack = stack
        self.carry += hand.result.carried_out
        starting = dict(hand.result.starting_stacks)
        busted = [(s, p, starting.get(s, 0)) for s, p in sorted(self.seats.items()) if p.stack == 0]
        for s, _, _ in busted:
            del self.seats[s]
        self.hand = None
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
