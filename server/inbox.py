"""A table's inbox: commands from any task, taken by the table's task alone.

A Trio memory channel did this at a cost per command that a one-reader queue does not
need: its ``receive`` first tries ``receive_nowait``, which raises ``WouldBlock`` when the
inbox is empty (nearly always: a table waits for the player to act), then registers the
task with the channel's state and parks it. Here the waiting task is one attribute, and a
post wakes it with ``reschedule`` (issue 29: one fast table's instructions per decision).
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

import trio

T = TypeVar("T")


class Inbox(Generic[T]):
    def __init__(self, size: int) -> None:
        self.size = size  # ``post`` refuses once this many wait
        self._items: deque[T] = deque()
        self._waiter: trio.lowlevel.Task | None = None  # the reader, parked in ``take``

    def __len__(self) -> int:
        return len(self._items)

    def post(self, item: T) -> bool:
        """Queue ``item`` (False, and nothing queued, when the inbox is full); never blocks."""
        if len(self._items) >= self.size:
            return False
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            trio.lowlevel.reschedule(waiter)
        return True

    async def take(self) -> T:
        """The oldest item, waiting for one if there is none. A checkpoint either way (a
        flood in the inbox still lets other tasks run between its commands); cancelled,
        it takes nothing."""
        if self._items:
            await trio.lowlevel.checkpoint()
        else:
            if self._waiter is not None:
                raise trio.BusyResourceError("another task is already taking from this inbox")
            self._waiter = trio.lowlevel.current_task()

            def abort(_: object) -> trio.lowlevel.Abort:
                self._waiter = None
                return trio.lowlevel.Abort.SUCCEEDED

            await trio.lowlevel.wait_task_rescheduled(abort)
        return self._items.popleft()
