"""What one connection sees of another's doing, at the seams the generated nights found
(issue 23): the blinds in a snapshot taken mid-hand, an announcement's reason, a sit-out
stored before anyone hears of it, the reconnect grace, and ``settled`` waiting for commits.
"""

from __future__ import annotations

from typing import Any

import trio
import trio.testing

import protocol.commands as cmd
import protocol.messages as m
from server.journal import Journal
from server.rows import Record
from tests.server.harness import config, running, table
from tests.server.rawclient import RawClient


async def test_a_spectator_who_arrives_mid_hand_is_told_the_blind_seats(autojump_clock: Any) -> None:
    """Defect 3: everyone else shows "bob BB, carol SB"; a client that joined mid-hand
    (a spectator, a reconnected player, a restarted client) had no blinds to mark."""
    async with table(3, version=3) as t:
        started = await t.players[0].next(m.HandStarted)
        late = await RawClient.connect(t.port)
        await late.spectate(1, version=3)
        snap = await late.recv_until(m.TableSnapshot)
        assert snap.hand_no == started.hand_no and snap.street == "preflop"
        assert (snap.small_blind_seat, snap.big_blind_seat) == (started.small_blind_seat, started.big_blind_seat)
        assert all(v.in_hand for v in snap.seats)
        old = await RawClient.connect(t.port)
        await old.spectate(1, version=2)  # a version 2 reader is sent none of it
        await old.recv_until(m.TableSnapshot)
        line = next(x for x in old.lines if b'"table_snapshot"' in x)
        assert b"big_blind_seat" not in line and b"in_hand" not in line


async def test_an_announcement_reaches_the_players_with_its_reason(autojump_clock: Any) -> None:
    """Defect 5: the reason arrived as null, though the docs say it is shown."""
    async with table(2, version=2) as t:
        d = await RawClient.connect(t.port)
        await d.director(version=2)
        await d.send(m.DirectorCommand(command=cmd.AnnounceCommand(text="Dinner at nine", reason="testing")))
        said = await t.players[1].next(m.Announcement, lambda a: a.text == "Dinner at nine")
        assert (said.by, said.reason) == ("director", "testing")


class GatedStore:
    """A store whose commits of chosen kinds wait for the test to open the gate."""

    def __init__(self, kinds: set[str]) -> None:
        self.kinds = kinds
        self.gate = trio.Event()
        self.committed: list[Record] = []
        self.waiting = 0

    async def write(self, records: list[Record]) -> None:
        if any(r.params and r.params[0] in self.kinds for r in records):
            self.waiting += 1
            await self.gate.wait()
            self.waiting -= 1
        self.committed += records

    def submit(self, records: list[Record]) -> None:
        self.committed += records


async def test_a_sit_out_is_told_to_the_table_only_once_it_is_stored(autojump_clock: Any) -> None:
    """Defect 7: ``set_sitting_out`` told the table and submitted the row without waiting
    for its commit, though replay reads that status: a crash in between, and the players
    had seen a sit-out the restarted server never heard of."""
    async with table(3, version=2) as t:
        gated = GatedStore({"status"})
        t.server.journal = Journal(gated, on_failure=lambda text: None)  # type: ignore[arg-type]
        await t.players[0].next(m.HandStarted)
        await t.players[0].send(m.SitOut(id=7))
        await trio.testing.wait_all_tasks_blocked()
        assert gated.waiting == 1, "the status is waiting for its commit"
        heard = [x for x in t.players[1].received if isinstance(x, m.PlayerStatus) and x.status == "sitting_out"]
        assert heard == [], "the table heard of the sit-out before it was stored"
        gated.gate.set()
        status = await t.players[1].next(m.PlayerStatus, lambda s: s.status == "sitting_out")
        assert status.player_id == t.players[0].player_id
        assert any(r.params[0] == "status" for r in gated.committed)


async def test_a_drop_is_announced_only_after_the_reconnect_grace(autojump_clock: Any) -> None:
    """The server tests run with no grace (0), so a ``detach`` that announced every drop at
    once passed them all. With a grace of 20 s: back within it, nobody is told; away
    longer, the table hears "disconnected" when the grace is over, not before."""
    cfg = config(start_at=3, seats=3, starting_stack=10_000, schedule=((100, 200),), level_minutes=600.0,
                 action_clock=600.0, time_bank=0.0, reconnect_grace=20.0)
    async with running(cfg) as (_, port):
        players = [await RawClient.connect(port) for _ in range(3)]
        for i, c in enumerate(players):
            await c.join(f"p{i}", version=2)
        async with trio.open_nursery() as n:
            for c in players:
                n.start_soon(c.pump)
            watcher = players[2]
            await watcher.next(m.HandStarted)

            def drops() -> list[m.PlayerStatus]:
                return [x for x in watcher.received if isinstance(x, m.PlayerStatus) and x.status == "disconnected"]

            assert players[0].token is not None
            await players[0].aclose()
            await trio.sleep(10)
            back = await RawClient.connect(port)
            welcome = await back.resume(players[0].token, version=2)
            assert isinstance(welcome, m.Welcome)
            await trio.sleep(30)
            assert drops() == [], "a drop that came back within the grace was announced"

            await players[1].aclose()
            gone_at = trio.current_time()
            await trio.sleep(19)
            assert drops() == []
            told = await watcher.next(m.PlayerStatus, lambda s: s.status == "disconnected")
            assert told.player_id == players[1].player_id
            assert trio.current_time() - gone_at >= 20
            n.cancel_scope.cancel()


async def test_settled_waits_for_every_commit_in_flight(autojump_clock: Any) -> None:
    """A resuming client's snapshot is built after ``settled``: returning at once would let
    it show an action the store may still lose (a restarted server would not know it)."""
    gated = GatedStore({"act"})
    journal = Journal(gated, on_failure=lambda text: None)  # type: ignore[arg-type]
    done: list[str] = []

    async def settle() -> None:
        await journal.settled(limit=60)
        done.append("settled")

    async with trio.open_nursery() as n:
        n.start_soon(journal.commit, journal.input("act", {"seat": 1}, 1))
        await trio.testing.wait_all_tasks_blocked()
        n.start_soon(settle)
        await trio.sleep(5)
        assert done == [], "settled returned with a commit in flight"
        gated.gate.set()
        await trio.sleep(1)
        assert done == ["settled"]
    with trio.fail_after(1):
        await journal.settled()  # nothing in flight: at once
