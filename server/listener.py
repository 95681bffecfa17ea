"""One connection's life: accept, deadlines, framing, decoding, and its errors.

Nothing a client sends can escape ``handle_connection``: a bad line is answered with a
coded error, too many in a row close the connection, and an internal error closes only
that connection. Deadlines bound the handshake, a started line (slowloris) and silence
(ping, then close). Limits bound what one connection can cost: room for it at all
(``_admit``), and the lines read from it per second (a flood is read no faster than that).
"""

from __future__ import annotations

import logging
import os
import sys
from functools import partial

import trio

import protocol.errors as E
import protocol.messages as m
from protocol.codec import decode_client, encode, error_reply, stamp
from protocol.errors import ProtocolError
from protocol.framing import LineBuffer
from server.alarm import Alarm
from server.clients import Client
from server.config import ServerConfig
from server.connection import Connection
from server.fanout import reply_error
from server.house import SOFTWARE, House
from server.ratelimit import TokenBucket
from server.routes import dispatch
from server.sessions import detach, release_address_count
from server.tournament.errors import TournamentError
from server.watching import forget

log = logging.getLogger("hickory.server")

REFUSED_COST = 5
"""Lines of a connection's read budget a line answered with an error costs."""


async def handle_connection(h: House, stream: trio.SocketStream | trio.SSLStream[trio.SocketStream]) -> None:
    """One connection, start to end (over TLS, ``stream`` is the ``SSLStream``)."""
    h.next_conn += 1
    raw = stream.transport_stream if isinstance(stream, trio.SSLStream) else stream
    try:
        host, port = raw.socket.getpeername()[:2]
        peer = f"{host}:{port}"
    except OSError:
        host, peer = "?", "?"
    refusal = _admit(h, host)
    if refusal is not None:
        log.info("<conn %d %s> refused: %s", h.next_conn, peer, refusal)
        if isinstance(stream, trio.SSLStream):
            await _refuse_tls(stream, refusal)
        else:
            _refuse(stream, refusal)
        return
    conn = Connection(stream, conn_id=h.next_conn, peer=peer,
                      max_queue_bytes=h.config.send_queue_bytes,
                      send_timeout=h.config.send_timeout)
    client = Client(conn=conn, host=host, counted_at_address=True)
    try:
        h.clients.add(client)
        h.pending[client] = None
        log.info("%r connected", conn)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(conn.run_writer)
            nursery.start_soon(_reader, h, client)
            await conn.wait_closed()
            nursery.cancel_scope.cancel()
    except Exception:
        log.exception("%r: internal error; connection closed", conn)
    finally:
        h.clients.discard(client)
        forget(h, client)
        h.pending.pop(client, None)
        release_address_count(h, client)
        detach(h, client)
        with trio.CancelScope(shield=True):
            with trio.move_on_after(1):
                try:
                    await stream.aclose()
                except Exception:
                    pass


def _admit(h: House, host: str) -> str | None:
    """Room for a new connection from ``host`` (and it is counted), or why not (sent as
    ``server_full``; the client retries).

    A connection that is not a seated player's (a handshake in progress, a spectator, the
    director) counts against its address's ``max_connections_per_address`` until it joins
    or resumes as a player, so one machine cannot hold the room. Every connection counts
    against ``max_connections``; when they are all taken, the one that has waited longest
    for its handshake makes room (then the spectator connected longest). Spectators are
    also kept out of the room held for the players (``House.spectator_room``), so a
    player coming back always finds one of these: a seated player is never turned away.
    """
    c = h.config
    limit = h.doorman.guest_limit(host, c.max_connections_per_address)
    address = h.doorman.at(host, trio.current_time())
    if address.guests >= limit:
        return (f"too many connections from your address ({limit} that are not a seated player's); "
                "close some, or try again in a minute")
    if len(h.clients) >= c.max_connections and not _make_room(h):
        return f"the server is full ({c.max_connections} connections); try again in a minute"
    address.guests += 1
    return None


_REFUSALS: dict[str, bytes] = {}


