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


@attrs.frozen(kw_only=True, weakref_slot=False)
class _Twinned:
    a: int
    b: tuple[int, ...]
    c: str | None


@attrs.frozen(kw_only=True)
class _WithWeakref:
    a: int
    b: tuple[int, ...]
    c: str | None


@attrs.frozen(kw_only=True, weakref_slot=False)
class _Derived(_Twinned):
    d: int


@attrs.define(kw_only=True)
class _Mutable:
    a: int
    b: tuple[int, ...]
    c: str | None


@pytest.mark.parametrize("cls", [_Twinned, _WithWeakref, _Mutable])
def test_every_way_of_making_builds_the_class_itself_with_every_field(cls: type) -> None:
    """Through a twin class (frozen, no weakref slot), slot by slot (a weakref slot: CPython
    3.11 lets no twin stand in), or with plain stores (not frozen): the same record."""
    made = maker(cls)(7, (1, 2), None)
    assert type(made) is cls
    assert made == cls(a=7, b=(1, 2), c=None) and made != cls(a=7, b=(1, 2), c="x")
    assert (made.a, made.b, made.c) == (7, (1, 2), None)
    if cls is not _Mutable:
        assert hash(made) == hash(cls(a=7, b=(1, 2), c=None))
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            made.a = 8


def test_a_subclass_is_made_with_its_base_fields_too() -> None:
    made = maker(_Derived)(1, (), "x", 4)
    assert type(made) is _Derived and made == _Derived(a=1, b=(), c="x", d=4)


def test_the_engine_s_records_are_made_through_their_twins() -> None:
    """The engine's hot path: its events, legal actions, pots and result take the fast
    way; a weakref slot put back on one of them would silently cost a call per field."""
    makers = [getattr(hand_module, name) for name in dir(hand_module)
              if getattr(getattr(hand_module, name), "__name__", "") == "make"]
    frozen = [m for m in makers if m.__globals__["_cls"].__setattr__ is not object.__setattr__]
    assert len(frozen) >= 12
    assert all("_twin" in m.__globals__ for m in frozen), [
        m.__globals__["_cls"].__name__ for m in frozen if "_twin" not in m.__globals__]
