"""News for the whole room, sent a few dozen connections per loop step.

A message to every connection (an elimination, an announcement, a lobby chat line, the
tournament's end) was stamped and queued for all of them in the step that caused it: with
a thousand players, a table's hand end that busted a player queued a thousand lines and
held every other table meanwhile. ``fanout.broadcast`` hands such messages to the herald
when the room is larger than ``PER_STEP``; the herald sends them in order, ``PER_STEP``
receivers per step, to the connections present when the news was made. A small room
still gets its news at once, in the step that made it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import trio

PER_STEP = 64

Send = Callable[[Any, Sequence[Any], dict[int, Any]], Any]
"""``send(msg, receivers, bodies)``: ``bodies`` keeps one message's encodings (per protocol
version) across its parts."""


class Herald:
    def __init__(self) -> None:
        self._news: deque[tuple[Any, list[Any]]] = deque()
        self._wakeup = trio.Event()
        self.running = False

    def announce(self, msg: Any, receivers: list[Any]) -> None:
        self._news.append((msg, receivers))
        self._wakeup.set()

    async def run(self, send: Send, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Deliver news with ``send(msg, receivers, bodies)`` until cancelled."""
        self.running = True
        try:
            task_status.started()
            while True:
                await self._wakeup.wait()
                self._wakeup = trio.Event()
                while self._news:
                    msg, receivers = self._news[0]
                    bodies: dict[int, Any] = {}
                    for i in range(0, len(receivers), PER_STEP):
                        if i:
                            await trio.lowlevel.checkpoint()
                        send(msg, receivers[i:i + PER_STEP], bodies)
                    self._news.popleft()
                    await trio.lowlevel.checkpoint()
        finally:
            self.running = False
