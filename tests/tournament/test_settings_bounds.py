"""Each number a tournament is configured with is accepted at both ends of its range and
refused just past them, with a message naming the setting, the range and the value
(docs/testing.md: mutants of these bounds and messages lived)."""

from __future__ import annotations

import pytest

from poker.limits import MAX_CHIPS
from server.tournament import Settings, TournamentError

# (setting, low, high, unit in the message, a step past each end)
RANGES = [
    ("starting_stack", 1, MAX_CHIPS, None, 1),
    ("hands_per_level", 1, 1_000_000, None, 1),
    ("level_minutes", 1.0, 1_000_000.0, "minutes", 0.5),
    ("action_clock", 1.0, 3600.0, "seconds", 0.5),
    ("time_bank", 0.0, 86_400.0, "seconds", 0.5),
    ("reconnect_grace", 0.0, 86_400.0, "seconds", 0.5),
]


@pytest.mark.parametrize(("name", "low", "high", "unit", "step"), RANGES)
def test_a_setting_is_accepted_at_both_ends_of_its_range(
    name: str, low: float, high: float, unit: str | None, step: float
) -> None:
    for value in (low, high):
        assert getattr(Settings(**{name: value}), name) == value


@pytest.mark.parametrize(("name", "low", "high", "unit", "step"), RANGES)
def test_a_setting_just_outside_its_range_is_refused_naming_range_and_value(
    name: str, low: float, high: float, unit: str | None, step: float
) -> None:
    for value in (low - step, high + step):
        with pytest.raises(TournamentError) as info:
            Settings(**{name: value})
        if unit is None:
            expected = f"{name} is a whole number from {low} to {high}, not {value!r}"
        else:
            expected = f"{name} is from {low:g} to {high:g} {unit}, not {value!r}"
        assert str(info.value) == expected


def test_hands_per_level_may_be_none_and_nothing_else_may() -> None:
    assert Settings(hands_per_level=None).hands_per_level is None
    with pytest.raises(TournamentError, match="^starting_stack is a whole number"):
        Settings(starting_stack=None)  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="^action_clock is from 1 to 3600 seconds, not None$"):
        Settings(action_clock=None)  # type: ignore[arg-type]


def test_breaks_take_their_bounds_and_refuse_each_wrong_shape_by_name() -> None:
    from server.tournament.settings import MAX_LEVELS

    assert Settings(breaks=[(3, 1), [1, 120]]).breaks == ((1, 120), (3, 1))  # sorted by level
    assert len(Settings(breaks=[(n, 5) for n in range(1, MAX_LEVELS + 1)]).breaks) == MAX_LEVELS

    def refused(breaks: object) -> str:
        with pytest.raises(TournamentError) as info:
            Settings(breaks=breaks)  # type: ignore[arg-type]
        return str(info.value)

    assert refused("1:10") == "breaks are a list of (after level, minutes), not '1:10'"
    assert refused(7) == "breaks are a list of (after level, minutes), not 7"
    assert refused([(n, 5) for n in range(1, MAX_LEVELS + 2)]) == f"at most {MAX_LEVELS} breaks"
    assert refused(["1:10"]) == "a break is (after level, minutes), not '1:10'"
    assert refused([7]) == "a break is (after level, minutes), not 7"
    assert refused([(1, 10, 5)]) == "a break is (after level, minutes) in whole numbers, not (1, 10, 5)"
    assert refused([(1, 2.5)]) == "a break is (after level, minutes) in whole numbers, not (1, 2.5)"
    assert refused([(0, 10)]) == "levels are numbered from 1: no break after level 0"
    assert refused([(1, 0)]) == "a break lasts 1 to 120 minutes, not 0"
    assert refused([(1, 121)]) == "a break lasts 1 to 120 minutes, not 121"
    assert refused([(2, 10), (2, 5)]) == "two breaks after level 2: give one"
