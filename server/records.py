"""Hand events as stored rows, and hand records as a requester may see them.

Events are stored as JSON objects (``{"type": "ActionTaken", ...}``) with cards as text,
so the database is readable with any SQLite tool. A ``HandRecord`` for a history reply
is rebuilt from the stored events and filtered for the requester: their own cards, and
other players' cards only where they were shown.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

import protocol.messages as m
from poker import events as ev
from poker.actions import ActionKind
from poker.cards import card_str, parse_card
from server.store import row_json

_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        ev.HandStarted, ev.AntePosted, ev.BlindPosted, ev.HoleCardsDealt, ev.ActionTaken, ev.BoardDealt,
        ev.UncalledBetReturned, ev.BetsGathered, ev.HandShown, ev.PotAwarded, ev.HandEnded,
    )
}
_CARD_FIELDS = {"cards", "board"}


def _lists(value: Any) -> Any:
    return [_lists(v) for v in value] if isinstance(value, tuple) else value


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


_FIELDS: dict[type[Any], tuple[str, ...]] = {}  # each event class's field names, in order


def event_to_json(event: ev.Event) -> str:
    """The stored row of an event (a hand's events are stored as they happen: a few per
    action, so the field names are looked up once per class)."""
    cls = type(event)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls))
    data: dict[str, Any] = {"type": cls.__name__}
    for name in names:
        value = getattr(event, name)
        if name in _CARD_FIELDS:
            value = [card_str(c) for c in value]
        elif isinstance(value, tuple):
            value = _lists(value)
        elif isinstance(value, enum.Enum):
            value = value.value
        data[name] = value
    return row_json(data)


def event_from_json(text: str) -> ev.Event:
    data = json.loads(text)
    cls = _TYPES[data.pop("type")]
    kwargs: dict[str, Any] = {}
    for field in attrs.fields(cls):
        if field.name not in data and field.default is not attrs.NOTHING:
            continue  # a field added since the row was stored (HandStarted.ante): its default
        value = data[field.name]
        if field.name in _CARD_FIELDS:
            value = tuple(parse_card(c) for c in value)
        elif field.name == "street":
            value = ev.Street(value)
        elif field.name == "action":
            value = ActionKind(value)
        elif isinstance(value, list):
            value = _tuples(value)
        kwargs[field.name] = value
    event: ev.Event = cls(**kwargs)
    return event


def hand_record(
    *,
    table: int,
    hand_no: int,
    level: int,
    events: Iterable[ev.Event],
    players: Mapping[int, tuple[str, str]],  # seat -> (player_id, name)
    viewer: str | None,
) -> m.HandRecord:
    """A finished hand as ``viewer`` (a player id, or None) may see it."""
    evs = list(events)
    started = next(e for e in evs if isinstance(e, ev.HandStarted))
    your_seat = next((s for s, (p, _) in players.items() if p == viewer), None)
    your_cards = None
    if your_seat is not None:
        mine = [e for e in evs if isinstance(e, ev.HoleCardsDealt) and e.seat == your_seat]
        your_cards = tuple(card_str(c) for c in mine[0].cards) if mine else None
    board: tuple[str, ...] = ()
    stacks: tuple[m.SeatStack, ...] = ()
    carried_out = 0
    for e in evs:
        if isinstance(e, ev.BoardDealt):
            board = tuple(card_str(c) for c in e.board)
        elif isinstance(e, ev.HandEnded):
            stacks = tuple(m.SeatStack(seat=s, stack=st) for s, st in e.stacks)
            carried_out = e.carried_out
    return m.HandRecord(
        table=table,
        hand_no=hand_no,
        level=level,
        button=started.button,
        small_blind=started.small_blind,
        big_blind=started.big_blind,
        carried_in=started.carried_in,
        players=tuple(
            m.HandPlayer(seat=s, player_id=int(players[s][0]), name=players[s][1], stack=st)
            for s, st in started.stacks
        ),
        blinds=tuple(
            m.BlindPost(seat=e.seat, blind="small" if e.blind == "small" else "big",
                        amount=e.amount, all_in=e.all_in)
            for e in evs if isinstance(e, ev.BlindPosted)
        ),
        actions=tuple(
            m.HandAction(street=e.street.value, seat=e.seat, action=e.action.value,  # type: ignore[arg-type]
                         amount=e.amount, to=e.to, all_in=e.all_in, automatic=e.automatic)
            for e in evs if isinstance(e, ev.ActionTaken)
        ),
        board=board,
        shown=tuple(
            m.ShownHand(seat=e.seat, cards=tuple(card_str(c) for c in e.cards),
                        hand_name=e.hand_name or "")
            for e in evs if isinstance(e, ev.HandShown)
        ),
        your_seat=your_seat,
        your_cards=your_cards,
        results=tuple(
            m.PotResult(pot=e.index, amount=e.amount,
                        winners=tuple(m.Winner(seat=s, amount=a) for s, a in e.winners),
                        remainder_carried=e.remainder, hand_name=e.hand_name)
            for e in evs if isinstance(e, ev.PotAwarded)
        ),
        carried_out=carried_out,
        stacks=stacks,
        ante=sum(e.amount for e in evs if isinstance(e, ev.AntePosted)),
    )
