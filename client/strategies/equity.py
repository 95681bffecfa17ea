"""How often a hand wins: a preflop table, opponent ranges, and Monte Carlo equity.

Equity is estimated by dealing the opponents' hands from their likely ranges and the rest
of the board at random, many times, and counting the share of the pot won (ties split).
Every random draw comes from the ``random.Random`` passed in, so an equity is reproducible
from a seed; the loop stops at an iteration count, or earlier when an optional
``out_of_time`` callable says so (the bot runner builds it from a real clock, tests don't).

Ranges are kept simple but real: every two-card combination is ranked by its equity
against one random hand (``PREFLOP_EQUITY``, computed once with eval7's exact-seeded Monte
Carlo at 400,000 trials per class), and a range is "the top fraction of that ranking". A
player who bet or raised after the flop is assumed to have connected with the board
(pair, pocket pair or flush draw), except for a bluffing share that shrinks with each
bet.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import attrs

from poker.cards import Card
from poker.evaluator import strength7

__all__ = [
    "PREFLOP_EQUITY",
    "Range",
    "class_name",
    "estimate_equity",
    "preflop_equity",
    "preflop_percentile",
]

_ORDER = "AKQJT98765432"

# Equity in permille against one random hand, all-in preflop. Row is the first card's rank,
# column the second's (both from the ace down): above the diagonal suited, below offsuit.
_TABLE: tuple[tuple[int, ...], ...] = (
    (852, 670, 662, 654, 646, 628, 619, 610, 599, 599, 589, 582, 574),  # A
    (653, 823, 634, 625, 617, 599, 584, 576, 567, 557, 549, 540, 531),  # K
    (645, 615, 798, 603, 595, 576, 559, 543, 537, 526, 518, 509, 501),  # Q
    (636, 607, 580, 774, 576, 558, 539, 522, 506, 500, 490, 483, 473),  # J
    (628, 597, 573, 553, 749, 540, 523, 506, 489, 472, 464, 456, 449),  # T
    (608, 579, 554, 532, 515, 721, 508, 490, 474, 457, 438, 433, 423),  # 9
    (599, 561, 536, 515, 497, 481, 691, 479, 463, 447, 428, 409, 402),  # 8
    (588, 552, 519, 498, 479, 463, 451, 662, 455, 436, 419, 402, 381),  # 7
    (577, 542, 509, 477, 461, 444, 432, 424, 635, 431, 413, 395, 377),  # 6
    (577, 533, 501, 472, 441, 426, 414, 405, 399, 603, 416, 396, 379),  # 5
    (567, 523, 492, 461, 436, 406, 395, 386, 380, 381, 570, 388, 369),  # 4
    (557, 514, 482, 452, 425, 400, 374, 366, 361, 361, 351, 536, 360),  # 3
    (550, 505, 473, 445, 416, 391, 369, 346, 340, 343, 332, 323, 503),  # 2
)


def _cell(a: Card, b: Card) -> tuple[int, int]:
    hi, lo = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
    row, col = 12 - hi, 12 - lo
    if (a & 3) == (b & 3) and hi != lo:
        return row, col  # suited: above the diagonal
    return col, row  # offsuit below the diagonal; pairs on it


def class_name(a: Card, b: Card) -> str:
    """The starting-hand class: "AKs", "T9o", "77"."""
    row, col = _cell(a, b)
    hi, lo = _ORDER[min(row, col)], _ORDER[max(row, col)]
    if hi == lo:
        return hi + lo
    return hi + lo + ("s" if row < col else "o")


def preflop_equity(a: Card, b: Card) -> float:
    """Equity of the two cards against one random hand, all-in before the flop."""
    row, col = _cell(a, b)
    return _TABLE[row][col] / 1000


# Every combination, best first; ties broken by the card ints so the order is fixed.
RANKED_COMBOS: tuple[tuple[Card, Card], ...] = tuple(
    sorted(
        ((a, b) for a in range(52) for b in range(a)),
        key=lambda ab: (-preflop_equity(*ab), -ab[0], -ab[1]),
    )
)
PREFLOP_EQUITY = {class_name(a, b): preflop_equity(a, b) for a, b in RANKED_COMBOS}


def _percentiles() -> dict[tuple[Card, Card], float]:
    """A class's percentile is the share of combinations at least as good as it, so every
    combination of a class ranks the same and a top-x% range holds whole classes."""
    by_class: dict[str, list[tuple[Card, Card]]] = {}
    for combo in RANKED_COMBOS:
        by_class.setdefault(class_name(*combo), []).append(combo)
    out: dict[tuple[Card, Card], float] = {}
    seen = 0
    for combos in sorted(by_class.values(), key=lambda cs: -preflop_equity(*cs[0])):
        seen += len(combos)
        for combo in combos:
            out[combo] = seen / len(RANKED_COMBOS)
    return out


_PERCENTILE = _percentiles()


def preflop_percentile(a: Card, b: Card) -> float:
    """Where the hand ranks among all 1326 starting hands: about 0.005 for aces, 1.0 for 32o."""
    return _PERCENTILE[(a, b) if a > b else (b, a)]


@attrs.frozen(kw_only=True)
class Range:
    """The hands an opponent likely holds.

    ``top``: the best fraction of starting hands (1.0 is any two cards). ``aggression``:
    bets and raises after the flop; each one makes a hand that missed the board less likely
    (kept with probability ``bluff ** aggression``).
    """

    top: float = 1.0
    aggression: int = 0
    bluff: float = 0.3

    def __attrs_post_init__(self) -> None:
        if not 0 < self.top <= 1:
            raise ValueError(f"a range's top fraction must be in (0, 1], got {self.top}")

    @property
    def size(self) -> int:
        return max(6, round(self.top * len(RANKED_COMBOS)))


def _connects(a: Card, b: Card, board: Sequence[Card]) -> bool:
    """A hand worth betting after the flop: a pocket pair, a pair with the board, a flush draw."""
    ra, rb = a >> 2, b >> 2
    if ra == rb:
        return True
    suits = [0, 0, 0, 0]
    for c in board:
        r = c >> 2
        if r == ra or r == rb:
            return True
        suits[c & 3] += 1
    suits[a & 3] += 1
    suits[b & 3] += 1
    return max(suits) >= 4


def _deal_from(rng: random.Random, rng_range: Range, dead: set[Card], board: Sequence[Card]) -> tuple[Card, Card]:
    size = rng_range.size
    keep = rng_range.bluff ** rng_range.aggression if rng_range.aggression else 1.0
    fallback: tuple[Card, Card] | None = None
    for _ in range(64):
        a, b = RANKED_COMBOS[rng.randrange(size)]
        if a in dead or b in dead:
            continue
        if keep >= 1.0 or _connects(a, b, board) or rng.random() < keep:
            return a, b
        fallback = (a, b)
    if fallback is not None:
        return fallback
    # The range is nearly all blocked by known cards: any two live cards will do.
    live = [c for c in range(52) if c not in dead]
    a, b = rng.sample(live, 2)
    return a, b


def estimate_equity(
    hole: Sequence[Card],
    board: Sequence[Card],
    ranges: Sequence[Range],
    *,
    iterations: int,
    rng: random.Random,
    out_of_time: Callable[[], bool] | None = None,
) -> float:
    """The share of the pot ``hole`` wins against opponents holding ``ranges``, 0..1.

    Stops after ``iterations`` deals, or sooner when ``out_of_time()`` turns true (asked
    every 32 deals). With no opponents the pot is ours: 1.0.
    """
    if not ranges:
        return 1.0
    if len(hole) != 2 or len(board) > 5:
        raise ValueError("equity needs two hole cards and at most five board cards")
    known = set(hole) | set(board)
    if len(known) != 2 + len(board):
        raise ValueError("a card appears twice among the hole cards and board")
    hole_t = tuple(hole)
    board_t = tuple(board)
    won = 0.0
    done = 0
    randrange = rng.randrange
    for done in range(1, max(1, iterations) + 1):
        dead = set(known)
        opponents = []
        for r in ranges:
            a, b = _deal_from(rng, r, dead, board_t)
            dead.add(a)
            dead.add(b)
            opponents.append((a, b))
        full = list(board_t)
        while len(full) < 5:
            c = randrange(52)
            if c not in dead:
                dead.add(c)
                full.append(c)
        mine = strength7(hole_t + tuple(full))
        ties = 1
        beaten = False
        for a, b in opponents:
            s = strength7((a, b, *full))
            if s > mine:
                beaten = True
                break
            if s == mine:
                ties += 1
        if not beaten:
            won += 1.0 / ties
        if out_of_time is not None and done % 32 == 0 and out_of_time():
            break
    return won / done
