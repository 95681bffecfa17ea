"""What handing one flush to someone else costs the event loop: a Python thread (as
``server/store.py`` does), a helper process, or no hand-over at all.

    .venv/bin/python bench/floor_flush.py [--flushes 1000] [--rounds 5] [--dir DIR]   (5 to 30 s)

Each flush is what one table's action waits for with ``synchronous=FULL``: 4 KB appended
to a file (as a commit appends WAL frames), then ``fdatasync``, then the waiting Trio task
goes on. One task does this ``--flushes`` times, one after another, four ways:

- thread: the loop notifies a writer thread through a ``threading.Condition``; the thread
  syncs and wakes the loop with ``TrioToken.run_sync_soon``, which sets a ``trio.Event``
  (the store's path: ``_commit_pending``, ``_writer``, ``_release_flushed``);
- pipe thread: a Python thread, woken and answering as the process is (a byte on a pipe
  each way, no ``Condition``, no ``run_sync_soon``): what the store's thread would cost if
  only the wake-ups changed (tried in the store on 3 December 2026: the hand-over here
  about a fifth cheaper, the server's actions per second the same within the noise);
- process: the loop writes a byte to a pipe; a helper process (forked, no Python between
  its system calls but a tiny loop) syncs its own descriptor of the file and answers with a
  byte on another pipe, which the loop awaits with ``trio.lowlevel.wait_readable``;
- inline: the loop calls ``os.fdatasync`` itself (one table, nothing else to run).

Printed per flush: wall time, this process's CPU (the loop and the thread) and the
helper's CPU, and the voluntary context switches; the rounds alternate the order. Lines
start with ``FLOOR``. The disk is the same for all three, so the differences are the
hand-overs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

TICK = os.sysconf("SC_CLK_TCK")
PAGE = b"x" * 4096


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def switches() -> int:
    total = 0
    for tid in os.listdir("/proc/self/task"):
        for line in Path(f"/proc/self/task/{tid}/status").read_text().splitlines():
            if line.startswith("voluntary_ctxt_switches"):
                total += int(line.split()[1])
    return total


def _release(events: list[trio.Event]) -> None:
    for event in events:
        event.set()


class ThreadFlusher:
    """The store's hand-over: Condition -> writer thread -> fdatasync -> run_sync_soon."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.work = threading.Condition(threading.Lock())
        self.pending: list[trio.Event] = []
        self.stopping = False
        self.token = trio.lowlevel.current_trio_token()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while True:
            with self.work:
                while not (self.pending or self.stopping):
                    self.work.wait()
                if self.stopping:
                    return
                done, self.pending = self.pending, []
            os.fdatasync(self.fd)
            self.token.run_sync_soon(_release, done)

    async def flush(self) -> None:
        event = trio.Event()
        with self.work:
            self.pending.append(event)
            self.work.notify()
        await event.wait()

    def close(self) -> None:
        with self.work:
            self.stopping = True
            self.work.notify()
        self.thread.join()


class PipeThreadFlusher:
    """A thread like the process: a byte in, fdatasync, a byte out (no Condition, no
    ``run_sync_soon``: the thread runs three system calls and a loop test per flush)."""

    def __init__(self, fd: int) -> None:
        ask_r, self.ask = os.pipe()
        self.answer, answer_w = os.pipe()
        os.set_blocking(self.answer, False)

        def run() -> None:
            while os.read(ask_r, 1):
                os.fdatasync(fd)
                os.write(answer_w, b".")
            os.close(ask_r)
            os.close(answer_w)

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    async def flush(self) -> None:
        os.write(self.ask, b".")
        while True:
            try:
                os.read(self.answer, 1)
                return
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self.answer)

    def close(self) -> None:
        os.close(self.ask)
        self.thread.join()
        os.close(self.answer)


