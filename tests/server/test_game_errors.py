"""Refused actions over the wire: each gets an error with the engine's own words, and the
turn goes on (the player can still act)."""

from __future__ import annotations

import protocol.messages as m
from tests.server.harness import table
from tests.server.rawclient import RawClient


async def error_for(c: RawClient, rid: int) -> m.Error:
    return await c.next(m.Error, lambda e: e.id == rid)


async def test_acting_out_of_turn_is_not_your_turn(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        other = t.others(c)[0]
        await other.send(m.Act(id=1, hand_no=turn.hand_no, action="fold"))
        error = await error_for(other, 1)
        assert error.code == "not_your_turn" and not error.fatal
        assert error.message == f"not your turn: seat {turn.seat} is to act"
        await t.act(c, turn, "call")  # the real turn is untouched
        action = await other.next(m.Action)
        assert (action.seat, action.action) == (turn.seat, "call")


async def test_an_old_hand_number_is_stale_hand(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        for rid, hand_no in ((1, turn.hand_no + 1), (2, 0)):
            await c.send(m.Act(id=rid, hand_no=hand_no, action="call"))
            error = await error_for(c, rid)
            assert error.code == "stale_hand"
            assert f"hand #{turn.hand_no} is being played" in error.message
        await c.send(m.Act(id=3, table=2, hand_no=turn.hand_no, action="call"))
        assert (await error_for(c, 3)).code == "stale_hand"
        await t.act(c, turn, "call")
        await c.next(m.Action, lambda a: a.seat == turn.seat and a.action == "call")


async def test_an_illegal_raise_gets_the_engines_text(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        assert turn.legal.min_raise_to == 400
        await c.send(m.Act(id=1, hand_no=turn.hand_no, action="raise", amount=250))
        error = await error_for(c, 1)
        assert error.code == "illegal_action" and not error.fatal
        assert error.message.startswith("raise to 250 is below the minimum raise to 400")
        await c.send(m.Act(id=2, hand_no=turn.hand_no, action="check"))
        error = await error_for(c, 2)
        assert error.message == "cannot check facing a bet: call 200, raise or fold"
        await c.send(m.Act(id=3, hand_no=turn.hand_no, action="raise", amount=10_001))
        error = await error_for(c, 3)
        assert error.message == "raise to 10001 is more than you have: the most is 10000 (all-in)"
        await c.send(m.Act(id=4, hand_no=turn.hand_no, action="bet", amount=600))
        assert (await error_for(c, 4)).code == "illegal_action"
        # Still its turn, with the clock running from the first your_turn.
        await c.send(m.Act(id=5, hand_no=turn.hand_no, action="raise", amount=400))
        action = await c.next(m.Action, lambda a: a.seat == turn.seat)
        assert (action.action, action.to, action.automatic) == ("raise", 400, False)
        await c.next(m.Ack, lambda a: a.id == 5)  # after the broadcast it confirms


async def test_acting_after_folding_is_not_your_turn(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        await t.act(c, turn, "fold")
        await c.next(m.Action, lambda a: a.seat == turn.seat)
        await c.send(m.Act(id=1, hand_no=turn.hand_no, action="call"))
        assert (await error_for(c, 1)).code == "not_your_turn"


async def test_spectators_do_not_act(autojump_clock: object) -> None:
    async with table() as t:
        _, turn = await t.next_turn()
        s = await RawClient.connect(t.port)
        await s.spectate(1)
        await s.send(m.Act(id=1, hand_no=turn.hand_no, action="fold"))
        error = await s.recv_until(m.Error)
        assert (error.id, error.code) == (1, "unauthorized")
