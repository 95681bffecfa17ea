"""How many examples a property test draws.

Under mutation testing (``tools/mutate.py`` sets ``HICKORY_MUTATE``) a test runs once per
surviving mutant of every function it calls, and a mutant only has to be noticed: the
property tests then draw a fifth of their examples (at least 20). Everywhere else, all.
"""

from __future__ import annotations

import os

MUTATING = bool(os.environ.get("HICKORY_MUTATE"))


def examples(n: int) -> int:
    return max(20, n // 5) if MUTATING else n
