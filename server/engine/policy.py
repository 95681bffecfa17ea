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
        lo, hi = legal.min_raise_to, legal.max_raise_to
        if roll > 0.97 or lo == hi:
            to = hi
        elif roll > 0.86:
            to = rng.randint(lo, hi)
        else:
            to = lo
        return Action.bet(to) if legal.is_bet else Action.raise_to(to)
    if legal.check:
        return Action.check()
    return Action.call()
