"""The Trio server: the wiring of a thin shell around the pure engine, tournament and protocol.

``Server`` is the ``House`` (the shared state) plus the tasks that run it: the listener,
the coordinator and one task per table. Each concern is a module of its own:

- ``listener``: a connection's deadlines, framing and decoding; ``routes``: which module
  answers which request;
- ``sessions``: join, resume, spectate, director login, tokens, drops;
- ``tables``: one task per table (the hand loop, the clocks, store then send);
- ``coordinator``: the start rule, the level clock, the deadline, lobby pushes;
- ``seat_requests``, ``queries``, ``chat``, ``directing``: what clients may ask;
- ``fanout`` and ``snapshots``: what goes out, to many and to one;
- ``journal``: the store-then-send path to SQLite (``store.py``).
"""

from __future__ import annotations

import errno
import logging
import shutil
import ssl
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import trio

import protocol.messages as m
from server.clients import Client
from server.config import ServerConfig
from server.connection import Flusher
from server.coordinator import coordinator
from server.fanout import announce_all, broadcast
from server.filelimit import REFUSAL_ROOM
from server.house import House
from server.listener import handle_connection
from server.recovery import open_house
from server.store import Store
from server.tables import start_tables
from server.tournament.tournament import Phase
from server.tv_table import TvTable

if TYPE_CHECKING:
    from server.tls import ServerCertificate

log = logging.getLogger("hickory.server")

_OUT_OF_DESCRIPTORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


class Server(House):
    def __init__(self, config: ServerConfig, *, store: Store | None = None, seed: int | None = None) -> None:
        super().__init__(config, store=store, seed=seed)
        self.journal.on_failure = partial(announce_all, self, by="server")
        self._accepting = trio.CancelScope()  # cancelled by ``shutdown``
        self._accepting_tls = trio.CancelScope()  # and this one, for the TLS port
        self.listeners: list[trio.SocketListener] = []
        self.certificate: ServerCertificate | None = None  # with config.tls: made or loaded in run()
        self.tls_port: int | None = None
        self._ssl_context: ssl.SSLContext | None = None
        self._slots: trio.Semaphore | None = None
        self.announcing = False  # on the LAN by DNS-SD (server/discovery.py), once registered

    async def run(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        self._time_base = self.resume_at - trio.current_time()
        if self.store is not None:
            self.store.start()
        if not any(isinstance(w, TvTable) for w in self.watchers):
            self.watchers.append(TvTable(self))  # the TV table's delayed cards (issue 27)
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            if self.metrics is not None:
                nursery.start_soon(self.metrics.run)
            await nursery.start(Flusher().run)
            await nursery.start(self.herald.run, self._news)
            if self.tournament.phase is not Phase.REGISTERING:
                start_tables(self)
            self.listeners = await nursery.start(self._accept, nursery)
            self.port = self.listeners[0].socket.getsockname()[1]
            if self.config.tls:
                self.tls_port = await nursery.start(self._accept_tls, nursery, self._tls_context())
            nursery.start_soon(coordinator, self)
            task_status.started(self.port)
            for text in self.pending_announcements:
                announce_all(self, text, by="server")
            # Nobody is connected yet after a restart: each player hears it on resuming.
            self.restart_notices, self.pending_announcements = self.pending_announcements, []
            await trio.sleep_forever()

    async def _accept(self, nursery: trio.Nursery, task_status: trio.TaskStatus[Any] = trio.TASK_STATUS_IGNORED) -> None:
        """Accept connections while there are descriptors for them: at most
        ``max_connections`` plus ``REFUSAL_ROOM`` sockets (the latter only to be told
        ``server_full``); past that the server stops accepting until some close, and the
        kernel queues the rest. Connections run in ``nursery`` (the server's)."""
        with self._accepting:
            listeners = await trio.open_tcp_listeners(self.config.port, host=self.config.host)
            slots = self._slots = trio.Semaphore(self.config.max_connections + REFUSAL_ROOM)
            try:
                async with trio.open_nursery() as accepting:
                    for listener in listeners:
                        accepting.start_soon(self._accept_from, listener, slots, nursery)
                    task_status.started(listeners)
            finally:
                for listener in listeners:
                    await trio.aclose_forcefully(listener)

    def _tls_context(self) -> ssl.SSLContext:
        """The TLS context, loaded once: the tournament's certificate (made the first time).
        Without a database the certificate is this run's alone: its files are removed as
        soon as the context holds the key."""
        if self._ssl_context is None:
            from server.tls import certificate_dir, load_or_create  # cryptography: only with --tls

            if self.certificate is None:
                self.certificate = load_or_create(certificate_dir(self.config.db), self.tournament.settings.name)
            self._ssl_context = self.certificate.server_context()
            if self.config.db is None:
                shutil.rmtree(self.certificate.cert_path.parent, ignore_errors=True)
        return self._ssl_context

    async def _accept_tls(self, nursery: trio.Nursery, context: ssl.SSLContext,
                          task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        """The same protocol over TLS on ``tls_port``; the handshake is done by the first
        read or write of the connection, inside its handshake deadline (``listener.py``).
        Connections count against the same ``max_connections`` as plain ones."""
        assert self._slots is not None
        with self._accepting_tls:
            listeners = await trio.open_tcp_listeners(self.config.tls_port, host=self.config.host)
            slots = self._slots  # opened by _accept, which runs first
            wrapped = [trio.SSLListener(plain, context) for plain in listeners]
            try:
                async with trio.open_nursery() as accepting:
                    for secure in wrapped:
                        accepting.start_soon(self._accept_from, secure, slots, nursery)
                    task_status.started(listeners[0].socket.getsockname()[1])
            finally:
                for plain in listeners:
                    await trio.aclose_forcefully(plain)

    async def _accept_from(self, listener: trio.abc.Listener[Any], slots: trio.Semaphore,
                           nursery: trio.Nursery) -> None:
        while True:
            await slots.acquire()
            try:
                stream = await listener.accept()
            except OSError as exc:
                slots.release()
                if exc.errno not in _OUT_OF_DESCRIPTORS:
                    raise
                log.error("cannot accept a connection (%s): the process is out of file descriptors", exc.strerror)
                await trio.sleep(0.1)
                continue
            nursery.start_soon(self._connection, stream, slots)

    async def _connection(self, stream: trio.SocketStream | trio.SSLStream[trio.SocketStream],
                          slots: trio.Semaphore) -> None:
        self.sockets += 1
        try:
            await handle_connection(self, stream)
        finally:
            self.sockets -= 1
            slots.release()

    def _news(self, msg: m.ServerMessage, receivers: Sequence[Client], bodies: dict[int, bytes | None]) -> None:
        """The herald's way out: a part of the room, the message's encodings kept."""
        broadcast(self, msg, receivers, bodies=bodies)

    async def shutdown(self, reason: str) -> None:
        """Stop accepting, tell every client, and let the writers flush."""
        self._accepting.cancel()  # stop accepting; the connections live in the server's nursery
        self._accepting_tls.cancel()
        for client in list(self.clients):
            client.send_nowait(m.ServerGoodbye(reason=reason, code="shutdown"))
        with trio.move_on_after(2):
            async with trio.open_nursery() as n:
                for client in list(self.clients):
                    n.start_soon(client.conn.flush_and_close, reason)


def open_server(config: ServerConfig, *, seed: int | None = None) -> Server:
    """The server for ``config``: fresh, or resumed from its database (``recovery``, which
    replays the log into the house this server then serves)."""
    return open_house(config, Server, seed=seed)
