"""``hickory-acpc`` as a user runs it: a real process, a real server, a bot on its port."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from client.acpc import cli
from client.bot import Bot
from tests.acpc.harness import RecordingServer, tcp_player
from tests.acpc.player import Player
from tests.server.harness import fast_config, running

ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_command_is_optional_and_the_name_is_not(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["localhost:7777"])
    assert "--name" in capsys.readouterr().err


async def test_the_bridge_process_prints_its_port_and_the_place(tmp_path: Path) -> None:
    cfg = fast_config(2, seats=2, action_clock=10, time_bank=0, starting_stack=300)
    server = RecordingServer(cfg, seed=3)
    transcript = tmp_path / "transcript.txt"
    player = Player(random.Random(5), server.game_for)
    with trio.fail_after(120):
        async with running(cfg, server=server, seed=3) as (_, port):
            proc = await trio.lowlevel.open_process(
                [sys.executable, "-m", "client.acpc.cli", f"127.0.0.1:{port}", "--name", "acpc-bot",
                 "--transcript", str(transcript), "--game-file", str(tmp_path / "hand.game")],
                stdout=subprocess.PIPE, cwd=ROOT,
            )
            assert proc.stdout is not None
            out = b""
            while b"\n" not in out:
                out += await proc.stdout.receive_some(4096)
            first = out.decode().splitlines()[0]
            assert first.startswith("hickory-acpc: ACPC dealer port 127.0.0.1:"), first
            acpc_port = int(first.split(":")[2].split()[0])
            other = Bot("127.0.0.1", port, "other", "calling-station", seed=1)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(other.run)
                nursery.start_soon(tcp_player, acpc_port, player)
                await proc.wait()
                while chunk := await proc.stdout.receive_some(4096):
                    out += chunk
    assert proc.returncode == 0
    assert "acpc-bot: place " in out.decode()
    assert player.violations == [] and player.received
    text = transcript.read_text()
    assert "S-> MATCHSTATE:" in text and "<-C VERSION:2.0.0" in text and "<-C MATCHSTATE:" in text
    assert (tmp_path / "hand.game").read_text().startswith("GAMEDEF\nnolimit\nnumPlayers = 2\n")


async def start_cli(port: int, tmp_path: Path, *extra: str) -> tuple[trio.Process, str]:
    """``hickory-acpc`` in a process of its own (its temporary folders go to ``tmp_path/tmp``,
    its stderr to ``tmp_path/stderr``), once it has printed its first line; that line."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(ROOT)}
    proc = await trio.lowlevel.open_process(
        [sys.executable, "-m", "client.acpc.cli", f"127.0.0.1:{port}", "--name", "acpc-bot", *extra],
        stdout=subprocess.PIPE, stderr=(tmp_path / "stderr").open("wb"), cwd=ROOT, env=env,
    )
    assert proc.stdout is not None
    out = b""
    while b"\n" not in out:
        chunk = await proc.stdout.receive_some(4096)
        assert chunk, "the bridge ended before saying anything"
        out += chunk
    return proc, out.decode().splitlines()[0]


async def rest_of(stream: trio.abc.ReceiveStream | None) -> str:
    assert stream is not None
    data = b""
    while chunk := await stream.receive_some(65536):
        data += chunk
    return data.decode()


def player_cmd(tmp_path: Path) -> str:
    return f"{sys.executable} -m tests.acpc.player {{game}} {{host}} {{port}} --log {tmp_path / 'player.log'}"


async def test_ctrl_c_stops_the_bridge_with_status_130_and_no_traceback(tmp_path: Path) -> None:
    """SIGINT in the middle of a hand, a program running for it: exit status 130 (the
    shell's for Ctrl-C), one line on stderr, and the hands' folder removed.

    The program only checks and calls, against a calling station: nobody goes all in, so
    the night cannot end before the signal. (A random program did end it first now and
    then, in CI: exit status 0 with the place printed. The decks come from the players'
    fair-deck seeds, so each run deals other cards and the random program sometimes went
    all in in the first hand and lost.)"""
    cfg = fast_config(2, seats=2, action_clock=10, time_bank=0, starting_stack=100_000)
    with trio.fail_after(120):
        async with running(cfg, seed=3) as (_, port):
            proc, first = await start_cli(port, tmp_path, "--bot-cmd", player_cmd(tmp_path) + " --calls-only",
                                          "--bot-output", str(tmp_path / "bot.out"))  # the bridge's own stderr alone
            assert "for every hand" in first, first
            other = Bot("127.0.0.1", port, "other", "calling-station", seed=1)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(other.run)
                log = tmp_path / "player.log"
                while not log.exists() or log.read_text().count("received") < 3:  # in play
                    await trio.sleep(0.05)
                proc.send_signal(signal.SIGINT)
                await proc.wait()
                nursery.cancel_scope.cancel()
    err = (tmp_path / "stderr").read_text()
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "interrupted" in err
    assert "ruleset is hickory" in err, "the note at start on Hickory's own ruleset"
    assert list((tmp_path / "tmp").iterdir()) == [], "the temporary folder of the hands' game files is removed"


async def test_a_tournament_with_a_program_per_hand_leaves_no_folder_behind(tmp_path: Path) -> None:
    cfg = fast_config(2, seats=2, action_clock=10, time_bank=0, starting_stack=200)
    with trio.fail_after(300):
        async with running(cfg, seed=3) as (_, port):
            proc, _ = await start_cli(port, tmp_path, "--bot-cmd", player_cmd(tmp_path))
            other = Bot("127.0.0.1", port, "other", "calling-station", seed=1)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(other.run)
                out = await rest_of(proc.stdout)
                await proc.wait()
    assert proc.returncode == 0 and "acpc-bot: place " in out, out
    assert (tmp_path / "player.log").read_text().count("received") > 0
    assert list((tmp_path / "tmp").iterdir()) == [], "the temporary folder of the hands' game files is removed"
