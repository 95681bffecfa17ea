"""A plain test client: real TCP, the protocol codec, no client library.

Tests use it to speak to a real server exactly as a third-party client would.
"""

from __future__ import annotations

from typing import Any

import trio

import protocol.messages as m
from protocol.codec import decode_server, encode
from protocol.framing import LineBuffer


class RawClient:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buf = LineBuffer(1 << 20)
        self.pending: list[bytes] = []
        self.received: list[m.ServerMessage] = []
        self.lines: list[bytes] = []

    @classmethod
    async def connect(cls, port: int) -> RawClient:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def send(self, msg: Any) -> None:
        await self.stream.send_all(encode(msg) + b"\n")

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def recv(self) -> m.ServerMessage:
        while not self.pending:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError("server closed the connection")
            self.pending.extend(self.buf.feed(data))
        line = self.pending.pop(0)
        self.lines.append(line)
        msg = decode_server(line)
        self.received.append(msg)
        return msg

    async def recv_until(self, kind: type, limit: int = 100_000) -> Any:
        for _ in range(limit):
            msg = await self.recv()
            if isinstance(msg, kind):
                return msg
        raise AssertionError(f"no {kind.__name__} within {limit} messages")

    async def join(self, name: str, **kw: Any) -> m.Welcome:
        await self.recv_until(m.Hello)
        await self.send(m.Join(version=1, name=name, **kw))
        msg = await self.recv()
        if isinstance(msg, m.Error):
            raise AssertionError(f"join refused: {msg.message}")
        assert isinstance(msg, m.Welcome)
        return msg

    async def aclose(self) -> None:
        await self.stream.aclose()
