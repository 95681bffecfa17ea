"""The server as a host runs it, in a real process: built-in bots, the open-file limit.

``python -m server`` in a subprocess; clients over loopback. Real time, bounded by
``fail_after``; every process is stopped at the end.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

import protocol.messages as m
from tests.server.rawclient import RawClient
from tests.server.test_signals import read_banner

ROOT = Path(__file__).resolve().parents[2]


@asynccontextmanager
async def server_process(tmp_path: Path, *args: str, preexec: Callable[[], None] | None = None
                         ) -> AsyncIterator[tuple[trio.Process, int, str]]:
    """A server process: (the process, its port, its banner). Its standard error is read
    into ``proc.err`` (a list of chunks) as it comes."""
    port_file = tmp_path / "port"
    proc = await trio.lowlevel.open_process(
        [sys.executable, "-m", "server", "--port", "0", "--port-file", str(port_file), "--director-secret",
         "s3cret", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec,
    )
    err: list[bytes] = []
    proc.err = err  # type: ignore[attr-defined]

    async def read_err() -> None:
        assert proc.stderr is not None
        while chunk := await proc.stderr.receive_some(65536):
            err.append(chunk)

    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(read_err)
            with trio.fail_after(20):
                banner = await read_banner(proc)
            yield proc, int(port_file.read_text()), banner
            proc.terminate()
            with trio.fail_after(10):
                await proc.wait()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def stderr_of(proc: trio.Process) -> str:
    return b"".join(proc.err).decode(errors="replace")  # type: ignore[attr-defined]


async def watch_hands(host: str, port: int, hands: int) -> list[m.HandEnded]:
    """Log in as the director, wait for the start, watch table 1 finish ``hands`` hands."""
    d = await RawClient.connect(port, host=host)
    await d.recv_until(m.Hello)
    await d.send(m.DirectorLogin(version=1, secret="s3cret"))
    await d.recv_until(m.Welcome)
    while (await d.recv_until(m.Lobby)).state != "running":
        pass  # the lobby comes after the welcome, and again on every change
    await d.send(m.SnapshotRequest(id=2, table=1))
    ended = []
    while len(ended) < hands:
        ended.append(await d.recv_until(m.HandEnded))
    return ended


# -- 8. built-in bots ------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    ["--password", "sesame"],
    ["--host", "127.0.0.2"],
    ["--host", "127.0.0.2", "--password", "sesame"],
], ids=["password", "one address", "both"])
async def test_built_in_bots_join_and_play(tmp_path: Path, options: list[str]) -> None:
    """``--bots`` with a password (they are given it) and with the server listening on
    one address only (they dial that address): they join, ``--start-at`` starts the
    tournament, and hands are played."""
    host = "127.0.0.2" if "--host" in options else "127.0.0.1"
    async with server_process(tmp_path, "--db", str(tmp_path / "t.db"), "--bots", "3", "--start-at", "3", "--verbose",
                              "--hand-pause", "0", "--action-clock", "5", *options) as (proc, port, banner):
        assert f"listening on {host}:{port}" in banner
        try:
            with trio.fail_after(30):
                ended = await watch_hands(host, port, 3)
        except trio.TooSlowError:
            # Seen once in a clean-clone CI run (4 December) and not since: say what the
            # server logged, so a next time shows where it stopped.
            pytest.fail(f"no 3 hands within 30 s; the server's log:\n{stderr_of(proc)[-4000:]}")
        assert len(ended) == 3
    err = stderr_of(proc)
    assert "refused" not in err and "Traceback" not in err, err
    assert sorted(p.name for p in (tmp_path / "t.db.bots").iterdir()) == ["bot-1.token", "bot-2.token", "bot-3.token"]


# -- 3. the open-file limit -----------------------------------------------------------------------


def limit_files(soft: int, hard: int) -> Callable[[], None]:
    def preexec() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return preexec


def open_files_limit(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open-file limit")


async def test_the_server_raises_its_soft_file_limit(tmp_path: Path) -> None:
    hard = min(resource.getrlimit(resource.RLIMIT_NOFILE)[1], 8192)
    if hard < 1024:
        pytest.skip("the hard open-file limit here is too low to raise anything")
    async with server_process(tmp_path, "--no-db", preexec=limit_files(256, hard)) as (proc, _, _):
        assert open_files_limit(proc.pid) == hard
    assert "lowered" not in stderr_of(proc)


async def test_a_connection_flood_never_takes_the_server_past_its_file_limit(tmp_path: Path) -> None:
    """With 256 open files (soft and hard) and the default 2,000 connections, the server
    says it holds fewer, and a flood of 400 connections from many addresses never takes it
    past them: no traceback, the built-in bots play on, and once the flood is gone a new
    client gets in."""
    # Calling stations: the tournament lasts far longer than the flood on a loaded machine
    # (solid bots could finish it meanwhile, and the lobby would never say "running" again).
    async with server_process(tmp_path, "--no-db", "--bots", "3", "--bot-strategy", "calling-station",
                              "--start-at", "3", "--hand-pause", "0", "--action-clock", "5",
                              preexec=limit_files(256, 256)) as (proc, port, _):
        cap = 256 - 64 - 32
        with trio.fail_after(20):
            await watch_hands("127.0.0.1", port, 1)
        flood: list[trio.SocketStream] = []
        with trio.move_on_after(10):
            for i in range(400):
                sock = trio.socket.socket()
                await sock.bind((f"127.0.{2 + i // 30}.{1 + i % 30}", 0))
                await sock.connect(("127.0.0.1", port))
                flood.append(trio.SocketStream(sock))
        with trio.fail_after(10):  # the server has taken the last one in (each made room as it came)
            await flood[-1].receive_some(1)
        await trio.sleep(0.2)
        said = [b""] * len(flood)

        async def read(i: int) -> None:
            with trio.move_on_after(0.5):  # well within the 10 s handshake deadline
                while chunk := await flood[i].receive_some(4096):
                    said[i] += chunk

        async with trio.open_nursery() as n:
            for i in range(len(flood)):
                n.start_soon(read, i)
        refused = sum(b"server_full" in x for x in said)
        held = sum(x.startswith(b'{"type":"hello"') and b'"type":"error"' not in x for x in said)
        assert held <= cap - 3, (held, refused)  # the bots hold three
        assert refused > 0, "the rest were turned away, or made room for newer ones"
        with trio.fail_after(30):
            await watch_hands("127.0.0.1", port, 0)  # still serving (the director gets in)
        for stream in flood:
            await stream.aclose()
        with trio.fail_after(30):
            ended = await watch_hands("127.0.0.1", port, 2)
        assert len(ended) == 2, "the bots play on"
    err = stderr_of(proc)
    assert f"max_connections lowered from 2000 to {cap}" in err
    assert "Traceback" not in err and "out of file descriptors" not in err, err
