"""The tournament's own clock: the automatic start, levels, the deadline, lobby pushes.

One task, waking twice a second. Tables never wait for it: it changes the tournament
between their hands (each change synchronous, so atomic) and wakes them.
"""

from __future__ import annotations

import logging

import attrs
import trio

import protocol.messages as m
from server.clients import Client
from server.dealing import seat_draw, seating_stream, seats_drawn
from server.fanout import announce_all, broadcast, send_snapshots
from server.house import House
from server.memory import freeze_long_lived
from server.news import tournament_events
from server.rows import meta_record
from server.snapshots import lobby_picture, snapshot_for
from server.tables import start_tables, wake_idle_tables
from server.tournament.tournament import Phase
from server.watching import watch_first_table

log = logging.getLogger("hickory.server")

CLOCK_SAVE_EVERY = 5.0  # seconds between saves of the tournament time (meta "clock")
LOBBY_BYTES_PER_SECOND = 1e6  # bound on lobby pushes: bytes x receivers per second


async def start_tournament(h: House) -> list[object]:
    t = h.tournament
    if len(t.registered) < 2:
        t.start(h.now())  # refused, in the tournament's own words
    # The seat draw, and every later seating draw, comes from one fair-deck round.
    drawn = await seat_draw(h)
    while h.joins_in_flight:
        # A join between its registration and its lobby: let it finish, so every player
        # gets welcome, lobby, then the snapshot of their table (in that order).
        await trio.sleep(0.01)
    if drawn is None or t.phase is not Phase.REGISTERING:
        return []  # another start got there first
    t.rng = seating_stream(drawn)
    now = h.now()
    wall = h.wall_clock()
    # The default deadline is the midnight after the start, not after the server started:
    # a server launched at 23:50 for a tournament starting at 00:10 plays until the next one.
    h.deadline_wall = h.config.deadline_wall(wall)
    notice = None
    if h.deadline_wall is not None and h.deadline_wall <= wall:
        notice = (f"The deadline {h.deadline_wall.isoformat(timespec='minutes')} had passed when the "
                  "tournament started: there is no deadline until the director sets one.")
        h.deadline_wall = None
    t.settings = attrs.evolve(t.settings, deadline=h.deadline_in_base())
    events: list[object] = [*t.start(now)]
    await h.journal.commit([
        *drawn.records,
        *h.journal.input("start", {"now": now, "deadline": t.settings.deadline, "draw": drawn.payload()}),
        *h.journal.meta("deadline_wall", "" if h.deadline_wall is None else h.deadline_wall.isoformat()),
    ])
    if notice is not None:
        announce_all(h, notice, by="server")
    log.info("tournament started: %d players at %d tables", len(t.registered), len(t.tables))
    seats_drawn(h, drawn)
    seated: list[str] = []
    tournament_events(h, events, defer_snapshots=seated)
    await send_snapshots(h, seated)  # before the first deal, a few dozen per step
    start_tables(h)
    # Spectators and directors who came before there were tables now watch the first.
    first = min(t.tables)
    for viewer in watch_first_table(h, first):
        viewer.send_nowait(snapshot_for(h, viewer, first))
    if h.freeze_gc:
        freeze_long_lived()
    return events


def should_start(h: House) -> bool:
    """The host's start rule: enough players joined (``--start-at``) or the start time."""
    c = h.config
    n = len(h.tournament.registered)
    if n < 2:
        return False
    if c.start_at is not None and n >= c.start_at:
        return True
    if c.start_time is not None and h.wall_clock() >= c.start_time:
        return True
    return False


LOBBY_RECEIVERS_PER_STEP = 64


async def push(h: House, msg: m.ServerMessage, receivers: list[Client],
               bodies: dict[int, bytes | None] | None = None) -> int:
    """``msg`` to every receiver, 64 connections per loop step (encoded once per version,
    or taken from ``bodies``): a 100 KB lobby stamped for a thousand connections in one
    step held the loop for about 25 ms of CPU. A receiver gone meanwhile is skipped. The
    bytes sent, for pacing."""
    bodies = {} if bodies is None else bodies
    sent = 0
    for i in range(0, len(receivers), LOBBY_RECEIVERS_PER_STEP):
        if i:
            await trio.lowlevel.checkpoint()
        sent += broadcast(h, msg, receivers[i:i + LOBBY_RECEIVERS_PER_STEP], bodies=bodies)
    return sent


async def coordinator(h: House) -> None:
    """Level clock, deadline and the automatic start rule."""
    t = h.tournament
    clock_saved = trio.current_time()
    next_lobby = trio.current_time()
    while not t.finished:
        if t.phase is Phase.REGISTERING:
            if should_start(h):
                await start_tournament(h)
        else:
            now = h.now()
            if h.store is not None and trio.current_time() - clock_saved >= CLOCK_SAVE_EVERY:
                # Tournament time resumes from here after a crash (recovery), not from
                # the last logged input: an idle spell still counts on the level clock.
                clock_saved = trio.current_time()
                h.journal.submit([meta_record("clock", repr(now))])
            events = t.tick(now)
            if events:
                await h.journal.commit(h.journal.input("tick", {"now": now}) + h.journal.audit(events))
                tournament_events(h, events)
                wake_idle_tables(h)
        if h.lobby_dirty and trio.current_time() >= next_lobby:
            h.lobby_dirty = False
            receivers = [c for c in h.clients if c.role]
            picture = lobby_picture(h) if receivers else None  # the cached lobby, encoded once
            sent = await push(h, picture.msg, receivers, picture.bodies) if picture is not None else 0
            # The lobby lists every entrant and goes to everyone: bound its bandwidth
            # (a 1,000-player lobby is ~100 KB; every 0.5 s to 1,000 clients would be
            # 200 MB/s). Small tournaments still get it every 0.5 s.
            next_lobby = trio.current_time() + sent / LOBBY_BYTES_PER_SECOND
        await trio.sleep(0.5)
    h.finished.set()
