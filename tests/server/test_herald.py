"""The herald sends news for the whole room in order, ``PER_STEP`` receivers per step."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import trio
import trio.testing

from server import herald
from server.herald import Herald


async def test_news_goes_out_in_order_a_few_dozen_receivers_per_step() -> None:
    sent: list[tuple[str, list[int]]] = []
    steps: list[int] = []  # receivers served in each step of the herald's task

    class Steps(trio.abc.Instrument):
        def before_task_step(self, task: trio.lowlevel.Task) -> None:
            if "Herald.run" in task.name:
                steps.append(0)

    def send(msg: Any, receivers: Sequence[Any], bodies: dict[int, Any]) -> None:
        sent.append((msg, list(receivers)))
        steps[-1] += len(receivers)

    h = Herald()
    room = list(range(1000))
    async with trio.open_nursery() as n:
        await n.start(h.run, send)
        trio.lowlevel.add_instrument(Steps())
        h.announce("eliminated", room)
        h.announce("finished", room[:10])
        await trio.testing.wait_all_tasks_blocked()
        n.cancel_scope.cancel()
    assert [msg for msg, _ in sent].count("eliminated") == -(-1000 // herald.PER_STEP)
    assert [r for msg, rs in sent if msg == "eliminated" for r in rs] == room
    assert sent[-1] == ("finished", room[:10])  # after all of the first
    assert max(steps) <= herald.PER_STEP
    assert not h.running
