"""Every option's bounds, exactly: the last value allowed at each end is accepted, the next
one refused with a message naming the option and what is allowed (``settings.py``)."""

from __future__ import annotations

import pytest

from poker.limits import MAX_CHIPS
from server.tournament import Settings, TournamentError
from server.tournament.settings import (
    ACTION_CLOCK_SECONDS,
    LEVEL_MINUTES,
    MAX_HANDS_PER_LEVEL,
    MAX_RECONNECT_GRACE_SECONDS,
    MAX_TIME_BANK_SECONDS,
)

WHOLE = [
    ("starting_stack", 1, MAX_CHIPS),
    ("hands_per_level", 1, MAX_HANDS_PER_LEVEL),
]
SECONDS = [
    ("action_clock", *ACTION_CLOCK_SECONDS, "seconds"),
    ("time_bank", 0.0, MAX_TIME_BANK_SECONDS, "seconds"),
    ("reconnect_grace", 0.0, MAX_RECONNECT_GRACE_SECONDS, "seconds"),
    ("level_minutes", *LEVEL_MINUTES, "minutes"),
]


@pytest.mark.parametrize(("name", "low", "high"), WHOLE)
def test_whole_number_options_take_their_bounds_and_nothing_past_them(name: str, low: int, high: int) -> None:
    for ok in (low, high):
        assert getattr(Settings(**{name: ok}), name) == ok  # type: ignore[arg-type]
    for bad in (low - 1, high + 1, 2.5, "3", True):
        with pytest.raises(TournamentError) as info:
            Settings(**{name: bad})  # type: ignore[arg-type]
        assert str(info.value) == f"{name} is a whole number from {low} to {high}, not {bad!r}"


def test_levels_by_time_have_no_hands_per_level_but_the_stack_is_always_needed() -> None:
    assert Settings(hands_per_level=None).hands_per_level is None
    with pytest.raises(TournamentError, match="^starting_stack is a whole number from 1"):
        Settings(starting_stack=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "low", "high", "unit"), SECONDS)
def test_time_options_take_their_bounds_and_nothing_past_them(name: str, low: float, high: float, unit: str) -> None:
    for ok in (low, high, (low + high) / 2):
        assert getattr(Settings(**{name: ok}), name) == ok  # type: ignore[arg-type]
    for bad in (low - 0.5, high + 0.5, float("nan"), "30", None):
        with pytest.raises(TournamentError) as info:
            Settings(**{name: bad})  # type: ignore[arg-type]
        assert str(info.value) == f"{name} is from {low:g} to {high:g} {unit}, not {bad!r}"
