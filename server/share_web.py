"""The shared client over HTTP: routes for the clock's port, or a port of their own.

- ``GET /hickory-VERSION-py3-none-any.whl``: the wheel (pip wants a wheel's own file name
  in the URL, so ``/hickory.whl`` redirects there for a browser; pip itself is given the
  full name in every line the server prints);
- ``GET /hickory.pyz``: the zip application;
- ``GET /join``: the page for the room's screen while people sit down (the clock page's
  footer links to it): the join command large with its QR code, the fingerprint, where
  to get the client (``/join.css`` its style);
- ``GET /join.txt``: the lines the host prints (how to get the client, how to join, the
  certificate's fingerprint), with the address this request reached us at;


``serve_share`` runs them alone (``--share-client PORT``), the way ``server/clock/web.py``
runs the clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import trio
from hypercorn.config import Config
from hypercorn.trio.run import worker_serve
from hypercorn.utils import wrap_app
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from server.clock import ClockPortError
from server.clock.web import SECURITY_HEADERS, hypercorn_config
from server.share import JOIN_CSS, ClientShare, JoinInfo, shown_host, wheel_name

if TYPE_CHECKING:
    from server.app import Server

log = logging.getLogger("hickory.share")

__all__ = ["join_source", "serve_share", "share_routes"]

JoinSource = Callable[[str | None, int | None], JoinInfo]
"""(the host name a request used, the port it reached) -> what to tell players."""


def share_routes(share: ClientShare, join: JoinSource) -> list[BaseRoute]:
    async def unavailable() -> Response:
        return PlainTextResponse(f"the client cannot be shared: {share.failed}\n", 503,
                                 headers=SECURITY_HEADERS)

    def download(body: bytes, name: str, kind: str) -> Response:
        return Response(body, media_type=kind, headers={
            "content-disposition": f'attachment; filename="{name}"', "cache-control": "no-cache",
            **SECURITY_HEADERS})

    async def wheel(request: Request) -> Response:
        bundle = await share.bundle()
        return await unavailable() if bundle is None else download(bundle.wheel, wheel_name(), "application/zip")

    async def pyz(request: Request) -> Response:
        bundle = await share.bundle()
        return await unavailable() if bundle is None else download(bundle.pyz, "hickory.pyz", "application/zip")

    async def short_wheel(request: Request) -> Response:
        return RedirectResponse(f"/{wheel_name()}", 302)

    async def text(request: Request) -> Response:
        info = join(request.url.hostname, request.url.port)
        return PlainTextResponse("\n".join(info.lines()) + "\n", headers={"cache-control": "no-store",
                                                                          **SECURITY_HEADERS})

    async def page(request: Request) -> Response:
        info = join(request.url.hostname, request.url.port)
        return Response(info.page(), media_type="text/html; charset=utf-8",
                        headers={"cache-control": "no-store", **SECURITY_HEADERS})

    async def css(request: Request) -> Response:
        return Response(JOIN_CSS, media_type="text/css; charset=utf-8", headers=SECURITY_HEADERS)

    return [
        Route(f"/{wheel_name()}", wheel, methods=["GET"]),
        Route("/hickory.whl", short_wheel, methods=["GET"]),
        Route("/hickory.pyz", pyz, methods=["GET"]),
        Route("/join", page, methods=["GET"]),
        Route("/join.css", css, methods=["GET"]),
        Route("/join.txt", text, methods=["GET"]),
    ]


def join_source(server: Server) -> JoinSource:
    """Join lines for ``server``: its ports and certificate, read at each request, so they
    are the bound ones."""

    def info(asked: str | None, share_port: int | None) -> JoinInfo:
        cert = server.certificate
        return JoinInfo(host=shown_host(server.config.host, asked), port=server.port or 0,
                        tournament=server.tournament.settings.name,
                        share_port=share_port, tls_port=server.tls_port,
                        fingerprint=cert.fingerprint if cert is not None else None,
                        announced=server.announcing)

    return info


async def serve_share(share: ClientShare, join: JoinSource, host: str, port: int, *,
                      task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve the downloads alone until cancelled; ``task_status`` gets the bound port."""
    app = wrap_app(Starlette(routes=share_routes(share, join)), Config.wsgi_max_body_size, "asgi")  # type: ignore[arg-type]
    config = hypercorn_config(host, port)
    try:
        sockets = config.create_sockets()
    except OSError as exc:
        raise ClockPortError(f"cannot share the client on {host}:{port}: {exc.strerror}") from exc
    for sock in sockets.insecure_sockets:
        sock.listen(config.backlog)
    bound = sockets.insecure_sockets[0].getsockname()[1]
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(partial(worker_serve, app, config, sockets=sockets))
            task_status.started(bound)
    except Exception:
        log.exception("sharing the client stopped; the tournament goes on")
