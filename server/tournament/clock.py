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

``LevelClock`` only says which level is on. When the blinds change is the tournament's
business: a hand keeps the blinds it was dealt with, and a new level applies from the next
hand dealt at each table (interpretation 1).

The functions after it move a ``Tournament``'s clock on: levels by time or by hands,
breaks (which stop new hands), the director's pause and resume, and the deadline. They
are the tournament's and the director's one way to change the level clock, and return the
events that change makes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import attrs

from poker.table import Table

from .events import (
    BreakEnded,
    BreakStarted,
    ClockPaused,
    ClockResumed,
    DeadlinePassed,
    LevelChanged,
    TournamentEvent,
)
from .phase import RUNNING, Phase
from .settings import Settings

Events = list[TournamentEvent]


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

    def reaches(self, now: float, level_seconds: float, last: int, stops: frozenset[int]) -> int | None:
        """The index in ``stops`` that ``advance_by_time(now, ...)`` would stop at (the
        levels that ran out by ``now`` lead to a break), or None; changes nothing."""
        if not self.started:
            return None
        ran, began, index = self.elapsed(now), self.level_began, self.index
        while ran - began >= level_seconds and index < last:
            began += level_seconds
            index += 1
            if index in stops:
                return index
        return None

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


@attrs.frozen(kw_only=True)
class OnBreak:
    """A break in progress: after level ``after_level``, from ``began`` to ``until`` (in the
    time base of ``now``). ``held``: the director had paused the clock before it began, so
    the clock stays paused when it ends by itself."""

    after_level: int
    began: float
    until: float
    held: bool


@attrs.frozen(kw_only=True)
class LevelInfo:
    level: int  # the number people see, from 1
    small_blind: int
    big_blind: int
    next_small_blind: int
    next_big_blind: int
    running: bool
    seconds_left: float | None  # levels by time
    hands_left: int | None  # levels by hands
    ante: int = 0  # the big-blind ante of this level (0: none)
    next_ante: int = 0


class Tournament(Protocol):
    """What the functions below read and change of a ``tournament.Tournament`` (named by
    its members so that this module need not import that one, which imports this)."""

    settings: Settings
    clock: LevelClock
    phase: Phase
    on_break: OnBreak | None
    breaks_taken: set[int]
    deadline_passed: bool
    tables: dict[int, Table]

    @property
    def level(self) -> int: ...

    @property
    def blinds(self) -> tuple[int, int]: ...

    def finish_if_over(self, now: float) -> Events: ...


# -- a tournament's clock moving on -----------------------------------------------------


def deadline_reached(t: Tournament, now: float) -> bool:
    d = t.settings.deadline
    return t.deadline_passed or (d is not None and now >= d)


def tick(t: Tournament, now: float) -> Events:
    """Time passed: the end of a break, level changes by the clock, and the deadline."""
    if t.phase is not RUNNING:
        return []
    brk = t.on_break
    if brk is not None and now >= brk.until:
        return end_break(t, now, early=False) + advance(t, now)
    return advance(t, now)


def advance(t: Tournament, now: float) -> Events:
    """Levels that ran out by ``now`` (by time), a break after them, or the deadline."""
    # Called for every deal, hand end and tick: the common case (running, deadline not
    # reached, levels by hands) is a few attribute reads.
    if t.phase is not RUNNING or t.deadline_passed:
        return []  # levels stand still once the deadline has passed
    settings = t.settings
    if settings.deadline is not None and now >= settings.deadline:
        t.deadline_passed = True
        events: Events = [DeadlinePassed(at=now, tables_in_hand=tables_in_hand(t))]
        return events + t.finish_if_over(now)
    if settings.hands_per_level is None:  # levels by time
        stops = break_stops(t) if settings.breaks else frozenset()
        new = t.clock.advance_by_time(now, settings.level_seconds, settings.last_level, stops)
        return level_events(settings, new) + break_if_due(t, new, now)
    return []


def count_hand(t: Tournament, now: float) -> Events:
    """A hand ended (levels by hands): the level and the break it may end."""
    hpl = t.settings.hands_per_level
    if hpl is None or t.phase is not RUNNING or t.deadline_passed:
        return []
    new = t.clock.count_hand(hpl, len(t.tables), t.settings.last_level)
    return level_events(t.settings, new) + break_if_due(t, new, now) if new else []


def tables_in_hand(t: Tournament) -> tuple[int, ...]:
    return tuple(tid for tid, table in sorted(t.tables.items()) if table.hand is not None)


def break_stops(t: Tournament) -> frozenset[int]:
    """The level indices a break comes before: a break after level N (numbered from 1)
    comes before index N, until it is taken."""
    return frozenset(n for n, _ in t.settings.breaks if n not in t.breaks_taken)


def break_due(t: Tournament, now: float) -> int | None:
    """The level (as people number it) after which the levels that ran out by ``now``
    reach a break that has not begun yet (a tick begins it), or None: no hand may start
    in between."""
    s = t.settings
    if not s.breaks or s.by_hands or t.on_break is not None or not t.clock.running:
        return None
    return t.clock.reaches(now, s.level_seconds, s.last_level, break_stops(t))


def break_if_due(t: Tournament, new: Sequence[int], now: float) -> Events:
    """After the level clock moved on by itself to ``new``: the break scheduled after
    the level it left, if any and not yet taken."""
    if not new or t.on_break is not None:
        return []
    after = new[-1]  # moving to index N leaves level N (as people number it)
    minutes = t.settings.break_after(after)
    if minutes is None or after in t.breaks_taken:
        return []
    return start_break(t, now, after, minutes)


def start_break(t: Tournament, now: float, after: int, minutes: int) -> Events:
    """Stop play: the clock pauses (hands in progress finish, no new hand starts) and the
    next level will start from its beginning when the break ends."""
    t.breaks_taken.add(after)
    held = not t.clock.running
    t.clock.restart_level(now)
    if not held:
        t.clock.pause(now)
    until = now + minutes * 60.0
    t.on_break = OnBreak(after_level=after, began=now, until=until, held=held)
    return [BreakStarted(at=now, after_level=after, minutes=minutes, until=until,
                         next_level=t.level, tables_in_hand=tables_in_hand(t), held=held)]


def end_break(t: Tournament, now: float, *, early: bool) -> Events:
    """The break is over: by its time (the clock runs again unless the director had
    paused it before), or early by the director's resume (it always runs again)."""
    brk = t.on_break
    assert brk is not None
    t.on_break = None
    resume_ = early or not brk.held
    if resume_ and not t.clock.running:
        t.clock.resume(now)
    sb, bb = t.blinds
    return [BreakEnded(at=now, after_level=brk.after_level, level=t.level, small_blind=sb,
                       big_blind=bb, early=early, resumed=resume_)]


def level_events(settings: Settings, indices: Sequence[int], *, by_director: bool = False) -> Events:
    out: Events = []
    for i in indices:
        sb, bb = settings.blinds(i)
        out.append(LevelChanged(level=i + 1, small_blind=sb, big_blind=bb, by_director=by_director))
    return out


def pause(t: Tournament, now: float) -> Events:
    t.clock.pause(now)
    remaining = None if t.settings.by_hands else t.clock.remaining(now, t.settings.level_seconds)
    return [ClockPaused(at=now, level=t.level, remaining=remaining)]


def resume(t: Tournament, now: float) -> Events:
    t.clock.resume(now)
    return [ClockResumed(at=now, level=t.level)]
