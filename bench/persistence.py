"""What durable logging costs: actions per second of fast bot tables, with the database
(SQLite WAL, ``synchronous=FULL``, one writer thread, group commit) and without (``db=None``),
in the same run.

    .venv/bin/python bench/persistence.py [--seconds 4] [--rounds 3] [--tables 1,4] [--db-dir DIR]

Each trial starts an in-process server on loopback with ``6 x tables`` bots that act at
once (check or call, sometimes a minimum raise), deep stacks and tiny blinds so nobody
busts, and counts the actions the bots see (each player sees every action at the table) in ``--seconds`` after a warm-up.
Trials alternate off/on so drift on a busy machine hits both; medians are reported.
Store, then send means every action waits for its commit (an fsync with FULL) before
anyone sees it, so one table pays the disk's latency on every action; with several tables
the writer commits what all of them queued in one transaction.

The floor: the disk's flush time per commit, measured next to every FULL trial (the median
of one-row commits to a fresh database in the same folder, WAL and FULL, as the server
opens it). One table cannot commit faster than one flush after another, and its best
possible rate is the rate without a database plus one flush per commit: the bench prints
how close one table gets to both, and the FULL vs no-store cost at four tables (target
under 25%) next to its own floor: with every table in every commit, each action still
waits for one whole flush, so a table's time per action is at least off's plus one flush. The load average is printed first: the disk and the CPUs are shared.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from targets import verdict  # noqa: E402 (bench/targets.py, beside this file)

import protocol.messages as m  # noqa: E402
from poker.events import ActionTaken  # noqa: E402
from protocol.codec import decode_server, encode  # noqa: E402
from protocol.framing import LineBuffer  # noqa: E402
from server.app import open_server  # noqa: E402
from server.config import ServerConfig  # noqa: E402
from server.house import Watcher  # noqa: E402

SEATS = 6


class Counter:
    def __init__(self) -> None:
        self.actions = 0
        self.counting = False


async def bot(port: int, name: str, seed: int) -> None:
    rng = random.Random(seed)
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    buf = LineBuffer(1 << 20)
    street: dict[int, str] = {}

    async def send(msg: object) -> None:
        await stream.send_all(encode(msg) + b"\n")

    await send(m.Join(version=1, name=name))
    async with stream:
        while True:
            data = await stream.receive_some(1 << 16)
            if not data:
                return
            for line in buf.feed(data):
                msg = decode_server(line)
                if isinstance(msg, m.HandStarted):
                    street[msg.hand_no] = "preflop"
                elif isinstance(msg, m.Board):
                    street[msg.hand_no] = msg.street
                elif isinstance(msg, m.YourTurn):
                    legal = msg.legal
                    if legal.min_raise_to is not None and rng.random() < 0.1:
                        kind = "bet" if legal.check and street.get(msg.hand_no) != "preflop" else "raise"
                        await send(m.Act(hand_no=msg.hand_no, action=kind, amount=legal.min_raise_to))  # type: ignore[arg-type]
                    elif legal.check:
                        await send(m.Act(hand_no=msg.hand_no, action="check"))
                    else:
                        await send(m.Act(hand_no=msg.hand_no, action="call"))


async def run_bots(port: int, count: int) -> None:
    async with trio.open_nursery() as nursery:
        for i in range(count):
            nursery.start_soon(bot, port, f"bot{i}", i)


async def trial(db: Path | None, tables: int, seconds: float, warmup: float,
                synchronous: str = "FULL", in_process: bool = False) -> dict[str, float]:
    players = SEATS * tables
    config = ServerConfig(
        db=db, host="127.0.0.1", port=0, start_at=players, no_deadline=True, seats=SEATS,
        starting_stack=10_000_000, schedule=((1, 2),), level_minutes=10_000.0,
        action_clock=30, time_bank=30, hand_pause=0.0, synchronous=synchronous.lower(),
    )
    server = open_server(config)
    store = server.store
    counter = Counter()

    class Counting(Watcher):
        def hand_events(self, table_id: int, hand: Any, events: Any) -> None:
            if counter.counting:
                counter.actions += sum(1 for e in events if isinstance(e, ActionTaken))

    server.watchers.append(Counting())
    bots: subprocess.Popen[bytes] | None = None
    try:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            if in_process:
                nursery.start_soon(run_bots, port, players)
            else:  # the bots on the other core, as they would be on other machines
                bots = subprocess.Popen([sys.executable, __file__, "--bots-for", str(port), str(players)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with trio.fail_after(60):
                while server.tournament.hands_dealt < tables:
                    await trio.sleep(0.01)
            await trio.sleep(warmup)
            before = _store_counts(store)
            counter.counting = True
            t0, cpu0, times0 = time.perf_counter(), time.process_time(), os.times()
            await trio.sleep(seconds)
            counter.counting = False
            elapsed, cpu, times1 = time.perf_counter() - t0, time.process_time() - cpu0, os.times()
            after = _store_counts(store)
            if bots is not None:
                bots.kill()
            nursery.cancel_scope.cancel()
    finally:
        if bots is not None:
            bots.kill()
            bots.wait()
        if store is not None:
            store.close()
    commits = after[0] - before[0]
    flushes = after[3] - before[3]
    return {
        "rate": counter.actions / elapsed,
        # The server's CPU (its process: the event loop and the writer thread; the bots are
        # another process) per action: what the code costs, whatever the machine's load.
        "cpu_us": 1e6 * cpu / max(1, counter.actions),
        "sys_us": 1e6 * (times1.system - times0.system) / max(1, counter.actions),  # the kernel's part
        "commits": commits / elapsed,
        "records": (after[1] - before[1]) / max(1, commits),
        "commit_ms": 1000 * (after[2] - before[2]) / max(1, commits),
        # What waits for the disk: with FULL, one flush of the WAL for every commit made
        # since the last one (the event loop commits, the writer thread flushes).
        "flushes": flushes / elapsed,
        "flush_ms": 1000 * (after[4] - before[4]) / max(1, flushes),
        # Besides the flush: the wait until the writer thread takes what the loop committed,
        # and until the loop runs the release the thread asked for (per release).
        "thread_wait_ms": 1000 * (after[5] - before[5]) / max(1, after[7] - before[7]),
        "loop_wait_ms": 1000 * (after[6] - before[6]) / max(1, after[7] - before[7]),
    }


def _store_counts(store: Any) -> tuple[int, int, float, int, float, float, float, int]:
    if store is None:
        return (0, 0, 0.0, 0, 0.0, 0.0, 0.0, 0)
    return (store.commits, store.records, store.write_seconds, store.flushes, store.flush_seconds,
            store.thread_wait_seconds, store.loop_wait_seconds, store.releases)


def _rates(runs: list[dict[str, float]]) -> str:
    return ", ".join(f"{x['rate']:.0f}" for x in runs)


def flush_ms(directory: Path, commits: int = 60) -> float:
    """The disk's flush time per commit: the median of ``commits`` one-row commits to a
    fresh database in ``directory``, as the server opens it (WAL, synchronous=FULL)."""
    path = directory / f"flush-{time.monotonic_ns()}.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
        times = []
        for _ in range(commits):
            t0 = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t (payload) VALUES (?)", ("x" * 200,))
            conn.execute("COMMIT")
            times.append(time.perf_counter() - t0)
    finally:
        conn.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    return statistics.median(times) * 1000


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=4.0, help="measured seconds per trial (default 4)")
    p.add_argument("--warmup", type=float, default=1.0, help="seconds before measuring (default 1)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of off/FULL/NORMAL per table count (default 3)")
    p.add_argument("--tables", default="1,4", help="table counts to try, comma-separated (default 1,4)")
    p.add_argument("--db-dir", type=Path, default=None,
                   help="where the trial databases go (default: a temporary folder; use the disk the "
                        "server will really use)")
    p.add_argument("--in-process-bots", action="store_true",
                   help="run the bots in the server's process (they then compete with it for one core)")
    p.add_argument("--bots-for", nargs=2, type=int, metavar=("PORT", "N"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.bots_for is not None:
        try:
            trio.run(run_bots, *args.bots_for)
        except (KeyboardInterrupt, OSError):
            pass
        return 0
    table_counts = [int(x) for x in args.tables.split(",")]
    rounds = max(1, min(args.rounds, 10))
    seconds = max(0.5, min(args.seconds, 30.0))
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        where = "in the server's process" if args.in_process_bots else "in another process"
        print(f"persistence bench: {seconds:g} s per trial after {args.warmup:g} s warm-up, "
              f"{rounds} rounds, bots {where}, databases in {tmp}")
        worst: dict[str, float] = {}  # the cost at the worst table count above one, per mode
        for tables in table_counts:
            runs: dict[str, list[dict[str, float]]] = {"off": [], "FULL": [], "NORMAL": []}
            floors: list[float] = []  # the flush time measured next to each FULL trial
            for r in range(rounds):  # interleaved, so a busy machine's drift hits every variant
                runs["off"].append(trio.run(trial, None, tables, seconds, args.warmup, "FULL", args.in_process_bots))
                for sync in ("FULL", "NORMAL"):
                    db = Path(tmp) / f"t{tables}-{sync}-{r}.db"
                    if sync == "FULL":
                        before = flush_ms(Path(tmp))
                    runs[sync].append(trio.run(trial, db, tables, seconds, args.warmup, sync, args.in_process_bots))
                    if sync == "FULL":
                        floors.append((before + flush_ms(Path(tmp))) / 2)
            off = statistics.median(x["rate"] for x in runs["off"])
            load = os.getloadavg()
            off_cpu = statistics.median(x["cpu_us"] for x in runs["off"])
            print(f"  {tables} table(s), {SEATS * tables} bots (load average {load[0]:.2f}): persistence off "
                  f"{off:7.0f} actions/s, server CPU {off_cpu:4.0f} us per action (runs {_rates(runs['off'])})")
            for sync in ("FULL", "NORMAL"):
                xs = runs[sync]
                rate = statistics.median(x["rate"] for x in xs)
                cost = 1 - rate / off
                if tables > 1:
                    worst[sync] = max(worst.get(sync, 0.0), cost)
                cpu = statistics.median(x["cpu_us"] for x in xs)
                print(f"    synchronous={sync:<6} server CPU {cpu:4.0f} us per action, {cpu / off_cpu:.2f}x off's; "
                      f"in the kernel {statistics.median(x['sys_us'] for x in xs):4.0f} us (off's "
                      f"{statistics.median(x['sys_us'] for x in runs['off']):4.0f})")
                print(f"    synchronous={sync:<6} {rate:7.0f} actions/s  ratio {rate / off:.2f}  "
                      f"logging costs {cost:6.1%}  | {statistics.median(x['commits'] for x in xs):5.0f} commits/s, "
                      f"{statistics.median(x['records'] for x in xs):4.1f} rows and "
                      f"{statistics.median(x['commit_ms'] for x in xs):5.2f} ms per commit, "
                      f"{statistics.median(x['flushes'] for x in xs):5.0f} flushes/s of "
                      f"{statistics.median(x['flush_ms'] for x in xs):5.2f} ms (runs {_rates(xs)})")
            # The floor: the disk's flush time per commit, measured beside each FULL trial.
            # One table's commits come one after another (store, then send, then the next
            # action), so its commits per second cannot pass 1000 / flush ms, and its best
            # possible rate is the rate without a database with one flush added per commit.
            near = [x["flushes"] * f / 1000 for x, f in zip(runs["FULL"], floors, strict=True)]
            best = [1 / (1 / o["rate"] + x["flushes"] / x["rate"] * f / 1000)
                    for o, x, f in zip(runs["off"], runs["FULL"], floors, strict=True)]
            reach = [x["rate"] / b for x, b in zip(runs["FULL"], best, strict=True)]
            print(f"    flush time per commit (the fsync floor) {statistics.median(floors):.2f} ms "
                  f"(runs {', '.join(f'{f:.2f}' for f in floors)}): at most "
                  f"{1000 / statistics.median(floors):.0f} commits/s one after another")
            # The same bound with the server's own flushes (its WAL, timed by the writer
            # thread in the trial itself), which may differ from a fresh file's.
            own = [x["rate"] / (1 / (1 / o["rate"] + x["flushes"] / x["rate"] * x["flush_ms"] / 1000))
                   for o, x in zip(runs["off"], runs["FULL"], strict=True)]
            print(f"    the server's own flushes: {statistics.median(x['flush_ms'] for x in runs['FULL']):.2f} ms, "
                  f"and per release the wait for the writer thread to take the commits "
                  f"{statistics.median(x['thread_wait_ms'] for x in runs['FULL']):.3f} ms, for the event "
                  f"loop to run the release {statistics.median(x['loop_wait_ms'] for x in runs['FULL']):.3f} ms; "
                  f"actions / (off's time per action + its own flush time per action): median "
                  f"{statistics.median(own):.0%} (runs {', '.join(f'{x:.0%}' for x in own)})")
            if tables == 1:
                print(f"    one table's flushes / the floor's: median {statistics.median(near):.0%} "
                      f"(runs {', '.join(f'{x:.0%}' for x in near)})")
                print(f"    one table's actions / the best possible (off's time per action + one flush per "
                      f"commit; runs {', '.join(f'{b:.0f}' for b in best)}/s): median {statistics.median(reach):.0%} "
                      f"(runs {', '.join(f'{x:.0%}' for x in reach)})")
                verdict("persistence, one table, FULL: actions / the best possible", statistics.median(reach),
                        at_least=0.9, against="off's time per action + one flush per commit, same run",
                        detail=f"flush {statistics.median(floors):.2f} ms")
            else:
                print(f"    the writer busy {statistics.median(near):.0%} of the time (commits x flush time)")
                # Even with every table in every commit, each action still waits for one
                # whole flush (store, then send): a table's time per action is at least
                # off's plus one flush, so the cost has a floor set by the disk, and the
                # 25% target needs a flush shorter than a third of off's time per action.
                shared = [tables / (tables / o["rate"] + f / 1000)
                          for o, f in zip(runs["off"], floors, strict=True)]
                reach = [x["rate"] / b for x, b in zip(runs["FULL"], shared, strict=True)]
                floor_cost = 1 - statistics.median(shared) / off
                needed = tables / off / 3 * 1000
                print(f"    best possible with every table in every commit (off's time per action + one "
                      f"flush per action; runs {', '.join(f'{b:.0f}' for b in shared)}/s): reached "
                      f"median {statistics.median(reach):.0%} (runs {', '.join(f'{x:.0%}' for x in reach)}); "
                      f"the cost cannot go below {floor_cost:.0%} with this disk; under 25% needs a flush "
                      f"under {needed:.2f} ms")
        for sync, cost in worst.items():
            verdict(f"persistence, several tables, synchronous={sync}: logging's cost", cost,
                    at_most=0.25, against="persistence off, same run (1 - rate / off's rate; worst table count)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
