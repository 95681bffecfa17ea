"""A table's inbox (``server/inbox.py``): posts from any task, one taker, bounded, and a
cancelled take loses nothing."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from server.inbox import Inbox


async def test_a_post_wakes_the_parked_taker_and_items_come_in_order() -> None:
    inbox = Inbox[int](10)
    got: list[int] = []

    async def taker() -> None:
        for _ in range(3):
            got.append(await inbox.take())

    async with trio.open_nursery() as n:
        n.start_soon(taker)
        await trio.testing.wait_all_tasks_blocked()
        assert inbox.post(1)
        await trio.testing.wait_all_tasks_blocked()
        assert got == [1]
        assert inbox.post(2) and inbox.post(3)
    assert got == [1, 2, 3]
    assert len(inbox) == 0


async def test_a_full_inbox_refuses_and_queues_nothing() -> None:
    inbox = Inbox[int](2)
    assert inbox.post(1) and inbox.post(2)
    assert not inbox.post(3)
    assert len(inbox) == 2
    assert [await inbox.take(), await inbox.take()] == [1, 2]
    assert inbox.post(4)


async def test_a_cancelled_take_takes_nothing_and_the_next_take_gets_it() -> None:
    inbox = Inbox[str](10)
    with trio.move_on_after(0.01) as waited:
        await inbox.take()  # parked, then cancelled by the deadline
    assert waited.cancelled_caught
    assert inbox.post("after")  # must not wake the task that is no longer waiting
    assert await inbox.take() == "after"


async def test_take_is_a_checkpoint_even_with_items_waiting() -> None:
    inbox = Inbox[str](10)
    inbox.post("kept")
    with trio.CancelScope() as scope:
        scope.cancel()
        with pytest.raises(trio.Cancelled):
            await inbox.take()
    assert len(inbox) == 1, "cancelled before taking: the command stays for the next take"
    assert await inbox.take() == "kept"


async def test_one_taker_at_a_time() -> None:
    inbox = Inbox[int](10)
    async with trio.open_nursery() as n:
        n.start_soon(inbox.take)
        await trio.testing.wait_all_tasks_blocked()
        with pytest.raises(trio.BusyResourceError):
            await inbox.take()
        inbox.post(1)
