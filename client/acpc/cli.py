"""``hickory-acpc``: seat an ACPC competition bot in a Hickory tournament.

    hickory-acpc HOST[:PORT] --name NAME [--acpc-port N]            # the bot connects to us
    hickory-acpc HOST[:PORT] --name NAME --bot-cmd 'PROG {game} {host} {port}'   # a bot per hand

Without ``--bot-cmd`` the bridge prints the port the bot connects to (``--acpc-port``, any
free one by default) and keeps that one connection for the whole tournament; ``--game-file``
is rewritten with each hand's game definition. With ``--bot-cmd`` it starts the program for
every hand it is dealt into, with that hand's game file. See docs/acpc.md.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

import trio

from client.acpc.bridge import Bridge
from client.botcli import DEFAULT_PORT, parse_address

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hickory-acpc",
        description="Play a Hickory tournament seat with an ACPC (Annual Computer Poker "
        "Competition) bot: the bridge is a Hickory client on one side and an ACPC dealer "
        "port (protocol 2.0.0) on the other.",
    )
    p.add_argument("address", type=parse_address, metavar="HOST[:PORT]",
                   help=f"the Hickory server (port {DEFAULT_PORT} if not given)")
    p.add_argument("--name", required=True, help="the seat's name in the tournament")
    p.add_argument("--password", help="the tournament password, if it has one")
    p.add_argument("--token-file", type=Path,
                   help="keep the session token here, so a restarted bridge resumes the seat")
    p.add_argument("--acpc-host", default="127.0.0.1",
                   help="the address the dealer port listens on (default 127.0.0.1)")
    p.add_argument("--acpc-port", type=int, default=0,
                   help="the dealer port the bot connects to (default: any free port, printed)")
    p.add_argument("--bot-cmd", metavar="'PROGRAM {game} {host} {port}'",
                   help="run this for every hand (placeholders: the hand's game file, the "
                   "dealer host and port); without it the bot connects once and stays")
    p.add_argument("--game-file", type=Path,
                   help="write each hand's game definition here as the hand starts")
    p.add_argument("--bot-output", type=Path,
                   help="append the per-hand bot's stdout and stderr here (default: this terminal)")
    p.add_argument("--transcript", type=Path,
                   help="append every line sent to the bot (S->) and received (<-C) here")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="log every adjustment, not only clamped or unreadable replies")
    return p


async def _run(args: argparse.Namespace) -> int:
    host, port = args.address
    bridge = Bridge(
        host, port, args.name, password=args.password, token_file=args.token_file,
        acpc_host=args.acpc_host, acpc_port=args.acpc_port, bot_cmd=args.bot_cmd,
        game_file=args.game_file, bot_output=args.bot_output, transcript=args.transcript,
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bridge.run)
        await bridge.ready.wait()
        if args.bot_cmd is None:
            print(f"hickory-acpc: ACPC dealer port {bridge.acpc_host}:{bridge.acpc_port} "
                  "(connect the bot here)", flush=True)
        else:
            print(f"hickory-acpc: running {args.bot_cmd!r} for every hand", flush=True)
    if bridge.refused is not None:
        print(f"{args.name}: refused: {bridge.refused}", file=sys.stderr)
        return 1
    if bridge.place is None:
        print(f"{args.name}: stopped before the end ({bridge.session.model.connection_reason})")
        return 1
    print(f"{args.name}: place {bridge.place} ({bridge.lines} lines sent to the bot, "
          f"{bridge.replies} replies played, {len(bridge.notes)} notes)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    try:
        return trio.run(_run, args)
    except BaseException as exc:  # noqa: BLE001 - only Ctrl-C is handled; the rest goes on up
        if not interrupted(exc):
            raise
        print(f"{args.name}: interrupted (Ctrl-C): the seat is left to the table's clock", file=sys.stderr)
        return 130


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C: a bare KeyboardInterrupt, or one that Trio's nurseries
    wrapped in exception groups (Trio raises it inside the task tree, so it comes out of
    ``trio.run`` grouped)."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    return isinstance(exc, BaseExceptionGroup) and exc.subgroup(KeyboardInterrupt) is not None


if __name__ == "__main__":
    raise SystemExit(main())
