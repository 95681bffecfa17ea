"""The rulebook, one rule per test.

Each test is named after a rule of the Hickory rulebook (shared/seeds/000_...txt) or of
our reading of it (shared/rules/interpretation.md, sections 2-5 and the chip rules of 1),
and plays it out on a stacked deck so every card, seat and chip amount is certain.
Choices where both are silent and we follow the Poker TDA are marked "(TDA)"; they are
written up in docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

import pytest

from poker.actions import Action, ActionKind, IllegalAction, LegalActions, Ruleset
from poker.cards import FULL_DECK, Card, parse_cards
from poker.events import (
    ActionTaken,
    BlindPosted,
    BoardDealt,
    HandEnded,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Street,
    UncalledBetReturned,
    visible_to,
)
from poker.hand import Hand
from poker.levels import DEFAULT_SCHEDULE, level_at
from poker.table import Table
from poker.views import view_for
from server.tournament.settings import Settings

# --- Stacked decks and small helpers ----------------------------------------------------

BOARD = "2c 7d 9h Js 3s"  # no straight or flush draws for the pairs used below


def deal_order(seats: Sequence[int], button: int) -> list[int]:
    """Seats in dealing order: one at a time starting left of the button."""
    ordered = sorted(seats)
    i = ordered.index(button)
    return ordered[i + 1 :] + ordered[: i + 1]


def stacked_deck(
    seats: Sequence[int],
    button: int,
    holes: Mapping[int, str],
    board: str = "",
    burns: str = "",
) -> list[Card]:
    """A deck that deals ``holes`` and ``board`` (burning ``burns``) the way the rules do.

    Cards not named fill the remaining places in deck order, so the whole order is known.
    """
    order = deal_order(seats, button)
    parsed = {s: parse_cards(h) for s, h in holes.items()}
    slots: list[Card | None] = [
        parsed[s][i] if s in parsed else None for i in range(2) for s in order
    ]
    b: list[Card | None] = list(parse_cards(board)) + [None] * (5 - len(parse_cards(board)))
    u: list[Card | None] = list(parse_cards(burns)) + [None] * (3 - len(parse_cards(burns)))
    slots += [u[0], b[0], b[1], b[2], u[1], b[3], u[2], b[4]]
    named = [c for c in slots if c is not None]
    assert len(named) == len(set(named)), "a card named twice in a stacked deck"
    rest = iter([c for c in FULL_DECK if c not in named])
    deck = [c if c is not None else next(rest) for c in slots]
    deck += list(rest)
    assert sorted(deck) == list(FULL_DECK)
    return deck


def new_hand(
    stacks: Mapping[int, int],
    *,
    button: int,
    holes: Mapping[int, str] | None = None,
    board: str = "",
    burns: str = "",
    small_blind: int = 100,
    big_blind: int = 200,
    carried_in: int = 0,
    ruleset: Ruleset = Ruleset.HICKORY,
) -> Hand:
    seats = sorted(stacks)
    return Hand(
        hand_no=1,
        seats=[(s, stacks[s]) for s in seats],
        button=button,
        small_blind=small_blind,
        big_blind=big_blind,
        deck=stacked_deck(seats, button, holes or {}, board, burns),
        carried_in=carried_in,
        ruleset=ruleset,
    )


def play(hand: Hand, *moves: tuple[int, Action]) -> None:
    """Apply moves in order, checking each is made by the player whose turn it is."""
    for seat, action in moves:
        assert hand.to_act == seat, f"expected seat {seat} to act, seat {hand.to_act} is"
        hand.act(seat, action)


def legal(hand: Hand) -> LegalActions:
    la = hand.legal_actions()
    assert la is not None
    return la


def refused(hand: Hand, seat: int, action: Action) -> IllegalAction:
    """The error an action gets; the hand must be exactly as it was."""
    before = (len(hand.events), hand.legal_actions(), hand.to_act, hand.total_chips())
    with pytest.raises(IllegalAction) as info:
        hand.act(seat, action)
    assert (len(hand.events), hand.legal_actions(), hand.to_act, hand.total_chips()) == before
    return info.value


def check_down(hand: Hand) -> None:
    """Every remaining decision is a check, to the showdown."""
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.act(seat, Action.check())


def final_stacks(hand: Hand) -> dict[int, int]:
    assert hand.result is not None
    return dict(hand.result.stacks)


T = TypeVar("T")


def events_of(hand: Hand, kind: type[T]) -> list[T]:
    return [e for e in hand.events if isinstance(e, kind)]


C = Action.call
X = Action.check
F = Action.fold
R = Action.raise_to
B = Action.bet
ALL_IN = Action.all_in

# --- 1. Chips ---------------------------------------------------------------------------


def test_everyone_starts_with_10000_chips_and_hickory_rules_by_default() -> None:
    settings = Settings()
    assert settings.starting_stack == 10_000
    assert settings.ruleset is Ruleset.HICKORY
    assert (settings.level_minutes, settings.hands_per_level) == (20.0, None)


def test_blinds_start_at_100_200_and_rise_by_the_default_schedule_then_double() -> None:
    assert DEFAULT_SCHEDULE == (
        (100, 200), (150, 300), (200, 400), (300, 600), (400, 800), (500, 1000),
        (700, 1400), (1000, 2000), (1500, 3000), (2000, 4000), (3000, 6000),
        (4000, 8000), (6000, 12000), (8000, 16000), (10000, 20000),
    )
    assert level_at(0) == (100, 200)
    assert [level_at(i) for i in (14, 15, 16)] == [(10000, 20000), (20000, 40000), (40000, 80000)]
    assert level_at(3, ((5, 10), (10, 20))) == (40, 80)  # two levels past the end: x4
    assert level_at(4, ((5, 10), (10, 20))) == (80, 160)  # three: x8
    with pytest.raises(ValueError, match="^level index must be 0 or more, not -1$"):
        level_at(-1)
    with pytest.raises(ValueError, match="^a blind schedule needs at least one level$"):
        level_at(0, ())


def test_chips_are_whole_numbers() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    err = refused(hand, 1, Action(kind=ActionKind.RAISE, amount=450.5))  # type: ignore[arg-type]
    assert err.message == "raise needs a whole-chip amount (the total to raise to)"
    err = refused(hand, 1, Action(kind=ActionKind.RAISE, amount=None))
    assert err.message == "raise needs a whole-chip amount (the total to raise to)"


@pytest.mark.parametrize(
    ("seats", "button", "blinds", "message"),
    [
        ([(1, 1000)], 1, (100, 200), "a hand needs at least two players"),
        ([(1, 1000), (2, 0)], 1, (100, 200), "every player dealt in must have chips"),
        ([(1, 1000), (2, -5)], 1, (100, 200), "every player dealt in must have chips"),
        ([(1, 1000), (1, 500)], 1, (100, 200), "two players in one seat"),
        ([(1, 1000), (2, 1000)], 1, (0, 200), "blinds must satisfy 0 < small blind <= big blind"),
        ([(1, 1000), (2, 1000)], 1, (300, 200), "blinds must satisfy 0 < small blind <= big blind"),
        ([(1, 1000), (2, 1000)], 3, (100, 200), "the button seat 3 has no player in this hand"),
    ],
)
def test_a_hand_that_cannot_be_dealt_is_refused_with_the_reason(
    seats: list[tuple[int, int]], button: int, blinds: tuple[int, int], message: str
) -> None:
    with pytest.raises(ValueError) as info:
        Hand(hand_no=1, seats=seats, button=button, small_blind=blinds[0], big_blind=blinds[1],
             deck=list(FULL_DECK))
    assert str(info.value) == message


def test_a_hand_may_have_blinds_of_one_size() -> None:
    hand = Hand(hand_no=1, seats=[(1, 1000), (2, 1000)], button=1, small_blind=100,
                big_blind=100, deck=list(FULL_DECK))
    assert [b.amount for b in events_of(hand, BlindPosted)] == [100, 100]


def test_chips_are_conserved_through_a_hand() -> None:
    hand = new_hand({1: 10000, 2: 3000, 3: 500}, button=1, carried_in=3)
    assert hand.total_chips() == 13503
    play(hand, (1, R(600)), (2, ALL_IN()), (3, C()), (1, C()))
    assert hand.is_over
    assert hand.result is not None
    assert sum(final_stacks(hand).values()) + hand.result.carried_out == 13503
    assert hand.total_chips() == 13503


def test_chips_carried_out_count_in_the_finished_hands_total() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1, holes={1: "2c3d", 2: "4c4d", 3: "2d3c"},
                    board="As Ks Qs Js Ts", small_blind=75, big_blind=150)
    play(hand, (1, C()), (2, F()), (3, X()))
    check_down(hand)
    assert hand.result is not None and hand.result.carried_out == 1
    assert hand.total_chips() == 30000 and sum(final_stacks(hand).values()) == 29999


# --- 2. Button, blinds, deal --------------------------------------------------------------


def test_small_blind_is_left_of_button_and_big_blind_next() -> None:
    hand = new_hand({2: 10000, 4: 10000, 7: 10000}, button=7)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (2, 4)
    blinds = events_of(hand, BlindPosted)
    assert [(b.seat, b.blind, b.amount) for b in blinds] == [(2, "small", 100), (4, "big", 200)]
    assert (hand.stack(2), hand.stack(4), hand.stack(7)) == (9900, 9800, 10000)


def test_blinds_wrap_around_the_table() -> None:
    hand = new_hand({1: 10000, 5: 10000, 9: 10000}, button=5)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (9, 1)
    assert hand.to_act == 5


def test_heads_up_button_posts_small_blind_and_acts_first_preflop() -> None:
    hand = new_hand({3: 10000, 8: 10000}, button=8)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (8, 3)
    assert hand.to_act == 8
    assert legal(hand).call == 100


def test_heads_up_big_blind_acts_first_after_the_flop() -> None:
    hand = new_hand({3: 10000, 8: 10000}, button=8)
    play(hand, (8, C()), (3, X()))
    assert hand.street is Street.FLOP and hand.to_act == 3
    play(hand, (3, X()), (8, X()))
    assert hand.street is Street.TURN and hand.to_act == 3
    play(hand, (3, X()), (8, X()))
    assert hand.street is Street.RIVER and hand.to_act == 3


def test_short_blind_is_all_in() -> None:
    hand = new_hand({1: 10000, 2: 60, 3: 150}, button=1)
    blinds = events_of(hand, BlindPosted)
    assert [(b.seat, b.amount, b.all_in) for b in blinds] == [(2, 60, True), (3, 150, True)]
    assert hand.stack(2) == 0 and hand.stack(3) == 0


def test_short_big_blind_bet_to_match_stays_the_full_big_blind() -> None:
    # (TDA) The big blind is all-in for 150; the others still owe the full 200.
    hand = new_hand({1: 10000, 2: 10000, 3: 150}, button=1)
    la = legal(hand)
    assert (la.call, la.current_bet, la.min_raise_to) == (200, 200, 400)
    play(hand, (1, C()), (2, C()))
    # The big blind is all-in: the round is over; 50 from each caller forms a side pot.
    assert hand.street is Street.FLOP and hand.to_act == 2
    pots = hand.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(450, (1, 2, 3)), (100, (1, 2))]


def test_all_in_big_blind_wins_only_what_it_matched() -> None:
    # Heads-up, the big blind has 50: the button's small blind of 100 already covers it,
    # so nobody is asked to act (there is nothing anyone could match) and the 50 the big
    # blind cannot match goes back.
    hand = new_hand(
        {1: 10000, 2: 50}, button=1,
        holes={1: "KhKd", 2: "AhAd"}, board=BOARD,
    )
    assert hand.is_over
    assert events_of(hand, UncalledBetReturned) == [UncalledBetReturned(seat=1, amount=50)]
    assert final_stacks(hand) == {1: 9950, 2: 100}


def test_call_is_capped_at_what_the_short_all_in_big_blind_can_match() -> None:
    # Heads-up, the big blind is all-in for 150: the button owes 50 more, not 100.
    hand = new_hand({1: 10000, 2: 150}, button=1, holes={1: "KhKd", 2: "AhAd"}, board=BOARD)
    la = legal(hand)
    assert (la.call, la.min_raise_to) == (50, None)  # nobody left to raise against
    play(hand, (1, C()))
    assert final_stacks(hand) == {1: 9850, 2: 300}


def test_call_cap_three_handed_once_only_the_short_big_blind_is_left_to_match() -> None:
    # The button folds; the small blind faces a big blind all-in for 150: completing to
    # 150 (50 more) is the whole call, and there is no one left to raise against.
    hand = new_hand({1: 10000, 2: 10000, 3: 150}, button=1, holes={2: "KhKd", 3: "AhAd"}, board=BOARD)
    play(hand, (1, F()))
    la = legal(hand)
    assert (la.seat, la.call, la.to_call, la.min_raise_to, la.max_raise_to) == (2, 50, 50, None, None)
    play(hand, (2, C()))
    assert final_stacks(hand) == {1: 10000, 2: 9850, 3: 300}
    # While another player could still cover the full blind, the call is the full blind.
    hand = new_hand({1: 10000, 2: 10000, 3: 150}, button=1)
    assert legal(hand).call == 200
    play(hand, (1, C()))
    assert (legal(hand).seat, legal(hand).call) == (2, 100)


def test_chips_no_one_still_in_could_match_go_back_to_who_put_them_in() -> None:
    # The big blind is all-in for 50 and can win only 50 from each player: when the small
    # blind folds, the 50 of its blind that no one still in matched is returned to it.
    hand = new_hand({1: 10000, 2: 10000, 3: 50}, button=1)
    play(hand, (1, F()))
    assert hand.is_over  # the small blind already covers the all-in: nothing to decide
    assert events_of(hand, UncalledBetReturned) == [UncalledBetReturned(seat=2, amount=50)]
    (pot,) = events_of(hand, PotAwarded)
    assert (pot.amount, pot.winners) == (100, ((3, 100),))
    assert final_stacks(hand) == {1: 10000, 2: 9950, 3: 100}


def test_deal_order_one_card_at_a_time_from_left_of_button() -> None:
    deck = parse_cards("Ac Kc Qc Jc Tc 9c 8c 7c") + [
        c for c in FULL_DECK if c not in parse_cards("AcKcQcJcTc9c8c7c")
    ]
    hand = Hand(
        hand_no=1, seats=[(1, 10000), (2, 10000), (3, 10000), (4, 10000)], button=2,
        small_blind=100, big_blind=200, deck=deck,
    )
    dealt = events_of(hand, HoleCardsDealt)
    # Left of button 2: seats 3, 4, 1, 2. First card to each in turn, then the second.
    assert [(e.seat, e.cards) for e in dealt] == [
        (3, tuple(parse_cards("AcTc"))),
        (4, tuple(parse_cards("Kc9c"))),
        (1, tuple(parse_cards("Qc8c"))),
        (2, tuple(parse_cards("Jc7c"))),
    ]


def test_heads_up_deal_starts_left_of_button_with_the_big_blind() -> None:
    deck = parse_cards("Ac Kc Qc Jc") + [c for c in FULL_DECK if c not in parse_cards("AcKcQcJc")]
    hand = Hand(
        hand_no=1, seats=[(1, 10000), (2, 10000)], button=1,
        small_blind=100, big_blind=200, deck=deck,
    )
    assert hand.hole_cards(2) == tuple(parse_cards("AcQc"))  # big blind, left of button
    assert hand.hole_cards(1) == tuple(parse_cards("KcJc"))  # button


def test_burn_before_flop_turn_river() -> None:
    order = "As Ks Qs Js Ts 9s  2c  3c 4c 5c  2d  6c  2h  7c"
    named = parse_cards(order)
    deck = named + [c for c in FULL_DECK if c not in named]
    hand = Hand(
        hand_no=1, seats=[(1, 10000), (2, 10000), (3, 10000)], button=3,
        small_blind=100, big_blind=200, deck=deck,
    )
    check_down_after_calls(hand)
    flop, turn, river = events_of(hand, BoardDealt)
    assert flop.cards == tuple(parse_cards("3c4c5c"))  # 2c burned
    assert turn.cards == tuple(parse_cards("6c"))  # 2d burned
    assert river.cards == tuple(parse_cards("7c"))  # 2h burned
    assert hand.board == parse_cards("3c4c5c6c7c")
    burned = set(parse_cards("2c2d2h"))
    for e in hand.events:
        for attr in ("cards", "board"):
            assert not burned & set(getattr(e, attr, ()))


def check_down_after_calls(hand: Hand) -> None:
    """Everyone calls the big blind, then checks to the end."""
    while not hand.is_over:
        la = legal(hand)
        hand.act(la.seat, X() if la.check else C())


# --- 3. Order of action ------------------------------------------------------------------


def test_player_left_of_big_blind_acts_first_preflop() -> None:
    hand = new_hand({s: 10000 for s in range(1, 7)}, button=1)
    assert (hand.small_blind_seat, hand.big_blind_seat, hand.to_act) == (2, 3, 4)
    # Three-handed the button is left of the big blind, so the button acts first.
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    assert hand.to_act == 1


def test_big_blind_has_option_when_unraised() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    play(hand, (1, C()), (2, C()))
    la = legal(hand)
    assert la.seat == 3
    assert (la.check, la.fold, la.call, la.min_raise_to, la.max_raise_to) == (
        True, False, None, 400, 10000,
    )
    play(hand, (3, R(600)))
    assert hand.street is Street.PREFLOP and hand.to_act == 1


def test_big_blind_check_closes_the_round() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    play(hand, (1, C()), (2, C()), (3, X()))
    assert hand.street is Street.FLOP and len(hand.board) == 3


def test_blinds_can_call_raise_or_fold_when_betting_returns() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    play(hand, (1, R(600)))
    la = legal(hand)
    assert (la.seat, la.fold, la.call, la.min_raise_to) == (2, True, 500, 800)
    play(hand, (2, C()))
    la = legal(hand)
    assert (la.seat, la.fold, la.call, la.min_raise_to) == (3, True, 400, 800)


def test_first_live_player_left_of_button_acts_first_on_flop() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000, 4: 10000}, button=1)
    play(hand, (4, C()), (1, C()), (2, F()), (3, X()))
    assert hand.street is Street.FLOP
    assert hand.to_act == 3  # the small blind (2) folded; the big blind is first still in


def test_turn_and_river_betting_begins_left_of_button_as_before() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000, 4: 10000}, button=1)
    play(hand, (4, C()), (1, C()), (2, C()), (3, X()))
    play(hand, (2, X()), (3, X()), (4, B(200)), (1, C()), (2, F()), (3, C()))
    assert hand.street is Street.TURN and hand.to_act == 3
    play(hand, (3, X()), (4, X()), (1, X()))
    assert hand.street is Street.RIVER and hand.to_act == 3


def test_all_in_player_is_passed_over_in_the_order_of_action() -> None:
    hand = new_hand({1: 10000, 2: 200, 3: 10000}, button=1)
    play(hand, (1, C()), (2, C()))  # the small blind calls all-in
    assert hand.to_act == 3
    play(hand, (3, X()))
    assert hand.street is Street.FLOP and hand.to_act == 3  # seat 2 is all-in


# --- 4. Bets and raises ------------------------------------------------------------------


def _to_flop(ruleset: Ruleset = Ruleset.HICKORY, **stacks: int) -> Hand:
    """Three players, button 1, everyone sees the flop for the big blind; seat 2 acts first."""
    s = {1: 10000, 2: 10000, 3: 10000}
    s.update({int(k[1:]): v for k, v in stacks.items()})
    hand = new_hand(s, button=1, ruleset=ruleset)
    play(hand, (1, C()), (2, C()), (3, X()))
    assert hand.street is Street.FLOP and hand.to_act == 2
    return hand


def test_bet_must_be_at_least_big_blind() -> None:
    hand = _to_flop()
    la = legal(hand)
    assert la.is_bet and (la.min_raise_to, la.max_raise_to) == (200, 9800)
    err = refused(hand, 2, B(150))
    assert err.message == "bet 150 is below the minimum bet of 200 (big blind 200)"
    play(hand, (2, B(200)))
    assert hand.current_bet == 200


def test_raise_is_stated_as_raise_to_a_total() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    play(hand, (1, R(600)), (2, R(1000)))
    taken = events_of(hand, ActionTaken)[-1]
    assert (taken.seat, taken.action, taken.amount, taken.to) == (2, ActionKind.RAISE, 900, 1000)


def test_min_raise_is_big_blind_in_hickory() -> None:
    # At 100/200, facing a raise to 1000, the minimum raise is to 1200 (adds the big blind).
    hand = new_hand({1: 10000, 2: 10000, 3: 10000, 4: 10000}, button=1)
    assert legal(hand).min_raise_to == 400
    play(hand, (4, R(1000)))
    assert legal(hand).min_raise_to == 1200
    err = refused(hand, 1, R(1199))
    assert err.message == "raise to 1199 is below the minimum raise to 1200 (big blind 200)"
    play(hand, (1, R(1200)))
    assert legal(hand).min_raise_to == 1400


def test_standard_ruleset_min_raise_is_largest_increment() -> None:
    # Facing a raise to 1000 (by 800), the minimum raise is to 1800 under `standard`.
    hand = new_hand({1: 10000, 2: 10000, 3: 10000, 4: 10000}, button=1, ruleset=Ruleset.STANDARD)
    assert legal(hand).min_raise_to == 400  # never less than the big blind
    play(hand, (4, R(1000)))
    assert legal(hand).min_raise_to == 1800
    refused(hand, 1, R(1799))
    play(hand, (1, R(1800)))
    assert legal(hand).min_raise_to == 2600


def test_standard_ruleset_min_raise_after_a_bet_on_the_flop() -> None:
    hand = _to_flop(Ruleset.STANDARD)
    play(hand, (2, B(500)))
    assert legal(hand).min_raise_to == 1000
    hand = _to_flop(Ruleset.HICKORY)
    play(hand, (2, B(500)))
    assert legal(hand).min_raise_to == 700


def test_no_cap_on_the_number_of_raises() -> None:
    hand = new_hand({1: 100000, 2: 100000}, button=1)
    to = 200
    for i in range(20):
        to += 200
        seat = 1 if i % 2 == 0 else 2
        play(hand, (seat, R(to)))
    assert hand.current_bet == 4200 and hand.street is Street.PREFLOP


def test_short_all_in_may_be_below_minimum() -> None:
    # An opening bet below the big blind, all-in.
    hand = _to_flop(s2=350)  # 150 behind on the flop
    la = legal(hand)
    assert (la.min_raise_to, la.max_raise_to) == (150, 150)
    play(hand, (2, B(150)))
    taken = events_of(hand, ActionTaken)[-1]
    assert (taken.amount, taken.all_in) == (150, True)
    # A raise below the minimum raise, all-in.
    hand = _to_flop(s3=500)  # 300 behind
    play(hand, (2, B(200)))
    la = legal(hand)
    assert (la.min_raise_to, la.max_raise_to) == (300, 300)
    err = refused(hand, 3, R(250))
    assert err.message == (
        "raise to 250 is below the minimum raise to 300 (big blind 200); all-in is the only raise"
    )
    play(hand, (3, R(300)))
    assert hand.current_bet == 300
    # A call for less than the bet, all-in.
    hand = _to_flop(s3=500)
    play(hand, (2, B(1000)))
    assert legal(hand).call == 300
    play(hand, (3, C()))
    taken = events_of(hand, ActionTaken)[-1]
    assert (taken.amount, taken.to, taken.all_in) == (300, 300, True)


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_short_all_in_raise_does_not_reopen_betting(ruleset: Ruleset) -> None:
    hand = _to_flop(ruleset, s3=550)  # seat 3 has 350 behind on the flop
    play(hand, (2, B(200)), (3, ALL_IN()))  # raise to 350 adds 150: less than a full raise
    assert events_of(hand, ActionTaken)[-1].to == 350
    la = legal(hand)
    assert la.seat == 1 and la.min_raise_to is not None  # seat 1 has not acted: may raise
    play(hand, (1, C()))
    la = legal(hand)  # seat 2 bet, and now faces only the short all-in
    assert (la.seat, la.fold, la.call, la.min_raise_to, la.max_raise_to) == (2, True, 150, None, None)
    err = refused(hand, 2, R(800))
    assert err.message == (
        "you cannot raise: a short all-in did not reopen the betting to you; call or fold"
    )
    play(hand, (2, C()))
    assert hand.street is Street.TURN


@pytest.mark.parametrize(("ruleset", "min_raise_to"), [(Ruleset.HICKORY, 1200), (Ruleset.STANDARD, 1800)])
def test_full_all_in_raise_reopens_betting(ruleset: Ruleset, min_raise_to: int) -> None:
    hand = _to_flop(ruleset, s3=1200)  # seat 3 has 1000 behind
    play(hand, (2, B(200)), (3, ALL_IN()), (1, C()))
    la = legal(hand)
    assert (la.seat, la.call, la.min_raise_to) == (2, 800, min_raise_to)


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_short_all_in_does_not_reopen_betting_to_the_raiser(ruleset: Ruleset) -> None:
    hand = new_hand({1: 700, 2: 10000, 3: 10000, 4: 10000}, button=1, ruleset=ruleset)
    play(hand, (4, R(600)), (1, ALL_IN()), (2, C()), (3, C()))  # 700: only 100 more
    la = legal(hand)
    assert (la.seat, la.call, la.min_raise_to) == (4, 100, None)


@pytest.mark.parametrize(("ruleset", "reopened"), [(Ruleset.HICKORY, True), (Ruleset.STANDARD, False)])
def test_short_all_ins_adding_up_to_a_full_raise_reopen_betting(
    ruleset: Ruleset, reopened: bool
) -> None:
    # (TDA) Two short all-ins add 200 to the raise to 600: a full raise in hickory (the big
    # blind), not in standard (the last raise added 400).
    hand = new_hand({1: 800, 2: 10000, 3: 10000, 4: 10000, 5: 700}, button=1, ruleset=ruleset)
    play(hand, (4, R(600)), (5, ALL_IN()), (1, ALL_IN()), (2, C()), (3, F()))
    la = legal(hand)
    assert (la.seat, la.call) == (4, 200)
    assert (la.min_raise_to is not None) is reopened


def test_raise_when_every_opponent_is_all_in_is_refused() -> None:
    # (TDA) There is no one left to bet against.
    hand = new_hand({1: 10000, 2: 1000}, button=1)
    play(hand, (1, R(400)), (2, ALL_IN()))
    la = legal(hand)
    assert (la.seat, la.call, la.min_raise_to) == (1, 600, None)
    err = refused(hand, 1, R(2000))
    assert err.message == "you cannot raise: no other player has chips to call a raise; call or fold"


def test_raise_no_other_player_could_call_is_refused() -> None:
    # (TDA) Seat 1 is all-in for 1000; the big blind has only 800 in all: nobody could
    # put a chip against a raise, so the small blind may only call or fold.
    hand = new_hand({1: 1000, 2: 10000, 3: 800}, button=1)
    play(hand, (1, ALL_IN()))
    la = legal(hand)
    assert (la.seat, la.call, la.min_raise_to, la.max_raise_to) == (2, 900, None, None)
    err = refused(hand, 2, R(3000))
    assert err.message == "you cannot raise: no other player has chips to call a raise; call or fold"
    play(hand, (2, C()), (3, C()))
    assert hand.is_over


def test_folding_when_check_is_free_is_refused() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    play(hand, (1, C()), (2, C()))
    assert legal(hand).fold is False
    err = refused(hand, 3, F())
    assert err.message == "folding is refused when you can check for free; check instead"
    assert err.code == "illegal_action"
    hand = _to_flop()
    refused(hand, 2, F())


def test_error_text_raise_below_minimum() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    err = refused(hand, 1, R(250))
    assert err.message == "raise to 250 is below the minimum raise to 400 (big blind 200)"
    assert str(err) == err.message


def test_check_facing_bet_refused() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    err = refused(hand, 1, X())
    assert err.message == "cannot check facing a bet: call 200, raise or fold"


def test_call_with_nothing_to_call_refused() -> None:
    hand = _to_flop()
    err = refused(hand, 2, C())
    assert err.message == "nothing to call: check or bet"


def test_bet_facing_a_bet_and_raise_with_no_bet_refused() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    err = refused(hand, 1, B(400))
    assert err.message == "there is a bet of 200 to you: fold, call 200, raise to 400..10000"
    assert err.field == "action"
    hand = _to_flop()
    err = refused(hand, 2, R(400))
    assert err.message == "there is no bet to raise: check, bet 200..9800"


def test_the_big_blinds_option_takes_a_bet_as_the_raise_it_is() -> None:
    """Limped to the big blind: nothing to call (legal.call is None), so "bet" is what a
    player reading the legal actions sends; it raises the blind."""
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    hand.act(1, C())
    hand.act(2, C())
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3 and legal.call is None and legal.check
    assert (legal.min_raise_to, legal.max_raise_to) == (400, 10000)
    err = refused(hand, 3, B(300))
    assert err.message.startswith("raise to 300 is below the minimum raise to 400") and err.field == "amount"
    (taken,) = [e for e in hand.act(3, B(600)) if isinstance(e, ActionTaken)]
    assert (taken.action, taken.to, taken.amount) == (ActionKind.RAISE, 600, 400)


def test_raise_beyond_the_stack_refused() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    err = refused(hand, 1, R(10001))
    assert err.message == "raise to 10001 is more than you have: the most is 10000 (all-in)"


def test_not_your_turn() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    err = refused(hand, 3, X())
    assert err.code == "not_your_turn"
    assert err.message == "not your turn: seat 1 is to act"
    err = refused(hand, 9, F())  # not even at the table
    assert err.code == "not_your_turn"


def test_no_action_after_the_hand_is_over() -> None:
    hand = new_hand({1: 10000, 2: 10000}, button=1)
    play(hand, (1, F()))
    err = refused(hand, 2, X())
    assert (err.code, err.message) == ("hand_over", "hand #1 is over")


def test_timeout_action_checks_if_free_else_folds() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    assert legal(hand).timeout_action() == F()
    play(hand, (1, C()), (2, C()))
    assert legal(hand).timeout_action() == X()


def test_automatic_actions_are_marked() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    hand.act(1, legal(hand).timeout_action(), automatic=True)
    hand.act(2, C())
    first, second = events_of(hand, ActionTaken)
    assert (first.seat, first.action, first.automatic) == (1, ActionKind.FOLD, True)
    assert (second.seat, second.automatic) == (2, False)


def test_all_in_action_is_a_raise_to_the_stack_or_a_call() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    assert legal(hand).all_in_action() == R(10000)
    play(hand, (1, ALL_IN()))
    taken = events_of(hand, ActionTaken)[-1]
    assert (taken.action, taken.to, taken.all_in) == (ActionKind.RAISE, 10000, True)
    hand = new_hand({1: 10000, 2: 10000, 3: 5000}, button=1)
    play(hand, (1, ALL_IN()), (2, F()))
    assert legal(hand).all_in_action() == C()
    play(hand, (3, ALL_IN()))
    taken = events_of(hand, ActionTaken)[-1]
    assert (taken.action, taken.amount, taken.all_in) == (ActionKind.CALL, 4800, True)


# --- 5. All-in, pots, showdown ------------------------------------------------------------


def test_side_pot_only_contributors_eligible() -> None:
    hand = new_hand(
        {1: 1000, 2: 3000, 3: 5000}, button=1,
        holes={1: "AhAd", 2: "KhKd", 3: "QhQd"}, board=BOARD,
    )
    play(hand, (1, ALL_IN()), (2, ALL_IN()), (3, C()))
    main, side = events_of(hand, PotAwarded)
    assert (main.amount, main.eligible, main.winners) == (3000, (1, 2, 3), ((1, 3000),))
    assert (side.amount, side.eligible, side.winners) == (4000, (2, 3), ((2, 4000),))
    assert final_stacks(hand) == {1: 3000, 2: 4000, 3: 2000}


def test_multiple_side_pots() -> None:
    hand = new_hand(
        {1: 500, 2: 1500, 3: 6000, 4: 3000}, button=4,
        holes={1: "AhAd", 2: "KhKd", 3: "5h5d", 4: "QhQd"}, board=BOARD,
    )
    play(hand, (3, ALL_IN()), (4, C()), (1, C()), (2, C()))
    # Seat 3's 6000 is called only up to 3000: the rest comes back.
    assert events_of(hand, UncalledBetReturned) == [UncalledBetReturned(seat=3, amount=3000)]
    pots = [(p.amount, p.eligible, p.winners) for p in events_of(hand, PotAwarded)]
    assert pots == [
        (2000, (1, 2, 3, 4), ((1, 2000),)),
        (3000, (2, 3, 4), ((2, 3000),)),
        (3000, (3, 4), ((4, 3000),)),
    ]
    assert final_stacks(hand) == {1: 2000, 2: 3000, 3: 3000, 4: 3000}


def test_folded_chips_stay_in_the_pot() -> None:
    hand = new_hand(
        {1: 10000, 2: 10000, 3: 10000}, button=1,
        holes={1: "AhAd", 2: "KhKd", 3: "QhQd"}, board=BOARD,
    )
    play(hand, (1, R(600)), (2, C()), (3, F()))
    play(hand, (2, B(1000)), (1, C()))
    check_down(hand)
    (pot,) = events_of(hand, PotAwarded)
    assert (pot.amount, pot.eligible, pot.winners) == (3400, (1, 2), ((1, 3400),))


def test_uncalled_bet_returned() -> None:
    hand = new_hand({1: 10000, 2: 10000}, button=1)
    play(hand, (1, R(600)), (2, F()))
    assert events_of(hand, UncalledBetReturned) == [UncalledBetReturned(seat=1, amount=400)]
    assert final_stacks(hand) == {1: 10200, 2: 9800}
    (pot,) = events_of(hand, PotAwarded)
    assert (pot.amount, pot.winners, pot.hand_name) == (400, ((1, 400),), None)
    # After the flop: a bet nobody calls comes back whole.
    hand = new_hand({1: 10000, 2: 10000}, button=1)
    play(hand, (1, C()), (2, X()), (2, B(1000)), (1, F()))
    assert events_of(hand, UncalledBetReturned) == [UncalledBetReturned(seat=2, amount=1000)]
    assert final_stacks(hand) == {1: 9800, 2: 10200}


def test_walk_returns_the_big_blinds_uncalled_half() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1)
    play(hand, (1, F()), (2, F()))
    assert events_of(hand, UncalledBetReturned) == [UncalledBetReturned(seat=3, amount=100)]
    assert final_stacks(hand) == {1: 10000, 2: 9900, 3: 10100}


def test_odd_chip_stays_in_pot_for_next_hand() -> None:
    table = Table(table_id=1, seat_count=9)
    for seat in (1, 2, 3):
        table.sit(seat, f"p{seat}", 10000)
    deck = stacked_deck(
        [1, 2, 3], 1, {1: "2c3d", 2: "4c4d", 3: "2d3c"}, board="As Ks Qs Js Ts"
    )
    hand = table.start_hand(hand_no=1, deck=deck, small_blind=75, big_blind=150, button=1)
    play(hand, (1, C()), (2, F()), (3, X()))
    check_down(hand)
    (pot,) = events_of(hand, PotAwarded)
    # 375 split two ways: 187 each, and the odd chip stays in the pot.
    assert (pot.amount, pot.winners, pot.remainder) == (375, ((1, 187), (3, 187)), 1)
    assert hand.result is not None and hand.result.carried_out == 1
    assert events_of(hand, HandEnded)[0].carried_out == 1
    assert final_stacks(hand) == {1: 10037, 2: 9925, 3: 10037}
    table.finish_hand()
    assert table.carry == 1 and table.total_chips() == 30000
    # The next hand at the table starts with the chip in its main pot.
    nxt = table.start_hand(
        hand_no=2, deck=stacked_deck([1, 2, 3], 2, {}), small_blind=75, big_blind=150
    )
    assert (nxt.button, nxt.carried_in, table.carry) == (2, 1, 0)
    assert nxt.pots()[0].amount == 75 + 75 + 1  # the blinds' matched part, and the carry
    assert sum(p.amount for p in nxt.pots()) == 75 + 150 + 1
    play(nxt, (2, F()), (3, F()))
    (pot,) = events_of(nxt, PotAwarded)
    assert (pot.amount, pot.winners) == (151, ((1, 151),))
    table.finish_hand()
    assert {s: p.stack for s, p in table.seats.items()} == {1: 10113, 2: 9925, 3: 9962}
    assert table.carry == 0 and table.total_chips() == 30000


def test_carried_chips_go_to_uncontested_winner() -> None:
    hand = new_hand({1: 10000, 2: 10000, 3: 10000}, button=1, carried_in=7)
    play(hand, (1, F()), (2, F()))
    (pot,) = events_of(hand, PotAwarded)
    assert (pot.amount, pot.winners, pot.remainder) == (207, ((3, 207),), 0)
    assert final_stacks(hand) == {1: 10000, 2: 9900, 3: 10107}
    assert hand.result is not None and hand.result.carried_out == 0


def test_carried_chips_join_the_main_pot() -> None:
    # The short all-in player is in the main pot, so can win the carried chips.
    hand = new_hand(
        {1: 1000, 2: 3000, 3: 5000}, button=1, carried_in=5,
        holes={1: "AhAd", 2: "KhKd", 3: "QhQd"}, board=BOARD,
    )
    play(hand, (1, ALL_IN()), (2, ALL_IN()), (3, C()))
    main, side = events_of(hand, PotAwarded)
    assert (main.amount, main.winners) == (3005, ((1, 3005),))
    assert (side.amount, side.winners) == (4000, ((2, 4000),))


def test_showdown_shows_every_hand_still_in_and_never_folded() -> None:
    hand = new_hand(
        {1: 10000, 2: 10000, 3: 10000, 4: 10000}, button=3,
        holes={1: "AhAd", 2: "KhKd", 3: "QhQd", 4: "5h5d"}, board=BOARD,
    )
    play(hand, (2, F()), (3, C()), (4, C()), (1, X()))
    check_down(hand)
    shown = events_of(hand, HandShown)
    # From the first live player left of the button (3): seats 4, 1, 3; 2 folded.
    assert [(e.seat, e.hand_name) for e in shown] == [
        (4, "Pair of fives"), (1, "Pair of aces"), (3, "Pair of queens"),
    ]
    assert [hand.shown(s) for s in (1, 2, 3, 4)] == [True, False, True, True]
    err = pytest.raises(IllegalAction, hand.show, 2).value
    assert err.message == "folded hands are never shown"


def test_all_in_hands_shown_before_board_runs_out() -> None:
    hand = new_hand(
        {1: 10000, 2: 10000}, button=1,
        holes={1: "AhAd", 2: "KhKd"}, board=BOARD,
    )
    play(hand, (1, ALL_IN()), (2, C()))
    kinds = [type(e).__name__ for e in hand.events[last_index(hand, ActionTaken) + 1 :]]
    assert kinds == [
        "BetsGathered", "HandShown", "HandShown", "BoardDealt", "BoardDealt", "BoardDealt",
        "PotAwarded", "HandEnded",
    ]
    shown = events_of(hand, HandShown)
    assert [(e.seat, e.hand_name) for e in shown] == [(2, None), (1, None)]
    assert final_stacks(hand) == {1: 20000, 2: 0}
    # All-in on the flop: shown after the flop, before the turn.
    hand = new_hand({1: 10000, 2: 10000}, button=1, holes={1: "AhAd", 2: "KhKd"}, board=BOARD)
    play(hand, (1, C()), (2, X()), (2, ALL_IN()), (1, C()))
    kinds = [type(e).__name__ for e in hand.events]
    first_shown = kinds.index("HandShown")
    assert kinds[:first_shown].count("BoardDealt") == 1  # the flop only
    assert kinds[first_shown - 2 : first_shown] == ["ActionTaken", "BetsGathered"]  # the call
    assert kinds[first_shown : first_shown + 4] == ["HandShown", "HandShown", "BoardDealt", "BoardDealt"]


def last_index(hand: Hand, kind: type) -> int:
    """Index of the last event of ``kind``."""
    return max(i for i, e in enumerate(hand.events) if isinstance(e, kind))


def test_ace_low_straight_wheel_at_showdown() -> None:
    hand = new_hand(
        {1: 10000, 2: 10000}, button=1,
        holes={1: "4h5d", 2: "AdKc"}, board="As 2d 3c Kh 9s",
    )
    play(hand, (1, C()), (2, X()))
    check_down(hand)
    (pot,) = events_of(hand, PotAwarded)
    assert (pot.winners, pot.hand_name) == (((1, 400),), "Straight, five high")


def test_no_wrap_around_straight() -> None:
    # Q-K-A-2-3 is not a straight: seat 1 has only ace high and loses to a pair.
    hand = new_hand(
        {1: 10000, 2: 10000}, button=1,
        holes={1: "3d9c", 2: "7c4d"}, board="Qs Kd Ah 2c 7h",
    )
    play(hand, (1, C()), (2, X()))
    check_down(hand)
    (pot,) = events_of(hand, PotAwarded)
    assert (pot.winners, pot.hand_name) == (((2, 400),), "Pair of sevens")


def test_split_pot_suits_never_break_ties() -> None:
    hand = new_hand(
        {1: 10000, 2: 10000}, button=1,
        holes={1: "Ah4c", 2: "As4d"}, board="2c 7d 9h Js Kd",
    )
    play(hand, (1, C()), (2, X()))
    check_down(hand)
    (pot,) = events_of(hand, PotAwarded)
    assert (pot.amount, pot.winners, pot.remainder) == (400, ((1, 200), (2, 200)), 0)
    assert final_stacks(hand) == {1: 10000, 2: 10000}


def test_remaining_cards_break_ties() -> None:
    hand = new_hand(
        {1: 10000, 2: 10000}, button=1,
        holes={1: "AhQc", 2: "AsTc"}, board="2c 7d 9h Js Kd",
    )
    play(hand, (1, C()), (2, X()))
    check_down(hand)
    (pot,) = events_of(hand, PotAwarded)
    assert pot.winners == ((1, 400),)


def test_winner_without_showdown_may_show() -> None:
    hand = new_hand({1: 10000, 2: 10000}, button=1, holes={1: "AhAd", 2: "KhKd"}, board=BOARD)
    err = pytest.raises(IllegalAction, hand.show, 1).value
    assert err.message == "cards can be shown only when the hand is over"
    play(hand, (1, C()), (2, X()), (2, B(200)), (1, F()))
    assert view_for(hand, None).seat(2).cards is None  # not shown unless they choose
    assert hand.show(2) == [HandShown(seat=2, cards=tuple(parse_cards("KhKd")), hand_name="Pair of kings")]
    assert hand.show(2) == []  # showing twice adds nothing
    assert view_for(hand, None).seat(2).cards == tuple(parse_cards("KhKd"))
    with pytest.raises(IllegalAction):
        hand.show(1)  # the loser folded


# --- Views: who sees which cards ----------------------------------------------------------


def _three_handed_to_showdown_with_a_fold() -> Hand:
    return new_hand(
        {1: 10000, 2: 10000, 3: 10000}, button=1,
        holes={1: "AhAd", 2: "KhKd", 3: "QhQd"}, board=BOARD,
    )


def test_a_seat_sees_only_its_own_hole_cards_before_showdown() -> None:
    hand = _three_handed_to_showdown_with_a_fold()
    view = view_for(hand, 2)
    assert view.my_cards == tuple(parse_cards("KhKd"))
    assert view.seat(1).cards is None and view.seat(3).cards is None
    assert [e.seat for e in hand.events if isinstance(e, HoleCardsDealt) and visible_to(e, 2)] == [2]
    assert view.legal is None and view_for(hand, 1).legal == hand.legal_actions()


def test_a_spectator_sees_no_hole_cards() -> None:
    hand = _three_handed_to_showdown_with_a_fold()
    view = view_for(hand, None)
    assert all(s.cards is None for s in view.seats)
    assert view.my_cards is None and view.legal is None
    assert not any(isinstance(e, HoleCardsDealt) and visible_to(e, None) for e in hand.events)


def test_shown_cards_are_visible_to_all_after_showdown() -> None:
    hand = _three_handed_to_showdown_with_a_fold()
    play(hand, (1, C()), (2, F()), (3, X()))
    check_down(hand)
    for viewer in (None, 1, 2, 3):
        view = view_for(hand, viewer)
        assert view.seat(1).cards == tuple(parse_cards("AhAd"))
        assert view.seat(3).cards == tuple(parse_cards("QhQd"))
        if viewer != 2:
            assert view.seat(2).cards is None  # folded: never shown
    assert view_for(hand, 2).seat(2).cards == tuple(parse_cards("KhKd"))


def test_all_in_cards_are_visible_before_the_board_runs_out() -> None:
    hand = _three_handed_to_showdown_with_a_fold()
    play(hand, (1, ALL_IN()), (2, F()), (3, C()))
    first_board = next(i for i, e in enumerate(hand.events) if isinstance(e, BoardDealt))
    early = [e for e in hand.events[:first_board] if isinstance(e, HandShown)]
    assert [e.seat for e in early] == [3, 1] and all(visible_to(e, None) for e in early)
    assert view_for(hand, None).seat(1).cards == tuple(parse_cards("AhAd"))
    assert view_for(hand, None).seat(3).cards == tuple(parse_cards("QhQd"))


# --- 2 and 6: the table between hands ------------------------------------------------------


def _fold_to_the_big_blind(hand: Hand) -> None:
    while not hand.is_over:
        la = legal(hand)
        hand.act(la.seat, la.timeout_action())


def test_button_moves_to_next_player_left() -> None:
    table = Table(table_id=1, seat_count=9)
    for seat in (1, 4, 7):
        table.sit(seat, f"p{seat}", 10000)
    positions = []
    for n in range(4):
        hand = table.start_hand(
            hand_no=n, deck=list(FULL_DECK), small_blind=100, big_blind=200
        )
        positions.append((hand.button, hand.small_blind_seat, hand.big_blind_seat))
        _fold_to_the_big_blind(hand)
        table.finish_hand()
    assert positions == [(1, 4, 7), (4, 7, 1), (7, 1, 4), (1, 4, 7)]


def _bust_seat_two(table: Table) -> None:
    """Button 1; the small blind (seat 2, 500 chips) goes all-in and loses to seat 3."""
    for seat, stack in ((1, 10000), (2, 500), (3, 10000), (4, 10000)):
        table.sit(seat, f"p{seat}", stack)
    deck = stacked_deck(
        [1, 2, 3, 4], 1, {1: "8c8d", 2: "7c2d", 3: "AhAd", 4: "9c9d"}, board="Kc Qd 9h 5s 3c"
    )
    hand = table.start_hand(hand_no=1, deck=deck, small_blind=100, big_blind=200, button=1)
    play(hand, (4, F()), (1, F()), (2, ALL_IN()), (3, C()))
    assert final_stacks(hand) == {1: 10000, 2: 0, 3: 10500, 4: 10000}


def test_a_tables_empty_seats_are_numbered_from_one_to_its_size() -> None:
    table = Table(table_id=1, seat_count=6)
    assert table.empty_seats() == [1, 2, 3, 4, 5, 6]
    table.sit(1, "p1", 500)
    table.sit(6, "p6", 500)
    assert table.empty_seats() == [2, 3, 4, 5]
    assert table.unsit(6).player_id == "p6" and table.empty_seats() == [2, 3, 4, 5, 6]


def test_seating_mistakes_are_refused_with_the_reason() -> None:
    from poker.table import TableError

    table = Table(table_id=3, seat_count=4)
    with pytest.raises(TableError, match="^seats per table must be 2 to 10$"):
        Table(table_id=1, seat_count=11)
    with pytest.raises(TableError, match=r"^seat 5 does not exist \(seats 1 to 4\)$"):
        table.sit(5, "p5", 100)
    table.sit(1, "p1", 100)
    with pytest.raises(TableError, match="^seat 1 at table 3 is taken$"):
        table.sit(1, "px", 100)
    with pytest.raises(TableError, match="^table 3 needs two players with chips to deal$"):
        table.start_hand(hand_no=1, deck=list(FULL_DECK), small_blind=5, big_blind=10)
    with pytest.raises(TableError, match="^no finished hand to apply$"):
        table.finish_hand()
    table.sit(2, "p2", 100)
    table.start_hand(hand_no=1, deck=list(FULL_DECK), small_blind=5, big_blind=10)
    for change in (lambda: table.sit(3, "p3", 100), lambda: table.unsit(1)):
        with pytest.raises(TableError, match="^table 3 is in a hand; seating changes wait for it to end$"):
            change()
    with pytest.raises(TableError, match="^no finished hand to apply$"):
        table.finish_hand()


def test_a_tables_chips_are_counted_before_during_and_after_a_hand() -> None:
    table = Table(table_id=1, seat_count=9, carry=3)
    for seat in (1, 2, 3):
        table.sit(seat, f"p{seat}", 10000)
    assert table.total_chips() == 30003
    deck = stacked_deck([1, 2, 3], 1, {1: "2c3d", 2: "4c4d", 3: "2d3c"}, board="As Ks Qs Js Ts")
    hand = table.start_hand(hand_no=1, deck=deck, small_blind=75, big_blind=150, button=1)
    assert (hand.carried_in, table.carry, table.total_chips()) == (3, 0, 30003)
    play(hand, (1, C()), (2, F()), (3, X()))
    check_down(hand)  # 378 split two ways: 189 each, nothing carried
    assert hand.is_over and table.total_chips() == 30003  # the seats still show the old stacks
    table.carry = 5  # (as if another table's carry had arrived meanwhile)
    assert table.total_chips() == 30008
    table.finish_hand()
    assert table.total_chips() == 30008 and table.carry == 5


def test_busted_player_leaves_table() -> None:
    table = Table(table_id=1, seat_count=9)
    _bust_seat_two(table)
    busted = table.finish_hand()
    assert [(seat, p.player_id, start) for seat, p, start in busted] == [(2, "p2", 500)]
    assert sorted(table.seats) == [1, 3, 4] and table.seat_of("p2") is None
    assert table.total_chips() == 30500


def test_moving_button_skips_busted_seat() -> None:
    table = Table(table_id=1, seat_count=9)
    _bust_seat_two(table)
    table.finish_hand()
    assert (table.next_button(), table.next_big_blind()) == (3, 1)
    hand = table.start_hand(hand_no=2, deck=list(FULL_DECK), small_blind=100, big_blind=200)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, 4, 1)


def test_going_heads_up_when_the_button_busts_nobody_posts_the_big_blind_twice() -> None:
    """TDA (issue 12, defect 7): button 1, small blind 2, big blind 3; the button busts.
    The moving button would go to seat 2, making seat 3 the big blind again; instead the
    last big blind takes the button (and the small blind, heads-up)."""
    table = Table(table_id=1, seat_count=9)
    for seat, stack in ((1, 300), (2, 10000), (3, 10000)):
        table.sit(seat, f"p{seat}", stack)
    deck = stacked_deck([1, 2, 3], 1, {1: "8h4d", 2: "8c8d", 3: "AhAd"}, board=BOARD)
    hand = table.start_hand(hand_no=1, deck=deck, small_blind=100, big_blind=200, button=1)
    play(hand, (1, ALL_IN()), (2, F()), (3, C()))
    assert [s for s, _, _ in table.finish_hand()] == [1]
    assert (table.next_button(), table.next_big_blind()) == (3, 2)
    hand = table.start_hand(hand_no=2, deck=list(FULL_DECK), small_blind=100, big_blind=200)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, 3, 2)
    _fold_to_the_big_blind(hand)
    table.finish_hand()
    hand = table.start_hand(hand_no=3, deck=list(FULL_DECK), small_blind=100, big_blind=200)
    assert (hand.button, hand.big_blind_seat) == (2, 3)  # heads-up goes on alternating


def test_an_arriving_player_waits_for_the_button_rather_than_skip_the_big_blind() -> None:
    """TDA (issue 12, defect 7): a player moved in right after the last button would get
    the button at once; they wait until it has passed them, then are dealt in."""
    table = Table(table_id=1, seat_count=9)
    for seat in (1, 3, 5, 7):
        table.sit(seat, f"p{seat}", 10000)
    hand = table.start_hand(hand_no=1, deck=list(FULL_DECK), small_blind=100, big_blind=200, button=1)
    _fold_to_the_big_blind(hand)
    table.finish_hand()
    assert table.would_wait(2) and table.would_wait(4) and not table.would_wait(6)
    table.sit(2, "new", 10000, arriving=True)  # would be the button: waits
    table.sit(6, "late", 10000, arriving=True)  # between the big blind and the rest: dealt in
    positions = []
    for n in range(2, 7):
        hand = table.start_hand(hand_no=n, deck=list(FULL_DECK), small_blind=100, big_blind=200)
        positions.append((tuple(hand.seats), hand.button, hand.small_blind_seat, hand.big_blind_seat))
        _fold_to_the_big_blind(hand)
        table.finish_hand()
    assert positions == [
        ((1, 3, 5, 6, 7), 3, 5, 6),  # seat 2 waits; seat 6 posts the big blind at once
        ((1, 2, 3, 5, 6, 7), 5, 6, 7),  # the button has passed seat 2: dealt in, blinds to come
        ((1, 2, 3, 5, 6, 7), 6, 7, 1),
        ((1, 2, 3, 5, 6, 7), 7, 1, 2),  # ... and posts the big blind in turn
        ((1, 2, 3, 5, 6, 7), 1, 2, 3),
    ]


def test_heads_up_after_a_bust_the_button_posts_the_small_blind() -> None:
    table = Table(table_id=1, seat_count=9)
    for seat, stack in ((1, 10000), (2, 10000), (3, 300)):
        table.sit(seat, f"p{seat}", stack)
    deck = stacked_deck([1, 2, 3], 1, {1: "AhAd", 2: "8c8d", 3: "8h4d"}, board=BOARD)
    hand = table.start_hand(hand_no=1, deck=deck, small_blind=100, big_blind=200, button=1)
    play(hand, (1, R(600)), (2, F()), (3, ALL_IN()))
    assert [s for s, _, _ in table.finish_hand()] == [3]
    assert table.next_big_blind() == 1
    hand = table.start_hand(hand_no=2, deck=list(FULL_DECK), small_blind=100, big_blind=200)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat, hand.to_act) == (2, 2, 1, 2)
