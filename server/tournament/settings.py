"""Every tournament option in one frozen value (interpretation sections 1, 7, 8, 9).

The director changes options between hands by replacing the value (``attrs.evolve``), so
a hand in progress keeps the settings it was dealt with and the next hand gets the new
ones. Times are float seconds in the caller's time base (the same one ``now`` is given
in); the tournament never reads a clock, so the deadline is a value like any other.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from poker.actions import Ruleset
from poker.levels import DEFAULT_SCHEDULE, level_at

from .errors import TournamentError

Schedule = tuple[tuple[int, int], ...]


def _to_schedule(levels: Iterable[Iterable[int]]) -> Schedule:
    out = []
    for level in levels:
        pair = tuple(level)
        if len(pair) != 2:
            raise TournamentError(f"a level is (small blind, big blind), not {pair!r}")
        out.append((int(pair[0]), int(pair[1])))
    return tuple(out)


def _check_schedule(_: Any, __: Any, schedule: Schedule) -> None:
    if not schedule:
        raise TournamentError("a blind schedule needs at least one level")
    for i, (sb, bb) in enumerate(schedule, start=1):
        if not 0 < sb <= bb:
            raise TournamentError(
                f"level {i} ({sb}/{bb}): blinds must satisfy 0 < small blind <= big blind"
            )


def _positive(_: Any, attribute: attrs.Attribute[Any], value: float | int | None) -> None:
    if value is not None and not value > 0:
        raise TournamentError(f"{attribute.name} must be more than 0, not {value}")


def _not_negative(_: Any, attribute: attrs.Attribute[Any], value: float) -> None:
    if value < 0:
        raise TournamentError(f"{attribute.name} must be 0 or more, not {value}")


def _seats(_: Any, __: Any, value: int) -> None:
    if not 2 <= value <= 10:
        raise TournamentError(f"seats per table must be 2 to 10, not {value}")


@attrs.frozen(kw_only=True)
class Settings:
    """The tournament's options. Defaults are the interpretation's.

    - Levels run by time (``level_minutes``) unless ``hands_per_level`` is set; then a level
      lasts that many hands per table in play (see ``clock.py``).
    - ``deadline``: when no new hand may start, in the time base of ``now`` (None: none).
      The server turns "midnight, local time" into that base.
    - ``reconnect_grace``: seconds the server waits for a dropped connection before it
      announces the player as disconnected; the seat is kept regardless (section 8).
    """

    name: str = "Hickory Poker Showdown"
    starting_stack: int = attrs.field(default=10_000, validator=_positive)
    schedule: Schedule = attrs.field(
        default=DEFAULT_SCHEDULE, converter=_to_schedule, validator=_check_schedule
    )
    level_minutes: float = attrs.field(default=20.0, validator=_positive)
    hands_per_level: int | None = attrs.field(default=None, validator=_positive)
    seats_per_table: int = attrs.field(default=9, validator=_seats)
    ruleset: Ruleset = attrs.field(default=Ruleset.HICKORY, converter=Ruleset)
    action_clock: float = attrs.field(default=30.0, validator=_positive)
    time_bank: float = attrs.field(default=60.0, validator=_not_negative)
    reconnect_grace: float = attrs.field(default=60.0, validator=_not_negative)
    deadline: float | None = None

    @property
    def by_hands(self) -> bool:
        return self.hands_per_level is not None

    @property
    def level_seconds(self) -> float:
        return self.level_minutes * 60.0

    def blinds(self, index: int) -> tuple[int, int]:
        """(small blind, big blind) of the level with 0-based ``index``; doubling past the end."""
        return level_at(index, self.schedule)
