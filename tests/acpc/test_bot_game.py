"""One connection with a bot that trusts the game file it was started with (``--bot-game``).

A competition bot reads its game file once and parses every line under it. The bridge
shows such a bot only the hands whose game is exactly its file; every other hand is
played for it (check, or fold to a bet) and named. These tests play the tests' ACPC
player with a fixed game, as such a bot does: every line it gets must be valid under
that game. ``--check`` and the refusal at start run ``hickory-acpc`` as a process.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from client.acpc.botgame import hand_differences, read_game_file, tournament_fit
from client.acpc.bridge import Bridge
from client.acpc.gamedef import GameDef
from client.bot import Bot
from poker import events as ev
from protocol import messages as m
from protocol.parts import LobbyPlayer, Rules, ScheduleLevel
from tests.acpc.harness import RecordingServer, check_hands, tcp_player
from tests.acpc.player import Player
from tests.acpc.spec import Game
from tests.server.harness import fast_config, running

ROOT = Path(__file__).resolve().parents[2]

HEADS_UP = """\
GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 20000 20000
blind = 100 50
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""


def three_handed(stack: int, small: int, big: int) -> str:
    return (HEADS_UP.replace("numPlayers = 2", "numPlayers = 3")
            .replace("stack = 20000 20000", f"stack = {stack} {stack} {stack}")
            .replace("blind = 100 50", f"blind = {small} {big} 0")
            .replace("firstPlayer = 2 1 1 1", "firstPlayer = 3 1 1 1"))


def test_game_files_are_read_as_acpc_reads_them_and_others_refused() -> None:
    game = read_game_file(HEADS_UP.replace("nolimit", "# a comment\nNoLimit").replace("numRounds", "NUMROUNDS"))
    assert game == GameDef(stacks=(20000, 20000), blinds=(100, 50), first_player=(1, 0, 0, 0))
    assert read_game_file(three_handed(1000, 10, 20)).blinds == (10, 20, 0)
    refused = {
        "limit": HEADS_UP.replace("nolimit", "limit"),
        "firstPlayer": HEADS_UP.replace("firstPlayer = 2 1 1 1", "firstPlayer = 1 2 2 2"),
        "big blind first": HEADS_UP.replace("blind = 100 50", "blind = 50 100"),
        "numBoardCards": HEADS_UP.replace("0 3 1 1", "0 3 1"),
        "stacks": HEADS_UP.replace("stack = 20000 20000", "stack = 20000"),
    }
    for why, text in refused.items():
        with pytest.raises(ValueError):
            read_game_file(text)
        assert why


def test_a_hand_is_the_bots_only_with_every_number_the_same() -> None:
    bot = read_game_file(three_handed(1000, 10, 20))
    assert hand_differences(bot, bot) == []
    heads_up = GameDef(stacks=(1000, 1000), blinds=(20, 10), first_player=(1, 0, 0, 0))
    assert hand_differences(bot, heads_up) == ["2 players, the bot's game has 3"]
    other = GameDef(stacks=(1000, 990, 1010), blinds=(20, 40, 0), first_player=(2, 0, 0, 0))
    assert hand_differences(bot, other) == ["blinds 20/40, the bot's game has 10/20",
                                            "stacks 1000 990 1010, the bot's game has 1000 1000 1000"]


def lobby(*, players: int, seats: int, chips: int, schedule: tuple[tuple[int, int], ...], ruleset: str = "hickory",
          state: str = "registering") -> m.Lobby:
    rules = Rules(rules_version=1, ruleset=ruleset, seats_per_table=seats, level_unit="hands", level_length=3,  # type: ignore[arg-type]
                  action_seconds=30, time_bank_seconds=60, reconnect_grace_seconds=30, deadline=None,
                  odd_chip="to the first player after the button", breaks=(), changes=())
    return m.Lobby(name="t", state=state, level=None, next_level_in=None, next_level_unit="hands",  # type: ignore[arg-type]
                   schedule=tuple(ScheduleLevel(small_blind=s, big_blind=b, hands=3) for s, b in schedule),
                   players=tuple(LobbyPlayer(player_id=i, name=f"p{i}", chips=chips, table=None, seat=None,
                                             status="waiting") for i in range(1, 3)),
                   tables=(), deadline=None, start_players=players, rules=rules)


def test_the_tournament_fit_names_what_cannot_be_shown() -> None:
    """Each reason the one-connection mode refuses for, and a file that fits the first hands."""
    two = read_game_file(HEADS_UP)  # 20000 chips, 50/100
    first = lobby(players=9, seats=9, chips=20000, schedule=((50, 100), (100, 200)))
    fit = tournament_fit(two, first)
    assert fit.never is not None and "first hands have 9 at a table" in fit.never, fit.never
    assert tournament_fit(two, lobby(players=2, seats=2, chips=20000, schedule=((50, 100),))).possible
    assert "tables seat 2" in (tournament_fit(read_game_file(three_handed(20000, 50, 100)),
                                              lobby(players=2, seats=2, chips=20000, schedule=((50, 100),))).never or "")
    later = tournament_fit(two, lobby(players=2, seats=2, chips=20000, schedule=((10, 20), (50, 100))))
    assert "only from level 2" in (later.never or "")
    chips = tournament_fit(two, lobby(players=2, seats=2, chips=1500, schedule=((50, 100),)))
    assert "every player starts with 1500" in (chips.never or "")
    assert "no blind level" in (tournament_fit(two, lobby(players=2, seats=2, chips=20000, schedule=((10, 20),))).never or "")
    standard = tournament_fit(two, lobby(players=2, seats=2, chips=20000, schedule=((50, 100),), ruleset="standard"))
    assert any("ruleset standard" in line for line in standard.lines)
    assert not any("ruleset hickory" in line for line in standard.lines)
    assert any("last raise less the big blind" in line for line in fit.lines)  # the hickory ruleset's adjustment
    assert any("30 s a decision and a time bank of 60 s" in line for line in fit.lines)


