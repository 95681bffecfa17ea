"""A client's connection to a Hickory server, kept alive: the Trio shell around the model.

``ClientSession`` connects over TCP, negotiates the protocol version from the server's
``hello``, opens the session (``join`` with a name, ``resume`` with a token, ``spectate``
or ``director``), then feeds every line it reads into its ``ClientModel``. It answers the
server's pings, pings when it has sent nothing for a while, asks for a snapshot when a
``seq`` gap shows a lost line, and when the connection drops it reconnects with
exponential backoff (capped, with jitter) and resumes the same seat with the token the
first ``welcome`` gave. Refusals a retry cannot fix (wrong password, name taken, no common
protocol version, bad token, registration closed) end the session in the ``refused`` state
with the server's own message; a full server (``server_full``) or a rate limit is
temporary: the session says so (``model.connection_reason``, and a log warning) and tries
again with the same backoff.

Used the same way by the terminal client and the bots::

    async with open_session("localhost", 7777, name="alice") as s:
        while s.model.finished is None and not s.ended:
            seen = s.model.changes
            turn = s.model.turn
            if turn is not None and not turn.acted:
                await s.act(turn.legal.timeout_action())  # check if free, else fold
            await s.wait_changed(seen)

Sends go through a bounded queue and a writer task that merges what is queued into one
``send_all``; ``send_nowait`` never blocks, so a key handler or a callback may call it.
"""

from __future__ import annotations

import logging
import random
import re
import secrets
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial

import attrs
import trio

from client.model import ClientModel, ConnectionState, action_to_act
from client.pinning import CertificateRefused, TlsTrust, client_context
from poker.actions import Action
from protocol import errors as E
from protocol import messages as m
from protocol.codec import decode_server, encode
from protocol.errors import ProtocolError
from protocol.framing import MAX_SERVER_LINE, LineBuffer
from protocol.messages import PROTOCOL_NAME, SUPPORTED_VERSIONS

__all__ = [
    "ClientSession",
    "SessionClosed",
    "SessionRefused",
    "SessionStats",
    "choose_version",
    "open_session",
]

FATAL_CODES = frozenset(
    {
        E.UNSUPPORTED_VERSION,
        E.UNAUTHORIZED,
        E.BAD_TOKEN,
        E.NAME_TAKEN,
        E.WRONG_PASSWORD,
        E.ALREADY_JOINED,
        E.HANDSHAKE_REQUIRED,
    }
)
"""Error codes after which reconnecting cannot help: the session ends as refused."""

_RETRY_CODES = frozenset({E.RATE_LIMITED, E.INTERNAL, E.SERVER_FULL})
"""Error codes in reply to the handshake that are worth another try later (a full server
has room again when someone leaves; a rate limit passes); any other refusal of the
handshake (including a name the server finds invalid, or a tournament that is full or
has started: ``invalid_state``) is final."""

_RECEIVE_SIZE = 65536

log = logging.getLogger("hickory.session")


