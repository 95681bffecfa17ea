"""Start-up on a file that is not a usable Hickory database: a clear error, exit code 2, and
the file left exactly as it was. The same files given to the read-only tools. A second
server on a database in use is refused; the tools work next to a running server. A new
database is owner-only and carries its schema version."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from server import cli
from server.rows import input_record
from server.store import APPLICATION_ID, SCHEMA_VERSION, Store
from tests.persistence.harness import REPO


def _hickory_db(path: Path, rows: int = 300) -> None:
    store = Store(path)
    store.write_now([input_record("register", {"player_id": str(i), "name": f"player {i}" * 5})
                     for i in range(rows)])
    store.close()


def _text(path: Path) -> None:
    path.write_text("this is a shopping list, not a tournament\n")


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT, steps TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('bread', 'knead')")
    conn.commit()
    conn.close()


def _newer(path: Path) -> None:
    _hickory_db(path, rows=3)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 7}")
    conn.commit()
    conn.close()


def _corrupt(path: Path) -> None:
    _hickory_db(path)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 4 * page
    data[2 * page: 4 * page] = bytes((i * 37 + 11) % 256 for i in range(2 * page))
    path.write_bytes(bytes(data))


def _truncated(path: Path) -> None:
    _hickory_db(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


def _directory(path: Path) -> None:
    path.mkdir()


CASES: dict[str, tuple[Callable[[Path], None], tuple[str, ...]]] = {
    "text file": (_text, ("not an SQLite file",)),
    "foreign SQLite file": (_foreign, ("another application",)),
    "newer schema": (_newer, ("newer Hickory",)),
    "corrupt pages": (_corrupt, ("corrupt", "malformed")),
    "truncated": (_truncated, ("corrupt", "malformed", "cannot be read")),
    "directory": (_directory, ("not a file",)),
}


def _digest(path: Path) -> str:
    if path.is_dir():
        return "dir:" + ",".join(sorted(os.listdir(path)))
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_bad_files_are_refused_untouched_with_exit_code_2(tmp_path, capsys):
    files = {}
    for name, (make, _) in CASES.items():
        folder = tmp_path / name.replace(" ", "_")
        folder.mkdir()
        path = folder / "hickory.db"
        make(path)
        files[name] = (path, _digest(path), sorted(os.listdir(folder)))
    # Real server processes, all at once (each would run for ever if it did start).
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-m", "server", "--db", str(path), "--port", "0",
             "--port-file", str(path.parent / "port")],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for name, (path, _, _) in files.items()
    }
    failures = []
    for name, proc in procs.items():
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            failures.append(f"{name}: the server started")
            continue
        path, digest, listing = files[name]
        words = CASES[name][1]
        if proc.returncode != 2:
            failures.append(f"{name}: exit code {proc.returncode}: {err}")
        if "Traceback" in err or not err.startswith("hickory-server: ") or not any(w in err for w in words):
            failures.append(f"{name}: unclear error {err!r}")
        if _digest(path) != digest:
            failures.append(f"{name}: the file was changed")
        if sorted(os.listdir(path.parent)) != listing:
            failures.append(f"{name}: files appeared: {sorted(os.listdir(path.parent))}")
    assert not failures, "\n".join(failures)

    # The read-only tools refuse the same files just as clearly.
    for name, (path, digest, _) in files.items():
        for tool in (["standings"], ["history"], ["history", "--format", "phh"]):
            assert cli.main([*tool, "--db", str(path)]) == 2, (name, tool)
            err = capsys.readouterr().err
            assert err.startswith(f"hickory-server {tool[0]}: ") and "Traceback" not in err, (name, err)
        assert _digest(path) == digest, name


def test_missing_database_for_the_tools(tmp_path, capsys):
    for tool in ("standings", "history"):
        assert cli.main([tool, "--db", str(tmp_path / "nope.db")]) == 2
        assert "no such database" in capsys.readouterr().err
    assert not (tmp_path / "nope.db").exists()


def test_new_database_is_owner_only_and_versioned(tmp_path):
    path = tmp_path / "new.db"
    old = os.umask(0o022)
    try:
        store = Store(path)
    finally:
        os.umask(old)
    store.write_now([input_record("register", {"player_id": "1", "name": "a"})])
    for p in tmp_path.iterdir():  # the database and its -wal and -shm files
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p
    store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_an_empty_file_made_by_someone_else_becomes_owner_only(tmp_path):
    path = tmp_path / "empty.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    Store(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_second_server_on_a_database_in_use_is_refused(tmp_path):
    from server.store import StoreError

    path = tmp_path / "busy.db"
    first = Store(path)
    try:
        with pytest.raises(StoreError, match="locked: another Hickory server"):
            Store(path)
    finally:
        first.close()
    Store(path).close()  # free again once the first has stopped


def test_a_second_server_process_is_refused_and_the_tools_read_alongside(tmp_path):
    path = tmp_path / "busy.db"
    port_file = tmp_path / "port"
    first = subprocess.Popen(
        [sys.executable, "-m", "server", "--db", str(path), "--port", "0", "--port-file", str(port_file)],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        import time

        deadline = time.monotonic() + 60
        while not port_file.exists() and time.monotonic() < deadline:
            assert first.poll() is None, first.stderr.read() if first.stderr else ""
            time.sleep(0.02)
        second = subprocess.run(
            [sys.executable, "-m", "server", "--db", str(path), "--port", "0"],
            cwd=REPO, capture_output=True, text=True, timeout=60,
        )
        assert second.returncode == 2
        assert "locked" in second.stderr and "Traceback" not in second.stderr
        tool = subprocess.run([sys.executable, "-m", "server", "standings", "--db", str(path)],
                              cwd=REPO, capture_output=True, text=True, timeout=60)
        assert tool.returncode == 0, tool.stderr
        assert "registering" in tool.stdout
    finally:
        first.terminate()
        assert first.wait(timeout=30) == 0


@pytest.mark.parametrize("flags, said", [
    (["--action-clock", "0.5"], "action_clock is from 1 to 3600 seconds, not 0.5"),
    (["--schedule", "100/200,100/200"], "blinds rise level by level"),
    (["--starting-stack", str(2**53)], "starting_stack is a whole number from 1 to"),
])
def test_options_the_tournament_refuses_stop_the_start_with_what_is_allowed(tmp_path, flags, said):
    out = subprocess.run([sys.executable, "-m", "server", "--db", str(tmp_path / "x.db"), "--port", "0", *flags],
                         cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and said in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert not (tmp_path / "x.db").exists()


def test_open_server_seeds_a_new_tournament_and_a_restart_keeps_what_the_first_start_fixed(tmp_path, caplog):
    """``open_server``: without a database, a server of the seed given; with one, the seed
    and the tournament's own options are stored by the first start and win over the flags
    of a later one (the game cannot change under the players); the durability asked for is
    the database's."""
    from poker.actions import Ruleset
    from server.app import open_server
    from server.config import ServerConfig
    from server.rows import meta_record

    bare = open_server(ServerConfig(db=None, port=0, seats=3), seed=7)
    assert (bare.seed, bare.store, bare.config.seats) == (7, None, 3)

    db = tmp_path / "fixed.db"
    first = ServerConfig(db=db, port=0, seats=3, starting_stack=3000, ruleset=Ruleset.STANDARD, synchronous="normal",
                         schedule=((10, 20), (20, 40)))
    caplog.set_level("INFO", logger="hickory.recovery")
    server = open_server(first, seed=11)
    assert server.store is not None
    try:
        assert server.seed == 11 and f"new tournament in {db}" in caplog.messages
        assert server.store._conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        server.store.write_now([meta_record("clock", "1234.5")])  # tournament time saved at the stop
    finally:
        server.store.close()
    later = ServerConfig(db=db, port=0, seats=6, starting_stack=5000, ruleset=Ruleset.HICKORY)
    server = open_server(later, seed=99)
    assert server.store is not None
    try:
        assert server.seed == 11
        assert (server.config.seats, server.config.starting_stack, server.config.ruleset) == (3, 3000, Ruleset.STANDARD)
        assert type(server.config.ruleset) is Ruleset and server.config.schedule == ((10, 20), (20, 40))
        assert server.store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL, this start's own
        assert server.resume_at == 1234.5  # tournament time goes on from there
        assert f"resumed the tournament in {db}: 0 players, 0 hands dealt" in caplog.messages
    finally:
        server.store.close()


def test_the_directors_secret_is_kept_across_restarts_until_the_host_gives_a_new_one(tmp_path):
    """In process (``test_director_secret.py`` does it with real processes, out of the
    mutation target's sight): a restart without ``--director`` keeps the stored secret's
    hash, one with it replaces the hash, stored for the next restart."""
    from server import director_key
    from server.app import open_server
    from server.config import ServerConfig

    def opened(secret: str | None) -> tuple[str | None, str | None, str | None]:
        server = open_server(ServerConfig(db=tmp_path / "secret.db", port=0, director_secret=secret), seed=1)
        assert server.store is not None
        try:
            return server.director_secret, server.director_secret_hash, server.store.get_meta(director_key.META_KEY)
        finally:
            server.store.close()

    secret, first, stored = opened("s3cret")
    assert secret == "s3cret" and first is not None and stored == first
    assert opened(None) == (None, first, first)  # the same director gets in
    secret, new, stored = opened("n3w")
    assert secret == "n3w" and new not in (None, first) and stored == new
    assert opened(None) == (None, new, new)
