"""What one seat, or a spectator, may see of a hand: the only way hand state leaves the engine.

The server builds every table message from these views, never from the ``Hand`` itself,
so a hole card can reach a connection only if ``view_for`` put it there: the viewer's own
cards, and cards shown at showdown (or shown by choice after the hand).
"""

from __future__ import annotations

import attrs

from .actions import LegalActions
from .cards import Card
from .events import Street
from .hand import Hand
from .pots import Pot


@attrs.frozen(kw_only=True)
class SeatView:
    seat: int
    stack: int
    bet: int
    committed: int
    folded: bool
    all_in: bool
    cards: tuple[Card, ...] | None  # only the viewer's own, or shown cards


@attrs.frozen(kw_only=True)
class HandView:
    hand_no: int
    viewer: int | None  # the seat this view is for; None for a spectator
    button: int
    small_blind_seat: int
    big_blind_seat: int
    small_blind: int
    big_blind: int
    street: Street
    board: tuple[Card, ...]
    pots: tuple[Pot, ...]
    carried_in: int
    to_act: int | None
    seats: tuple[SeatView, ...]
    legal: LegalActions | None  # only when the viewer is the one to act
    over: bool
    ante: int = 0  # the big-blind ante as posted this hand (dead money, in the pots)

    def seat(self, seat: int) -> SeatView:
        return next(s for s in self.seats if s.seat == seat)

    @property
    def my_cards(self) -> tuple[Card, ...] | None:
        if self.viewer is None:
            return None
        return self.seat(self.viewer).cards


def view_for(hand: Hand, viewer: int | None) -> HandView:
    """The hand as the player in seat ``viewer`` (None: a spectator) may see it now."""
    seats = []
    for seat in hand.seats:
        visible = seat == viewer or hand.shown(seat)
        seats.append(
            SeatView(
                seat=seat,
                stack=hand.stack(seat),
                bet=hand.bet(seat),
                committed=hand.committed(seat),
                folded=hand.folded(seat),
                all_in=hand.stack(seat) == 0 and not hand.folded(seat),
                cards=hand.hole_cards(seat) if visible else None,
            )
        )
    legal = hand.legal_actions() if viewer is not None and viewer == hand.to_act else None
    return HandView(
        hand_no=hand.hand_no,
        viewer=viewer,
        button=hand.button,
        small_blind_seat=hand.small_blind_seat,
        big_blind_seat=hand.big_blind_seat,
        small_blind=hand.small_blind,
        big_blind=hand.big_blind,
        street=hand.street,
        board=tuple(hand.board),
        pots=tuple(hand.pots()),
        carried_in=hand.carried_in,
        to_act=hand.to_act,
        seats=tuple(seats),
        legal=legal,
        over=hand.is_over,
        ante=hand.dead if not hand.is_over else 0,
    )
