"""Every tournament option in one frozen value (interpretation sections 1, 7, 8, 9).

The director changes options between hands by replacing the value (``attrs.evolve``), so
a hand in progress keeps the settings it was dealt with and the next hand gets the new
ones. Times are float seconds in the caller's time base (the same one ``now`` is given
in); the tournament never reads a clock, so the deadline is a value like any other.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from typing import Any

import attrs

from poker.actions import Ruleset
from poker.levels import DEFAULT_SCHEDULE, last_level, level_at
from poker.limits import MAX_CHIPS

from .errors import TournamentError

Schedule = tuple[tuple[int, int], ...]
Breaks = tuple[tuple[int, int], ...]  # (after level N, numbered from 1; minutes), by level
Antes = tuple[int, ...]  # the big-blind ante of each level of the schedule (issue 27)

# The bounds of every option (docs/director.md lists them): wide enough for any real night,
# narrow enough that no value can overflow a message (times go out in milliseconds, chips
# as integers up to MAX_CHIPS) or make the tournament loop (a level of a millisecond).
MAX_LEVELS = 200
ACTION_CLOCK_SECONDS = (1.0, 3600.0)
MAX_TIME_BANK_SECONDS = 86_400.0
MAX_RECONNECT_GRACE_SECONDS = 86_400.0
LEVEL_MINUTES = (1.0, 1_000_000.0)  # the top is about two years: a level that never ends
MAX_HANDS_PER_LEVEL = 1_000_000
BREAK_MINUTES = (1, 120)  # a break is a pause for people, not a way to stop the night
MAX_ENTRIES = 100  # entries per player, re-entries included
MAX_TV_DELAY_SECONDS = 3600.0  # the TV table's hole cards, at most an hour after the hand


def is_whole(value: object) -> bool:
    """An int, and not a bool (``True`` is an int to Python, never a number of chips)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    """A finite int or float, not a bool: NaN and infinities compare false with everything,
    so they would slip past every range check."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value)


def _to_schedule(levels: Iterable[Iterable[int]]) -> Schedule:
    """Levels as ``(small blind, big blind)`` pairs of whole numbers; refused with the first
    thing wrong (a level of 2.5 chips, a level written "100/200", a list of 10,000 levels)."""
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
        raise TournamentError(f"a blind schedule is a list of (small blind, big blind) levels, not {levels!r}")
    out: list[tuple[int, int]] = []
    for i, level in enumerate(levels, start=1):
        if i > MAX_LEVELS:
            raise TournamentError(f"a blind schedule has at most {MAX_LEVELS} levels (the blinds double after the last)")
        if isinstance(level, (str, bytes)) or not isinstance(level, Iterable):
            raise TournamentError(f"level {i} is (small blind, big blind), not {level!r}")
        pair = tuple(level)
        if len(pair) != 2 or not all(is_whole(x) for x in pair):
            raise TournamentError(f"level {i} is (small blind, big blind) in whole chips, not {pair!r}")
        out.append((pair[0], pair[1]))
    return tuple(out)


def _check_schedule(_: Any, __: Any, schedule: Schedule) -> None:
    if not schedule:
        raise TournamentError("a blind schedule needs at least one level")
    previous: tuple[int, int] | None = None
    for i, (sb, bb) in enumerate(schedule, start=1):
        if not 0 < sb <= bb:
            raise TournamentError(
                f"level {i} ({sb}/{bb}): blinds must satisfy 0 < small blind <= big blind"
            )
        if bb > MAX_CHIPS:
            raise TournamentError(f"level {i} ({sb}/{bb}): a big blind is at most {MAX_CHIPS} chips")
        if previous is not None and (bb <= previous[1] or sb < previous[0]):
            raise TournamentError(
                f"level {i} ({sb}/{bb}) after level {i - 1} ({previous[0]}/{previous[1]}): blinds rise "
                "level by level (a higher big blind, a small blind no lower)"
            )
        previous = (sb, bb)


def _to_antes(value: Iterable[int]) -> Antes:
    """Antes as whole numbers of chips, one per level of the schedule (checked with it)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TournamentError(f"antes are a list of chips, one per level, not {value!r}")
    out = tuple(value)
    if len(out) > MAX_LEVELS:
        raise TournamentError(f"at most {MAX_LEVELS} antes, one per level")
    for i, ante in enumerate(out, start=1):
        if not is_whole(ante) or not 0 <= ante <= MAX_CHIPS:
            raise TournamentError(f"the ante of level {i} is 0 to {MAX_CHIPS} whole chips, not {ante!r}")
    return out


