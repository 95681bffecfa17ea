"""The tournament's own clock: the automatic start, levels, the deadline, lobby pushes.

One task, waking twice a second. Tables never wait for it: it changes the tournament
between their hands (each change synchronous, so atomic) and wakes them.
"""

from __future__ import annotations

import logging

import attrs
import trio

from server.dealing import seat_draw, seating_stream, seats_drawn
from server.fanout import announce_all, broadcast, tournament_events, wake_tables
from server.house import House
from server.snapshots import lobby_message, snapshot_for
from server.store import meta_record
from server.tables import start_tables
from server.tournament.tournament import Phase

log = logging.getLogger("hickory.server")

CLOCK_SAVE_EVERY = 5.0  # seconds between saves of the tournament time (meta "clock")
LOBBY_BYTES_PER_SECOND = 1e6  # bound on lobby pushes: bytes x receivers per second


async def start_tournament(h: House) -> list[object]:
    t = h.tournament
    if len(t.registered) < 2:
        t.start(h.now())  # refused, in the tournament's own words
    # The seat draw, and every later seating draw, comes from one fair-deck round.
    drawn = await seat_draw(h)
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
    tournament_events(h, events)
    start_tables(h)
    # Spectators and directors who came before there were tables now watch the first.
    first = min(t.tables)
    for viewer in h.viewers:
        if viewer.watching is None:
            viewer.watching = first
            viewer.send(snapshot_for(h, viewer, first))
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
                wake_tables(h)
        if h.lobby_dirty and trio.current_time() >= next_lobby:
            h.lobby_dirty = False
            sent = broadcast(h, lobby_message(h))
            # The lobby lists every entrant and goes to everyone: bound its bandwidth
            # (a 1,000-player lobby is ~100 KB; every 0.5 s to 1,000 clients would be
            # 200 MB/s). Small tournaments still get it every 0.5 s.
            next_lobby = trio.current_time() + sent / LOBBY_BYTES_PER_SECOND
        await trio.sleep(0.5)
    h.finished.set()
