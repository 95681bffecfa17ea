"""SQLite persistence: the tournament's write-ahead log and the hand records.

Design (see docs/architecture.md, "Persistence"):
- The log (``inputs``) holds every input the sans-I/O tournament was given, in order:
  registrations, the start, each hand's deck, each action, each hand's end, level changes,
  director operations. Replaying it through a fresh ``Tournament`` rebuilds the exact
  state, including a hand in progress, so a restart loses nothing.
- ``hands`` and ``hand_events`` keep each hand's events for recall (history requests,
  exports, PHH); ``audit`` the director's log; ``chat`` the chat.
- Store, then send: a table submits its records and waits for the commit before any
  client sees the effect. The event loop itself commits (the rows of every table that asks
  in one loop step in one transaction, appended to the WAL without a sync: no thread hop);
  one writer thread syncs the WAL for FULL, checkpoints, and commits what is handed to it
  while it holds the connection, so a slow disk delays only the tables waiting on it, never
  the event loop (``Store``'s docstring has the details).
- The commit path does each thing once: the rows of one statement go in one multi-row
  ``INSERT``, and one wake-up per flush tells the event loop which tables may go on.
- WAL with ``synchronous=FULL``: a commit is synced to the disk before it counts, so what
  was committed survives kill -9 and a power cut (docs/hosting.md).
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import trio

from server.rows import Record, parse_payload, statements

log = logging.getLogger("hickory.store")

APPLICATION_ID = 0x4869636B  # "Hick": marks the file as ours
SCHEMA_VERSION = 1

_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE inputs (
        seq INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        table_id INTEGER,
        payload TEXT NOT NULL
    );
    CREATE TABLE players (
        player_id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        token_hash TEXT NOT NULL,
        registered_seq INTEGER NOT NULL
    );
    CREATE TABLE hands (
        hand_no INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL,
        level INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        status TEXT NOT NULL,          -- playing, finished, voided
        seats TEXT NOT NULL,           -- json: seat -> [player_id, name]
        summary TEXT                   -- json: result when finished
    );
    CREATE TABLE hand_events (
        hand_no INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (hand_no, idx)
    );
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL
    );
    CREATE TABLE chat (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        scope TEXT NOT NULL,
        player_id TEXT,
        text TEXT NOT NULL
    );
    """,
}


class StoreError(Exception):
    """The database cannot be used: a clear message for the host, the file left untouched."""


def open_connection(path: Path, *, create: bool) -> sqlite3.Connection:
    """Open (and migrate) the database, refusing files that are not ours.

    A foreign or corrupt file raises ``StoreError`` before anything is written to it.
    """
    exists = path.exists()
    if not exists and not create:
        raise StoreError(f"{path}: no such database")
    if exists and not path.is_file():
        raise StoreError(f"{path} is not a file")
    try:
        if exists:
            with open(path, "rb") as f:
                header = f.read(16)
            if header and header != b"SQLite format 3\x00":
                raise StoreError(f"{path} is not a Hickory database (not an SQLite file); it was left untouched")
        else:
            # Owner-only: the file holds decks and session token hashes.
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            os.close(fd)
    except OSError as exc:
        raise StoreError(f"{path}: cannot open the database ({exc.strerror})") from exc
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} cannot be read as a Hickory database ({exc}); it was left untouched") from exc
    version, schema = check_identity(conn, path, server=True)
    try:
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise StoreError(f"{path} is corrupt ({check}); it was left untouched")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        if version == 0 and not schema:
            os.chmod(path, 0o600)  # a new database: owner-only, whoever created the file
        for v in range(version + 1, SCHEMA_VERSION + 1):
            conn.execute("BEGIN IMMEDIATE")
            for statement in _MIGRATIONS[v].split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version={v}")
            conn.execute("COMMIT")
    except sqlite3.OperationalError as exc:
        conn.close()
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreError(f"{path} is locked by another process (is another server running on it?)") from exc
        raise StoreError(f"{path}: {exc}") from exc
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{path} is corrupt ({exc}); it was left untouched") from exc
    return conn


