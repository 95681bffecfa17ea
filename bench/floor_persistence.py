"""The floor of ``bench/persistence.py``: the server's own rows, committed with nothing else.

    .venv/bin/python bench/floor_persistence.py [--seconds 4] [--rounds 3] [--tables 1,4]

Each round runs, as bench/persistence.py does (its ``trial``, in this process, bots in
another): persistence off, then ``synchronous=FULL``, while noting every commit the
server's store makes (the rows of each transaction, as ``Store._write_batch`` gets them).
Then the floor replays exactly those commits into a fresh database in the same folder
(the server's schema, WAL), from one thread, one after another: the same rows grouped into
the same statements (``store.statements``), the same transactions, each commit followed by
one ``fdatasync`` of the WAL and a checkpoint every ``CHECKPOINT_COMMITS`` commits, as the
writer thread does them. No table logic, no event loop,
no thread hop, no encoding of the rows. Its time per commit (timed just before each FULL
trial, with the previous round's rows, and just after, and averaged: the disk's speed
drifts) is what the disk and SQLite cost for those rows.

The floor's actions per second: store, then send, so every action waits for its commit.
One table: off's time per action plus the floor's commit time for each of its commits
(the commits per action of the FULL trial). Several tables: the loop's work is shared, so
a table's time per action is at least ``tables`` times off's time per action plus one
commit (every table in every commit, each action waiting for one whole commit). Printed
within each round: ours (FULL) / the floor, the floor / off (the floor's cost: the least
logging can cost on this disk), ours / off. Lines start with ``FLOOR``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from server import rows as rows_module  # noqa: E402
from server import store as store_module  # noqa: E402

Commit = list[tuple[str, tuple[Any, ...]]]


def load_bench_persistence() -> Any:
    spec = importlib.util.spec_from_file_location("bench_persistence", ROOT / "bench" / "persistence.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Recorder:
    """Notes the rows of every transaction the store writes (wraps ``Store._write_batch``)."""

    def __init__(self) -> None:
        self.commits: list[Commit] = []
        self.on = False
        original = store_module.Store._write_batch
        recorder = self

        def write_batch(store: Any, batch: Any) -> bool:
            if recorder.on:
                recorder.commits.append([(r.sql, r.params) for rs, _ in batch for r in rs])
            return original(store, batch)

        store_module.Store._write_batch = write_batch  # type: ignore[method-assign, assignment]


def replay(directory: Path, commits: list[Commit]) -> float:
    """Seconds per commit: the same rows in the same transactions from one thread, each
    commit followed by one flush of the WAL (``fdatasync``, as the writer thread syncs it;
    SQLite's FULL would sync the same file at the same moment), a checkpoint every
    ``CHECKPOINT_COMMITS`` commits (SQLite's own is off, as in the server)."""
    path = directory / f"floor-{time.monotonic_ns()}.db"
    conn = store_module.open_connection(path, create=True)
    wal = -1
    try:
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        version = conn.execute("PRAGMA user_version").fetchone()[0]

        def checkpoint() -> None:  # as Store._checkpoint: then a row-less write starts the WAL
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            conn.execute(f"PRAGMA user_version={version}")

        checkpoint()
        wal = os.open(f"{path}-wal", os.O_RDONLY)
        statements = rows_module.statements
        records = [[rows_module.Record(sql=sql, params=params) for sql, params in c] for c in commits]
        start = time.perf_counter()
        for i, rows in enumerate(records, start=1):
            conn.execute("BEGIN IMMEDIATE")
            for sql, params in statements(rows):
                conn.execute(sql, params)
            conn.execute("COMMIT")
            os.fdatasync(wal)
            if i % store_module.CHECKPOINT_COMMITS == 0:
                checkpoint()
        elapsed = time.perf_counter() - start
    finally:
        if wal >= 0:
            os.close(wal)
        conn.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    return elapsed / max(1, len(commits))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=4.0, help="measured seconds per trial (default 4)")
    p.add_argument("--warmup", type=float, default=1.0, help="seconds before measuring (default 1)")
    p.add_argument("--rounds", type=int, default=3, help="rounds per table count (default 3)")
    p.add_argument("--tables", default="1,4", help="table counts, comma-separated (default 1,4)")
    p.add_argument("--db-dir", type=Path, default=None, help="where the databases go (default: a temporary folder)")
    args = p.parse_args()
    bp = load_bench_persistence()
    recorder = Recorder()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        for tables in [int(x) for x in args.tables.split(",")]:
            ratios: dict[str, list[float]] = {"ours / floor": [], "floor / off": [], "ours / off": []}
            per_commit: list[float] = []
            one_row: list[float] = []
            for r in range(max(1, args.rounds)):
                off = trio.run(bp.trial, None, tables, args.seconds, args.warmup, "FULL")
                # The disk's speed drifts from one minute to the next: the floor's commits are
                # timed just before the FULL trial (the last round's rows) and just after.
                before = [replay(Path(tmp), recorder.commits)] if recorder.commits else []
                recorder.commits, recorder.on = [], True
                db = Path(tmp) / f"t{tables}-{r}.db"
                full = trio.run(bp.trial, db, tables, args.seconds, args.warmup, "FULL")
                recorder.on = False
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{db}{suffix}").unlink(missing_ok=True)
                commit_s = statistics.mean([*before, replay(Path(tmp), recorder.commits)])
                per_commit.append(commit_s * 1000)
                one_row.append(bp.flush_ms(Path(tmp)))
                if tables == 1:
                    floor = 1 / (1 / off["rate"] + full["commits"] / full["rate"] * commit_s)
                else:
                    floor = tables / (tables / off["rate"] + commit_s)
                ratios["ours / floor"].append(full["rate"] / floor)
                ratios["floor / off"].append(floor / off["rate"])
                ratios["ours / off"].append(full["rate"] / off["rate"])
                rows = sum(len(c) for c in recorder.commits) / max(1, len(recorder.commits))
                # Where FULL's extra wall time per action goes (the store's own timers, per
                # commit: the loop's commit, the wait for the writer thread, its flush, the
                # wait for the event loop to run the release; the rest is everything else).
                per_action = full["commits"] / full["rate"]
                parts = {"commit in the loop": full["commit_ms"], "thread wakes": full["thread_wait_ms"],
                         "flush": full["flush_ms"] * full["flushes"] / max(1e-9, full["commits"]),
                         "loop wakes": full["loop_wait_ms"]}
                # A table's time per action (several tables: the loop is shared, and each
                # action waits for one commit of the rows of every table in it).
                extra = tables * (1000 / full["rate"] - 1000 / off["rate"])
                spent = {k: v * (per_action if tables == 1 else 1) for k, v in parts.items()}
                print(f"  {tables} table(s), round {r + 1}: FULL's extra {extra:.2f} ms per action of a table over "
                      f"off's {tables * 1000 / off['rate']:.2f}: " + ", ".join(f"{k} {v:.2f}" for k, v in spent.items())
                      + f", the rest {extra - sum(spent.values()):.2f} (server CPU per action: off "
                      f"{off['cpu_us']:.0f} us, FULL {full['cpu_us']:.0f} us)", flush=True)
                print(f"  {tables} table(s), round {r + 1} (load {os.getloadavg()[0]:.2f}): off {off['rate']:.0f}/s, "
                      f"FULL {full['rate']:.0f}/s ({full['commits'] / full['rate']:.2f} commits per action, "
                      f"its flushes {full['flush_ms']:.2f} ms), floor {floor:.0f}/s: {len(recorder.commits)} "
                      f"commits of {rows:.1f} rows replayed at {commit_s * 1000:.2f} ms each (before and "
                      f"after the trial; a one-row "
                      f"commit {one_row[-1]:.2f} ms)", flush=True)
            med = {k: statistics.median(v) for k, v in ratios.items()}
            print(f"FLOOR persistence, {tables} table(s), FULL: ours / floor {med['ours / floor']:.2f}, "
                  f"floor / off {med['floor / off']:.2f} (the least logging can cost here: "
                  f"{1 - med['floor / off']:.0%}), ours / off {med['ours / off']:.2f} (median of the rounds' "
                  f"ratios; the floor's commit {statistics.median(per_commit):.2f} ms, a one-row commit "
                  f"{statistics.median(one_row):.2f} ms; load {os.getloadavg()[0]:.2f})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
