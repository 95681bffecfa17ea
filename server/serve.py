"""``hickory-server`` (serve): start or resume a tournament and run it until stopped.

Prints where players connect and the director's secret, logs to stderr, and on SIGINT or
SIGTERM stops accepting, says goodbye to every client and exits cleanly. Everything is in
the database already (store, then send), so a stop at any moment loses nothing.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path

import trio

from server.app import Server
from server.config import ServerConfig, add_arguments, config_from_args
from server.recovery import open_server
from server.store import StoreError

log = logging.getLogger("hickory.server")


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    add_arguments(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="log every connection and hand")


async def run_server(server: Server, *, print_banner: bool = True) -> None:
    config = server.config
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.run)
        if config.port_file is not None:
            config.port_file.write_text(f"{port}\n")
        if print_banner:
            where = config.host if config.host not in ("0.0.0.0", "::") else "<this machine's address>"
            print(f"Hickory server: {server.tournament.settings.name}", flush=True)
            print(f"  listening on {config.host}:{port}", flush=True)
            print(f"  players connect with: hickory {where}:{port} --name NAME", flush=True)
            print(f"  director secret: {server.director_secret}", flush=True)
            print(f"  database: {config.db if config.db is not None else '(none: nothing is kept)'}", flush=True)
        if config.bots:
            from client.bot import run_bot

            # Bots keep their session tokens beside the database, so after a restart they
            # resume their seats like any player instead of being refused as "name taken".
            token_dir = Path(f"{config.db}.bots") if config.db is not None else None
            if token_dir is not None:
                token_dir.mkdir(mode=0o700, exist_ok=True)
            for i in range(config.bots):
                name = f"bot-{i + 1}"
                token_file = token_dir / f"{name}.token" if token_dir is not None else None
                nursery.start_soon(_bot, run_bot, port, name, config.bot_strategy, token_file)
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for signum in signals:
                log.info("received %s: shutting down", signal.Signals(signum).name)
                await server.shutdown("the server is shutting down")
                nursery.cancel_scope.cancel()
                break


async def _bot(run_bot: object, port: int, name: str, strategy: str, token_file: Path | None) -> None:
    try:
        await run_bot("127.0.0.1", port, name, strategy, token_file=token_file)  # type: ignore[operator]
    except Exception:
        log.exception("built-in bot %s stopped", name)


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.INFO if getattr(args, "verbose", False) else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    config: ServerConfig = config_from_args(args)
    try:
        server = open_server(config)
    except StoreError as exc:
        print(f"hickory-server: {exc}", file=sys.stderr)
        return 2
    try:
        trio.run(run_server, server)
    except OSError as exc:
        print(f"hickory-server: cannot listen on {config.host}:{config.port}: {exc.strerror}", file=sys.stderr)
        return 2
    finally:
        if server.store is not None:
            server.store.close()
    return 0
