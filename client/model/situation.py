"""The strategies' ``Situation`` from the model: a bot decides from what a person sees."""

from __future__ import annotations

from client.model.state import ModelState
from client.model.table import TableModel, engine_cards
from client.strategies.base import Situation, opponent
from poker.events import Street


def _guess_blinds(t: TableModel, dealt: list[int]) -> tuple[int, int]:
    """Blind seats after a snapshot taken mid-hand: the next seats after the button."""
    if t.small_blind_seat is not None and t.big_blind_seat is not None:
        return t.small_blind_seat, t.big_blind_seat
    button = t.button if t.button is not None else dealt[-1]
    after = [s for s in dealt if s > button] + [s for s in dealt if s <= button]
    if len(dealt) == 2:
        # Heads-up the button posts the small blind.
        return after[1], after[0]
    return after[0], after[1 % len(after)]


def situation_from_model(model: ModelState) -> Situation:
    """The strategies' ``Situation`` for my pending turn (ValueError if there is none).

    Built from the same model the terminal shows: the table's seats, pots and board, the
    actions seen this hand (none if I joined mid-hand: then, as with
    ``situation_from_view``, who raised is guessed from the bets in front) and the turn's
    legal actions.
    """
    turn, t = model.turn, model.table
    if turn is None:
        raise ValueError("no pending turn: a situation is for the player to act")
    if t is None or t.table != turn.msg.table:
        raise ValueError("no table for the pending turn (waiting for a snapshot)")
    seat = turn.msg.seat
    me = t.seats.get(seat)
    hole = t.your_cards or (me.cards if me is not None else None)
    if me is None or not hole:
        raise ValueError(f"seat {seat} has no hole cards in the model")
    street = t.street if t.street is not None else Street.PREFLOP
    dealt = sorted(s for s in (t.dealt or tuple(t.seats)) if s in t.seats or s == seat)
    if seat not in dealt:
        dealt = sorted([*dealt, seat])
    button = t.button if t.button is not None else dealt[-1]
    i = next((k for k, s in enumerate(dealt) if s > button), 0)
    order = tuple(dealt[i:] + dealt[:i])
    sb_seat, bb_seat = _guess_blinds(t, dealt)
    if bb_seat not in order:
        bb_seat = order[min(1, len(order) - 1)]
    legal = turn.legal
    current_bet = legal.current_bet
    actions = tuple(t.actions)
    opponents = []
    for s_no in order:
        s = t.seats.get(s_no)
        if s_no == seat or s is None or s.folded:
            continue
        opponents.append(
            opponent(
                s_no, stack=s.stack, bet=s.bet, committed=s.committed, all_in=s.all_in,
                actions=actions, street=street, current_bet=current_bet, big_blind=t.big_blind,
            )
        )
    return Situation(
        hand_no=turn.hand_no,
        seat=seat,
        hole=engine_cards(hole),
        board=engine_cards(t.board),
        street=street,
        pot=t.pot_total,
        stack=legal.stack,
        bet=legal.bet,
        current_bet=current_bet,
        small_blind=t.small_blind,
        big_blind=t.big_blind or 1,
        button=button,
        small_blind_seat=sb_seat,
        big_blind_seat=bb_seat,
        seats=order,
        opponents=tuple(opponents),
        actions=actions,
        legal=legal,
    )
