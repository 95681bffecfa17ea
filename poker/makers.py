"""Positional constructors for the engine's own frozen records, for its hot path.

A frozen slotted attrs class builds an instance with keyword parsing and one bound
``object.__setattr__`` call per field: about 1 us for a seven-field event, and a hand
builds some 50 records (events, ``LegalActions``). The engine knows it passes every field
with a value of the right type, so inside ``poker/`` it may build them through the slot
descriptors directly, in field order, at about half the cost (``bench/engine.py``).

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
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = cls.__dict__[name].__set__  # the slot's member descriptor
    body = "".join(f"    _set{i}(o, {name})\n" for i, name in enumerate(names))
    source = f"def make({', '.join(names)}):\n    o = _new(_cls)\n{body}    return o\n"
    exec(source, namespace)  # noqa: S102 (generated from the field names above, like attrs does)
    make: Callable[..., T] = namespace["make"]
    make.__doc__ = f"{cls.__name__}({', '.join(names)}), positional, without the checks."
    return make
