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


def director_says(port: int, *commands: object) -> None:
    """The director's commands over a plain socket (version 3), each acknowledged."""
    import socket

    import protocol.messages as m
    from protocol import codec

    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        f = s.makefile("rwb")

        def send(msg: object) -> None:
            f.write(codec.encode(msg, 3) + b"\n")  # type: ignore[arg-type]
            f.flush()

        def until(pred: object) -> object:
            while True:
                msg = codec.decode_server(f.readline().rstrip(b"\n"), version=3)
                if isinstance(msg, m.Error) and not msg.fatal and msg.id is not None:
                    raise AssertionError(msg)
                if pred(msg):  # type: ignore[operator]
                    return msg

        send(m.DirectorLogin(version=3, secret="s3cret"))
        until(lambda x: isinstance(x, m.Welcome))
        for i, cmd in enumerate(commands, start=1):
            send(m.DirectorCommand(id=i, command=cmd))  # type: ignore[arg-type]
            until(lambda x, i=i: isinstance(x, m.Ack) and x.id == i)


def test_a_busted_player_is_asked_to_re_enter_and_gets_a_new_stack(terminal: Terminal, tmp_path: Path) -> None:
    import protocol.messages as m

    port, proc, _ = start_server(tmp_path, "--bots", "3", "--bot-strategy", "calling-station",
                                 "--start-at", "4", "--action-clock", "60", "--starting-stack", "1000",
                                 "--seats", "6", "--director-secret", "s3cret")
    try:
        terminal.start(client_command(port, tmp_path / "config", tmp_path / "client.err"))
        terminal.wait_for("Hand #", timeout=60)
        tester = 4  # joined last, after the three bots
        director_says(port, m.LateRegistrationCommand(until_level=1, reason="friends on their way"),
                      m.SetOptionsCommand(max_entries=2, reason="re-entry tonight"),
                      m.AdjustChipsCommand(player_id=tester, chips=1, reason="a test: one chip left"))
        # One chip: the tester is all in on a blind (or calls with it) until they bust.
        deadline = time.monotonic() + 240
        while "Re-enter for 1,000?" not in (screen := terminal.screen()):
            assert "Traceback" not in screen and time.monotonic() < deadline, screen
            if "Your turn" in screen:
                terminal.keys("c")
            time.sleep(POLL)
        assert "y yes" in screen
        terminal.keys("y")
        screen = terminal.wait_for("re-entry asked", timeout=30)
        # Seated again with the new stack: the tester's seat shows 1,000 (or what is left of it
        # after a blind), and the standings list both entries.
        terminal.wait_for(lambda s: "tester" in s and "Re-enter" not in s, timeout=30)
        for _ in range(4):  # Tab moves the side panel on: Log, Chat, Standings
            terminal.keys("Tab")
            try:
                terminal.wait_for("(entry 1)", timeout=5)
                break
            except AssertionError:
                continue
        screen = terminal.wait_for("(entry 1)", timeout=5)
        assert "(entry 2)" in screen
    finally:
        stop(proc)


def test_a_spectator_of_the_tv_table_sees_the_hole_cards_once_each_hand_is_over(terminal: Terminal, tmp_path: Path) -> None:
    import shlex

    import protocol.messages as m

    port, proc, _ = start_server(tmp_path, "--bots", "4", "--bot-strategy", "calling-station",
                                 "--start-at", "4", "--action-clock", "60", "--director-secret", "s3cret")
    try:
        director_says(port, m.SetOptionsCommand(tv_table=1, reason="the stream"))
        argv = [sys.executable, "-m", "client.cli", f"127.0.0.1:{port}", "--spectate", "1"]
        env = f"XDG_CONFIG_HOME={shlex.quote(str(tmp_path / 'config'))} LANG=C.UTF-8"
        terminal.start(f"cd {shlex.quote(str(ROOT))} && exec env {env} "
                       f"{' '.join(shlex.quote(a) for a in argv)} 2>>{shlex.quote(str(tmp_path / 'client.err'))}")
        screen = terminal.wait_for("watching", timeout=60)
        screen = terminal.wait_for("TV: bot-", timeout=120)
        assert "had" in screen and "(hand #" in screen
    finally:
        stop(proc)
