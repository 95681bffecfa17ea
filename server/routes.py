"""Which module answers which request: one handler per client message class.

``ROUTES`` is the whole map; a request type is handled in exactly one place, found
from its class. Handshakes are special only in that they must come first, once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import protocol.errors as E
import protocol.messages as m
from protocol.errors import ProtocolError
from server import chat, dealing, directing, queries, seat_requests, sessions
from server.clients import Client
from server.house import House

Handler = Callable[[House, Client, Any], Awaitable[None]]


async def _ping(h: House, client: Client, msg: m.Ping) -> None:
    client.send_nowait(m.ServerPong(id=msg.id, nonce=msg.nonce))


async def _pong(h: House, client: Client, msg: m.Pong) -> None:
    """A reply to the server's ping: receiving it already reset the idle deadline."""


async def _goodbye(h: House, client: Client, msg: m.Goodbye) -> None:
    await client.conn.flush_and_close("client said goodbye")


async def _handshake(h: House, client: Client, msg: m.Handshake) -> None:
    if client.role:
        raise ProtocolError(E.ALREADY_JOINED, "this connection has already joined")
    if msg.version not in m.SUPPORTED_VERSIONS:
        raise ProtocolError(
            E.UNSUPPORTED_VERSION,
            f"protocol version {msg.version} is not supported; this server speaks "
            + ", ".join(str(v) for v in m.SUPPORTED_VERSIONS),
        )
    await sessions.handshake(h, client, msg)


BEFORE_HANDSHAKE: dict[type, Handler] = {
    m.Ping: _ping,
    m.Pong: _pong,
    m.Goodbye: _goodbye,
    m.Join: _handshake,
    m.Resume: _handshake,
    m.Spectate: _handshake,
    m.DirectorLogin: _handshake,
}
"""What a connection may send before it has joined (and at any time after)."""

ROUTES: dict[type, Handler] = {
    **BEFORE_HANDSHAKE,
    m.LobbyRequest: queries.lobby,
    m.StandingsRequest: queries.standings,
    m.SnapshotRequest: queries.snapshot,
    m.HistoryRequest: queries.history,
    m.Act: seat_requests.act,
    m.SitOut: seat_requests.sit_out_or_back,
    m.ImBack: seat_requests.sit_out_or_back,
    m.CallDirector: seat_requests.call_director,
    m.Reenter: seat_requests.reenter,
    m.Chat: chat.chat,
    m.DirectorCommand: directing.director_command,
    m.ClientSeed: dealing.client_seed,
}


async def dispatch(h: House, client: Client, msg: m.ClientMessage) -> None:
    if not client.role and type(msg) not in BEFORE_HANDSHAKE:
        raise ProtocolError(E.HANDSHAKE_REQUIRED, "join, resume, spectate or director first")
    await ROUTES[type(msg)](h, client, msg)
