"""``hickory-acpc`` as a user runs it: a real process, a real server, a bot on its port."""

from __future__ import annotations

import random
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
