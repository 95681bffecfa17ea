"""Watching and moving over real TCP: tables that break under their spectators, players
moved to a table in the middle of a hand, players who are out and watch on, and the
director's moves within a table.

The tournament here is nine bots at three tables of three (they break to two, then to
one), half of them on protocol version 1, with a version 1 and a version 2 spectator at
each table and a version 2 director.
"""

from __future__ import annotations

from typing import TypeVar

import trio

import protocol.messages as m
from tests.server.harness import (
    BotResult,
    Table,
    config,
    fast_config,
    joined,
    play,
    pusher,
    running,
    table,
)
from tests.server.rawclient import RawClient

T = TypeVar("T")
PLAYERS = 9


def after(c: RawClient, first: m.ServerMessage, kind: type[T]) -> T | None:
    """The first message of ``kind`` that ``c`` received after ``first``."""
    start = next(i for i, x in enumerate(c.received) if x is first)
    return next((x for x in c.received[start + 1:] if isinstance(x, kind)), None)


async def shove_and_call(t: Table, shoved: set[int], called: set[int]) -> None:
    """The next turn: each hand one shove and one call of it, the rest fold (or check), so
    a player is soon out."""
    c, turn = await t.next_turn()
    if turn.hand_no not in shoved:
        shoved.add(turn.hand_no)
        await t.act(c, turn, "all_in")
    elif turn.hand_no not in called and turn.legal.call is not None:
        called.add(turn.hand_no)
        await t.act(c, turn, "call")
    else:
        await t.act(c, turn, "fold" if turn.legal.fold else "check")


async def test_tables_break_under_their_watchers_and_players_out_watch_on(autojump_clock: object) -> None:
    cfg = fast_config(PLAYERS, seats=3, hands_per_level=4)
    results = [BotResult(name=f"bot{i}") for i in range(PLAYERS)]
    with trio.fail_after(3600):  # virtual time
        async with running(cfg, seed=3) as (srv, port):
            half = PLAYERS // 2
            players = (await joined(port, [r.name for r in results[:half]], version=2)
                       + await joined(port, [r.name for r in results[half:]], version=1))
            while len(srv.tournament.tables) < 3:  # started; nobody acts until the bots run
                await trio.sleep(0.1)
            async with trio.open_nursery() as n:
                watchers: dict[int, list[RawClient]] = {}
                for table_id in (1, 2, 3):
                    for version in (2, 1):
                        s = await RawClient.connect(port)
                        await s.spectate(table_id, version=version)
                        n.start_soon(s.pump)
                        watchers.setdefault(table_id, []).append(s)
                d = await RawClient.connect(port)
                await d.director(version=2)
                n.start_soon(d.pump)
                watchers[1].append(d)
                for i, (c, r) in enumerate(zip(players, results, strict=True)):
                    n.start_soon(play, c, r, pusher, i)
                await srv.finished.wait()
                for s in [*watchers[1], *watchers[2], *watchers[3]]:
                    await s.next(m.TournamentFinished)
                while not all(r.finished for r in results):  # every player has read the result too
                    await trio.sleep(0.1)
                n.cancel_scope.cancel()
    broken = srv.tournament.broken_tables
    assert len(broken) == 2, broken

    # Every watcher of a table that broke is told (version 2) and shown another table.
    for table_id in broken:
        for s in watchers[table_id]:
            here = [x for x in s.received if getattr(x, "table", None) == table_id]
            last = here[-1]
            snap = after(s, last, m.TableSnapshot)
            assert snap is not None and snap.table != table_id, (s.name, s.version)
            if s.version == 2:
                told = next(x for x in s.received if isinstance(x, m.TableBroken))
                assert told.table == table_id and snap.table in told.tables
                assert after(s, told, m.TableSnapshot) is snap
                assert not [x for x in s.received[s.received.index(told):]
                            if isinstance(x, m.HandStarted) and x.table == table_id]

    # A moved player's first snapshot of the new table shows them in their seat (a move
    # into a hand in progress, which this run may or may not make, has a test of its own).
    for c in players:
        for moved in [x for x in c.received if isinstance(x, m.PlayerMoved) and x.player_id == c.player_id]:
            snap = after(c, moved, m.TableSnapshot)
            assert snap is not None and snap.table == moved.table
            assert snap.your_seat == moved.seat
            assert any(sv.seat == moved.seat and sv.player_id == c.player_id for sv in snap.seats), snap

    # A player who is out keeps watching their table (they chose to stay), and is told
    # their real place at once.
    final = {p.player_id: p.place for p in results[0].finished.places}  # type: ignore[union-attr]
    first_out = min((r for r in final.items()), key=lambda kv: -kv[1])[0]
    for c in players:
        out = next((x for x in c.received if isinstance(x, m.PlayerStatus)
                    and x.player_id == c.player_id and x.status == "eliminated"), None)
        if out is None:
            continue
        told: m.Standings | m.TournamentFinished | None = after(c, out, m.Standings)
        if told is None:  # out in the hand that ended it all: the final result says it
            told = after(c, out, m.TournamentFinished)
            assert told is not None, c.name
            last = max(p.eliminated_in_hand or 0 for p in told.places)
            assert any(p.player_id == c.player_id and p.eliminated_in_hand == last for p in told.places)
        mine = next(p for p in told.places if p.player_id == c.player_id)
        assert mine.place == final[c.player_id], (c.name, mine.place, final[c.player_id])
        if c.player_id == first_out:
            gone = max(x.hand_no for x in c.received if isinstance(x, m.HandStarted)
                       and c.received.index(x) < c.received.index(out))
            later = [x for x in c.received[c.received.index(out):] if isinstance(x, m.HandStarted)]
            assert later and later[-1].hand_no > gone, "the player who is out sees the table play on"


