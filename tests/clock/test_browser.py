"""The clock page in a real browser, against a real server with bots.

Headless Chromium (Debian's package, installed by ``make tools``) driven by Playwright
for Python; ``python -m server`` in a subprocess with a database, ten bots at two tables,
levels of two hands per table (levels by time last a minute at least) and the clock on a
port of its own. The page is watched as the room would watch it: the level and blinds,
the hands left counting down, a level change, then 20-minute levels set by the director
and the countdown moving, a pause and a resume, an announcement, a table move, the
standings and tables views, then the server killed with SIGKILL ("server unreachable") and started again on the same
database and port (the page comes back by itself). Screenshots at 1920x1080 and 1280x720
are kept in the test's tmp directory (and copied to ``$HICKORY_SCREENSHOTS`` if set).

Waits are on what the page shows (``wait_for_function``), each bounded; nothing is timed.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import protocol.messages as m
from protocol.codec import decode_server, encode

ROOT = Path(__file__).resolve().parents[2]
SECRET = "clock-test-secret"
CHROMIUM = os.environ.get("HICKORY_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
WAIT = 20_000  # ms: the longest any one thing may take to show (a level is 6 s)
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")

try:
    from playwright.sync_api import Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the test extras install it
    sync_playwright = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or sync_playwright is None,
    reason="NO BROWSER: the clock's browser tests need Debian's chromium (`make tools` as root "
           "installs it) and playwright (`pip install -e '.[test]'`)",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m server`` with bots, restartable on the same database and ports."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.db = tmp / "clock.db"
        self.port_file = tmp / "port"
        self.clock_port = free_port()
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.port_file.unlink(missing_ok=True)
        cmd = [sys.executable, "-m", "server", "--port", str(self.port), "--port-file", str(self.port_file),
               "--db", str(self.db), "--clock-port", str(self.clock_port), "--name", "Clock Night",
               "--bots", "10", "--seats", "6", "--start-at", "10", "--starting-stack", "200000",
               "--hands-per-level", "2", "--hand-pause", "0.5", "--director-secret", SECRET,
               "--no-deadline"]
        with open(self.tmp / "server.log", "ab") as log:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not self.port_file.exists() or not self.port_file.read_text().strip():
            assert self.proc.poll() is None, (self.tmp / "server.log").read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self.port = int(self.port_file.read_text())  # the same port again after a restart

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.clock_port}/"


def director(port: int, request: Any) -> m.ServerMessage:
    """Log in as the director on a fresh connection, send one request, return its answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        lines = s.makefile("rb")
        lines.readline()  # hello
        s.sendall(encode(m.DirectorLogin(version=1, secret=SECRET)) + b"\n")
        s.sendall(encode(request) + b"\n")
        for _ in range(10_000):
            msg = decode_server(lines.readline())
            if isinstance(msg, m.Error):
                raise AssertionError(f"the director's request failed: {msg.message}")
            if getattr(msg, "id", None) == 7 and not isinstance(msg, m.Welcome):
                return msg
    raise AssertionError("no answer to the director")


