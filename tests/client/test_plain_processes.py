"""``hickory --plain`` as a person runs it: a real server process with bots, the client
process on plain pipes (no terminal at all), and the same client in a real terminal (tmux).

Through the pipe the test reads the client's stdout line by line and writes commands to its
stdin: a raise below the minimum is refused in words, whole hands are played with ``c``,
``quit`` asks first during a hand and the answer ``yes`` ends it with the resume hint; a
second run with the same config directory comes back to the same seat (the saved token)
and plays on. In tmux the test types the same commands with ``send-keys`` and reads the
screen with ``capture-pane``. Every wait polls with a deadline; nothing sleeps a fixed time
beyond the poll interval.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

ROOT = Path(__file__).resolve().parents[2]
POLL = 0.1
TMUX = shutil.which("tmux")
REQUIRED = os.environ.get("HICKORY_REQUIRE_TMUX") == "1"
TURN = re.compile(r"Your turn: (.*?)\. (\d+) seconds")
RANGE = re.compile(r"(raise|bet) from ([\d,]+) to ([\d,]+)")

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("server.serve") is None, reason="the server is not there yet"
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    """A real server process: three calling-station bots, the tournament starts when the
    fourth player (the test's) joins; no deadline; a long action clock."""
    port_file, log_path = tmp_path / "port", tmp_path / "server.log"
    cmd = [
        sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0",
        "--port-file", str(port_file), "--db", str(tmp_path / "t.db"),
        "--bots", "3", "--bot-strategy", "calling-station", "--start-at", "4",
        "--no-deadline", "--action-clock", "60", "--name", "Plain Night",
    ]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip().isdigit()):
            assert proc.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, "server did not listen within 30 s"
            time.sleep(POLL)
        yield int(port_file.read_text())
        assert proc.poll() is None, log_path.read_text()
        assert "Traceback" not in log_path.read_text()
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def client_argv(port: int) -> list[str]:
    return [sys.executable, "-m", "client.cli", f"127.0.0.1:{port}", "--name", "tester", "--plain"]


def amount(text: str) -> int:
    return int(text.replace(",", ""))


# -- through a pipe ------------------------------------------------------------------------


class Piped:
    """The client process on pipes; its stdout read line by line by a thread."""

    def __init__(self, argv: list[str], config: Path) -> None:
        env = dict(os.environ, XDG_CONFIG_HOME=str(config), LANG="C.UTF-8")
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8", bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        assert self.proc.stdout is not None
        threading.Thread(target=self._pump, args=(self.proc.stdout,), daemon=True).start()

    def _pump(self, out: IO[str]) -> None:
        for line in out:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def next(self, timeout: float = 60) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no line from the client in time; so far:\n" + "\n".join(self.seen[-30:])) from None
        if line is None:
            raise AssertionError("the client's output ended; so far:\n" + "\n".join(self.seen[-30:]))
        assert "\x1b" not in line, line  # no escape codes: plain text only
        self.seen.append(line)
        return line

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.next(max(0.1, deadline - time.monotonic())))
            if found:
                return found

    def finish(self, timeout: float = 20) -> tuple[int, str]:
        """Wait for the exit: (status, stderr); the rest of stdout goes to ``seen``."""
        status = self.proc.wait(timeout)
        while True:
            line = self.lines.get(timeout=5)
            if line is None:
                break
            self.seen.append(line)
        assert self.proc.stderr is not None
        return status, self.proc.stderr.read()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def play_hands(c: Piped, hands: int) -> None:
    """Answer every turn with c until ``hands`` hands have ended."""
    ended = 0
    while ended < hands:
        line = c.next()
        if TURN.search(line):
            c.type("c")
        elif re.match(r"^Hand \d+ is over\.", line):
            ended += 1


def test_plain_mode_through_a_pipe_plays_whole_hands_and_comes_back(server: int, tmp_path: Path) -> None:
    config = tmp_path / "config"
    c = Piped(client_argv(server), config)
    try:
        c.wait_for(r"^Welcome to Plain Night, tester\.")
        turn = c.wait_for(TURN.pattern)
        found = RANGE.search(turn.group(1))
        assert found, turn.group(0)
        word, low, high = found.group(1), amount(found.group(2)), amount(found.group(3))
        least = "raise to" if word == "raise" else "bet of"
        c.type(f"raise {low - 1}")
        c.wait_for(rf"^{word.capitalize()} {low - 1:,} is below the minimum {least} {low:,}\. Nothing was sent\.$")
        c.type(f"r {min(high, low + 100)}")
        verb = "raise to" if word == "raise" else "bet"
        c.wait_for(rf"^You {verb} {min(high, low + 100):,}\. Pot [\d,]+\.$")
        play_hands(c, 2)
        c.type("quit")
        line = c.wait_for(r"^(Quit in the middle of a hand\? Type yes or no\.|Your seat is kept\..*)$")
        if line.group(0).startswith("Quit"):
            c.type("yes")
            c.wait_for(r"^Your seat is kept\. Come back with: hickory 127\.0\.0\.1:\d+ --name tester --plain$")
        status, errors = c.finish()
        assert status == 0, c.seen[-20:]
        assert errors.strip() == "", errors
    finally:
        c.kill()
    text = "\n".join(c.seen)
    assert re.search(r"^Your cards: \w+ of \w+ and \w+ of \w+\.$", text, re.M), text
    assert re.search(r"^bot-\d (calls|checks|posts)", text, re.M), text

    # The same command again: the saved token puts the player back in the seat.
    again = Piped(client_argv(server), config)
    try:
        again.wait_for(r"^Table 1: .*you [\d,]+")
        play_hands(again, 1)
        again.proc.stdin.close()  # type: ignore[union-attr]  # end of input: the player leaves
        again.wait_for(r"^Input closed: leaving the table\.$")
        status, errors = again.finish()
        assert status == 0 and errors.strip() == "", errors
    finally:
        again.kill()
    assert not any("is taken" in x or "Refused" in x for x in again.seen), again.seen

    # Ctrl-C (SIGINT) leaves at once, without a traceback, and says how to come back.
    third = Piped(client_argv(server), config)
    try:
        third.wait_for(r"^Table 1: .*you [\d,]+")
        third.proc.send_signal(signal.SIGINT)
        third.wait_for(r"^Your seat is kept\. Come back with: ")
        status, errors = third.finish()
        assert status == 0 and errors.strip() == "", errors
    finally:
        third.kill()