def split_levels(levels: Iterable[Iterable[int]]) -> tuple[Schedule, Antes]:
    """A schedule written as ``(small blind, big blind)`` or ``(small blind, big blind, ante)``
    levels (``100/200/200``): the blinds, and the antes when any level gives one (a level
    without one has none). Refused with the first thing wrong, as ``_to_schedule`` does."""
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
        raise TournamentError(f"a blind schedule is a list of (small blind, big blind) levels, not {levels!r}")
    pairs: list[tuple[int, ...]] = []
    antes: list[int] = []
    for i, level in enumerate(levels, start=1):
        if i > MAX_LEVELS:
            raise TournamentError(f"a blind schedule has at most {MAX_LEVELS} levels (the blinds double after the last)")
        if isinstance(level, (str, bytes)) or not isinstance(level, Iterable):
            raise TournamentError(f"level {i} is (small blind, big blind[, ante]), not {level!r}")
        values = tuple(level)
        if len(values) == 3:
            pairs.append(values[:2])
            antes.append(values[2])
        else:
            pairs.append(values)
            antes.append(0)
    return _to_schedule(pairs), (_to_antes(antes) if any(a != 0 for a in antes) else ())


def _to_breaks(value: Iterable[Iterable[int]]) -> Breaks:
    """Breaks as ``(after level, minutes)`` pairs of whole numbers, by level; refused with
    the first thing wrong (a break of 2.5 minutes, a level 0, two breaks after one level)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TournamentError(f"breaks are a list of (after level, minutes), not {value!r}")
    out: dict[int, int] = {}
    low, high = BREAK_MINUTES
    for item in value:
        if len(out) >= MAX_LEVELS:
            raise TournamentError(f"at most {MAX_LEVELS} breaks")
        if isinstance(item, (str, bytes)) or not isinstance(item, Iterable):
            raise TournamentError(f"a break is (after level, minutes), not {item!r}")
        pair = tuple(item)
        if len(pair) != 2 or not all(is_whole(x) for x in pair):
            raise TournamentError(f"a break is (after level, minutes) in whole numbers, not {pair!r}")
        level, minutes = pair
        if level < 1:
            raise TournamentError(f"levels are numbered from 1: no break after level {level}")
        if not low <= minutes <= high:
            raise TournamentError(f"a break lasts {low} to {high} minutes, not {minutes}")
        if level in out:
            raise TournamentError(f"two breaks after level {level}: give one")
        out[level] = minutes
    return tuple(sorted(out.items()))


# The range checks are module-level functions bound to their ranges with ``partial``,
# not closures made by a factory: attrs takes the validators when the class is defined,
# at import, and a check written inside a factory would run as it was then (mutation
# testing could not judge it: docs/testing.md).


def _check_whole(low: int, high: int, _: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is None and attribute.name == "hands_per_level":
        return
    if not is_whole(value) or not low <= value <= high:  # type: ignore[operator]
        raise TournamentError(f"{attribute.name} is a whole number from {low} to {high}, not {value!r}")


def _check_seconds(low: float, high: float, unit: str, _: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    if not is_number(value) or not low <= value <= high:  # type: ignore[operator]
        raise TournamentError(f"{attribute.name} is from {low:g} to {high:g} {unit}, not {value!r}")


def _whole_in(low: int, high: int) -> Any:
    return functools.partial(_check_whole, low, high)


def _seconds_in(low: float, high: float, unit: str = "seconds") -> Any:
    return functools.partial(_check_seconds, low, high, unit)


def _deadline(_: Any, __: Any, value: object) -> None:
    if value is not None and not is_number(value):
        raise TournamentError(f"the deadline is a time (seconds) or none, not {value!r}")


def _seats(_: Any, __: Any, value: object) -> None:
    if not is_whole(value) or not 2 <= value <= 10:  # type: ignore[operator]
        raise TournamentError(f"seats per table must be 2 to 10, not {value!r}")


def _level_or_none(_: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and (not is_whole(value) or not 1 <= value <= 10_000):  # type: ignore[operator]
        raise TournamentError(f"{attribute.name} is a level from 1, or none, not {value!r}")


def _table_or_none(_: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and (not is_whole(value) or not 1 <= value <= 10_000):  # type: ignore[operator]
        raise TournamentError(f"{attribute.name} is a table number from 1, or none, not {value!r}")


def _flag(_: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, bool):
        raise TournamentError(f"{attribute.name} is on (true) or off (false), not {value!r}")


def _ruleset(value: object) -> Ruleset:
    try:
        return Ruleset(value)  # type: ignore[arg-type]  # any value: a bad one is refused below
    except (ValueError, TypeError):
        known = ", ".join(r.value for r in Ruleset)
        raise TournamentError(f"unknown ruleset {value!r} (known: {known})") from None


@attrs.frozen(kw_only=True)
class Settings:
    """The tournament's options. Defaults are the interpretation's.

    - Levels run by time (``level_minutes``) unless ``hands_per_level`` is set; then a level
      lasts that many hands per table in play (see ``clock.py``).
    - ``deadline``: when no new hand may start, in the time base of ``now`` (None: none).
      The server turns "midnight, local time" into that base.
    - ``breaks``: ``(N, minutes)``: when the level clock moves on from level N by itself
      (by time or by hands), play stops for that many minutes (``Tournament`` and
      docs/rules.md say how).
    - ``reconnect_grace``: seconds the server waits for a dropped connection before it
      announces the player as disconnected; the seat is kept regardless (section 8).

    Every value is checked against the bounds above, at construction and at every change
    (``attrs.evolve`` runs the same validators), and refused with a ``TournamentError``
    saying what is allowed.
    """

    name: str = "Hickory Poker Showdown"
    starting_stack: int = attrs.field(default=10_000, validator=_whole_in(1, MAX_CHIPS))
    schedule: Schedule = attrs.field(
        default=DEFAULT_SCHEDULE, converter=_to_schedule, validator=_check_schedule
    )
    level_minutes: float = attrs.field(default=20.0, validator=_seconds_in(*LEVEL_MINUTES, unit="minutes"))
    hands_per_level: int | None = attrs.field(default=None, validator=_whole_in(1, MAX_HANDS_PER_LEVEL))
    seats_per_table: int = attrs.field(default=9, validator=_seats)
    ruleset: Ruleset = attrs.field(default=Ruleset.HICKORY, converter=_ruleset)
    action_clock: float = attrs.field(default=30.0, validator=_seconds_in(*ACTION_CLOCK_SECONDS))
    time_bank: float = attrs.field(default=60.0, validator=_seconds_in(0.0, MAX_TIME_BANK_SECONDS))
    reconnect_grace: float = attrs.field(
        default=60.0, validator=_seconds_in(0.0, MAX_RECONNECT_GRACE_SECONDS)
    )
    deadline: float | None = attrs.field(default=None, validator=_deadline)
    breaks: Breaks = attrs.field(default=(), converter=_to_breaks)
    # The big-blind ante (TDA RP-11, issue 27): off unless the director turns it on or writes
    # antes into the schedule. On, each level's ante is ``antes`` (one per level of the
    # schedule), or the level's big blind when the schedule names none.
    big_blind_ante: bool = attrs.field(default=False, validator=_flag)
    antes: Antes = attrs.field(default=(), converter=_to_antes)
    # Re-entry (issue 27): how many entries a player may make, the first included (1: no
    # re-entry), and through which level (numbered from 1; None: as long as late
    # registration is open). Re-entry is only ever open while late registration is.
    max_entries: int = attrs.field(default=1, validator=_whole_in(1, MAX_ENTRIES))
    reentry_until: int | None = attrs.field(default=None, validator=_level_or_none)
    # The TV table (issue 27): its spectators see every player's hole cards, ``tv_delay``
    # seconds after each hand ends (0: as it ends), never while it is played. None: none.
    tv_table: int | None = attrs.field(default=None, validator=_table_or_none)
    tv_delay: float = attrs.field(default=0.0, validator=_seconds_in(0.0, MAX_TV_DELAY_SECONDS))

    def __attrs_post_init__(self) -> None:
        if self.antes and len(self.antes) != len(self.schedule):
            raise TournamentError(
                f"{len(self.antes)} antes for a schedule of {len(self.schedule)} levels: give one per level"
            )

    @property
    def by_hands(self) -> bool:
        return self.hands_per_level is not None

    @property
    def level_seconds(self) -> float:
        return self.level_minutes * 60.0

    @property
    def last_level(self) -> int:
        """The 0-based index of the last level (``poker.levels.last_level``)."""
        return last_level(self.schedule)

    def break_after(self, level: int) -> int | None:
        """The minutes of the break after ``level`` (numbered from 1), or None."""
        for after, minutes in self.breaks:
            if after == level:
                return minutes
        return None

    def ante(self, index: int) -> int:
        """The big-blind ante of the level with 0-based ``index`` (0: none). Past the end of
        the schedule it doubles with the blinds (at most ``MAX_CHIPS``)."""
        if not self.big_blind_ante:
            return 0
        if not self.antes:
            return self.blinds(index)[1]
        if index < len(self.antes):
            return self.antes[index]
        doubled: int = self.antes[-1] << (index - len(self.antes) + 1)
        return min(doubled, MAX_CHIPS)

    def blinds(self, index: int) -> tuple[int, int]:
        """(small blind, big blind) of the level with 0-based ``index``; doubling past the end
        up to ``last_level``."""
        return level_at(index, self.schedule)
