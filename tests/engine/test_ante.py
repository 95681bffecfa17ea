"""The big-blind ante (TDA RP-11, issue 27), one rule per test, on stacked decks.

The big blind posts the ante for the table before the blind; the ante is dead money in
the main pot, never part of the big blind's bet; a big blind short of both pays the ante
first and what is left of the blind. pokerkit agrees on random ante hands
(``test_referee.py``); these pin the rules by hand.
"""

from __future__ import annotations

import tomllib

from poker.actions import Action, ActionKind, Ruleset
from poker.events import AntePosted, BetsGathered, BlindPosted, HandStarted
from poker.hand import Hand
from poker.history import HandInfo, to_phh, to_text
from poker.pots import Pot, build_pots
from poker.views import view_for
from tests.engine.test_rules import BOARD, legal, play, stacked_deck

FOLD = Action(kind=ActionKind.FOLD)
CALL = Action(kind=ActionKind.CALL)
CHECK = Action(kind=ActionKind.CHECK)
ALL_IN = Action(kind=ActionKind.ALL_IN)


def ante_hand(stacks: dict[int, int], *, button: int, holes: dict[int, str] | None = None,
              ante: int = 200) -> Hand:
    seats = sorted(stacks)
    return Hand(
        hand_no=1, seats=[(s, stacks[s]) for s in seats], button=button, small_blind=100,
        big_blind=200, deck=stacked_deck(seats, button, holes or {}, BOARD),
        ruleset=Ruleset.HICKORY, ante=ante,
    )


def test_big_blind_posts_the_ante_before_the_blind_and_the_ante_is_not_part_of_the_bet() -> None:
    hand = ante_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    kinds = [type(e) for e in hand.events[:4]]
    assert kinds == [HandStarted, AntePosted, BlindPosted, BlindPosted]
    ante = hand.events[1]
    assert isinstance(ante, AntePosted) and (ante.seat, ante.amount) == (3, 200)
    assert hand.bet(3) == 200 and hand.stack(3) == 10_000 - 400
    assert sum(p.amount for p in hand.pots()) == 500
    # The call is the big blind, the minimum raise is on top of the blind alone.
    la = legal(hand)
    assert (la.seat, la.call, la.min_raise_to) == (1, 200, 400)
    assert hand.total_chips() == 30_000
    play(hand, (1, CALL), (2, CALL), (3, CHECK))
    gathered = [e for e in hand.events if isinstance(e, BetsGathered)]
    assert gathered[0].pots == ((800, (1, 2, 3)),)


def test_everyone_folds_to_the_big_blind_who_wins_the_ante_back_with_the_small_blind() -> None:
    hand = ante_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    play(hand, (1, FOLD), (2, FOLD))
    assert hand.result is not None
    assert dict(hand.result.stacks) == {1: 10_000, 2: 9_900, 3: 10_100}


def test_big_blind_short_of_both_pays_the_ante_first_then_what_is_left_of_the_blind() -> None:
    hand = ante_hand({1: 10_000, 2: 10_000, 3: 300}, button=1)
    ante, small, big = hand.events[1:4]
    assert isinstance(ante, AntePosted) and ante.amount == 200 and not ante.all_in
    assert isinstance(big, BlindPosted) and big.amount == 100 and big.all_in
    assert isinstance(small, BlindPosted) and small.amount == 100
    # The bet to match stays the full big blind (interpretation 2).
    assert legal(hand).call == 200


