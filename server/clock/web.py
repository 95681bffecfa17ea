"""The clock's web server: a read-only page for the room's screen, on a port of its own.

Hypercorn (its Trio worker) serves a Starlette app in the server's own Trio run, so the
page reads the live tournament with no copy and no thread. What it answers, and nothing
else (unknown paths are 404, other methods 405):

- ``GET /``: the page (``static/index.html``); ``/static/clock.css``, ``/static/clock.js``,
  ``/static/favicon.svg``: its files, shipped inside the package, loaded once at start-up;
- ``GET /events/{clock,standings,tables}``: server-sent events, one JSON state a second
  (``feeds.py`` builds and encodes each once for every open page); ``retry: 2000`` makes
  the browser reconnect by itself when the server restarts;
- ``GET /state/{clock,standings,tables}.json``: the same state once, for scripts.

Everything it can say is built from ``state.py``'s pictures, which carry no card, token or
secret. Bad requests are hypercorn's business (h11 parses, limits header size, closes idle
and half-sent requests after ``keep_alive_timeout``); open event streams are capped.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from importlib import resources
from typing import Any

import trio
from hypercorn.config import Config
from hypercorn.trio.run import worker_serve
from hypercorn.utils import wrap_app
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from server.clock import ClockPortError
from server.clock.feeds import FEEDS, Feeds
from server.house import House

log = logging.getLogger("hickory.clock")

MAX_STREAMS = 500  # open pages at once; past this a page is told to come back (503)
RETRY_MS = 2000  # how soon a browser reconnects a dropped event stream
STATIC = {
    "clock.css": "text/css; charset=utf-8",
    "clock.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
# Nothing from elsewhere: no CDN, no inline script, no framing by another site.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def load_static() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once from the package (name -> (bytes, content type))."""
    folder = resources.files("server.clock") / "static"
    files = {name: (folder.joinpath(name).read_bytes(), kind) for name, kind in STATIC.items()}
    files["index.html"] = (folder.joinpath("index.html").read_bytes(), "text/html; charset=utf-8")
    return files


class EventStream(Response):
    """A ``text/event-stream`` response that follows one feed until the page goes away.

    Each frame is the feed's shared bytes; a page that reads slowly gets the latest frame
    when it is ready again, never a backlog. The stream ends when the client disconnects
    (hypercorn reports ``http.disconnect``) or the server stops.
    """

    media_type = "text/event-stream"

    def __init__(self, feeds: Feeds, feed: str) -> None:
        # Not Response.__init__, which would declare a Content-Length for an empty body.
        self.status_code = 200
        self.background = None
        self.init_headers({"cache-control": "no-store", "x-accel-buffering": "no", **SECURITY_HEADERS})
        self.feeds = feeds
        self.feed = feed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        feeds = self.feeds
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        feeds.streams += 1
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._until_disconnect, receive, nursery.cancel_scope)
                tick = feeds.tick
                first = f"retry: {RETRY_MS}\n\n".encode() + feeds.frame(self.feed)
                await send({"type": "http.response.body", "body": first, "more_body": True})
                while True:
                    tick, frame = await feeds.next_frame(self.feed, tick)
                    await send({"type": "http.response.body", "body": frame, "more_body": True})
        finally:
            feeds.streams -= 1

    @staticmethod
    async def _until_disconnect(receive: Receive, scope: trio.CancelScope) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        scope.cancel()


def build_app(feeds: Feeds, *, max_streams: int = MAX_STREAMS,
              extra_routes: Sequence[BaseRoute] = ()) -> Starlette:
    files = load_static()
    etags = {name: '"' + hashlib.sha256(body).hexdigest()[:16] + '"' for name, (body, _) in files.items()}

    def file_response(name: str) -> Response:
        body, kind = files[name]
        return Response(body, media_type=kind, headers={
            "cache-control": "no-cache", "etag": etags[name], **SECURITY_HEADERS})

    async def page(request: Request) -> Response:
        return file_response("index.html")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            raise HTTPException(404)
        return file_response(name)

    async def events(request: Request) -> Response:
        feed = request.path_params["feed"]
        if feed not in FEEDS:
            raise HTTPException(404)
        if feeds.streams >= max_streams:
            return PlainTextResponse("too many clock pages are open; try again soon\n", 503,
                                     headers={"retry-after": "10"})
        return EventStream(feeds, feed)

    async def state(request: Request) -> Response:
        feed = request.path_params["feed"]
        if feed not in FEEDS:
            raise HTTPException(404)
        body = json.dumps(feeds.state(feed), separators=(",", ":"), ensure_ascii=False).encode()
        return Response(body, media_type="application/json",
                        headers={"cache-control": "no-store", **SECURITY_HEADERS})

    async def error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        text = {404: "not found", 405: "method not allowed"}.get(status, "error")
        return PlainTextResponse(text + "\n", status, headers=SECURITY_HEADERS)

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPException: error, Exception: error}
    return Starlette(
        routes=[
            Route("/", page, methods=["GET"]),
            Route("/static/{name}", static, methods=["GET"]),
            Route("/events/{feed}", events, methods=["GET"]),
            Route("/state/{feed}.json", state, methods=["GET"]),
            *extra_routes,  # the shared client and the join lines (server/share_web.py)
        ],
        exception_handlers=handlers,
    )


def hypercorn_config(host: str, port: int) -> Config:
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    config.accesslog = None
    config.errorlog = log
    config.include_server_header = False
    config.keep_alive_timeout = 5.0  # also closes a request whose headers never finish
    config.h11_max_incomplete_size = 16 * 1024  # headers past this: the connection is closed
    config.graceful_timeout = 1.0
    return config


async def serve_clock(house: House, host: str, port: int, *, max_streams: int = MAX_STREAMS,
                      feeds: Feeds | None = None, extra_routes: Sequence[BaseRoute] = (),
                      task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve the clock page until cancelled; ``task_status`` gets the bound port.

    The port is opened first, so a port in use is the host's error to fix (``ClockPortError``);
    a failure after that is logged and ends only the clock: the tournament goes on. Tests
    pass their own ``feeds`` to look at it and a small ``max_streams``.
    """
    feeds = feeds if feeds is not None else Feeds(house)
    # Starlette and hypercorn each type ASGI in their own words; the protocol is the same.
    app = wrap_app(build_app(feeds, max_streams=max_streams, extra_routes=extra_routes), Config.wsgi_max_body_size, "asgi")  # type: ignore[arg-type]
    config = hypercorn_config(host, port)
    try:
        sockets = config.create_sockets()
    except OSError as exc:
        raise ClockPortError(f"cannot serve the clock on {host}:{port}: {exc.strerror}") from exc
    for sock in sockets.insecure_sockets:
        sock.listen(config.backlog)
    bound = sockets.insecure_sockets[0].getsockname()[1]
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(feeds.run)
            await nursery.start(partial(worker_serve, app, config, sockets=sockets))
            task_status.started(bound)
    except Exception:
        log.exception("the clock page stopped; the tournament goes on")