def test_plain_mode_refusal_is_said_and_the_exit_status_is_one(server: int, tmp_path: Path) -> None:
    """A join the server refuses: said in words on stdout, exit status 1."""
    config = tmp_path / "config"
    first = Piped(client_argv(server), config)
    try:
        first.wait_for(r"^Welcome to Plain Night")
        other = Piped(client_argv(server)[:-3] + ["--name", "Tester", "--plain"], tmp_path / "other")
        try:
            # The name is taken (or registration closed: the tournament has started).
            line = other.wait_for(r"is taken|not taking new players")
            assert line.string.endswith("."), line.string
            status, _ = other.finish()
            assert status == 1
        finally:
            other.kill()
    finally:
        first.kill()


# -- in a terminal ---------------------------------------------------------------------------


class Terminal:
    """One tmux window on a private tmux server (``-L``: nothing of the user's is touched)."""

    def __init__(self, socket: str) -> None:
        assert TMUX is not None
        self.base = [TMUX, "-L", socket, "-f", "/dev/null"]
        self.tmux("new-session", "-d", "-s", "keep", "-x", "20", "-y", "5", "sleep 3600")
        self.tmux("set-option", "-g", "remain-on-exit", "on")
        self.tmux("set-option", "-g", "history-limit", "20000")

    def tmux(self, *args: str) -> str:
        out = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=10)
        if out.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {out.stderr.strip()}")
        return out.stdout

    def start(self, command: str) -> None:
        self.tmux("new-session", "-d", "-s", "client", "-x", "100", "-y", "30", command)

    def text(self) -> str:
        """Everything the pane printed, the lines that scrolled off included, joined back
        into whole lines (``-J``)."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-20000", "-t", "client")

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", "client", "-l", line)
        self.tmux("send-keys", "-t", "client", "Enter")

    def dead(self) -> tuple[bool, int | None]:
        out = self.tmux("list-panes", "-t", "client", "-F", "#{pane_dead} #{pane_dead_status}").split()
        return out[0] == "1", int(out[1]) if len(out) > 1 and out[1].isdigit() else None

    def wait_for(self, pattern: str, count: int = 1, timeout: float = 60) -> str:
        """Poll until ``pattern`` has been printed ``count`` times; the text."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.text()
            assert "Traceback" not in text, text
            if len(re.findall(pattern, text, re.M)) >= count:
                return text
            time.sleep(POLL)
        raise AssertionError(f"timed out waiting for {pattern!r} x{count}:\n{text[-3000:]}")

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=10)


@pytest.mark.skipif(TMUX is None and not REQUIRED, reason="tmux is not installed (make test installs it as root)")
def test_plain_mode_in_a_terminal_plays_whole_hands(server: int, tmp_path: Path) -> None:
    assert TMUX is not None, "make test needs tmux for the terminal client's tests"
    config, err = tmp_path / "config", tmp_path / "client.err"
    term = Terminal(f"hickory-plain-{os.getpid()}")
    try:
        env = f"XDG_CONFIG_HOME={shlex.quote(str(config))} LANG=C.UTF-8"
        argv = " ".join(shlex.quote(a) for a in client_argv(server))
        term.start(f"cd {shlex.quote(str(ROOT))} && exec env {env} {argv} 2>>{shlex.quote(str(err))}")
        text = term.wait_for(TURN.pattern)
        found = RANGE.search(text)
        assert found, text
        word, low = found.group(1), amount(found.group(2))
        least = "raise to" if word == "raise" else "bet of"
        term.type(f"r {low - 1}")
        term.wait_for(rf"^{word.capitalize()} {low - 1:,} is below the minimum {least} {low:,}\. Nothing was sent\.$")
        # Whole hands: c on every turn until two hands have ended.
        answered = 0
        deadline = time.monotonic() + 180
        while True:
            text = term.text()
            assert "Traceback" not in text, text
            if len(re.findall(r"^Hand \d+ is over\.", text, re.M)) >= 2:
                break
            turns = len(TURN.findall(text))
            if turns > answered:
                term.type("c")
                answered = turns
            assert time.monotonic() < deadline, text[-3000:]
            time.sleep(POLL)
        assert re.search(r"^You (check|call [\d,]+)", text, re.M), text
        term.type("q")
        text = term.wait_for(r"^(Quit in the middle of a hand\? Type yes or no\.|Your seat is kept\.)")
        if "Quit in the middle" in text:
            term.type("yes")
        term.wait_for(r"^Your seat is kept\. Come back with: hickory 127\.0\.0\.1:\d+ --name tester --plain")
        deadline = time.monotonic() + 15
        while not term.dead()[0]:
            assert time.monotonic() < deadline, "the client did not exit after quit"
            time.sleep(POLL)
        status = term.dead()[1]
        assert status in (0, None), term.text()[-2000:]
        errors = err.read_text() if err.exists() else ""
        assert errors.strip() == "", errors
        # Nothing but lines of words: no cursor movement, no screen drawing.
        assert "\u2588" not in term.text() and "\u250c" not in term.text()
    finally:
        term.close()
