"""A bare HTTP client for the clock's tests: raw bytes over real TCP, so a test can also
send what no browser would (garbage, a huge header, half a request).

Responses are read to the end of the connection (requests say ``Connection: close``), or
for an event stream until enough events came. Everything received is kept in ``seen``, for
the scan that no card, token or secret ever leaves the clock port.
"""

from __future__ import annotations

import attrs
import trio

READ_LIMIT = 4 << 20


@attrs.define
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes


@attrs.define
class WebClient:
    port: int
    seen: list[bytes] = attrs.Factory(list)

    async def raw(self, data: bytes, *, limit: int = READ_LIMIT) -> bytes:
        """Send ``data``, read until the server closes (or ``limit`` bytes)."""
        stream = await trio.open_tcp_stream("127.0.0.1", self.port)
        received = b""
        try:
            try:
                await stream.send_all(data)
            except trio.BrokenResourceError:
                pass  # the server may close before it has read everything (too big)
            while len(received) < limit:
                try:
                    chunk = await stream.receive_some(65536)
                except trio.BrokenResourceError:
                    break
                if not chunk:
                    break
                received += chunk
        finally:
            await stream.aclose()
        self.seen.append(received)
        return received

    async def get(self, path: str, *, method: str = "GET", headers: dict[str, str] | None = None,
                  body: bytes = b"") -> Reply:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        reply = await self.raw(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        return parse(reply)

    async def events(self, feed: str, count: int) -> list[bytes]:
        """The first ``count`` ``data:`` events of a feed (then the connection is closed)."""
        stream = await self.open_events(feed)
        try:
            return await read_events(stream, count, self.seen)
        finally:
            await stream.aclose()

    async def open_events(self, feed: str) -> trio.SocketStream:
        stream = await trio.open_tcp_stream("127.0.0.1", self.port)
        await stream.send_all(f"GET /events/{feed} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        return stream


async def read_events(stream: trio.SocketStream, count: int, seen: list[bytes]) -> list[bytes]:
    """Read an open event stream until ``count`` ``data:`` events came; their payloads."""
    buf = b""
    events: list[bytes] = []
    while len(events) < count:
        chunk = await stream.receive_some(65536)
        if not chunk:
            raise EOFError(f"the stream ended after {len(events)} events: {buf[:300]!r}")
        seen.append(chunk)
        buf += chunk
        # Each event is one line of JSON; in the chunked body, chunk sizes are lines of
        # their own. The last piece may be cut short: only lines with their newline count.
        lines = buf.split(b"\n")[:-1]
        events = [line[len(b"data: "):] for line in lines if line.startswith(b"data: ")]
    return events[:count]


def dechunk(raw: bytes) -> bytes:
    """The body of a chunked response read so far (a partial last chunk is dropped)."""
    head, _, rest = raw.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" not in head.lower():
        return rest
    out = b""
    while True:
        size_line, sep, rest = rest.partition(b"\r\n")
        if not sep:
            return out
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0 or len(rest) < size + 2:
            return out
        out += rest[:size]
        rest = rest[size + 2:]


def parse(raw: bytes) -> Reply:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines or not lines[0].startswith("HTTP/"):
        return Reply(status=0, headers={}, body=raw)
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    if headers.get("transfer-encoding") == "chunked":
        body = dechunk(raw)
    return Reply(status=status, headers=headers, body=body)
