"""Hand evaluation: which 5 of 5-7 cards play, and how they rank against any other hand.

Showdowns and Monte Carlo bots evaluate millions of 7-card hands, and pure Python cannot get
near a compiled evaluator, so the comparable number comes from ``phevaluator`` (a
maintained C evaluator, a perfect hash over the cards): its card ids are ours (rank * 4 +
suit, suits c d h s), so our ints go straight in, and its rank (1 = royal flush ... 7462)
indexes a generated table (``poker/strengths.py``, ``tools/strengths.py``) that gives our
strength. The strength is eval7's value, unchanged from before: the category in bits 24 and
up, then the deciding ranks a nibble each from the top (e.g. pair rank, then three
kickers); equal numbers are exact ties, suits never count, the wheel is a five-high
straight. Measured in our use (``bench/evaluator.py``) about twice eval7's rate.

Which five cards play and the name a player reads are only needed once per showdown, so
they are worked out here in plain Python from the cards and the category. The tests check
that the chosen five re-evaluate to the same strength as the whole hand, and that every
strength equals eval7's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum

import attrs

from .cards import RANK_NAMES, RANK_PLURALS, RANKS, Card, card_str
from .strengths import STRENGTH

try:
    from phevaluator._pheval import evaluate_5cards, evaluate_6cards, evaluate_7cards

    COMPILED = True
except ImportError:
    # The client a server hands out runs on a bare Python (server/share.py): the same
    # numbers in plain Python (poker/pure_strength.py), as phevaluator's ranks so that
    # everything below stays one path.
    from .pure_strength import pure_strength

    COMPILED = False
    _RANK_OF = {value: rank for rank, value in enumerate(STRENGTH) if rank}

    def evaluate_5cards(*cards: int) -> int:
        return _RANK_OF[pure_strength(cards)]

    evaluate_6cards = evaluate_7cards = evaluate_5cards

__all__ = [
    "COMPILED",
    "Category",
    "HandValue",
    "category_of",
    "evaluate",
    "strength",
    "strength7",
]


class Category(IntEnum):
    """Hand categories, weakest first; the numbers are a strength's top bits (value >> 24),
    eval7's hand types."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


_CATEGORY_SHIFT = 24
_ACE = 12
_FIVE = 3

# The members as module names, and tables by category: on CPython 3.11 ``Category.FLUSH``
# and ``Category(n)`` go through ``EnumType.__getattr__`` and ``__call__`` (about 50 ns and
# 1 us), and a showdown names every shown hand (``server/outbound.made_hand``).
_CATEGORIES: tuple[Category, ...] = tuple(Category)
(_HIGH_CARD, _PAIR, _TWO_PAIR, _THREE_OF_A_KIND, _STRAIGHT, _FLUSH, _FULL_HOUSE, _FOUR_OF_A_KIND,
 _STRAIGHT_FLUSH) = _CATEGORIES
_MADE_SIZES: dict[Category, tuple[int, ...]] = {  # the groups that make the hand, largest first
    _FOUR_OF_A_KIND: (4,), _FULL_HOUSE: (3, 2), _THREE_OF_A_KIND: (3,), _TWO_PAIR: (2, 2),
    _PAIR: (2,), _HIGH_CARD: (),
}
_MADE_CARDS: dict[Category, int] = {  # the cards of the made part, before the kickers
    _FOUR_OF_A_KIND: 4, _THREE_OF_A_KIND: 3, _TWO_PAIR: 4, _PAIR: 2, _HIGH_CARD: 1,
}

_BY_COUNT: dict[int, Callable[..., int]] = {5: evaluate_5cards, 6: evaluate_6cards, 7: evaluate_7cards}


def strength7(cards: Sequence[Card], _ph: Callable[..., int] = evaluate_7cards,
              _s: tuple[int, ...] = STRENGTH) -> int:
    """Strength of exactly 7 distinct cards, bigger is better; for hot loops.

    No checks: the caller guarantees seven distinct cards 0..51 (a duplicate silently gives
    a wrong number, a wrong count raises ValueError from the unpacking). Unpacking into
    locals is measurably faster than a comprehension at this call rate.
    """
    a, b, c, d, e, f, g = cards
    return _s[_ph(a, b, c, d, e, f, g)]


def strength(cards: Sequence[Card], _s: tuple[int, ...] = STRENGTH) -> int:
    """Strength of 5, 6 or 7 distinct cards without the checks or the display work.

    Same numbers as ``strength7`` and ``evaluate(...).strength``.
    """
    return _s[_BY_COUNT[len(cards)](*cards)]


def category_of(hand_strength: int) -> Category:
    """The category encoded in a strength, so hot loops can keep only the int."""
    return _CATEGORIES[hand_strength >> _CATEGORY_SHIFT]


