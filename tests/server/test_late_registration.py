"""Late registration over the wire: closed by default after the start, opened by the director."""

from __future__ import annotations

import protocol.messages as m
from tests.server.harness import fast_config, joined, running
from tests.server.rawclient import RawClient


async def test_a_late_player_joins_once_the_director_opens_late_registration(autojump_clock: object) -> None:
    cfg = fast_config(3, seats=6, action_clock=2.0, time_bank=0.0)
    async with running(cfg) as (srv, port):
        players = await joined(port, ["ann", "bob", "cid"])
        await players[0].recv_until(m.HandStarted)

        early = await RawClient.connect(port)
        await early.recv_until(m.Hello)
        await early.send(m.Join(version=1, name="dan", id=1))
        refused = await early.recv_until(m.Error)
        assert refused.code == "invalid_state" and "registration is closed" in refused.message
        await early.aclose()

        d = await RawClient.connect(port)
        await d.recv_until(m.Hello)
        await d.send(m.DirectorLogin(version=2, secret="s3cret"))
        await d.recv_until(m.Welcome)
        await d.send(m.DirectorCommand(id=2, command=m.LateRegistrationCommand(until_level=3, reason="friends")))
        while not isinstance(reply := await d.recv(), m.Ack | m.Error) or reply.id != 2:
            pass
        assert isinstance(reply, m.Ack), reply

        late = await RawClient.connect(port)
        welcome = await late.join("dan")
        assert welcome.table == 1 and welcome.seat is not None
        # The table is in a hand: dan sits down when it ends, and gets the table then.
        while not (mine := [s for s in (await late.recv_until(m.TableSnapshot)).seats if s.seat == welcome.seat]):
            pass
        assert mine[0].name == "dan" and mine[0].stack == cfg.starting_stack
        assert srv.tournament.chips_issued == 4 * cfg.starting_stack
        for c in [*players, d, late]:
            await c.aclose()
