"""The lean client the load benchmarks' bots are built on: read lines, join, send.

A benchmark's bots must cost the machine as little as they can, or the figures measure
them, not the server: no codec, no model; a line is looked at by its first bytes and
parsed only when its fields are needed.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from typing import Any

import trio

try:
    import orjson

    loads: Callable[[bytes], Any] = orjson.loads
except ImportError:  # pragma: no cover
    loads = json.loads


class LeanClient:
    """One connection: ``line()`` gives the next line (b"" at the end), ``join(name)``
    registers and returns the welcome, ``send`` writes bytes."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buf = b""
        self.pending: deque[bytes] = deque()

    async def send(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def line(self) -> bytes:
        """The next line; b"" at EOF. Lines already received stay queued across calls."""
        while not self.pending:
            data = await self.stream.receive_some(1 << 20)
            if not data:
                return b""
            self.buf += data
            *lines, self.buf = self.buf.split(b"\n")
            self.pending.extend(lines)
        return self.pending.popleft()

    async def join(self, name: str) -> dict[str, Any]:
        """Register as ``name``; the welcome (the benchmark stops if the server refuses)."""
        await self.send(b'{"type":"join","version":1,"name":"%s"}\n' % name.encode())
        while line := await self.line():
            if line.startswith(b'{"type":"welcome"'):
                welcome: dict[str, Any] = loads(line)
                return welcome
            if line.startswith(b'{"type":"error"'):
                raise SystemExit(f"{name}: join refused: {line!r}")
        raise SystemExit(f"{name}: the server closed the connection while joining")
