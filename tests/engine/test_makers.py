"""The engine's positional record makers build exactly what the classes' constructors do."""

from __future__ import annotations

import attrs
import pytest

from poker import hand as hand_module
from poker.actions import ActionKind, LegalActions
from poker.events import ActionTaken, Street
from poker.makers import maker


def test_a_made_record_equals_the_constructed_one_and_stays_frozen() -> None:
    made = hand_module._action_taken(3, Street.FLOP, ActionKind.CALL, 200, 400, False, True)
    built = ActionTaken(seat=3, street=Street.FLOP, action=ActionKind.CALL, amount=200, to=400, all_in=False, automatic=True)
    assert type(made) is ActionTaken
    assert made == built and hash(made) == hash(built)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.seat = 4  # type: ignore[misc]


def test_every_maker_in_the_engine_takes_its_class_fields_in_order() -> None:
    """A field added to an event must not shift the engine's positional arguments silently."""
    for name in dir(hand_module):
        make = getattr(hand_module, name)
        if name.startswith("_") and callable(make) and getattr(make, "__name__", "") == "make":
            cls = make.__globals__["_cls"]
            assert make.__code__.co_varnames[: make.__code__.co_argcount] == tuple(
                f.name for f in attrs.fields(cls)
            )
    legal = hand_module._legal_actions(1, True, False, 200, 400, 10_000, 200, 200, 10_000, 0)
    assert legal == LegalActions(
        seat=1, fold=True, check=False, call=200, min_raise_to=400, max_raise_to=10_000,
        to_call=200, current_bet=200, stack=10_000, bet=0,
    )


def test_a_class_with_checks_is_refused() -> None:
    @attrs.frozen
    class Checked:
        n: int = attrs.field(validator=attrs.validators.instance_of(int))

    with pytest.raises(TypeError, match="checked or converted"):
        maker(Checked)
