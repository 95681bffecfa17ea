"""A table between hands: who is dealt in, where the button goes, a voided hand put back,
a finished one applied, and the chips counted at every point.

The tournament's seating tests drive tables through whole tournaments; these pin the
table's own rules one at a time (docs/testing.md: the mutants only those tests caught).
"""

from __future__ import annotations

import random

import pytest

from poker.actions import Action, Ruleset
from poker.cards import FULL_DECK
from poker.table import Table, TableError

from .test_rules import C, X, check_down, play, stacked_deck

DECK = list(FULL_DECK)


def table(stacks: dict[int, int], *, button: int | None = None, carry: int = 0,
          ruleset: Ruleset = Ruleset.HICKORY) -> Table:
    t = Table(table_id=7, button=button, carry=carry, ruleset=ruleset)
    for seat, stack in stacks.items():
        t.sit(seat, f"p{seat}", stack)
    return t


def deal(t: Table, hand_no: int = 1, button: int | None = None) -> None:
    t.start_hand(hand_no=hand_no, deck=DECK, small_blind=50, big_blind=100, button=button)


def test_a_table_has_nine_seats_unless_told_otherwise() -> None:
    assert Table(table_id=1).empty_seats() == list(range(1, 10))


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_a_tables_hands_are_played_under_its_ruleset(ruleset: Ruleset) -> None:
    t = table({1: 1_000, 2: 1_000}, ruleset=ruleset)
    deal(t)
    assert t.hand is not None and t.hand.ruleset is ruleset
    assert Table(table_id=1).ruleset is Ruleset.HICKORY


def test_a_table_restored_with_a_button_moves_it_on_from_there() -> None:
    t = table({1: 1_000, 3: 1_000, 5: 1_000}, button=3)
    assert t.next_button() == 5


def test_a_player_seated_before_the_table_deals_or_not_arriving_is_dealt_in_at_once() -> None:
    t = table({1: 1_000, 3: 1_000, 5: 1_000})
    deal(t)
    assert t.hand is not None
    t.hand.act(t.hand.to_act or 0, Action.fold())
    while not t.hand.is_over:
        t.hand.act(t.hand.to_act or 0, Action.fold())
    t.finish_hand()
    t.sit(2, "late", 1_000)  # not arriving (say, a seat the director assigned as new)
    assert not t.seats[2].awaiting_blind
    t.sit(4, "moved", 1_000, arriving=True)
    assert t.seats[4].awaiting_blind


def test_would_wait_is_false_before_the_first_hand_whatever_the_seat() -> None:
    t = table({3: 1_000, 5: 1_000})
    assert [t.would_wait(s) for s in (1, 2, 4, 6)] == [False] * 4


def test_would_wait_names_the_seats_that_would_skip_the_big_blind() -> None:
    t = table({2: 1_000, 5: 1_000, 8: 1_000}, button=2)  # next hand: button 5, blinds 8 and 2
    assert t.next_button() == 5 and t.next_big_blind() == 2
    assert t.would_wait(6) is True  # would be the small blind
    assert t.would_wait(3) is True  # would take the button
    assert t.would_wait(9) is False  # would post the big blind: dealt in at once


def test_dealt_at_once_asks_of_every_empty_seat_alone_what_would_wait_asks_of_one() -> None:
    """Balancing asks for all the empty seats at once (the seats split once, each seat
    imagined alone): no seat's imagined arrival may leak into the next one's plan."""
    t = table({2: 1_000, 5: 1_000, 8: 1_000}, button=2)
    empty = t.empty_seats()
    assert t.dealt_at_once(empty) == [1, 9]  # the big blind's seats; 3, 4 button, 6, 7 small blind
    assert t.dealt_at_once(empty) == [s for s in empty if not t.would_wait(s)]
    assert t.deal_plan()[0] == [2, 5, 8]  # and the table itself is unchanged
    heads_up = table({2: 1_000, 5: 1_000}, button=2)  # the button goes where nobody skips
    assert heads_up.dealt_at_once(heads_up.empty_seats()) == heads_up.empty_seats()


def test_dealt_at_once_agrees_with_would_wait_seat_by_seat_at_every_kind_of_table() -> None:
    """Its shortcut for three or more players seated as usual, with arrivals already
    waiting or not (the seats from the last button to the small blind wait) against the
    rule worked out for each seat alone: tables of 2 to 9 seats taken, the last button
    anywhere, taken or not."""
    rng = random.Random(29)
    for _ in range(2_000):
        taken = sorted(rng.sample(range(1, 10), rng.randint(2, 8)))
        t = table({seat: 1_000 for seat in taken}, button=rng.randint(1, 9))
        for seat in taken:
            t.seats[seat].awaiting_blind = rng.random() < 0.15
        empty = t.empty_seats()
        assert t.dealt_at_once(empty) == [s for s in empty if not t.would_wait(s)], (taken, t.button)


def test_a_seat_without_chips_is_not_dealt_and_no_table_of_them_asks_anyone_to_wait() -> None:
    t = table({2: 0, 5: 1_000, 8: 1_000}, button=8)
    assert t.deal_plan()[0] == [5, 8]
    empty = table({2: 0}, button=2)
    assert empty.would_wait(5) is False


