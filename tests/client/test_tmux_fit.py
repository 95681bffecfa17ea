"""Every prompt, overlay and console view in a real terminal at 80x24 and 100x30 (issue 25).

A real server with calling-station bots, a player's terminal and the director's, each in
tmux. On the player's turns the test opens every overlay (history, lobby, rules, help)
and checks that "Your turn", the action keys and the clock are still on screen; opens the
raise box, types an amount that is not one, asks to go all in, asks to quit, presses k on
its own turn and calls the floor. The director types a void, an unknown command and a
command naming nobody, cycles the side panel's tabs, opens the lobby (and scrolls it to
its last player), the help and the rules, and announces.

Each message is checked word for word on the screen (``shows_whole``: wrapped lines read
as one), so a message cut at the edge or mid-word fails, and each prompt's answer keys
("y sends, n cancels", "y yes, n no", "Esc cancels") must be there with it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.tui.director import COMMAND_HELP
from tests.client.test_tmux import POLL, ROOT, TMUX, pytestmark  # noqa: F401  (skips without tmux)
from tests.client.test_tour import Window

SECRET = "fit-secret-1"
QUIT_MID_HAND = ("You are in a hand: it plays on without you (the server checks, or folds, when your "
                 "clock runs out) and your seat is kept; start hickory again to come back. Quit now")
BOTS = 11  # twelve players with the tester: two tables, a lobby longer than 80x24 shows


def shows_whole(screen: str, message: str) -> bool:
    """``message`` is on the screen word for word, wrapped lines read as one."""
    pattern = r"\s+".join(re.escape(w) for w in message.split())
    return re.search(pattern, screen) is not None


def wait_whole(win: Window, message: str, timeout: float = 20.0) -> str:
    """The first screen showing ``message`` whole (see ``shows_whole``)."""
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = win.screen()
        assert "Traceback" not in screen, screen
        if shows_whole(screen, message):
            return screen
        time.sleep(POLL)
    raise AssertionError(f"{win.name}: {message!r} is not whole on screen:\n{screen}")


def last_line(screen: str) -> str:
    return screen.rstrip("\n").split("\n")[-1].rstrip()


@pytest.fixture
def fit_server(tmp_path: Path) -> Iterator[int]:
    port_file, log = tmp_path / "port", tmp_path / "server.log"
    cmd = [
        sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0",
        "--port-file", str(port_file), "--db", str(tmp_path / "t.db"),
        "--bots", str(BOTS), "--bot-strategy", "calling-station", "--start-at", str(BOTS + 1),
        "--no-deadline", "--action-clock", "300", "--hand-pause", "1", "--seats", "6",
        "--schedule", "50/100,100/200,200/400,300/600,400/800,600/1200,800/1600,1000/2000",
        "--director-secret", SECRET, "--name", "Fit Night",
    ]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip().isdigit()):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "server did not listen within 30 s"
            time.sleep(POLL)
        yield int(port_file.read_text())
        assert proc.poll() is None and "Traceback" not in log.read_text(), log.read_text()
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def my_turn(player: Window) -> str:
    """Wait for the player's turn with no overlay or box open; the screen."""
    return player.wait_for("Your turn", re.compile(r"\bc (?:check|call)"), timeout=120)


def check_overlays_keep_my_turn(player: Window) -> None:
    for key, shows in (("h", re.compile(r"finished hands|Hand #\d+ · table")), ("l", "Players ("),
                       ("u", "Rules in force"), ("?", "When it is your turn"),
                       ("i", re.compile(r"Statistics · table|no hand seen whole"))):
        player.keys(key)
        screen = player.wait_for(shows, "Your turn", re.compile(r"(?:Clock|Time bank) \S* ?\d+:\d\d"))
        assert re.search(r"\bc (?:check|call)", screen), screen
        player.save(f"overlay-{key if key != '?' else 'help'}", screen)
        player.keys("Escape")
        player.wait_for(lambda_not(shows))


def lambda_not(what: str | re.Pattern[str]) -> re.Pattern[str]:
    """A pattern matching any screen that does not show ``what``."""
    text = what.pattern if isinstance(what, re.Pattern) else re.escape(what)
    return re.compile(rf"\A(?![\s\S]*(?:{text}))")


def check_raise_box(player: Window) -> None:
    player.keys("r")
    screen = player.wait_for("Enter sends")
    found = re.search(r"min ([\d,]+) · Enter sends", screen)
    assert found, screen
    low = found.group(1)
    wait_whole(player, f"min {low} · Enter sends · Tab: min, half pot, pot, all in · Esc cancels")
    player.keys("C-u")
    player.keys("abc", literal=True)
    player.keys("Enter")
    screen = wait_whole(player, f"'abc' is not an amount: type whole chips, e.g. {low.replace(',', '')}")
    assert re.match(r"(?:Raise to|Bet) \([\d,]+-[\d,]+\).*: abc$", last_line(screen)), screen
    player.save("raise-refused", screen)
    player.keys("Escape")
    player.wait_for(lambda_not("Enter sends"))


