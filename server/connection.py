"""One client connection: a bounded send queue with a merging writer, and a framed reader.

Why a queue and a writer task: a table broadcasts with ``send_nowait`` and never waits on
a socket, so a slow or dead client can never stall a table (or anything else). The writer
merges everything queued into one ``send_all`` (measured ~1.9x the lines of one send per
line). When the queue overflows, or a send does not finish within ``send_timeout``, the
connection is closed: a cancelled ``send_all`` may have sent half a line, so there is no
safe way to carry on (the player is then treated as disconnected and can resume).
"""

from __future__ import annotations

import logging
import os
import sys
from collections import deque
from collections.abc import Callable

import trio

log = logging.getLogger("hickory.conn")

RECEIVE_BYTES = 65536  # read at most this much at a time (the framing splits it into lines)


class Flusher(trio.abc.Instrument):
    """Writes what every connection queued, as each task's step ends, in no task.

    A table's broadcast used to wake one writer task per receiver, and the task switches
    (wake-up, scheduling, the send lock, the parking lots) cost several times the write
    itself: about half the server's CPU per decision went to them. Then one flusher task
    wrote every marked connection, which still woke a task per decision (issue 29: a third
    of the tasks a decision woke). Now the flusher is a Trio instrument: when a task's step
    ends, it writes each connection the step marked in one non-blocking ``os.write``
    (merged, as the writer would), so a step's lines leave when the step ends, with no task
    woken. (Written only once the whole pass of the loop had run, a table's broadcast
    waited for every other task of the pass: with 1,000 bots, queued -> written p99 16-23
    ms, against about 1 ms written as the step ends.) Only what the kernel does not take at
    once (a slow client) goes to that connection's own writer, which sends it under the
    send timeout; a lobby push that marks more than ``PER_STEP`` connections is written
    ``PER_STEP`` at a time, at the ends of the next steps, others running in between. The
    flusher has no ``before_io_wait`` hook: Trio calls an instrument's hooks through a
    Python loop, and that hook, called on every pass of the loop, was 1.2% of the
    server's instructions per decision.
    """

    PER_STEP = 256  # connections written at a time (a lobby push marks them all)

    def __init__(self) -> None:
        self._dirty: list[Connection] = []
        self._token: trio.lowlevel.TrioToken | None = None
        self.running = False
        self.passes = 0  # times it wrote something (tests)

    def mark(self, conn: Connection) -> None:
        self._dirty.append(conn)

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        """A task's step has ended: write what it queued, before the next task steps.
        Never raises (an instrument that raises is removed, and nothing would be written
        again). Marks are made only in tasks' steps, so each is written at a step's end;
        when more than ``PER_STEP`` are left for later, a step is made to come soon (the
        loop might otherwise wait for I/O with them still marked)."""
        if self._dirty:
            self._write_marked()
            if self._dirty and self._token is not None:
                self._token.run_sync_soon(_nothing)

    def _write_marked(self) -> None:
        """Write up to ``PER_STEP`` marked connections (the rest at the next step's end)."""
        dirty = self._dirty
        self.passes += 1
        now, self._dirty = dirty[: self.PER_STEP], dirty[self.PER_STEP:]
        for conn in now:
            try:
                conn._flush_now()
            except Exception:  # pragma: no cover (a bug: lose the connection, not the server)
                log.exception("%r: writing its queue failed", conn)
                conn.close("internal error while sending")

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve every connection made from now on in this Trio run, until cancelled."""
        FLUSHER.set(self)
        self._token = trio.lowlevel.current_trio_token()
        self.running = True
        trio.lowlevel.add_instrument(self)
        try:
            task_status.started()
            await trio.sleep_forever()
        finally:
            self.running = False
            trio.lowlevel.remove_instrument(self)
            if FLUSHER.get(None) is self:
                FLUSHER.set(None)
            dirty, self._dirty = self._dirty, []
            for conn in dirty:  # their writers take over
                conn._marked = False
                conn._wakeup.set()


def _nothing() -> None:
    """Run soon, so the loop's wait for I/O ends at once."""


FLUSHER: trio.lowlevel.RunVar[Flusher | None] = trio.lowlevel.RunVar("hickory_flusher")


