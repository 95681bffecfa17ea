"""A hard stop for every server test.

A bug that spins the event loop (no task ever blocks, so neither the virtual clock of
``autojump_clock`` nor a ``fail_after`` can fire) must fail the run, not hang it: after
``HARD_LIMIT`` real seconds the process prints every thread's stack and exits.
"""

from __future__ import annotations

import faulthandler
import sys
from collections.abc import Iterator

import pytest

HARD_LIMIT = 60.0  # real seconds per test


@pytest.fixture(autouse=True)
def hard_time_limit() -> Iterator[None]:
    faulthandler.dump_traceback_later(HARD_LIMIT, exit=True, file=sys.__stderr__ or sys.stderr)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
