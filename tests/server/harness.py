"""A real server in the test's own Trio run, fast tournament settings, and test bots.

``running(config)`` starts ``Server(config).run`` with ``nursery.start`` on 127.0.0.1
port 0 and yields the server and its port; leaving the block cancels it. Bots here are
plain ``RawClient`` loops, so they speak exactly the wire protocol.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import attrs
import trio

import protocol.messages as m
from server.app import Server
from server.config import ServerConfig
from tests.server.rawclient import RawClient

FAST_SCHEDULE = ((10, 20), (20, 40), (50, 100), (100, 200), (200, 400), (500, 1000),
                 (1000, 2000), (2000, 4000), (5000, 10000), (10000, 20000))


def config(**kw: Any) -> ServerConfig:
    """Test settings: no database, no deadline, no pause between hands, port 0; anything
    can be overridden. Every test client dials from 127.0.0.1, so the per-address limits on
    connections and registrations are lifted here (``tests/server/test_hostile.py`` tests
    them, with clients from several loopback addresses)."""
    base: dict[str, Any] = dict(port=0, db=None, no_deadline=True, director_secret="s3cret",
                                hand_pause=0.0, reconnect_grace=0.0, max_connections_per_address=100_000,
                                joins_per_minute_per_address=1e6, joins_per_minute=1e6)
    base.update(kw)
    return ServerConfig(**base)


def fast_config(players: int, **kw: Any) -> ServerConfig:
    """A tournament that ends in a few dozen hands: small stacks, blinds up every 2 hands."""
    base: dict[str, Any] = dict(start_at=players, starting_stack=1000, hands_per_level=2,
                                schedule=FAST_SCHEDULE)
    base.update(kw)
    return config(**base)


@asynccontextmanager
async def running(cfg: ServerConfig, *, server: Server | None = None,
                  seed: int = 1) -> AsyncIterator[tuple[Server, int]]:
    srv = server if server is not None else Server(cfg, seed=seed)
    srv.deck_rng = random.Random(seed)  # deterministic decks
    async with trio.open_nursery() as nursery:
        port = await nursery.start(srv.run)
        try:
            yield srv, port
        finally:
            nursery.cancel_scope.cancel()


async def joined(port: int, names: list[str], *, version: int = 1) -> list[RawClient]:
    """Connect and join in order (player ids follow the order)."""
    clients = []
    for name in names:
        c = await RawClient.connect(port)
        await c.join(name, version=version)
        clients.append(c)
    return clients


Choose = Callable[[m.YourTurn, random.Random], m.Act]


def check_call(turn: m.YourTurn, rng: random.Random) -> m.Act:
    return m.Act(hand_no=turn.hand_no, action="check" if turn.legal.check else "call")


def pusher(turn: m.YourTurn, rng: random.Random) -> m.Act:
    """Mostly check/call; shoves now and then, calls big bets only sometimes: a tournament
    of this bot ends in a hundred-odd hands, with busts, balancing and table breaks."""
    legal = turn.legal
    if legal.max_raise_to is not None and rng.random() < 0.04:
        return m.Act(hand_no=turn.hand_no, action="all_in")
    if legal.check:
        return m.Act(hand_no=turn.hand_no, action="check")
    assert legal.call is not None
    big = legal.max_raise_to is None or legal.call * 4 > legal.max_raise_to
    if big and rng.random() < 0.6:
        return m.Act(hand_no=turn.hand_no, action="fold")
    return m.Act(hand_no=turn.hand_no, action="call")


@attrs.define
class BotResult:
    name: str
    finished: m.TournamentFinished | None = None
    errors: list[m.Error] = attrs.Factory(list)
    hands: int = 0
    acted: int = 0


async def play(client: RawClient, result: BotResult, choose: Choose = check_call,
               seed: int = 0, on_message: Callable[[m.ServerMessage], None] | None = None) -> None:
    """Answer every your_turn (and ping) until the tournament finishes."""
    rng = random.Random(seed)
    while True:
        try:
            msg = await client.recv()
        except EOFError:
            return
        if on_message is not None:
            on_message(msg)
        if isinstance(msg, m.YourTurn):
            await client.send(choose(msg, rng))
            result.acted += 1
        elif isinstance(msg, m.ServerPing):
            await client.send(m.Pong(nonce=msg.nonce))
        elif isinstance(msg, m.HandStarted):
            result.hands += 1
        elif isinstance(msg, m.Error):
            result.errors.append(msg)
        elif isinstance(msg, m.TournamentFinished):
            result.finished = msg
            return


# -- a scripted table: the test plays every decision ------------------------------------

CLOCK = 30.0  # the scripted table's action clock
BANK = 10.0  # and time bank


@attrs.define
class Table:
    server: Server
    port: int
    players: list[RawClient]
    nursery: trio.Nursery

    def seat(self, c: RawClient) -> int:
        loc = self.server.tournament.location(str(c.player_id))
        assert loc is not None
        return loc.seat

    def by_seat(self, seat: int) -> RawClient:
        return next(c for c in self.players if not c.eof and self.seat(c) == seat)

    def others(self, c: RawClient) -> list[RawClient]:
        return [o for o in self.players if o is not c and not o.eof]

    async def next_turn(self) -> tuple[RawClient, m.YourTurn]:
        """The next your_turn any live player gets."""
        while True:
            for c in self.players:
                turn = c.find(lambda x: isinstance(x, m.YourTurn))
                if turn is not None:
                    assert isinstance(turn, m.YourTurn)
                    return c, turn
            events = [c.change_event() for c in self.players if not c.eof]
            assert events, "every player is gone"
            async with trio.open_nursery() as n:
                async def wait(e: trio.Event, n: trio.Nursery = n) -> None:
                    await e.wait()
                    n.cancel_scope.cancel()
                for e in events:
                    n.start_soon(wait, e)

    async def act(self, c: RawClient, turn: m.YourTurn, action: str, amount: int | None = None) -> None:
        await c.send(m.Act(hand_no=turn.hand_no, action=action, amount=amount))  # type: ignore[arg-type]

    async def resume(self, old: RawClient) -> tuple[RawClient, m.Welcome]:
        """Reconnect with ``old``'s token (and its version); the new client replaces it."""
        assert old.token is not None
        new = await RawClient.connect(self.port)
        welcome = await new.resume(old.token, version=old.version or 1)
        assert isinstance(welcome, m.Welcome), welcome
        new.token = old.token
        self.players[self.players.index(old)] = new
        self.nursery.start_soon(new.pump)
        return new, welcome

    async def drop(self, c: RawClient) -> None:
        """Close the socket and wait until the server has noticed."""
        await c.aclose()
        observer = self.others(c)[0]
        await observer.next(m.PlayerStatus, lambda s: s.player_id == c.player_id and s.status == "disconnected")


@asynccontextmanager
async def table(n: int = 3, *, version: int = 1, **kw: object) -> AsyncIterator[Table]:
    """``n`` players at one table, joined on protocol ``version``; the test plays them."""
    settings: dict[str, object] = dict(start_at=n, seats=n, starting_stack=10_000, schedule=((100, 200),),
                                       level_minutes=600.0, action_clock=CLOCK, time_bank=BANK)
    settings.update(kw)
    cfg = config(**settings)
    async with running(cfg) as (server, port):
        players = await joined(port, [f"p{i}" for i in range(n)], version=version)
        async with trio.open_nursery() as nursery:
            for c in players:
                nursery.start_soon(c.pump)
            yield Table(server, port, players, nursery)
            nursery.cancel_scope.cancel()


