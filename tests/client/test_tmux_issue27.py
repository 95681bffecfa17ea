"""Issue 27 in a real terminal (tmux) against a real server with bots: the big-blind ante
in the header, the log and the rules view."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.test_tmux import POLL, ROOT, Terminal, client_command, pytestmark, tmux_required  # noqa: F401


def start_server(tmp_path: Path, *extra: str) -> tuple[int, subprocess.Popen[bytes], Path]:
    port_file, log_path = tmp_path / "port", tmp_path / "server.log"
    cmd = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0",
           "--port-file", str(port_file), "--db", str(tmp_path / "t.db"), "--no-deadline",
           "--name", "Ante Night", *extra]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 30
    while not (port_file.exists() and port_file.read_text().strip().isdigit()):
        assert proc.poll() is None, log_path.read_text()
        assert time.monotonic() < deadline, "server did not listen within 30 s"
        time.sleep(POLL)
    return int(port_file.read_text()), proc, log_path


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"hickory-27-{id(object())}", 120, 40)
    try:
        yield term
    finally:
        term.close()


def test_the_big_blind_ante_shows_in_the_header_the_log_and_the_rules(terminal: Terminal, tmp_path: Path) -> None:
    port, proc, _ = start_server(tmp_path, "--bots", "3", "--bot-strategy", "calling-station",
                                 "--start-at", "4", "--action-clock", "60",
                                 "--schedule", "100/200/200,200/400/400")
    try:
        terminal.start(client_command(port, tmp_path / "config", tmp_path / "client.err"))
        screen = terminal.wait_for("Level 1 100/200 ante 200", timeout=60)
        assert "Ante Night" in screen
        terminal.wait_for("posts the ante 200 for the table", timeout=60)
        terminal.wait_for("Your turn", timeout=60)
        terminal.keys("u")
        screen = terminal.wait_for("Rules in force")
        assert "Ante" in screen and "big-blind ante" in screen
        assert "1:\u00a0100/200/200" in screen or "1: 100/200/200" in screen, screen
    finally:
        stop(proc)
