"""Where the blind schedule ends (poker/levels.py): doubling past the table, and the last
level, the last whose big blind is at most MAX_CHIPS. test_rules.py has the schedule."""

from __future__ import annotations

import pytest

from poker.levels import DEFAULT_SCHEDULE, last_level, level_at
from poker.limits import MAX_CHIPS


def test_the_default_schedule_ends_at_level_53() -> None:
    assert last_level() == last_level(DEFAULT_SCHEDULE) == 52  # 0-based: "level 53"
    small, big = level_at(52)
    assert big <= MAX_CHIPS < 2 * big and small * 2 == big


def test_the_last_level_is_found_without_computing_a_blind() -> None:
    for big in (1, 2, 3, 200, 20_000, 2**52, MAX_CHIPS):
        schedule = ((1, 2), (big // 2 or 1, big))
        doublings = 0
        while big * 2 ** (doublings + 1) <= MAX_CHIPS:
            doublings += 1
        assert last_level(schedule) == 1 + doublings, big
        assert level_at(1 + doublings, schedule)[1] == big * 2**doublings


def test_a_schedule_already_past_the_limit_has_no_doubling() -> None:
    assert last_level(((1, 2), (MAX_CHIPS, MAX_CHIPS + 1))) == 1
    assert last_level(((1, 2), (5, 10), (MAX_CHIPS, MAX_CHIPS + 1))) == 2


def test_a_level_past_the_last_is_refused_naming_both() -> None:
    with pytest.raises(ValueError) as info:
        level_at(53)
    assert str(info.value) == (
        f"level 54 does not exist: blinds stop doubling at level 53, "
        f"the last whose big blind is at most {MAX_CHIPS}"
    )


def test_an_empty_schedule_has_no_last_level() -> None:
    with pytest.raises(ValueError) as info:
        last_level(())
    assert str(info.value) == "a blind schedule needs at least one level"
