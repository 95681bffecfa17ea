"""Engine and tournament state turned into protocol messages.

Hidden information by construction: table messages are built only from
``views.view_for`` (what one seat or a spectator may see) and from hand events filtered
by ``events.visible_to``. Nothing here reads a ``Hand``'s hole cards directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

import protocol.messages as m
from poker import events as ev
from poker.actions import LegalActions
from poker.cards import Card, card_str
from poker.evaluator import evaluate
from poker.makers import maker
from poker.views import HandView
from server.tournament.standings import Standing


def cards(cs: Iterable[Card]) -> tuple[str, ...]:
    return tuple(card_str(c) for c in cs)


def pid(player_id: str) -> int:
    """Tournament player ids are decimal strings; the protocol carries them as ints."""
    return int(player_id)


# The messages of every decision, through ``poker.makers``: each field set through its
# slot, without attrs' keyword parsing and a bound ``object.__setattr__`` per field (about
# half the cost). Called with keywords, every field named (``seq`` too), so a change in the
# classes' field order changes nothing and a field left out is an error.
_legal = maker(m.Legal)
_action = maker(m.Action)
your_turn = maker(m.YourTurn)


def legal(legal: LegalActions) -> m.Legal:
    return _legal(
        fold=legal.fold, check=legal.check, call=legal.call,
        min_raise_to=legal.min_raise_to, max_raise_to=legal.max_raise_to,
        stack=legal.stack, all_in_to=legal.bet + legal.stack,
    )


def made_hand(hole: Sequence[Card] | None, board: Sequence[Card]) -> tuple[tuple[str, ...] | None, str | None]:
    """The five cards that play and the hand with its kickers, from cards everyone has
    seen (shown hole cards and the board); (None, None) before the flop."""
    if hole is None or len(board) < 3:
        return None, None
    value = evaluate((*hole, *board))
    return cards(value.best_five), value.detail


def hand_event(
    table: int, hand_no: int, event: ev.Event, shown: Callable[[int], Sequence[Card] | None] = lambda seat: None,
    board: Sequence[Card] = (),
) -> m.ServerMessage | None:
    """The public message for one engine event (hole cards: only for their owner).

    ``shown`` gives a seat's cards if they have been shown (else None) and ``board`` the
    board: with them a showdown and an award name the five cards that play and the kickers.
    """
    # The commonest first: an action is every decision's event.
    if isinstance(event, ev.ActionTaken):
        return _action(
            table=table, hand_no=hand_no, seat=event.seat, action=event.action.value,
            amount=event.amount, to=event.to, all_in=event.all_in, automatic=event.automatic,
            seq=None,
        )
    if isinstance(event, ev.HandStarted):
        # A big-blind ante leaves the big blind's stack before the blinds: the stacks sent
        # are after it, so a client of any version adds up (the ante is in the pots).
        ante = 0
        stacks = event.stacks
        if event.ante:
            bb = event.big_blind_seat
            ante = min(event.ante, dict(stacks)[bb])
            stacks = tuple((s, st - ante if s == bb else st) for s, st in stacks)
        return m.HandStarted(
            table=table, hand_no=hand_no, button=event.button,
            small_blind_seat=event.small_blind_seat, big_blind_seat=event.big_blind_seat,
            small_blind=event.small_blind, big_blind=event.big_blind,
            carried_in=event.carried_in,
            stacks=tuple(m.SeatStack(seat=s, stack=st) for s, st in stacks),
            ante=ante,
        )
    if isinstance(event, ev.BlindPosted):
        return m.BlindPosted(
            table=table, hand_no=hand_no, seat=event.seat,
            blind="small" if event.blind == "small" else "big",
            amount=event.amount, all_in=event.all_in,
        )
    if isinstance(event, ev.HoleCardsDealt):
        return m.HoleCards(table=table, hand_no=hand_no, seat=event.seat, cards=cards(event.cards))
    if isinstance(event, ev.BoardDealt):
        street: Literal["flop", "turn", "river"] = event.street.value  # type: ignore[assignment]
        return m.Board(
            table=table, hand_no=hand_no, street=street,
            cards=cards(event.cards), board=cards(event.board),
        )
    if isinstance(event, ev.HandShown):
        best, detail = made_hand(event.cards, board) if event.hand_name is not None else (None, None)
        return m.Showdown(
            table=table, hand_no=hand_no, seat=event.seat, cards=cards(event.cards),
            hand_name=event.hand_name, best_five=best, hand_detail=detail,
        )
    if isinstance(event, ev.PotAwarded):
        best, detail = (None, None)
        if event.hand_name is not None and event.winners:
            best, detail = made_hand(shown(event.winners[0][0]), board)
        return m.PotAwarded(
            table=table, hand_no=hand_no, pot=event.index, amount=event.amount,
            winners=tuple(m.Winner(seat=s, amount=a) for s, a in event.winners),
            remainder_carried=event.remainder, hand_name=event.hand_name,
            best_five=best, hand_detail=detail,
        )
    if isinstance(event, ev.HandEnded):
        return m.HandEnded(
            table=table, hand_no=hand_no,
            stacks=tuple(m.SeatStack(seat=s, stack=st) for s, st in event.stacks),
            carried_out=event.carried_out,
        )
    if isinstance(event, ev.BetsGathered):
        return m.Pots(
            table=table, hand_no=hand_no,
            pots=tuple(m.Pot(amount=a, eligible=e) for a, e in event.pots), carried=event.carried_in,
        )
    if isinstance(event, ev.UncalledBetReturned):
        return m.BetReturned(table=table, hand_no=hand_no, seat=event.seat, amount=event.amount)
    return None


def pots_after_folds(table: int, hand_no: int, awards: Sequence[ev.PotAwarded], carried_in: int) -> m.Pots:
    """The pots of a hand won when everyone else folded, as a round closed by calls would
    have them (the awards hold them, the uncalled bet already returned)."""
    return m.Pots(
        table=table, hand_no=hand_no,
        pots=tuple(m.Pot(amount=a.amount, eligible=a.eligible) for a in awards), carried=carried_in,
    )


def pots(table: int, view: HandView) -> m.Pots:
    return m.Pots(
        table=table, hand_no=view.hand_no,
        pots=tuple(m.Pot(amount=p.amount, eligible=p.eligible) for p in view.pots),
        carried=view.carried_in,
    )


SeatInfo = Callable[[int], tuple[str, str, bool, bool]]  # seat -> (player_id, name, sitting_out, connected)


def snapshot(
    *,
    table: int,
    max_seats: int,
    view: HandView | None,
    seated: Mapping[int, int],  # seat -> stack, for seats outside a hand
    info: SeatInfo,
    small_blind: int,
    big_blind: int,
    carry: int,
    button: int | None,
    your_seat: int | None,
    request_id: int | None = None,
    last_hand_no: int | None = None,
    clocks: tuple[int, int] | None = None,
    ante: int = 0,
) -> m.TableSnapshot:
    """A full table picture for one connection, from that connection's view of the hand.

    ``last_hand_no``: the hand last played, for a table between hands; ``clocks``: the
    acting seat's action clock and time bank left, in ms, while a decision is awaited.
    """
    seat_views: list[m.SeatView] = []
    in_hand = {s.seat: s for s in view.seats} if view is not None and not view.over else {}
    for seat in sorted(set(seated) | set(in_hand)):
        player_id, name, sitting_out, connected = info(seat)
        sv = in_hand.get(seat)
        if sv is not None:
            seat_views.append(m.SeatView(
                seat=seat, player_id=pid(player_id), name=name, stack=sv.stack, bet=sv.bet,
                folded=sv.folded, all_in=sv.all_in, sitting_out=sitting_out,
                connected=connected, cards=None if sv.cards is None else cards(sv.cards),
                in_hand=True,
            ))
        else:
            seat_views.append(m.SeatView(
                seat=seat, player_id=pid(player_id), name=name, stack=seated.get(seat, 0), bet=0,
                folded=False, all_in=False, sitting_out=sitting_out, connected=connected,
                cards=None, in_hand=False if in_hand else None,
            ))
    live = view is not None and not view.over
    your_cards = None
    if live and view is not None and your_seat is not None and your_seat in in_hand:
        mine = in_hand[your_seat].cards
        your_cards = None if mine is None else cards(mine)
    street = None
    if live and view is not None and view.street.value in ("preflop", "flop", "turn", "river"):
        street = view.street.value
    return m.TableSnapshot(
        id=request_id,
        table=table,
        max_seats=max_seats,
        hand_no=view.hand_no if view is not None else last_hand_no,
        street=street,  # type: ignore[arg-type]
        button=view.button if view is not None else button,
        small_blind=view.small_blind if live and view is not None else small_blind,
        big_blind=view.big_blind if live and view is not None else big_blind,
        seats=tuple(seat_views),
        board=cards(view.board) if live and view is not None else (),
        pots=tuple(m.Pot(amount=p.amount, eligible=p.eligible) for p in view.pots)
        if live and view is not None else (),
        carried=view.carried_in if live and view is not None else carry,
        to_act=view.to_act if live and view is not None else None,
        your_seat=your_seat,
        your_cards=your_cards,
        deadline_ms=clocks[0] if clocks is not None and live else None,
        time_bank_ms=clocks[1] if clocks is not None and live else None,
        ante=view.ante if live and view is not None else ante,
        small_blind_seat=view.small_blind_seat if live and view is not None else None,
        big_blind_seat=view.big_blind_seat if live and view is not None else None,
    )


def places(standings: Iterable[Standing]) -> tuple[m.Place, ...]:
    return tuple(
        m.Place(
            place=s.place, player_id=pid(s.player_id), name=s.name,
            chips=s.chips, eliminated_in_hand=s.hand_no, entry=s.entry, entries=s.entries,
        )
        for s in standings
    )
