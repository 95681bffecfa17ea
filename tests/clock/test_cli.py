"""``--clock-port`` from the command line, a config file and ``make play``; a port in use."""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from client.play import free_port, server_command
from server.config import add_arguments, config_from_args

ROOT = Path(__file__).resolve().parents[2]


def parse(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_arguments(p)
    return p.parse_args(argv)


def test_the_clock_is_off_unless_asked_and_a_flag_or_the_config_file_turns_it_on(tmp_path: Path) -> None:
    assert config_from_args(parse()).clock_port is None
    assert config_from_args(parse("--clock-port", "8080")).clock_port == 8080
    toml = tmp_path / "night.toml"
    toml.write_text('clock-port = 8090\nname = "Friday"\n')
    assert config_from_args(parse("--config", str(toml))).clock_port == 8090
    assert config_from_args(parse("--config", str(toml), "--clock-port", "8091")).clock_port == 8091


def run_server(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server", "--no-db", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)


def test_a_port_in_use_is_a_message_not_a_traceback() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        clock = run_server("--port", "0", "--clock-port", str(port))
        assert clock.returncode == 2
        assert clock.stderr.strip() == (
            f"hickory-server: cannot serve the clock on 127.0.0.1:{port}: Address already in use")
        game = run_server("--port", str(port))
        assert game.returncode == 2
        assert game.stderr.strip() == f"hickory-server: cannot listen on 127.0.0.1:{port}: Address already in use"


def test_make_play_serves_the_clock_and_the_banner_says_where(tmp_path: Path) -> None:
    """The server ``make play`` starts (its very command line) answers on the clock port."""
    clock_port = free_port()
    port_file = tmp_path / "port"
    cmd = server_command(port_file, tmp_path / "play.db", 2, clock_port=clock_port)
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True)
    try:
        deadline = time.monotonic() + 20
        while not (port_file.exists() and port_file.read_text().strip()):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        # The port file is written once both the game and the clock listen.
        with urllib.request.urlopen(f"http://127.0.0.1:{clock_port}/state/clock.json", timeout=10) as r:
            assert b'"name":"Practice table"' in r.read()
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    assert f"clock for the room's screen: http://127.0.0.1:{clock_port}/" in out
    assert proc.returncode == 0 and "Traceback" not in err
