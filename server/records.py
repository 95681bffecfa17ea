"""Hand events as stored rows, and hand records as a requester may see them.

Events are stored as JSON objects (``{"type": "ActionTaken", ...}``) with cards as text,
so the database is readable with any SQLite tool. A ``HandRecord`` for a history reply
is rebuilt from the stored events and filtered for the requester: their own cards, and
other players' cards only where they were shown.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

import protocol.messages as m
from poker import events as ev
from poker.actions import ActionKind
from poker.cards import FULL_DECK, card_str, parse_card
from server.rows import row_json

_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        ev.HandStarted, ev.AntePosted, ev.BlindPosted, ev.HoleCardsDealt, ev.ActionTaken, ev.BoardDealt,
        ev.UncalledBetReturned, ev.BetsGathered, ev.HandShown, ev.PotAwarded, ev.HandEnded,
    )
}
_CARD_FIELDS = {"cards", "board"}


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


_CARD_TEXT = tuple(card_str(c) for c in FULL_DECK)


def _encoder(cls: type[Any]) -> Callable[[Any], str]:
    """The function writing an event of ``cls`` as its stored row: one dict display of its
    fields in order, cards as text, handed to ``row_json`` (a tuple is written as a JSON
    array and an event's enums are ``StrEnum``s, written as their value; a field of another
    type JSON has no word for fails loudly, as ``json.dumps`` does). Generated once per
    class, like ``poker.makers``: a hand stores a few events per action."""
    items = [f'"type": {cls.__name__!r}']
    for f in attrs.fields(cls):
        value = f"[_text[c] for c in e.{f.name}]" if f.name in _CARD_FIELDS else f"e.{f.name}"
        items.append(f"{f.name!r}: {value}")
    namespace: dict[str, Any] = {"_row_json": row_json, "_text": _CARD_TEXT}
    source = f"def encode(e):\n    return _row_json({{{', '.join(items)}}})\n"
    exec(source, namespace)  # noqa: S102 (generated from the field names above)
    encode: Callable[[Any], str] = namespace["encode"]
    return encode


_ENCODERS: dict[type[Any], Callable[[Any], str]] = {}


def event_to_json(event: ev.Event) -> str:
    """The stored row of an event: its hash goes into the fairness chain, so the text is
    fixed (``tests/persistence/test_records.py`` holds it to a plain ``json.dumps``)."""
    encode = _ENCODERS.get(type(event))
    if encode is None:
        encode = _ENCODERS[type(event)] = _encoder(type(event))
    return encode(event)


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