def _refuse(stream: trio.SocketStream, reason: str) -> None:
    """Turn a connection away as cheaply as can be, since a flood is made of these: its one
    line (``server_full``, fatal, seq 1; a few hundred bytes always fit the socket's
    buffer) in one non-blocking write, then close."""
    line = _refusal_line(reason)
    if sys.platform != "win32":  # (there, sockets are no files: just the close)
        try:
            os.write(stream.socket.fileno(), line)
        except OSError:
            pass
    stream.socket.close()


async def _refuse_tls(stream: trio.SSLStream[trio.SocketStream], reason: str) -> None:
    """The same refusal over TLS: the line needs the handshake first, so it may wait, but
    never longer than a second."""
    with trio.move_on_after(1):
        try:
            await stream.send_all(_refusal_line(reason))
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
    await trio.aclose_forcefully(stream)


def _refusal_line(reason: str) -> bytes:
    line = _REFUSALS.get(reason)
    if line is None:
        if len(_REFUSALS) > 100:
            _REFUSALS.clear()
        line = _REFUSALS[reason] = stamp(encode(m.Error(code=E.SERVER_FULL, message=reason, fatal=True)), 1) + b"\n"
    return line


def _make_room(h: House) -> bool:
    """Close the connection waiting longest for its handshake, else the spectator
    connected longest, for a newcomer (who may be a player coming back)."""
    victim = next(iter(h.pending), None)
    if victim is None:
        spectators = [v for v in h.viewers if v.role == "spectator"]
        if not spectators:
            return False
        victim = min(spectators, key=lambda v: v.conn.conn_id)
    h.pending.pop(victim, None)
    forget(h, victim)
    h.clients.discard(victim)
    log.info("%r closed to make room for a new connection", victim.conn)
    victim.send_nowait(m.Error(code=E.SERVER_FULL, fatal=True,
                        message="the server is full and needed this connection's room; try again later"))
    if h.nursery is not None:
        h.nursery.start_soon(partial(victim.conn.flush_and_close, "closed to make room", timeout=1.0))
    else:
        victim.conn.close("closed to make room")
    return True


class ReadTimes:
    """What a connection's deadlines are counted from, kept by its reader and read by its
    watchdog, so that the reader waits for data with no cancel scope (``alarm.py``): the
    watchdog wakes about once per ``ping_interval``, or sooner when a line starts."""

    def __init__(self, now: float, handshake_deadline: float) -> None:
        self.last_rx = now  # when data last arrived (plus the time the reader held it)
        self.handshake_deadline = handshake_deadline
        self.line_started: float | None = None  # when the unfinished line began
        self.pinged = False  # a ping went out since the last data
        self.alarm = Alarm()  # the watchdog's sleep

    def due(self, c: ServerConfig, role: str) -> float:
        """The nearest deadline: silence (ping, then close), the handshake, a line."""
        due = self.last_rx + (c.idle_timeout if self.pinged else c.ping_interval)
        if not role:
            due = min(due, self.handshake_deadline)
        if self.line_started is not None:
            due = min(due, self.line_started + c.line_timeout)
        return due

    def line_begun(self, at: float, c: ServerConfig) -> None:
        """A line is unfinished since ``at``: its deadline may come before the watchdog wakes."""
        self.line_started = at
        self.alarm.bring_forward(at + c.line_timeout)


async def _watchdog(h: House, client: Client, times: ReadTimes) -> None:
    """The connection's deadlines: a ping after ``ping_interval`` of silence, and closing
    it after ``idle_timeout`` more, or when the handshake or a started line takes too long."""
    c = h.config
    while not client.conn.closed:
        due = times.due(c, client.role)
        if trio.current_time() < due:
            await times.alarm.sleep_until(due)
            continue  # data may have come meanwhile: the deadline is worked out again
        now = trio.current_time()
        if not client.role and now >= times.handshake_deadline:
            await _fatal(client, E.TIMEOUT, f"no handshake within {c.handshake_timeout:g} s")
            return
        if times.line_started is not None and now >= times.line_started + c.line_timeout:
            await _fatal(client, E.TIMEOUT, f"a line was not finished within {c.line_timeout:g} s")
            return
        if times.pinged:
            await _fatal(client, E.TIMEOUT, f"no reply for {c.idle_timeout:g} s")
            return
        times.pinged = True
        client.send_nowait(m.ServerPing(nonce=str(h.next_conn)))