def test_two_players_and_an_arrival_due_the_big_blind_deal_three_handed() -> None:
    t = table({2: 1_000, 5: 1_000}, button=1)  # next: button 2, then 5
    t.sit(7, "moved", 1_000, arriving=True)
    dealt, button, small, big = t.deal_plan()
    assert (dealt, button, small, big) == ([2, 5, 7], 2, 5, 7)


def test_an_arrival_at_a_heads_up_table_is_dealt_in_at_once_as_the_big_blind() -> None:
    """The moving button would put seat 3 on it; heads-up the button never passes 3, so
    it goes to 5 instead and 3 posts the big blind (docs/rules.md section 7)."""
    t = table({2: 1_000, 5: 1_000}, button=2)
    t.sit(3, "moved", 1_000, arriving=True)
    assert t.deal_plan() == ([2, 3, 5], 5, 2, 3)


def test_one_player_and_an_arrival_are_dealt_in_together_whatever_the_positions() -> None:
    t = table({5: 1_000}, button=5)
    t.sit(3, "moved", 1_000, arriving=True)
    assert t.deal_plan()[0] == [3, 5]
    lone = table({5: 1_000}, button=5)
    with pytest.raises(TableError, match="^table 7 needs two players with chips to deal$"):
        lone.deal_plan()


def test_a_dealt_button_needs_two_players_with_chips_and_deals_heads_up() -> None:
    t = table({2: 1_000, 5: 1_000})
    deal(t, button=5)
    assert t.hand is not None and t.hand.seats == (2, 5) and t.button == 5
    assert not any(p.awaiting_blind for p in t.seats.values())
    lone = table({2: 1_000, 5: 0})
    with pytest.raises(TableError, match="^table 7 needs two players with chips to deal$"):
        deal(lone, button=2)
    short = table({2: 1, 5: 1_000})  # one chip is chips
    deal(short, button=2)
    assert short.hand is not None and short.hand.seats == (2, 5)


def test_heads_up_after_the_last_big_blind_left_the_table_the_button_moves_on() -> None:
    t = table({2: 1_000, 5: 1_000, 8: 1_000})
    deal(t)  # button 2, blinds 5 and 8
    assert t.hand is not None and t.last_big_blind == "p8"
    while not t.hand.is_over:
        t.hand.act(t.hand.to_act or 0, Action.fold())
    t.finish_hand()
    t.unsit(8)  # the last big blind goes (moved away)
    assert t.deal_plan()[0] == [2, 5]


def test_a_voided_hand_puts_back_the_carry_the_button_and_the_last_big_blind() -> None:
    t = table({2: 1_000, 5: 1_000, 8: 1_000}, button=8, carry=3)
    t.last_big_blind = "p5"
    deal(t)
    assert t.button == 2 and t.carry == 0 and t.last_big_blind == "p8"
    voided = t.void_hand()
    assert voided.carried_in == 3
    assert (t.hand, t.carry, t.button, t.last_big_blind) == (None, 3, 8, "p5")
    assert t.total_chips() == 3_003
    with pytest.raises(TableError, match="^table 7 has no hand in progress to void$"):
        t.void_hand()


def test_a_finished_hand_is_applied_and_remembered() -> None:
    t = table({2: 1_000, 5: 1_000})
    deal(t, hand_no=41)
    assert t.hand is not None
    t.hand.act(t.hand.to_act or 0, Action.all_in())
    t.hand.act(t.hand.to_act or 0, Action.call())
    assert t.last_hand_no is None
    busted = t.finish_hand()
    assert t.last_hand_no == 41
    assert [(s, p.player_id, start) for s, p, start in busted] in ([(2, "p2", 1_000)], [(5, "p5", 1_000)], [])


def test_total_chips_counts_stacks_outside_the_hand_the_hand_and_the_carry() -> None:
    t = table({2: 1_000, 5: 2_000, 8: 4_000}, carry=1, button=2)
    t.sit(6, "moved", 8_000, arriving=True)  # would be the small blind: waits
    # A board that plays for everyone: 301 split three ways, one chip carried out.
    t.start_hand(hand_no=1, deck=stacked_deck([2, 5, 8], 5, {}, "As Ks Qs Js Ts"),
                 small_blind=50, big_blind=100)
    assert t.hand is not None and t.hand.seats == (2, 5, 8) and t.hand.button == 5
    assert t.total_chips() == 15_001  # in the hand 7,001 (carry included), outside 8,000
    t.carry = 5  # odd chips set aside during the hand (a broken table's)
    assert t.total_chips() == 15_006
    t.carry = 0
    play(t.hand, (5, C()), (8, C()), (2, X()))
    check_down(t.hand)
    assert t.hand.carried_out == 1
    t.carry = 10  # set aside since (a broken table's odd chips)
    assert t.total_chips() == 15_011
    t.finish_hand()
    assert t.total_chips() == 15_011 and t.carry == 11
