"""A stored event's text: what ``event_to_json`` writes is fixed, because its hash is in the
fairness chain and a restart encodes the events of a resumed hand again (``fairness.py``)."""

from __future__ import annotations

import collections
import json
from typing import Any

import attrs

from poker import events as ev
from poker.cards import card_str
from poker.hand import Hand
from server.records import event_from_json, event_to_json
from server.tournament.settings import Settings
from server.tournament.simulate import run_tournament
from server.tournament.tournament import Tournament


def plain(event: ev.Event) -> str:
    """The reference: each field by itself, cards as text, enums as their values."""
    data: dict[str, Any] = {"type": type(event).__name__}
    for f in attrs.fields(type(event)):
        value = getattr(event, f.name)
        if f.name in ("cards", "board"):
            value = [card_str(c) for c in value]
        elif hasattr(value, "value"):
            value = value.value
        data[f.name] = value
    return json.dumps(data, separators=(",", ":"))


def test_every_event_of_simulated_tournaments_is_stored_as_plain_json_and_reads_back() -> None:
    kinds: collections.Counter[str] = collections.Counter()

    def check(t: Tournament, table_id: int, hand: Hand, new: object) -> None:
        for e in hand.events:
            text = event_to_json(e)
            assert text == plain(e), e
            assert event_from_json(text) == e
            kinds[type(e).__name__] += 1

    for seed in range(3):
        run_tournament(players=12, seed=seed, seats=6, hands_per_level=5, after_hand=check)
    antes = Settings(seats_per_table=6, hands_per_level=5, big_blind_ante=True)
    run_tournament(players=12, seed=9, settings=antes, after_hand=check)
    assert set(kinds) == {c.__name__ for c in ev.Event.__args__}, kinds  # every kind was seen


def test_odd_values_are_written_as_json_dumps_writes_them() -> None:
    events = [
        ev.HandShown(seat=1, cards=(0, 51), hand_name=None),
        ev.HandShown(seat=2, cards=(), hand_name='Pair of "deuces" é \u2028'),
        ev.PotAwarded(index=0, amount=10**15, eligible=(), winners=((1, 2**70),), hand_name=None, remainder=0),
    ]
    for e in events:
        assert event_to_json(e) == plain(e)