def command(port: int, cmd: Any) -> None:
    director(port, m.DirectorCommand(id=7, command=cmd))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def shoot(page: Page, tmp: Path, name: str) -> None:
    folder = tmp / "screenshots"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    keep = os.environ.get("HICKORY_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)


def test_the_room_sees_the_tournament_live_through_a_kill_and_a_restart(
        server: ServerProcess, tmp_path: Path) -> None:
    assert sync_playwright is not None and CHROMIUM is not None
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url)
            body = page.locator("body")
            live_and_running = 'body[data-conn="live"][data-phase="running"]'
            page.wait_for_selector(live_and_running, timeout=WAIT)
            assert page.inner_text("#name") == "Clock Night"
            assert re.fullmatch(r"LEVEL \d+", page.inner_text("#level").upper())
            assert re.fullmatch(r"[\d,]+ / [\d,]+", page.inner_text("#blinds"))
            assert re.fullmatch(r"(10|[1-9]) / 10", page.inner_text("#players"))  # left / registered
            assert page.inner_text("#sound") == "Sound: off"  # off unless asked

            # The hands left count down, and the level changes when they run out.
            shown = page.inner_text("#countdown")
            assert re.fullmatch(r"\d+ hands?", shown), shown
            expect(page.locator("#countdown")).not_to_have_text(shown, timeout=WAIT)
            level = int(body.get_attribute("data-level") or 0)
            blinds = page.inner_text("#blinds")
            expect(body).not_to_have_attribute("data-level", str(level), timeout=WAIT)
            assert int(body.get_attribute("data-level") or 0) > level
            assert page.inner_text("#blinds") != blinds

            # Levels of 20 minutes from now on (a director's rule change): the countdown runs.
            command(server.port, m.SetOptionsCommand(level_minutes=20, reason="a normal pace"))
            expect(page.locator("#countdown")).to_have_text(re.compile(r"(20:00|19:[0-5]\d)"), timeout=WAIT)
            shown = page.inner_text("#countdown")
            expect(page.locator("#countdown")).not_to_have_text(shown, timeout=WAIT)

            # The director pauses: PAUSED with the reason, the countdown stands still.
            command(server.port, m.PauseCommand(reason="a ruling at table 2"))
            page.wait_for_selector('body[data-phase="paused"]', timeout=WAIT)
            assert page.inner_text("#level").upper() == "PAUSED"
            assert "a ruling at table 2" in page.inner_text("#notice")
            frozen = page.inner_text("#countdown")
            for _ in range(2):  # two more states from the server
                frames = body.get_attribute("data-frames") or ""
                expect(body).not_to_have_attribute("data-frames", frames, timeout=WAIT)
            assert page.inner_text("#countdown") == frozen
            command(server.port, m.ResumeCommand(reason="ruling made"))
            page.wait_for_selector(live_and_running, timeout=WAIT)
            expect(page.locator("#countdown")).not_to_have_text(frozen, timeout=WAIT)

            # An announcement and a table move reach the screen.
            command(server.port, m.AnnounceCommand(text="Dinner at the bar at nine", reason="info"))
            lobby = director(server.port, m.LobbyRequest(id=7))
            assert isinstance(lobby, m.Lobby)
            mover = next(p for p in lobby.players if p.table == 1 and p.status == "playing")
            command(server.port, m.MovePlayerCommand(player_id=mover.player_id, table=2, reason="balance"))
            expect(page.locator("#announcements")).to_contain_text("Dinner at the bar at nine", timeout=WAIT)
            expect(page.locator("#moves")).to_contain_text(
                f"{mover.name}: table 1 seat {mover.seat} → table 2 seat", timeout=WAIT)
            shoot(page, tmp_path, "clock-1920x1080")
            page.set_viewport_size({"width": 1280, "height": 720})
            shoot(page, tmp_path, "clock-1280x720")

            # The standings and the tables, as a host would open them on a second screen.
            page.goto(server.url + "#standings")
            expect(page.locator("#standings li")).to_have_count(10, timeout=WAIT)
            shoot(page, tmp_path, "standings-1280x720")
            page.goto(server.url + "#tables")
            expect(page.locator(".table-card")).to_have_count(2, timeout=WAIT)
            expect(page.locator(".table-card h2").first).to_contain_text("Hand #", timeout=WAIT)
            stacks = page.inner_text("#tables-grid")
            assert "bot-" in stacks and not CARD.search(stacks)
            shoot(page, tmp_path, "tables-1280x720")
            page.goto(server.url + "#table-2")
            expect(page.locator(".table-card")).to_have_count(1, timeout=WAIT)
            assert page.inner_text(".table-card h2").startswith("Table 2")

            # kill -9: the page says so at once, and keeps saying so.
            page.goto(server.url)
            page.wait_for_selector('body[data-conn="live"]', timeout=WAIT)
            level = int(body.get_attribute("data-level") or 0)
            server.kill()
            page.wait_for_selector('body[data-conn="down"]', timeout=WAIT)
            assert page.is_visible("#unreachable")
            assert "unreachable" in page.inner_text("#unreachable").lower()
            shoot(page, tmp_path, "unreachable-1280x720")

            # The same server again: the page comes back by itself, where the tournament was.
            server.start()
            page.wait_for_selector('body[data-conn="live"]', timeout=WAIT)
            assert not page.is_visible("#unreachable")
            assert int(body.get_attribute("data-level") or 0) >= level  # resumed, not restarted
            assert page.inner_text("#players").endswith("/ 10")
            assert not CARD.search(page.inner_text("body"))
            assert errors == []
        finally:
            browser.close()
    print(f"screenshots: {tmp_path / 'screenshots'}")
