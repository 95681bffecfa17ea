"""The random policy (``poker/policy.py``) and ``LegalActions``' helpers, exactly.

Simulations, the property tests and the ``random`` bot lean on the policy; a drifted
threshold would quietly change what every one of them exercises.
"""

from __future__ import annotations

import random

import pytest

from poker.actions import Action, LegalActions
from poker.policy import raise_size, random_action


class Rolls(random.Random):
    """``random()`` returns the given rolls in turn; ``randint`` is recorded and fixed."""

    def __init__(self, *rolls: float) -> None:
        super().__init__(0)
        self.rolls = list(rolls)
        self.randints: list[tuple[int, int]] = []

    def random(self) -> float:
        return self.rolls.pop(0)

    def randint(self, a: int, b: int) -> int:
        self.randints.append((a, b))
        return (a + b) // 2


def facing_a_bet(**kw: object) -> LegalActions:
    base: dict[str, object] = dict(seat=1, fold=True, check=False, call=200, min_raise_to=400,
                                   max_raise_to=5000, to_call=200, current_bet=200, stack=5000, bet=0)
    base.update(kw)
    return LegalActions(**base)  # type: ignore[arg-type]


def free_check(**kw: object) -> LegalActions:
    base: dict[str, object] = dict(fold=False, check=True, call=None, to_call=0, current_bet=0,
                                   min_raise_to=200)
    base.update(kw)
    return facing_a_bet(**base)


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        (0.0, Action.fold()),
        (0.1799, Action.fold()),
        (0.18, Action.call()),  # from 0.18 on, no fold
        (0.70, Action.call()),  # up to 0.70, no raise
        (0.7001, Action.raise_to(400)),  # the minimum
        (0.86, Action.raise_to(400)),
        (0.8601, Action.raise_to(2700)),  # a random size (Rolls.randint: the middle)
        (0.97, Action.raise_to(2700)),
        (0.9701, Action.raise_to(5000)),  # all-in
    ],
)
def test_the_policy_folds_calls_and_raises_by_the_roll(roll: float, expected: Action) -> None:
    assert random_action(facing_a_bet(), Rolls(roll)) == expected


def test_the_policy_checks_or_bets_when_checking_is_free() -> None:
    assert random_action(free_check(), Rolls(0.0)) == Action.check()  # never folds a free check
    assert random_action(free_check(), Rolls(0.5)) == Action.check()
    assert random_action(free_check(), Rolls(0.75)) == Action.bet(200)


def test_the_policy_calls_when_it_may_not_raise() -> None:
    closed = facing_a_bet(min_raise_to=None, max_raise_to=None)
    assert random_action(closed, Rolls(0.99)) == Action.call()
    only_max = facing_a_bet(min_raise_to=None)
    assert random_action(only_max, Rolls(0.99)) == Action.call()
    only_min = facing_a_bet(max_raise_to=None)
    assert random_action(only_min, Rolls(0.99)) == Action.call()


def test_raise_sizes() -> None:
    rng = Rolls()
    assert raise_size(0.80, 400, 5000, rng) == 400
    assert raise_size(0.90, 400, 5000, rng) == 2700 and rng.randints == [(400, 5000)]
    assert raise_size(0.98, 400, 5000, rng) == 5000
    assert raise_size(0.80, 700, 700, rng) == 700  # the minimum is all-in
    assert raise_size(0.90, 700, 700, rng) == 700 and rng.randints == [(400, 5000)]


def test_describe_lists_what_the_player_may_do() -> None:
    assert facing_a_bet().describe() == "fold, call 200, raise to 400..5000"
    assert free_check().describe() == "check, bet 200..5000"
    assert facing_a_bet(min_raise_to=5000).describe() == "fold, call 200, raise to 5000 (all-in)"
    assert free_check(min_raise_to=5000).describe() == "check, bet 5000 (all-in)"
    assert facing_a_bet(min_raise_to=None, max_raise_to=None).describe() == "fold, call 200"
    assert facing_a_bet(min_raise_to=None).describe() == "fold, call 200"
    assert facing_a_bet(max_raise_to=None).describe() == "fold, call 200"


def test_all_in_in_terms_of_the_other_actions() -> None:
    assert facing_a_bet().all_in_action() == Action.raise_to(5000)
    assert free_check().all_in_action() == Action.bet(5000)
    assert facing_a_bet(min_raise_to=None, max_raise_to=None).all_in_action() == Action.call()
    assert free_check(min_raise_to=None, max_raise_to=None).all_in_action() == Action.check()
    assert facing_a_bet().timeout_action() == Action.fold() and free_check().timeout_action() == Action.check()
