"""Re-entry survives a restart (issue 27 part 2): on a real SQLite file the director allows
re-entry, a player busts and enters again; the server stops and is opened again from the
file (the log replayed: the director's rule change and the ``reenter`` input through the
same path as live), and the tournament, the standings with their entries and the rules are
as they were.

Time is trio's ``mock_clock``: it moves only when the test jumps it (the players' seeds
are not waited for: ``seed_window`` 0).
"""

from __future__ import annotations

from pathlib import Path

import attrs
import trio
from trio.testing import MockClock

import protocol.messages as m
from server.app import open_server
from tests.persistence.test_replay import SEATS, _config, directed, fingerprint
from tests.server.director import Director
from tests.server.harness import Table, joined, running
from tests.server.test_reentry import bust_one


async def test_a_re_entry_and_the_rule_that_allowed_it_survive_a_restart(tmp_path: Path, mock_clock: MockClock) -> None:
    cfg = _config(tmp_path / "reentry.db", start_at=3, seats=6, starting_stack=1000, seed_window=0.0)
    server = open_server(cfg, seed=SEATS)
    try:
        async with running(cfg, server=server) as (srv, port):
            players = await joined(port, ["ann", "bob", "cid"], version=3)
            mock_clock.jump(1.0)  # the coordinator looks at the start rule every 0.5 s
            async with trio.open_nursery() as nursery:
                for c in players:
                    nursery.start_soon(c.pump)
                tb = Table(srv, port, players, nursery)
                await players[0].seen(m.HandStarted)
                d = await Director.login(port, nursery, version=3)
                await d.ok(m.LateRegistrationCommand(until_level=1, reason="open"))
                await d.ok(m.SetOptionsCommand(max_entries=3, reason="re-entry tonight"))
                gone = await bust_one(tb, players[:2])
                await gone.seen(m.ReentryOffer)
                await gone.send(m.Reenter(id=5))
                await gone.seen(m.Ack, lambda a: a.id == 5)
                await d.snapshot(1)  # every commit in flight is done
                before = fingerprint(srv), attrs.evolve(await d.standings(), id=None, seq=None)
                nursery.cancel_scope.cancel()
    finally:
        assert server.store is not None
        server.store.close()
    rows = [p for p in before[1].places if p.player_id == gone.player_id]
    assert [(p.entry, p.entries) for p in rows] == [(2, 2), (1, 2)]
    async with directed(cfg, version=3) as (server, d):
        after = fingerprint(server)
        standings = attrs.evolve(await d.standings(), id=None, seq=None)
        t = server.tournament
        assert t.entries_of(str(gone.player_id)) == 2 and t.entries_made() == 4
        assert t.settings.max_entries == 3
        assert [(p.entry, p.entries) for p in standings.places if p.player_id == gone.player_id] == [(2, 2), (1, 2)]
        assert after["settings"] == before[0]["settings"] and after["issued"] == before[0]["issued"] == 4000
        assert after["audit"] == before[0]["audit"]
        lobby = await d.lobby()
        assert lobby.entries == 4 and lobby.rules is not None and lobby.rules.max_entries == 3
