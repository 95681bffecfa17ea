"""ClientSession against a scripted fake server: every line the client writes is checked."""

from __future__ import annotations

import contextlib

import pytest
import trio
import trio.testing

from client.model import ConnectionState
from client.session import ClientSession, SessionRefused, choose_version, open_session
from poker.actions import Action
from protocol import messages as m
from protocol.messages import SUPPORTED_VERSIONS

from .fakeserver import HELLO, TOKEN, Peer, fake_server, heads_up_snapshot, welcome, your_turn


async def test_handshake_joins_answers_pings_and_acts(autojump_clock: trio.testing.MockClock) -> None:
    async with fake_server() as (port, peers):

        async def server(task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
            peer = await peers.receive()
            await peer.send(HELLO)
            assert await peer.receive() == m.Join(version=1, name="alice", password="pw")
            await peer.send(welcome())
            await peer.send(heads_up_snapshot())
            await peer.send(your_turn())
            assert await peer.receive() == m.Act(table=1, hand_no=7, action="raise", amount=200)
            await peer.send(m.ServerPing(nonce="n1"))
            assert await peer.receive() == m.Pong(nonce="n1")
            # Idle now: the client pings after ping_interval seconds without sending.
            start = trio.current_time()
            ping = await peer.receive()
            assert isinstance(ping, m.Ping)
            assert trio.current_time() - start == pytest.approx(15, abs=0.1)
            await peer.send(m.ServerPong(nonce=ping.nonce))
            done.set()

        done = trio.Event()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            async with open_session("127.0.0.1", port, name="alice", password="pw") as s:
                assert s.model.connection is ConnectionState.CONNECTED
                assert s.model.me.token == TOKEN
                assert s.model.server == "fake 0.0"
                while s.model.turn is None:
                    await s.wait_changed()
                sent = await s.act(Action.raise_to(200))
                assert sent is not None and sent.amount == 200
                assert s.model.turn is not None and s.model.turn.acted
                await done.wait()
                while s.stats.pongs == 0:
                    await s.wait_changed()
                assert s.stats.last_rtt is not None


async def test_leaving_the_block_says_goodbye(autojump_clock: trio.testing.MockClock) -> None:
    async with fake_server() as (port, peers):
        async with trio.open_nursery() as nursery:
            got: list[m.ClientMessage] = []

            async def server() -> None:
                peer = await peers.receive()
                await peer.send(HELLO)
                await peer.receive()
                await peer.send(welcome())
                got.append(await peer.receive(skip_pings=True))

            nursery.start_soon(server)
            async with open_session("127.0.0.1", port, name="alice") as s:
                pass
        assert got == [m.Goodbye(reason=None)]
        assert s.model.connection is ConnectionState.CLOSED


async def test_no_common_version_is_refused_with_both_lists(autojump_clock: trio.testing.MockClock) -> None:
    async with fake_server() as (port, peers):
        async with trio.open_nursery() as nursery:

            async def server() -> None:
                peer = await peers.receive()
                await peer.send(m.Hello(**{**_fields(HELLO), "versions": (98, 99)}))
                with pytest.raises(EOFError):
                    await peer.receive()

            nursery.start_soon(server)
            with pytest.raises(SessionRefused) as info:
                async with open_session("127.0.0.1", port, name="alice"):
                    pass  # pragma: no cover
        assert "server speaks 98, 99" in info.value.reason
        ours = ", ".join(map(str, SUPPORTED_VERSIONS))
        assert f"client speaks {ours}" in info.value.reason


def test_choose_version_takes_the_highest_common() -> None:
    assert choose_version((1, 2, 3), (1, 2)) == 2
    with pytest.raises(SessionRefused):
        choose_version((4,), (1,))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("wrong_password", "wrong tournament password"),
        ("name_taken", "the name 'alice' is taken"),
        ("invalid_state", "registration is closed: the tournament has started"),
    ],
)
async def test_fatal_handshake_errors_end_refused_without_retrying(
    autojump_clock: trio.testing.MockClock, code: str, message: str
) -> None:
    async with fake_server() as (port, peers):
        connections = 0

        async def server() -> None:
            nonlocal connections
            async for peer in peers:
                connections += 1
                await peer.send(HELLO)
                await peer.receive()
                await peer.send(m.Error(code=code, message=message, fatal=True))
                await peer.close()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            session = ClientSession("127.0.0.1", port, name="alice")
            nursery.start_soon(session.run)
            with pytest.raises(SessionRefused) as info:
                await session.wait_ready()
            await session.wait_done()
            await trio.sleep(60)  # no retry comes
            nursery.cancel_scope.cancel()
        assert info.value.code == code
        assert message in info.value.reason
        assert session.model.connection is ConnectionState.REFUSED
        assert session.model.connection_reason is not None
        assert message in session.model.connection_reason
        assert connections == 1


