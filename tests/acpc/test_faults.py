"""Bots that misbehave lose only their own decisions; the table plays on to the end.

A bot that walks away (and one that comes back), one that never answers, one that
answers nothing but garbage and one that never says its version: in each case the
tournament finishes, the other players were never acted for by the server, and the
bridge's seat was acted for only by Hickory's clock (or, for garbage, by the dealer's
rule: an unreadable reply is a check or a call).
"""

from __future__ import annotations

import random

import trio

from client.acpc.bridge import Bridge
from client.bot import Bot
from poker import events as ev
from tests.acpc.harness import RecordingServer, check_hands, tcp_player
from tests.acpc.player import Player
from tests.server.harness import fast_config, running


async def run_with(bot, players: int = 3, seed: int = 5, **bridge_kw: object) -> tuple[RecordingServer, Bridge]:  # type: ignore[no-untyped-def]
    cfg = fast_config(players, seats=players, action_clock=2, time_bank=2, starting_stack=3000)
    server = RecordingServer(cfg, seed=seed)
    with trio.fail_after(7200):
        async with running(cfg, server=server, seed=seed) as (_, port):
            bridge = Bridge("127.0.0.1", port, "acpc-bot", **bridge_kw)  # type: ignore[arg-type]
            # The others think a little, so hands take (virtual) time even when the bridge's
            # seat is sitting out and acted for at once.
            others = [Bot("127.0.0.1", port, f"bot-{i}", "calling-station", seed=i, think=0.5)
                      for i in range(players - 1)]
            async with trio.open_nursery() as nursery:
                nursery.start_soon(bridge.run)
                await bridge.ready.wait()
                nursery.start_soon(bot, bridge, server)
                for b in others:
                    nursery.start_soon(b.run)
    assert server.tournament.finished, "the tournament must end"
    assert bridge.place is not None
    return server, bridge


def seat_actions(server: RecordingServer, bridge: Bridge) -> tuple[list[ev.ActionTaken], list[ev.ActionTaken]]:
    """(the bridge seat's actions, everyone else's), in order."""
    me = bridge.session.model.me.player_id
    assert me is not None
    mine, theirs = [], []
    for hand_no in sorted(server.events_of):
        seat = server.seat_of(hand_no, me)
        for e in server.events_of[hand_no]:
            if isinstance(e, ev.ActionTaken):
                (mine if e.seat == seat else theirs).append(e)
    return mine, theirs


async def test_a_bot_that_walks_away_and_comes_back(autojump_clock: object) -> None:
    player = Player(random.Random(1), lambda hand: None, calls_only=True)
    later = Player(random.Random(2), lambda hand: None, calls_only=True)
    sat_out = False

    async def bot(bridge: Bridge, server: RecordingServer) -> None:
        nonlocal sat_out
        player.game_for = later.game_for = server.game_for
        await tcp_player(bridge.acpc_port, player, quit_after=2)
        while not bridge.sitting_out:  # away until the clock has acted for it and sat it out
            await trio.sleep(0.5)
        sat_out = True
        await tcp_player(bridge.acpc_port, later)

    server, bridge = await run_with(bot)
    mine, theirs = seat_actions(server, bridge)
    assert not any(e.automatic for e in theirs), "only the bot's own decisions are lost"
    assert any(e.automatic for e in mine), "while the bot was away the clock acted for it"
    first_auto = next(i for i, e in enumerate(mine) if e.automatic)
    assert any(not e.automatic for e in mine[first_auto:]), "back: the bot decides again (I'm back was sent)"
    assert sat_out and later.replies, "the second connection played"
    check_hands(server, bridge, player, whole=False)
    check_hands(server, bridge, later, whole=False)


async def test_a_bot_that_hangs_loses_its_turns_to_the_clock(autojump_clock: object) -> None:
    player = Player(random.Random(1), lambda hand: None)

    async def bot(bridge: Bridge, server: RecordingServer) -> None:
        player.game_for = server.game_for
        await tcp_player(bridge.acpc_port, player, hang=True)

    server, bridge = await run_with(bot)
    mine, theirs = seat_actions(server, bridge)
    assert mine and all(e.automatic for e in mine)
    assert not any(e.automatic for e in theirs)
    assert bridge.replies == 0
    check_hands(server, bridge, player)  # it still saw every hand, right


async def test_a_bot_that_sends_garbage_checks_or_calls(autojump_clock: object) -> None:
    player = Player(random.Random(1), lambda hand: None, garbage=1.0)

    async def bot(bridge: Bridge, server: RecordingServer) -> None:
        player.game_for = server.game_for
        await tcp_player(bridge.acpc_port, player)

    server, bridge = await run_with(bot)
    mine, theirs = seat_actions(server, bridge)
    assert mine and not any(e.automatic for e in mine + theirs)
    assert {e.action.value for e in mine} <= {"check", "call"}
    assert sum(1 for _, t in bridge.notes if "unreadable reply" in t) == bridge.replies > 0


async def test_a_bot_that_does_not_speak_acpc_is_disconnected(autojump_clock: object) -> None:
    closed: list[int] = []

    async def bot(bridge: Bridge, server: RecordingServer) -> None:
        for first in (b"HELLO\r\n", b"x" * 70000):
            stream = await trio.open_tcp_stream("127.0.0.1", bridge.acpc_port)
            async with stream:
                await stream.send_all(first)
                with trio.move_on_after(60):
                    while await stream.receive_some(65536):
                        pass
                    closed.append(len(first))
        silent = await trio.open_tcp_stream("127.0.0.1", bridge.acpc_port)  # says nothing at all
        async with silent:
            with trio.move_on_after(60):
                while await silent.receive_some(65536):
                    pass
                closed.append(0)

    server, bridge = await run_with(bot, version_timeout=10)
    assert closed == [7, 70000, 0], "each was closed by the bridge"
    mine, theirs = seat_actions(server, bridge)
    assert mine and all(e.automatic for e in mine)
    assert not any(e.automatic for e in theirs)
