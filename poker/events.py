"""Frozen records of everything that happens in a hand.

Applying an action returns these; they are what the server persists and turns into
protocol messages, and what hand histories are written from. ``HoleCardsDealt`` is the
only event with hidden information: ``visible_to`` says who may see an event.
"""

from __future__ import annotations

import enum

import attrs

from .actions import ActionKind
from .cards import Card


class Street(enum.StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"  # betting is over; the hand is being (or has been) settled


@attrs.frozen(kw_only=True, weakref_slot=False)
class HandStarted:
    hand_no: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    small_blind: int
    big_blind: int
    stacks: tuple[tuple[int, int], ...]  # (seat, stack) before the ante and blinds, in seat order
    carried_in: int
    ante: int = 0  # the big-blind ante of this hand's level (0: none); AntePosted says what was paid


@attrs.frozen(kw_only=True, weakref_slot=False)
class AntePosted:
    """The big blind's ante for the table (TDA RP-11): posted before the blind, dead money
    in the main pot, never part of the big blind's bet. A short big blind pays the ante
    first (``amount`` may be less than the hand's ``ante``)."""

    seat: int
    amount: int
    all_in: bool


@attrs.frozen(kw_only=True, weakref_slot=False)
class BlindPosted:
    seat: int
    blind: str  # "small" or "big"
    amount: int
    all_in: bool


@attrs.frozen(kw_only=True, weakref_slot=False)
class HoleCardsDealt:
    seat: int
    cards: tuple[Card, ...]


@attrs.frozen(kw_only=True, weakref_slot=False)
class ActionTaken:
    """``amount`` is the chips this action put in; ``to`` the player's bet this round after it."""

    seat: int
    street: Street
    action: ActionKind
    amount: int
    to: int
    all_in: bool
    automatic: bool = False


@attrs.frozen(kw_only=True, weakref_slot=False)
class BoardDealt:
    street: Street
    cards: tuple[Card, ...]
    board: tuple[Card, ...]


@attrs.frozen(kw_only=True, weakref_slot=False)
class UncalledBetReturned:
    seat: int
    amount: int


@attrs.frozen(kw_only=True, weakref_slot=False)
class BetsGathered:
    """A betting round closed: the bets went into the pots, as they now stand.

    ``pots`` are ``(amount, eligible seats)``, main pot first, carried chips included.
    Sent before the next street is dealt, so a table shows the right pots even when an
    all-in runs the board out within one action.
    """

    pots: tuple[tuple[int, tuple[int, ...]], ...]
    carried_in: int  # of which: odd chips carried in from the previous hand


@attrs.frozen(kw_only=True, weakref_slot=False)
class HandShown:
    seat: int
    cards: tuple[Card, ...]
    hand_name: str | None  # None when shown before the board is complete (all-in)


@attrs.frozen(kw_only=True, weakref_slot=False)
class PotAwarded:
    """One pot settled. ``remainder`` chips could not be split and stay for the next hand."""

    index: int  # 0 is the main pot
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[tuple[int, int], ...]  # (seat, chips won)
    hand_name: str | None  # None when won without a showdown
    remainder: int


@attrs.frozen(kw_only=True, weakref_slot=False)
class HandEnded:
    stacks: tuple[tuple[int, int], ...]  # (seat, stack) after the hand
    carried_out: int
    showdown: bool


Event = (
    HandStarted
    | AntePosted
    | BlindPosted
    | HoleCardsDealt
    | ActionTaken
    | BoardDealt
    | UncalledBetReturned
    | BetsGathered
    | HandShown
    | PotAwarded
    | HandEnded
)


def visible_to(event: Event, seat: int | None) -> bool:
    """Whether the player in ``seat`` (None: a spectator) may see ``event`` now."""
    if isinstance(event, HoleCardsDealt):
        return seat is not None and event.seat == seat
    return True
