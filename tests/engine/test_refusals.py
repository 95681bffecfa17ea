"""Every refusal names what was wrong: the ``field`` (``action`` or ``amount``, the path
the protocol's error gives) and a message a player can act on. One test per refusal the
rule tests do not already pin (docs/testing.md: mutants of these messages lived)."""

from __future__ import annotations

import pytest

from poker.actions import Action, ActionKind

from .test_rules import ALL_IN, C, F, R, X, new_hand, play, refused


@pytest.mark.parametrize("kind", [ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL])
def test_an_amount_on_an_action_that_takes_none_is_refused_on_the_amount(kind: ActionKind) -> None:
    hand = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    err = refused(hand, 1, Action(kind=kind, amount=400))
    assert (err.field, err.message) == ("amount", f"{kind} takes no amount")


def test_a_bet_or_raise_without_a_whole_amount_is_refused_on_the_amount() -> None:
    hand = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    play(hand, (1, C()), (2, C()), (3, X()))  # the flop: seat 2 may bet
    for amount in (None, True):
        err = refused(hand, 2, Action(kind=ActionKind.BET, amount=amount))
        assert (err.field, err.message) == ("amount", "bet needs a whole-chip amount (the total to bet)")
    hand.act(2, Action.bet(400))
    err = refused(hand, 3, Action(kind=ActionKind.RAISE, amount=None))
    assert (err.field, err.message) == ("amount", "raise needs a whole-chip amount (the total to raise to)")


def test_raising_above_the_stack_or_below_the_minimum_is_refused_on_the_amount() -> None:
    hand = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    high = refused(hand, 1, R(20_000))
    assert (high.field, high.message) == ("amount", "raise to 20000 is more than you have: the most is 10000 (all-in)")
    low = refused(hand, 1, R(300))
    assert (low.field, low.message) == ("amount", "raise to 300 is below the minimum raise to 400 (big blind 200)")
    play(hand, (1, C()), (2, C()), (3, X()))
    bet = refused(hand, 2, Action.bet(100))
    assert (bet.field, bet.message) == ("amount", "bet 100 is below the minimum bet of 200 (big blind 200)")


def test_a_raise_by_a_player_whose_chips_only_match_the_bet_says_so() -> None:
    hand = new_hand({1: 10_000, 2: 10_000, 3: 1_000}, button=1)
    play(hand, (1, R(1_000)), (2, F()))
    err = refused(hand, 3, R(2_000))  # 1,000 in all: calling is all-in
    assert (err.field, err.message) == (
        "action", "you cannot raise: your 800 chips do not cover the call; call all-in or fold"
    )


def test_all_in_when_raising_is_closed_is_refused_naming_the_call() -> None:
    hand = new_hand({1: 10_000, 2: 10_000, 3: 300}, button=1)
    play(hand, (1, C()), (2, C()), (3, ALL_IN()))  # 100 more: not a full raise
    err = refused(hand, 1, ALL_IN())  # seat 1 acted already: raising is closed to it
    assert (err.field, err.message) == (
        "action", "you cannot go all-in: raising is closed to you; call 100 or fold"
    )
