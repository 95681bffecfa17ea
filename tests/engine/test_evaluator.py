"""The hand evaluator against the rulebook, the textbook counts and an independent library.

treys (a pure-Python Cactus Kev evaluator, lower rank = better) is the reference: it shares
no code with phevaluator or eval7, which our strengths come from.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

import pytest
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from poker.cards import FULL_DECK, card_str, parse_cards
from poker.evaluator import (
    Category,
    HandValue,
    category_of,
    evaluate,
    strength,
    strength7,
)

TREYS = TreysEvaluator()
TREYS_CARDS = tuple(TreysCard.new(card_str(c)) for c in FULL_DECK)
# treys rank classes: 0 royal, 1 straight flush, 2 quads, ... 9 high card.
TREYS_CLASS_TO_CATEGORY = {
    0: Category.STRAIGHT_FLUSH,
    1: Category.STRAIGHT_FLUSH,
    2: Category.FOUR_OF_A_KIND,
    3: Category.FULL_HOUSE,
    4: Category.FLUSH,
    5: Category.STRAIGHT,
    6: Category.THREE_OF_A_KIND,
    7: Category.TWO_PAIR,
    8: Category.PAIR,
    9: Category.HIGH_CARD,
}


def treys_rank(cards: Sequence[int]) -> int:
    converted = [TREYS_CARDS[c] for c in cards]
    return TREYS.evaluate(converted[:2], converted[2:])


def hand(text: str) -> HandValue:
    return evaluate(parse_cards(text))


def five(value: HandValue) -> str:
    return " ".join(card_str(c) for c in value.best_five)


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def random_hands(rng: random.Random, count: int, size: int = 7) -> list[list[int]]:
    return [rng.sample(FULL_DECK, size) for _ in range(count)]


# --- The textbook: every five-card hand -------------------------------------------------


def test_all_five_card_hands_give_the_textbook_category_counts() -> None:
    by_strength = Counter(map(strength, combinations(FULL_DECK, 5)))
    counts: Counter[Category] = Counter()
    for value, n in by_strength.items():
        counts[category_of(value)] += n
    royal = hand("As Ks Qs Js Ts").strength

    assert sum(counts.values()) == 2_598_960
    assert counts == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3744,
        Category.FLUSH: 5108,
        Category.STRAIGHT: 10200,
        Category.THREE_OF_A_KIND: 54912,
        Category.TWO_PAIR: 123552,
        Category.PAIR: 1098240,
        Category.HIGH_CARD: 1302540,
    }
    assert by_strength[royal] == 4
    # 7462 distinct five-card hands once suits are forgotten.
    assert len(by_strength) == 7462


def _one_hand_per_class() -> list[list[int]]:
    """One five-card hand for each of the 7462 distinct hands: a rank multiset, suited or not."""
    hands = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) == 5:
            continue
        seen: Counter[int] = Counter()
        cards = []
        for r in ranks:
            cards.append(r * 4 + seen[r])
            seen[r] += 1
        if len(set(ranks)) == 5:
            hands.append([r * 4 + 2 for r in ranks])  # all hearts
            cards[0] += 1  # a diamond among clubs: not a flush
        hands.append(cards)
    return hands


def test_every_distinct_five_card_hand_ranks_exactly_as_treys_ranks_it() -> None:
    hands = _one_hand_per_class()
    assert len(hands) == 7462
    ours = [strength(h) for h in hands]
    assert len(set(ours)) == 7462
    by_ours = sorted(zip(ours, hands, strict=True))
    # Best treys rank is 1; sorting weakest-first by our strength must walk 7462 .. 1.
    assert [treys_rank(h) for _, h in by_ours] == list(range(7462, 0, -1))


# --- Seven cards against treys -----------------------------------------------------------


def _assert_same_order(hands: list[list[int]]) -> None:
    ours = [strength7(h) for h in hands]
    theirs = [treys_rank(h) for h in hands]
    # Every strength means one treys rank and vice versa, and the order is the same.
    pairs = sorted(set(zip(ours, theirs, strict=True)))
    assert len({s for s, _ in pairs}) == len(pairs) == len({t for _, t in pairs})
    assert [t for _, t in pairs] == sorted((t for _, t in pairs), reverse=True)
    # And, directly, pairwise.
    for i in range(0, len(hands) - 1, 2):
        assert sign(ours[i] - ours[i + 1]) == sign(theirs[i + 1] - theirs[i]), (
            " ".join(map(card_str, hands[i])),
            " ".join(map(card_str, hands[i + 1])),
        )
    for s, t in zip(ours, theirs, strict=True):
        assert category_of(s) is TREYS_CLASS_TO_CATEGORY[TREYS.get_rank_class(t)]


def test_random_seven_card_hands_order_and_categories_agree_with_treys() -> None:
    _assert_same_order(random_hands(random.Random(20240607), 100_000))


def test_hands_sharing_a_board_order_like_treys() -> None:
    """Shared boards make the close calls: same category, kickers, split pots."""
    rng = random.Random(7)
    hands = []
    for _ in range(30_000):
        drawn = rng.sample(FULL_DECK, 9)
        board = drawn[4:]
        hands.append(drawn[0:2] + board)
        hands.append(drawn[2:4] + board)
    _assert_same_order(hands)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_full_evaluation_agrees_with_the_fast_paths_and_treys(size: int) -> None:
    rng = random.Random(size)
    for cards in random_hands(rng, 5000, size):
        value = evaluate(cards)
        assert value.strength == strength(cards)
        if size == 7:
            assert value.strength == strength7(cards)
        assert value.category is category_of(value.strength)
        assert value.category is TREYS_CLASS_TO_CATEGORY[TREYS.get_rank_class(treys_rank(cards))]
        # The five that play are five of the hand and are, alone, as strong as the hand.
        assert len(set(value.best_five)) == 5
        assert set(value.best_five) <= set(cards)
        assert strength(value.best_five) == value.strength


# --- The rulebook ------------------------------------------------------------------------


def test_ace_plays_low_in_a_five_high_straight() -> None:
    wheel = hand("Ah 2d 3c 4h 5s Kd 9h")
    assert wheel.category is Category.STRAIGHT
    assert wheel.name == "Straight, five high"
    assert five(wheel) == "5s 4h 3c 2d Ah"
    assert wheel.strength < hand("2d 3c 4h 5s 6c Kd 9h").strength
    assert wheel.strength > hand("Ah Ad Ac 4h 5s Kd 9h").strength


def test_ace_plays_high_in_an_ace_high_straight() -> None:
    broadway = hand("Ah Kd Qc Jh Ts 2d 3h")
    assert broadway.name == "Straight, ace high"
    assert broadway.strength > hand("Kd Qc Jh Ts 9s 2d 3h").strength


def test_no_wrap_around_straight() -> None:
    for text in ("Qh Kd Ac 2h 3s", "Kd Ac 2h 3s 4c", "Jh Qd Kc As 2h 3d 7c"):
        value = hand(text)
        assert value.category is Category.HIGH_CARD, text
        assert value.name == "High card, ace"


def test_wheel_straight_flush_is_five_high_and_loses_to_six_high() -> None:
    steel_wheel = hand("As 2s 3s 4s 5s Ad Ac")
    assert steel_wheel.name == "Straight flush, five high"
    assert five(steel_wheel) == "5s 4s 3s 2s As"
    assert steel_wheel.strength < hand("2s 3s 4s 5s 6s Ad Ac").strength
    assert steel_wheel.strength > hand("Ah Ad Ac As Ks Qs Js").strength


def test_royal_flush_is_an_ace_high_straight_flush() -> None:
    royal = hand("Th Jh Qh Kh Ah 2c 2d")
    assert royal.category is Category.STRAIGHT_FLUSH
    assert royal.name == "Royal flush"
    assert five(royal) == "Ah Kh Qh Jh Th"
    assert royal.strength > hand("9h Th Jh Qh Kh 2c 2d").strength


def test_suits_never_break_ties() -> None:
    assert hand("As Kd 9c 7h 4s 3c 2d").strength == hand("Ac Kh 9d 7s 4h 3d 2c").strength
    assert hand("Ah Qh 9h 7h 4h 2c 2d").strength == hand("As Qs 9s 7s 4s 2c 2d").strength
    assert hand("Th Jh Qh Kh Ah").strength == hand("Ts Js Qs Ks As").strength
    assert hand("Kh Kd 7c 7s 2d").strength == hand("Ks Kc 7h 7d 2c").strength


def test_only_the_best_five_cards_play() -> None:
    # The sixth and seventh cards never count: these kickers tie.
    assert hand("Ah Ad Kc Qs Jd 4c 3h").strength == hand("Ah Ad Kc Qs Jd 5c 2h").strength
    assert hand("Ah Ad Kc Qs Jd 4c 3h").strength > hand("Ah Ad Kc Qs Td 9c 8h").strength


def test_two_pair_plays_the_best_kicker_even_from_a_third_pair() -> None:
    value = hand("Kh Kd 7c 7s 5d 5c 3h")
    assert value.name == "Two pair, kings and sevens"
    assert five(value) == "Kh Kd 7s 7c 5d"
    with_ace = hand("Kh Kd 7c 7s 2d 2c Ac")
    assert five(with_ace) == "Kh Kd 7s 7c Ac"
    assert with_ace.strength > value.strength


def test_three_pairs_play_the_top_two() -> None:
    value = hand("Kh Kd Qc Qs 7d 7c 3h")
    assert value.name == "Two pair, kings and queens"
    assert five(value) == "Kh Kd Qs Qc 7d"


def test_full_house_from_two_sets_of_trips_takes_the_higher_set() -> None:
    value = hand("7h Kd 7c Kh 7s Kc 2d")
    assert value.name == "Full house, kings full of sevens"
    assert five(value) == "Kh Kd Kc 7s 7h"


def test_full_house_fills_with_the_higher_pair() -> None:
    value = hand("7h 7d 7c Qs Qd Kc Kh")
    assert value.name == "Full house, sevens full of kings"
    assert five(value) == "7h 7d 7c Kh Kc"
    assert value.strength < hand("8h 8d 8c 2s 2d 3c 4h").strength


def test_flush_plays_the_best_five_of_six_suited_cards() -> None:
    value = hand("2h 9h Kh 4h Jh 7h As")
    assert value.name == "Flush, king high"
    assert five(value) == "Kh Jh 9h 7h 4h"


def test_straight_flush_inside_a_longer_flush_plays_the_top_run() -> None:
    value = hand("4h 5h 6h 7h 8h 9h 2h")
    assert value.name == "Straight flush, nine high"
    assert five(value) == "9h 8h 7h 6h 5h"


def test_straight_and_flush_in_different_cards_is_only_a_flush() -> None:
    value = hand("5h 6h 7h 8h 9c Ah 2h")
    assert value.name == "Flush, ace high"
    assert five(value) == "Ah 8h 7h 6h 5h"


def test_quads_play_the_highest_kicker() -> None:
    value = hand("Kh Kd Kc Ks 7d 7c Qh")
    assert value.name == "Four of a kind, kings"
    assert five(value) == "Ks Kh Kd Kc Qh"


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("As Ks Qs Js Ts", "Royal flush"),
        ("9c 8c 7c 6c 5c Ad Ah", "Straight flush, nine high"),
        ("Kc Kd Kh Ks 3c 2d 4h", "Four of a kind, kings"),
        ("Kc Kd Kh 7s 7c 2d 4h", "Full house, kings full of sevens"),
        ("Ad 9d 7d 4d 2d Kc Qh", "Flush, ace high"),
        ("Td 9s 8c 7h 6d 2c 2h", "Straight, ten high"),
        ("Ad 2s 3c 4h 5d Kc Kh", "Straight, five high"),
        ("7d 7s 7c Kh 2d 4c 9h", "Three of a kind, sevens"),
        ("Kd Ks 7c 7h 2d 4c 9h", "Two pair, kings and sevens"),
        ("Kd Ks 8c 7h 2d 4c 9h", "Pair of kings"),
        ("Ad Js 8c 7h 2d 4c 9h", "High card, ace"),
        ("2d 2s 3c 3h 4d", "Two pair, threes and deuces"),
        ("6d 6s 6c 6h 5d", "Four of a kind, sixes"),
        ("7d 5s 4c 3h 2d", "High card, seven"),
    ],
)
def test_names_read_like_a_dealer_says_them(cards: str, name: str) -> None:
    assert hand(cards).name == name


def test_category_order_is_the_rulebook_order() -> None:
    ladder = [
        "Ad Js 8c 7h 2d",
        "2d 2s 3c 4h 5s 7d",
        "2d 2s 3c 3h 4d",
        "2d 2s 2c 3h 4d",
        "Ad 2s 3c 4h 5d",
        "2d 3d 4d 5d 7d",
        "2d 2s 2c 3h 3d",
        "2d 2s 2c 2h 3d",
        "Ad 2d 3d 4d 5d",
    ]
    values = [hand(h) for h in ladder]
    assert [v.category for v in values] == list(Category)
    assert [v.strength for v in values] == sorted(v.strength for v in values)


@pytest.mark.parametrize(
    ("cards", "problem"),
    [
        ([0, 1, 2, 3], "5 to 7 cards, got 4"),
        (list(range(8)), "5 to 7 cards, got 8"),
        ([0, 1, 2, 3, 3], "duplicate card 2s"),
        ([0, 1, 2, 3, 52], "not a card: 52"),
        ([0, 1, 2, 3, -1], "not a card: -1"),
        ([0, 1, 2, 3, True], "not a card: True"),  # a bool is an int to Python, not a card
        ([0, 1, 2, 3, 4.0], "not a card: 4.0"),
    ],
)
def test_evaluate_rejects_what_is_not_a_hand(cards: list[int], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        evaluate(cards)


def test_hand_value_is_a_frozen_value() -> None:
    value = hand("Kd Ks 8c 7h 2d")
    assert value == hand("Kd Ks 8c 7h 2d")
    with pytest.raises(AttributeError):
        value.strength = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("cards", "detail"),
    [
        ("Qs Qh Qd Kc 7h 2s 3d", "Three of a kind, queens, kickers king and seven"),
        ("As Ad Kh 9c 4d 2s 3h", "Pair of aces, kickers king, nine and four"),
        ("Ah Ad Kh Kd 9c 2s 3h", "Two pair, aces and kings, kicker nine"),
        ("Ah Jh 9h 6h 3h 2c 2d", "Flush, ace high (A-J-9-6-3)"),
        ("Ah Ad Ac Kh Kd 2s 3h", "Full house, aces full of kings"),
        ("Ah Kd 9c 7s 4d 2s 3h", "High card, ace, kickers king, nine, seven and four"),
    ],
)
def test_detail_names_the_kickers_that_play(cards: str, detail: str) -> None:
    assert evaluate(parse_cards(cards)).detail == detail


# --- The generated table (phevaluator's rank -> our strength) ------------------------------


def test_the_strength_table_is_what_the_generator_makes_now() -> None:
    """poker/strengths.py is generated (python -m tools.strengths): stale, it would rank
    hands with an old table."""
    from poker.strengths import STRENGTH
    from tools.strengths import table

    assert list(STRENGTH) == table()
