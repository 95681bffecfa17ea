"""Where the server and docs/protocol.md disagreed, the behaviour now documented, over TCP.

Three players at one table (blinds 100/200, 10,000 chips), the test playing every decision.
"""

from __future__ import annotations

from pathlib import Path

import trio

import protocol.messages as m
from server.app import open_server
from tests.server.harness import CLOCK, config, joined, running, table
from tests.server.rawclient import RawClient


async def test_a_wrong_director_secret_is_a_wrong_password(autojump_clock: object) -> None:
    async with running(config()) as (_, port):
        d = await RawClient.connect(port)
        await d.recv_until(m.Hello)
        await d.send(m.DirectorLogin(id=1, version=1, secret="guess"))
        error = await d.recv_until(m.Error)
        assert (error.id, error.code, error.fatal) == (1, "wrong_password", False)


async def test_a_spectator_acting_is_unauthorized(autojump_clock: object) -> None:
    async with table() as t:
        _, turn = await t.next_turn()
        s = await RawClient.connect(t.port)
        await s.spectate(1)
        tries: list[m.ClientMessage] = [m.Act(id=1, hand_no=turn.hand_no, action="fold"), m.SitOut(id=2),
                                        m.ImBack(id=3)]
        for msg in tries:
            await s.send(msg)
            error = await s.recv_until(m.Error)
            assert (error.id, error.code) == (msg.id, "unauthorized"), error


async def test_joining_after_the_start_is_invalid_state_even_with_a_taken_name(autojump_clock: object) -> None:
    async with table() as t:
        await t.next_turn()
        for name in ("p0", "newcomer"):
            c = await RawClient.connect(t.port)
            await c.recv_until(m.Hello)
            await c.send(m.Join(id=3, version=1, name=name))
            error = await c.recv_until(m.Error)
            assert (error.id, error.code) == (3, "invalid_state"), (name, error)


async def test_history_of_a_hand_that_is_not_there_is_not_found(tmp_path: Path) -> None:
    # A real database, in real time (its writes run on a thread).
    cfg = config(db=tmp_path / "h.db", start_at=2, action_clock=600.0)
    server = open_server(cfg)
    try:
        async with running(cfg, server=server) as (_, port):
            a, b = await joined(port, ["ann", "bob"])
            with trio.fail_after(10):
                await a.send(m.HistoryRequest(id=1, hand_no=999))
                error = await a.recv_until(m.Error)
                assert (error.id, error.code) == (1, "not_found") and "#999" in error.message
                await a.send(m.HistoryRequest(id=2, last=5))  # no hand finished yet: an empty list
                history = await a.recv_until(m.History)
                assert (history.id, history.hands) == (2, ())
            await a.aclose()
            await b.aclose()
    finally:
        if server.store is not None:
            server.store.close()


async def test_history_without_a_database_says_so(autojump_clock: object) -> None:
    async with table() as t:
        c = t.players[0]
        await c.send(m.HistoryRequest(id=1, hand_no=1))
        error = await c.wait_for(lambda x: getattr(x, "id", None) == 1)
        assert isinstance(error, m.Error), error
        assert error.code == "not_found" and "without a database" in error.message


async def test_between_hands_the_snapshot_names_the_last_hand_played(autojump_clock: object) -> None:
    async with table(hand_pause=CLOCK) as t:
        c, turn = await t.next_turn()
        await t.act(c, turn, "fold")
        o, ot = await t.next_turn()
        await t.act(o, ot, "fold")  # the big blind wins: the hand is over
        await c.seen(m.HandEnded, lambda e: e.hand_no == turn.hand_no)
        await c.send(m.SnapshotRequest(id=5))
        snap = await c.next(m.TableSnapshot, lambda s: s.id == 5)
        assert (snap.hand_no, snap.street, snap.to_act) == (turn.hand_no, None, None)


async def test_every_illegal_action_names_the_field_at_fault(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        tries = [
            (m.Act(id=1, hand_no=turn.hand_no, action="raise", amount=250), "illegal_action", "act.amount"),
            (m.Act(id=2, hand_no=turn.hand_no, action="check"), "illegal_action", "act.action"),
            (m.Act(id=3, hand_no=turn.hand_no, action="bet", amount=600), "illegal_action", "act.action"),
            (m.Act(id=4, hand_no=turn.hand_no, action="raise", amount=10_001), "illegal_action", "act.amount"),
            (m.Act(id=5, hand_no=turn.hand_no + 1, action="call"), "stale_hand", "act.hand_no"),
        ]
        for msg, code, path in tries:
            await c.send(msg)
            error = await c.next(m.Error, lambda e, rid=msg.id: e.id == rid)
            assert (error.code, error.path) == (code, path), error


async def test_the_big_blind_may_bet_when_there_is_nothing_to_call(autojump_clock: object) -> None:
    """Limped pots: the big blind's legal.call is null, so bet is what the legal actions
    offer; it is taken as the raise it is. Facing a bet, the refusal names what is legal."""
    async with table() as t:
        c, turn = await t.next_turn()
        await c.send(m.Act(id=1, hand_no=turn.hand_no, action="bet", amount=400))
        refused = await c.next(m.Error, lambda e: e.id == 1)
        assert refused.message == "there is a bet of 200 to you: fold, call 200, raise to 400..10000"
        await t.act(c, turn, "call")
        c, turn = await t.next_turn()
        await t.act(c, turn, "call")
        bb, turn = await t.next_turn()
        assert turn.legal.call is None and turn.legal.check and turn.legal.min_raise_to == 400
        await bb.send(m.Act(id=2, hand_no=turn.hand_no, action="bet", amount=600))
        action = await bb.next(m.Action, lambda a: a.seat == turn.seat)
        assert (action.action, action.to, action.amount) == ("raise", 600, 400)
        await bb.next(m.Ack, lambda a: a.id == 2)


async def test_sit_out_is_at_once_and_im_back_from_the_next_hand(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        later = next(p for p in t.others(c))  # acts after c in this hand
        await later.send(m.SitOut(id=1))
        await later.next(m.Ack, lambda a: a.id == 1)
        await c.seen(m.PlayerStatus, lambda s: s.player_id == later.player_id and s.status == "sitting_out")
        await t.act(c, turn, "call")
        # At once: its decision in this hand is made for it (no your_turn).
        mine = await c.seen(m.Action, lambda a: a.hand_no == turn.hand_no and a.seat == t.seat(later))
        assert mine.automatic
        assert not [x for x in later.received if isinstance(x, m.YourTurn) and x.hand_no == turn.hand_no]
        # Still in the hand if it checked: back from the next hand, not from its next decision.
        await later.send(m.ImBack(id=2))
        await later.next(m.Ack, lambda a: a.id == 2)
        while True:
            o, ot = await t.next_turn()
            assert o is not later or ot.hand_no > turn.hand_no, "a turn in the hand it sat out"
            if o is later:
                break
            await t.act(o, ot, "check" if ot.legal.check else "call")
        back = await later.seen(m.PlayerStatus, lambda s: s.player_id == later.player_id and s.status == "back")
        ended = await later.seen(m.HandEnded, lambda e: e.hand_no == turn.hand_no)
        assert later.received.index(ended) < later.received.index(back)
