"""SIGTERM and SIGINT on a real server process: stop accepting, say goodbye, exit 0.

``python -m server --port 0 --no-db --port-file F`` in a subprocess, two players in a hand
and a spectator connected; then the signal. Real time, bounded by ``fail_after``.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

import protocol.messages as m
from tests.server.rawclient import RawClient

ROOT = Path(__file__).resolve().parents[2]


async def read_banner(proc: trio.Process) -> str:
    """stdout up to the director-secret line (printed after the port file is written)."""
    assert proc.stdout is not None
    text = b""
    while b"director secret" not in text:
        chunk = await proc.stdout.receive_some(4096)
        assert chunk, f"the server exited early: {text!r}"
        text += chunk
    return text.decode()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_stops_the_server_cleanly(tmp_path: Path, signum: signal.Signals) -> None:
    port_file = tmp_path / "port"
    with trio.fail_after(20):
        proc = await trio.lowlevel.open_process(
            [sys.executable, "-m", "server", "--port", "0", "--no-db", "--port-file", str(port_file),
             "--start-at", "2", "--action-clock", "600"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        try:
            banner = await read_banner(proc)
            port = int(port_file.read_text())
            assert f"127.0.0.1:{port}" in banner
            a = await RawClient.connect(port)
            await a.join("alice")
            b = await RawClient.connect(port)
            await b.join("bob")
            watcher = await RawClient.connect(port)
            await watcher.spectate(1)
            # Mid-hand: somebody is to act.
            for c in (a, b):
                await c.recv_until(m.HoleCards)
            proc.send_signal(signum)
            for c in (a, b, watcher):
                rest = await c.read_to_eof()
                bye = [x for x in rest if isinstance(x, m.ServerGoodbye)]
                assert bye and rest[-1] == bye[0], f"{c.name}: {rest[-3:]}"
                assert "shutting down" in bye[0].reason
            code = await proc.wait()
            assert proc.stderr is not None
            err = (await proc.stderr.receive_some(65536) or b"").decode()
            assert code == 0, err
            assert "Traceback" not in err
            # Nobody listens any more.
            with pytest.raises(OSError):
                await trio.open_tcp_stream("127.0.0.1", port)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