def test_a_short_big_blinds_ante_is_dead_money_in_the_main_pot_not_a_side_pot_of_its_own() -> None:
    # Seat 3 (big blind) has 300: ante 200, blind 100 all-in. Seats 1 and 2 call 200.
    # Main pot: the ante 200 + 100 from each of the three = 500, all three eligible;
    # side pot: 100 more from each caller = 200, seats 1 and 2.
    hand = ante_hand({1: 10_000, 2: 10_000, 3: 300}, button=1,
                     holes={1: "Kh Kd", 2: "Qh Qd", 3: "Ah Ad"})
    play(hand, (1, CALL), (2, CALL), (2, CHECK), (1, CHECK), (2, CHECK), (1, CHECK),
         (2, CHECK), (1, CHECK))
    assert hand.result is not None
    awards = [(a.amount, a.eligible, a.winners) for a in hand.pots_awarded]
    assert awards == [(500, (1, 2, 3), ((3, 500),)), (200, (1, 2), ((1, 200),))]


def test_a_big_blind_all_in_on_the_ante_alone_may_win_only_the_ante() -> None:
    hand = ante_hand({1: 10_000, 2: 10_000, 3: 150}, button=1,
                     holes={1: "Kh Kd", 2: "Qh Qd", 3: "Ah Ad"})
    ante, _, big = hand.events[1:4]
    assert isinstance(ante, AntePosted) and ante.amount == 150 and ante.all_in
    assert isinstance(big, BlindPosted) and big.amount == 0 and big.all_in
    play(hand, (1, CALL), (2, CALL), (2, CHECK), (1, CHECK), (2, CHECK), (1, CHECK),
         (2, CHECK), (1, CHECK))
    assert hand.result is not None
    awards = [(a.amount, a.eligible, a.winners) for a in hand.pots_awarded]
    assert awards == [(150, (1, 2, 3), ((3, 150),)), (400, (1, 2), ((1, 400),))]


def test_heads_up_the_big_blind_not_the_button_posts_the_ante() -> None:
    hand = ante_hand({1: 10_000, 2: 10_000}, button=1)
    ante = hand.events[1]
    assert isinstance(ante, AntePosted) and ante.seat == 2 == hand.big_blind_seat
    assert sum(p.amount for p in hand.pots()) == 500


def test_the_ante_is_in_every_view_of_the_pot() -> None:
    hand = ante_hand({1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    for viewer in (None, 1, 3):
        view = view_for(hand, viewer)
        assert sum(p.amount for p in view.pots) == 500
        assert view.ante == 200


def test_dead_money_joins_the_main_pot_or_stands_first_for_every_live_player() -> None:
    assert build_pots({1: 200, 2: 200}, {1, 2}, dead=200) == [Pot(amount=600, eligible=(1, 2))]
    assert build_pots({1: 200, 2: 200, 3: 0}, {1, 2, 3}, dead=150) == [
        Pot(amount=150, eligible=(1, 2, 3)), Pot(amount=400, eligible=(1, 2)),
    ]


def test_phh_writes_the_ante_at_the_big_blinds_place_and_text_names_it() -> None:
    for stacks in ({1: 10_000, 2: 10_000, 3: 10_000}, {1: 10_000, 2: 10_000}):
        hand = ante_hand(stacks, button=1)
        while not hand.is_over:
            la = legal(hand)
            hand.act(la.seat, FOLD if la.fold else CHECK)
        doc = tomllib.loads(to_phh(hand.events, HandInfo(table_id=1, level=1)))
        assert doc["antes"][1] == 200 and sum(doc["antes"]) == 200
        big = doc["seats"].index(hand.big_blind_seat)
        assert big == 1 if len(stacks) > 2 else big == 0  # heads-up pokerkit reverses both
        text = to_text(hand.events, HandInfo(table_id=1, level=1))
        assert "(100/200, big-blind ante 200)" in text
        assert f"seat {hand.big_blind_seat} posts the ante 200 for the table" in text


def test_no_ante_by_default() -> None:
    seats = [1, 2, 3]
    hand = Hand(hand_no=1, seats=[(s, 1000) for s in seats], button=1, small_blind=100,
                big_blind=200, deck=stacked_deck(seats, 1, {}, BOARD))
    assert not any(isinstance(e, AntePosted) for e in hand.events)
    assert sum(p.amount for p in hand.pots()) == 300 and hand.dead == 0
