"""What a finished hand records: the pots gathered street by street, each pot awarded
(with the hand that won it), the odd chips carried out, whether there was a showdown, and
a deck that cannot be right refused rather than played.

Written for mutants every other engine test let live (docs/testing.md): the server, the
histories and the client read these records, so a wrong one is a wrong table on every
screen even when the stacks come out right.
"""

from __future__ import annotations

import pytest

import poker.hand
from poker.actions import ActionKind, Ruleset
from poker.cards import parse_cards
from poker.events import (
    ActionTaken,
    BetsGathered,
    HandEnded,
    HandShown,
    HandStarted,
    PotAwarded,
    Street,
)
from poker.hand import Hand

from .test_rules import (
    ALL_IN,
    BOARD,
    B,
    C,
    F,
    R,
    X,
    check_down,
    events_of,
    new_hand,
    play,
    stacked_deck,
)


def test_each_round_gathers_the_pots_as_they_stand_with_the_carry_in_the_main_pot() -> None:
    hand = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1, carried_in=1)
    play(hand, (1, C()), (2, C()), (3, X()))  # preflop: 3 x 200, and the carried chip
    assert events_of(hand, BetsGathered) == [BetsGathered(pots=((601, (1, 2, 3)),), carried_in=1)]


def test_a_player_left_with_one_chip_still_acts_on_the_flop() -> None:
    hand = new_hand({1: 10_000, 2: 10_000, 3: 1_001}, button=1)
    play(hand, (1, R(1_000)), (2, F()), (3, C()))  # the big blind calls off all but one chip
    assert hand.stack(3) == 1 and hand.street is Street.FLOP
    assert hand.to_act == 3


def test_a_pot_one_player_alone_is_eligible_for_at_a_showdown_names_their_hand() -> None:
    # Seat 1 is all-in for 1,000; seats 2 and 3 play on and both reach the showdown with
    # a side pot that seat 3's all-in left only seat 2 eligible for.
    hand = new_hand({1: 1_000, 2: 6_000, 3: 3_000}, button=1,
                    holes={1: "5h 5d", 2: "Ah Ad", 3: "Kh Kd"}, board=BOARD)
    play(hand, (1, ALL_IN()), (2, R(6_000)), (3, ALL_IN()))
    assert hand.is_over
    awards = events_of(hand, PotAwarded)
    assert [(a.eligible, a.winners, a.hand_name) for a in awards] == [
        ((1, 2, 3), ((2, 3_000),), "Pair of aces"),
        ((2, 3), ((2, 4_000),), "Pair of aces"),
    ]
    assert hand.pots_awarded == awards


def test_a_showdown_side_pot_nobody_else_can_win_still_names_the_winning_hand() -> None:
    # Seat 1 is all-in preflop; seat 3 calls a bet on the flop, then folds on the turn: the
    # side pot has seat 2 alone eligible, at a hand that still goes to a showdown.
    hand = new_hand({1: 1_000, 2: 6_000, 3: 6_000}, button=1,
                    holes={1: "Ah Ad", 2: "5h 5d", 3: "Kh Kd"}, board=BOARD)
    play(hand, (1, ALL_IN()), (2, C()), (3, C()))
    play(hand, (2, B(1_000)), (3, C()))
    play(hand, (2, B(1_000)), (3, F()))
    check_down(hand)
    awards = events_of(hand, PotAwarded)
    assert [(a.eligible, a.winners, a.hand_name) for a in awards] == [
        ((1, 2), ((1, 3_000),), "Pair of aces"),
        ((2,), ((2, 2_000),), "Pair of fives"),
    ]


def test_a_hand_records_its_carried_chips_and_whether_it_went_to_a_showdown() -> None:
    folded = new_hand({1: 10_000, 2: 10_000}, button=1)
    play(folded, (1, F()))
    assert events_of(folded, HandEnded)[0].showdown is False
    assert folded.carried_out == 0
    odd = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1, carried_in=1,
                   holes={1: "Ah Kd", 2: "As Kc", 3: "8d 4h"}, board=BOARD)
    play(odd, (1, C()), (2, C()), (3, X()))
    check_down(odd)  # 601 split two ways: one chip carried out
    ended = events_of(odd, HandEnded)[0]
    assert ended.showdown is True
    assert odd.carried_out == ended.carried_out == 1


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_hand_names_at_the_showdown_do_not_depend_on_what_was_seen_before(
    ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The showdown caches each strength's name: a first sight (an empty cache) and a
    repeat name the hand alike."""
    monkeypatch.setattr(poker.hand, "_NAME_BY_STRENGTH", {})
    for _ in range(2):
        hand = new_hand({1: 10_000, 2: 10_000}, button=1, ruleset=ruleset,
                        holes={1: "Ah Ad", 2: "Kh Kd"}, board=BOARD)
        play(hand, (1, C()), (2, X()))
        check_down(hand)
        shown = {e.seat: e.hand_name for e in events_of(hand, HandShown)}
        assert shown == {1: "Pair of aces", 2: "Pair of kings"}
        assert [a.hand_name for a in events_of(hand, PotAwarded)] == ["Pair of aces"]


def bad_deck_hand(card: int) -> Hand:
    """Heads-up, seat 1 on the button; the flop's first card replaced by ``card``."""
    deck = stacked_deck([1, 2], 1, {1: "Ah Ad", 2: "Kh Kd"}, BOARD)
    deck[5] = card  # holes deck[0:4], burn deck[4], flop deck[5:8]
    return Hand(hand_no=1, seats=[(1, 10_000), (2, 10_000)], button=1, small_blind=100,
                big_blind=200, deck=deck)


def test_a_deck_that_deals_a_card_twice_is_refused_at_the_showdown_saying_so() -> None:
    hand = bad_deck_hand(parse_cards("Kh")[0])
    play(hand, (1, C()), (2, X()))
    with pytest.raises(ValueError, match="duplicate card Kh"):
        check_down(hand)


def test_a_deck_with_a_number_that_is_no_card_is_refused_at_the_showdown_saying_so() -> None:
    hand = bad_deck_hand(60)
    play(hand, (1, C()), (2, X()))
    with pytest.raises(ValueError, match="not a card: 60"):
        check_down(hand)


def test_the_hand_started_record_names_the_blind_seats() -> None:
    hand = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    started = hand.events[0]
    assert isinstance(started, HandStarted)
    assert (started.button, started.small_blind_seat, started.big_blind_seat) == (1, 2, 3)


def test_a_call_of_a_single_chip_is_offered() -> None:
    # Heads-up: the big blind is all-in for 101, so the button (small blind, 100) calls 1.
    hand = new_hand({1: 10_000, 2: 101}, button=1)
    la = hand.legal_actions()
    assert la is not None and la.seat == 1
    assert (la.call, la.to_call) == (1, 1)


def test_an_all_in_that_opens_the_betting_is_recorded_as_a_bet() -> None:
    hand = new_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    play(hand, (1, C()), (2, C()), (3, X()), (2, ALL_IN()))
    last = hand.events[-1]
    assert isinstance(last, ActionTaken)
    assert (last.seat, last.action, last.to, last.all_in) == (2, ActionKind.BET, 9_800, True)
