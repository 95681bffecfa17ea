"""The big-blind ante over a real server (issue 27 part 1).

A schedule with antes (``SB/BB/ANTE``) is played to the end by a version 3, a version 2
and a version 1 client at one table. The version 3 client is told each ante
(``hand_started.ante``, the stacks after it) and its sums hold; the older clients decode
every line strictly (an unknown field would fail) and see stacks that add up too; the
director turns the ante on as a rule change and everyone's lobby says so.
"""

from __future__ import annotations

import json

import trio

import protocol.messages as m
from tests.server.director import Director
from tests.server.harness import BotResult, fast_config, joined, play, running

ANTE_SCHEDULE = ((10, 20, 20), (20, 40, 40), (50, 100, 100), (100, 200, 200), (200, 400, 400),
                 (500, 1000, 1000), (1000, 2000, 2000))


async def test_a_schedule_with_antes_is_played_to_the_end_by_every_version(autojump_clock: object) -> None:
    cfg = fast_config(3, seats=3, schedule=ANTE_SCHEDULE, action_clock=5.0, time_bank=0.0)
    async with running(cfg) as (srv, port):
        clients = []
        for name, version in (("ann", 3), ("bob", 2), ("cid", 1)):
            clients += await joined(port, [name], version=version)
        seen: dict[str, list[m.ServerMessage]] = {c.name or "": [] for c in clients}
        results = [BotResult(name=c.name or "") for c in clients]
        async with trio.open_nursery() as n:
            for c, r in zip(clients, results, strict=True):
                n.start_soon(play, c, r, lambda t, rng: m.Act(hand_no=t.hand_no, action="check" if t.legal.check else "call"),
                             0, seen[r.name].append)
        for r in results:
            assert r.finished is not None and not r.errors, r
        ann, bob, cid = clients
        starts = [x for x in seen["ann"] if isinstance(x, m.HandStarted)]
        ends = {x.hand_no: x for x in seen["ann"] if isinstance(x, m.HandEnded)}
        assert starts and all(s.ante for s in starts)
        levels = {(s.small_blind, s.big_blind) for s in starts}
        for s in starts:
            ante = next(a for sb, bb, a in ANTE_SCHEDULE if (sb, bb) == (s.small_blind, s.big_blind))
            bb_stack = next(st.stack for st in s.stacks if st.seat == s.big_blind_seat)
            # The ante is out of the big blind's stack already; a short one pays what it has.
            assert s.ante == ante or (s.ante < ante and bb_stack == 0)
            # Chips are kept, as the version 3 client sees them.
            end = ends[s.hand_no]
            assert sum(x.stack for x in s.stacks) + s.carried_in + s.ante == sum(x.stack for x in end.stacks) + end.carried_out
        assert len(levels) >= 2
        # The pots after the first round hold the ante: dead money beside the bets.
        first = starts[0]
        pots = next(x for x in seen["ann"] if isinstance(x, m.Pots) and x.hand_no == first.hand_no)
        blinds = [x for x in seen["ann"] if isinstance(x, m.BlindPosted) and x.hand_no == first.hand_no]
        assert sum(p.amount for p in pots.pots) >= sum(b.amount for b in blinds) + first.ante
        # Older versions: no ante field on any line, and the stacks they are sent add up.
        for c in (bob, cid):
            for line in c.lines:
                obj = json.loads(line)
                assert "ante" not in obj, line
        old_starts = {x.hand_no: x for x in seen["bob"] if isinstance(x, m.HandStarted)}
        for s in starts:
            assert old_starts[s.hand_no].stacks == s.stacks


async def test_the_director_turns_the_ante_on_and_the_lobby_and_snapshots_say_it(autojump_clock: object) -> None:
    cfg = fast_config(3, seats=3, hands_per_level=1000, action_clock=5.0, time_bank=0.0)
    async with running(cfg) as (srv, port):
        players = await joined(port, ["ann", "bob", "cid"], version=3)
        await players[0].recv_until(m.HandStarted)
        async with trio.open_nursery() as n:
            d = await Director.login(port, n, version=3)
            before = await d.lobby()
            assert before.rules is not None and before.rules.big_blind_ante is False
            assert before.level is not None and before.level.ante == 0
            old = await Director.login(port, n, version=2)
            refused = await old.refused(m.SetOptionsCommand(big_blind_ante=True, reason="TDA"))
            assert refused.code == "unknown_field"
            await d.ok(m.SetOptionsCommand(big_blind_ante=True, reason="TDA 2024"))
            lobby = await d.lobby()
            assert lobby.rules is not None and lobby.rules.big_blind_ante is True
            assert lobby.level is not None and lobby.level.ante == 20
            assert [lv.ante for lv in lobby.schedule[:3]] == [20, 40, 100]
            assert lobby.rules.changes[-1].what == "big-blind ante on from the next hand"
            snap = await d.snapshot(1)
            assert snap.ante in (0, 20)  # the hand in play may have been dealt before
            n.cancel_scope.cancel()
        for c in players:
            await c.aclose()
