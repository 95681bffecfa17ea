"""Disconnect and resume at each point of a hand; the action clock, time-outs and sitting out.

Three players at one table (blinds 100/200, 10,000 chips, a 30 s clock and a 10 s bank);
the test plays every decision itself. ``autojump_clock`` runs the clocks: a test that waits
30 s of the action clock takes no real time, and the clock under test is the server's.
"""

from __future__ import annotations

import pytest
import trio

import protocol.messages as m
from poker.cards import card_str
from tests.server.harness import BANK, CLOCK, Table, table
from tests.server.rawclient import RawClient


def hole_cards(c: RawClient, hand_no: int) -> tuple[str, ...]:
    found = [x for x in c.received if isinstance(x, m.HoleCards) and x.hand_no == hand_no]
    assert len(found) == 1
    return found[0].cards


def check_snapshot(snap: m.TableSnapshot, seat: int, cards: tuple[str, ...] | None, hand_no: int) -> None:
    """Same seat, own cards present, everyone else's hidden."""
    assert snap.hand_no == hand_no
    assert snap.your_seat == seat
    assert snap.your_cards == cards
    for sv in snap.seats:
        if sv.seat == seat:
            assert sv.cards == cards
        else:
            assert sv.cards is None, f"seat {sv.seat}'s cards were sent to seat {seat}"


async def check_resume_on_turn(t: Table, c: RawClient, turn: m.YourTurn, away: float) -> RawClient:
    """Drop ``c`` on its turn, stay away ``away`` seconds, resume: same seat, cards, clock."""
    seat = t.seat(c)
    cards = hole_cards(c, turn.hand_no)
    await t.drop(c)
    await trio.sleep(away)
    r, welcome = await t.resume(c)
    assert (welcome.role, welcome.player_id, welcome.name) == ("player", c.player_id, c.name)
    assert welcome.token is None, "the token is sent once, in the reply to join"
    assert (welcome.table, welcome.seat) == (1, seat)
    snap = await r.next(m.TableSnapshot)
    check_snapshot(snap, seat, cards, turn.hand_no)
    assert snap.to_act == seat
    again = await r.next(m.YourTurn)
    assert (again.hand_no, again.seat, again.legal) == (turn.hand_no, turn.seat, turn.legal)
    # The clock did not restart: the time away is gone from the action clock.
    assert again.deadline_ms == pytest.approx(turn.deadline_ms - away * 1000, abs=20)
    assert again.time_bank_ms == turn.time_bank_ms
    for o in t.others(r):
        await o.next(m.PlayerStatus, lambda s: s.player_id == c.player_id and s.status == "reconnected")
    return r