def check_identity(conn: sqlite3.Connection, path: Path, *, server: bool) -> tuple[int, dict[str, str]]:
    """Is ``conn`` a Hickory database this version can read? Its schema version and what
    its schema holds (name -> type), or ``StoreError`` (``conn`` closed) for another
    application's SQLite file or a newer Hickory's. The ``server`` takes an empty file (it
    makes it ours) and says the file was left untouched; the read-only tools never touch it."""
    untouched = "; it was left untouched" if server else ""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        schema = {str(n): str(t) for n, t in conn.execute("SELECT name, type FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{path} cannot be read as a Hickory database ({exc}){untouched}") from exc
    if app_id != APPLICATION_ID and (schema or not server):
        conn.close()
        raise StoreError(f"{path} is an SQLite file of another application"
                         + (untouched or ", not a Hickory database"))
    if version > SCHEMA_VERSION:
        conn.close()
        raise StoreError(f"{path} was written by a newer Hickory (schema {version}, this one knows {SCHEMA_VERSION})")
    return int(version), schema


def lock_database(path: Path) -> int:
    """Take the server's exclusive lock on the database file; returns the descriptor holding it.

    Two servers writing one log would corrupt the tournament, and SQLite's own locks only
    cover single transactions, so the server holds an ``flock`` for its whole run. A missing
    file is created owner-only here; the read-only tools never take this lock.
    """
    try:
        if path.exists():
            if not path.is_file():
                raise StoreError(f"{path} is not a file")
            fd = os.open(path, os.O_RDONLY)
        else:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
    except OSError as exc:
        raise StoreError(f"{path}: cannot open the database ({exc.strerror})") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        raise StoreError(
            f"{path} is locked: another Hickory server is running on it (stop it first, or use another --db)"
        ) from exc
    return fd


SWITCH_INTERVAL = 0.001
"""The interpreter's thread switch interval while a store's writer runs (CPython's default
is 5 ms). The writer needs the GIL for microseconds between SQLite calls, but after each
call it waited for the event loop to give it up: up to 5 ms each, more than the fsync."""


CHECKPOINT_COMMITS = 250
"""Commits between two checkpoints. A commit of a table's action writes a few pages, so
this is about SQLite's own automatic checkpoint (1,000 pages), which is off: it would run
in the event loop, with two syncs. The writer thread checkpoints instead."""


class Ticket:
    """A submitted batch; ``await ticket.wait()`` returns once it is committed (with FULL,
    once the commit is flushed to the disk). Most tickets are released before anyone waits
    (NORMAL: committed in the step that asked), so the event to wait on is made only for a
    wait that has to."""

    __slots__ = ("done", "error", "_event")

    def __init__(self) -> None:
        self.done = False
        self.error: str | None = None
        self._event: trio.Event | None = None

    def release(self) -> None:
        self.done = True
        if self._event is not None:
            self._event.set()

    async def wait(self) -> None:
        if not self.done:
            if self._event is None:
                self._event = trio.Event()
            await self._event.wait()
        if self.error is not None:
            raise StoreError(self.error)


def _release(tickets: list[Ticket]) -> None:
    for ticket in tickets:
        ticket.release()


Batch = list[tuple[list[Record], Ticket]]


class Store:
    """The commit path and the read side. Reads use their own connections (WAL readers).

    Once ``start``ed (the server), a commit is made by the event loop itself: the rows of
    every table that asks in one loop step go in one transaction, appended to the WAL in
    the OS's cache with no sync (SQLite's NORMAL), which takes tens of microseconds and
    no thread hop. SQLite's FULL is exactly that plus a sync of the WAL after the commit,
    and that sync is the writer thread's job: woken once for everything committed since its
    last flush, it syncs the WAL and wakes the event loop once for all the tables whose
    rows it holds. Nobody's ticket is released before its rows are committed and, with
    FULL, on the disk: store, then send. The thread also checkpoints (the event loop never
    waits for the disk), and while it uses the connection the loop hands it the rows to
    commit instead, in order.
    """

    def __init__(self, path: Path | str, *, synchronous: str = "FULL") -> None:
        """``synchronous``: FULL (the default) flushes every commit to the disk before it
        counts as stored, so a committed action survives a power cut too; NORMAL survives
        kill -9 of the server but may lose the last commits (never the file's consistency)
        in a power cut or OS crash (docs/hosting.md). ``bench/persistence.py`` measures both."""
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.path = Path(path)
        self.synchronous = synchronous.upper()
        self._lock_fd = lock_database(self.path)
        try:
            self._conn = open_connection(self.path, create=True)
            self._conn.execute(f"PRAGMA synchronous={self.synchronous}")
        except BaseException:
            os.close(self._lock_fd)
            raise
        self._thread: threading.Thread | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        # Who uses the connection now: the event loop's commit or the writer thread (it
        # takes rows from ``_queued`` only while holding it, so the order is kept).
        self._conn_lock = threading.Lock()
        self._work = threading.Condition(threading.Lock())  # guards the three below
        self._queued: Batch = []  # rows for the thread to commit (the connection was busy)
        self._unflushed: list[Ticket] = []  # committed by the loop, waiting for the next flush
        self._stopping = False
        self._pending: Batch = []  # rows of this loop step, for its one commit (loop only)
        self._committing = False  # a task will commit ``_pending`` at the end of the step
        self._since_checkpoint = 0
        self._wal_fd = -1
        self.failed: str | None = None
        self.commits = 0
        self.records = 0
        self.write_seconds = 0.0  # time spent writing and committing (where the time goes)
        self.flushes = 0  # syncs of the WAL by the writer thread (FULL)
        self.flush_seconds = 0.0
        self.checkpoints = 0  # by the writer thread (and one at the start)
        # Where a FULL commit's wait goes besides the flush (bench/persistence.py prints
        # them per flush): from the first commit waiting until the thread takes it, and
        # from the thread's wake-up of the event loop until the loop runs the release.
        self.thread_wait_seconds = 0.0
        self.loop_wait_seconds = 0.0
        self.releases = 0
        self._unflushed_since = 0.0

    # -- lifecycle --------------------------------------------------------------------

    def start(self) -> None:
        """Start the writer thread; call from inside ``trio.run``."""
        self._token = trio.lowlevel.current_trio_token()
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        # From now on the loop commits without a sync and the thread syncs (FULL) and
        # checkpoints; the first checkpoint here also makes sure the WAL file exists.
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA wal_autocheckpoint=0")
        self._checkpoint()
        self._wal_fd = os.open(self._wal_path(), os.O_RDONLY)
        self._thread = threading.Thread(target=self._writer, name="hickory-store", daemon=True)
        self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            if self._pending:  # rows nobody awaited (the run ended first): commit them too
                self._hand_over(self._pending)
                self._pending = []
            with self._work:
                self._stopping = True
                self._work.notify()
            self._thread.join()
            self._thread = None
        if self._wal_fd >= 0:
            os.close(self._wal_fd)
            self._wal_fd = -1
        self._conn.close()
        if self._lock_fd >= 0:
            os.close(self._lock_fd)  # after the connection: closing it drops SQLite's own locks
            self._lock_fd = -1

    def _wal_path(self) -> str:
        return f"{self.path}-wal"

    # -- writing ------------------------------------------------------------------------

    def submit(self, records: list[Record]) -> Ticket:
        """Queue records to commit, in submission order. Never blocks on the disk."""
        ticket = Ticket()
        if self.failed is not None:
            ticket.error = self.failed
            ticket.release()
            return ticket
        if self._thread is None:  # not started (tools, tests): write synchronously
            self._write_batch([(records, ticket)])
            ticket.release()
            return ticket
        self._pending.append((records, ticket))
        if not self._committing:  # nobody commits at the end of this step: commit now
            self._commit_pending()
        return ticket

    async def write(self, records: list[Record]) -> None:
        """Commit ``records`` and wait until they are stored. Every task that writes in
        the same loop step shares one commit: the first one lets the others run, then
        commits all their rows."""
        if self._thread is None or self.failed is not None:
            await self.submit(records).wait()
            return
        ticket = Ticket()
        self._pending.append((records, ticket))
        if not self._committing:
            self._committing = True
            try:
                await trio.lowlevel.cancel_shielded_checkpoint()
            finally:
                self._committing = False
            self._commit_pending()
        if not ticket.done or ticket.error is not None:  # (NORMAL: stored already, no wait)
            await ticket.wait()

    def write_now(self, records: list[Record]) -> None:
        """Synchronous write for start-up and tools (no event loop involved)."""
        with self._conn_lock:
            ok = self._write_batch([(records, Ticket())])
        if ok and self._thread is not None and self.synchronous == "FULL":
            self._flush()

    def _commit_pending(self) -> None:
        """The event loop's commit of this step's rows (no sync, no thread hop), unless the
        writer thread has the connection or rows queued before these: then it gets them."""
        batch, self._pending = self._pending, []
        if not batch:
            return
        if not self._conn_lock.acquire(blocking=False):
            self._hand_over(batch)
            return
        try:
            if self._queued:  # the thread has rows from before these: after them, in order
                self._hand_over(batch)
                return
            ok = self._write_batch(batch)
        finally:
            self._conn_lock.release()
        self._since_checkpoint += 1
        tickets = [ticket for _, ticket in batch]
        if ok and self.synchronous == "FULL":
            with self._work:  # one wake-up of the thread for all that it finds when it runs
                if not self._unflushed:
                    self._unflushed_since = time.perf_counter()
                self._unflushed += tickets
                self._work.notify()
            return
        _release(tickets)  # NORMAL: committed is stored (or it failed: the error is set)
        if self._since_checkpoint >= CHECKPOINT_COMMITS:
            with self._work:
                self._work.notify()

    def _hand_over(self, batch: Batch) -> None:
        with self._work:
            self._queued += batch
            self._work.notify()

    def _writer(self) -> None:
        """The writer thread: commits what was handed over, flushes what the loop
        committed (FULL), checkpoints; wakes the event loop once per round for all of it."""
        while True:
            with self._work:
                while not (self._queued or self._unflushed or self._stopping
                           or self._since_checkpoint >= CHECKPOINT_COMMITS):
                    self._work.wait()
                stopping = self._stopping
                done, self._unflushed = self._unflushed, []
                if done:
                    self.thread_wait_seconds += time.perf_counter() - self._unflushed_since
            if self._queued or self._since_checkpoint >= CHECKPOINT_COMMITS:
                with self._conn_lock:
                    with self._work:
                        queued, self._queued = self._queued, []
                    if queued:
                        self._write_batch(queued)
                        self._since_checkpoint += 1
                        done += [ticket for _, ticket in queued]
                    if self._since_checkpoint >= CHECKPOINT_COMMITS and self.failed is None:
                        self._checkpoint()
            if done and self.synchronous == "FULL" and self.failed is None:
                self._flush()
            if self.failed is not None:
                for ticket in done:
                    ticket.error = self.failed
            if done:
                assert self._token is not None
                try:  # one wake-up of the event loop for every table released now
                    self._token.run_sync_soon(self._release_flushed, done, time.perf_counter())
                except trio.RunFinishedError:
                    return
            if stopping and not self._queued and not self._unflushed:
                return

    def _release_flushed(self, tickets: list[Ticket], woken_at: float) -> None:
        """In the event loop: the tables whose rows the thread just stored go on."""
        self.loop_wait_seconds += time.perf_counter() - woken_at
        self.releases += 1
        _release(tickets)

    def _flush(self) -> None:
        """Sync the WAL: every commit made before this call is then on the disk."""
        started = time.perf_counter()
        try:
            os.fdatasync(self._wal_fd)
        except OSError as exc:
            self._fail(f"the database could not be flushed to the disk ({exc.strerror})")
            return
        self.flushes += 1
        self.flush_seconds += time.perf_counter() - started

    def _checkpoint(self) -> None:
        """Copy the WAL into the database (SQLite syncs both), then start the WAL over with
        a write that changes nothing: the first write after a checkpoint syncs the WAL's new
        header, and that wait is this thread's, not the event loop's. Holds the connection."""
        try:
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            self._fail(f"the database could not be written ({exc}); the game is paused")
            return
        self._since_checkpoint = 0
        self.checkpoints += 1
        if self._wal_fd >= 0 and os.fstat(self._wal_fd).st_ino != os.stat(self._wal_path()).st_ino:
            os.close(self._wal_fd)  # the WAL is a new file: flush that one
            self._wal_fd = os.open(self._wal_path(), os.O_RDONLY)

    def _fail(self, message: str) -> None:
        if self.failed is None:
            self.failed = f"{message}; the game is paused" if "paused" not in message else message
            log.error("%s", self.failed)

    def _write_batch(self, batch: Batch) -> bool:
        """One transaction for the rows of ``batch``; False (and every ticket's error set)
        if it failed. The caller holds the connection (or nothing else runs)."""
        started = time.perf_counter()
        records = [r for rs, _ in batch for r in rs]
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            for sql, params in statements(records):
                self._conn.execute(sql, params)
            self.records += len(records)
            self._conn.execute("COMMIT")
            self.commits += 1
            self.write_seconds += time.perf_counter() - started
            return True
        except sqlite3.Error as exc:
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            self._fail(f"the database could not be written ({exc}); the game is paused")
            for _, ticket in batch:
                ticket.error = self.failed
            return False

    # -- reading ------------------------------------------------------------------------

    def reader(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        return conn

    def iter_inputs(self) -> Iterator[tuple[int, str, int | None, dict[str, Any]]]:
        for seq, kind, table_id, payload in self._conn.execute(
            "SELECT seq, kind, table_id, payload FROM inputs ORDER BY seq"
        ):
            yield seq, kind, table_id, parse_payload(payload)

    def get_meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def token_hashes(self) -> dict[str, str]:
        """Each registered player's token, as its hash: player id -> hash."""
        return {str(p): str(h) for p, h in self._conn.execute("SELECT player_id, token_hash FROM players")}

    def has_hands_after(self, hand_no: int) -> bool:
        """Is a hand numbered past ``hand_no`` stored?"""
        return self._conn.execute("SELECT 1 FROM hands WHERE hand_no > ? LIMIT 1", (hand_no,)).fetchone() is not None

    def drop_hands_after(self, hand_no: int) -> None:
        """A start-up repair: forget the record of every hand numbered past ``hand_no``."""
        self.write_now([Record(sql="DELETE FROM hand_events WHERE hand_no > ?", params=(hand_no,)),
                        Record(sql="DELETE FROM hands WHERE hand_no > ?", params=(hand_no,))])
