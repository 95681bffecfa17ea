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

from tests.clock.scenes import SCENES, Scene, held, quiet, restarted
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
            arg=["tables" if view.startswith("table-") else "clock" if view == "rotate" else view, name],
            timeout=WAIT)

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


def rect(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def test_a_phone_held_upright_gets_one_column(screens: Screens) -> None:
    """Item 1: on a phone the countdown block comes first, the figures under it in two
    columns, the news under them; nothing drawn over anything (the layout test)."""
    scene = SCENES["busy"]()
    screens.show(scene)
    page = screens.pages[(390, 844)]
    screens.open(page, scene, "clock")
    center, left, right, news = (rect(page, s) for s in ("#center", "#left", "#right", "#news"))
    assert center["y"] + center["height"] <= min(left["y"], right["y"])
    assert left["x"] + left["width"] <= right["x"]
    assert max(left["y"] + left["height"], right["y"] + right["height"]) <= news["y"]
    assert news["y"] + news["height"] <= rect(page, "#bottom")["y"]


def test_a_new_announcement_is_shown_whole_then_goes_to_its_panel(screens: Screens) -> None:
    """Item 2: a five-line announcement is shown whole over the screen while it is new
    (its type shrunk to fit), and afterwards in two lines of its panel."""
    scene = SCENES["big"]()
    screens.show(scene)
    for page in screens.pages.values():
        screens.open(page, scene, "clock")
        screens.shoot(page, f"big-announcement-{size(page)}")
        assert page.is_visible("#overlay")
        shown = page.inner_text("#overlay-text")
        assert shown.split() == scene.t.audit_log[-1].summary.split()
        box = rect(page, "#overlay-text")
        assert page.evaluate("() => { const e = document.getElementById('overlay-text');"
                             " return e.scrollHeight <= e.clientHeight + 1 }"), size(page)
        vp = page.viewport_size
        assert vp is not None and box["y"] + box["height"] <= vp["height"]
    later = SCENES["busy"]()
    screens.show(later)
    for page in screens.pages.values():
        page.wait_for_function("() => !document.body.classList.contains('announcing')", timeout=WAIT)
        assert "Chip race" in page.inner_text("#announcements")


def test_the_next_break_by_hands_is_said_whole(screens: Screens) -> None:
    """Item 3: levels by hands: "after level 15", "30 min break", nothing cut."""
    scene = SCENES["hands"]()
    screens.show(scene)
    for page in screens.pages.values():
        screens.open(page, scene, "clock")
        assert text(page, "#next-break") == "after level 15"
        assert text(page, "#next-break-sub") == "30 min break"
        for sel in ("#next-break", "#next-break-sub"):
            assert page.evaluate(f"() => {{ const e = document.querySelector('{sel}');"
                                 " return e.scrollWidth <= e.clientWidth + 1 }"), (sel, size(page))


def pages_of(page: Page, selector: str, name: str) -> list[list[str]]:
    """Every page of a paged list, turned with N until the first comes back."""
    seen: list[list[str]] = []
    while True:
        label = page.evaluate(f"() => document.body.dataset.{name}Page || '1/1'")
        here, total = (int(x) for x in label.split("/"))
        assert here == len(seen) + 1, (label, len(seen))
        problems = page.evaluate(LAYOUT_PROBLEMS)
        assert not problems, "\n".join(problems[:20])
        seen.append([x.strip() for x in page.locator(selector).all_inner_texts()])
        if here == total:
            return seen
        page.keyboard.press("n")
        page.wait_for_function(f"() => document.body.dataset.{name}Page === '{here + 1}/{total}'", timeout=WAIT)


def test_a_big_field_is_paged_so_everyone_and_every_table_is_seen(screens: Screens) -> None:
    """Item 4: 60 players and 7 tables: pages of what fits, every one of them on a page,
    each page within the screen (N turns them by hand; they turn by themselves too)."""
    scene = SCENES["big"]()
    screens.show(scene)
    names = sorted(p["name"] for p in scene.state("standings")["standings"])
    for page in screens.pages.values():
        screens.open(page, scene, "standings")
        page.evaluate("() => document.body.classList.remove('announcing')")  # the overlay aside
        shown = pages_of(page, "#standings li .who", "standings")
        assert sorted(n for p in shown for n in p) == names, size(page)
        screens.open(page, scene, "tables")
        cards = pages_of(page, ".table-card h2", "tables")
        numbers = [int(re.match(r"Table (\d+)", c).group(1)) for p in cards for c in p]  # type: ignore[union-attr]
        assert sorted(numbers) == list(range(1, 8)), size(page)
    # And by themselves, every 10 s (a DOM condition, waited for once: the last page of
    # tables turns back to the first).
    page = screens.pages[(1920, 1080)]
    last = page.evaluate("() => document.body.dataset.tablesPage")
    assert last.split("/")[0] == last.split("/")[1] != "1"
    page.wait_for_function("() => document.body.dataset.tablesPage.startsWith('1/')", timeout=WAIT)


def test_the_header_clock_stays_whole_beside_a_long_name_and_says_who_won(screens: Screens) -> None:
    """Item 5: the standings' and tables' header clock is never pushed out or cut by a long
    name or four-digit blinds; after the end it says who won, not the last level."""
    scene = SCENES["busy"]()
    screens.show(scene)
    for page in screens.pages.values():
        for view in ("standings", "tables"):
            screens.open(page, scene, view)
            mini = text(page, "#mini")
            assert re.fullmatch(r"Level 14 · 3,000 / 6,000 ante 6,000 · \d\d:\d\d", mini), mini
            assert page.evaluate("() => { const e = document.getElementById('mini');"
                                 " return e.scrollWidth <= e.clientWidth + 1 }"), (view, size(page))
            vp = page.viewport_size
            box = rect(page, "#mini")
            assert vp is not None and box["x"] + box["width"] <= vp["width"]
    final = SCENES["final"]()
    screens.show(final)
    assert final.t.result is not None and final.t.result.winner is not None
    winner = final.t.name_of(final.t.result.winner)
    for page in screens.pages.values():
        screens.open(page, final, "standings")
        assert text(page, "#mini") == f"{winner} wins"
        assert text(page, "#status").upper() == "FINISHED"


def test_one_table_is_shown_large_and_alone_at_once(screens: Screens) -> None:
    """Item 6: #table-2's type is much larger than #tables', and going from #tables to
    #table-2 never shows the other tables, not even for a second."""
    scene = SCENES["busy"]()
    screens.show(scene)
    page = screens.pages[(1920, 1080)]
    screens.open(page, scene, "tables")
    small = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.table-card td.num')).fontSize)")
    page.evaluate("""() => {
        window.__cards = 0;
        const count = () => {
            if (location.hash === '#table-2')
                window.__cards = Math.max(window.__cards, document.querySelectorAll('.table-card').length);
        };
        new MutationObserver(count).observe(document.getElementById('tables-grid'), {childList: true});
        window.addEventListener('hashchange', () => requestAnimationFrame(count));  // the first frame drawn
        location.hash = '#table-2';
    }""")
    page.wait_for_function("() => document.querySelectorAll('.table-card').length === 1", timeout=WAIT)
    assert page.evaluate("() => window.__cards") == 1
    assert page.evaluate("() => document.querySelector('.table-card').dataset.table") == "2"
    large = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.table-card td.num')).fontSize)")
    assert large >= 1.5 * small, (small, large)
    screens.shoot(page, "busy-table-2-1920x1080")
    assert page.evaluate(LAYOUT_PROBLEMS) == []


def test_a_break_counts_bright_and_says_what_comes_after_it(screens: Screens) -> None:
    """Item 7: a scheduled break's countdown is bright and steady (not the dim fade of a
    frozen clock), the note says it once, the blinds are said to be after the break; the
    director's "dinner break" shows BREAK and the time since it began, counting."""
    scene = SCENES["break"]()
    screens.show(scene)
    page = screens.pages[(1280, 720)]
    screens.open(page, scene, "clock")
    assert text(page, "#level").upper() == "BREAK"
    style = page.evaluate("() => { const cs = getComputedStyle(document.getElementById('countdown'));"
                          " return [cs.animationName, cs.color] }")
    assert style[0] == "none" and style[1] == "rgb(79, 209, 197)", style  # teal, no fade
    assert text(page, "#notice") == "Scheduled break after level 2: play resumes at level 3"
    assert text(page, "#blinds-label").lower() == "level 3 after the break"
    assert text(page, "#blinds") == "75 / 150"
    dinner = SCENES["dinner"]()
    screens.show(dinner)
    screens.open(page, dinner, "clock")
    assert text(page, "#level").upper() == "BREAK"
    assert text(page, "#countdown-sub") == "since the break began"
    first = text(page, "#countdown")
    assert re.fullmatch(r"02:0\d", first), first  # 125 s since the pause
    page.wait_for_function(f"() => document.getElementById('countdown').textContent > '{first}'", timeout=WAIT)
    assert page.evaluate("() => getComputedStyle(document.getElementById('countdown')).animationName") == "none"


def test_levels_by_hands_say_the_hands_on_one_line_for_all_tables(screens: Screens) -> None:
    """Item 8: "12 hands" on one line, centred; under it, that it counts all 3 tables."""
    scene = SCENES["hands"]()
    screens.show(scene)
    for page in screens.pages.values():
        screens.open(page, scene, "clock")
        assert text(page, "#countdown") == "12 hands"
        lines = page.evaluate("() => { const e = document.getElementById('countdown');"
                              " return e.getClientRects().length && e.getBoundingClientRect().height"
                              " / parseFloat(getComputedStyle(e).lineHeight) }")
        assert lines < 1.5, (lines, size(page))
        c, cd = rect(page, "#center"), rect(page, "#countdown")
        assert abs((c["x"] + c["width"] / 2) - (cd["x"] + cd["width"] / 2)) < 2
        assert text(page, "#countdown-sub") == "left in level 14, all 3 tables together"


def test_the_countdown_freezes_on_what_it_showed_when_the_page_goes_offline(screens: Screens) -> None:
    """Item 9: offline, the countdown stays on the second it showed (never one back)."""
    scene = SCENES["start"]()
    scene.now = 1200.0 - 25.9  # 25.9 s left of level 1
    screens.show(scene)
    page = screens.pages[(1280, 720)]
    screens.open(page, scene, "clock")
    page.wait_for_function("() => document.getElementById('countdown').textContent === '00:25'", timeout=WAIT)
    screens.server.go_offline()
    page.wait_for_selector('body[data-conn="down"]', timeout=WAIT)
    frozen = text(page, "#countdown")
    assert frozen in ("00:25", "00:24"), frozen
    ticks = int(page.evaluate("() => document.body.dataset.ticks"))
    page.wait_for_function(f"() => Number(document.body.dataset.ticks) > {ticks + 4}", timeout=WAIT)
    assert text(page, "#countdown") == frozen
    screens.show(scene)  # back: the page carries on by itself
    page.wait_for_selector('body[data-conn="live"]', timeout=WAIT)


def test_after_a_restart_the_moves_panel_says_earlier_moves_were_not_kept(screens: Screens) -> None:
    """Item 10: a clock started on a tournament under way heard no moves: it says so."""
    scene = restarted()
    screens.show(scene)
    for page in screens.pages.values():
        screens.open(page, scene, "clock")
        assert text(page, "#moves") == "No moves since the server restarted (earlier moves were not kept)"
        assert page.evaluate(LAYOUT_PROBLEMS) == []


def test_after_the_end_nobody_is_tagged_away(screens: Screens) -> None:
    """Item 11: the winner whose client went home carries no "away" tag after the end."""
    final = SCENES["final"]()
    screens.show(final)
    page = screens.pages[(1280, 720)]
    screens.open(page, final, "tables")
    assert page.locator(".table-card").count() == 1
    assert page.locator(".tag.away").count() == 0


def test_the_only_table_held_says_held_not_live(screens: Screens) -> None:
    """Item 11: with its only table held by the director, the clock says HELD."""
    scene = held()
    screens.show(scene)
    page = screens.pages[(1280, 720)]
    screens.open(page, scene, "clock")
    assert text(page, "#status").upper() == "HELD"
    assert text(page, "#notice") == "The director holds table 1: no new hand starts"


def test_the_centre_keeps_its_place_whatever_the_news_holds(screens: Screens) -> None:
    """Item 11: no moves or six, the centre block does not move."""
    for page in screens.pages.values():
        calm, busy = quiet(), SCENES["busy"]()  # no news, and six moves
        screens.show(calm)
        screens.open(page, calm, "clock")
        before = rect(page, "#center")
        screens.show(busy)
        screens.open(page, busy, "clock")
        assert rect(page, "#center") == before, size(page)


def test_the_time_played_shows_beside_the_time_of_day(screens: Screens) -> None:
    """Item 11, what other clocks show: the time played so far (pauses not counted)."""
    scene = SCENES["busy"]()
    screens.show(scene)
    page = screens.pages[(1920, 1080)]
    screens.open(page, scene, "clock")
    assert re.fullmatch(r"02:0\d played", text(page, "#elapsed")), text(page, "#elapsed")


def test_the_ante_shows_once_there_is_one(screens: Screens) -> None:
    """Item 11, what other clocks show: the big-blind ante, on a line of its own under the
    blinds and beside the next level's (the big field plays with one; the start has none)."""
    scene = SCENES["busy"]()
    screens.show(scene)
    for page in screens.pages.values():
        screens.open(page, scene, "clock")
        assert text(page, "#blinds") == "3,000 / 6,000"
        assert text(page, "#ante") == "ante 6,000"
        assert text(page, "#next-sub") == "level 15 · ante 8,000"
    start = SCENES["start"]()
    screens.show(start)
    page = screens.pages[(1920, 1080)]
    screens.open(page, start, "clock")
    assert not page.is_visible("#ante") and text(page, "#next-sub") == "level 2"


def test_rotate_turns_through_the_clock_the_standings_and_the_tables(screens: Screens) -> None:
    """Item 11: #rotate shows the clock, every page of standings, every page of tables,
    then the clock again (every 10 s by itself; N here)."""
    scene = SCENES["busy"]()
    screens.show(scene)
    page = screens.pages[(1920, 1080)]
    screens.open(page, scene, "rotate")
    seen = []
    for _ in range(12):
        view = page.evaluate("() => document.body.className.match(/view-(\\w+)/)[1]")
        seen.append(view)
        if len(seen) > 1 and view == "clock":
            break
        page.keyboard.press("n")
        page.wait_for_function("([f]) => document.body.dataset.frames !== f",
                               arg=[page.evaluate("() => document.body.dataset.frames")], timeout=WAIT)
    assert seen[0] == "clock" and seen[-1] == "clock"
    assert "standings" in seen and "tables" in seen
