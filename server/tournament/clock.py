"""The level clock: which level is on, and when the next one comes.

Time is a float of seconds passed in (``now``), in any monotonic base; the clock keeps
"tournament time", the seconds it has run, so a pause (or a server that is down) does not
eat into a level. Levels run either by time or by hands:

- By time: a level ends when it has run ``level_seconds`` of tournament time.
- By hands: a level lasts ``hands_per_level`` hands *per table in play*: it ends when the
  hands finished during it reach ``hands_per_level`` times the number of tables at that
  moment. With one table that is exactly the number of hands; with several it is the same
  on average, without holding every table back for the slowest one.

Levels stop rising at ``last`` (``poker.levels.last_level``: the last level whose blinds
are at most ``MAX_CHIPS``), however long the night runs.

The clock only says which level is on. When the blinds change is the tournament's
business: a hand keeps the blinds it was dealt with, and a new level applies from the next
hand dealt at each table (interpretation 1).
"""

from __future__ import annotations

import attrs


@attrs.define(kw_only=True)
class LevelClock:
    index: int = 0  # the level on now, 0-based (people see index + 1)
    started: bool = False
    running: bool = False
    _ran: float = 0.0  # tournament seconds run before ``_since``
    _since: float = 0.0  # the ``now`` the clock last started running from
    level_began: float = 0.0  # tournament seconds when the current level began
    hands_in_level: int = 0

    def elapsed(self, now: float) -> float:
        """Tournament seconds run so far (time going backwards counts as none)."""
        if not self.running:
            return self._ran
        return self._ran + max(0.0, now - self._since)

    def start(self, now: float) -> None:
        self.started = True
        self.running = True
        self._since = now

    def pause(self, now: float) -> None:
        self._ran = self.elapsed(now)
        self.running = False

    def resume(self, now: float) -> None:
        self.running = True
        self._since = now

    def set_level(self, index: int, now: float) -> None:
        """Jump to a level; it starts from its beginning (time and hands)."""
        self.index = index
        self.level_began = self.elapsed(now)
        self.hands_in_level = 0

    def restart_level(self, now: float) -> None:
        """Count the current level from now (when the way levels are measured changes)."""
        self.level_began = self.elapsed(now)
        self.hands_in_level = 0

    def in_level(self, now: float) -> float:
        return self.elapsed(now) - self.level_began

    def remaining(self, now: float, level_seconds: float) -> float:
        """Seconds left in the level (by time)."""
        return max(0.0, level_seconds - self.in_level(now))

    def advance_by_time(
        self, now: float, level_seconds: float, last: int, stops: frozenset[int] = frozenset()
    ) -> list[int]:
        """Move on past every level that has run out by ``now``, up to ``last``, and no
        further than an index in ``stops`` (a break comes before that level: the levels
        after it wait for the break); the new level indices."""
        new: list[int] = []
        if not self.started:
            return new
        ran = self.elapsed(now)
        while ran - self.level_began >= level_seconds and self.index < last:
            self.level_began += level_seconds
            self.index += 1
            self.hands_in_level = 0
            new.append(self.index)
            if self.index in stops:
                break
        return new

    def due(self, now: float, level_seconds: float, last: int) -> bool:
        """Whether the level on now has run out by ``now`` (levels by time)."""
        return self.started and self.index < last and self.in_level(now) >= level_seconds

    def count_hand(self, hands_per_level: int, tables: int, last: int) -> list[int]:
        """A hand finished (levels by hands); the new level index if this one is over
        (never past ``last``)."""
        self.hands_in_level += 1
        if self.hands_in_level >= hands_per_level * max(1, tables) and self.index < last:
            self.index += 1
            self.hands_in_level = 0
            return [self.index]
        return []

    def hands_left(self, hands_per_level: int, tables: int) -> int:
        return max(0, hands_per_level * max(1, tables) - self.hands_in_level)
