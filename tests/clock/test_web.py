"""The clock's web server over real TCP, beside a real server with players at a table.

What a page gets (the page, its files, the event streams, the JSON states), that 100 pages
cost one state a second per feed, and the hostile check: nothing the clock port ever sends
carries a card, a token or the director's secret, and bad requests (garbage, huge
headers, half-sent requests, too many streams, unknown paths) get an error or a closed
connection while the page and the game go on.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

import attrs
import trio

import protocol.messages as m
from server.app import Server
from server.clock.feeds import Feeds
from server.clock.web import serve_clock
from server.tournament import Phase
from tests.clock.webclient import WebClient, parse, read_events
from tests.server.harness import BotResult, check_call, config, joined, play, running
from tests.server.rawclient import RawClient

SECRET = "s3cret"  # the harness's director secret
STREAMS = 12  # the test server's cap on open event streams
CARD = re.compile(r'"[2-9TJQKA][cdhs]"')


@attrs.define
class Room:
    server: Server
    game_port: int
    web: WebClient
    feeds: Feeds
    players: list[RawClient]
    holes: list[tuple[str, ...]]
    results: list[BotResult]


@asynccontextmanager
async def room() -> AsyncIterator[Room]:
    """Four players checking and calling at one table, and the clock on port 0."""
    cfg = config(start_at=4, seats=4, starting_stack=10_000, schedule=((10, 20), (20, 40)),
                 level_minutes=600.0, hand_pause=0.2)
    async with running(cfg) as (server, port):
        players = await joined(port, ["ann", "ben", "cat", "dan"])
        while server.tournament.phase is Phase.REGISTERING:  # it starts with the fourth
            await trio.sleep(0.05)
        holes: list[tuple[str, ...]] = []
        results = [BotResult(c.name or "") for c in players]

        def keep(msg: m.ServerMessage) -> None:
            if isinstance(msg, m.HoleCards):
                holes.append(tuple(msg.cards))

        async with trio.open_nursery() as nursery:
            for c, r in zip(players, results, strict=True):
                nursery.start_soon(partial(play, c, r, check_call, on_message=keep))
            feeds = Feeds(server)
            clock_port = await nursery.start(
                partial(serve_clock, server, "127.0.0.1", 0, max_streams=STREAMS, feeds=feeds))
            yield Room(server, port, WebClient(clock_port), feeds, players, holes, results)
            nursery.cancel_scope.cancel()


async def test_the_page_its_files_and_nothing_else() -> None:
    with trio.fail_after(30):
        async with room() as r:
            page = await r.web.get("/")
            assert page.status == 200 and page.headers["content-type"].startswith("text/html")
            assert "default-src 'self'" in page.headers["content-security-policy"]
            html = page.body.decode()
            assert "/static/clock.js" in html and "/static/clock.css" in html
            for name, kind in [("clock.js", "text/javascript"), ("clock.css", "text/css"),
                               ("favicon.svg", "image/svg+xml")]:
                f = await r.web.get(f"/static/{name}")
                assert f.status == 200 and f.headers["content-type"].startswith(kind), name
                assert f.headers["x-content-type-options"] == "nosniff"
                # Nothing from elsewhere: the page works on a LAN with no internet (an SVG
                # namespace is a name, not an address).
                text = f.body.replace(b'xmlns="http://www.w3.org/2000/svg"', b"")
                assert not re.search(rb"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text), name
            assert not re.search(r"https?://", html)
            state = await r.web.get("/state/clock.json")
            assert state.status == 200 and json.loads(state.body)["name"] == r.server.tournament.settings.name
            for path in ["/admin", "/static/../web.py", "/static/%2e%2e/feeds.py", "/static/index.html",
                         "/events/secrets", "/state/house.json", "/static/", "/events/", "/.env",
                         "/" + "a" * 4000]:
                reply = await r.web.get(path)
                assert reply.status == 404, (path, reply.status)
            for method in ["POST", "PUT", "DELETE"]:
                reply = await r.web.get("/", method=method, body=b"x=1")
                assert reply.status == 405, method
            head = await r.web.get("/events/clock", method="HEAD")
            assert head.status == 200 and head.body == b""


async def test_every_open_page_gets_the_same_state_once_a_second() -> None:
    """Five pages on one feed: the states they get are the feed's, built once per tick
    (not per page), and the countdown in them moves."""
    with trio.fail_after(30):
        async with room() as r:
            await r.web.events("clock", 1)  # the feed is running
            ticks, builds = r.feeds.tick, r.feeds.builds
            got: list[list[bytes]] = [[] for _ in range(5)]

            async def page(i: int) -> None:
                got[i] = await r.web.events("clock", 4)

            async with trio.open_nursery() as n:
                for i in range(5):
                    n.start_soon(page, i)
            ticks = r.feeds.tick - ticks
            assert r.feeds.builds - builds <= ticks + 1
            frames = [f for page_frames in got for f in page_frames]
            assert len(set(frames)) <= ticks + 1 < len(frames)
            for page_frames in got:
                states = [json.loads(f) for f in page_frames]
                assert all(s["v"] == 1 and s["phase"] == "running" for s in states)
                left = [s["level"]["seconds_left"] for s in states]
                assert left == sorted(left, reverse=True) and left[0] > left[-1], left


async def test_a_closed_page_stops_costing_anything() -> None:
    with trio.fail_after(30):
        async with room() as r:
            streams = [await r.web.open_events(feed) for feed in ("clock", "standings", "tables")]
            for s in streams:
                (event,) = await read_events(s, 1, r.web.seen)
                assert json.loads(event)
            assert r.feeds.streams == 3
            for s in streams:
                await s.aclose()
            while r.feeds.streams:
                await trio.sleep(0.05)


async def test_nothing_on_the_clock_port_carries_a_card_a_token_or_the_secret() -> None:
    """Every kind of request, good and bad, while a hand is being played and the director
    is logged in; then every byte the clock port sent is scanned."""
    with trio.fail_after(50):
        async with room() as r:
            web = r.web
            director = await RawClient.connect(r.game_port)
            await director.recv_until(m.Hello)
            await director.send(m.DirectorLogin(version=1, secret=SECRET))
            await director.recv_until(m.Welcome)
            await director.send(m.DirectorCommand(id=1, command=m.AnnounceCommand(
                text="Chip race at the break", reason="info")))
            while sum(res.hands for res in r.results) < 8:
                await trio.sleep(0.05)
            hands_before = sum(res.hands for res in r.results)

            async with trio.open_nursery() as n:
                n.start_soon(half_sent_requests_are_closed, web)
                await bad_requests_get_errors(web)
                await too_many_streams_are_refused(web)
                for path in ["/", "/static/clock.js", "/static/clock.css", "/static/favicon.svg",
                             "/state/clock.json", "/state/standings.json", "/state/tables.json",
                             "/nope", "/events/none"]:
                    await web.get(path)
                for feed in ("clock", "standings", "tables"):
                    events = await web.events(feed, 2)
                    for e in events:
                        assert not CARD.search(e.decode()), e[:200]
                    if feed == "clock":
                        assert "Chip race at the break" in events[-1].decode()

            # The page and the game went on through all of it.
            assert (await web.get("/")).status == 200
            while sum(res.hands for res in r.results) < hands_before + 4:
                await trio.sleep(0.05)
            await director.aclose()

            everything = b"".join(web.seen)
            assert len(everything) > 50_000
            tokens = [c.token for c in r.players if c.token]
            assert len(tokens) == 4 and len(r.holes) > 8
            secrets = [SECRET.encode(), *(t.encode() for t in tokens)]
            for secret in secrets:
                assert secret not in everything
            for cards in r.holes:
                for form in ("".join(cards), " ".join(cards), '","'.join(cards)):
                    assert form.encode() not in everything, form
            for body in (parse(x).body for x in web.seen if x.startswith(b"HTTP/1.1 200")):
                assert not CARD.search(body.decode("utf-8", "replace"))


async def bad_requests_get_errors(web: WebClient) -> None:
    """Garbage, huge headers, bad framing, a bad version or method: an error or a close."""
    for raw in [
        b"\x00\xff\xfe garbage \r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(3000)) + b"\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked, zz\r\n\r\n",
        b"GET / HTTP/1.1\r\nNo-Host: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
        b"BREW /coffee HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET /" + b"%" * 5000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ]:
        reply = await web.raw(raw)
        status = parse(reply).status
        assert status == 0 or status >= 400, (raw[:40], reply[:200])


async def half_sent_requests_are_closed(web: WebClient) -> None:
    """A request whose headers never end is dropped (keep-alive timeout), not kept open."""
    streams = []
    for _ in range(5):
        s = await trio.open_tcp_stream("127.0.0.1", web.port)
        await s.send_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        streams.append(s)
    for s in streams:
        while True:
            try:
                chunk = await s.receive_some(65536)
            except trio.BrokenResourceError:
                break
            if not chunk:
                break
            web.seen.append(chunk)
        await s.aclose()


async def too_many_streams_are_refused(web: WebClient) -> None:
    """Past the cap a page is told 503; the open ones keep going; a closed one frees its place."""
    streams = []
    for _ in range(STREAMS):
        s = await web.open_events("clock")
        await read_events(s, 1, web.seen)
        streams.append(s)
    refused = await web.get("/events/clock")
    assert refused.status == 503 and refused.headers.get("retry-after")
    for s in streams[:3]:
        await s.aclose()
    while True:  # the server notices the closed pages, then takes new ones
        s = await web.open_events("clock")
        try:
            with trio.move_on_after(3):
                await read_events(s, 1, web.seen)
                break
        except EOFError:
            pass
        finally:
            await s.aclose()
        await trio.sleep(0.1)
    for s in streams[3:]:
        await read_events(s, 1, web.seen)  # still live
        await s.aclose()
