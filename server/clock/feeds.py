"""The room screen's feeds: one JSON state a second per feed, encoded once, shared by all.

A feed (``clock``, ``standings``, ``tables``) is built from the House at most once per
tick, by the first open page that asks for it after the tick, and the same bytes go to
every other page on that feed: 100 open pages cost one build and one encoding a second,
plus the sends. A feed nobody watches is never built.

This is the one place the clock touches the House: it reads the tournament, the players'
presence and the start rule, and hears of table moves through a ``Watcher``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

import trio

from poker.events import Event
from poker.hand import Hand
from server.clock.state import (
    Json,
    Presence,
    RoomContext,
    RoomNews,
    clock_state,
    standings_state,
    tables_state,
)
from server.house import House, Watcher
from server.tournament import Phase

log = logging.getLogger("hickory.clock")

FEEDS = ("clock", "standings", "tables")
TICK = 1.0  # seconds between states


class NewsWatcher(Watcher):
    """Keeps the latest table moves, and each table's hand number, as they happen."""

    def __init__(self, house: House, news: RoomNews) -> None:
        self.house = house
        self.news = news

    def tournament_events(self, events: Sequence[object]) -> None:
        self.news.take(self.house.tournament, self.house.now(), events)

    def hand_events(self, table_id: int, hand: Hand, events: Sequence[Event]) -> None:
        self.news.hand(table_id, hand.hand_no)


def presence(h: House) -> Presence:
    def of(player_id: str) -> str:
        ps = h.players.get(player_id)
        if ps is None:
            return "playing"
        if ps.sitting_out:
            return "sitting_out"
        if ps.client is None and not ps.is_bot:
            return "away"
        return "playing"

    return of


def room_context(h: House) -> RoomContext:
    c = h.config
    starts = None
    if c.start_time is not None:
        starts = f"at {c.start_time.astimezone():%H:%M}"
    elif c.start_at is not None:
        starts = f"when {c.start_at} players have joined"
    deadline = None if h.deadline_wall is None else f"{h.deadline_wall.astimezone():%H:%M}"
    return RoomContext(starts=starts, deadline=deadline, halted=h.paused_for_store is not None)


def sse_frame(state: Json) -> bytes:
    """One server-sent event: ``data: <json>`` and a blank line (JSON has no raw newline)."""
    return b"data: " + json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode() + b"\n\n"


class Feeds:
    """The latest frame of each feed, the tick that made it, and who is waiting."""

    def __init__(self, house: House) -> None:
        self.house = house
        # A clock that starts on a tournament under way (the server restarted) never heard
        # of the moves before: the screen says so.
        self.news = RoomNews(resumed=house.tournament.phase is not Phase.REGISTERING)
        self.tick = 0
        self.streams = 0  # open event streams, all feeds
        self.builds = 0  # states built since start (the bench checks one per feed per tick)
        self._frames: dict[str, tuple[int, bytes]] = {}
        self._ticked = trio.Event()
        house.watchers.append(NewsWatcher(house, self.news))

    def state(self, feed: str) -> Json:
        h = self.house
        now, context = h.now(), room_context(h)
        t = h.tournament
        if feed == "standings":
            return standings_state(t, now, news=self.news, context=context)
        if feed == "tables":
            return tables_state(t, now, presence(h), news=self.news, context=context)
        return clock_state(t, now, news=self.news, context=context)

    def frame(self, feed: str) -> bytes:
        """This tick's frame of ``feed``, built now if no page asked for it yet."""
        cached = self._frames.get(feed)
        if cached is not None and cached[0] == self.tick:
            return cached[1]
        try:
            body = sse_frame(self.state(feed))
            self.builds += 1
        except Exception:  # a bug in the screen must never stop the tournament
            log.exception("could not build the %s state for the clock page", feed)
            body = cached[1] if cached is not None else sse_frame({"v": 0, "error": "unavailable"})
        self._frames[feed] = (self.tick, body)
        return body

    async def next_frame(self, feed: str, after: int) -> tuple[int, bytes]:
        """The frame of the first tick after ``after``, waiting for it if need be."""
        while self.tick <= after:
            await self._ticked.wait()
        return self.tick, self.frame(feed)

    async def run(self) -> None:
        """Tick once a second, on the second of the task's start (no drift)."""
        next_at = trio.current_time()
        while True:
            next_at += TICK
            now = trio.current_time()
            if next_at < now:  # fell behind (a stall): tick now, keep the rhythm after
                next_at = now
            await trio.sleep_until(next_at)
            self.tick += 1
            ticked, self._ticked = self._ticked, trio.Event()
            ticked.set()
