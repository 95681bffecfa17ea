"""The commit path: a batch's rows as few statements, with the same result as row by row."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import trio

from server.journal import Journal
from server.store import Record, Store, input_record, meta_record, statements


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
