"""The bridge's tests run a server, the bridge and the test's ACPC player in one Trio run.

Trio shuffles the tasks that become runnable together from a generator of its own, so the
interleaving of the three (and with it which hands reach a rare turn order) changed from
run to run. Seeded per test, a run is the same every time and a failure can be run again.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

import pytest
import trio


@pytest.fixture(autouse=True)
def same_interleaving_every_run(request: pytest.FixtureRequest) -> Iterator[None]:
    trio._core._run._r.seed(zlib.crc32(request.node.nodeid.encode()))
    yield
