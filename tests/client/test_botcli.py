"""``hickory-bot``: addresses, arguments, and a few bots playing a tournament to the end."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from client import botcli
from client.botcli import LoadReport, parse_address, percentile
from tests.server.harness import config, fast_config, running
from tests.server.rawclient import RawClient

ROOT = Path(__file__).resolve().parents[2]


def test_addresses_with_and_without_a_port() -> None:
    assert parse_address("poker.lan") == ("poker.lan", 7777)
    assert parse_address("10.0.0.5:9000") == ("10.0.0.5", 9000)
    assert parse_address("[::1]:9000") == ("::1", 9000)
    assert parse_address("[::1]") == ("::1", 7777)
    with pytest.raises(argparse.ArgumentTypeError):
        parse_address("host:http")


def test_unknown_strategy_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        botcli.main(["localhost", "--name", "b", "--strategy", "shark"])
    assert "invalid choice: 'shark'" in capsys.readouterr().err


def test_percentiles_by_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile([], 50) is None


def test_load_report_reads_well() -> None:
    report = LoadReport(
        clients=200, joined=200, duration=60, hands=600, actions=9000, latency_p50=0.0012,
        latency_p99=0.0203, reconnects=120, drops=120, errors=0, refused=0, resumed_ok=True,
    )
    text = report.summary()
    assert "clients: 200 (200 joined)" in text
    assert "hands: 600 (10.00 per second)" in text
    assert "latency p50 1.2 ms, p99 20.3 ms" in text
    assert "reconnects: 120 (churn drops: 120), resumed as the same player: yes" in text


async def test_count_bots_play_to_the_end_and_print_their_places(
    autojump_clock: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(fast_config(3, seats=6), seed=2) as (_server, port):
        args = botcli._play_parser().parse_args(
            [f"127.0.0.1:{port}", "--name", "cs", "--strategy", "calling-station", "--count", "3",
             "--seed", "4", "--token-dir", str(tmp_path)]
        )
        status = await botcli._play(args, "127.0.0.1", port)
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert sorted(line.split(": ")[0] for line in out) == ["cs-1", "cs-2", "cs-3"]
    assert sorted(line.split(": ")[1] for line in out) == ["place 1", "place 2", "place 3"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cs-1.token", "cs-2.token", "cs-3.token"]


async def test_hickory_bot_waits_out_a_full_server_and_says_so() -> None:
    """``server_full`` is temporary: ``hickory-bot`` says so on standard error, keeps
    trying with backoff, and joins once there is room (it used to exit 0 at once)."""
    async with running(config(max_connections=1)) as (server, port):
        holder = await RawClient.connect(port)
        await holder.join("holder")  # the one connection there is
        proc = await trio.lowlevel.open_process(
            [sys.executable, "-m", "client.botcli", f"127.0.0.1:{port}", "--name", "late"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        try:
            assert proc.stderr is not None
            said = b""
            with trio.fail_after(20):
                while b"trying again in" not in said:
                    chunk = await proc.stderr.receive_some(4096)
                    assert chunk, f"hickory-bot stopped: {said!r}"
                    said += chunk
            assert b"the server is full" in said
            assert proc.returncode is None, "still trying"
            await holder.aclose()
            with trio.fail_after(30):
                while server.player_named("late") is None:
                    await trio.sleep(0.05)
        finally:
            proc.kill()
            await proc.wait()
