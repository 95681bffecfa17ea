"""JSON-lines framing without I/O: bytes in, complete lines out.

Trio has no ``readline`` for streams, and a reader must never buffer without bound, so the
connection feeds whatever ``receive_some()`` returned into a ``LineBuffer`` and gets back
the complete lines. A line longer than ``max_line`` bytes (not counting its ``\\n`` or
``\\r\\n``) is refused the moment the buffered part passes the limit, so a client sending
1 GiB without a newline costs at most ``max_line`` bytes of memory.
"""

from __future__ import annotations

from protocol.errors import LINE_TOO_LONG, ProtocolError

DEFAULT_MAX_LINE = 65536
"""The longest line a server accepts from a client by default (``hello.max_line`` says)."""

MAX_SERVER_LINE = 1024 * 1024
"""The longest line a server ever sends, in bytes without the newline: a client that
accepts lines this long reads everything a Hickory server says. The largest messages are
the lobby and the standings, one entry per player (at most about 250 bytes each with the
longest names, so a server allows at most 3,000 players), and a history reply, which the
server shortens by whole hands to fit."""


class LineBuffer:
    """Splits a byte stream into lines; refuses a line over ``max_line`` bytes.

    ``feed()`` returns the lines completed by the new data, without the ``\\n`` and
    without one trailing ``\\r``. Empty lines are returned too (the decoder refuses them).
    After a ``ProtocolError`` the buffer is poisoned: every later ``feed()`` raises the
    same error, because the stream has lost its place and the connection must be closed.
    Lines completed earlier in the same ``feed()`` call as an oversized line are dropped.
    """

    __slots__ = ("max_line", "_buf", "_error")

    def __init__(self, max_line: int = DEFAULT_MAX_LINE) -> None:
        if max_line < 1:
            raise ValueError("max_line must be at least 1")
        self.max_line = max_line
        self._buf = bytearray()
        self._error: ProtocolError | None = None

    @property
    def has_partial(self) -> bool:
        """True while a line has started but not ended (the slowloris deadline runs)."""
        return bool(self._buf)

    @property
    def buffered(self) -> int:
        """Bytes of the unfinished line held in the buffer."""
        return len(self._buf)

    def _too_long(self) -> ProtocolError:
        self._buf.clear()
        self._error = ProtocolError(
            LINE_TOO_LONG, f"line longer than the maximum of {self.max_line} bytes"
        )
        return self._error

    def _fits(self, length: int, last: int) -> bool:
        # A partial line of max_line + 1 bytes is still fine if its last byte is the \r
        # of a \r\n terminator that has not fully arrived.
        return length <= self.max_line or (length == self.max_line + 1 and last == 13)

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return the lines they complete (maybe none)."""
        if self._error is not None:
            raise self._error
        if type(data) is not bytes:  # a bytearray or memoryview from the transport
            data = bytes(data)
        buf = self._buf
        lines: list[bytes] = []
        start = 0
        max_line = self.max_line
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                rest = len(data) - start
                if rest and not self._fits(len(buf) + rest, data[-1]):
                    raise self._too_long()
                buf += data[start:]
                return lines
            length = len(buf) + nl - start
            if length > max_line and not self._fits(
                length, data[nl - 1] if nl > start else buf[-1]
            ):
                raise self._too_long()
            if buf:
                buf += data[start:nl]
                line = bytes(buf)
                buf.clear()
            else:
                line = data[start:nl]
            if line.endswith(b"\r"):
                line = line[:-1]
            lines.append(line)
            start = nl + 1


def encode_line(body: bytes) -> bytes:
    """One encoded message as a line on the wire."""
    return body + b"\n"
