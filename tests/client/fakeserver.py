"""A scripted stand-in for the server: each test plays the server's side line by line.

``fake_server()`` listens on 127.0.0.1 (port 0) and hands each accepted connection to
the test as a ``Peer``; the test sends protocol messages (stamped with ``seq``) and reads
what the client sent, so every line the client writes is checked, in order.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

import attrs
import trio

from protocol import messages as m
from protocol.codec import decode_client, encode
from protocol.framing import LineBuffer

HELLO = m.Hello(
    protocol="hickory", versions=(1,), server="fake 0.0", tournament="Test Night", max_line=65536
)
TOKEN = "tok-0123456789"


class Peer:
    """The server's end of one client connection."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = LineBuffer()
        self.lines: list[bytes] = []
        self.seq = 0
        self.closed = trio.Event()
        self.version = 1  # the protocol version lines are written in (a test may raise it)

    async def send(self, msg: m.ServerMessage, *, seq: int | None = None) -> None:
        """Send one message with the next seq (or the one given, to make a gap)."""
        self.seq = self.seq + 1 if seq is None else seq
        await self.stream.send_all(encode(attrs.evolve(msg, seq=self.seq), self.version) + b"\n")

    async def receive(self, *, skip_pings: bool = False) -> m.ClientMessage:
        """The next message from the client (its keepalive pings skipped if asked)."""
        while True:
            while not self.lines:
                data = await self.stream.receive_some(65536)
                if not data:
                    raise EOFError("the client closed the connection")
                self.lines.extend(self.buffer.feed(bytes(data)))
            msg = decode_client(self.lines.pop(0))
            if skip_pings and isinstance(msg, m.Ping):
                continue
            return msg

    async def close(self) -> None:
        await self.stream.aclose()
        self.closed.set()


@asynccontextmanager
async def fake_server() -> AsyncIterator[tuple[int, trio.MemoryReceiveChannel[Peer]]]:
    """(port, channel of accepted connections) while the block runs."""
    send_ch, receive_ch = trio.open_memory_channel[Peer](10)

    async def handler(stream: trio.SocketStream) -> None:
        peer = Peer(stream)
        await send_ch.send(peer)
        await peer.closed.wait()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, handler, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        yield port, receive_ch
        nursery.cancel_scope.cancel()


def welcome(token: str | None = TOKEN, *, player_id: int = 1, name: str = "alice") -> m.Welcome:
    return m.Welcome(
        version=1, role="player", player_id=player_id, name=name, token=token, table=1, seat=1
    )


def seat(n: int, name: str, stack: int, *, bet: int = 0, cards: tuple[str, ...] | None = None) -> m.SeatView:
    return m.SeatView(
        seat=n, player_id=n + 1, name=name, stack=stack, bet=bet, folded=False, all_in=False,
        sitting_out=False, connected=True, cards=cards,
    )


def heads_up_snapshot(hand_no: int = 7) -> m.TableSnapshot:
    """Alice (seat 1, button, small blind 50) and Bob (seat 2, big blind 100), preflop."""
    return m.TableSnapshot(
        table=1, max_seats=6, hand_no=hand_no, street="preflop", button=1, small_blind=50,
        big_blind=100,
        seats=(seat(1, "alice", 950, bet=50, cards=("As", "Kd")), seat(2, "bob", 900, bet=100)),
        board=(), pots=(m.Pot(amount=150, eligible=(1, 2)),), carried=0, to_act=1,
        your_seat=1, your_cards=("As", "Kd"),
    )


def your_turn(hand_no: int = 7) -> m.YourTurn:
    return m.YourTurn(
        table=1, hand_no=hand_no, seat=1,
        legal=m.Legal(fold=True, check=False, call=50, min_raise_to=200, max_raise_to=1000),
        deadline_ms=30000, time_bank_ms=60000,
    )
