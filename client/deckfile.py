"""The deck record on disk, and ``hickory verify RECORD``.

A client that keeps a ``DeckLog`` (``client/deckcheck.py``) appends each of its entries to
a JSON-lines file as it comes (flushed, so a crash loses nothing before it): what it was
sent about every draw, the seeds it sent, the cards it saw, the reveal. ``hickory verify``
reads such a file back and runs the checks of docs/fairness.md again, without the server.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from client.deckcheck import DeckLog, Report, verify_entries
from protocol.errors import ProtocolError

EXIT_FAILED = 1
EXIT_NOT_YET = 2  # nothing could be checked: no reveal in the record, or an unreadable file


def default_record_path(config_dir: Path, host: str, port: int, name: str) -> Path:
    """Where the terminal client keeps the record for a server and a player name."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{host}_{port}_{name}")
    return config_dir / "decks" / f"{safe}.jsonl"


class DeckRecordFile:
    """Appends a ``DeckLog``'s entries to ``path`` (owner-only: it holds your hole cards)."""

    def __init__(self, path: Path, *, fresh: bool = False) -> None:
        """``fresh``: start the file over (a new tournament), else append to it."""
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if fresh else os.O_APPEND), 0o600)
        self._file: IO[str] = os.fdopen(fd, "a", encoding="utf-8")

    def __call__(self, entry: dict[str, Any]) -> None:
        self._file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def recording_log(path: Path | None, *, fresh: bool = True) -> DeckLog:
    """A ``DeckLog`` that writes to ``path`` (kept in memory only if None); ``fresh``
    starts the file over, else it goes on with the record there (read back first)."""
    if path is None:
        return DeckLog()
    log = DeckLog.load(read_record(path)) if not fresh and path.exists() else DeckLog()
    log.sink = DeckRecordFile(path, fresh=fresh)
    return log


def read_record(path: Path) -> list[dict[str, Any]]:
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except ValueError as exc:
                raise ValueError(f"{path}:{number}: not a JSON line ({exc})") from None
            if not isinstance(entry, dict):
                raise ValueError(f"{path}:{number}: not a record entry")
            entries.append(entry)
    return entries


def verify_file(path: Path) -> Report:
    """The checks of a record file (ValueError with the place of a bad entry)."""
    try:
        return verify_entries(read_record(path))
    except ProtocolError as exc:
        raise ValueError(f"{path}: a recorded message is not valid: {exc}") from None


def main_verify(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(
        prog="hickory verify",
        description="Check every deck a player was dealt from, from the record the client kept "
                    "(docs/fairness.md). Exit 0: every hand verified; 1: a check failed; "
                    "2: nothing to check yet (no reveal) or an unreadable record.")
    p.add_argument("record", type=Path, help="the deck record (e.g. ~/.config/hickory/decks/HOST_PORT_NAME.jsonl)")
    p.add_argument("--quiet", action="store_true", help="print only failures and the verdict")
    args = p.parse_args(list(argv))
    try:
        report = verify_file(args.record)
    except (OSError, ValueError) as exc:
        print(f"hickory verify: {exc}", file=sys.stderr)
        return EXIT_NOT_YET
    for check in report.checks:
        if not args.quiet or check.status == "failed":
            mark = {"ok": "ok  ", "failed": "FAIL"}.get(check.status, "--  ")
            print(f"{mark} {check.line()}")
    print(report.summary())
    if report.chain is not None:
        print(f"hand chain at the end (compare with the host's 'hickory-server verify'): {report.chain}")
    if report.failed:
        return EXIT_FAILED
    return 0 if report.revealed else EXIT_NOT_YET