class SessionRefused(Exception):
    """The server refused the session for good; ``reason`` is its message, for a person."""

    def __init__(self, reason: str, code: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class SessionClosed(Exception):
    """The session ended (closed, or reconnecting switched off) before it was ready."""


def choose_version(offered: tuple[int, ...], supported: tuple[int, ...] = SUPPORTED_VERSIONS) -> int:
    """The highest protocol version both sides speak, or SessionRefused saying which they speak."""
    common = set(offered) & set(supported)
    if not common:
        theirs = ", ".join(map(str, sorted(offered))) or "none"
        ours = ", ".join(map(str, sorted(supported)))
        raise SessionRefused(
            f"no common protocol version: the server speaks {theirs}, this client speaks {ours}",
            E.UNSUPPORTED_VERSION,
        )
    return max(common)


@attrs.define
class SessionStats:
    """Counters for the load tool and for people debugging a connection."""

    connects: int = 0
    reconnects: int = 0
    messages: int = 0
    bad_lines: int = 0
    errors: int = 0
    sent: int = 0
    dropped_sends: int = 0
    pings_sent: int = 0
    pongs: int = 0
    last_rtt: float | None = None
    resyncs: int = 0


class _Drop(Exception):
    """This connection is finished; ``reason`` says why (the session may reconnect)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_SEQ_AT_END = re.compile(rb',"seq":(\d+)}$')


class _Reader:
    """Lines from a stream, decoded; undecodable lines are counted and skipped.

    A skipped line leaves a hole in ``seq`` that the model notices, so the session asks
    for a snapshot instead of trusting a state that missed something. Lines whose type is
    in ``skip`` are not decoded at all (a bot has no use for a 200-player lobby on every
    hand's end); only their ``seq`` is read, from the end of the line where the server
    puts it, and counted through ``on_skip``.
    """

    def __init__(
        self,
        stream: trio.abc.Stream,
        max_line: int,
        stats: SessionStats,
        skip: frozenset[str] = frozenset(),
        on_skip: Callable[[int | None], None] | None = None,
    ) -> None:
        self.stream = stream
        self.buffer = LineBuffer(max_line)
        self.pending: deque[bytes] = deque()
        self.stats = stats
        self.skip = tuple(b'{"type":"%s"' % t.encode() for t in sorted(skip))
        self.on_skip = on_skip

    async def receive(self) -> m.ServerMessage:
        while True:
            while self.pending:
                line = self.pending.popleft()
                if self.skip and line.startswith(self.skip):
                    found = _SEQ_AT_END.search(line)
                    if self.on_skip is not None:
                        self.on_skip(int(found.group(1)) if found else None)
                    continue
                try:
                    return decode_server(line)
                except ProtocolError:
                    self.stats.bad_lines += 1
            try:
                data = await self.stream.receive_some(_RECEIVE_SIZE)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                raise _Drop(f"connection lost: {exc or type(exc).__name__}") from None
            if not data:
                raise _Drop("the server closed the connection")
            try:
                self.pending.extend(self.buffer.feed(bytes(data)))
            except ProtocolError as exc:
                raise _Drop(f"bad data from the server: {exc.message}") from None


class ClientSession:
    """One client's session with a server, across reconnects. See the module docstring.

    Exactly one of ``name`` (join; ``password`` if the server has one), ``token`` (resume),
    ``spectate=True`` (``spectate_table`` to watch one) or ``director_secret`` opens the
    session; after a join the token from ``welcome`` is kept and used to resume.

    ``on_change(model)`` is called after every change to the model (from inside Trio);
    ``on_message(msg, now)`` after each server message is applied. Timing: ``ping_interval``
    seconds without sending anything sends a ping; ``idle_timeout`` seconds without hearing
    anything drops the connection (then it reconnects); ``backoff_initial`` doubles per
    failed attempt up to ``backoff_max``. A player answers every ``deck_commit`` with a seed
    from ``seed_source`` (32 bytes from the OS CSPRNG by default; docs/fairness.md), and
    ``model.decks``, when the model keeps one, records it. Server messages whose type is in ``skip_types``
    are not decoded or applied (the bots skip ``lobby``: decoding a big lobby on every
    hand's end for each of a few hundred bots in one process costs more than the game).
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: str | None = None,
        password: str | None = None,
        token: str | None = None,
        spectate: bool = False,
        spectate_table: int | None = None,
        director_secret: str | None = None,
        reconnect: bool = True,
        backoff_initial: float = 0.25,
        backoff_max: float = 10.0,
        handshake_timeout: float = 10.0,
        ping_interval: float = 15.0,
        idle_timeout: float = 60.0,
        max_line: int = MAX_SERVER_LINE,
        send_queue: int = 256,
        versions: tuple[int, ...] = SUPPORTED_VERSIONS,
        on_change: Callable[[ClientModel], None] | None = None,
        on_message: Callable[[m.ServerMessage, float], None] | None = None,
        rng: random.Random | None = None,
        model: ClientModel | None = None,
        skip_types: frozenset[str] = frozenset(),
        first_connect_final: bool = False,
        seed_source: Callable[[], bytes] | None = None,
        tls: TlsTrust | None = None,
    ) -> None:
        chosen = [name is not None or token is not None, spectate, director_secret is not None]
        if sum(chosen) != 1:
            raise ValueError("give exactly one of name/token (player), spectate, director_secret")
        self.host = host
        self.port = port
        self.name = name
        self.password = password
        self.spectate = spectate
        self.spectate_table = spectate_table
        self.director_secret = director_secret
        self.reconnect = reconnect
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.handshake_timeout = handshake_timeout
        self.ping_interval = ping_interval
        self.idle_timeout = idle_timeout
        self.max_line = max_line
        self.send_queue = send_queue
        self.versions = versions
        self.on_change = on_change
        self.on_message = on_message
        self.rng = rng if rng is not None else random.Random()
        self.skip_types = skip_types
        self.first_connect_final = first_connect_final
        self.tls = tls  # None: plain TCP; else TLS, the certificate checked by its pin
        self.replaced = False  # another connection took this seat over with the token
        self.chosen_token: str | None = None  # the token this client's join offers (version 2)
        # Our seeds for the server's draws: the OS CSPRNG (tests and seeded bots inject one).
        self.seed_source = seed_source if seed_source is not None else partial(secrets.token_bytes, 32)
        self.model = model if model is not None else ClientModel()
        if token is not None:
            self.model.me.token = token
        self.stats = SessionStats()
        self._send: trio.MemorySendChannel[bytes] | None = None
        self._changed = trio.Event()
        self._ready = trio.Event()
        self._done = trio.Event()
        self._closing = False
        self._last_sent = 0.0
        self._queued = 0  # lines queued on this connection
        self._written = 0  # lines of those put on the wire
        self._next_id = 0
        self._version = SUPPORTED_VERSIONS[0]  # the negotiated protocol version, once chosen
        self._ping_sent: dict[str, float] = {}
        self._kick: trio.CancelScope | None = None
        self._drop_reason = "dropped"
        self.goodbye_seen = False
        self._turned_away = False  # the last connection ended with a refusal worth retrying

    # -- the public API -------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._send is not None

    @property
    def ended(self) -> bool:
        """The session is over (refused or closed): no more changes will come."""
        return self._done.is_set() or self.model.connection in (
            ConnectionState.REFUSED, ConnectionState.CLOSED
        )

    @property
    def token(self) -> str | None:
        return self.model.me.token

    def next_id(self) -> int:
        """A fresh request id."""
        self._next_id += 1
        return self._next_id

    def send_nowait(self, msg: m.ClientMessage) -> bool:
        """Queue a message for the server; never blocks.

        Returns False (and drops the message) while not connected or if the queue is full:
        after a reconnect the server sends the state again, and an old action would be
        stale anyway.
        """
        ch = self._send
        if ch is None:
            self.stats.dropped_sends += 1
            return False
        return self._put(ch, msg)

    def _put(self, ch: trio.MemorySendChannel[bytes], msg: m.ClientMessage) -> bool:
        try:
            ch.send_nowait(encode(msg, self._version) + b"\n")
        except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            self.stats.dropped_sends += 1
            return False
        self.stats.sent += 1
        self._queued += 1
        return True

    async def send(self, msg: m.ClientMessage) -> bool:
        """Like ``send_nowait`` but waits for room in the queue (False if not connected)."""
        ch = self._send
        if ch is None:
            self.stats.dropped_sends += 1
            return False
        try:
            await ch.send(encode(msg, self._version) + b"\n")
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.stats.dropped_sends += 1
            return False
        self.stats.sent += 1
        self._queued += 1
        return True

    async def act(self, action: Action) -> m.Act | None:
        """Answer the pending turn with ``action``; returns the ``act`` sent, or None if
        there is no turn to answer or the connection is down."""
        turn = self.model.turn
        if turn is None:
            return None
        msg = action_to_act(action, turn.hand_no, turn.msg.table)
        if not await self.send(msg):
            return None
        turn.acted = True
        self._notify()
        return msg

    async def wait_changed(self, since: int | None = None) -> None:
        """Wait until the model changes (at once if it changed after ``since``, a value
        of ``model.changes`` read earlier: nothing is missed between reading and waiting)."""
        if since is not None and self.model.changes != since:
            return
        await self._changed.wait()

    async def wait_ready(self) -> None:
        """Wait for the first ``welcome``; SessionRefused / SessionClosed if it never comes."""
        while not self._ready.is_set():
            self._raise_if_over()
            await self.wait_changed()

    async def wait_done(self) -> None:
        """Wait until the session has ended (refused, closed, or ``close()``)."""
        await self._done.wait()

    def drop(self, reason: str = "dropped by the client") -> None:
        """Drop the current connection as if the network failed (it reconnects): for tests
        and for the load tool's churn."""
        if self._kick is not None:
            self._drop_reason = reason
            self._kick.cancel()

    async def close(self, reason: str | None = None) -> None:
        """Say goodbye (if connected) and end the session; no reconnect."""
        self._closing = True
        if self._send is not None:
            self.send_nowait(m.Goodbye(reason=reason))
            # Give the writer a moment to put the goodbye on the wire.
            with trio.move_on_after(1.0):
                while self._send is not None and self._written < self._queued:
                    await self.wait_changed()
        self.drop("closed by the client")
        if self.model.connection not in (ConnectionState.REFUSED, ConnectionState.CLOSED):
            self.model.set_closed(reason)
            self._notify()

    def _raise_if_over(self) -> None:
        state = self.model.connection
        if state is ConnectionState.REFUSED:
            code = self.model.last_error.code if self.model.last_error is not None else None
            raise SessionRefused(self.model.connection_reason or "refused", code)
        if state is ConnectionState.CLOSED or self._done.is_set():
            raise SessionClosed(self.model.connection_reason or "session closed")

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()
        if self.on_change is not None:
            self.on_change(self.model)

    # -- the loop -------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Connect, and reconnect, until refused, closed, or the connection ends after the
        tournament is over. Never raises for network trouble; it ends in a final state."""
        task_status.started()
        attempt = 0
        ever_connected = False
        try:
            while not self._closing:
                self.model.set_connecting()
                self._notify()
                handshaken, reason = await self._connect_once()
                if self._closing:
                    break
                if handshaken:
                    attempt = 0
                    ever_connected = True
                if self.model.connection is ConnectionState.REFUSED:
                    break
                if self.replaced:
                    # Reconnecting would take the seat back from the other terminal, which
                    # would take it back in turn: stop here and say why.
                    self.model.set_closed(REPLACED_TEXT)
                    self._notify()
                    break
                if not ever_connected and self.first_connect_final and reason.startswith("cannot connect"):
                    detail = reason.split(": ", 1)[1] if ": " in reason else reason
                    self.model.set_refused(
                        f"cannot connect to {self.host}:{self.port}: check the address ({detail})"
                    )
                    self._notify()
                    break
                # After the end there is no seat to come back to.
                if not self.reconnect or self.model.finished is not None:
                    self.model.set_closed(reason)
                    self._notify()
                    break
                self.model.set_reconnecting(reason)
                self.stats.reconnects += 1
                self.model.reconnects = self.stats.reconnects
                self._notify()
                delay = min(self.backoff_max, self.backoff_initial * 2**attempt)
                delay *= 0.5 + 0.5 * self.rng.random()
                attempt += 1
                if self._turned_away:
                    # Say so: the server is there but has no room (or wants us slower).
                    log.warning("%s; trying again in %.1f s", reason, delay)
                    self._turned_away = False
                with trio.CancelScope() as self._kick:  # close() cuts the wait short
                    await trio.sleep(delay)
                self._kick = None
        finally:
            if self.model.connection not in (ConnectionState.REFUSED, ConnectionState.CLOSED):
                self.model.set_closed(self.model.connection_reason)
            self._send = None
            self._done.set()
            self._notify()

    async def _connect_once(self) -> tuple[bool, str]:
        """One connection from open to close: (whether the handshake succeeded, why it ended).

        ``drop()`` and ``close()`` cancel ``self._kick``, the scope around all of it, so a
        connection can be cut at any stage, even while the TCP connect is still pending.
        """
        self._drop_reason = "dropped"
        with trio.CancelScope() as kick:
            self._kick = kick
            try:
                return await self._connection()
            finally:
                self._kick = None
                self._send = None
        return False, self._drop_reason

    async def _connection(self) -> tuple[bool, str]:
        stream: trio.abc.Stream
        with trio.move_on_after(self.handshake_timeout) as connecting:
            try:
                stream = await trio.open_tcp_stream(self.host, self.port)
            except OSError as exc:
                return False, f"cannot connect to {self.host}:{self.port}: {exc.strerror or exc}"
            if self.tls is not None:
                secured = await self._secure(stream)
                if isinstance(secured, str):
                    return False, secured
                stream = secured
        if connecting.cancelled_caught:
            await trio.aclose_forcefully(stream)
            return False, f"cannot connect to {self.host}:{self.port}: timed out"
        self.stats.connects += 1
        self.goodbye_seen = False
        handshaken = False
        reason: str | None = None
        self._queued = self._written = 0
        send_ch, receive_ch = trio.open_memory_channel[bytes](self.send_queue)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._writer, stream, receive_ch, nursery.cancel_scope)
                reader = _Reader(
                    stream, self.max_line, self.stats, self.skip_types, self.model.skipped
                )
                try:
                    await self._handshake(reader, send_ch)
                    handshaken = True
                    self._send = send_ch
                    self._ready.set()
                    self.model.set_connected()
                    self._notify()
                    nursery.start_soon(self._keepalive)
                    await self._read_loop(reader)
                except _Drop as exc:
                    reason = exc.reason
                except SessionRefused as exc:
                    self.model.set_refused(exc.reason)
                    reason = exc.reason
                nursery.cancel_scope.cancel()
        finally:
            self._send = None
            await trio.aclose_forcefully(stream)
        return handshaken, reason if reason is not None else self._drop_reason

    async def _secure(self, tcp: trio.SocketStream) -> trio.SSLStream[trio.SocketStream] | str:
        """The TLS handshake, then the pin (``client/pinning.py``): the stream, or why not
        (a changed certificate refuses the session for good)."""
        assert self.tls is not None
        ssl_stream = trio.SSLStream(tcp, client_context())
        try:
            await ssl_stream.do_handshake()
            der = ssl_stream.getpeercert(binary_form=True)
            if not der:
                raise CertificateRefused("the server sent no certificate")
            self.tls.check_der(der)
        except trio.BrokenResourceError as exc:
            await trio.aclose_forcefully(tcp)
            cause = exc.__cause__ or exc
            return (f"cannot connect to {self.host}:{self.port}: the TLS handshake failed ({cause}); "
                    "is this the server's TLS port?")
        except CertificateRefused as exc:
            await trio.aclose_forcefully(ssl_stream)
            self.model.set_refused(exc.reason)
            self._notify()
            return exc.reason
        except BaseException:
            await trio.aclose_forcefully(tcp)
            raise
        return ssl_stream

    async def _writer(
        self,
        stream: trio.abc.Stream,
        receive_ch: trio.MemoryReceiveChannel[bytes],
        scope: trio.CancelScope,
    ) -> None:
        """Send queued lines, everything queued at once in one ``send_all``."""
        async with receive_ch:
            async for first in receive_ch:
                chunks = [first]
                while True:
                    try:
                        chunks.append(receive_ch.receive_nowait())
                    except trio.WouldBlock:
                        break
                try:
                    await stream.send_all(b"".join(chunks))
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                    self._drop_reason = f"connection lost while sending: {exc or type(exc).__name__}"
                    scope.cancel()
                    return
                self._last_sent = trio.current_time()
                self._written += len(chunks)
                if self._closing:
                    self._notify()

    def _handshake_message(self, version: int) -> m.ClientMessage:
        token = self.model.me.token
        if self.director_secret is not None:
            return m.DirectorLogin(version=version, secret=self.director_secret)
        if self.spectate:
            return m.Spectate(version=version, table=self.spectate_table)
        if token is not None:
            return m.Resume(version=version, token=token)
        assert self.name is not None
        if version < 2:
            return m.Join(version=version, name=self.name, password=self.password)
        # Version 2: the client chooses its token and sends the same one on every try until
        # welcomed, so a join stored by a server that crashed before answering is resumed.
        if self.chosen_token is None:
            self.chosen_token = secrets.token_urlsafe(24)
        return m.Join(version=version, name=self.name, password=self.password, token=self.chosen_token)

    async def _handshake(self, reader: _Reader, send_ch: trio.MemorySendChannel[bytes]) -> None:
        with trio.move_on_after(self.handshake_timeout) as scope:
            hello = await reader.receive()
        if scope.cancelled_caught:
            raise _Drop(f"no hello from the server within {self.handshake_timeout:g} s")
        self._apply(hello)
        if isinstance(hello, m.Error):
            self._refuse_or_drop(hello)
        if not isinstance(hello, m.Hello):
            raise SessionRefused(
                f"the server did not start with hello (got {hello.TYPE}): is it a Hickory server?"
            )
        if hello.protocol != PROTOCOL_NAME:
            raise SessionRefused(
                f"the server speaks protocol {hello.protocol!r}, not {PROTOCOL_NAME!r}"
            )
        version = choose_version(hello.versions, self.versions)
        self._version = version  # what this connection's lines are written in
        self._put(send_ch, self._handshake_message(version))
        with trio.move_on_after(self.handshake_timeout) as scope:
            while True:
                msg = await reader.receive()
                self._apply(msg)
                if isinstance(msg, m.Welcome):
                    return
                if isinstance(msg, m.Error):
                    self._refuse_or_drop(msg)
                elif isinstance(msg, m.ServerPing):
                    self._put(send_ch, m.Pong(nonce=msg.nonce))
        raise _Drop(f"no welcome from the server within {self.handshake_timeout:g} s")

    def _refuse_or_drop(self, err: m.Error) -> None:
        """An error in the handshake: final if retrying cannot help, else try again later."""
        text = f"{err.message} ({err.code})"
        if err.code in _RETRY_CODES:
            self._turned_away = True
            raise _Drop(text)
        raise SessionRefused(text, err.code)

    def _apply(self, msg: m.ServerMessage) -> None:
        now = trio.current_time()
        self.stats.messages += 1
        self.model.apply(msg, now)
        if isinstance(msg, m.Error):
            self.stats.errors += 1
        elif isinstance(msg, m.ServerPong) and msg.nonce in self._ping_sent:
            self.stats.pongs += 1
            self.stats.last_rtt = now - self._ping_sent.pop(msg.nonce)
        elif isinstance(msg, m.ServerGoodbye):
            self.goodbye_seen = True
            if msg.code == "replaced" or msg.reason.startswith("replaced by a new connection"):
                self.replaced = True
        if self.on_message is not None:
            self.on_message(msg, now)
        self._notify()

    async def _read_loop(self, reader: _Reader) -> None:
        while True:
            with trio.move_on_after(self.idle_timeout) as scope:
                msg = await reader.receive()
            if scope.cancelled_caught:
                raise _Drop(f"nothing heard from the server for {self.idle_timeout:g} s")
            self._apply(msg)
            if isinstance(msg, m.ServerPing):
                self.send_nowait(m.Pong(nonce=msg.nonce))
            elif isinstance(msg, m.DeckCommit):
                self._answer_commit(msg)
            elif isinstance(msg, m.Error) and msg.fatal:
                if msg.code in FATAL_CODES:
                    raise SessionRefused(f"{msg.message} ({msg.code})", msg.code)
                self._turned_away = msg.code in _RETRY_CODES
                raise _Drop(f"the server closed the connection: {msg.message} ({msg.code})")
            if self.model.needs_resync and not self.model.resync_requested:
                self._request_resync()

    def _answer_commit(self, msg: m.DeckCommit) -> None:
        """A player adds a fresh seed of its own to every draw (docs/fairness.md), at once:
        the server fixed its seed before it sent the commitment, so it cannot pick a deck
        against ours, and sending late only means ours is not counted."""
        if self.model.me.role != "player":
            return
        seed = m.ClientSeed(draw=msg.draw, table=msg.table, number=msg.number, commit=msg.commit,
                            seed=self.seed_source().hex())
        if self.send_nowait(seed) and self.model.decks is not None:
            self.model.decks.sent(seed)

    def _request_resync(self) -> None:
        """A line was lost: ask again for what the lost line might have changed."""
        self.model.resync_requested = True
        self.stats.resyncs += 1
        self.send_nowait(m.LobbyRequest(id=self.next_id()))
        t = self.model.table
        if t is not None:
            self.send_nowait(m.SnapshotRequest(id=self.next_id(), table=t.table))

    async def _keepalive(self) -> None:
        """Ping when nothing has been sent for ``ping_interval`` seconds."""
        self._last_sent = trio.current_time()
        count = 0
        while True:
            wake = self._last_sent + self.ping_interval
            now = trio.current_time()
            if now < wake:
                await trio.sleep(wake - now)
                continue
            count += 1
            nonce = f"k{count}"
            self._ping_sent = {nonce: now}
            if self.send_nowait(m.Ping(nonce=nonce)):
                self.stats.pings_sent += 1
            self._last_sent = now


REPLACED_TEXT = (
    "another terminal took this seat over (the same player started twice): this one "
    "stopped and will not reconnect by itself; play in the other one"
)
"""Why a session whose seat was resumed elsewhere ended (it does not reconnect)."""


@asynccontextmanager
async def open_session(
    host: str, port: int, *, wait: bool = True, **options: object
) -> AsyncIterator[ClientSession]:
    """A running ``ClientSession`` (options as for its constructor) for the ``async with``
    block; on leaving the block it says goodbye and closes.

    With ``wait`` (the default) the block starts once the server has welcomed the
    session; a refusal raises ``SessionRefused`` with the server's reason. Without it the
    block starts at once and ``s.model.connection`` shows the progress.
    """
    session = ClientSession(host, port, **options)  # type: ignore[arg-type]
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(session.run)
            try:
                if wait:
                    await session.wait_ready()
                yield session
            finally:
                with trio.CancelScope(shield=True):
                    with trio.move_on_after(2):
                        await session.close()
                nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        # One error (a refusal, or the block's own) is raised as itself, not in a group.
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise
