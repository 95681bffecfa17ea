"""Card text at the edges, and the shuffle that decides every deal.

The shuffle test counts where each card lands over many seeded shuffles and runs a
chi-square test on the 52x52 card-by-position table. The seed is fixed so the test cannot
flake, the bound is generous, and a deliberately biased shuffle is run through the same
check to prove the check can fail.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from poker.cards import (
    FULL_DECK,
    CardError,
    RandomSource,
    card_str,
    cards_str,
    parse_card,
    parse_cards,
    seeded_rng,
    shuffled_deck,
)

# --- Text -----------------------------------------------------------------------------


def test_every_card_round_trips_through_text() -> None:
    assert [parse_card(card_str(c)) for c in FULL_DECK] == list(FULL_DECK)
    assert len({card_str(c) for c in FULL_DECK}) == 52


def test_card_numbering_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("3c") == 4
    assert parse_card("Ac") == 48
    assert parse_card("As") == 51


def test_a_shuffled_deck_round_trips_through_text() -> None:
    deck = shuffled_deck(seeded_rng(1))
    assert parse_cards(cards_str(deck)) == deck
    assert parse_cards(" ".join(card_str(c) for c in deck)) == deck


def test_card_text_is_case_insensitive_and_spaces_are_optional() -> None:
    assert parse_card("as") == parse_card("AS") == parse_card("As")
    assert parse_cards("AsKd") == parse_cards("as  kd") == [51, 45]
    assert parse_cards("") == []


@pytest.mark.parametrize("text", ["", "A", "Asd", "10s", "1s", "Ax", "sA", "??", "A "])
def test_bad_card_text_raises_card_error_saying_what_a_card_looks_like(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    message = str(caught.value)
    assert repr(text) in message
    assert "2-9TJQKA" in message
    assert "cdhs" in message
    assert isinstance(caught.value, ValueError)


def test_bad_card_list_names_the_text() -> None:
    with pytest.raises(CardError, match="not a list of cards: 'AsK'"):
        parse_cards("AsK")
    with pytest.raises(CardError, match="not a card: 'Kx'"):
        parse_cards("As Kx")


# --- The shuffle ----------------------------------------------------------------------

SHUFFLES = 200_000
# Degrees of freedom for a 52x52 table whose rows and columns all sum to SHUFFLES.
DOF = 51 * 51
# The statistic has mean DOF and standard deviation sqrt(2 * DOF) ~ 72 for a fair shuffle;
# ten standard deviations above is a bound no fair shuffle reaches by chance, while a naive
# swap-with-any-card shuffle scores around 50 times the degrees of freedom at this size.
CHI_SQUARE_BOUND = DOF + 10 * (2 * DOF) ** 0.5


def card_by_position_chi_square(shuffle: Callable[[], list[int]], shuffles: int) -> float:
    """Chi-square statistic of the card-by-position table over ``shuffles`` decks.

    Counting 10 million placements one by one is slow in Python, so each deck is appended to
    one bytes object and each position's column is sliced out and counted in C.
    """
    placements = bytearray()
    for _ in range(shuffles):
        placements += bytes(shuffle())
    table = bytes(placements)
    expected = shuffles / 52
    needles = [bytes([card]) for card in FULL_DECK]
    statistic = 0.0
    for position in range(52):
        column = table[position::52]
        for needle in needles:
            statistic += (column.count(needle) - expected) ** 2 / expected
    return statistic


def naive_swap_shuffle(rng: RandomSource) -> list[int]:
    """The classic bug: swap each position with any of the 52, which favours some orders."""
    deck = list(FULL_DECK)
    for i in range(52):
        j = rng.randrange(52)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def sattolo_shuffle(rng: RandomSource) -> list[int]:
    """The off-by-one bug: draw from ``randrange(i)``, so no card ever stays where it was."""
    deck = list(FULL_DECK)
    for i in range(51, 0, -1):
        j = rng.randrange(i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_shuffle_puts_every_card_in_every_position_equally_often() -> None:
    rng = random.Random(52)
    statistic = card_by_position_chi_square(lambda: shuffled_deck(rng), SHUFFLES)
    assert statistic < CHI_SQUARE_BOUND


def test_the_shuffle_check_catches_a_naive_swap_shuffle() -> None:
    rng = random.Random(52)
    statistic = card_by_position_chi_square(lambda: naive_swap_shuffle(rng), SHUFFLES)
    assert statistic > CHI_SQUARE_BOUND


def test_the_shuffle_check_catches_an_off_by_one_fisher_yates() -> None:
    # A tenth of the shuffles is already plenty for this one.
    rng = random.Random(52)
    statistic = card_by_position_chi_square(lambda: sattolo_shuffle(rng), SHUFFLES // 10)
    assert statistic > CHI_SQUARE_BOUND


def test_shuffle_is_a_permutation_and_leaves_the_full_deck_alone() -> None:
    deck = shuffled_deck(seeded_rng(3))
    assert sorted(deck) == list(FULL_DECK)
    assert deck != list(FULL_DECK)
    assert FULL_DECK == tuple(range(52))


def test_same_seed_deals_the_same_deck() -> None:
    assert shuffled_deck(seeded_rng(9)) == shuffled_deck(seeded_rng(9))
    assert shuffled_deck(seeded_rng(9)) != shuffled_deck(seeded_rng(10))


def test_shuffle_draws_only_through_the_rng_passed_in() -> None:
    """Each draw is randrange(i + 1) for i from 51 down: the unbiased Fisher-Yates bounds."""
    stops: list[int] = []

    class Recording:
        def randrange(self, stop: int, /) -> int:
            stops.append(stop)
            return stop - 1  # always "keep this card": the deck stays in order

    assert shuffled_deck(Recording()) == list(FULL_DECK)
    assert stops == list(range(52, 1, -1))


def test_rank_of_is_0_for_a_deuce_up_to_12_for_an_ace_whatever_the_suit() -> None:
    from poker.cards import rank_of

    assert [rank_of(c) for c in parse_cards("2c 2s 9h Td Kc Ah As")] == [0, 0, 7, 8, 11, 12, 12]


def test_the_fast_shuffle_deals_what_randrange_deals_from_the_same_stream() -> None:
    """``shuffled_deck`` draws bits itself for ``random.Random`` (issue 29): the deck must
    be the one the plain ``randrange`` Fisher-Yates deals from the same state, and the RNG
    must be left in the same state, or a stored night's seat draws would replay apart."""

    class Plain(random.Random):
        def randrange(self, *args: int) -> int:  # type: ignore[override]  # forces the plain path
            return super().randrange(*args)

    for seed in range(200):
        fast, plain = random.Random(seed), Plain(seed)
        assert shuffled_deck(fast) == shuffled_deck(plain), seed
        assert fast.getstate() == plain.getstate(), seed


def test_below_draws_what_randrange_draws_and_leaves_the_stream_where_it_would() -> None:
    """``below`` hands out ``random.Random``'s ``_randbelow`` (issue 29: the seat draw's
    shuffles); the draws and the RNG's state after them must be randrange's, and an RNG
    with its own ``randrange`` keeps it (the fair seat draw's ``DrawStream``)."""
    from poker.cards import below

    for seed in range(100):
        fast, plain = random.Random(seed), random.Random(seed)
        draw = below(fast)
        stops = [1, 2, 3, 7, 9, 10, 52, 100, 2**40 + 3]
        assert [draw(n) for n in stops] == [plain.randrange(n) for n in stops], seed
        assert fast.getstate() == plain.getstate(), seed

    class Own:
        def randrange(self, stop: int, /) -> int:
            return stop - 1

    assert below(Own())(9) == 8
