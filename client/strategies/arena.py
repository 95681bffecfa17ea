"""Strategies against each other at one in-process table, for measuring and for tests.

Hands are played by the real engine (``Table``/``Hand``); each strategy sees only
``view_for`` its seat and the events visible to it, and every action goes through
``Hand.act``, so a strategy that chooses an illegal action stops the match with
``IllegalDecision``.

Every hand starts with full stacks (a re-buy or top-up before each hand, as in a cash
game), so the measure is chips won per hand, reported as big blinds per 100 hands. With
``duplicate`` each deal (deck and button) is played once per seating, rotating the
entrants through the seats, so the luck of the cards mostly cancels out: the same cards go
to each strategy in turn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import attrs

from poker.actions import IllegalAction
from poker.cards import shuffled_deck
from poker.events import visible_to
from poker.hand import Hand
from poker.table import Table
from poker.views import view_for

from .base import Clock, Strategy, situation_from_view

__all__ = ["ArenaResult", "IllegalDecision", "play"]


class IllegalDecision(Exception):
    """A strategy chose an action the engine refused."""


@attrs.frozen(kw_only=True)
class ArenaResult:
    hands: int
    big_blind: int
    chips: Mapping[str, int]  # net chips won, by entrant label
    decisions: Mapping[str, int]
    slowest: Mapping[str, float]  # longest decision in seconds (0.0 without a clock)
    carry: int  # odd chips of a split still on the table when the match ended

    def bb_per_100(self, label: str) -> float:
        return self.chips[label] / self.big_blind * 100 / self.hands if self.hands else 0.0

    def summary(self) -> str:
        rows = [f"{self.hands} hands"]
        for label in sorted(self.chips, key=lambda k: -self.chips[k]):
            rows.append(
                f"  {label:<20} {self.bb_per_100(label):+9.1f} bb/100"
                f"  ({self.chips[label]:+d} chips, {self.decisions[label]} decisions)"
            )
        return "\n".join(rows)


def play(
    entrants: Sequence[tuple[str, Strategy]],
    *,
    deals: int,
    seed: int,
    small_blind: int = 1,
    big_blind: int = 2,
    stack_bb: int = 100,
    duplicate: bool = True,
    clock: Clock | None = None,
) -> ArenaResult:
    """Play ``deals`` deals (times the number of entrants with ``duplicate``) at one table.

    ``entrants`` are ``(label, strategy)``, one per seat, labels unique. The decks come
    from ``random.Random(seed)``; the strategies use their own RNGs. ``clock`` only
    measures how long decisions take.
    """
    labels = [label for label, _ in entrants]
    if not 2 <= len(entrants) <= 10:
        raise ValueError(f"a table seats 2 to 10 players, got {len(entrants)}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"entrant labels must be unique: {labels}")
    n = len(entrants)
    stack = stack_bb * big_blind
    rng = random.Random(seed)
    table = Table(table_id=1, seat_count=n)
    seats = list(range(1, n + 1))
    for seat in seats:
        table.sit(seat, f"seat-{seat}", stack)
    chips = dict.fromkeys(labels, 0)
    decisions = dict.fromkeys(labels, 0)
    slowest = dict.fromkeys(labels, 0.0)
    hand_no = 0
    for deal in range(deals):
        deck = shuffled_deck(rng)
        rotations = range(n) if duplicate else range(1)
        for shift in rotations:
            hand_no += 1
            # Seating ``shift`` puts entrant (i + shift) mod n in the i-th seat.
            by_seat = {seat: entrants[(i + shift) % n] for i, seat in enumerate(seats)}
            for seat in seats:
                if seat not in table.seats:
                    table.sit(seat, f"seat-{seat}", stack)
                table.seats[seat].stack = stack
            button = seats[deal % n] if duplicate else None
            hand = table.start_hand(
                hand_no=hand_no, deck=deck, small_blind=small_blind, big_blind=big_blind,
                button=button,
            )
            _play_hand(hand, by_seat, decisions, slowest, clock)
            assert hand.result is not None
            for seat, end in hand.result.stacks:
                chips[by_seat[seat][0]] += end - stack
            table.finish_hand()
    return ArenaResult(
        hands=hand_no, big_blind=big_blind, chips=chips, decisions=decisions,
        slowest=slowest, carry=table.carry,
    )


def _play_hand(
    hand: Hand,
    by_seat: Mapping[int, tuple[str, Strategy]],
    decisions: dict[str, int],
    slowest: dict[str, float],
    clock: Clock | None,
) -> None:
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None, "a hand in progress always has a player to act"
        label, strategy = by_seat[seat]
        situation = situation_from_view(
            view_for(hand, seat), [e for e in hand.events if visible_to(e, seat)]
        )
        started = clock() if clock is not None else 0.0
        action = strategy.decide(situation)
        if clock is not None:
            slowest[label] = max(slowest[label], clock() - started)
        decisions[label] += 1
        try:
            hand.act(seat, action)
        except IllegalAction as e:
            raise IllegalDecision(
                f"{label} ({strategy.name}) in seat {seat}, hand #{hand.hand_no}, "
                f"{situation.street}: chose {action} when the legal actions were "
                f"{situation.legal.describe()}: {e.message}"
            ) from e