async def test_resume_preflop_on_your_turn(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        assert turn.legal.call == 200 and not turn.legal.check
        r = await check_resume_on_turn(t, c, turn, away=7.0)
        await t.act(r, turn, "call")
        for o in t.others(r):
            action = await o.next(m.Action)
            assert (action.seat, action.action, action.automatic) == (turn.seat, "call", False)


async def test_resume_facing_a_bet(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        await t.act(c, turn, "raise", 600)
        c2, turn2 = await t.next_turn()
        assert c2 is not c and not turn2.legal.check and turn2.legal.call is not None
        assert turn2.legal.call >= 400
        r = await check_resume_on_turn(t, c2, turn2, away=12.5)
        await t.act(r, turn2, "call")
        c3, turn3 = await t.next_turn()
        assert c3 is not r and turn3.legal.call is not None


async def test_resume_facing_an_all_in(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        await t.act(c, turn, "all_in")
        c2, turn2 = await t.next_turn()
        assert turn2.legal.max_raise_to is None, "nobody can raise over an all-in that covers everyone"
        r = await check_resume_on_turn(t, c2, turn2, away=29.0)
        await t.act(r, turn2, "fold")


async def test_resume_while_all_in(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        seat = t.seat(c)
        cards = hole_cards(c, turn.hand_no)
        await t.act(c, turn, "all_in")
        await t.others(c)[0].next(m.Action, lambda a: a.seat == seat and a.all_in)
        await t.drop(c)
        r, welcome = await t.resume(c)
        assert welcome.seat == seat
        snap = await r.next(m.TableSnapshot)
        check_snapshot(snap, seat, cards, turn.hand_no)
        me = next(sv for sv in snap.seats if sv.seat == seat)
        assert me.all_in and me.stack == 0 and me.bet == 10_000
        assert snap.to_act is not None and snap.to_act != seat
        # The others fold; the all-in player wins the blinds and never gets a your_turn.
        for _ in range(2):
            o, ot = await t.next_turn()
            assert o is not r
            await t.act(o, ot, "fold")
        ended = await r.next(m.HandEnded, lambda h: h.hand_no == turn.hand_no)
        assert dict((s.seat, s.stack) for s in ended.stacks)[seat] > 10_000
        assert not any(isinstance(x, m.YourTurn) and x.hand_no == turn.hand_no for x in r.received)


async def test_resume_after_a_showdown_missed(autojump_clock: object) -> None:
    """The small blind checks the river first, drops, and the others check it down: the
    showdown happens while it is away; it resumes into the next hand with its chips."""
    async with table() as t:
        observer_hand = None
        x: RawClient | None = None
        while True:
            c, turn = await t.next_turn()
            if observer_hand is None:
                observer_hand = turn.hand_no
                started = next(h for h in t.players[0].received if isinstance(h, m.HandStarted))
                x = t.by_seat(started.small_blind_seat)
            assert turn.hand_no == observer_hand
            board = [b for b in t.players[0].received if isinstance(b, m.Board) and b.hand_no == turn.hand_no]
            await t.act(c, turn, "check" if turn.legal.check else "call")
            if c is x and board and board[-1].street == "river":
                break
        assert x is not None
        seat = t.seat(x)
        await t.drop(x)
        # The other two check behind: showdown.
        for _ in range(2):
            o, ot = await t.next_turn()
            assert o is not x
            await t.act(o, ot, "check")
        watcher = t.others(x)[0]
        shown = await watcher.next(m.Showdown, lambda s: s.seat == seat)
        ended = await watcher.next(m.HandEnded, lambda h: h.hand_no == observer_hand)
        chips = dict((s.seat, s.stack) for s in ended.stacks)[seat]
        r, welcome = await t.resume(x)
        assert welcome.seat == seat
        snap = await r.next(m.TableSnapshot)
        assert snap.hand_no is not None and snap.hand_no > observer_hand, "the next hand is dealt"
        # That hand was dealt while it was away, so no hole_cards line reached it: what the
        # snapshot must show is what the server dealt it (the engine's own hand), not
        # whatever the snapshot happens to carry, and not the cards of the hand it missed.
        hand = t.server.tournament.table(welcome.table or 0).hand
        assert hand is not None and hand.hand_no == snap.hand_no
        dealt = tuple(card_str(c) for c in hand.hole_cards(seat))
        assert len(dealt) == 2 and dealt != shown.cards
        check_snapshot(snap, seat, dealt, snap.hand_no)
        me = next(sv for sv in snap.seats if sv.seat == seat)
        assert me.stack + me.bet == chips
        if snap.to_act == seat:
            await r.next(m.YourTurn, lambda y: y.hand_no == snap.hand_no)


async def test_the_clock_does_not_restart_on_reconnect(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        started = trio.current_time()
        assert turn.deadline_ms == CLOCK * 1000 and turn.time_bank_ms == BANK * 1000
        await t.drop(c)
        await trio.sleep(25)
        r, _ = await t.resume(c)
        again = await r.next(m.YourTurn)
        assert again.deadline_ms == pytest.approx(5000, abs=20)
        # It does not act: clock and bank run out 40 s after the turn began, not after
        # the reconnect; the server folds for it, marked automatic, and sits it out.
        with trio.fail_after(CLOCK + BANK):  # (a clock that never runs out fails here, not hangs)
            action = await r.next(m.Action, lambda a: a.seat == turn.seat)
        assert trio.current_time() - started == pytest.approx(CLOCK + BANK, abs=0.05)
        assert (action.action, action.automatic) == ("fold", True)
        await r.next(m.PlayerStatus, lambda s: s.player_id == r.player_id and s.status == "sitting_out")


async def test_a_timed_out_player_checks_when_free_and_sits_out(autojump_clock: object) -> None:
    async with table() as t:
        first = await t.next_turn()
        started = next(h for h in t.players[0].received if isinstance(h, m.HandStarted))
        bb = t.by_seat(started.big_blind_seat)
        c, turn = first
        while c is not bb:  # everyone limps to the big blind
            await t.act(c, turn, "call")
            c, turn = await t.next_turn()
        assert turn.legal.check
        # The big blind does nothing: checked for (free), automatic, then sitting out.
        with trio.fail_after(CLOCK + BANK + 1):
            action = await t.players[0].next(m.Action, lambda a: a.seat == turn.seat)
        assert (action.action, action.automatic) == ("check", True)
        await bb.next(m.PlayerStatus, lambda s: s.player_id == bb.player_id and s.status == "sitting_out")


async def timed_out(t: Table) -> tuple[RawClient, m.YourTurn]:
    """The first player to act lets the clock run out: folded for, sitting out."""
    c, turn = await t.next_turn()
    action = await c.next(m.Action, lambda a: a.seat == turn.seat)
    assert (action.action, action.automatic) == ("fold", True)
    await c.next(m.PlayerStatus, lambda s: s.player_id == c.player_id and s.status == "sitting_out")
    return c, turn


async def play_until_turn_of(t: Table, who: RawClient, *, hands: int = 10) -> m.YourTurn:
    """Others check/call until ``who`` gets a your_turn."""
    for _ in range(hands * 10):
        c, turn = await t.next_turn()
        if c is who:
            return turn
        await t.act(c, turn, "check" if turn.legal.check else "call")
    raise AssertionError(f"{who.name} never got a turn")


async def test_a_sitting_out_player_is_acted_for_until_back(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await timed_out(t)
        seat = turn.seat
        # The next hand: it is acted for at once (no your_turn), every action automatic.
        for _ in range(30):
            o, ot = await t.next_turn()
            assert o is not c, "no your_turn while sitting out"
            if ot.hand_no > turn.hand_no + 1:
                break
            await t.act(o, ot, "check" if ot.legal.check else "call")
        mine = [a for a in t.others(c)[0].received
                if isinstance(a, m.Action) and a.seat == seat and a.hand_no == turn.hand_no + 1]
        assert mine and all(a.automatic for a in mine)
        # im_back: from the next hand it plays again, with its bank spent.
        await c.send(m.ImBack(id=5))
        await c.next(m.Ack, lambda a: a.id == 5)
        await c.next(m.PlayerStatus, lambda s: s.player_id == c.player_id and s.status == "back")
        await t.act(o, ot, "check" if ot.legal.check else "call")
        back = await play_until_turn_of(t, c)
        assert back.time_bank_ms == 0 and back.deadline_ms == CLOCK * 1000


async def test_a_sitting_out_player_comes_back_by_acting(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await timed_out(t)
        # It tries to act (say its client missed the sit-out): that says "I'm back", from
        # the next hand (as im_back does).
        hand = max(x.hand_no for x in c.received if isinstance(x, m.HandStarted))
        await c.send(m.Act(id=9, hand_no=hand, action="check"))
        error = await c.next(m.Error, lambda e: e.id == 9)
        assert error.code == "not_your_turn"
        turn = await play_until_turn_of(t, c)
        back = await c.seen(m.PlayerStatus, lambda s: s.player_id == c.player_id and s.status == "back")
        assert c.received.index(back) < c.received.index(turn)


async def test_a_disconnected_player_is_timed_out_and_resumes_sitting_out(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        await t.drop(c)
        watcher = t.others(c)[0]
        action = await watcher.next(m.Action, lambda a: a.seat == turn.seat)
        assert (action.action, action.automatic) == ("fold", True)
        # Blinded and folded while away, the others play on.
        for _ in range(12):
            o, ot = await t.next_turn()
            await t.act(o, ot, "check" if ot.legal.check else "call")
        r, _ = await t.resume(c)
        snap = await r.next(m.TableSnapshot)
        me = next(sv for sv in snap.seats if sv.seat == turn.seat)
        assert me.sitting_out and me.connected
        await r.send(m.ImBack())
        await r.next(m.PlayerStatus, lambda s: s.player_id == r.player_id and s.status == "back")


async def test_a_second_connection_with_the_token_replaces_the_first(autojump_clock: object) -> None:
    async with table() as t:
        c, turn = await t.next_turn()
        # Resume while the first connection is still open.
        assert c.token is not None
        new = await RawClient.connect(t.port)
        welcome = await new.resume(c.token)
        assert isinstance(welcome, m.Welcome) and welcome.seat == turn.seat
        bye = await c.next(m.ServerGoodbye)
        assert "replaced" in bye.reason
        with trio.fail_after(5):
            while not c.eof:
                await c.changed()
        t.players[t.players.index(c)] = new
        t.nursery.start_soon(new.pump)
        again = await new.next(m.YourTurn)
        assert again.hand_no == turn.hand_no
        await t.act(new, again, "call")
        action = await t.others(new)[0].next(m.Action, lambda a: a.seat == turn.seat)
        assert (action.action, action.automatic) == ("call", False)
        # The old connection got nothing after its goodbye.
        assert isinstance(c.received[-1], m.ServerGoodbye)


async def test_a_replaced_connection_is_told_why_and_nobody_else_hears_of_it(autojump_clock: object) -> None:
    """Version 2: the goodbye's code says "replaced" (a client stops reconnecting on it),
    and the table sees no "reconnected": for them the player never left."""
    async with table(version=2) as t:
        c, turn = await t.next_turn()
        assert c.token is not None
        new = await RawClient.connect(t.port)
        welcome = await new.resume(c.token, version=2)
        assert isinstance(welcome, m.Welcome) and welcome.seat == turn.seat
        bye = await c.seen(m.ServerGoodbye)
        assert bye.code == "replaced"
        t.players[t.players.index(c)] = new
        t.nursery.start_soon(new.pump)
        again = await new.next(m.YourTurn)
        await t.act(new, again, "call")
        for o in t.others(new):
            await o.seen(m.Action, lambda a: (a.hand_no, a.seat) == (turn.hand_no, turn.seat))
            assert not [x for x in o.received if isinstance(x, m.PlayerStatus) and x.player_id == c.player_id]


async def test_a_table_where_everyone_sits_out_deals_at_a_human_pace(autojump_clock: object) -> None:
    """Nobody acts: all three time out and sit out. The table then deals one hand per
    action clock (it used to fold hands as fast as the CPU could), and deals at once
    when someone is back."""
    async with table() as t:
        watcher = t.players[0]
        out: set[int | None] = set()
        while len(out) < 3:
            status = await watcher.next(m.PlayerStatus, lambda s: s.status == "sitting_out")
            out.add(status.player_id)
        starts = []
        for _ in range(4):
            await watcher.next(m.HandStarted)
            starts.append(trio.current_time())
        gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
        assert all(g == pytest.approx(CLOCK, abs=0.05) for g in gaps), gaps
        await watcher.send(m.ImBack())
        await watcher.next(m.PlayerStatus, lambda s: s.player_id == watcher.player_id and s.status == "back")
        back_at = trio.current_time()
        await watcher.next(m.YourTurn)
        assert trio.current_time() - back_at < CLOCK
