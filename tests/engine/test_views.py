"""``view_for``: what one seat, or a spectator, is shown of a hand, field by field.

The server builds every table message from these views, so a hole card that is wrong
here leaks everywhere; ``tests/server/test_hidden_cards.py`` checks the same from the
connections' side.
"""

from __future__ import annotations

from poker.actions import Action
from poker.cards import parse_cards
from poker.events import HandShown, Street
from poker.pots import Pot
from poker.views import SeatView, view_for

from .test_rules import BOARD, events_of, new_hand, play

C = Action.call
X = Action.check
F = Action.fold
B = Action.bet
ALL_IN = Action.all_in


def test_an_all_in_players_cards_stay_hidden_while_the_others_still_bet() -> None:
    # Seat 2 is all-in preflop; seats 1 and 3 have chips and keep betting: nothing is
    # shown until betting is over (interpretation 5, TDA all-in showdowns).
    hand = new_hand({1: 10000, 2: 1000, 3: 10000}, button=1,
                    holes={1: "AhAd", 2: "KhKd", 3: "QhQd"}, board=BOARD)
    play(hand, (1, C()), (2, ALL_IN()), (3, C()), (1, C()))
    assert hand.street is Street.FLOP and hand.stack(2) == 0
    play(hand, (3, B(400)), (1, C()))
    assert hand.street is Street.TURN and not events_of(hand, HandShown)
    for viewer in (None, 1, 3):
        assert view_for(hand, viewer).seat(2).cards is None, f"seat 2's cards shown to {viewer}"
    assert view_for(hand, 2).seat(2).cards == tuple(parse_cards("KhKd"))
    assert view_for(hand, 2).seat(1).cards is None and view_for(hand, 2).seat(3).cards is None
    # Seat 3 folds: seat 1 is the only one with chips, betting is over, every hand still
    # in is shown before the river is dealt; the folded hand never is.
    play(hand, (3, X()), (1, B(500)), (3, F()))
    assert hand.is_over
    for viewer in (None, 1, 2, 3):
        view = view_for(hand, viewer)
        assert view.seat(1).cards == tuple(parse_cards("AhAd"))
        assert view.seat(2).cards == tuple(parse_cards("KhKd"))
        assert view.seat(3).cards == (tuple(parse_cards("QhQd")) if viewer == 3 else None)


def test_a_view_is_the_hand_as_it_stands() -> None:
    hand = new_hand({1: 10000, 2: 600, 3: 10000}, button=3, carried_in=3,
                    holes={1: "AhAd", 2: "KhKd", 3: "QhQd"}, board=BOARD)
    # Button 3: seat 1 posts 100, seat 2 posts 200; seat 3 raises, seat 1 folds, seat 2 shoves.
    play(hand, (3, Action.raise_to(500)), (1, F()), (2, ALL_IN()))
    view = view_for(hand, 3)
    assert (view.hand_no, view.viewer, view.button) == (1, 3, 3)
    assert (view.small_blind_seat, view.big_blind_seat, view.small_blind, view.big_blind) == (1, 2, 100, 200)
    assert (view.street, view.board, view.carried_in, view.to_act, view.over) == (Street.PREFLOP, (), 3, 3, False)
    # Bets in front count: seat 2's 100 above seat 3's 500 is a pot only seat 2 can win.
    assert view.pots == (Pot(amount=1103, eligible=(2, 3)), Pot(amount=100, eligible=(2,)))
    assert view.seats == (
        SeatView(seat=1, stack=9900, bet=100, committed=100, folded=True, all_in=False, cards=None),
        SeatView(seat=2, stack=0, bet=600, committed=600, folded=False, all_in=True, cards=None),
        SeatView(seat=3, stack=9500, bet=500, committed=500, folded=False, all_in=False,
                 cards=tuple(parse_cards("QhQd"))),
    )
    assert view.legal == hand.legal_actions() and view.my_cards == tuple(parse_cards("QhQd"))
    assert view_for(hand, 2).legal is None and view_for(hand, None).legal is None
    play(hand, (3, C()))
    done = view_for(hand, None)
    assert done.over and done.street is Street.SHOWDOWN and done.to_act is None
    assert done.board == tuple(parse_cards(BOARD)) and done.pots == ()
    assert [(s.seat, s.stack, s.bet, s.committed) for s in done.seats] == [
        (1, 9900, 0, 0), (2, 1303, 0, 0), (3, 9400, 0, 0)]
    assert done.seat(1).folded and not done.seat(1).all_in and not done.seat(2).all_in
