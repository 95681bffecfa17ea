"""The director's secret survives a crash (#12 defect 4): kept as a hash, never printed again,
and replaced only on the host's request while the server is stopped. Real processes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import trio

import protocol.messages as m
from tests.persistence.harness import REPO, ServerProcess
from tests.server.rawclient import RawClient


async def login(port: int, secret: str) -> m.ServerMessage:
    c = await RawClient.connect(port)
    try:
        await c.recv_until(m.Hello)
        await c.send(m.DirectorLogin(version=1, secret=secret))
        return await c.recv()
    finally:
        await c.aclose()


def printed_secret(log: str) -> str | None:
    found = re.search(r"director secret: (\S+)$", log, re.M)
    return found.group(1) if found else None


def secret_tool(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server", "director-secret", "--db", str(db)],
                          cwd=REPO, capture_output=True, text=True, timeout=60, check=False)


async def test_the_director_gets_back_in_after_a_kill_and_a_new_secret_needs_the_host(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, ["--no-deadline"])
    try:
        port = await server.start()
        with trio.fail_after(30):
            while (secret := printed_secret(server.last_log())) is None:
                await trio.sleep(0.05)
        assert not secret.startswith("-")
        assert isinstance(await login(port, secret), m.Welcome)

        server.signal()  # kill -9
        await server.wait_exit()
        port = await server.start()
        with trio.fail_after(30):
            while "director secret" not in server.last_log():
                await trio.sleep(0.05)
        assert secret not in server.last_log(), "a kept secret is never printed again"
        assert isinstance(await login(port, secret), m.Welcome), "the same secret after the restart"
        wrong = await login(port, secret + "x")
        assert isinstance(wrong, m.Error) and wrong.code == "wrong_password"

        busy = secret_tool(server.db)
        assert busy.returncode == 2 and "stop the server" in busy.stderr
        server.signal()
        await server.wait_exit()
        made = secret_tool(server.db)
        assert made.returncode == 0, made.stderr
        new = made.stdout.strip().removeprefix("new director secret: ")
        assert new and new != secret

        port = await server.start()
        assert isinstance(await login(port, new), m.Welcome)
        old = await login(port, secret)
        assert isinstance(old, m.Error) and old.code == "wrong_password"
    finally:
        server.stop()
