"""A break in progress and the rules version survive a restart (issue 12): the server runs
on a real SQLite file, a break begins, the server stops and is opened again from the file
(the log replayed through the same path as a live command), and the break goes on where it
was, with the same rules version and changes in the lobby; then play resumes by itself.

Time is trio's ``mock_clock``: it moves only when the test jumps it.
"""

from __future__ import annotations

from pathlib import Path

import attrs
from trio.testing import MockClock

import protocol.messages as m
from server.coordinator import CLOCK_SAVE_EVERY
from tests.persistence.test_replay import _config, directed, fingerprint
from tests.server.director import Director

MIN = 60.0


async def settle(d: Director, mock_clock: MockClock, seconds: float, step: float = 1.0) -> None:
    """Let ``seconds`` pass in steps, each waiting for the commits it caused (a snapshot
    waits for them), so the coordinator ticks, and the tables deal, on the way."""
    for _ in range(int(seconds / step)):
        mock_clock.jump(step)
        await d.snapshot(1)


async def test_a_break_in_progress_and_the_rules_version_survive_a_restart(
    tmp_path: Path, mock_clock: MockClock
) -> None:
    cfg = _config(tmp_path / "break.db", start_at=None, seats=6, level_minutes=10.0,
                  schedule=((100, 200), (200, 400), (300, 600)))
    async with directed(cfg, [f"p{i}" for i in range(4)], version=2) as (server, d):
        await d.ok(m.StartCommand(reason="everyone is here"))
        await d.ok(m.SetOptionsCommand(action_seconds=25, reason="a quicker night"))
        await d.ok(m.SetBreakCommand(after_level=1, minutes=20, reason="dinner"))
        await settle(d, mock_clock, 10 * MIN + 5 * MIN, step=5.0)  # level 1 runs out; 5 minutes of break pass
        t = server.tournament
        assert t.on_break is not None and t.on_break.after_level == 1 and t.rules_version == 3
        await d.snapshot(1)  # everything committed
        before = await d.lobby()
        brk, state = t.on_break, fingerprint(server)
    assert before.state == "paused" and before.break_after_level == 1
    assert before.break_seconds_left is not None and 14 * MIN <= before.break_seconds_left <= 15 * MIN

    async with directed(cfg, version=2) as (server, d):
        t = server.tournament
        assert t.on_break == brk and t.rules_version == 3 and fingerprint(server) == state
        after = await d.lobby()
        assert after.state == "paused" and after.break_after_level == 1
        assert after.rules == before.rules  # version, breaks (taken), changes with their times
        assert after.rules is not None and after.rules.rules_version == 3
        assert after.rules.breaks == (m.ScheduledBreak(after_level=1, minutes=20, taken=True),)
        assert [c.reason for c in after.rules.changes] == ["a quicker night", "dinner"]
        # The break goes on from where it was (the server's downtime is not break time).
        left = after.break_seconds_left
        assert left is not None and before.break_seconds_left <= left <= before.break_seconds_left + CLOCK_SAVE_EVERY + 1
        dealt = t.hands_dealt
        await settle(d, mock_clock, left - 2)
        assert t.on_break is not None and t.hands_dealt == dealt  # nothing dealt during the break
        await settle(d, mock_clock, 3)
        ended = await d.c.seen(m.Announcement, lambda a: a.text.startswith("The break is over"))
        assert ended.text == "The break is over: level 2 (200/400) starts now."
        assert t.on_break is None and t.state == "running"
        for _ in range(120):  # everyone here is away: a hand per action clock
            if t.hands_dealt > dealt:
                break
            await settle(d, mock_clock, 1)
        assert t.hands_dealt > dealt
        assert attrs.evolve(await d.lobby(), id=None, seq=None).break_until is None
