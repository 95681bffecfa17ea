"""A tournament of 1,000 registered players: no line the server sends is over the documented
maximum (``MAX_SERVER_LINE``), and the project's own clients (the client session the
terminal client runs on, and the bots) read every one of them.

999 raw clients register from 40 loopback addresses (the server's registration limits
apply: the clients wait as long as the refusal says) with names about as long as a name
can be in UTF-8, and leave; a bot takes the 1,000th seat, which starts the tournament;
a spectator watches. On a virtual clock: the 2-second action clock of the players who
left runs instantly.
"""

from __future__ import annotations

import math
import re

import trio

import protocol.messages as m
from client.bot import Bot
from client.session import ClientSession
from protocol.codec import decode_server
from protocol.framing import DEFAULT_MAX_LINE, MAX_SERVER_LINE, LineBuffer
from server.snapshots import lobby_picture, standings_picture
from tests.server import harness
from tests.server.rawclient import RawClient

PLAYERS = 1000


def long_name(i: int) -> str:
    """24 characters, 84 bytes of UTF-8 (emoji are 4 bytes each)."""
    return f"{i:04d}" + "\U0001f984" * 20


def wait_of(message: str) -> float:
    found = re.search(r"try again in ([\d.]+) (s|min)", message)
    assert found, message
    return float(found.group(1)) * (60 if found.group(2) == "min" else 1)


async def register(port: int, name: str, source: str) -> None:
    """Join as ``name`` and leave at once (the seat stays; the server plays it)."""
    while True:
        c = await RawClient.connect(port, source=source)
        await c.send(m.Join(version=1, name=name))
        buf = LineBuffer(MAX_SERVER_LINE)
        reply: m.ServerMessage | None = None
        while reply is None:
            data = await c.stream.receive_some(1 << 16)
            assert data, "the server closed the connection"
            for line in buf.feed(data):
                if line.startswith((b'{"type":"welcome"', b'{"type":"error"')):
                    reply = decode_server(line)
                    break
        await c.aclose()
        if isinstance(reply, m.Welcome):
            return
        assert isinstance(reply, m.Error) and reply.code == "rate_limited", reply
        await trio.sleep(wait_of(reply.message))


async def test_a_tournament_of_a_thousand_players(autojump_clock: object) -> None:
    cfg = harness.config(start_at=PLAYERS, max_players=PLAYERS, seats=9, action_clock=2.0, time_bank=0.0,
                      max_connections_per_address=32, joins_per_minute_per_address=30.0, joins_per_minute=300.0)
    async with harness.running(cfg) as (server, port):
        for i in range(PLAYERS - 1):
            await register(port, long_name(i), f"127.0.1.{1 + i % 40}")
        assert len(server.players) == PLAYERS - 1
        # The biggest lines there are: the lobby and the standings of every player.
        lobby = len(lobby_picture(server).body(2) or b"") + len(b',"seq":999999')
        assert DEFAULT_MAX_LINE < lobby <= MAX_SERVER_LINE, lobby
        await trio.sleep(60)  # the registration limits fill up again
        watcher = ClientSession("127.0.0.1", port, spectate=True)
        bot = Bot("127.0.0.1", port, "the bot", "calling-station", seed=1)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(watcher.run)
            await watcher.wait_ready()
            with trio.fail_after(60):  # the lobby that follows the welcome is read
                while watcher.model.lobby is None and not watcher.stats.reconnects:
                    await watcher.wait_changed()
            assert watcher.stats.reconnects == 0, watcher.model.connection_reason
            nursery.start_soon(bot.run)
            with trio.fail_after(600):
                while bot.decisions < 3 and not bot.session.stats.reconnects:
                    await trio.sleep(1)
            assert bot.session.stats.reconnects == 0, bot.session.model.connection_reason
            assert len(standings_picture(server).body(2) or b"") <= MAX_SERVER_LINE
            watcher.send_nowait(m.StandingsRequest(id=1))
            with trio.fail_after(60):
                while len(watcher.model.standings) < PLAYERS:
                    await watcher.wait_changed()
            nursery.cancel_scope.cancel()
    t = server.tournament
    assert t.hands_dealt > 0
    # How many tables are left depends on how far play got (busts break tables), so not a
    # number: at least as many as the players still in need, at most the starting count
    # (as many as 1,000 players need); every player still in is seated once, at most
    # ``seats`` to a table, and nobody who is out holds a seat.
    still_in = [s.player_id for s in t.standings() if not s.eliminated]
    assert still_in
    assert math.ceil(len(still_in) / cfg.seats) <= len(t.tables) <= math.ceil(PLAYERS / cfg.seats), \
        (len(t.tables), len(still_in))
    seated = [p.player_id for table in t.tables.values() for p in table.seats.values()]
    assert sorted(seated) == sorted(still_in), "a player still in without a seat, or seated twice"
    assert all(0 < len(table.seats) <= cfg.seats for table in t.tables.values())
    assert watcher.model.lobby is not None and len(watcher.model.lobby.players) == PLAYERS
    for session in (watcher, bot.session):
        assert session.stats.reconnects == 0 and session.stats.bad_lines == 0, session.stats
    assert bot.refused is None and bot.decisions >= 3
