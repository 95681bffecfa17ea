"""The clock page's cost to the server: 100 open pages, one state a second each.

    python bench/clock.py [--pages 100] [--seconds 6] [--rounds 3] [--feed clock]

``hickory-server`` runs in a subprocess with the clock on (``--clock-port``) and a
tournament being played by 18 built-in bots at two tables (their own process, so their CPU
is not the server's). Each round measures the server's CPU (``utime + stime`` from
``/proc/<pid>/stat``, 1.0 = one core) over a window without any page open, then over a
window of the same length with ``--pages`` event streams open (raw TCP clients in this
process, each counting the states it gets). The pages' cost is the difference, taken per
round (the game's own load drifts) and reported as the median over the rounds; the ratio
with/without is printed too. Target: under 5% of one core for 100 pages at one update a
second. One extra round with ``--pages`` on the heavier ``tables`` feed is printed for
information. The load average is printed first: on a shared machine every figure depends
on it. Loopback only; bounded in time.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")
TARGET = 0.05  # of one core, for 100 pages


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def start_server(tmp: Path, clock_port: int) -> subprocess.Popen[bytes]:
    port_file = tmp / "port"
    cmd = [sys.executable, "-m", "server", "--port", "0", "--port-file", str(port_file), "--no-db",
           "--clock-port", str(clock_port), "--bots", "18", "--seats", "9", "--start-at", "18",
           "--starting-stack", "10000000", "--no-deadline", "--hand-pause", "2"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not (port_file.exists() and port_file.read_text().strip()):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the server did not start")
        time.sleep(0.05)
    return proc


async def page(port: int, feed: str, counts: list[int], i: int, opened: trio.Semaphore) -> None:
    """One open page: an event stream, read and counted (``data:`` lines) until cancelled."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    try:
        await stream.send_all(f"GET /events/{feed} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        opened.release()
        tail = b""
        while True:
            chunk = await stream.receive_some(1 << 16)
            if not chunk:
                return
            data = tail + chunk
            counts[i] += data.count(b"\ndata: ") + data.startswith(b"data: ")
            tail = data[-8:]
    finally:
        await stream.aclose()


async def window(pid: int, port: int, pages: int, feed: str, seconds: float) -> tuple[float, list[int]]:
    """The server's CPU (cores) over ``seconds`` with ``pages`` open, and each page's states."""
    counts = [0] * pages
    async with trio.open_nursery() as nursery:
        opened = trio.Semaphore(0, max_value=max(1, pages))
        for i in range(pages):
            nursery.start_soon(page, port, feed, counts, i, opened)
        for _ in range(pages):
            await opened.acquire()
        await trio.sleep(1.5)  # every page has its first state; the window starts clean
        counts[:] = [0] * pages
        before, t0 = cpu_seconds(pid), time.monotonic()
        await trio.sleep(seconds)
        used, elapsed = cpu_seconds(pid) - before, time.monotonic() - t0
        got = list(counts)
        nursery.cancel_scope.cancel()
    await trio.sleep(1.0)  # the server lets go of the closed pages before the next window
    return used / elapsed, got


async def run(args: argparse.Namespace, pid: int, port: int) -> None:
    await trio.sleep(3.0)  # the tournament starts and settles
    extra: list[float] = []
    for r in range(1, args.rounds + 1):
        idle, _ = await window(pid, port, 0, args.feed, args.seconds)
        busy, counts = await window(pid, port, args.pages, args.feed, args.seconds)
        extra.append(busy - idle)
        rate = statistics.median(counts) / args.seconds
        print(f"round {r}: server CPU {idle:6.2%} without pages, {busy:6.2%} with {args.pages} "
              f"'{args.feed}' pages (ratio {busy / idle if idle else float('inf'):.2f}); pages got "
              f"{rate:.2f} states/s (median), fewest {min(counts)} in {args.seconds:g} s", flush=True)
    cost = statistics.median(extra)
    per_page_ms = cost * 1000 / args.pages
    verdict = "OK" if cost * 100 / args.pages < TARGET else "OVER TARGET"
    print(f"{args.pages} open '{args.feed}' pages cost {cost:.2%} of one core (median of {args.rounds} rounds; "
          f"{per_page_ms:.3f} ms of CPU per page per second); target under {TARGET:.0%} "
          f"for 100 pages: {verdict}")
    idle, _ = await window(pid, port, 0, "tables", args.seconds)
    busy, counts = await window(pid, port, args.pages, "tables", args.seconds)
    print(f"for information: {args.pages} 'tables' pages (every seat of every table) cost "
          f"{busy - idle:.2%} of one core ({idle:.2%} -> {busy:.2%})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pages", type=int, default=100)
    p.add_argument("--seconds", type=float, default=6.0, help="each measuring window")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--feed", choices=["clock", "standings", "tables"], default="clock")
    args = p.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as d:
        port = free_port()
        proc = start_server(Path(d), port)
        try:
            trio.run(run, args, proc.pid, port)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


if __name__ == "__main__":
    main()
