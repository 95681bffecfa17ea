"""A private network of the test's own: a Linux network namespace with only its loopback,
multicast switched on. Announcing and browsing happen only in there, never on a real
network. Needs root and iproute2 (CI runs as root); without them the tests are skipped,
said loudly."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

_names = itertools.count(1)

SKIP_REASON = ("*** LAN DISCOVERY TESTS SKIPPED: they need root and iproute2 ('ip netns') to make a "
               "private network namespace (they never announce on a real network). CI runs them as root.")


@contextmanager
def network_namespace() -> Iterator[str]:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        print(SKIP_REASON, file=sys.stderr)
        pytest.skip(SKIP_REASON)
    name = f"hickory-t{os.getpid()}-{next(_names)}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode != 0:
        reason = f"{SKIP_REASON} ('ip netns add' failed: {made.stderr.strip()})"
        print(reason, file=sys.stderr)
        pytest.skip(reason)
    try:
        for cmd in (["ip", "link", "set", "lo", "up"], ["ip", "link", "set", "lo", "multicast", "on"]):
            subprocess.run(["ip", "netns", "exec", name, *cmd], check=True)
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], check=False)


def inside(ns: str, *argv: str) -> list[str]:
    """``argv`` run inside the namespace ``ns``."""
    return ["ip", "netns", "exec", ns, *argv]
