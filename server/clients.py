"""Who is on each connection, and what the server keeps about each player.

A ``Client`` is one connection after its handshake; a ``PlayerState`` outlives any one
connection (a player who drops keeps the seat, the time bank and the status, and resumes
with the session token whose hash is kept here and in the database).
"""

from __future__ import annotations

import hashlib
from collections import deque

import attrs

import protocol.messages as m
from protocol.codec import encode, sendable, stamp
from server.connection import Connection
from server.metrics import LineCounter


def token_hash(token: str) -> str:
    """Tokens are kept only as hashes: a copy of the database cannot take over a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@attrs.define(eq=False)
class Client:
    """One connection and who it is (after the handshake)."""

    conn: Connection
    role: str = ""  # "", player, spectator, director
    player_id: str | None = None
    watching: int | None = None  # the table a spectator watches
    version: int = 1
    seq: int = 0
    errors: int = 0
    chat_times: deque[float] = attrs.Factory(deque)
    read_at: float = 0.0  # when the last data arrived (trio time): the metrics' start of an act

    def send_body(self, body: bytes) -> None:
        """Send an encoded server message (without seq): stamped per connection here."""
        self.seq += 1
        LineCounter.queued += 1
        self.conn.send_nowait(stamp(body, self.seq) + b"\n")

    def send(self, msg: m.ServerMessage) -> None:
        """In the connection's protocol version; a message its version lacks is not sent."""
        if sendable(msg, self.version):
            self.send_body(encode(msg, self.version))


@attrs.define(eq=False)
class PlayerState:
    """What the server keeps about a player besides the tournament's view of them."""

    player_id: str
    name: str
    token_hash: str
    bank: float  # time bank seconds left
    client: Client | None = None
    sitting_out: bool = False
    is_bot: bool = False
    last_table: int | None = None  # where the player was when they went out (they watch it)
