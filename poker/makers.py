"""Positional constructors for the engine's own frozen records, for its hot path.

A frozen slotted attrs class builds an instance with keyword parsing and one bound
``object.__setattr__`` call per field: about 1 us for a seven-field event, and a hand
builds some 50 records (events, ``LegalActions``). The engine knows it passes every field
with a value of the right type, so inside ``poker/`` it may build them in field order
without the checks: through a twin class of the same slots that takes plain stores and
then hands the instance its class (``_twin``; 17% fewer instructions per hand of
``bench/engine.py`` than slot descriptor calls), else through the slot descriptors (half
the constructor's cost); a class that is not frozen takes plain stores itself.

The records are the same class, equal to what the class's own constructor gives, and still
frozen; other callers keep using the classes as before, but for the tournament's own
records built by the hundred (``server/tournament/events.py``, ``standings.py``) and the
server's records and messages of every decision (``Action``, ``Location``, ``TableAct``,
``Logged``, ``Applied``; ``action``, ``legal`` and ``your_turn`` in ``server/outbound.py``:
about 4% of the server's instructions per decision went to attrs' constructors there). Called
with keywords it names every field, so a field left out is an error. ``maker`` refuses a
class whose constructor does more than store its fields (validators, converters,
``__attrs_post_init__``), because those would be skipped; a default (a factory too) is not
applied, so every field is passed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    """A function taking every field of ``cls`` positionally, in declaration order."""
    fields = attrs.fields(cls)  # type: ignore[arg-type]
    if hasattr(cls, "__attrs_post_init__") or hasattr(cls, "__attrs_pre_init__"):
        raise TypeError(f"{cls.__name__} runs code at construction; build it with its constructor")
    for f in fields:
        if f.validator is not None or f.converter is not None or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name} is checked or converted; build it with its constructor")
    names = [f.name for f in fields]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    stores = "".join(f"    o.{name} = {name}\n" for name in names)
    if cls.__setattr__ is object.__setattr__:  # not frozen: its own slots take plain stores
        body = f"    o = _new(_cls)\n{stores}"
    elif (twin := _twin(cls)) is not None:
        namespace["_twin"] = twin
        body = f"    o = _new(_twin)\n{stores}    o.__class__ = _cls\n"
    else:
        body = "    o = _new(_cls)\n"
        for i, name in enumerate(names):
            # the slot's member descriptor, in the class that declares the field
            slot = next(k.__dict__[name] for k in cls.__mro__ if name in k.__dict__)
            namespace[f"_set{i}"] = slot.__set__
            body += f"    _set{i}(o, {name})\n"
    source = f"def make({', '.join(names)}):\n{body}    return o\n"
    exec(source, namespace)  # noqa: S102 (generated from the field names above, like attrs does)
    make: Callable[..., T] = namespace["make"]
    make.__doc__ = f"{cls.__name__}({', '.join(names)}), positional, without the checks."
    return make


def _twin(cls: type) -> type | None:
    """A plain class with the slots of the frozen ``cls``, laid out the same, or None.

    Its instances take each field with a plain attribute store (the interpreter's fastest,
    where the frozen class's ``__setattr__`` refuses it and a slot descriptor's ``__set__`` is
    a call per field), and then become ``cls`` by ``__class__`` assignment, which CPython
    allows between classes of the same layout: the engine's records at about half the cost.
    CPython 3.11's layout test miscounts a ``__weakref__`` slot that follows the fields, so a
    class with one (attrs' default; the engine's records say ``weakref_slot=False``) has no
    twin there, nor has a class whose base holds slots: the probe below finds out."""
    slots = cls.__dict__.get("__slots__")
    if not slots:
        return None
    twin = type(f"{cls.__name__}Slots", (), {"__slots__": tuple(slots), "__module__": cls.__module__})
    probe: Any = object.__new__(twin)
    try:
        probe.__class__ = cls
    except TypeError:
        return None
    return twin