async def test_a_player_out_may_watch_any_table(autojump_clock: object) -> None:
    """Hands of one shove and one call (the rest fold) until a player is out: the table's
    snapshot is then theirs to ask for, and its hands keep coming to them."""
    async with table(3, seats=6) as t:
        with trio.fail_after(3600):
            shoved: set[int] = set()  # hands with a shove
            called: set[int] = set()  # and a call of it
            while True:
                out = [p for p in t.players if str(p.player_id) not in t.server.tournament.players_in()]
                if out:
                    break
                await shove_and_call(t, shoved, called)
            gone = out[0]
            status = await gone.seen(m.PlayerStatus, lambda s: s.player_id == gone.player_id
                                     and s.status == "eliminated")
            await gone.send(m.SnapshotRequest(id=4, table=1))
            snap = await gone.next(m.TableSnapshot, lambda s: s.id == 4)
            assert snap.your_seat is None and all(sv.player_id != gone.player_id for sv in snap.seats)
            started = await gone.seen_after(status, m.HandStarted)
            assert started.table == 1
            # Watching is not playing: an act is refused as from someone without a seat.
            await gone.send(m.Act(id=6, hand_no=started.hand_no, action="check"))
            refused = await gone.next(m.Error, lambda e: e.id == 6)
            assert refused.code == "not_seated", refused
            # Back after a drop, they watch on: the table, then its hands.
            back, welcome = await t.resume(gone)
            assert welcome.table is None
            snap = await back.next(m.TableSnapshot)
            assert snap.table == 1 and snap.your_seat is None
            await back.next(m.HandStarted)


async def test_a_director_move_within_a_table_is_seen_by_everyone_there(autojump_clock: object) -> None:
    async with table(3, seats=6) as t:
        with trio.fail_after(600):
            c, turn = await t.next_turn()
            d = await RawClient.connect(t.port)
            await d.director(version=2)
            t.nursery.start_soon(d.pump)
            mover = t.players[0]
            old = t.seat(mover)
            empty = next(s for s in range(1, 7) if s not in {t.seat(p) for p in t.players})
            await d.send(m.DirectorCommand(id=1, command=m.MovePlayerCommand(
                player_id=mover.player_id, table=1, seat=empty, reason="a better view")))  # type: ignore[arg-type]
            await d.next(m.Ack, lambda a: a.id == 1)
            # The move waits for the hand to end; everyone plays it out.
            while True:
                o, ot = await t.next_turn()
                if ot.hand_no != turn.hand_no:
                    break
                await t.act(o, ot, "fold" if ot.legal.fold else "check")
            for p in t.players:
                moved = await p.seen(m.PlayerMoved, lambda x: x.player_id == mover.player_id)
                assert (moved.from_table, moved.from_seat, moved.table, moved.seat) == (1, old, 1, empty)
                snap = await p.seen_after(moved, m.TableSnapshot)
                seats = {sv.seat: sv.player_id for sv in snap.seats}
                assert seats.get(empty) == mover.player_id and old not in seats, p.name


