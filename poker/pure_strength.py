"""A hand's strength in plain Python, for where the compiled evaluator is not installed.

The client a server hands out (``server/share.py``: a wheel and a zip application) must
run on a bare Python 3.11, so it cannot carry ``phevaluator``. This computes the same
number (eval7's value: the category from bit 24 up, then the deciding ranks a nibble each
from bit 16 down) straight from the ranks and suits, about a hundred times slower than the
compiled path: plenty for showing a hand, slow for a Monte Carlo bot. ``poker/evaluator.py``
uses it only when ``phevaluator`` cannot be imported; ``tests/engine`` checks that the two
agree on every 5-card hand class and on random 6- and 7-card hands.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["pure_strength"]

_ACE = 12


def _straight_top(mask: int) -> int:
    """Top rank of the best straight in a 13-bit rank mask (the wheel's top is the five), or -1."""
    wide = (mask << 1) | (mask >> _ACE & 1)  # the ace also plays below the two
    for top in range(_ACE, 2, -1):
        run = 0b11111 << (top - 3)
        if wide & run == run:
            return top
    return -1


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category << 24
    for i, r in enumerate(ranks):
        value |= r << (16 - 4 * i)
    return value


def pure_strength(cards: Sequence[int]) -> int:
    """The strength of 5 to 7 distinct cards (ints ``rank * 4 + suit``), bigger is better."""
    counts = [0] * 13
    suits: list[list[int]] = [[], [], [], []]
    mask = 0
    for c in cards:
        r = c >> 2
        counts[r] += 1
        suits[c & 3].append(r)
        mask |= 1 << r
    for in_suit in suits:
        if len(in_suit) >= 5:
            suit_mask = 0
            for r in in_suit:
                suit_mask |= 1 << r
            top = _straight_top(suit_mask)
            if top >= 0:
                return _pack(8, [top])
            flush = sorted(in_suit, reverse=True)[:5]
            break
    else:
        flush = None
    by_count = sorted(range(13), key=lambda r: (counts[r], r), reverse=True)
    first, second = by_count[0], by_count[1]
    if counts[first] == 4:
        return _pack(7, [first, max(r for r in range(13) if counts[r] and r != first)])
    if counts[first] == 3 and counts[second] >= 2:
        return _pack(6, [first, second])
    if flush is not None:
        return _pack(5, flush)
    top = _straight_top(mask)
    if top >= 0:
        return _pack(4, [top])
    singles = sorted((r for r in range(13) if counts[r] == 1), reverse=True)
    if counts[first] == 3:
        return _pack(3, [first, *singles[:2]])
    if counts[first] == 2 and counts[second] == 2:
        kicker = max(r for r in range(13) if counts[r] and r not in (first, second))
        return _pack(2, [first, second, kicker])
    if counts[first] == 2:
        return _pack(1, [first, *singles[:3]])
    return _pack(0, singles[:5])
