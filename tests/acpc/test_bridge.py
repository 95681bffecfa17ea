"""The bridge against a real server: an ACPC player plays whole tournaments through it.

The ACPC player (``tests/acpc/player.py``, written from the specification) connects to the
bridge's dealer port over TCP and answers with random actions, odd and out-of-range raises
and unreadable replies included; the other seats are Hickory's own random bots. Every line
it receives is checked against the hand as the server recorded it (``harness.check_hands``):
valid under the ACPC rules, the right position, cards and hand number, and exactly the
plain translation of Hickory's actions wherever that is valid ACPC.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio
import trio.testing

from client.acpc.bridge import BotLink, Bridge
from client.bot import Bot
from poker import events as ev
from tests.acpc.harness import RecordingServer, check_hands, tcp_player
from tests.acpc.player import Player
from tests.server.harness import fast_config, running


async def tournament(players: int, seed: int, *, ruleset: str = "standard", player_kw: dict[str, Any] | None = None,
                     tcp_kw: dict[str, Any] | None = None, action_clock: float = 5, starting_stack: int = 5000,
                     ) -> tuple[RecordingServer, Bridge, Player]:
    cfg = fast_config(players, seats=players, action_clock=action_clock, time_bank=5, ruleset=ruleset,
                      starting_stack=starting_stack, hands_per_level=3)
    server = RecordingServer(cfg, seed=seed)
    with trio.fail_after(7200):
        async with running(cfg, server=server, seed=seed) as (_, port):
            bridge = Bridge("127.0.0.1", port, "acpc-bot")
            player = Player(random.Random(seed), server.game_for, **(player_kw or {}))
            bots = [Bot("127.0.0.1", port, f"bot-{i}", ("random", "calling-station")[i % 2], seed=seed + i)
                    for i in range(players - 1)]
            async with trio.open_nursery() as nursery:
                nursery.start_soon(bridge.run)
                await bridge.ready.wait()
                nursery.start_soon(lambda: tcp_player(bridge.acpc_port, player, **(tcp_kw or {})))
                for b in bots:
                    nursery.start_soon(b.run)
    assert server.tournament.finished
    assert bridge.place is not None and bridge.refused is None
    return server, bridge, player


def automatic_actions(server: RecordingServer, bridge: Bridge) -> tuple[int, int]:
    """(automatic, chosen) actions of the bridge's seat over the tournament."""
    me = bridge.session.model.me.player_id
    assert me is not None
    auto = chosen = 0
    for hand_no, events in server.events_of.items():
        seat = server.seat_of(hand_no, me)
        for e in events:
            if isinstance(e, ev.ActionTaken) and e.seat == seat:
                auto += e.automatic
                chosen += not e.automatic
    return auto, chosen


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 20), (6, 40)])
async def test_an_acpc_bot_plays_whole_tournaments(players: int, seed: int, autojump_clock: object) -> None:
    """Tournaments one after another (random players end them fast) until 15 hands of the
    ACPC bot have been checked and it has sent garbage and too small raises."""
    hands = 0
    notes: list[str] = []

    def seen(text: str) -> bool:
        return any(text in t for t in notes)

    while hands < 15 or not (seen("unreadable reply is taken as") and seen("is below the minimum")):
        assert seed < 100, (hands, notes[:10])
        server, bridge, player = await tournament(players, seed, player_kw={"garbage": 0.1, "stale": 0.1})
        seed += 1
        counts = check_hands(server, bridge, player)
        hands += counts["hands"]
        notes += [t for _, t in bridge.notes]
        assert counts["exact"] >= counts["adjusted"], counts
        auto, chosen = automatic_actions(server, bridge)
        assert auto == 0, "the bot answered every turn in time: Hickory never acted for it"
        # Every decision of the seat came from a reply of the bot (or, rarely, from the
        # bridge where ACPC has no turn for it: those are noted).
        self_acts = sum(1 for _, t in bridge.notes if "has no turn for" in t)
        assert chosen == bridge.replies + self_acts and bridge.replies > 0
        if players == 2:
            assert counts["heads_up"] == counts["hands"]


async def test_the_default_ruleset_small_raises_are_shown_as_valid_acpc(autojump_clock: object) -> None:
    """Hickory's own ruleset lets a raise add only the big blind; ACPC wants at least the
    last raise: such raises are shown at ACPC's minimum, and every line stays valid."""
    server, bridge, player = await tournament(4, 7, ruleset="hickory")
    notes: list[str] = []
    hands = 0
    for seed in range(7, 37):
        server, bridge, player = await tournament(4, seed, ruleset="hickory")
        hands += check_hands(server, bridge, player)["hands"]
        notes += [t for _, t in bridge.notes]
        if any("nearest valid raise" in t for t in notes) and hands >= 15:
            break
    assert any("nearest valid raise" in t for t in notes), notes[:5]


async def test_short_stacks_side_pots_and_all_ins_before_the_river(autojump_clock: object) -> None:
    """Six players with two or three big blinds each: short blinds (a blind that puts the
    player all in is its stack in the game), all-ins before the river with the board run
    out, side pots; the lines are still exactly right."""
    totals = {"hands": 0, "short_blind": 0, "side_pots": 0, "all_in_before_river": 0, "adjusted": 0}
    seed = 60
    while totals["hands"] < 20 or not all(totals.values()):
        server, bridge, player = await tournament(6, seed, starting_stack=45)
        seed += 1
        counts = check_hands(server, bridge, player)
        for key in totals:
            totals[key] += counts[key]
        assert seed < 120, totals


async def test_a_line_queued_as_the_link_closes_still_reaches_the_program() -> None:
    """A hand's last state is queued and the program's link closed in the same step (the
    hand is over). The writer, handed the line directly, had not sent it when the close
    saw an empty queue and cancelled it: a program whose seat was never asked to act (all
    in from the blinds) saw nothing of its hand. Twenty links, as the order in which Trio
    runs the two woken tasks varies."""

    async def no_reply(link: BotLink, text: str) -> None:
        pass

    with trio.fail_after(30):
        for i in range(20):
            listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
            port = listeners[0].socket.getsockname()[1]
            program = await trio.open_tcp_stream("127.0.0.1", port)
            link = BotLink(await listeners[0].accept(), no_reply)
            await listeners[0].aclose()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(link.run, 5.0)
                await program.send_all(b"VERSION:2.0.0\r\n")
                await link.versioned.wait()
                await trio.testing.wait_all_tasks_blocked()
                final = f"MATCHSTATE:0:{i}:cc/cc/cc/cc:Ks9h|QdQc/8d5c2s/7h/Jc"
                link.send(final)
                link.close()
                got = b""
                while data := await program.receive_some(1 << 16):
                    got += data
            assert got == (final + "\r\n").encode(), f"link {i}: the program got {got!r}"
            await program.aclose()
