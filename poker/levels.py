"""The blind schedule (interpretation section 1), as data.

The tournament, the simulator and the director's "change the level" all read it from
here. Levels are numbered from 0 in code (``level_at(0)`` is 100/200); people see them
numbered from 1 ("level 3 (200/400)").

Past the end of a schedule the blinds double every level, but not for ever: the last level
is the last one whose big blind is at most ``MAX_CHIPS`` (with the default schedule, level
53); levels stop rising there (``last_level``).
"""

from __future__ import annotations

from .limits import MAX_CHIPS

DEFAULT_SCHEDULE: tuple[tuple[int, int], ...] = (
    (100, 200),
    (150, 300),
    (200, 400),
    (300, 600),
    (400, 800),
    (500, 1000),
    (700, 1400),
    (1000, 2000),
    (1500, 3000),
    (2000, 4000),
    (3000, 6000),
    (4000, 8000),
    (6000, 12000),
    (8000, 16000),
    (10000, 20000),
)
"""(small blind, big blind) per level; after the last, both double every level."""


def level_at(
    index: int, schedule: tuple[tuple[int, int], ...] = DEFAULT_SCHEDULE
) -> tuple[int, int]:
    """The (small blind, big blind) of level ``index`` (0-based): past the end, doubling,
    up to ``last_level``; a level past that does not exist (ValueError)."""
    if index < 0:
        raise ValueError(f"level index must be 0 or more, not {index}")
    if not schedule:
        raise ValueError("a blind schedule needs at least one level")
    if index < len(schedule):
        return schedule[index]
    last = last_level(schedule)
    if index > last:
        raise ValueError(
            f"level {index + 1} does not exist: blinds stop doubling at level {last + 1}, "
            f"the last whose big blind is at most {MAX_CHIPS}"
        )
    sb, bb = schedule[-1]
    factor = 2 ** (index - len(schedule) + 1)
    return sb * factor, bb * factor


def last_level(schedule: tuple[tuple[int, int], ...] = DEFAULT_SCHEDULE) -> int:
    """The 0-based index of the last level: the schedule's last, then as many doublings as
    keep the big blind at most ``MAX_CHIPS`` (in constant time: no blind is computed)."""
    if not schedule:
        raise ValueError("a blind schedule needs at least one level")
    bb = schedule[-1][1]
    if bb > MAX_CHIPS:  # a schedule the tournament would refuse: no doubling at all
        return len(schedule) - 1
    doublings = (MAX_CHIPS // bb).bit_length() - 1  # the largest k with bb * 2**k <= MAX_CHIPS
    return len(schedule) - 1 + doublings
