"""Issue 27 parts 3-5 end to end: a real server with bots, the terminal client in a real
terminal (tmux) playing by keys; its own PokerStars file read by the independent parser
against the server's record, the statistics overlay (i), and the replayer (h, Enter,
Left/Right) for the player and for a spectator."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.reports import hand_info, open_readonly, read_hands, read_meta
from tests.client.test_tmux import POLL, ROOT, TMUX, Terminal, client_command
from tests.engine.pokerstars_referee import Expected, check_file

pytestmark = pytest.mark.skipif(TMUX is None and os.environ.get("HICKORY_REQUIRE_TMUX") != "1",
                                reason="tmux is not installed")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    port_file, log_path, db = tmp_path / "port", tmp_path / "server.log", tmp_path / "t.db"
    cmd = [
        sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0",
        "--port-file", str(port_file), "--db", str(db), "--bots", "3",
        "--bot-strategy", "calling-station", "--start-at", "4", "--no-deadline",
        "--action-clock", "60", "--name", "Replay Night", "--director-secret", SECRET,
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
        yield int(port_file.read_text()), db
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


SECRET = "replay-secret-1"


def _hands_in(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("PokerStars Hand #") if path.exists() else 0


def test_play_then_read_my_hand_file_see_the_statistics_and_replay_a_hand(
        server: tuple[int, Path], tmp_path: Path) -> None:
    port, db = server
    config, err = tmp_path / "config", tmp_path / "client.err"
    player = Terminal(f"hickory-hands-{os.getpid()}", 120, 40)
    watcher = Terminal(f"hickory-watch-{os.getpid()}", 120, 40)
    try:
        player.start(client_command(port, config, err))
        hands_file = config / "hickory" / "hands" / f"127.0.0.1_{port}_tester.txt"
        # Play by keys (check or call on every turn) until the client has written 3 hands.
        deadline = time.monotonic() + 180
        while _hands_in(hands_file) < 3:
            assert time.monotonic() < deadline, player.screen()
            screen = player.screen()
            assert "Traceback" not in screen, screen
            if "Your turn" in screen:
                player.keys("c")
                time.sleep(0.3)
            time.sleep(POLL)

        # The client's own file, read by pokerdf, agrees with the server's record.
        text = hands_file.read_text(encoding="utf-8")
        number = int(re.search(r"Tournament #(\d+),", text).group(1))  # type: ignore[union-attr]
        written = [int(n) % 1_000_000 for n in re.findall(r"^PokerStars Hand #(\d+):", text, re.MULTILINE)]
        conn = open_readonly(db)
        try:
            meta = read_meta(conn)
            stored = {h.hand_no: h for h in read_hands(conn)}
        finally:
            conn.close()
        expected = [Expected(events=stored[n].parsed(), info=hand_info(stored[n], meta),
                             viewer=stored[n].seat_of("tester")) for n in written]
        assert check_file(text, expected, number) == sum(len(e.events[0].stacks) for e in expected)  # type: ignore[union-attr]
        assert "Dealt to tester [" in text and "*** SUMMARY ***" in text

        # Statistics of the table (i), then Esc.
        player.keys("i")
        screen = player.wait_for("Statistics · table 1")
        assert "VPIP" in screen and "W$SD" in screen and "tester" in screen
        player.keys("Escape")
        player.wait_for(lambda s: "Statistics · table" not in s)

        # The history (h), Enter replays the hand shown, Left/Right step, Esc goes back.
        player.keys("h")
        player.wait_for("Enter replays")
        player.keys("Enter")
        screen = player.wait_for("Replay · hand #")
        assert "step 1 of" in screen and "Blinds posted" in screen and "posts the big blind" in screen
        player.keys("Right")
        screen = player.wait_for("step 2 of")
        assert "Before the flop" in screen and "Pot:" in screen and "Stack" in screen
        steps = int(re.search(r"step 2 of (\d+)", screen).group(1))  # type: ignore[union-attr]
        for _ in range(steps):
            player.keys("Right")
        screen = player.wait_for(f"step {steps} of {steps}")
        assert "wins" in screen
        player.keys("Left")
        player.wait_for(f"step {steps - 1} of {steps}")
        player.keys("Escape")
        screen = player.wait_for("Enter replays")
        assert "Replay · hand" not in screen

        # A spectator replays the table's hands the same way.
        watch = [sys.executable, "-m", "client.cli", f"127.0.0.1:{port}", "--spectate", "1"]
        env = f"XDG_CONFIG_HOME={shlex.quote(str(tmp_path / 'watcher'))} LANG=C.UTF-8"
        watcher.start(f"cd {shlex.quote(str(ROOT))} && exec env {env} "
                      f"{' '.join(shlex.quote(a) for a in watch)} 2>>{shlex.quote(str(tmp_path / 'w.err'))}")
        watcher.wait_for("Table 1", timeout=30)
        watcher.keys("h")
        watcher.wait_for("Enter replays", timeout=30)
        watcher.keys("Enter")
        watcher.wait_for("Replay · hand #")
        for _ in range(8):
            watcher.keys("Right")
        screen = watcher.wait_for(lambda s: re.search(r"step (\d+) of \1", s) is not None)
        assert "wins" in screen

        # And the director, watching the table.
        director = [sys.executable, "-m", "client.cli", f"127.0.0.1:{port}", "--director", SECRET]
        env = f"XDG_CONFIG_HOME={shlex.quote(str(tmp_path / 'director'))} LANG=C.UTF-8"
        watcher.respawn(f"cd {shlex.quote(str(ROOT))} && exec env {env} "
                        f"{' '.join(shlex.quote(a) for a in director)} 2>>{shlex.quote(str(tmp_path / 'd.err'))}")
        watcher.wait_for("DIRECTOR", timeout=30)
        watcher.keys("]")  # watch the table
        watcher.wait_for("Table 1 ·", timeout=30)
        watcher.keys("h")
        watcher.wait_for("Enter replays", timeout=30)
        watcher.keys("Enter")
        screen = watcher.wait_for("Replay · hand #")
        watcher.keys("Right")
        screen = watcher.wait_for("step 2 of")
        assert "Before the flop" in screen
        # Its statistics fill in as hands end at the table it watches (the player plays on).
        watcher.keys("i")
        deadline = time.monotonic() + 120
        while "Statistics · table 1" not in watcher.screen():
            assert time.monotonic() < deadline, watcher.screen()
            if "Your turn" in player.screen():
                player.keys("c")
                time.sleep(0.3)
            time.sleep(POLL)
        assert "VPIP" in watcher.screen()
        player.keys("q")
    finally:
        player.close()
        watcher.close()
