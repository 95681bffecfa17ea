"""The commit path: a batch's rows as few statements, with the same result as row by row; the
event loop commits, the writer thread flushes (FULL) and checkpoints; one commit per loop step."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import threading
from pathlib import Path

import pytest
import trio

import server.store as store_module
from server.journal import Journal
from server.rows import Record, input_record, meta_record, row_json, statements
from server.store import CHECKPOINT_COMMITS, SCHEMA_VERSION, Store


def mixed_records(rng: random.Random, n: int) -> list[Record]:
    out: list[Record] = []
    for i in range(n):
        kind = rng.randrange(4)
        if kind == 0:
            out.append(input_record("act", {"seat": rng.randrange(9), "i": i}, rng.randrange(1, 4)))
        elif kind == 1:
            out.append(Record(sql="INSERT INTO hand_events (hand_no, idx, event) VALUES (?, ?, ?)",
                              params=(i // 7, i, f'{{"e":{i}}}')))
        elif kind == 2:
            out.append(meta_record("clock", repr(i * 0.5)))  # the same key again: the last wins
        else:
            out.append(Record(sql="INSERT INTO chat (at, scope, player_id, text) VALUES (?, ?, ?, ?)",
                              params=("now", "lobby", str(i), f"hi {i}")))
    return out


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()
                for t in ("inputs", "hand_events", "meta", "chat")}
    finally:
        conn.close()


def test_a_batch_in_few_statements_writes_what_row_by_row_would(tmp_path: Path) -> None:
    records = mixed_records(random.Random(7), 450)
    grouped = statements(records)
    assert len(grouped) < 20  # 450 rows, four kinds, at most 100 rows a statement
    store = Store(tmp_path / "batched.db")
    store.write_now(records)
    store.close()
    plain = Store(tmp_path / "plain.db")
    for r in records:
        plain._conn.execute(r.sql, r.params)
    plain.close()
    assert dump(tmp_path / "batched.db") == dump(tmp_path / "plain.db")
    inputs = dump(tmp_path / "batched.db")["inputs"]
    assert [row[0] for row in inputs] == list(range(1, len(inputs) + 1))  # seq in submission order


def test_statements_leave_other_sql_alone() -> None:
    update = Record(sql="UPDATE hands SET status='finished', summary=? WHERE hand_no=?", params=("{}", 3))
    literal = Record(sql="INSERT OR REPLACE INTO hands (hand_no, table_id, level, started_at, status, seats) "
                         "VALUES (?, ?, ?, ?, 'playing', ?)", params=(4, 1, 1, "t", "{}"))
    assert statements([update, literal, update]) == [
        (update.sql, update.params), (update.sql, update.params), (literal.sql, literal.params)]


async def test_one_wake_up_releases_every_table_of_a_commit(tmp_path: Path) -> None:
    """Tables whose rows share a commit all go on; each waited only for its commit."""
    store = Store(tmp_path / "t.db")
    store.start()
    journal = Journal(store, on_failure=lambda text: None)
    done: list[int] = []

    async def table(table_id: int) -> None:
        for i in range(5):
            await journal.commit([input_record("act", {"i": i}, table_id)])
        done.append(table_id)

    try:
        # A long first commit, so the tables' first rows queue behind it and share the next.
        store.submit([input_record("register", {"n": i}) for i in range(20000)])
        with trio.fail_after(20):
            async with trio.open_nursery() as n:
                for table_id in range(1, 9):
                    n.start_soon(table, table_id)
    finally:
        store.close()
    assert sorted(done) == list(range(1, 9))
    assert store.records == 20040 and store.commits < 40  # some commits were shared
    rows = dump(tmp_path / "t.db")["inputs"]
    for table_id in range(1, 9):  # each table's rows in its order
        mine = [r for r in rows if r[2] == table_id]
        assert [r[3] for r in mine] == [f'{{"i":{i}}}' for i in range(5)]


REAL_FDATASYNC = os.fdatasync


class GatedSync:
    """``os.fdatasync`` for the store's writer thread, held until the test opens the gate."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.calls = 0
        self.threads: set[int] = set()

    def __call__(self, fd: int) -> None:
        self.calls += 1
        self.threads.add(threading.get_ident())
        self.entered.set()
        self.gate.wait()
        REAL_FDATASYNC(fd)


async def test_with_full_a_commit_is_not_stored_until_the_wal_is_flushed(tmp_path: Path, monkeypatch) -> None:
    """The event loop commits; the ticket is released only after the writer thread's
    flush (FULL is NORMAL plus a sync of the WAL after each commit): store, then send."""
    sync = GatedSync()
    monkeypatch.setattr(store_module.os, "fdatasync", sync)
    store = Store(tmp_path / "t.db")
    store.start()
    journal = Journal(store, on_failure=lambda text: None)
    done = trio.Event()

    async def table() -> None:
        await journal.commit([input_record("act", {"i": 1}, 1)])
        done.set()

    try:
        async with trio.open_nursery() as n:
            n.start_soon(table)
            assert not done.is_set() or sync.calls, "released before any flush"
            assert await trio.to_thread.run_sync(sync.entered.wait, 60), "the writer thread never flushed"
            for _ in range(50):  # however long the loop runs, the flush has not happened
                await trio.sleep(0)
            assert not done.is_set()
            assert dump(tmp_path / "t.db")["inputs"]  # committed already, by the event loop
            sync.gate.set()
            with trio.fail_after(20):
                await done.wait()
    finally:
        sync.gate.set()
        store.close()
    assert sync.calls >= 1 and threading.get_ident() not in sync.threads


