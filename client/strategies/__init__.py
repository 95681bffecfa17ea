"""Built-in bot strategies, as pure code: a ``Situation`` in, an engine ``Action`` out.

``make_strategy("solid", random.Random(7))`` builds one by name; ``STRATEGIES`` lists them.
The same objects play in-process (``arena``) and, through the client library, over the
network.
"""

from __future__ import annotations

import random
from typing import Any

from .base import Clock, Opponent, SeenAction, Situation, Strategy, situation_from_view
from .calling_station import CallingStation
from .random_bot import RandomBot
from .solid import Solid

__all__ = [
    "STRATEGIES",
    "CallingStation",
    "Clock",
    "Opponent",
    "RandomBot",
    "SeenAction",
    "Situation",
    "Solid",
    "Strategy",
    "make_strategy",
    "situation_from_view",
]

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (RandomBot, CallingStation, Solid)
}


def make_strategy(name: str, rng: random.Random, **options: Any) -> Strategy:
    """A new strategy by its registry name; ``options`` go to its constructor
    (``time_budget``, ``clock``, and for ``solid`` ``iterations``)."""
    try:
        cls = STRATEGIES[name]
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise ValueError(f"unknown strategy {name!r}: choose one of {known}") from None
    return cls(rng, **options)
