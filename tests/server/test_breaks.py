"""Breaks and rule versions over the wire (issue 12): the director schedules a break with
``set_break``; when the level clock moves on from that level every table finishes its hand
and deals no new one until the break has run, the lobby says so (``paused`` to version 1,
the break's end and seconds left to version 2), and play resumes at the next level by
itself. Every rule change is announced with its rules version and reason."""

from __future__ import annotations

import trio

import protocol.messages as m
from tests.server.director import Director
from tests.server.harness import BotResult, fast_config, joined, play, running
from tests.server.rawclient import RawClient

BREAK = "Break: 5 minutes after level 1; play resumes at level 2"


def announced(c: RawClient, start: str) -> m.Announcement | None:
    return next((x for x in c.received if isinstance(x, m.Announcement) and x.text.startswith(start)), None)


async def test_a_break_stops_every_table_and_play_resumes_at_the_next_level(autojump_clock: object) -> None:
    cfg = fast_config(4, seats=2, hands_per_level=None, level_minutes=2, action_clock=5.0, time_bank=0.0)
    with trio.fail_after(3600):  # virtual time: a break that never ends fails, not hangs
        async with running(cfg) as (srv, port), trio.open_nursery() as n:
            t = srv.tournament
            d = await Director.login(port, n, version=2)
            await d.ok(m.SetOptionsCommand(action_seconds=6, reason="faster"))
            await d.ok(m.SetBreakCommand(after_level=1, minutes=5, reason="pizza"))
            rules = (await d.lobby()).rules
            assert rules is not None and rules.rules_version == 3
            assert [(c.rules_version, c.what, c.reason) for c in rules.changes] == [
                (2, "action clock 6 s from the next hand", "faster"),
                (3, "a break of 5 minutes after level 1", "pizza"),
            ]
            assert rules.breaks == (m.ScheduledBreak(after_level=1, minutes=5, taken=False),)
            said = await d.c.seen(m.Announcement, lambda a: a.text.startswith("Rules v3"))
            assert (said.text, said.reason) == ("Rules v3: a break of 5 minutes after level 1", "pizza")

            players = await joined(port, ["ann", "bob", "cid", "dee"], version=2)
            old = await RawClient.connect(port)  # a version 1 spectator
            await old.spectate(version=1)
            n.start_soon(old.pump)
            results = [BotResult(name=c.name or "") for c in players]
            started_at: dict[int, list[float]] = {1: [], 2: []}  # HandStarted times per table

            def note(msg: m.ServerMessage) -> None:
                if isinstance(msg, m.HandStarted):
                    started_at[msg.table].append(trio.current_time())

            for i, (c, r) in enumerate(zip(players, results, strict=True)):
                n.start_soon(play, c, r, lambda turn, rng: m.Act(
                    hand_no=turn.hand_no, action="check" if turn.legal.check else "call"), i, note)

            began = await d.c.seen(m.Announcement, lambda a: a.text.startswith("Break:"))
            assert began.text.startswith(BREAK) and began.by == "server"
            break_at = trio.current_time()
            dealt = t.hands_dealt
            assert len(t.tables) == 2 and all(started_at.values()), "both tables played before the break"

            lobby = await d.lobby()
            assert lobby.state == "paused" and lobby.break_after_level == 1
            assert lobby.break_seconds_left is not None and 0 < lobby.break_seconds_left <= 300
            assert lobby.break_until is not None and lobby.rules is not None
            assert lobby.rules.breaks == (m.ScheduledBreak(after_level=1, minutes=5, taken=True),)
            await old.send(m.LobbyRequest(id=7))
            v1 = await old.wait_for(lambda x: isinstance(x, m.Lobby) and x.id == 7)
            assert isinstance(v1, m.Lobby) and v1.state == "paused" and v1.rules is None

            ended = await d.c.seen(m.Announcement, lambda a: a.text.startswith("The break is over"))
            assert ended.text == "The break is over: level 2 (20/40) starts now."
            assert trio.current_time() - break_at >= 5 * 60 - 1
            assert t.hands_dealt == dealt, "a hand was dealt during the break"
            for table in (1, 2):  # no hand started at either table during the break; both deal after it
                assert not [x for x in started_at[table] if break_at + 1 < x < break_at + 299]
                while not [x for x in started_at[table] if x >= break_at + 299]:
                    await trio.sleep(1)
            assert (await d.lobby()).state == "running"
            assert t.level == 2 and not any(r.errors for r in results)
            n.cancel_scope.cancel()


async def test_pause_during_a_break_is_refused_and_resume_ends_it_early(autojump_clock: object) -> None:
    cfg = fast_config(2, hands_per_level=1, action_clock=5.0, time_bank=0.0)
    with trio.fail_after(3600):  # virtual time: a break that never ends fails, not hangs
        async with running(cfg) as (srv, port), trio.open_nursery() as n:
            d = await Director.login(port, n, version=2)
            await d.ok(m.SetBreakCommand(after_level=1, minutes=30, reason="dinner"))
            bad = await d.refused(m.SetBreakCommand(after_level=99, minutes=10, reason="typo"))
            assert bad.message.startswith("level 99 does not exist")
            bad = await d.refused(m.SetBreakCommand(after_level=2, minutes=200, reason="typo"))
            assert bad.message.startswith("a break lasts 1 to 120 minutes")
            players = await joined(port, ["ann", "bob"], version=2)
            for i, c in enumerate(players):
                n.start_soon(play, c, BotResult(name=c.name or ""), lambda turn, rng: m.Act(
                    hand_no=turn.hand_no, action="check" if turn.legal.check else "call"), i)
            await d.c.seen(m.Announcement, lambda a: a.text.startswith("Break: 30 minutes after level 1"))
            refused = await d.refused(m.PauseCommand(reason="more pizza"))
            assert "on a break after level 1" in refused.message and "`resume` ends it early" in refused.message
            dealt = srv.tournament.hands_dealt
            await d.ok(m.ResumeCommand(reason="everyone is back"))
            said = await d.c.seen(m.Announcement, lambda a: "ends early" in a.text)
            assert said.text == "The break after level 1 ends early: play resumes at level 2"
            assert said.reason == "everyone is back"
            while srv.tournament.hands_dealt == dealt:
                await trio.sleep(1)
            assert srv.tournament.on_break is None and srv.tournament.state == "running"
            n.cancel_scope.cancel()
