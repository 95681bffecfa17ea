"""Every tournament test also checks a contract no single test states: what the tournament
and the director return (events, audit records, level information) holds values of the
types its classes declare. The server encodes these for the wire and stores them in the
log; a ``None`` where a time or a name belongs would be sent or stored as it is. Mutation
testing found many such slips that no test looked at (docs/testing.md), so the check runs
on every call a test makes, not in a few chosen tests.
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs
import pytest

from server.tournament import Director, Tournament
from server.tournament.floor import Floor

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def type_errors(value: object, hint: Any, path: str) -> Iterator[str]:
    """Where ``value`` is not of type ``hint`` (the forms the tournament's classes use;
    any other form is taken on trust)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any or isinstance(hint, typing.TypeVar):
        return
    if hint is None or hint is type(None):
        if value is not None:
            yield f"{path} is {value!r}, not None"
        return
    if origin in (typing.Union, types.UnionType):
        if not any(not list(type_errors(value, a, path)) for a in args):
            yield f"{path} is {value!r}, not {hint}"
        return
    if origin is typing.Literal:
        if value not in args:
            yield f"{path} is {value!r}, not one of {args}"
        return
    if origin is tuple:
        if not isinstance(value, tuple):
            yield f"{path} is {value!r}, not a tuple"
        elif len(args) == 2 and args[1] is Ellipsis:
            for i, item in enumerate(value):
                yield from type_errors(item, args[0], f"{path}[{i}]")
        elif args and len(args) == len(value):
            for i, (item, a) in enumerate(zip(value, args, strict=True)):
                yield from type_errors(item, a, f"{path}[{i}]")
        elif args:
            yield f"{path} has {len(value)} items, not {len(args)}"
        return
    if origin in (list, frozenset, set) or hint in (list, frozenset, set):
        if not isinstance(value, origin or hint):
            yield f"{path} is {value!r}, not a {hint}"
        elif args:
            for i, item in enumerate(value):
                yield from type_errors(item, args[0], f"{path}[{i}]")
        return
    if origin in (dict, Mapping):
        if not isinstance(value, Mapping):
            yield f"{path} is {value!r}, not a mapping"
        return
    if hint is float:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            yield f"{path} is {value!r}, not a number"
        return
    if hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            yield f"{path} is {value!r}, not a whole number"
        return
    if hint is bool:
        if not isinstance(value, bool):
            yield f"{path} is {value!r}, not true or false"
        return
    if isinstance(hint, type):
        if not isinstance(value, hint):
            yield f"{path} is {value!r}, not a {hint.__name__}"
        elif attrs.has(hint) or attrs.has(type(value)):
            yield from attrs_errors(value, path)
        return


def attrs_errors(value: object, path: str) -> Iterator[str]:
    cls = type(value)
    if isinstance(value, enum.Enum) or not attrs.has(cls):
        return
    hints = _hints(cls)
    for field in attrs.fields(cls):
        if field.name in hints:
            yield from type_errors(getattr(value, field.name), hints[field.name], f"{path}.{field.name}")


def check_result(result: object, hint: Any, where: str) -> None:
    errors = list(type_errors(result, hint, where))
    assert not errors, "\n".join(errors)


def _checked(cls: type, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    try:
        hint = typing.get_type_hints(method).get("return", Any)
    except (NameError, TypeError):  # an annotation only the type checker resolves
        hint = Any

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        result = method(*args, **kwargs)
        check_result(result, hint, f"{cls.__name__}.{name}()")
        return result

    return call


@pytest.fixture(autouse=True)
def _results_are_well_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    for cls in (Tournament, Director, Floor):
        for name, method in list(vars(cls).items()):
            # (mutmut's copies of each method, named with "ǁ", are reached through the method)
            if name.startswith("__") or "ǁ" in name or not callable(method) or isinstance(
                method, (staticmethod, classmethod, type)
            ):
                continue
            monkeypatch.setattr(cls, name, _checked(cls, name, method))
