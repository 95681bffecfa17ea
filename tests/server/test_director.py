"""The director's commands through a real server over TCP, checked by what the clients see.

Four check/call bots at one table (six seats, so two are empty); the director starts the
tournament, pauses it and waits until no hand is in play, so each command applies at once
(a command for a player in a hand waits for the hand: ``tests/tournament/test_director.py``).
Then the command, and what the lobby, the table and the players say about it. The
virtual clock (``autojump_clock``) runs the action clocks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import attrs
import trio

import protocol.messages as m
from server.app import Server
from tests.server.director import Director
from tests.server.harness import BotResult, check_call, config, joined, play, running
from tests.server.rawclient import RawClient

SCHEDULE = ((100, 200), (200, 400), (300, 600), (500, 1000), (1000, 2000))
STACK = 10_000


@attrs.define
class Floor:
    server: Server
    port: int
    director: Director
    players: list[RawClient]
    results: list[BotResult]

    def by_id(self, player_id: int | None) -> RawClient:
        return next(c for c in self.players if c.player_id == player_id)


@asynccontextmanager
async def floor(n: int = 4, seats: int = 6, **kw: Any) -> AsyncIterator[Floor]:
    settings: dict[str, Any] = dict(seats=seats, starting_stack=STACK, schedule=SCHEDULE,
                                    hands_per_level=50, action_clock=30.0, time_bank=10.0)
    settings.update(kw)
    with trio.fail_after(600):  # virtual seconds
        async with running(config(**settings)) as (server, port):
            players = await joined(port, [f"p{i}" for i in range(n)])
            results = [BotResult(name=c.name or "") for c in players]
            async with trio.open_nursery() as nursery:
                d = await Director.login(port, nursery)
                await d.ok(m.StartCommand(reason="everyone is here"))
                for i, (c, r) in enumerate(zip(players, results, strict=True)):
                    nursery.start_soon(play, c, r, check_call, i)
                tables = [t.table for t in (await d.lobby()).tables]
                await d.paused_and_idle(tables)
                yield Floor(server, port, d, players, results)
                nursery.cancel_scope.cancel()


async def next_hand(f: Floor, table: int = 1) -> m.HandStarted:
    """Resume play and return the next hand the director sees started at ``table``."""
    d = f.director
    await d.snapshot(table)  # watch it
    d.c.skip()
    await d.ok(m.ResumeCommand(reason="back to play"))
    return await d.c.next(m.HandStarted, lambda h: h.table == table)


async def test_set_level_jumps_to_the_level_asked_for(autojump_clock: object) -> None:
    async with floor() as f:
        d = f.director
        await d.ok(m.SetLevelCommand(index=2, reason="running late"))
        lobby = await d.lobby()
        assert lobby.level == m.Level(index=2, small_blind=300, big_blind=600)
        said = await d.c.next(m.Announcement, lambda a: a.reason == "running late")
        assert said.by == "director" and "Level 3 (300/600)" in said.text
        hand = await next_hand(f)
        assert (hand.small_blind, hand.big_blind) == (300, 600)
        await d.ok(m.SetLevelCommand(index=0, reason="too fast"))
        assert (await d.lobby()).level == m.Level(index=0, small_blind=100, big_blind=200)
        # A level past the schedule does not exist (issue 12): refused, nothing changes.
        error = await d.refused(m.SetLevelCommand(index=6, reason="speed up"))
        assert error.message == "level 7 does not exist: the schedule has 5 levels (change the schedule to add levels)"
        await d.ok(m.SetLevelCommand(index=4, reason="speed up"))
        assert (await d.lobby()).level == m.Level(index=4, small_blind=1000, big_blind=2000)
        error = await d.refused(m.SetLevelCommand(index=-1, reason="typo"))
        assert (error.code, error.path) == ("invalid_field", "director_command.command.index")
        assert (await d.lobby()).level == m.Level(index=4, small_blind=1000, big_blind=2000)


async def test_adjust_chips_sets_the_stack_to_the_amount_given(autojump_clock: object) -> None:
    async with floor() as f:
        d = f.director
        before = await d.lobby()
        total = sum(p.chips for p in before.players)
        a, b = before.players[0], before.players[1]
        await d.ok(m.AdjustChipsCommand(player_id=a.player_id, chips=a.chips + 2345, reason="miscount"))
        await d.ok(m.AdjustChipsCommand(player_id=b.player_id, chips=b.chips - 1000, reason="miscount"))
        after = await d.lobby()
        assert d.player(after, a.player_id).chips == a.chips + 2345
        assert d.player(after, b.player_id).chips == b.chips - 1000
        assert sum(p.chips for p in after.players) == total + 1345
        # The same number again changes nothing: the command sets the stack.
        await d.ok(m.AdjustChipsCommand(player_id=a.player_id, chips=a.chips + 2345, reason="again"))
        assert d.player(await d.lobby(), a.player_id).chips == a.chips + 2345
        snap = await d.snapshot(1)
        seat = next(s for s in snap.seats if s.player_id == a.player_id)
        assert seat.stack == a.chips + 2345
        hand = await next_hand(f)
        assert dict((s.seat, s.stack) for s in hand.stacks)[seat.seat] == a.chips + 2345
        # A stack of no chips is refused: removing the player is the way to do that.
        error = await d.refused(m.AdjustChipsCommand(player_id=b.player_id, chips=0, reason="bust"))
        assert "remove the player instead" in error.message


async def test_adjust_chips_for_a_player_in_a_hand_gives_that_stack_after_the_hand(
    autojump_clock: object,
) -> None:
    """The player's hand moves chips after the command: they still end with the number
    given (a difference fixed when the command came would be off by what the hand did)."""
    async with floor() as f:
        d = f.director
        hand = await next_hand(f)  # check/call bots: every stack changes by the showdown
        target = hand.stacks[0]
        player = next(s.player_id for s in (await d.snapshot(1)).seats if s.seat == target.seat)
        await d.ok(m.AdjustChipsCommand(player_id=player, chips=7777, reason="recount"))
        ended = await d.c.next(m.HandEnded, lambda e: e.hand_no == hand.hand_no)
        after_hand = dict((s.seat, s.stack) for s in ended.stacks)[target.seat]
        assert after_hand != target.stack
        nxt = await d.c.next(m.HandStarted, lambda h: h.hand_no > hand.hand_no)
        assert dict((s.seat, s.stack) for s in nxt.stacks)[target.seat] == 7777
        assert sum(s.stack for s in nxt.stacks) == sum(s.stack for s in ended.stacks) - after_hand + 7777


async def test_move_player_to_another_seat(autojump_clock: object) -> None:
    async with floor() as f:
        d = f.director
        lobby = await d.lobby()
        taken = {p.seat for p in lobby.players}
        free = min(set(range(1, 7)) - taken)
        mover = lobby.players[0]
        await d.ok(m.MovePlayerCommand(player_id=mover.player_id, table=1, seat=free, reason="draft"))
        after = d.player(await d.lobby(), mover.player_id)
        assert (after.table, after.seat, after.chips) == (1, free, mover.chips)
        moved = await f.by_id(mover.player_id).wait_for(lambda x: isinstance(x, m.PlayerMoved))
        assert isinstance(moved, m.PlayerMoved)
        assert (moved.player_id, moved.from_seat, moved.table, moved.seat) == (mover.player_id, mover.seat, 1, free)
        snap = await d.snapshot(1)
        assert {s.seat for s in snap.seats} == taken - {mover.seat} | {free}
        # Refused: a taken seat, a seat that does not exist, a player who does not exist.
        other = lobby.players[1]
        error = await d.refused(m.MovePlayerCommand(player_id=mover.player_id, table=1, seat=other.seat, reason="x"))
        assert f"seat {other.seat} at table 1 is taken" in error.message
        error = await d.refused(m.MovePlayerCommand(player_id=mover.player_id, table=1, seat=7, reason="x"))
        assert "seat 7 does not exist" in error.message
        error = await d.refused(m.MovePlayerCommand(player_id=999, table=1, reason="x"))
        assert error.code == "not_found" and "there is no player 999" in error.message


async def test_move_player_to_another_table_then_balancing_applies(autojump_clock: object) -> None:
    async with floor(n=8, seats=6) as f:  # two tables of four
        d = f.director
        lobby = await d.lobby()
        assert sorted(len(t.players) for t in lobby.tables) == [4, 4]
        mover = next(p for p in lobby.players if p.table == 2)
        await d.ok(m.MovePlayerCommand(player_id=mover.player_id, table=1, reason="friends"))
        after = await d.lobby()
        assert d.player(after, mover.player_id).table == 1
        # Five against three: the player due the big blind at table 1 goes to table 2.
        assert sorted(len(t.players) for t in after.tables) == [4, 4]
        assert sum(p.chips for p in after.players) == 8 * STACK


async def test_remove_player_places_them_out_and_their_chips_leave_play(autojump_clock: object) -> None:
    async with floor() as f:
        d = f.director
        lobby = await d.lobby()
        gone = lobby.players[2]
        watcher = f.players[0]
        await d.ok(m.RemovePlayerCommand(player_id=gone.player_id, reason="collusion"))
        status = await watcher.wait_for(lambda x: isinstance(x, m.PlayerStatus) and x.status == "removed")
        assert isinstance(status, m.PlayerStatus) and status.player_id == gone.player_id
        after = await d.lobby()
        out = d.player(after, gone.player_id)
        assert (out.status, out.chips, out.table, out.seat) == ("eliminated", 0, None, None)
        assert sum(p.chips for p in after.players) == 4 * STACK - gone.chips
        standings = await d.standings()
        last = standings.places[-1]
        assert (last.player_id, last.place, last.chips) == (gone.player_id, 4, 0)
        error = await d.refused(m.RemovePlayerCommand(player_id=gone.player_id, reason="again"))
        assert "is out of the tournament" in error.message
        hand = await next_hand(f)
        assert len(hand.stacks) == 3


async def test_set_options_reach_the_next_hand_the_lobby_and_the_chat(autojump_clock: object) -> None:
    async with floor() as f:
        d = f.director
        await d.ok(m.SetOptionsCommand(action_seconds=7, level_minutes=15, chat=False, reason="speed up"))
        lobby = await d.lobby()
        assert lobby.next_level_unit == "seconds"
        assert {(s.minutes, s.hands) for s in lobby.schedule} == {(15, None)}
        said = await d.c.next(m.Announcement, lambda a: a.text == "Player chat is off.")
        assert said.by == "director"
        talker = f.players[0]
        talker.skip()
        await talker.send(m.Chat(id=77, scope="lobby", text="hello?"))
        refused = await talker.wait_for(lambda x: isinstance(x, m.Error) and x.id == 77)
        assert isinstance(refused, m.Error) and "turned player chat off" in refused.message
        marks = {c.player_id: len(c.received) for c in f.players}
        await next_hand(f)
        turn = await d.c.next(m.Action)  # someone acted: they had a your_turn with the new clock
        seated = {s.seat: s.player_id for s in (await d.snapshot(1)).seats}
        c = f.by_id(seated[turn.seat])
        asked = [x for x in c.received[marks[c.player_id]:] if isinstance(x, m.YourTurn)]
        assert asked and asked[0].deadline_ms == 7000
        await d.ok(m.PauseCommand(reason="again"))
        await d.until_idle([1])
        await d.ok(m.SetOptionsCommand(hands_per_level=3, chat=True, reason="by hands now"))
        lobby = await d.lobby()
        assert lobby.next_level_unit == "hands" and lobby.next_level_in == 3
        assert {(s.minutes, s.hands) for s in lobby.schedule} == {(None, 3)}
        await talker.send(m.Chat(id=78, scope="lobby", text="back on"))
        await talker.wait_for(lambda x: isinstance(x, m.Ack) and x.id == 78)
        error = await d.refused(m.SetOptionsCommand(ruleset="standard", action_seconds=0, chat=False, reason="x"))
        assert "action_clock is from 1 to 3600 seconds, not 0" in error.message
        await talker.send(m.Chat(id=79, scope="lobby", text="still on"))  # a refused command changes nothing
        await talker.wait_for(lambda x: isinstance(x, m.Ack) and x.id == 79)


async def test_set_deadline_shows_in_the_lobby_and_now_ends_the_tournament(
    autojump_clock: object,
) -> None:
    async with floor() as f:
        d = f.director
        chips = sorted(p.chips for p in (await d.lobby()).players)
        await d.ok(m.SetDeadlineCommand(deadline="2099-01-01T00:00:00+00:00", reason="late night"))
        assert (await d.lobby()).deadline == "2099-01-01T00:00:00+00:00"
        await d.ok(m.SetDeadlineCommand(deadline=None, reason="no limit"))
        assert (await d.lobby()).deadline is None
        past = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)).isoformat(timespec="seconds")
        error = await d.refused(m.SetDeadlineCommand(deadline=past, reason="typo"))
        assert "seconds in the past: give a later one" in error.message
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")  # the time now, a little late
        await d.ok(m.SetDeadlineCommand(deadline=now, reason="the hall closes"))
        finished = await d.c.next(m.TournamentFinished)
        assert sorted(p.chips for p in finished.places) == chips  # paused: no hand was dealt
        assert (await d.lobby()).state == "finished"


async def test_set_schedule_changes_the_blinds_from_the_next_hand(autojump_clock: object) -> None:
    async with floor() as f:
        d = f.director
        levels = (m.ScheduleLevel(small_blind=50, big_blind=100, minutes=None, hands=50),
                  m.ScheduleLevel(small_blind=75, big_blind=150, minutes=None, hands=50))
        await d.ok(m.SetScheduleCommand(levels=levels, reason="slower"))
        lobby = await d.lobby()
        assert [(s.small_blind, s.big_blind) for s in lobby.schedule] == [(50, 100), (75, 150)]
        assert lobby.level == m.Level(index=0, small_blind=50, big_blind=100)
        hand = await next_hand(f)
        assert (hand.small_blind, hand.big_blind) == (50, 100)


async def test_void_hand_is_refused_at_a_table_with_no_hand_in_progress(autojump_clock: object) -> None:
    """Paused and idle: nothing to call off. The refusal says so, and play goes on as it was.
    (Also an award to a player who does not exist, another version 2 command.)"""
    async with floor() as f, trio.open_nursery() as nursery:
        d = await Director.login(f.port, nursery, version=2)  # void_hand is a version 2 command
        before, last = await d.lobby(), (await d.snapshot(1)).hand_no
        error = await d.refused(m.VoidHandCommand(table=1, reason="exposed card"))
        assert (error.code, error.message) == ("invalid_state", "table 1 has no hand in progress to void")
        error = await d.refused(m.AwardCommand(title="best bluff", player_id=999, reason="typo"))
        assert (error.code, error.message) == ("not_found", "there is no player 999")
        after = await d.lobby()
        assert [(p.player_id, p.chips) for p in after.players] == [(p.player_id, p.chips) for p in before.players]
        hand = await next_hand(f)
        assert last is not None and hand.hand_no == last + 1  # the last hand stands: not voided
        nursery.cancel_scope.cancel()


async def test_a_player_cannot_direct(autojump_clock: object) -> None:
    async with floor() as f:
        p = f.players[0]
        await p.send(m.DirectorCommand(id=4321, command=m.ResumeCommand(reason="let's go")))
        error = await p.wait_for(lambda x: isinstance(x, m.Error) and x.id == 4321)
        assert isinstance(error, m.Error)
        assert (error.code, error.message) == ("unauthorized", "director commands need the director's secret")
        assert (await f.director.lobby()).state == "paused"


async def test_chat_alone_is_announced_with_the_directors_reason(autojump_clock: object) -> None:
    async with floor() as f:
        d = f.director
        await d.ok(m.SetOptionsCommand(chat=False, reason="quiet, please"))
        said = await d.c.next(m.Announcement, lambda a: a.text.startswith("Player chat"))
        assert (said.text, said.by, said.reason) == ("Player chat is off.", "director", "quiet, please")
        await d.ok(m.SetOptionsCommand(chat=True, action_seconds=20, reason="talk again"))
        said = await d.c.next(m.Announcement, lambda a: a.text.startswith("Player chat"))
        assert (said.text, said.by, said.reason) == ("Player chat is on.", "director", "talk again")


async def test_a_deadline_in_utc_zulu_is_taken_and_a_date_that_does_not_exist_is_refused(
    autojump_clock: object,
) -> None:
    async with floor() as f:
        d = f.director
        await d.ok(m.SetDeadlineCommand(deadline="2099-01-01T00:00:00Z", reason="late night"))
        assert (await d.lobby()).deadline == "2099-01-01T00:00:00+00:00"
        error = await d.refused(m.SetDeadlineCommand(deadline="2099-02-30T00:00:00Z", reason="typo"))
        assert (error.code, error.path) == ("invalid_field", "director_command.command.deadline")
        assert error.message == ("the deadline 2099-02-30T00:00:00Z is not a real time "
                                 "(day is out of range for month)")
        assert (await d.lobby()).deadline == "2099-01-01T00:00:00+00:00"


async def test_pause_and_resume_of_one_table_leave_the_other_playing(autojump_clock: object) -> None:
    async with floor(n=8, seats=6, starting_stack=1_000_000) as f, trio.open_nursery() as nursery:
        d = await Director.login(f.port, nursery, version=2)  # one table: version 2
        one, two = sorted(t.table for t in (await d.lobby()).tables)
        await d.ok(m.ResumeCommand(reason="everyone"))
        for rest, play in ((two, one), (one, two)):
            await d.ok(m.PauseCommand(table=rest, reason=f"table {rest} rests"))
            await d.until_idle([rest])
            await d.snapshot(play)  # the director watches both
            d.c.skip()
            hands = [await d.c.next(m.HandStarted) for _ in range(3)]
            assert {h.table for h in hands} == {play}, f"table {rest} stays paused"
            await d.ok(m.ResumeCommand(table=rest, reason=f"table {rest} plays on"))
        nursery.cancel_scope.cancel()


async def test_only_the_start_command_starts_the_tournament(autojump_clock: object) -> None:
    """Before the start, another command (an announcement) leaves the players registering."""
    cfg = config(seats=6, starting_stack=STACK, schedule=SCHEDULE, hands_per_level=50)
    async with running(cfg) as (server, port), trio.open_nursery() as nursery:
        await joined(port, ["ann", "bob", "cid"])
        d = await Director.login(port, nursery)
        await d.ok(m.AnnounceCommand(text="five minutes to the start", reason="the bar is open"))
        assert (await d.lobby()).state == "registering"
        await d.ok(m.StartCommand(reason="everyone is here"))
        assert (await d.lobby()).state in ("running", "paused")
        nursery.cancel_scope.cancel()
