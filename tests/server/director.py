"""The director over the wire, for tests: log in, send commands, read the lobby, wait for
the tables to stand still.

Everything here speaks the protocol (``RawClient``), so the tests that use it check what a
director's client sees, whatever module of the server handles the command.
"""

from __future__ import annotations

import itertools
from typing import Any, TypeVar

import trio

import protocol.messages as m
from tests.server.rawclient import RawClient

T = TypeVar("T")
_ids = itertools.count(1000)


class Director:
    """A logged-in director connection; ``pump`` must run (``start``)."""

    def __init__(self, client: RawClient) -> None:
        self.c = client

    @classmethod
    async def login(cls, port: int, nursery: trio.Nursery, secret: str = "s3cret", *,
                    version: int = 1) -> Director:
        c = await RawClient.connect(port)
        await c.recv_until(m.Hello)
        await c.send(m.DirectorLogin(version=version, secret=secret))
        welcome = await c.recv_until(m.Welcome)
        assert welcome.role == "director"
        c.name = "director"
        nursery.start_soon(c.pump)
        return cls(c)

    async def _request(self, msg: Any, kind: type[T]) -> T | m.Error:
        """Send a request and wait for its reply (matched by id); the cursor of ``next``
        does not move, so a test can still look at what arrived before the reply."""
        rid: int = msg.id
        start = len(self.c.received)
        await self.c.send(msg)
        while True:
            changed = self.c.change_event()
            for x in self.c.received[start:]:
                if isinstance(x, (kind, m.Error)) and getattr(x, "id", None) == rid:
                    return x  # type: ignore[return-value]
            assert not self.c.eof, "the server closed the director's connection"
            await changed.wait()

    async def command(self, cmd: Any) -> m.Ack | m.Error:
        """Send ``cmd``; the ack, or the error the server answered with."""
        return await self._request(m.DirectorCommand(id=next(_ids), command=cmd), m.Ack)

    async def ok(self, cmd: Any) -> None:
        reply = await self.command(cmd)
        assert isinstance(reply, m.Ack), f"{cmd} was refused: {reply}"

    async def refused(self, cmd: Any) -> m.Error:
        reply = await self.command(cmd)
        assert isinstance(reply, m.Error), f"{cmd} was accepted"
        return reply

    async def lobby(self) -> m.Lobby:
        reply = await self._request(m.LobbyRequest(id=next(_ids)), m.Lobby)
        assert isinstance(reply, m.Lobby), reply
        return reply

    async def standings(self) -> m.Standings:
        reply = await self._request(m.StandingsRequest(id=next(_ids)), m.Standings)
        assert isinstance(reply, m.Standings), reply
        return reply

    async def snapshot(self, table: int) -> m.TableSnapshot:
        """The table as stored (the director watches it from now on)."""
        reply = await self._request(m.SnapshotRequest(id=next(_ids), table=table), m.TableSnapshot)
        assert isinstance(reply, m.TableSnapshot), reply
        return reply

    async def until_idle(self, tables: list[int], poll: float = 0.5) -> dict[int, m.TableSnapshot]:
        """Wait until no hand is in play at ``tables`` (after a pause); their snapshots."""
        while True:
            snaps = {t: await self.snapshot(t) for t in tables}
            if all(s.street is None for s in snaps.values()):
                return snaps
            await trio.sleep(poll)

    async def paused_and_idle(self, tables: list[int]) -> dict[int, m.TableSnapshot]:
        await self.ok(m.PauseCommand(reason="a break for the test"))
        return await self.until_idle(tables)

    def player(self, lobby: m.Lobby, player_id: int | None) -> m.LobbyPlayer:
        return next(p for p in lobby.players if p.player_id == player_id)
