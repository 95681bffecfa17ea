"""A random legal-action policy: for simulations, property tests and the ``random`` bot.

It draws only from ``LegalActions`` (the one source of truth), with weights chosen so
that every kind of action occurs: folds, checks, calls, minimum raises, larger raises and
all-ins, without every hand ending in an all-in on the first round.
"""

from __future__ import annotations

import random

from .actions import Action, LegalActions


def random_action(legal: LegalActions, rng: random.Random) -> Action:
    roll = rng.random()
    can_raise = legal.min_raise_to is not None and legal.max_raise_to is not None
    if legal.fold and roll < 0.18:
        return Action.fold()
    if can_raise and roll > 0.70:
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        to = raise_size(roll, legal.min_raise_to, legal.max_raise_to, rng)
        return Action.bet(to) if legal.is_bet else Action.raise_to(to)
    if legal.check:
        return Action.check()
    return Action.call()


def raise_size(roll: float, lo: int, hi: int, rng: random.Random) -> int:
    """The raise-to amount for a ``roll`` that raises: all-in above 0.97 (or when the minimum
    is all-in), a random size above 0.86, else the minimum ``lo``."""
    if roll > 0.97 or lo == hi:
        return hi
    if roll > 0.86:
        return rng.randint(lo, hi)
    return lo