async def test_a_player_moved_to_a_table_in_the_middle_of_a_hand_sees_that_hand_and_their_seat(
        autojump_clock: object) -> None:
    """Two tables of two: table 1 waits mid-hand (nobody there acts) while the director
    moves a player of table 2, whose hand is played out; the mover's first snapshot of
    table 1 shows the hand in progress, with them in their new seat, out of it."""
    async with table(4, seats=3) as t:
        with trio.fail_after(600):
            for p in t.players:
                await p.seen(m.TableSnapshot)
            at = {p.name: t.server.tournament.location(str(p.player_id)) for p in t.players}
            there = [p for p in t.players if at[p.name].table_id == 1]  # type: ignore[union-attr]
            here = [p for p in t.players if at[p.name].table_id == 2]  # type: ignore[union-attr]
            first = await there[0].seen(m.HandStarted)
            mover = here[0]
            d = await RawClient.connect(t.port)
            await d.director(version=2)
            t.nursery.start_soon(d.pump)
            await d.send(m.DirectorCommand(id=1, command=m.MovePlayerCommand(
                player_id=mover.player_id, table=1, reason="balance by hand")))  # type: ignore[arg-type]
            await d.next(m.Ack, lambda a: a.id == 1)
            hand = await mover.seen(m.HandStarted)
            while True:  # table 2's hand, played out; table 1's turn is left waiting
                turn = next((x for c in here for x in c.received[c.cursor:]
                             if isinstance(x, m.YourTurn) and x.hand_no == hand.hand_no), None)
                if any(isinstance(x, m.PlayerMoved) and x.player_id == mover.player_id for x in mover.received):
                    break
                if turn is None:
                    await mover.change_event().wait()
                    continue
                c = next(c for c in here if turn in c.received)
                c.cursor = c.received.index(turn) + 1
                await t.act(c, turn, "fold" if turn.legal.fold else "check")
            moved = await mover.seen(m.PlayerMoved, lambda x: x.player_id == mover.player_id)
            assert moved.table == 1
            snap = await mover.seen_after(moved, m.TableSnapshot)
            assert snap.table == 1 and snap.hand_no == first.hand_no and snap.street is not None
            assert snap.your_seat == moved.seat
            assert any(sv.seat == moved.seat and sv.player_id == mover.player_id for sv in snap.seats), snap
            assert snap.your_cards is None, "not dealt into the hand in progress"
            for p in there:  # the players there see the newcomer arrive
                seen = await p.seen(m.PlayerMoved, lambda x: x.player_id == mover.player_id)
                assert (seen.table, seen.seat) == (1, moved.seat)


async def test_a_director_error_names_the_player_by_name_and_number(autojump_clock: object) -> None:
    async with table(3, seats=6) as t:
        with trio.fail_after(600):
            await t.players[0].seen(m.TableSnapshot)
            d = await RawClient.connect(t.port)
            await d.director(version=2)
            t.nursery.start_soon(d.pump)
            mover = t.players[1]
            await d.send(m.DirectorCommand(id=1, command=m.MovePlayerCommand(
                player_id=mover.player_id, table=1, reason="swap")))  # type: ignore[arg-type]
            error = await d.next(m.Error, lambda e: e.id == 1)
            assert f"p1 (player {mover.player_id})" in error.message, error.message
            assert "'" not in error.message


async def test_a_director_in_before_the_start_follows_the_first_table(autojump_clock: object) -> None:
    async with running(config(start_at=2, action_clock=60.0)) as (_, port):
        with trio.fail_after(600):
            d = await RawClient.connect(port)
            welcome = await d.director()
            assert welcome.table is None
            await joined(port, ["ann", "bob"])
            started = await d.recv_until(m.HandStarted)
            assert started.table == 1


async def test_a_player_out_whose_table_broke_resumes_watching_a_table_in_play(autojump_clock: object) -> None:
    """Four players at two tables of three: the first bust leaves three, who fit one table,
    so the bust's table breaks. Resuming, the player who is out watches the table in play."""
    async with table(4, seats=3) as t:
        with trio.fail_after(3600):
            shoved: set[int] = set()
            called: set[int] = set()
            while not t.server.tournament.broken_tables:
                await shove_and_call(t, shoved, called)
            gone = next(p for p in t.players if str(p.player_id) not in t.server.tournament.players_in())
            (broken,) = t.server.tournament.broken_tables
            back, _ = await t.resume(gone)
            snap = await back.next(m.TableSnapshot)
            assert snap.table != broken and snap.table in t.server.tournament.tables
            assert not [x for x in back.received if isinstance(x, m.Error)]
