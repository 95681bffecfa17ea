"""The clock page served from scenes (``scenes.py``), for the layout tests in a browser.

The real web app (``server.clock.web``: the page, its files, the event streams) runs in a
Trio thread beside the test with ``SceneFeeds`` in place of the House's feeds: each tick
draws the scene being shown with ``state.py`` at the tournament time reached, as the
server would. ``show`` puts a new scene on every open page at once; ``go_offline`` ends
every event stream and refuses new ones, as a dead server would look to the page.

``LAYOUT_PROBLEMS`` is the check run in the page: every element that is shown lies inside
the viewport and inside its parent, shows all of its text (nothing cut off or scrolled
away, except an element marked ``clamp`` whose text is shortened by design with the whole
of it elsewhere), and no two boxes side by side overlap.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

import trio

from server.clock.feeds import sse_frame
from server.clock.state import Json
from server.clock.web import serve_clock
from tests.clock.scenes import Scene


class Offline(Exception):
    """The server is gone, as far as the page can tell."""


class SceneFeeds:
    """What ``web.py`` asks of ``Feeds``, from a scene instead of a House."""

    def __init__(self) -> None:
        self.scene: Scene | None = None
        self.shown_at = 0.0
        self.tick = 0
        self.streams = 0
        self.offline = False
        self._ticked = trio.Event()

    def state(self, feed: str) -> Json:
        assert self.scene is not None, "no scene is shown"
        return self.scene.state(feed, trio.current_time() - self.shown_at)

    def frame(self, feed: str) -> bytes:
        if self.offline:
            raise Offline
        return sse_frame(self.state(feed))

    async def next_frame(self, feed: str, after: int) -> tuple[int, bytes]:
        while self.tick <= after:
            await self._ticked.wait()
        return self.tick, self.frame(feed)

    def _bump(self) -> None:
        self.tick += 1
        ticked, self._ticked = self._ticked, trio.Event()
        ticked.set()

    def show(self, scene: Scene) -> None:
        self.scene, self.shown_at, self.offline = scene, trio.current_time(), False
        self._bump()

    def go_offline(self) -> None:
        self.offline = True
        self._bump()

    async def run(self) -> None:
        while True:
            await trio.sleep(1.0)
            self._bump()


class ScreenServer:
    """The clock's web app on 127.0.0.1 (port 0), in a thread of its own."""

    def __init__(self) -> None:
        self.feeds = SceneFeeds()
        self.port = 0
        self._token: trio.lowlevel.TrioToken | None = None
        self._cancel: trio.CancelScope | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="clock-screens", daemon=True)

    def _run(self) -> None:
        try:
            trio.run(self._main)
        except BaseException as exc:  # noqa: B036 - reported to the test thread
            self._failed = exc
            self._ready.set()

    async def _main(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        async with trio.open_nursery() as nursery:
            serve = partial(serve_clock, None, "127.0.0.1", 0, feeds=self.feeds)  # type: ignore[arg-type]
            self.port = await nursery.start(serve)
            self._cancel = nursery.cancel_scope
            self._ready.set()

    def start(self) -> None:
        self._thread.start()
        assert self._ready.wait(30), "the clock's web app did not start"
        assert self._failed is None, repr(self._failed)

    def call(self, fn: Any, *args: Any) -> Any:
        return trio.from_thread.run_sync(fn, *args, trio_token=self._token)

    def show(self, scene: Scene) -> None:
        self.call(self.feeds.show, scene)

    def go_offline(self) -> None:
        self.call(self.feeds.go_offline)

    def stop(self) -> None:
        if self._cancel is not None:
            self.call(self._cancel.cancel)
        self._thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


LAYOUT_PROBLEMS = r"""
() => {
  const W = innerWidth, H = innerHeight, T = 1.5;
  const out = [];
  const name = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.id) return s + "#" + e.id;
    if (typeof e.className === "string" && e.className.trim()) s += "." + e.className.trim().split(/\s+/).join(".");
    const p = e.parentElement;
    return p && p !== document.body ? name(p) + " > " + s : s;
  };
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width < 0.5 || r.height < 0.5) return false;
    const cs = getComputedStyle(e);
    return cs.visibility !== "hidden" && parseFloat(cs.opacity) > 0;
  };
  const box = (r) => `[${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}]`;
  const placed = (e) => ["absolute", "fixed"].includes(getComputedStyle(e).position);
  const all = [document.body, ...document.body.querySelectorAll("*")]
    .filter((e) => !["SCRIPT", "STYLE", "BR"].includes(e.tagName) && shown(e));
  for (const e of all) {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    const what = `${name(e)} "${(e.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40)}" ${box(r)}`;
    if (r.left < -T || r.top < -T || r.right > W + T || r.bottom > H + T) out.push(`${what} leaves the ${W}x${H} viewport`);
    if (cs.display !== "inline" && !e.classList.contains("clamp")) {
      if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + T) out.push(`${what} is cut: ${e.scrollWidth} px wide in ${e.clientWidth}`);
      if (e.clientHeight > 0 && e.scrollHeight > e.clientHeight + T) out.push(`${what} is cut: ${e.scrollHeight} px high in ${e.clientHeight}`);
    }
    const p = e.parentElement;
    if (!placed(e) && p && e !== document.body && p !== document.body) {
      const q = p.getBoundingClientRect();
      if (r.left < q.left - T || r.top < q.top - T || r.right > q.right + T || r.bottom > q.bottom + T)
        out.push(`${what} leaves its parent ${name(p)} ${box(q)}`);
    }
    for (const n of e.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim() || e.classList.contains("clamp")) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const t = range.getBoundingClientRect();
      if (t.left < r.left - T || t.right > r.right + T || t.top < r.top - T || t.bottom > r.bottom + T)
        out.push(`${what}: its text ${box(t)} runs out of it`);
    }
    const kids = [...e.children].filter((k) => shown(k) && !placed(k));
    for (let i = 0; i < kids.length; i++) {
      const a = kids[i].getBoundingClientRect();
      for (let j = i + 1; j < kids.length; j++) {
        const b = kids[j].getBoundingClientRect();
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > T && h > T) out.push(`${name(kids[i])} ${box(a)} and ${name(kids[j])} ${box(b)} overlap`);
      }
    }
  }
  return out;
}
"""