def check_confirmations(player: Window) -> None:
    player.keys("m")
    screen = player.wait_for(re.compile(r"All in for [\d,]+\?"))
    assert re.search(r"All in for [\d,]+\? y yes, n no", screen), screen
    player.keys("n")
    player.keys("q")
    screen = wait_whole(player, f"{QUIT_MID_HAND}? y yes, n no")
    player.save("confirm-quit", screen)
    player.keys("n")
    player.keys("k")
    wait_whole(player, "it is your turn now:")
    screen = player.wait_for("(k and K queue a choice before your turn)")
    assert shows_whole(screen, "(k and K queue a choice before your turn)"), screen


@pytest.mark.parametrize(("width", "height"), [(80, 24), (100, 30)])
def test_every_prompt_overlay_and_console_view_fits(fit_server: int, tmp_path: Path, width: int,
                                                    height: int) -> None:
    port = fit_server
    keep = tmp_path / "screens"
    keep.mkdir()
    socket = f"hickory-fit-{os.getpid()}-{width}"
    client = [sys.executable, "-m", "client.cli", f"127.0.0.1:{port}"]
    director, player = (Window(socket, n, width, height, keep) for n in ("director", "player"))
    configs = {n: tmp_path / n for n in ("director", "player")}
    for c in configs.values():
        c.mkdir()
    try:
        director.start([*client, "--director", SECRET], configs["director"])
        director.wait_for("DIRECTOR")
        # The twelfth player starts the tournament.
        player.start([*client, "--name", "tester"], configs["player"])

        # ---- the player: every overlay over my turn, the raise box, each confirmation ----
        my_turn(player)
        check_overlays_keep_my_turn(player)
        my_turn(player)
        check_raise_box(player)
        my_turn(player)
        check_confirmations(player)

        # ---- the director's console -----------------------------------------------------
        director.keys(":")
        director.keys("void 1 cards exposed in the deal by a tired dealer", literal=True)
        director.keys("Enter")
        screen = wait_whole(director, "VOID the hand in play at table 1, every bet back "
                            "(reason: cards exposed in the deal by a tired dealer)? y sends, n cancels")
        director.save("confirm-void", screen)
        director.keys("n")
        director.wait_for("cancelled")

        director.keys(":")
        director.keys("frobnicate now", literal=True)
        director.keys("Enter")
        screen = wait_whole(director, "unknown command 'frobnicate': one of start, pause, resume, level, "
                            "schedule, options, deadline, break, move, remove, chips, announce, rule, void, "
                            "late, award, reveal, help")
        assert last_line(screen) == "director> frobnicate now", screen
        director.save("unknown-command", screen)
        director.keys("C-u")
        director.keys("chips carol lots miscount", literal=True)
        director.keys("Enter")
        screen = wait_whole(director, "no player named 'carol' (use the name shown in the lobby, or the id)")
        assert last_line(screen) == "director> chips carol lots miscount", screen
        # Tab on an empty line lists every command: all of them, on lines kept for them.
        director.keys("C-u")
        director.keys("Tab")
        screen = wait_whole(director, " ".join([*COMMAND_HELP, "help"]))
        assert last_line(screen) == "director>", screen
        director.save("command-list", screen)
        director.keys("Escape")
        director.wait_for(": command")

        # The side panel's tabs are whole words; Tab moves the reverse-video mark.
        screen = director.screen()
        tabs = screen.split("\n")[2]
        for word in ("Log", "Chat", "Calls 0"):
            assert re.search(rf"(?<!\w){re.escape(word)}(?!\w)", tabs), tabs
        assert re.search(r"Standings|Places|Ranks", tabs), tabs

        # The console's views: the lobby (scrolled to its last player), help, rules.
        director.keys("l")
        screen = director.wait_for("Players (", "Esc or l closes")
        director.save("lobby", screen)
        if width == 80:  # twelve players do not fit at 80x24: it scrolls to the last
            assert "Up/Down" in screen, screen
            director.keys(*["Down"] * 30)
            screen = director.wait_for(re.compile(rf"players \d+-{BOTS + 1} of {BOTS + 1}"))
            director.save("lobby-scrolled", screen)
        director.keys("Escape")
        director.keys("?")
        screen = director.wait_for("Director commands", "Esc or ? closes")
        director.keys("Escape")
        director.keys("u")
        screen = director.wait_for("Rules in force", "Blinds", "Esc or u closes")
        assert shows_whole(screen, "1: 50/100 20 min (now)"), screen
        assert shows_whole(screen, "8: 1,000/2,000 20 min"), screen
        director.save("rules", screen)
        director.keys("Escape")

        # An announcement reaches the player's bottom line whole.
        text = "Dinner is served in the back room at nine, the tournament pauses after level four"
        director.keys(":")
        director.keys(f"announce {text}", literal=True)
        director.keys("Enter")
        wait_whole(director, f"announce '{text}'? y sends, n cancels")
        director.keys("y")
        screen = wait_whole(player, f"director: {text}")
        player.save("announcement", screen)

        # The floor call reaches the director whole, with how to answer it.
        player.keys("t")
        player.keys("/director the dealer skipped me", literal=True)
        player.keys("Enter")
        screen = wait_whole(director, "calls the director: the dealer skipped me (call 1: Tab shows "
                            "the calls, rule 1 ... answers)")
        director.save("floor-call", screen)
        for win in (director, player):
            assert not win.dead(), win.screen()
    finally:
        subprocess.run([TMUX or "tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10)
