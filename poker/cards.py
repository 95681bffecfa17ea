"""Cards as small ints, and the deck.

A card is an ``int`` 0..51: ``rank * 4 + suit``, rank 0 is a deuce and 12 an ace, suits
in the order clubs, diamonds, hearts, spades. Ints keep hands cheap to copy, store and
compare; text ("As", "Td") exists only at the edges (views, histories, the protocol).

The deck is shuffled with an RNG passed in (``secrets.SystemRandom()`` in production) by
Fisher-Yates with ``randbelow``-style unbiased draws, so the deck order is fixed before the
deal and tests can inject a seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Protocol

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
RANK_NAMES = (
    "deuce", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)
RANK_PLURALS = (
    "deuces", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)

Card = int
FULL_DECK: tuple[Card, ...] = tuple(range(52))


class CardError(ValueError):
    """A card text that is not two characters of rank and suit."""


def rank_of(card: Card) -> int:
    """0 for a deuce up to 12 for an ace: part of the API bots use (docs/bots.md)."""
    return card >> 2


def card_str(card: Card) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards: Iterable[Card]) -> str:
    return "".join(card_str(c) for c in cards)


def parse_card(text: str) -> Card:
    if len(text) != 2 or text[0].upper() not in RANKS or text[1].lower() not in SUITS:
        raise CardError(f"not a card: {text!r} (expected rank 2-9TJQKA and suit cdhs, e.g. 'As')")
    return RANKS.index(text[0].upper()) * 4 + SUITS.index(text[1].lower())


def parse_cards(text: str) -> list[Card]:
    """Parse concatenated or space-separated cards: "AsKd" or "As Kd"."""
    compact = "".join(text.split())
    if len(compact) % 2:
        raise CardError(f"not a list of cards: {text!r}")
    return [parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2)]


_RANDBELOW_WITH_BITS = getattr(random.Random, "_randbelow_with_getrandbits", None)


class RandomSource(Protocol):
    """What the shuffle needs from an RNG: ``secrets.SystemRandom`` and ``random.Random`` fit."""

    def randrange(self, stop: int, /) -> int: ...


# (i, bits of i + 1) for each Fisher-Yates step: the draw for i is below i + 1.
_STEPS = tuple((i, (i + 1).bit_length()) for i in range(51, 0, -1))


def _draws_bits(rng: RandomSource) -> bool:
    """Whether ``rng.randrange(n)`` is exactly "draw n.bit_length() bits until below n"
    (``Random._randbelow_with_getrandbits``): so for ``random.Random`` and
    ``secrets.SystemRandom``, not for a class with its own ``randrange``."""
    kind = type(rng)
    return (
        getattr(kind, "randrange", None) is random.Random.randrange
        and getattr(kind, "_randbelow", None) is _RANDBELOW_WITH_BITS
    )


def below(rng: RandomSource) -> Callable[[int], int]:
    """``rng.randrange`` for a stop of 1 or more, the same draws: for the RNGs of
    ``_draws_bits`` the ``_randbelow`` it calls, without its argument checks (half the
    time of a draw; the seat draw and a breaking table's order make a few hundred)."""
    if _draws_bits(rng):
        return rng._randbelow  # type: ignore[attr-defined,no-any-return]
    return rng.randrange


def shuffled_deck(rng: RandomSource) -> list[Card]:
    """A new deck in random order (Fisher-Yates; each draw unbiased)."""
    deck = list(FULL_DECK)
    if _draws_bits(rng):
        # randrange's draw done here without its two calls a draw: the same deck from the
        # same RNG, a third of the time (bench/engine.py shuffles a deck a hand).
        bits = rng.getrandbits  # type: ignore[attr-defined]
        for i, k in _STEPS:
            j = bits(k)
            while j > i:
                j = bits(k)
            deck[i], deck[j] = deck[j], deck[i]
        return deck
    for i in range(51, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seeded_rng(seed: int) -> random.Random:
    """A reproducible RNG for simulations and tests; never for a real tournament."""
    return random.Random(seed)
