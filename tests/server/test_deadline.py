"""The deadline (rulebook: play until midnight) is fixed when the tournament starts.

The wall clock is injected (``House.wall_clock``); the tournament clock is Trio's virtual one.
"""

from __future__ import annotations

import datetime as dt

import trio

import protocol.messages as m
from server.app import Server
from tests.server.harness import config, joined, running

UTC = dt.UTC


class Wall:
    """A wall clock the test moves by hand."""

    def __init__(self, when: dt.datetime) -> None:
        self.when = when

    def __call__(self) -> dt.datetime:
        return self.when


async def test_default_deadline_is_the_midnight_after_the_start_not_after_launch(autojump_clock: object) -> None:
    wall = Wall(dt.datetime(2026, 12, 1, 23, 50, tzinfo=UTC))  # the host launches the server
    cfg = config(no_deadline=False, start_at=2)
    srv = Server(cfg, seed=1)
    srv.wall_clock = wall
    async with running(cfg, server=srv) as (srv, port):
        wall.when = dt.datetime(2026, 12, 2, 0, 10, tzinfo=UTC)  # the players arrive after midnight
        clients = await joined(port, ["ann", "bob"])
        await trio.sleep(30)
        assert srv.tournament.phase.value == "running", "the tournament started and is still on"
        assert not srv.tournament.finished
        deadline = srv.deadline_wall
        assert deadline is not None
        assert dt.timedelta(0) < deadline - wall.when <= dt.timedelta(hours=24)
        local = deadline.astimezone()
        assert (local.hour, local.minute, local.second) == (0, 0, 0)
        await clients[0].send(m.LobbyRequest(id=7))
        lobby = await clients[0].recv_until(m.Lobby)
        while lobby.id != 7:
            lobby = await clients[0].recv_until(m.Lobby)
        assert lobby.deadline == deadline.isoformat(timespec="seconds")
        for c in clients:
            await c.aclose()


async def test_a_deadline_that_passed_before_the_start_is_dropped_and_announced(autojump_clock: object) -> None:
    launched = dt.datetime(2026, 12, 1, 23, 0, tzinfo=UTC)
    wall = Wall(launched)
    cfg = config(no_deadline=False, deadline=launched + dt.timedelta(minutes=30), start_at=2)
    srv = Server(cfg, seed=1)
    srv.wall_clock = wall
    async with running(cfg, server=srv) as (srv, port):
        wall.when = launched + dt.timedelta(hours=1)
        clients = await joined(port, ["ann", "bob"])
        note = await clients[0].recv_until(m.Announcement)
        assert "had passed" in note.text and "director" in note.text
        await trio.sleep(30)
        assert not srv.tournament.finished
        assert srv.deadline_wall is None
        for c in clients:
            await c.aclose()
