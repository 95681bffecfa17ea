"""One check of "is this a Hickory database" (``store.check_identity``), for the server's open
and the read-only tools' open, each with its own words: the server adds that the file was
left untouched, a tool that it is not a Hickory database. Only the server takes an SQLite
file with nothing in it (it makes it a Hickory database)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.reports import open_readonly
from server.rows import input_record
from server.store import SCHEMA_VERSION, Store, StoreError, check_identity, open_connection


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT, steps TEXT)")
    conn.commit()
    conn.close()


def _empty_sqlite(path: Path) -> None:
    """An SQLite file (its header written) whose schema holds nothing."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("DROP TABLE t")
    conn.commit()
    conn.close()


def _newer(path: Path) -> None:
    store = Store(path)
    store.write_now([input_record("register", {"player_id": "1", "name": "a"})])
    store.close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 7}")
    conn.commit()
    conn.close()


def test_another_applications_file_is_refused_in_each_callers_words(tmp_path: Path) -> None:
    path = tmp_path / "recipes.db"
    _foreign(path)
    with pytest.raises(StoreError) as server:
        open_connection(path, create=True)
    assert str(server.value) == f"{path} is an SQLite file of another application; it was left untouched"
    with pytest.raises(StoreError) as tool:
        open_readonly(path)
    assert str(tool.value) == f"{path} is an SQLite file of another application, not a Hickory database"


def test_a_newer_hickorys_file_is_refused_by_both_alike(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    _newer(path)
    said = f"{path} was written by a newer Hickory (schema {SCHEMA_VERSION + 7}, this one knows {SCHEMA_VERSION})"
    with pytest.raises(StoreError) as server:
        open_connection(path, create=True)
    assert str(server.value) == said
    with pytest.raises(StoreError) as tool:
        open_readonly(path)
    assert str(tool.value) == said


def test_an_empty_sqlite_file_is_the_servers_to_make_ours_and_no_tools(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    _empty_sqlite(path)
    conn = sqlite3.connect(path)
    assert check_identity(conn, path, server=True) == (0, {})
    with pytest.raises(StoreError, match="another application, not a Hickory database"):
        check_identity(conn, path, server=False)
    with pytest.raises(StoreError, match="another application, not a Hickory database"):
        open_readonly(path)
    open_connection(path, create=True).close()  # the server migrates it
    conn = open_readonly(path)
    version, schema = check_identity(conn, path, server=False)
    assert version == SCHEMA_VERSION and {"meta", "inputs", "hands", "hand_events"} <= set(schema)
    conn.close()
