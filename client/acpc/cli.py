"""``hickory-acpc``: seat an ACPC competition bot in a Hickory tournament.

    hickory-acpc HOST[:PORT] --name NAME --bot-cmd 'PROG {game} {host} {port}'   # a bot per hand
    hickory-acpc HOST[:PORT] --name NAME --bot-game FILE [--acpc-port N]   # the bot connects to us
    hickory-acpc HOST[:PORT] --check FILE       # can a bot with this game file be shown the hands?

With ``--bot-cmd`` the bridge starts the program for every hand it is dealt into, with that
hand's game file. Without it the bridge prints the port the bot connects to (``--acpc-port``,
any free one by default) and keeps that one connection for the whole tournament: a bot that
trusts the game file it was started with (``--bot-game``) is shown only the hands that are
exactly that game (the bridge refuses to start if there can be none), a bot that rereads
``--game-file`` every hand is shown every hand. See docs/acpc.md.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

import trio

from client.acpc.botgame import read_game_file, tournament_fit
from client.acpc.bridge import Bridge
from client.acpc.gamedef import GameDef
from client.botcli import DEFAULT_PORT, address_or_auto
from client.session import ClientSession, SessionClosed, SessionRefused
from protocol import messages as m

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hickory-acpc",
        description="Play a Hickory tournament seat with an ACPC (Annual Computer Poker "
        "Competition) bot: the bridge is a Hickory client on one side and an ACPC dealer "
        "port (protocol 2.0.0) on the other.",
    )
    p.add_argument("address", type=address_or_auto, metavar="HOST[:PORT]",
                   help=f"the Hickory server (port {DEFAULT_PORT} if not given), or auto: the one announced on this network")
    p.add_argument("--name", help="the seat's name in the tournament (needed, except with --check)")
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
    p.add_argument("--bot-startup", type=float, default=30.0, metavar="SECONDS",
                   help="with --bot-cmd: how long each program may take to start, connect and say its "
                   "version (default 30); the table's action clock is not stopped meanwhile")
    p.add_argument("--bot-game", type=Path, metavar="GAMEFILE",
                   help="one connection: the game file the bot was started with; only hands that are "
                   "exactly that game are shown to it, the others are played for it (the bridge refuses "
                   "to start if no hand of the tournament can be)")
    p.add_argument("--game-file", type=Path,
                   help="write each hand's game definition here as the hand starts (for a bot that "
                   "rereads it every hand)")
    p.add_argument("--check", type=Path, metavar="GAMEFILE",
                   help="say whether the tournament's hands can be shown to a bot with this game file, "
                   "and what would be adjusted; then exit (0: some can, 1: none can)")
    p.add_argument("--bot-output", type=Path,
                   help="append the per-hand bot's stdout and stderr here (default: this terminal)")
    p.add_argument("--transcript", type=Path,
                   help="append every line sent to the bot (S->) and received (<-C) here")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="log every adjustment, not only clamped or unreadable replies")
    return p


def _read_bot_game(path: Path) -> GameDef:
    try:
        return read_game_file(path.read_text())
    except OSError as exc:
        raise SystemExit(f"hickory-acpc: cannot read the game file {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise SystemExit(f"hickory-acpc: {path}: {exc}") from None


async def _lobby(host: str, port: int, password: str | None = None, timeout: float = 15.0) -> m.Lobby:
    """The tournament's lobby, seen as a spectator (nothing is joined)."""
    session = ClientSession(host, port, spectate=True, password=password, reconnect=False)
    async with trio.open_nursery() as nursery:
        await nursery.start(session.run)
        try:
            with trio.fail_after(timeout):
                await session.wait_ready()
                while session.model.lobby is None:
                    seen = session.model.changes
                    if session.ended:
                        raise SessionClosed(session.model.connection_reason or "closed")
                    await session.wait_changed(seen)
            lobby = session.model.lobby
        except (SessionRefused, SessionClosed, trio.TooSlowError) as exc:
            reason = f"no lobby within {timeout:g} s" if isinstance(exc, trio.TooSlowError) else str(exc)
            raise SystemExit(f"hickory-acpc: cannot see the tournament at {host}:{port}: {reason}") from None
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(2):
                await session.close()
            nursery.cancel_scope.cancel()
    return lobby


async def _check(args: argparse.Namespace) -> int:
    game = _read_bot_game(args.check)
    host, port = args.address
    fit = tournament_fit(game, await _lobby(host, port, args.password))
    print(f"hickory-acpc: {args.check} against the tournament at {host}:{port}")
    for line in fit.lines:
        print(line)
    return 0 if fit.possible else 1


async def _run(args: argparse.Namespace) -> int:
    host, port = args.address
    if args.check is not None:
        return await _check(args)
    bot_game = None
    lobby: m.Lobby | None = None
    if args.bot_cmd is None and args.bot_game is not None:
        bot_game = _read_bot_game(args.bot_game)
        lobby = await _lobby(host, port, args.password)
        fit = tournament_fit(bot_game, lobby)
        if not fit.possible:
            print(f"hickory-acpc: not started: no hand of this tournament can be shown to a bot that runs "
                  f"with {args.bot_game}: {fit.never}. Use --bot-cmd (each hand gets its own game file); "
                  f"--check {args.bot_game} says more.", file=sys.stderr)
            return 2
    else:
        try:  # only for the warning below: a server not up yet is the bridge's to wait for
            lobby = await _lobby(host, port, args.password, timeout=5)
        except SystemExit:
            lobby = None
    if lobby is not None and lobby.rules is not None and lobby.rules.ruleset == "hickory":
        print("hickory-acpc: note: this tournament's ruleset is hickory, where a raise may add just the big "
              "blind; ACPC wants it to add at least the round's last raise, so such a raise is shown to the "
              "bot as ACPC's minimum raise (up to all in). --ruleset standard on the server avoids it "
              "(docs/acpc.md).", file=sys.stderr)
    bridge = Bridge(
        host, port, args.name, password=args.password, token_file=args.token_file,
        acpc_host=args.acpc_host, acpc_port=args.acpc_port, bot_cmd=args.bot_cmd,
        game_file=args.game_file, bot_output=args.bot_output, transcript=args.transcript,
        bot_game=bot_game, connect_timeout=args.bot_startup,
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
    played_for = ""
    if bridge.played_for:
        hands = ", ".join(f"#{h}" for h, _ in bridge.played_for[:20]) + (" ..." if len(bridge.played_for) > 20 else "")
        played_for = f"; {len(bridge.played_for)} hands played for it, its game file cannot express them: {hands}"
    print(f"{args.name}: place {bridge.place} ({bridge.shown} hands shown to the bot, {bridge.lines} lines "
          f"sent to it, {bridge.replies} replies played, {len(bridge.notes)} notes{played_for})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.check is None and args.name is None:
        parser.error("--name is needed (the seat's name in the tournament)")
    if args.check is None and args.bot_cmd is None and args.bot_game is None and args.game_file is None:
        parser.error("one connection (no --bot-cmd): say which game file the bot was started with "
                     "(--bot-game FILE: it is shown only the hands that are exactly that game), or give "
                     "--game-file FILE for a bot that rereads it every hand; for a tournament, --bot-cmd "
                     "starts the bot afresh with each hand's own game file")
    if args.bot_cmd is not None and args.bot_game is not None:
        parser.error("--bot-game is for one connection; with --bot-cmd every hand has its own game file")
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
        print(f"{args.name or 'hickory-acpc'}: interrupted (Ctrl-C): the seat is left to the table's clock", file=sys.stderr)
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