async def test_with_normal_a_commit_needs_no_flush_and_no_thread(tmp_path: Path, monkeypatch) -> None:
    def no_sync(fd: int) -> None:
        raise AssertionError("NORMAL never flushes")

    monkeypatch.setattr(store_module.os, "fdatasync", no_sync)
    store = Store(tmp_path / "t.db", synchronous="NORMAL")
    store.start()
    journal = Journal(store, on_failure=lambda text: None)
    try:
        for i in range(5):
            await journal.commit([input_record("act", {"i": i}, 1)])
    finally:
        store.close()
    assert store.commits == 5 and store.flushes == 0
    assert [r[3] for r in dump(tmp_path / "t.db")["inputs"]] == [f'{{"i":{i}}}' for i in range(5)]


async def test_tables_that_commit_in_one_loop_step_share_one_commit(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    store.start()
    journal = Journal(store, on_failure=lambda text: None)
    try:
        before = store.commits
        async with trio.open_nursery() as n:  # eight tables, all woken in the same step
            for table_id in range(1, 9):
                n.start_soon(journal.commit, [input_record("act", {"t": table_id}, table_id)])
    finally:
        store.close()
    assert store.commits == before + 1 and store.records == 8
    # (Trio runs the tasks of a step in any order: the rows are in the order they ran.)
    assert sorted(r[2] for r in dump(tmp_path / "t.db")["inputs"]) == list(range(1, 9))


async def test_the_writer_thread_checkpoints_and_the_order_holds_meanwhile(tmp_path: Path) -> None:
    """Past ``CHECKPOINT_COMMITS`` the thread checkpoints (SQLite's own, in the event loop,
    is off); rows that come while it holds the connection are handed to it, in order."""
    store = Store(tmp_path / "t.db")
    store.start()
    journal = Journal(store, on_failure=lambda text: None)
    try:
        at_start = store.checkpoints
        for i in range(3 * CHECKPOINT_COMMITS):
            await journal.commit([input_record("act", {"i": i}, 1)])
    finally:
        store.close()
    assert store.checkpoints >= at_start + 2
    rows = dump(tmp_path / "t.db")["inputs"]
    assert [r[3] for r in rows] == [f'{{"i":{i}}}' for i in range(3 * CHECKPOINT_COMMITS)]
    conn = sqlite3.connect(tmp_path / "t.db")
    try:
        assert conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000  # a new connection's own
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        conn.close()


async def test_rows_are_stored_in_the_order_the_tables_gave_them_across_checkpoints(tmp_path: Path) -> None:
    """Eight tables commit without a pause through several checkpoints: the log's order
    is the order of submission (rows handed to the thread while it checkpoints are written
    before any the event loop commits later)."""
    store = Store(tmp_path / "t.db")
    store.start()
    journal = Journal(store, on_failure=lambda text: None)
    given = [0]

    async def table(table_id: int) -> None:
        for _ in range(3 * CHECKPOINT_COMMITS):  # at least as many commits: 8 rows in each at most
            given[0] += 1
            await journal.commit([input_record("act", {"n": given[0]}, table_id)])

    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as n:
                for table_id in range(1, 9):
                    n.start_soon(table, table_id)
    finally:
        store.close()
    assert store.checkpoints >= 3
    order = [int(r[3].split(":")[1].rstrip("}")) for r in dump(tmp_path / "t.db")["inputs"]]
    assert order == sorted(order) and len(order) == 24 * CHECKPOINT_COMMITS


async def test_rows_given_after_rows_handed_to_the_thread_are_stored_after_them(tmp_path: Path) -> None:
    """While the writer thread holds the connection (a checkpoint), a table's rows are
    handed to it; another table's rows given later must not overtake them, even if the
    connection is free again before the thread has written what it was handed."""
    store = Store(tmp_path / "t.db")
    store.start()
    try:
        store._conn_lock.acquire()  # as the thread does while it checkpoints
        try:
            first = store.submit([input_record("act", {"n": 1}, 1)])  # handed to the thread
        finally:
            store._conn_lock.release()
        second = store.submit([input_record("act", {"n": 2}, 2)])  # at once, before the thread runs
        with trio.fail_after(20):
            await first.wait()
            await second.wait()
    finally:
        store.close()
    assert [r[3] for r in dump(tmp_path / "t.db")["inputs"]] == ['{"n":1}', '{"n":2}']


def test_a_rows_json_is_exactly_what_json_dumps_writes() -> None:
    """Stored texts are hashed into the fairness chain and compared after a restart, so the
    encoder built once must write byte for byte what ``json.dumps`` writes, and fail as it
    fails."""
    rng = random.Random(11)
    pieces: list[object] = [None, True, False, 0, -1, 10**12, 2**70, -(2**64), 0.0, -0.0, 60.0, 1e16, 1e-05,
                            19.943130985979224, 1.5e300, 5e-324, float("nan"), float("inf"), "", "plain",
                            'quote " and \\ back', "tab\tnew\nline", "é ü 日本 \U0001f0a1", "\x00\x1f\u2028"]
    values: list[object] = [*pieces, list(pieces), {"k": pieces, "n": {"deep": [[1, [2, [3]]]]}}, (1, (2, 3))]
    for _ in range(300):
        values.append({rng.choice(["a", "seat", "é", "now"]) + str(i): rng.choice(pieces) for i in range(rng.randrange(6))})
    for value in values:
        assert row_json(value) == json.dumps(value, separators=(",", ":")), value
    for bad in ({1j: 1}, {"x": object()}, {"x": {1, 2}}):
        with pytest.raises(TypeError):
            row_json(bad)
