"""The director's secret: made once per tournament, kept only as a hash, usable after a crash.

The secret is printed when it is made (or given with ``--director``) and stored as its
SHA-256 in the database's ``meta``, so a restarted server lets the same director in. A
host who lost it asks ``hickory-server director-secret --db FILE`` for a new one (the
server must be stopped: it holds the database's lock).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import secrets
import sys
from pathlib import Path

META_KEY = "director_secret_sha256"


def new_secret() -> str:
    """A fresh secret that a command line never mistakes for a flag (no leading ``-``)."""
    while True:
        secret = secrets.token_urlsafe(12)
        if not secret.startswith("-"):
            return secret


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: str, stored_digest: str) -> bool:
    """Constant-time check of a login attempt against the stored hash."""
    return hmac.compare_digest(digest(secret).encode(), stored_digest.encode())


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=Path, required=True, help="the tournament's database")


def run(args: argparse.Namespace) -> int:
    """``hickory-server director-secret``: replace the director's secret and print it."""
    from server.rows import meta_record
    from server.store import Store, StoreError

    if not Path(args.db).exists():
        print(f"hickory-server: {args.db} does not exist", file=sys.stderr)
        return 2
    try:
        store = Store(args.db)
    except StoreError as exc:
        print(f"hickory-server: {exc}\n  A new secret takes effect at a start: stop the server "
              "(nothing is lost), run this again, then start it; or restart it with --director-secret SECRET.",
              file=sys.stderr)
        return 2
    try:
        secret = new_secret()
        store.write_now([meta_record(META_KEY, digest(secret))])
    finally:
        store.close()
    print(f"new director secret: {secret}")
    return 0
