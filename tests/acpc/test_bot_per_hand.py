"""``--bot-cmd``: a real program started for every hand, with that hand's game file.

These run on the real clock (processes do not follow Trio's virtual clock), heads-up with
small stacks so the tournament is a handful of hands. The program is the test ACPC
player run as ``python -m tests.acpc.player GAME HOST PORT``; it checks every line
against the game file it was given and logs what it saw.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import trio
import trio.testing

from client.acpc.bridge import Bridge, HandBot
from client.acpc.matchstate import EndHand
from client.bot import Bot
from poker import events as ev
from protocol import messages as m
from tests.acpc.harness import RecordingServer
from tests.acpc.reconstruct import check_line, truth_of
from tests.acpc.spec import parse_matchstate
from tests.server.harness import fast_config, running

ROOT = Path(__file__).resolve().parents[2]


async def play(tmp_path: Path, behaviour: str = "play", *, command: str | None = None,
               stack: int = 400, once: bool = False, action_clock: float | None = None,
               hand_pause: float = 0.0, extra: str = "", **bridge_kw: object,
               ) -> tuple[RecordingServer, Bridge, list[dict[str, object]]]:
    log = tmp_path / "player.log"
    cmd = command or (f"{sys.executable} -m tests.acpc.player {{game}} {{host}} {{port}} "
                      f"--seed 4 --log {log} --behaviour {behaviour}"
                      + (f" --once {tmp_path / 'misbehaved'}" if once else "") + (f" {extra}" if extra else ""))
    patient = (behaviour == "play" or once) and command is None  # a program that answers: time to start up
    clock = action_clock if action_clock is not None else 10 if patient else 1
    cfg = fast_config(2, seats=2, action_clock=clock, time_bank=0, starting_stack=stack, hand_pause=hand_pause)
    server = RecordingServer(cfg, seed=9)
    with trio.fail_after(300):
        async with running(cfg, server=server, seed=9) as (_, port):
            bridge = Bridge("127.0.0.1", port, "acpc-bot", bot_cmd=cmd, game_dir=tmp_path,
                            bot_output=tmp_path / "bot.out", **bridge_kw)  # type: ignore[arg-type]
            other = Bot("127.0.0.1", port, "other", "calling-station", seed=1)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(bridge.run)
                nursery.start_soon(other.run)
    assert server.tournament.finished
    entries = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    return server, bridge, entries


def hands_dealt(server: RecordingServer, bridge: Bridge) -> list[int]:
    me = bridge.session.model.me.player_id
    assert me is not None
    return [h for h in sorted(server.events_of)
            if (seat := server.seat_of(h, me)) is not None and server.dealt_in(h, seat)]


async def test_a_program_per_hand_gets_that_hands_game_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    server, bridge, entries = await play(tmp_path)
    received = [e["received"] for e in entries if "received" in e]
    assert all(e["violations"] == [] for e in entries if "violations" in e)
    # Each program's game file, by the hand it was shown (programs may log out of order: a
    # hand's program can start after the next hand's).
    game_of_pid = {e["pid"]: e["game"] for e in entries if "game" in e}
    games: dict[int, list[list[int]]] = {}
    for e in entries:
        if "received" in e and e["pid"] in game_of_pid:
            games.setdefault(parse_matchstate(e["received"]).hand, game_of_pid.pop(e["pid"]))
    dealt = hands_dealt(server, bridge)
    assert sorted(games) == dealt and len(dealt) >= 2, (
        f"one program per hand: none saw hands {sorted(set(dealt) - set(games))} of {dealt}; "
        f"programs with no hand: {len(game_of_pid)}; the bridge's notes: {bridge.notes}")
    me = bridge.session.model.me.player_id
    for hand_no, game in sorted(games.items()):
        truth = truth_of(server.events_of[hand_no])
        assert game == [list(truth.game.stacks), list(truth.game.blinds), list(truth.game.first)]
        seat = server.seat_of(hand_no, me)  # type: ignore[arg-type]
        assert seat is not None
        lines = [x for x in received if parse_matchstate(x).hand == hand_no]
        assert lines, f"hand {hand_no}: the program saw nothing"
        for x in lines:
            assert check_line(truth, truth.position(seat), x, parse_matchstate(x)) == []
    assert bridge.replies > 0
    assert not list(tmp_path.glob("hand-*.game")), "each hand's game file is removed after it"
    mine = [e for h in dealt for e in server.events_of[h]
            if isinstance(e, ev.ActionTaken) and e.seat == server.seat_of(h, me)]  # type: ignore[arg-type]
    assert mine and not any(e.automatic for e in mine), "every decision was the program's, in time"


async def test_a_program_that_never_ends_is_killed_after_its_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    server, bridge, _ = await play(tmp_path, "stuck", stack=60, exit_grace=0.2)
    assert any("killed" in t for _, t in bridge.notes), bridge.notes


async def test_a_program_that_cannot_start_loses_only_its_turns(tmp_path: Path) -> None:
    server, bridge, _ = await play(tmp_path, command="/nonexistent/acpc-bot {game} {host} {port}", stack=60)
    assert any("cannot run the bot" in t for _, t in bridge.notes), bridge.notes
    me = bridge.session.model.me.player_id
    dealt = hands_dealt(server, bridge)
    mine = [e for h in dealt for e in server.events_of[h]
            if isinstance(e, ev.ActionTaken) and e.seat == server.seat_of(h, me)]  # type: ignore[arg-type]
    assert mine and all(e.automatic for e in mine)


def seat_actions_by_hand(server: RecordingServer, bridge: Bridge) -> dict[int, list[ev.ActionTaken]]:
    """The bridge seat's actions in each hand it was dealt into (a hand with none: [])."""
    me = bridge.session.model.me.player_id
    assert me is not None
    return {h: [e for e in server.events_of[h] if isinstance(e, ev.ActionTaken) and e.seat == server.seat_of(h, me)]
            for h in hands_dealt(server, bridge)}


