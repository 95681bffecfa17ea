"""The big-blind ante (and the TV table) survive a restart (issue 27 parts 1 and 6): the director turns it on and
writes antes into the schedule on a real SQLite file; the server stops and is opened again
from the file (the log replayed through the same path as a live command), and the ante,
the schedule's antes, the lobby and the rules are as they were.

Time is trio's ``mock_clock``: it moves only when the test jumps it.
"""

from __future__ import annotations

from pathlib import Path

import attrs
from trio.testing import MockClock

import protocol.messages as m
from tests.persistence.test_replay import _config, directed, fingerprint


async def test_the_ante_turned_on_and_written_into_the_schedule_survives_a_restart(
    tmp_path: Path, mock_clock: MockClock
) -> None:
    cfg = _config(tmp_path / "ante.db", start_at=None, seats=6, hands_per_level=50,
                  schedule=((100, 200), (200, 400), (300, 600)))
    async with directed(cfg, [f"p{i}" for i in range(4)], version=3) as (server, d):
        await d.ok(m.StartCommand(reason="everyone is here"))
        await d.ok(m.SetOptionsCommand(big_blind_ante=True, reason="TDA 2024"))
        await d.ok(m.SetOptionsCommand(tv_table=1, tv_delay_seconds=30, reason="the stream"))  # part 6
        assert server.tournament.ante == 200
        await d.snapshot(1)
        on = fingerprint(server), attrs.evolve(await d.lobby(), id=None, seq=None)
    async with directed(cfg, version=3) as (server, d):
        assert fingerprint(server) == on[0]
        assert attrs.evolve(await d.lobby(), id=None, seq=None) == on[1]
        assert server.tournament.settings.big_blind_ante and server.tournament.ante == 200
        assert (server.tournament.settings.tv_table, server.tournament.settings.tv_delay) == (1, 30)
        await d.ok(m.SetScheduleCommand(levels=(
            m.ScheduleLevel(small_blind=100, big_blind=200, ante=150),
            m.ScheduleLevel(small_blind=200, big_blind=400, ante=300)), reason="smaller antes"))
        await d.snapshot(1)
        written = fingerprint(server), attrs.evolve(await d.lobby(), id=None, seq=None)
    async with directed(cfg, version=3) as (server, d):
        assert fingerprint(server) == written[0]
        lobby = attrs.evolve(await d.lobby(), id=None, seq=None)
        assert lobby == written[1]
        assert server.tournament.settings.antes == (150, 300) and server.tournament.ante == 150
        assert lobby.level is not None and lobby.level.ante == 150
        assert [lv.ante for lv in lobby.schedule] == [150, 300]
        assert lobby.rules is not None and lobby.rules.big_blind_ante
        assert [c.reason for c in lobby.rules.changes] == ["TDA 2024", "the stream", "smaller antes"]
        assert (lobby.rules.tv_table, lobby.rules.tv_delay_seconds) == (1, 30)