async def test_reconnects_with_backoff_and_resumes_with_the_token(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with fake_server() as (port, peers):
        resumed = trio.Event()
        states: list[ConnectionState] = []

        async def server() -> None:
            peer = await peers.receive()
            await peer.send(HELLO)
            assert isinstance(await peer.receive(), m.Join)
            await peer.send(welcome())
            await peer.send(heads_up_snapshot())
            await peer.close()  # the network fails
            dropped_at = trio.current_time()
            peer2 = await peers.receive()
            assert trio.current_time() - dropped_at <= 0.25 + 0.01  # the first retry is quick
            await peer2.send(HELLO)
            assert await peer2.receive() == m.Resume(version=1, token=TOKEN)
            await peer2.send(welcome(token=None))
            await peer2.send(heads_up_snapshot())
            await peer2.send(your_turn())
            resumed.set()
            assert isinstance(await peer2.receive(skip_pings=True), m.Act)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            async with open_session(
                "127.0.0.1", port, name="alice",
                on_change=lambda model: states.append(model.connection),
            ) as s:
                await resumed.wait()
                while s.model.turn is None:
                    await s.wait_changed()
                assert s.model.me.token == TOKEN  # kept: the resume's welcome carries none
                assert s.stats.reconnects == 1
                assert s.model.reconnects == 1
                assert s.model.my_cards == ("As", "Kd")
                await s.act(Action.call())
        assert ConnectionState.RECONNECTING in states


async def test_backoff_doubles_up_to_the_cap(autojump_clock: trio.testing.MockClock) -> None:
    # Nothing listens on this port: every attempt fails at once.
    async with fake_server() as (port, _peers):
        pass
    attempts: list[float] = []

    def seen(model: object) -> None:
        if s.stats.reconnects > len(attempts):
            attempts.append(trio.current_time())

    s = ClientSession(
        "127.0.0.1", port, name="alice", backoff_initial=1.0, backoff_max=8.0, on_change=seen
    )
    s.rng.random = lambda: 1.0  # type: ignore[method-assign]  # no jitter
    with trio.move_on_after(40):
        await s.run()
    gaps = [round(b - a, 3) for a, b in zip(attempts, attempts[1:], strict=False)]
    assert gaps[:6] == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert s.model.connection_reason is not None
    assert "cannot connect" in s.model.connection_reason


async def test_seq_gap_asks_for_a_snapshot_and_the_lobby(autojump_clock: trio.testing.MockClock) -> None:
    async with fake_server() as (port, peers):

        async def server() -> None:
            peer = await peers.receive()
            await peer.send(HELLO)
            await peer.receive()
            await peer.send(welcome())
            await peer.send(heads_up_snapshot())
            await peer.send(m.ServerPing(nonce="x"), seq=peer.seq + 2)  # a line went missing
            got = [await peer.receive(skip_pings=True) for _ in range(3)]
            assert got[0] == m.Pong(nonce="x")
            assert {type(g) for g in got[1:]} == {m.LobbyRequest, m.SnapshotRequest}
            snap = next(g for g in got if isinstance(g, m.SnapshotRequest))
            assert snap.table == 1
            await peer.send(m.TableSnapshot(**{**_fields(heads_up_snapshot()), "id": snap.id}))
            done.set()

        done = trio.Event()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            async with open_session("127.0.0.1", port, name="alice") as s:
                await done.wait()
                while s.model.needs_resync or s.model.gaps == 0:
                    await s.wait_changed()
                assert s.model.gaps == 1
                assert s.stats.resyncs == 1


async def test_undecodable_line_is_skipped_and_leaves_a_gap(autojump_clock: trio.testing.MockClock) -> None:
    async with fake_server() as (port, peers):

        async def server() -> None:
            peer = await peers.receive()
            await peer.send(HELLO)
            await peer.receive()
            await peer.send(welcome())
            await peer.stream.send_all(b'{"type":"hand_started","seq":3,"bogus":1}\n')
            peer.seq = 3
            await peer.send(m.ServerPing(nonce="y"))
            assert await peer.receive(skip_pings=True) == m.Pong(nonce="y")
            # Not seated anywhere yet: the lobby is all there is to ask for.
            request = await peer.receive(skip_pings=True)
            assert isinstance(request, m.LobbyRequest)
            await peer.send(LOBBY)
            done.set()

        done = trio.Event()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            async with open_session("127.0.0.1", port, name="alice") as s:
                await done.wait()
                while s.model.lobby is None:
                    await s.wait_changed()
                assert s.stats.bad_lines == 1
                assert s.model.gaps == 1
                assert not s.model.needs_resync


async def test_silent_server_is_dropped_after_the_idle_timeout(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with fake_server() as (port, peers):
        peer_list: list[Peer] = []

        async def server() -> None:
            async for peer in peers:
                peer_list.append(peer)
                await peer.send(HELLO)
                with contextlib.suppress(EOFError):  # the test may end mid-handshake
                    await peer.receive()
                    await peer.send(welcome())
                # Never answers anything again (not even pings).

        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            async with open_session("127.0.0.1", port, name="alice", idle_timeout=40) as s:
                while s.stats.reconnects == 0:
                    await s.wait_changed()
                assert s.model.connection is ConnectionState.RECONNECTING
                assert "nothing heard" in (s.model.connection_reason or "")
                while len(peer_list) < 2:
                    await s.wait_changed()
            nursery.cancel_scope.cancel()


LOBBY = m.Lobby(
    name="Test Night", state="registering", level=None, next_level_in=None,
    next_level_unit="seconds", schedule=(), players=(), tables=(), deadline=None,
)


def _fields(msg: object) -> dict[str, object]:
    import attrs

    return attrs.asdict(msg, recurse=False)  # type: ignore[arg-type]


async def test_skipped_types_are_not_decoded_but_their_seq_counts(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with fake_server() as (port, peers):

        async def server() -> None:
            peer = await peers.receive()
            await peer.send(HELLO)
            await peer.receive()
            await peer.send(welcome())
            await peer.send(LOBBY)
            await peer.send(m.ServerPing(nonce="z"))
            assert await peer.receive(skip_pings=True) == m.Pong(nonce="z")
            done.set()

        done = trio.Event()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            async with open_session(
                "127.0.0.1", port, name="alice", skip_types=frozenset({"lobby"})
            ) as s:
                await done.wait()
                assert s.model.lobby is None
                assert s.model.last_seq == 4 and s.model.gaps == 0
                assert s.stats.bad_lines == 0


async def test_close_cuts_a_reconnect_wait_short(autojump_clock: trio.testing.MockClock) -> None:
    async with fake_server() as (port, _peers):
        pass  # nothing listens there any more
    s = ClientSession("127.0.0.1", port, name="alice", backoff_initial=100, backoff_max=100)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(s.run)
        while s.stats.reconnects == 0:
            await s.wait_changed()
        start = trio.current_time()
        await s.close("bye")
        await s.wait_done()
        assert trio.current_time() - start < 1
    assert s.ended and s.model.connection is ConnectionState.CLOSED


async def test_a_full_server_is_waited_out_with_backoff_and_said_so(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    """``server_full`` (as the first line instead of hello, the way a full server turns a
    connection away) is temporary: the session says so and tries again with backoff."""
    async with fake_server() as (port, peers):
        tries: list[float] = []

        async def server() -> None:
            async for peer in peers:
                tries.append(trio.current_time())
                if len(tries) <= 3:
                    await peer.send(m.Error(code="server_full", message="the server is full (600 connections)",
                                            fatal=True))
                    await peer.close()
                    continue
                await peer.send(HELLO)
                await peer.receive()
                await peer.send(welcome())

        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            states: list[tuple[ConnectionState, str | None]] = []
            session = ClientSession("127.0.0.1", port, name="alice", backoff_initial=1.0,
                                    on_change=lambda mdl: states.append((mdl.connection, mdl.connection_reason)))
            nursery.start_soon(session.run)
            with trio.fail_after(120):
                await session.wait_ready()
            nursery.cancel_scope.cancel()
    assert len(tries) == 4
    gaps = [b - a for a, b in zip(tries, tries[1:], strict=False)]
    assert gaps[0] >= 0.5 and gaps[1] >= 1.0 and gaps[2] >= 2.0, gaps  # backing off
    assert (ConnectionState.RECONNECTING, "the server is full (600 connections) (server_full)") in states
    said = [r.getMessage() for r in caplog.records if r.name == "hickory.session"]
    assert len(said) == 3 and all("server is full" in x and "trying again in" in x for x in said), said
