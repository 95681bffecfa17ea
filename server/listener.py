"""One connection's life: accept, deadlines, framing, decoding, and its errors.

Nothing a client sends can escape ``handle_connection``: a bad line is answered with a
coded error, too many in a row close the connection, and an internal error closes only
that connection. Deadlines bound the handshake, a started line (slowloris) and silence
(ping, then close).
"""

from __future__ import annotations

import logging

import trio

import protocol.errors as E
import protocol.messages as m
from protocol.codec import decode_client, error_reply
from protocol.errors import ProtocolError
from protocol.framing import LineBuffer
from server.clients import Client
from server.connection import Connection
from server.fanout import reply_error
from server.house import SOFTWARE, House
from server.routes import dispatch
from server.sessions import detach
from server.tournament.errors import TournamentError

log = logging.getLogger("hickory.server")


async def handle_connection(h: House, stream: trio.SocketStream) -> None:
    """One connection, start to end."""
    h.next_conn += 1
    try:
        host, port = stream.socket.getpeername()[:2]
        peer = f"{host}:{port}"
    except OSError:
        peer = "?"
    conn = Connection(stream, conn_id=h.next_conn, peer=peer,
                      max_queue_bytes=h.config.send_queue_bytes,
                      send_timeout=h.config.send_timeout)
    client = Client(conn=conn)
    try:
        if len(h.clients) >= h.config.max_connections:
            client.send(m.Error(code=E.SERVER_FULL, message="the server is full; try again later", fatal=True))
            await conn.flush_and_close("server full")
            return
        h.clients.add(client)
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
        h.viewers.discard(client)
        detach(h, client)
        with trio.CancelScope(shield=True):
            with trio.move_on_after(1):
                try:
                    await stream.aclose()
                except Exception:
                    pass


async def _reader(h: House, client: Client) -> None:
    c = h.config
    conn = client.conn
    stream = conn.stream
    buf = LineBuffer(c.max_line)
    client.send(m.Hello(protocol=m.PROTOCOL_NAME, versions=m.SUPPORTED_VERSIONS, server=SOFTWARE,
                        tournament=h.tournament.settings.name, max_line=c.max_line))
    handshake_deadline = trio.current_time() + c.handshake_timeout
    last_rx = trio.current_time()
    line_started: float | None = None
    pinged = False
    while not conn.closed:
        deadlines = [last_rx + (c.idle_timeout if pinged else c.ping_interval)]
        if not client.role:
            deadlines.append(handshake_deadline)
        if line_started is not None:
            deadlines.append(line_started + c.line_timeout)
        with trio.move_on_at(min(deadlines)) as scope:
            try:
                data = await stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                conn.close("connection lost")
                return
        now = trio.current_time()
        if scope.cancelled_caught:
            if not client.role and now >= handshake_deadline:
                await _fatal(client, E.TIMEOUT, f"no handshake within {c.handshake_timeout:g} s")
                return
            if line_started is not None and now >= line_started + c.line_timeout:
                await _fatal(client, E.TIMEOUT, f"a line was not finished within {c.line_timeout:g} s")
                return
            if pinged:
                await _fatal(client, E.TIMEOUT, f"no reply for {c.idle_timeout:g} s")
                return
            pinged = True
            client.send(m.ServerPing(nonce=str(h.next_conn)))
            continue
        if not data:
            conn.close("client closed the connection")
            return
        last_rx = now
        client.read_at = now
        pinged = False
        try:
            lines = buf.feed(bytes(data))
        except ProtocolError as exc:
            await _fatal(client, exc.code, exc.message)
            return
        line_started = (now if line_started is None else line_started) if buf.has_partial else None
        for line in lines:
            if not line.strip():
                continue
            await _handle_line(h, client, line)
            if conn.closed:
                return


async def _fatal(client: Client, code: str, message: str) -> None:
    client.send(m.Error(code=code, message=message, fatal=True))
    await client.conn.flush_and_close(message)


async def _handle_line(h: House, client: Client, line: bytes) -> None:
    try:
        msg = decode_client(line, client.version if client.role else None)
    except ProtocolError as exc:
        client.errors += 1
        client.send(error_reply(exc))
        if client.errors >= h.config.max_errors:
            await _fatal(client, E.TOO_MANY_ERRORS,
                         f"{client.errors} bad messages in a row; closing the connection")
        return
    client.errors = 0
    try:
        await dispatch(h, client, msg)
    except ProtocolError as exc:
        client.send(error_reply(exc, getattr(msg, "id", None)))
    except TournamentError as exc:
        reply_error(client, E.INVALID_STATE, str(exc), getattr(msg, "id", None))