async def _reader(h: House, client: Client) -> None:
    c = h.config
    client.send_nowait(m.Hello(protocol=m.PROTOCOL_NAME, versions=m.SUPPORTED_VERSIONS, server=SOFTWARE,
                        tournament=h.tournament.settings.name, max_line=c.max_line))
    now = trio.current_time()
    times = ReadTimes(now, now + c.handshake_timeout)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_watchdog, h, client, times)
        try:
            await _read(h, client, times)
        finally:
            nursery.cancel_scope.cancel()


async def _read(h: House, client: Client, times: ReadTimes) -> None:
    """Read, frame and answer the client's lines until the connection closes."""
    c = h.config
    conn = client.conn
    buf = LineBuffer(c.max_line)
    # This connection's share of the server: lines past the budget are read later, so a
    # flood costs the server at most ``lines_per_second`` lines of work (the rest waits in
    # the kernel's buffers, and then in the flooder's own).
    budget = TokenBucket(rate=c.lines_per_second, burst=c.line_burst)
    while not conn.closed:
        try:
            data = await conn.receive()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            conn.close("connection lost")
            return
        if not data:
            conn.close("client closed the connection")
            return
        now = trio.current_time()
        times.last_rx = now
        client.read_at = now
        times.pinged = False
        try:
            lines = buf.feed(bytes(data))
        except ProtocolError as exc:
            await _fatal(client, exc.code, exc.message)
            return
        if not buf.has_partial:
            times.line_started = None
        elif times.line_started is None:
            times.line_begun(now, c)
        for i, line in enumerate(lines):
            if budget.take(now if i == 0 else trio.current_time()) > 0:
                # Out of budget: wait for a tenth of a second's worth (one wake-up per
                # batch of lines, not per line, keeps even the waiting cheap). The
                # wait is the server's, not the client's slowness: the deadlines move.
                wait = budget.wait_time(trio.current_time(), min(c.line_burst, max(1.0, c.lines_per_second / 10)))
                times.last_rx += wait
                if times.line_started is not None:
                    times.line_started += wait
                await trio.sleep(wait)
                budget.take(trio.current_time())
            if not line.strip():
                continue
            if await _handle_line(h, client, line):
                # A refused line costs more of the budget: a flood of them (a stale action,
                # a request past its budget) is read at a fifth of the pace.
                budget.charge(trio.current_time(), REFUSED_COST - 1)
            if conn.closed:
                return


async def _fatal(client: Client, code: str, message: str) -> None:
    client.send_nowait(m.Error(code=code, message=message, fatal=True))
    await client.conn.flush_and_close(message)


async def _handle_line(h: House, client: Client, line: bytes) -> bool:
    """Decode and answer one line; True if it was refused with an error."""
    try:
        msg = decode_client(line, client.version if client.role else None)
    except ProtocolError as exc:
        client.errors += 1
        client.send_nowait(error_reply(exc))
        if client.errors >= h.config.max_errors:
            await _fatal(client, E.TOO_MANY_ERRORS,
                         f"{client.errors} bad messages in a row; closing the connection")
        return True
    client.errors = 0
    try:
        await dispatch(h, client, msg)
    except ProtocolError as exc:
        client.send_nowait(error_reply(exc, getattr(msg, "id", None)))
        return True
    except TournamentError as exc:
        reply_error(client, E.INVALID_STATE, str(exc), getattr(msg, "id", None))
        return True
    except Exception:
        # A bug in handling one request: logged, and the client is told before its
        # connection (only its own) is closed; a player resumes.
        log.exception("%r: internal error handling %s; connection closed", client.conn, type(msg).TYPE)
        client.send_nowait(m.Error(id=getattr(msg, "id", None), code=E.INTERNAL, fatal=True,
                            message=f"the server failed on this {type(msg).TYPE} and closes the "
                                    "connection; it may or may not have been applied"))
        await client.conn.flush_and_close("internal error")
    return False
