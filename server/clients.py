"""Who is on each connection, and what the server keeps about each player.

A ``Client`` is one connection after its handshake; a ``PlayerState`` outlives any one
connection (a player who drops keeps the seat, the time bank and the status, and resumes
with the session token whose hash is kept here and in the database).
"""

from __future__ import annotations

import hashlib
import logging
from collections import deque

import attrs

import protocol.errors as E
import protocol.messages as m
from protocol.codec import encode, sendable, stamp_line
from protocol.framing import MAX_SERVER_LINE
from server.connection import Connection
from server.metrics import LineCounter
from server.ratelimit import TokenBucket

log = logging.getLogger("hickory.server")


def token_hash(token: str) -> str:
    """Tokens are kept only as hashes: a copy of the database cannot take over a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@attrs.define(eq=False)
class Client:
    """One connection and who it is (after the handshake).

    ``host`` is the remote address (per-address limits count by it); ``counted_at_address`` is true
    while the connection counts against its address's and the server's room for
    connections that are not a seated player's (until a join or resume, or for good for a
    spectator or the director). ``buckets`` are the per-connection request budgets, by
    request kind, made on first use.
    """

    conn: Connection
    host: str = "?"
    role: str = ""  # "", player, spectator, director
    player_id: str | None = None
    watching: int | None = None  # the table a spectator watches
    version: int = 1
    seq: int = 0
    errors: int = 0
    counted_at_address: bool = False
    chat_times: deque[float] = attrs.Factory(deque)
    buckets: dict[str, TokenBucket] = attrs.Factory(dict)
    read_at: float = 0.0  # when the last data arrived (trio time): the metrics' start of an act

    def send_body(self, body: bytes) -> None:
        """Send an encoded server message (without seq): stamped per connection here.

        No line longer than ``MAX_SERVER_LINE`` ever leaves: the messages that grow are
        bounded where they are built, and this is the last guard (an ``internal`` error
        goes out instead, and the log says what was too long).
        """
        self.seq = seq = self.seq + 1
        LineCounter.queued += 1
        line = stamp_line(body, seq)
        if len(line) > MAX_SERVER_LINE + 1:
            log.error("%r: a %s line of %d bytes is over the %d-byte maximum; not sent",
                      self.conn, body[:40], len(line) - 1, MAX_SERVER_LINE)
            line = stamp_line(encode(m.Error(code=E.INTERNAL, message="the reply was too long to send"),
                                     self.version), seq)
        self.conn.send_nowait(line)

    def send_nowait(self, msg: m.ServerMessage) -> None:
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
