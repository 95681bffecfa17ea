"""``hickory-server`` (serve): start or resume a tournament and run it until stopped.

Prints where players connect and the director's secret, logs to stderr, and on SIGINT or
SIGTERM stops accepting, says goodbye to every client and exits cleanly. At start it
raises its soft open-file limit to the hard one and holds no more connections than the
limit leaves room for. Everything is in
the database already (store, then send), so a stop at any moment loses nothing.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import signal
import subprocess
import sys
from functools import partial

import attrs
import trio

from server.app import Server, open_server
from server.clock import ClockPortError
from server.config import ServerConfig, add_arguments, config_from_args
from server.discovery import should_announce
from server.filelimit import connection_capacity, raise_file_limit
from server.memory import freeze_long_lived, tune_collector
from server.share import ClientShare
from server.store import StoreError

log = logging.getLogger("hickory.server")


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    add_arguments(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="log every connection and hand")


async def run_server(server: Server, *, print_banner: bool = True) -> None:
    config = server.config
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.run)
        clock_port = share_port = None
        share = ClientShare()
        if config.clock_port is not None or config.share_client is not None:
            from server.share_web import (  # the web stack: only when asked
                join_source,
                serve_share,
                share_routes,
            )

            join = join_source(server)
        if config.clock_port is not None:
            from server.clock.web import serve_clock

            clock_port = share_port = await nursery.start(partial(
                serve_clock, server, config.host, config.clock_port, extra_routes=share_routes(share, join)))
        if config.share_client is not None:
            share_port = await nursery.start(serve_share, share, join, config.host, config.share_client)
        if share_port is not None and config.host not in ("127.0.0.1", "::1", "localhost"):
            # On a LAN, built now (in a child process), so the first player's download does
            # not wait for it: seconds of compiling, and pip gives up after 15 s without data.
            # On loopback (tests, make play) only when someone asks.
            nursery.start_soon(share.bundle)
        announced = None
        if should_announce(config):
            from server.discovery import announce  # zeroconf loads only when announcing

            announced = await nursery.start(announce, server, share_port)
        freeze_long_lived()  # start-up (and a replayed tournament) done: see server/memory.py
        if config.port_file is not None:
            config.port_file.write_text(f"{port}\n")
        if print_banner:
            where = config.host if config.host not in ("0.0.0.0", "::") else "<this machine's address>"
            print(f"Hickory server: {server.tournament.settings.name}", flush=True)
            print(f"  listening on {config.host}:{port}", flush=True)
            print(f"  players connect with: hickory {where}:{port} --name NAME", flush=True)
            if server.tls_port is not None and server.certificate is not None:
                print(f"  over TLS: hickory {where}:{server.tls_port} --tls --name NAME", flush=True)
                print(f"  TLS certificate fingerprint: {server.certificate.fingerprint}", flush=True)
            if announced is not None:
                print(f"  announced on this network as {announced!r}: players type just "
                      "hickory --name NAME", flush=True)
            if share_port is not None:
                for line in join(None, share_port).lines():
                    if line.startswith(("get the client", "  or,")):
                        print(f"  {line}", flush=True)
            if server.director_secret is not None:
                print(f"  director secret: {server.director_secret}", flush=True)
            else:
                print("  director secret: the same as before (lost it? stop the server and run "
                      f"hickory-server director-secret --db {config.db})", flush=True)
            if clock_port is not None:
                print(f"  clock for the room's screen: http://{where}:{clock_port}/", flush=True)
            print(f"  database: {config.db if config.db is not None else '(none: nothing is kept)'}", flush=True)
        if config.bots:
            nursery.start_soon(run_bots, config, port)
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for signum in signals:
                log.info("received %s: shutting down", signal.Signals(signum).name)
                await server.shutdown("the server is shutting down")
                nursery.cancel_scope.cancel()
                break


def fit_to_file_limit(config: ServerConfig, open_files: int) -> ServerConfig:
    """``config`` with ``max_connections`` lowered to what ``open_files`` descriptors can
    hold (and a warning saying so): a server must never accept more connections than it
    can keep, or it fails wherever it next opens a file."""
    fits = connection_capacity(config.max_connections, open_files)
    if fits >= config.max_connections:
        return config
    message = (f"max_connections lowered from {config.max_connections} to {fits}: the open-file "
               f"limit is {open_files} (raise it with 'ulimit -n' or in the service's limits)")
    log.warning("%s", message)
    print(f"hickory-server: {message}", file=sys.stderr, flush=True)
    return attrs.evolve(config, max_connections=fits)


def bot_command(config: ServerConfig, port: int) -> list[str]:
    """``hickory-bot`` for the built-in bots: ordinary clients, dialling the address the
    server listens on (loopback when it listens on every address), with its password."""
    host = config.dial_host()
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    cmd = [sys.executable, "-m", "client.botcli", address, "--name", "bot", "--count", str(config.bots),
           "--strategy", config.bot_strategy, "--until-stdin-closes"]
    if config.db is not None:
        # Bots keep their session tokens beside the database, so after a restart they
        # resume their seats like any player instead of being refused as "name taken".
        cmd += ["--token-dir", f"{config.db}.bots"]
    return cmd


async def run_bots(config: ServerConfig, port: int) -> None:
    """Run the built-in bots in a child process until the server stops.

    The server never imports the client: the bots are a separate program that joins like
    anyone else. The child watches its standard input, a pipe only this process holds,
    so it ends with the server even when the server is killed (kill -9 included) and can
    never fight a restarted server's bots for their seats.
    """
    env = dict(os.environ)
    if config.password is not None:
        env["HICKORY_PASSWORD"] = config.password  # not on the command line, where ps shows it
    proc = await trio.lowlevel.open_process(bot_command(config, port), stdin=subprocess.PIPE, env=env)
    try:
        await proc.wait()
        if proc.returncode:
            log.warning("the built-in bots stopped (exit status %s)", proc.returncode)
    finally:
        if proc.returncode is None:
            proc.kill()
            with trio.CancelScope(shield=True):
                await proc.wait()


def startup_failure(exc: BaseException, config: ServerConfig) -> str | None:
    """What to tell the host when a port cannot be opened (trio wraps the error in
    exception groups), or None for any other failure."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    if isinstance(exc, ClockPortError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"cannot listen on {config.host}:{config.port}: {exc.strerror}"
    return None


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.INFO if getattr(args, "verbose", False) else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    config: ServerConfig = config_from_args(args)
    tune_collector()
    config = fit_to_file_limit(config, raise_file_limit())
    try:
        server = open_server(config, seed=config.seed)
    except StoreError as exc:
        print(f"hickory-server: {exc}", file=sys.stderr)
        return 2
    server.freeze_gc = True
    if config.seed is not None:
        log.warning("--seed %d: the decks are predictable; never use it for a real tournament", config.seed)
        # Seeded from the hands dealt so far too: after a restart the decks go on from a
        # state of their own, not from the first deck again.
        server.deck_rng = random.Random(f"{config.seed}/{server.tournament.hands_dealt}")
    try:
        trio.run(run_server, server)
    except BaseException as exc:
        reason = startup_failure(exc, config)
        if reason is None:
            raise
        print(f"hickory-server: {reason}", file=sys.stderr)
        return 2
    finally:
        if server.store is not None:
            server.store.close()
    return 0
