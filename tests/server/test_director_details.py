"""Details of the director's commands over TCP that the broader tests in ``test_director.py``
do not pin: where a ruling without a call goes, the time a rule change is shown with, and a
void refused while the table's inbox is full. The virtual clock runs the action clocks."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import trio

import protocol.messages as m
import server.directing as directing
from protocol.errors import ProtocolError
from server.house import WAKE
from server.tournament.inputs import apply_director as real
from tests.server.director import Director
from tests.server.test_director import floor


async def test_a_ruling_for_a_table_without_a_call_reaches_that_table_only(autojump_clock: object) -> None:
    async with floor(n=4, seats=2) as f, trio.open_nursery() as nursery:
        d = await Director.login(f.port, nursery, version=2)  # a ruling on its own is a version 2 command
        await d.ok(m.RuleCommand(table=2, decision="The chips stay where they are", reason="floor"))
        ruling = await d.c.next(m.Ruling)
        assert (ruling.call_id, ruling.table, ruling.decision) == (None, 2, "The chips stay where they are")
        here = {c.player_id for c in f.players if f.server.locate(str(c.player_id)).table_id == 2}  # type: ignore[union-attr]
        assert len(here) == 2
        for c in f.players:  # version 1 players read it as an announcement; a pong follows what was queued
            await c.send(m.Ping(id=77, nonce="after"))
            await c.wait_for(lambda x: isinstance(x, m.ServerPong) and x.id == 77)
            heard = [x.text for x in c.received if isinstance(x, m.Announcement) and x.text.startswith("Ruling")]
            assert heard == (["Ruling: The chips stay where they are"] if c.player_id in here else [])
        nursery.cancel_scope.cancel()


async def test_a_rule_change_shows_the_wall_time_it_was_logged_with(
    autojump_clock: object, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lobby's rule changes show the time logged with the command (a restart reads it
    from the log), not a second reading of the clock once the change applied."""
    async with floor() as f, trio.open_nursery() as nursery:
        d = await Director.login(f.port, nursery, version=2)
        given = dt.datetime(2024, 5, 4, 21, 30, tzinfo=dt.UTC)
        clock = {"now": given}
        f.server.wall_clock = lambda: clock["now"]

        def slow(t: Any, payload: dict[str, Any]) -> Any:  # the clock moves on while it applies
            events = real(t, payload)
            clock["now"] = given + dt.timedelta(minutes=5)
            return events

        monkeypatch.setattr(directing, "apply_director", slow)
        await d.ok(m.SetOptionsCommand(action_seconds=20, reason="slower, please"))
        assert f.server.rule_walls == [given.isoformat(timespec="seconds")]
        [change] = (await d.lobby()).rules.changes  # type: ignore[union-attr]
        assert change.rules_version == 2 and change.at == given.isoformat(timespec="seconds")
        nursery.cancel_scope.cancel()


async def test_a_void_is_refused_while_the_tables_inbox_is_full(autojump_clock: object) -> None:
    """The table's own task voids a hand; with its inbox full the command cannot be queued,
    and the director hears to try again (nothing is voided)."""
    async with floor() as f:
        await f.director.ok(m.ResumeCommand(reason="play on"))
        t = f.server.tournament
        with trio.fail_after(60):
            while (hand := t.table(1).hand) is None or hand.is_over:
                await trio.sleep(0.01)
        runner = f.server.runners[1]
        while runner.post_nowait(WAKE):  # no checkpoint in between: the table task cannot drain it
            pass
        with pytest.raises(ProtocolError) as refused:
            await directing.run_command(f.server, m.VoidHandCommand(table=1, reason="exposed card"))
        assert (refused.value.code, refused.value.message) == ("rate_limited", "table 1 is busy; try again")
        with trio.fail_after(600):  # the hand is played out, not called off
            while t.table(1).hand is hand:
                await trio.sleep(0.01)
        assert hand.is_over and hand.result is not None  # a voided hand is never over
