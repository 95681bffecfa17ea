"""The room's screen laid out in a real browser at a TV's, a projector's and a phone's size.

Headless Chromium (Debian's package) through Playwright, one browser and one page per
screen size: 1920x1080, 1280x720 and a phone held upright, 390x844. The page is served
by the real web app from scenes built with the pure tournament (``scenes.py``,
``screens.py``): the start, a scheduled break, a director's dinner break, levels by hands,
60 players at 7 tables, the end. Every view of every scene at every size is checked
through the DOM (``getBoundingClientRect``): nothing leaves the screen or its box, no
text is cut, no two boxes overlap. Screenshots are kept in the run's tmp directory (and
copied to ``$HICKORY_SCREENSHOTS`` if set; docs/images holds the best of them).

Waits are on what the page shows, each bounded; nothing is timed.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from tests.clock.scenes import SCENES, Scene
from tests.clock.screens import LAYOUT_PROBLEMS, ScreenServer
from tests.clock.test_browser import CHROMIUM

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # pragma: no cover - the test extras install it
    sync_playwright = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or sync_playwright is None,
    reason="NO BROWSER: the clock's browser tests need Debian's chromium (`make tools` as root "
           "installs it) and playwright (`pip install -e '.[test]'`)",
)

WAIT = 15_000  # ms: the longest any one thing may take to show
SIZES = ((1920, 1080), (1280, 720), (390, 844))
VIEWS = ("clock", "standings", "tables")


@attrs.define
class Screens:
    server: ScreenServer
    browser: Browser
    pages: dict[tuple[int, int], Page]
    shots: Path
    errors: list[str]

    def show(self, scene: Scene) -> None:
        self.server.show(scene)

    def open(self, page: Page, scene: Scene, view: str) -> None:
        """``view`` of ``scene`` on ``page``, once the page has drawn that feed of it."""
        page.goto(self.server.url + ("" if view == "clock" else f"#{view}"))
        name = scene.t.settings.name
        page.wait_for_function(
            "([feed, name]) => document.body.dataset.feed === feed && document.body.dataset.conn === 'live'"
            " && document.getElementById('name').textContent === name",
            arg=[view.split("-")[0] if not view.startswith("table-") else "tables", name], timeout=WAIT)

    def shoot(self, page: Page, name: str) -> Path:
        path = self.shots / f"{name}.png"
        page.screenshot(path=str(path))
        keep = os.environ.get("HICKORY_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(keep) / path.name)
        return path


@pytest.fixture(scope="module")
def screens(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Screens]:
    assert sync_playwright is not None and CHROMIUM is not None
    server = ScreenServer()
    server.start()
    shots = tmp_path_factory.mktemp("screens")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM,
                                         args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            errors: list[str] = []
            pages = {}
            for w, h in SIZES:
                page = browser.new_page(viewport={"width": w, "height": h},
                                        device_scale_factor=1, is_mobile=w < 600, has_touch=w < 600)
                page.on("pageerror", lambda e: errors.append(str(e)))
                pages[(w, h)] = page
            try:
                yield Screens(server, browser, pages, shots, errors)
            finally:
                browser.close()
    finally:
        server.stop()
        print(f"screenshots: {shots}")


def size(page: Page) -> str:
    vp = page.viewport_size
    assert vp is not None
    return f"{vp['width']}x{vp['height']}"


@pytest.mark.parametrize("scene_name", list(SCENES))
def test_every_view_of_the_scene_fits_every_screen(screens: Screens, scene_name: str) -> None:
    """Item 1 (the phone), 2 (the news), 3 (next break), 4 (big fields), 5 (the header's
    clock), 8 (hands): whatever the scene, nothing is cut, off the screen or overlapping."""
    scene = SCENES[scene_name]()
    screens.show(scene)
    problems: list[str] = []
    for page in screens.pages.values():
        for view in VIEWS:
            screens.open(page, scene, view)
            screens.shoot(page, f"{scene_name}-{view}-{size(page)}")
            problems += [f"{view} at {size(page)}: {p}" for p in page.evaluate(LAYOUT_PROBLEMS)]
    assert not problems, "\n".join(problems[:60]) + f"\n({len(problems)} problems)"
    assert screens.errors == []


def text(page: Page, selector: str) -> str:
    return re.sub(r"\s+", " ", page.inner_text(selector)).strip()