async def test_a_bot_that_trusts_its_game_file_sees_only_hands_of_that_game(autojump_clock: object) -> None:
    """Three players at 1000 chips, 10/20: the bot's file is that game. It is shown the
    first hand (and any other that happens to be exactly that game); every line it gets
    parses under its file; every other hand it was dealt into is played for it, named."""
    cfg = fast_config(3, seats=3, action_clock=5, time_bank=5, starting_stack=1000, hands_per_level=3)
    server = RecordingServer(cfg, seed=21)
    bot_game = read_game_file(three_handed(1000, 10, 20))
    fixed = Game(stacks=bot_game.stacks, blinds=bot_game.blinds, first=bot_game.first_player)
    player = Player(random.Random(2), lambda hand: fixed)  # what it was started with, for every hand
    with trio.fail_after(7200):
        async with running(cfg, server=server, seed=21) as (_, port):
            bridge = Bridge("127.0.0.1", port, "acpc-bot", bot_game=bot_game)
            bots = [Bot("127.0.0.1", port, f"bot-{i}", "random", seed=30 + i) for i in range(2)]
            async with trio.open_nursery() as nursery:
                nursery.start_soon(bridge.run)
                await bridge.ready.wait()
                nursery.start_soon(tcp_player, bridge.acpc_port, player)
                for b in bots:
                    nursery.start_soon(b.run)
    assert server.tournament.finished
    me = bridge.session.model.me.player_id
    assert me is not None
    dealt = [h for h in sorted(server.events_of) if (seat := server.seat_of(h, me)) is not None
             and server.dealt_in(h, seat) and any(isinstance(e, ev.HandEnded) for e in server.events_of[h])]
    fits = [h for h in dealt if server.game_for(h) == fixed]
    assert fits and len(dealt) > len(fits), (fits, dealt)
    assert sorted(player.received) == fits, "the bot is shown exactly the hands of its game"
    assert player.violations == [], player.violations[:3]
    check_hands(server, bridge, player, whole=False)  # and those lines are the hands' own
    assert sorted(h for h, _ in bridge.played_for) == [h for h in dealt if h not in fits]
    assert bridge.shown == len(fits)
    # Played for it: checks and folds, at once (never the clock's).
    for h, _ in bridge.played_for:
        seat = server.seat_of(h, me)
        for e in server.events_of[h]:
            if isinstance(e, ev.ActionTaken) and e.seat == seat:
                assert e.action.value in ("check", "fold") and not e.automatic, (h, e)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "client.acpc.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


async def test_check_and_the_refusal_at_start(tmp_path: Path) -> None:
    """The ACPC heads-up file (20000 chips, 50/100) against a tournament at 1000 chips and
    10/20: --check says no hand can be shown and why; the one-connection bridge refuses to
    start (and takes no seat); a file of the tournament's own first hand passes --check."""
    standard = tmp_path / "holdem.nolimit.2p.reverse_blinds.game"
    standard.write_text(HEADS_UP)
    own = tmp_path / "own.game"
    own.write_text(HEADS_UP.replace("20000 20000", "1000 1000").replace("blind = 100 50", "blind = 20 10"))
    cfg = fast_config(2, seats=2, starting_stack=1000)
    with trio.fail_after(120):
        async with running(cfg, seed=3) as (server, port):
            other = Bot("127.0.0.1", port, "early", "calling-station", seed=1)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(other.run)
                while not server.players:
                    await trio.sleep(0.01)
                address = f"127.0.0.1:{port}"
                check = await trio.to_thread.run_sync(run_cli, address, "--check", str(standard))
                refused = await trio.to_thread.run_sync(
                    run_cli, address, "--name", "acpc-bot", "--bot-game", str(standard))
                good = await trio.to_thread.run_sync(run_cli, address, "--check", str(own))
                players = len(server.players)
                nursery.cancel_scope.cancel()
    assert check.returncode == 1, check
    assert "verdict: no hand can be shown" in check.stdout and "1000" in check.stdout, check.stdout
    assert "ruleset hickory" in check.stdout and "--ruleset standard" in check.stdout
    assert refused.returncode == 2, refused
    assert "not started" in refused.stderr and "--bot-cmd" in refused.stderr, refused.stderr
    assert players == 1, "the refused bridge took no seat"
    assert good.returncode == 0 and "verdict: the first hands can be shown" in good.stdout, good.stdout
    assert "from level 3" in check.stdout, "50/100 comes at level 3 of 10/20 20/40 50/100: only by chance"


def test_one_connection_without_a_game_file_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from client.acpc import cli
    with pytest.raises(SystemExit):
        cli.main(["localhost:7777", "--name", "x"])
    err = capsys.readouterr().err
    assert "--bot-game" in err and "--bot-cmd" in err