@pytest.mark.parametrize(("behaviour", "facing_bet"), [("hang", False), ("quit", False), ("hang", True), ("quit", True)])
async def test_a_program_that_fails_its_first_hand_plays_again_from_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, behaviour: str, facing_bet: bool) -> None:
    """The first program hangs at its first decision (or walks away from it, as a crash
    or a kill does): the clock acts for the seat and sits it out. Every later hand has a
    fresh program, and each of them is asked for its decisions (the bridge says "I'm back"
    as the failed hand ends; between hands the server takes that at once). ``facing_bet``:
    it fails at a decision facing a bet, so the clock's fold ends the heads-up hand and the
    server says the seat sits out only after the hand's end."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    server, bridge, _ = await play(tmp_path, behaviour, once=True, action_clock=5, hand_pause=0.5,
                                   extra="--facing-bet" if facing_bet else "")
    by_hand = seat_actions_by_hand(server, bridge)
    failed = [h for h, acts in by_hand.items() if any(e.automatic for e in acts)]
    assert failed, "the misbehaving program's decision was the clock's"
    later = [h for h in by_hand if h > failed[0] and by_hand[h]]
    assert len(later) >= 2, f"the tournament went on with the seat's decisions in it: {by_hand}"
    assert failed == [failed[0]], (
        f"only the failed hand is played by the clock; automatic in hands {failed} of {sorted(by_hand)}")


async def test_a_program_slow_to_start_keeps_its_turns_within_the_allowance(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first program takes 3 s to start (a bot loading its strategy); the start-up
    allowance is 20 s and the action clock 10 s: the bridge waits for it, gives it the
    hand's states so far, and its decisions are its own."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    server, bridge, _ = await play(tmp_path, once=True, extra="--delay 3", action_clock=10, stack=200,
                                   connect_timeout=20)
    by_hand = seat_actions_by_hand(server, bridge)
    first = min(by_hand)
    assert by_hand[first], "the seat had a decision in the slow program's hand"
    assert not any(e.automatic for acts in by_hand.values() for e in acts), by_hand
    assert not any("did not connect" in t for _, t in bridge.notes), bridge.notes


async def test_a_program_slower_than_the_allowance_loses_only_that_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the allowance (1 s here, for a program that takes 3 s) the bridge stops waiting:
    the clock plays that hand's decisions (and sits the seat out); the next hand's program
    says its version and the seat plays again."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    server, bridge, _ = await play(tmp_path, once=True, extra="--delay 3", action_clock=2, stack=200,
                                   connect_timeout=1, hand_pause=0.5)
    assert any("did not connect within 1 s" in t for _, t in bridge.notes), bridge.notes
    by_hand = seat_actions_by_hand(server, bridge)
    first = min(by_hand)
    assert by_hand[first] and all(e.automatic for e in by_hand[first])
    later = [e for h, acts in by_hand.items() if h > first for e in acts]
    assert later and any(not e.automatic for e in later), by_hand


async def test_sitting_out_said_after_the_hands_end_still_brings_the_seat_back() -> None:
    """When the clock's fold ends the hand, the server ends the hand first and says the seat
    sits out after: the bridge may have closed the hand's program already. It still says
    "I'm back" for the next program (the order seen with the real example_player; in a
    test process both messages usually arrive in one read, hence this test of the order)."""
    bridge = Bridge("127.0.0.1", 1, "acpc-bot", bot_cmd="unused {game} {host} {port}")
    backs: list[str] = []
    bridge._back = backs.append  # type: ignore[method-assign]
    bridge.session.model.me.player_id = 7
    hand = HandBot(3)
    hand.connected = True  # its program had connected, then hung: the clock folded for it
    bridge._hands[3] = bridge._current = hand
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bridge._dispatch)
        bridge._out_send.send_nowait(EndHand(3))
        await trio.testing.wait_all_tasks_blocked()
        assert backs == [], "not sitting out yet"
        bridge._on_message(m.PlayerStatus(player_id=7, name="acpc-bot", table=1, seat=2, status="sitting_out"), 0.0)
        await trio.testing.wait_all_tasks_blocked()
        bridge._out_send.close()
    assert len(backs) == 1 and "a fresh program" in backs[0], backs
