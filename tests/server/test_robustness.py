"""What a hostile or broken client can do to the server, over real TCP: each case a test.

The server's own clocks (handshake, line, ping/idle, send timeouts) are under test, so
these run on ``autojump_clock``: a 60 s idle timeout takes no real time.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio

import protocol.messages as m
from server.config import ServerConfig
from server.routes import ROUTES
from tests.server.harness import BotResult, check_call, config, joined, play, running
from tests.server.rawclient import RawClient


async def hello(port: int, **kw: Any) -> RawClient:
    c = await RawClient.connect(port, **kw)
    await c.recv_until(m.Hello)
    return c


async def closing_error(c: RawClient) -> tuple[m.Error, list[m.ServerMessage]]:
    """Read to EOF; the last line must be a fatal error. Returns it and all lines read."""
    msgs = await c.read_to_eof()
    assert msgs, "closed without a word"
    last = msgs[-1]
    assert isinstance(last, m.Error) and last.fatal, last
    return last, msgs


async def still_usable(c: RawClient, rid: int = 77) -> None:
    await c.send(m.Ping(id=rid, nonce="ok"))
    pong = await c.recv_until(m.ServerPong)
    assert (pong.id, pong.nonce) == (rid, "ok")


# -- framing ---------------------------------------------------------------------------


async def test_a_line_over_the_limit_gets_line_too_long_and_is_closed(autojump_clock: object) -> None:
    async with running(config(max_line=1024)) as (_, port):
        c = await hello(port)
        exact = b'{"type":"ping","nonce":"x"' + b" " * (1024 - 27) + b"}"
        assert len(exact) == 1024
        await c.send_raw(exact + b"\n")  # exactly the limit: fine
        assert isinstance(await c.recv(), m.ServerPong)
        await c.send_raw(b"x" * 1025)  # one byte over, no newline yet: refused at once
        error, _ = await closing_error(c)
        assert error.code == "line_too_long" and "1024" in error.message


async def test_a_gigabyte_without_newline_costs_the_server_one_line(autojump_clock: object) -> None:
    async with running(config()) as (server, port):
        c = await hello(port)
        sent = 0
        chunk = b"y" * 65536
        with pytest.raises((trio.BrokenResourceError, trio.ClosedResourceError)):
            while sent < 1 << 30:
                await c.send_raw(chunk)
                sent += len(chunk)
        assert sent < 64 << 20, "the server stopped reading long before a gigabyte"
        with trio.fail_after(5):
            while server.clients:
                await trio.sleep(0.01)


async def test_slow_sender_must_finish_a_started_line_in_time(autojump_clock: object) -> None:
    """Slowloris: one byte a second keeps the socket busy but never finishes the line."""
    async with running(config(line_timeout=5.0, handshake_timeout=100.0)) as (_, port):
        c = await hello(port)
        started = trio.current_time()
        closed_at: list[float] = []

        async def trickle() -> None:
            try:
                for byte in b'{"type":"ping","nonce":"' + b"z" * 50:
                    await c.send_raw(bytes([byte]))
                    await trio.sleep(1)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

        async with trio.open_nursery() as n:
            n.start_soon(trickle)
            error, _ = await closing_error(c)
            closed_at.append(trio.current_time())
            n.cancel_scope.cancel()
        assert error.code == "timeout" and "line" in error.message
        assert closed_at[0] - started == pytest.approx(5.0, abs=0.01)


async def test_whole_lines_slowly_are_fine(autojump_clock: object) -> None:
    async with running(config(line_timeout=5.0, handshake_timeout=100.0)) as (_, port):
        c = await hello(port)
        for i in range(6):  # 6 lines, 4 s apart: no line takes longer than 5 s
            await trio.sleep(4)
            await still_usable(c, i)


# -- handshake and idle ----------------------------------------------------------------


async def test_silent_client_is_closed_after_the_handshake_deadline(autojump_clock: object) -> None:
    async with running(config(handshake_timeout=10.0)) as (_, port):
        c = await hello(port)
        start = trio.current_time()
        await still_usable(c)  # pings are answered but do not count as a handshake
        error, _ = await closing_error(c)
        assert error.code == "timeout" and "handshake" in error.message
        assert trio.current_time() - start == pytest.approx(10.0, abs=0.01)


async def test_a_dead_connection_is_pinged_then_closed(autojump_clock: object) -> None:
    async with running(config(ping_interval=20.0, idle_timeout=60.0)) as (_, port):
        c = await RawClient.connect(port)
        await c.join("quiet")
        start = trio.current_time()
        error, msgs = await closing_error(c)  # reads, but never answers the ping
        pings = [x for x in msgs if isinstance(x, m.ServerPing)]
        assert pings, "pinged before being closed"
        assert error.code == "timeout"
        assert 60.0 <= trio.current_time() - start <= 80.0


async def test_lines_held_by_the_read_budget_do_not_count_as_silence(autojump_clock: object) -> None:
    """A client that sent 30 lines at once, read one a second by its budget, has been
    silent for 30 s when the last is answered, but the server was holding its lines: it
    is neither pinged nor closed for it (the reader's hold moves the deadlines its
    watchdog keeps)."""
    async with running(config(lines_per_second=1.0, line_burst=1, ping_interval=5.0, idle_timeout=5.0,
                              handshake_timeout=100.0)) as (_, port):
        c = await hello(port)
        await c.send_raw(b"".join(b'{"type":"ping","id":%d,"nonce":"held"}\n' % i for i in range(30)))
        start = trio.current_time()
        pongs = [await c.recv_until(m.ServerPong) for _ in range(30)]
        assert [p.id for p in pongs] == list(range(30))
        assert trio.current_time() - start >= 25.0, "read at the budget's pace"
        assert not any(isinstance(x, (m.ServerPing, m.Error)) for x in c.received), c.received
        await still_usable(c)


async def test_a_live_connection_that_answers_pings_stays(autojump_clock: object) -> None:
    async with running(config(ping_interval=20.0, idle_timeout=60.0)) as (server, port):
        c = await RawClient.connect(port)
        await c.join("alive")
        async with trio.open_nursery() as n:
            n.start_soon(c.pump)  # answers every ping
            await trio.sleep(600)
            assert not c.eof and len(server.clients) == 1
            assert sum(isinstance(x, m.ServerPing) for x in c.received) >= 10
            n.cancel_scope.cancel()


# -- limits ----------------------------------------------------------------------------


async def test_past_the_maximum_connections_a_clear_refusal(autojump_clock: object) -> None:
    async with running(config(max_connections=3)) as (server, port):
        held = await joined(port, ["p1", "p2", "p3"])
        extra = await RawClient.connect(port)
        error, msgs = await closing_error(extra)
        assert len(msgs) == 1, "refused before hello"
        assert error.code == "server_full" and "full" in error.message
        # One leaves: there is room again.
        await held[0].aclose()
        while len(server.clients) >= 3:
            await trio.sleep(0.01)
        again = await hello(port)
        await still_usable(again)


async def test_a_connection_still_in_its_handshake_makes_room_for_a_newer_one(autojump_clock: object) -> None:
    """When every connection is taken, the one that has waited longest for its handshake
    is closed (``server_full``) for the newcomer: connections that never handshake cannot
    keep a player who comes back out."""
    async with running(config(max_connections=3)) as (_, port):
        silent = [await hello(port) for _ in range(3)]
        newcomer = await hello(port)
        error, _ = await closing_error(silent[0])
        assert error.code == "server_full" and "room" in error.message
        await newcomer.send(m.Join(version=1, name="late"))
        assert isinstance(await newcomer.recv_until(m.Welcome), m.Welcome)
        await still_usable(silent[1])


@pytest.mark.parametrize("how", ["queue overflow", "send timeout"])
async def test_a_client_that_never_reads_is_closed_and_the_table_plays_on(
    autojump_clock: object, how: str
) -> None:
    """A seated player floods requests and never reads a reply. Its kernel buffers fill,
    then its send queue overflows (or a send times out); it is closed and treated as
    disconnected, and the other players finish hands all along."""
    limits = {"send_queue_bytes": 64 * 1024, "send_timeout": 1000.0} if how == "queue overflow" \
        else {"send_queue_bytes": 64 << 20, "send_timeout": 5.0}
    cfg = config(start_at=3, seats=3, starting_stack=1_000_000, schedule=((100, 200),),
                 level_minutes=600.0, **limits)
    async with running(cfg) as (server, port):
        sink = await RawClient.connect(port, rcvbuf=4096)
        await sink.join("sink")
        bots = await joined(port, ["b1", "b2"])
        sink_client = server.players[str(sink.player_id)].client
        assert sink_client is not None
        conn = sink_client.conn
        ended: list[int] = []
        enough = trio.Event()

        def count(msg: m.ServerMessage) -> None:
            if isinstance(msg, m.HandEnded):
                ended.append(msg.hand_no)
                if len(ended) >= 30:
                    enough.set()

        results = [BotResult(name=b.name or "") for b in bots]
        async with trio.open_nursery() as n:
            for i, (b, r) in enumerate(zip(bots, results, strict=True)):
                n.start_soon(play, b, r, check_call, i, count if i == 0 else None)

            async def flood() -> None:
                try:
                    for _ in range(200):
                        await sink.send_raw(b'{"type":"lobby_request"}\n' * 100)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass

            n.start_soon(flood)
            with trio.fail_after(300):
                await conn.wait_closed()
            hands_when_closed = len(ended)
            await enough.wait()
            n.cancel_scope.cancel()
        assert ("overflow" if how == "queue overflow" else "timed out") in conn.close_reason
        assert server.players[str(sink.player_id)].client is None, "treated as disconnected"
        assert len(ended) - hands_when_closed >= 10, "the table played on"
        # The sink was timed out, folded for and sat out like any disconnected player.
        sink_seat = server.tournament.location(str(sink.player_id))
        assert sink_seat is not None
        bots_seen = bots[0].received
        auto = [a for a in bots_seen if isinstance(a, m.Action) and a.seat == sink_seat.seat]
        assert auto and all(a.automatic for a in auto)


# -- bad input -------------------------------------------------------------------------

JUNK = [
    (b"nonsense", "bad_json"),
    (b"[1,2]", "not_an_object"),
    (b'"just a string"', "not_an_object"),
    (b'{"x":1}', "missing_type"),
    (b'{"type":"nope"}', "unknown_type"),
    (b'{"type":"hello"}', "unknown_type"),
    (b"\xff\xfe{}", "bad_utf8"),
    (b'{"type":"ping","nonce":NaN}', "bad_json"),
    (b"[" * 100 + b"]" * 100, "bad_json"),
    (b'{"type":"ping","nonce":"a","nonce":"b"}', "bad_json"),
    (b'\xef\xbb\xbf{"type":"ping"}', "bad_json"),
    (b'{"type":"act","hand_no":1e400,"action":"fold"}', "bad_json"),
    (b'{"type":"act","hand_no":' + b"9" * 5000 + b',"action":"fold"}', "bad_json"),
    (b'{"type":"act","hand_no":true,"action":"fold"}', "invalid_field"),
    (b'{"type":"act","hand_no":1,"action":"raise"}', "missing_field"),
    (b'{"type":"act","hand_no":1,"action":"raise","amount":-5}', "invalid_field"),
    (b'{"type":"act","hand_no":1,"action":"raise","amount":2.5}', "invalid_field"),
    (b'{"type":"act","hand_no":1,"action":"raise","amount":"300"}', "invalid_field"),
    (b'{"type":"ping","nonce":"\\ud800"}', "bad_json"),
    (b'{"type":"ping","nonce":"a\x00"}', "bad_json"),
    (b'{"type":"ping","extra":1}', "unknown_field"),
    (b'{"type":"join","version":99,"name":"x"}', "unsupported_version"),
    (b'{"type":"act","hand_no":1,"action":"fold"}', "handshake_required"),
    (b'{"type":"chat","scope":"table","text":"hi"}', "handshake_required"),
]


@pytest.mark.parametrize(("line", "code"), JUNK, ids=[f"{i}-{c}" for i, (_, c) in enumerate(JUNK)])
async def test_a_bad_line_gets_an_error_and_the_connection_stays_usable(
    autojump_clock: object, line: bytes, code: str
) -> None:
    async with running(config()) as (_, port):
        c = await hello(port)
        await c.send_raw(line + b"\r\n")
        error = await c.recv()
        assert isinstance(error, m.Error) and error.code == code and not error.fatal, error
        await still_usable(c)


async def test_a_hundred_messages_in_one_packet_each_answered_in_order(autojump_clock: object) -> None:
    async with running(config()) as (_, port):
        c = await hello(port)
        await c.send_raw(b"".join(b'{"type":"ping","id":%d}\n' % i for i in range(100)))
        ids = [(await c.recv_until(m.ServerPong)).id for _ in range(100)]
        assert ids == list(range(100))


async def test_junk_flood_gets_errors_then_too_many_errors_and_close(autojump_clock: object) -> None:
    async with running(config(max_errors=20)) as (_, port):
        other = await RawClient.connect(port)
        await other.join("bystander")
        c = await hello(port)
        await c.send_raw(b"junk\n" * 25)
        error, msgs = await closing_error(c)
        errors = [x for x in msgs if isinstance(x, m.Error)]
        assert [e.code for e in errors] == ["bad_json"] * 20 + ["too_many_errors"]
        assert error.code == "too_many_errors"
        await still_usable(other)


async def test_errors_must_come_in_a_row_to_close(autojump_clock: object) -> None:
    async with running(config(max_errors=20)) as (_, port):
        c = await hello(port)
        for i in range(5):
            await c.send_raw(b"junk\n" * 19)
            await still_usable(c, i)  # a good line in between resets the count


async def test_a_forged_token_is_refused_and_the_connection_can_join(autojump_clock: object) -> None:
    async with running(config()) as (_, port):
        real = await RawClient.connect(port)
        await real.join("owner")
        c = await hello(port)
        forged = "".join(random.Random(3).choice("abcdefghijklmnop") for _ in range(32))
        await c.send(m.Resume(version=1, token=forged))
        error = await c.recv_until(m.Error)
        assert error.code == "bad_token" and not error.fatal
        await c.send(m.Join(version=1, name="honest"))
        welcome = await c.recv_until(m.Welcome)
        assert welcome.name == "honest" and welcome.player_id != real.player_id


async def test_director_commands_need_the_secret(autojump_clock: object) -> None:
    async with running(config()) as (_, port):
        player = await RawClient.connect(port)
        await player.join("sneaky")
        cmd = m.DirectorCommand(id=1, command=m.PauseCommand(reason="I want a break"))
        await player.send(cmd)
        error = await player.recv_until(m.Error)
        assert (error.id, error.code) == (1, "unauthorized")
        spectator = await RawClient.connect(port)
        await spectator.spectate()
        await spectator.send(cmd)
        assert (await spectator.recv_until(m.Error)).code == "unauthorized"
        # A wrong secret is refused too (and slowly); the right one works.
        d = await hello(port)
        await d.send(m.DirectorLogin(version=1, secret="guess"))
        error = await d.recv_until(m.Error)
        assert error.code == "wrong_password" and not error.fatal
        await d.send(m.DirectorLogin(version=1, secret="s3cret"))
        welcome = await d.recv_until(m.Welcome)
        assert welcome.role == "director"
        await d.send(m.DirectorCommand(id=2, command=m.AnnounceCommand(text="hello all", reason="test")))
        ack = await d.recv_until(m.Ack)
        assert ack.id == 2
        said = await player.recv_until(m.Announcement)
        assert said.by == "director"


async def test_a_handler_crash_closes_only_that_connection(
    autojump_clock: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An internal error while handling one client's line is caught for that connection."""
    real_chat = ROUTES[m.Chat]

    async def chat(house: Any, client: Any, msg: m.Chat) -> None:
        if msg.text == "boom":
            raise RuntimeError("injected fault")
        await real_chat(house, client, msg)

    monkeypatch.setitem(ROUTES, m.Chat, chat)
    async with running(config()) as (server, port):
        victim = await RawClient.connect(port)
        await victim.join("victim")
        other = await RawClient.connect(port)
        await other.join("other")
        await victim.send(m.Chat(scope="lobby", text="boom"))
        await victim.read_to_eof()
        await still_usable(other)
        late = await RawClient.connect(port)
        await late.join("late")
        assert {c.player_id for c in server.clients} == {str(other.player_id), str(late.player_id)}


def test_config_defaults_are_bounded() -> None:
    """Every limit the tests above rely on exists with a finite default."""
    c = ServerConfig()
    for name in ("max_line", "handshake_timeout", "line_timeout", "ping_interval", "idle_timeout",
                 "send_queue_bytes", "send_timeout", "max_connections", "max_errors"):
        value = getattr(c, name)
        assert isinstance(value, int | float) and 0 < value < 1e9, name
