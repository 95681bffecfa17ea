"""No event-loop step does work proportional to every connection (the stalls of issue 16).

A 200-player tournament on the virtual clock: concurrent joins, the start, hands with
busts, balancing and table breaks, lobby pushes, bots that think a little before acting
so the clocks run. A Trio instrument (``server.metrics.LoopWatch``) counts the lines each
task step queues, a deterministic measure of the connections it touched: a table's step
reaches its own six seats (a showdown with every event is about a hundred lines), so a
step over ``LINES_PER_STEP`` is a broadcast to everyone, or the start's snapshots, or a
lobby push done in one step: each held a 1,000-player server for 25-80 ms. Nothing here
is timed.
"""

from __future__ import annotations

import math
import random
import sys

import trio

import protocol.messages as m
from server import snapshots
from server.metrics import LoopWatch
from tests.server.harness import fast_config, pusher, running
from tests.server.rawclient import RawClient

PLAYERS = 200
SEATS = 6
LINES_PER_STEP = 150  # a six-seat table's busiest step is about 110 lines
HANDS = 120


class Counted:
    """Counts the lobby entries built, through ``snapshots.lobby_message``."""

    def __init__(self) -> None:
        self.entries = 0
        self.builds = 0
        self.original = snapshots.lobby_message

    def __call__(self, *args: object, **kw: object) -> m.Lobby:
        lobby = self.original(*args, **kw)  # type: ignore[arg-type]
        self.entries += len(lobby.players)
        self.builds += 1
        return lobby


async def bot(port: int, i: int, joined: list[RawClient], done: trio.Event) -> None:
    rng = random.Random(i)
    c = await RawClient.connect(port)
    await c.join(f"bot{i}")
    joined.append(c)
    while not done.is_set():
        try:
            msg = await c.recv()
        except EOFError:
            return
        if isinstance(msg, m.YourTurn):
            await trio.sleep(rng.uniform(0.05, 0.6))  # thinking: the clocks and pushes run
            await c.send(pusher(msg, rng))
        elif isinstance(msg, m.ServerPing):
            await c.send(m.Pong(nonce=msg.nonce))
        elif isinstance(msg, m.TournamentFinished):
            return
        elif isinstance(msg, m.PlayerStatus) and msg.player_id == c.player_id and msg.status == "eliminated":
            # Out: leave, as the bots do. A player who stays watches their last table, and a
            # table's lines then grow with its watchers (docs/architecture.md, Performance).
            await c.aclose()
            return


async def test_no_loop_step_touches_every_connection(autojump_clock: object, monkeypatch: object) -> None:
    counted = Counted()
    for module in list(sys.modules.values()):  # every module that imported it by name
        if getattr(module, "lobby_message", None) is counted.original:
            monkeypatch.setattr(module, "lobby_message", counted)  # type: ignore[attr-defined]
    watch = LoopWatch(slow_step=math.inf, clock=lambda: 0.0, cpu=lambda: 0.0)
    cfg = fast_config(PLAYERS, seats=SEATS, max_connections=PLAYERS + 10, hands_per_level=4)
    joined: list[RawClient] = []
    done = trio.Event()
    trio.lowlevel.add_instrument(watch)
    try:
        async with running(cfg) as (server, port):
            async with trio.open_nursery() as n:
                for i in range(PLAYERS):
                    n.start_soon(bot, port, i, joined, done)
                while len(joined) < PLAYERS:
                    await trio.sleep(0.1)
                join_builds, join_entries = counted.builds, counted.entries
                while server.tournament.hands_dealt < HANDS and not server.tournament.finished:
                    await trio.sleep(1)
                done.set()
                n.cancel_scope.cancel()
            t = server.tournament
            tables_left = len(t.tables)
            out = PLAYERS - len(t.players_in())
    finally:
        trio.lowlevel.remove_instrument(watch)
    # The run did what it is meant to exercise.
    assert t.hands_dealt >= HANDS
    assert out > 0 and tables_left < math.ceil(PLAYERS / SEATS), (out, tables_left)
    pushes = sum(1 for c in joined for x in c.received if isinstance(x, m.Lobby))
    assert pushes >= 2 * PLAYERS  # the joins' lobbies and at least one push to everyone
    assert watch.max_lines <= LINES_PER_STEP, (
        f"one loop step queued {watch.max_lines} lines ({watch.max_lines_task}): work proportional "
        f"to every connection in one step stalls every table"
    )
    # Joins in a burst share lobby builds: not one whole lobby per join (quadratic).
    assert join_builds <= PLAYERS // 2, (join_builds, join_entries)