class ProcessFlusher:
    """A forked helper: a byte in, fdatasync of its own descriptor, a byte out."""

    def __init__(self, path: str) -> None:
        ask_r, self.ask = os.pipe()
        self.answer, answer_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the helper: no Trio, no threads
            os.close(self.ask)
            os.close(self.answer)
            fd = os.open(path, os.O_RDONLY)
            while os.read(ask_r, 1):
                os.fdatasync(fd)
                os.write(answer_w, b".")
            os._exit(0)
        os.close(ask_r)
        os.close(answer_w)
        os.set_blocking(self.answer, False)

    async def flush(self) -> None:
        os.write(self.ask, b".")
        while True:
            try:
                os.read(self.answer, 1)
                return
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self.answer)

    def close(self) -> None:
        os.close(self.ask)
        os.waitpid(self.pid, 0)
        os.close(self.answer)


async def run(way: str, path: str, flushes: int) -> tuple[float, float, float, float]:
    """Seconds, this process's CPU seconds, the helper's CPU seconds, switches; per flush."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    helper: ThreadFlusher | PipeThreadFlusher | ProcessFlusher | None = None
    flush: Callable[[], Awaitable[None]]
    if way == "thread":
        helper = ThreadFlusher(fd)
        flush = helper.flush
    elif way == "pipe thread":
        helper = PipeThreadFlusher(fd)
        flush = helper.flush
    elif way == "process":
        helper = ProcessFlusher(path)
        flush = helper.flush
    else:
        async def inline() -> None:
            os.fdatasync(fd)
        flush = inline
    try:
        for _ in range(10):  # warm up
            os.write(fd, PAGE)
            await flush()
        cpu0, sw0, t0 = time.process_time(), switches(), time.perf_counter()
        child0 = proc_cpu(helper.pid) if isinstance(helper, ProcessFlusher) else 0.0
        for _ in range(flushes):
            os.write(fd, PAGE)
            await flush()
        elapsed, cpu, sw = time.perf_counter() - t0, time.process_time() - cpu0, switches() - sw0
        child = proc_cpu(helper.pid) - child0 if isinstance(helper, ProcessFlusher) else 0.0
    finally:
        if helper is not None:
            helper.close()
        os.close(fd)
    return elapsed / flushes, cpu / flushes, child / flushes, sw / flushes


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--flushes", type=int, default=1000, help="flushes per way and round (1000)")
    p.add_argument("--rounds", type=int, default=5, help="rounds (5)")
    p.add_argument("--dir", type=Path, default=None, help="where the file goes (default: a temporary folder)")
    args = p.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    ways = ("thread", "pipe thread", "process", "inline")
    got: dict[str, list[tuple[float, float, float, float]]] = {w: [] for w in ways}
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        path = os.path.join(d, "flush.bin")
        Path(path).write_bytes(b"")
        for r in range(max(1, args.rounds)):
            for way in ways if r % 2 == 0 else tuple(reversed(ways)):
                got[way].append(trio.run(run, way, path, max(1, args.flushes)))
    for way in ways:
        wall, cpu, child, sw = (statistics.median(x[i] for x in got[way]) for i in range(4))
        print(f"  {way:11s} per flush: {wall * 1000:5.2f} ms wall, {cpu * 1e6:4.0f} us CPU in this process, "
              f"{child * 1e6:4.0f} us in the helper, {sw:4.1f} voluntary switches")

    def ratio(a: str, b: str, i: int) -> float:
        return statistics.median(x[i] / y[i] for x, y in zip(got[a], got[b], strict=True))

    print(f"FLOOR flush hand-over: wall thread / inline {ratio('thread', 'inline', 0):.2f}, process / inline "
          f"{ratio('process', 'inline', 0):.2f}; this process's CPU thread / process "
          f"{ratio('thread', 'process', 1):.2f}, pipe thread / process {ratio('pipe thread', 'process', 1):.2f} (median of the rounds' ratios; load {os.getloadavg()[0]:.2f})",
          flush=True)


if __name__ == "__main__":
    main()
