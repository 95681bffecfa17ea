"""A sleep until a deadline that other code can bring forward cheaply.

A cancel scope with a deadline, entered and left around every wait, cost the server about
6% of its instructions per decision at a fast table, twice (the reader per read, the table
per command; issue 29). The reader's watchdog and the table's turn clock use this instead:
one task sleeps until the deadline it knows, and when it wakes it works the deadline out
again (one that came later is slept to next). Only a deadline that comes *earlier* than
the one slept to needs the sleep moved (``bring_forward``), which is rare: a line that
starts, a turn whose deadline is earlier than the last one's.
"""

from __future__ import annotations

import trio


class Alarm:
    def __init__(self) -> None:
        self._sleep: trio.CancelScope | None = None  # while the owner sleeps

    async def sleep_until(self, deadline: float) -> None:
        """Sleep until ``deadline``, or until ``bring_forward`` gives an earlier one."""
        with trio.CancelScope(deadline=deadline) as self._sleep:
            await trio.sleep_forever()
        self._sleep = None

    def bring_forward(self, deadline: float) -> None:
        """The sleeper wakes at ``deadline`` if that is earlier than what it sleeps to."""
        sleep = self._sleep
        if sleep is not None and deadline < sleep.deadline:
            sleep.deadline = deadline