@attrs.frozen(slots=True, kw_only=True)
class HandValue:
    """A hand's rank among all hands, with the five cards that play, for showdowns and views.

    Compare hands by ``strength``: two values with equal strength tie exactly even when the
    cards (so ``best_five``) differ, which is why there is no ordering on the class itself.
    """

    category: Category
    strength: int
    best_five: tuple[Card, ...]
    """The five cards that play, in reading order: the made part first (quads, trips, pairs,
    highest first), then kickers high to low; straights from the top card down, so the wheel
    reads 5-4-3-2-A."""

    @property
    def name(self) -> str:
        """What a player reads: "Full house, kings full of sevens", "Straight, five high"."""
        r = [c >> 2 for c in self.best_five]
        cat = self.category
        if cat is _STRAIGHT_FLUSH:
            if r[0] == _ACE:
                return "Royal flush"
            return f"Straight flush, {RANK_NAMES[r[0]]} high"
        if cat is _FOUR_OF_A_KIND:
            return f"Four of a kind, {RANK_PLURALS[r[0]]}"
        if cat is _FULL_HOUSE:
            return f"Full house, {RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[3]]}"
        if cat is _FLUSH:
            return f"Flush, {RANK_NAMES[r[0]]} high"
        if cat is _STRAIGHT:
            return f"Straight, {RANK_NAMES[r[0]]} high"
        if cat is _THREE_OF_A_KIND:
            return f"Three of a kind, {RANK_PLURALS[r[0]]}"
        if cat is _TWO_PAIR:
            return f"Two pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[2]]}"
        if cat is _PAIR:
            return f"Pair of {RANK_PLURALS[r[0]]}"
        return f"High card, {RANK_NAMES[r[0]]}"

    @property
    def detail(self) -> str:
        """The name with the kickers that play, which decide between equal made hands:
        "Three of a kind, queens, kickers king and seven", "Pair of aces, kickers king,
        nine and four", "Flush, ace high (A-J-9-6-3)". A straight or a full house has no
        kickers and reads as its name."""
        r = [c >> 2 for c in self.best_five]
        made = _MADE_CARDS.get(self.category)
        if self.category is _FLUSH:
            return f"{self.name} ({'-'.join(RANKS[x] for x in r)})"
        if made is None:
            return self.name
        kickers = [RANK_NAMES[x] for x in r[made:]]
        word = "kicker" if len(kickers) == 1 else "kickers"
        listed = kickers[0] if len(kickers) == 1 else ", ".join(kickers[:-1]) + " and " + kickers[-1]
        return f"{self.name}, {word} {listed}"


def evaluate(cards: Sequence[Card]) -> HandValue:
    """Rank 5, 6 or 7 distinct cards and pick the five that play.

    Raises ValueError naming the problem: wrong count, a card out of range, a duplicate.
    """
    _check(cards)
    value = strength(cards)
    category = category_of(value)
    return HandValue(category=category, strength=value, best_five=_best_five(cards, category))


def _check(cards: Sequence[Card]) -> None:
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand is 5 to 7 cards, got {len(cards)}")
    seen: set[int] = set()
    for c in cards:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
            raise ValueError(f"not a card: {c!r} (cards are ints 0..51)")
        if c in seen:
            raise ValueError(f"duplicate card {card_str(c)} in hand")
        seen.add(c)


def _straight_top(ranks: set[int]) -> int | None:
    """Top rank of the highest straight in ``ranks``; the ace also plays low (wheel, top five)."""
    for top in range(_ACE, _FIVE - 1, -1):
        if all((top - i) in ranks or (top - i == -1 and _ACE in ranks) for i in range(5)):
            return top
    return None


def _straight_cards(by_rank: dict[int, list[Card]], top: int) -> tuple[Card, ...]:
    return tuple(by_rank[(top - i) % 13][0] for i in range(5))


def _best_five(cards: Sequence[Card], category: Category) -> tuple[Card, ...]:
    """The five cards that make ``category`` at its best, in reading order.

    The category comes from the strength, so this only has to find the best hand of that kind;
    among equal-rank cards of different suits the higher card int is taken, just so the
    choice is stable (suits never change the strength).
    """
    ordered = sorted(cards, reverse=True)  # high first: by rank, then by the card int
    if category is _STRAIGHT_FLUSH or category is _FLUSH:
        by_suit: dict[int, list[Card]] = {}
        for c in ordered:
            by_suit.setdefault(c & 3, []).append(c)
        suited = next(group for group in by_suit.values() if len(group) >= 5)
        if category is _FLUSH:
            return tuple(suited[:5])
        suited_by_rank = {c >> 2: [c] for c in suited}
        top = _straight_top(set(suited_by_rank))
        assert top is not None, "the strength said straight flush"
        return _straight_cards(suited_by_rank, top)
    by_rank: dict[int, list[Card]] = {}
    for c in ordered:
        by_rank.setdefault(c >> 2, []).append(c)
    if category is _STRAIGHT:
        top = _straight_top(set(by_rank))
        assert top is not None, "the strength said straight"
        return _straight_cards(by_rank, top)

    # Made part first: groups by size, larger first; the sort is stable, so groups of one
    # size stay highest rank first, as ``ordered`` put them. Then the kickers, in order.
    groups = sorted(by_rank.values(), key=len, reverse=True)
    made: list[Card] = []
    for size, group in zip(_MADE_SIZES[category], groups, strict=False):
        # A full house from two sets of trips takes the lower set as the pair.
        made.extend(group[:size])
    rest = [c for c in ordered if c not in made]
    return tuple(made + rest[: 5 - len(made)])