class Connection:
    def __init__(
        self,
        stream: trio.abc.Stream,
        *,
        conn_id: int,
        peer: str = "?",
        max_queue_bytes: int = 1 << 20,
        send_timeout: float = 10.0,
    ) -> None:
        self.stream = stream
        self.conn_id = conn_id
        self.peer = peer
        self.max_queue_bytes = max_queue_bytes
        self.send_timeout = send_timeout
        self._queue: deque[bytes] = deque()
        self._queued_bytes = 0
        self._wakeup = trio.Event()
        self.closed = False
        self.close_reason = ""
        self._closed_event = trio.Event()
        self._send_lock = trio.Lock()  # the writer and flush_and_close never send at once
        # The socket's descriptor for the writer's non-blocking fast path (-1: none).
        self._fd = stream.socket.fileno() if isinstance(stream, trio.SocketStream) \
            and sys.platform != "win32" else -1
        self._flusher = FLUSHER.get(None)  # the server's Flusher, if one runs (else the writer)
        self._marked = False  # waiting for the flusher
        self.lines_sent = 0
        self.lines_queued = 0
        self._written: deque[tuple[int, Callable[[float], None]]] = deque()  # when_written

    def __repr__(self) -> str:
        return f"<conn {self.conn_id} {self.peer}>"

    async def receive(self) -> bytes | bytearray:
        """The next bytes the client sent (b"" once it has closed its side).

        A plain socket is waited on first and read once: a reader that has taken all there
        was (nearly always: a client sends its next line only after the server's reply) has
        nothing to find by trying first, as ``receive_some`` does, and that try is a system
        call, an exception and trio's error translation per read."""
        if self._fd < 0:
            return await self.stream.receive_some(RECEIVE_BYTES)
        while True:
            await trio.lowlevel.wait_readable(self._fd)
            try:
                return os.read(self._fd, RECEIVE_BYTES)
            except BlockingIOError:  # woken with nothing to read after all: wait again
                continue

    def send_nowait(self, line: bytes) -> None:
        """Queue one complete line (with its newline). Never blocks; overflow closes."""
        if self.closed:
            return
        if self._queued_bytes + len(line) > self.max_queue_bytes:
            self.close("send queue overflow: the client is not reading")
            return
        self._queue.append(line)
        self.lines_queued += 1
        self._queued_bytes += len(line)
        if self._marked:
            return  # the flusher writes it (or, stopping, wakes the writer) with the rest
        flusher = self._flusher
        if flusher is not None and flusher.running and not self._send_lock.locked():
            self._marked = True
            flusher.mark(self)
        else:
            self._wakeup.set()

    def _flush_now(self) -> None:
        """The flusher's turn: write the queue at once if the kernel takes it, else leave
        the rest to the writer (woken). Never blocks."""
        self._marked = False
        if self.closed or not self._queue:
            return
        if self._send_lock.locked() or self._fd < 0:
            self._wakeup.set()
            return
        data = b"".join(self._queue)
        # No send holds the lock, so every line queued and not yet sent is in the queue
        # (not queue entries: after a partial write the rest is one entry holding many
        # lines). Counting the newlines instead was 1.3% of the server's instructions.
        lines = self.lines_queued - self.lines_sent
        sent = self._write_now(data)
        if sent is None:
            return
        self._queue.clear()
        if sent == len(data):
            self._queued_bytes = 0
            self.lines_sent += lines
            if self._written:
                self._report_written()
            return
        rest = data[sent:]
        self._queue.append(rest)
        self._queued_bytes = len(rest)
        self.lines_sent += lines - rest.count(b"\n")
        self._wakeup.set()

    def close(self, reason: str) -> None:
        """Mark closed and wake everything waiting on this connection. Idempotent."""
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        log.info("%r closed: %s", self, reason)
        self._wakeup.set()
        self._closed_event.set()

    async def wait_closed(self) -> None:
        await self._closed_event.wait()

    async def run_writer(self) -> None:
        """Drain the queue until closed; then flush what is left (bounded) and stop."""
        while True:
            await self._wakeup.wait()
            self._wakeup = trio.Event()
            if self._queue:
                if self._send_lock.locked():  # flush_and_close is sending: wait for it
                    await self._send_lock.acquire()
                else:
                    self._send_lock.acquire_nowait()
                try:
                    # Taken under the lock: flush_and_close may have sent it already.
                    data = b"".join(self._queue)
                    lines = data.count(b"\n")
                    self._queue.clear()
                    self._queued_bytes = 0
                    if not await self._send(data):
                        return
                finally:
                    self._send_lock.release()
                self.lines_sent += lines
                if self._written:
                    self._report_written()
            if self.closed:
                return

    def when_written(self, callback: Callable[[float], None]) -> None:
        """Call ``callback(trio time)`` once every line queued so far has been written
        (the metrics: a broadcast's queued -> written)."""
        self._written.append((self.lines_queued, callback))

    def _write_now(self, data: bytes) -> int | None:
        """One non-blocking write: the bytes the kernel took (0 if none), or None when the
        connection is lost (and now closed)."""
        try:
            return os.write(self._fd, data)
        except BlockingIOError:
            return 0
        except OSError:
            self.close("connection lost while sending")
            return None

    def _report_written(self) -> None:
        now = trio.current_time()
        while self._written and self._written[0][0] <= self.lines_sent:
            self._written.popleft()[1](now)

    async def _send(self, data: bytes) -> bool:
        """Send all of ``data`` within ``send_timeout``; False (and closed) if not.

        Fast path: one non-blocking write, which the kernel nearly always takes whole; no
        cancel scope and no extra trip through the scheduler (a table's broadcast wakes
        a writer per player, so this is most of the server's work per action). The rest,
        if any, goes through ``send_all`` under the timeout.
        """
        sent = 0
        if self._fd >= 0 and data:
            written = self._write_now(data)
            if written is None:
                return False
            sent = written
        if sent < len(data):
            with trio.move_on_after(self.send_timeout) as scope:
                try:
                    await self.stream.send_all(data[sent:])
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    self.close("connection lost while sending")
                    return False
            if scope.cancelled_caught:
                self.close(f"send timed out after {self.send_timeout:g} s")
                return False
        return True

    async def flush_and_close(self, reason: str, timeout: float = 2.0) -> None:
        """Send what is queued (a goodbye, an error), then close the stream.

        Safe while the writer runs (another task, e.g. shutdown, may call this): the lock
        waits for a send in progress, so lines go out whole and in order.
        """
        with trio.move_on_after(timeout):
            async with self._send_lock:
                if self._queue and not self.closed:
                    data = b"".join(self._queue)
                    self._queue.clear()
                    self._queued_bytes = 0
                    try:
                        await self.stream.send_all(data)
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        pass
        self.close(reason)
        with trio.move_on_after(timeout):
            try:
                await self.stream.aclose()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass
