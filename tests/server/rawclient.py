"""A plain test client: real TCP, the protocol codec, no client library.

Tests use it to speak to a real server exactly as a third-party client would.

Two ways to read: ``recv()`` pulls the next line straight off the socket; or run
``pump()`` in a task (it reads everything into ``received``) and wait with ``next()`` /
``wait_for()``, which several tests can do on several clients without losing a line.
Every line received is kept verbatim in ``lines`` (the hidden-card test checks them).

Each handshake names a protocol ``version`` (1 unless the test asks for 2). Every line
received is then decoded as a client of that version would: a version 1 connection that
got a message or field newer than version 1 fails the test at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import trio

import protocol.messages as m
from protocol.codec import decode_server, encode
from protocol.framing import LineBuffer

T = TypeVar("T")


class RawClient:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buf = LineBuffer(1 << 22)
        self.pending: list[bytes] = []
        self.received: list[m.ServerMessage] = []
        self.lines: list[bytes] = []
        self.cursor = 0  # next() looks at received[cursor:]
        self.eof = False
        self._changed = trio.Event()
        self.token: str | None = None
        self.player_id: int | None = None
        self.name: str | None = None
        self.auto_pong = True  # pump() answers the server's pings
        self._send_lock = trio.Lock()
        self.version: int | None = None  # the version of the handshake sent, once sent

    @classmethod
    async def connect(cls, port: int, *, rcvbuf: int | None = None, source: str | None = None,
                      host: str = "127.0.0.1") -> RawClient:
        """Connect to ``host:port``; ``source`` picks the local address (any of 127.0.0.0/8
        on Linux), so one test can be several machines to the server's per-address limits."""
        if rcvbuf is None and source is None:
            return cls(await trio.open_tcp_stream(host, port))
        sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
        if rcvbuf is not None:
            # A small receive buffer, set before connecting so the window stays small.
            sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, rcvbuf)
        if source is not None:
            await sock.bind((source, 0))
        try:
            await sock.connect((host, port))
        except BaseException:
            sock.close()
            raise
        return cls(trio.SocketStream(sock))

    @property
    def local_port(self) -> int:
        return int(self.stream.socket.getsockname()[1])

    # -- sending ------------------------------------------------------------------------

    async def send_raw(self, data: bytes) -> None:
        async with self._send_lock:
            await self.stream.send_all(data)

    async def send(self, msg: Any) -> None:
        # Written in the newest version: the server decides, by the connection's version,
        # whether it understands it (a v2 command on a v1 connection is an unknown type).
        if isinstance(msg, (m.Join, m.Resume, m.Spectate, m.DirectorLogin)):
            self.version = msg.version
        await self.send_raw(encode(msg, m.LATEST_VERSION) + b"\n")

    async def send_json(self, obj: Any) -> None:
        await self.send_raw(json.dumps(obj).encode() + b"\n")

    # -- reading straight off the socket ----------------------------------------------

    async def _read_line(self) -> bytes:
        while not self.pending:
            try:
                data = await self.stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                raise EOFError("connection reset") from exc
            if not data:
                raise EOFError("server closed the connection")
            self.pending.extend(self.buf.feed(data))
        return self.pending.pop(0)

    def _take(self, line: bytes) -> m.ServerMessage:
        self.lines.append(line)
        msg = decode_server(line, version=self.version)
        self.received.append(msg)
        self._changed.set()
        self._changed = trio.Event()
        return msg

    async def recv(self) -> m.ServerMessage:
        return self._take(await self._read_line())

    async def recv_until(self, kind: type[T], limit: int = 100_000) -> T:
        for _ in range(limit):
            msg = await self.recv()
            if isinstance(msg, kind):
                return msg
        raise AssertionError(f"no {kind.__name__} within {limit} messages")

    async def read_to_eof(self) -> list[m.ServerMessage]:
        """Everything the server still sends until it closes the connection."""
        out = []
        while True:
            try:
                out.append(await self.recv())
            except EOFError:
                self.eof = True
                return out

    # -- reading in the background ----------------------------------------------------

    async def pump(self) -> None:
        """Read every line into ``received`` until the server closes the connection."""
        try:
            while True:
                msg = self._take(await self._read_line())
                if self.auto_pong and isinstance(msg, m.ServerPing):
                    try:
                        await self.send(m.Pong(nonce=msg.nonce))
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        pass
        except EOFError:
            pass
        finally:
            self.eof = True
            self._changed.set()

    async def changed(self) -> None:
        """Wait for the next line (or EOF) to arrive through ``pump()``."""
        if not self.eof:
            await self._changed.wait()

    def change_event(self) -> trio.Event:
        """The event the next line (or EOF) sets. Take it *before* yielding to the loop,
        in the same step as looking at ``received``, or a line can slip in between."""
        if self.eof:
            done = trio.Event()
            done.set()
            return done
        return self._changed

    def find(self, pred: Callable[[m.ServerMessage], bool]) -> m.ServerMessage | None:
        """The first message past the cursor matching ``pred`` (cursor moves past it)."""
        for i in range(self.cursor, len(self.received)):
            if pred(self.received[i]):
                self.cursor = i + 1
                return self.received[i]
        return None

    async def wait_for(self, pred: Callable[[m.ServerMessage], bool]) -> m.ServerMessage:
        while True:
            found = self.find(pred)
            if found is not None:
                return found
            if self.eof:
                raise EOFError(f"{self.name}: connection closed while waiting")
            await self.changed()

    async def next(self, kind: type[T], pred: Callable[[T], bool] | None = None) -> T:
        """The next message of ``kind`` (and matching ``pred``) after the cursor."""
        msg = await self.wait_for(lambda x: isinstance(x, kind) and (pred is None or pred(x)))
        return msg  # type: ignore[return-value]

    async def seen(self, kind: type[T], pred: Callable[[T], bool] | None = None) -> T:
        """A message of ``kind`` received at any time (the cursor left aside), waiting for it."""
        while True:
            for x in self.received:
                if isinstance(x, kind) and (pred is None or pred(x)):
                    return x
            if self.eof:
                raise EOFError(f"{self.name}: connection closed while waiting")
            await self.changed()

    async def seen_after(self, first: m.ServerMessage, kind: type[T]) -> T:
        """The first message of ``kind`` received after ``first``, waiting for it."""
        start = next(i for i, x in enumerate(self.received) if x is first)
        while True:
            for x in self.received[start + 1:]:
                if isinstance(x, kind):
                    return x
            if self.eof:
                raise EOFError(f"{self.name}: connection closed while waiting")
            await self.changed()

    def skip(self) -> None:
        """Move the cursor past everything received so far."""
        self.cursor = len(self.received)

    # -- handshakes ---------------------------------------------------------------------

    async def join(self, name: str, version: int = 1, **kw: Any) -> m.Welcome:
        await self.recv_until(m.Hello)
        await self.send(m.Join(version=version, name=name, **kw))
        msg = await self.recv()
        if isinstance(msg, m.Error):
            raise AssertionError(f"join refused: {msg.message}")
        assert isinstance(msg, m.Welcome)
        self.token, self.player_id, self.name = msg.token, msg.player_id, name
        return msg

    async def resume(self, token: str, *, version: int = 1) -> m.ServerMessage:
        """Send resume; return the reply (welcome or error)."""
        await self.recv_until(m.Hello)
        await self.send(m.Resume(version=version, token=token))
        while True:
            msg = await self.recv()
            if isinstance(msg, m.Welcome):
                self.token, self.player_id, self.name = token, msg.player_id, msg.name
                return msg
            if isinstance(msg, m.Error):
                return msg

    async def spectate(self, table: int | None = None, version: int = 1) -> m.Welcome:
        await self.recv_until(m.Hello)
        await self.send(m.Spectate(version=version, table=table))
        msg = await self.recv()
        assert isinstance(msg, m.Welcome), msg
        self.name = f"spectator@{table}"
        return msg

    async def director(self, secret: str = "s3cret", *, version: int = 1) -> m.Welcome:
        await self.recv_until(m.Hello)
        await self.send(m.DirectorLogin(version=version, secret=secret))
        msg = await self.recv()
        assert isinstance(msg, m.Welcome), msg
        self.name = "director"
        return msg

    async def aclose(self) -> None:
        await self.stream.aclose()
