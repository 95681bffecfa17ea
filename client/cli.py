"""``hickory``: the terminal client a player runs to sit at a tournament table.

    hickory [HOST[:PORT]] --name NAME [--password P]     play (join, or come back)
    hickory [HOST[:PORT]] --spectate [TABLE]             watch, no hole cards
    hickory [HOST[:PORT]] --director SECRET              run the tournament
    hickory verify RECORD                                check every deck you were dealt from

The session token a join earns is saved per server and name in the user's config
directory (``$XDG_CONFIG_HOME/hickory/tokens.json``, else ``~/.config/hickory/``, mode
0600), so starting the client again puts the player back in their seat, mid-hand if need
be. A player's client also records what it sees of every deck (docs/fairness.md) in
``decks/HOST_PORT_NAME.jsonl`` there (``--deck-record``), checks every hand once the
server reveals its seeds, and ``hickory verify RECORD`` checks such a record again.
The network side is a ``ClientSession`` running in Trio guest mode on the asyncio loop
prompt_toolkit draws from: one thread, no locks; key handlers queue messages with
``send_nowait`` and the session invalidates the screen after every change.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, get_args

import trio
from prompt_toolkit.application import Application

from client.deckcheck import DeckLog
from client.deckfile import default_record_path, main_verify, recording_log
from client.discovery import BROWSE_SECONDS, DiscoveryError, browse, choose
from client.handlog import HandLog, open_hand_log
from client.model import ClientModel, ConnectionState
from client.pinning import KnownServers, TlsTrust
from client.plain import main_plain
from client.session import ClientSession
from client.tui.app import create_application, note_server_message, turn_bell
from client.tui.cards import with_four_colours
from client.tui.state import UiState
from protocol import errors as E
from protocol import messages as m
from protocol import names
from protocol.fingerprint import normalize_fingerprint

__all__ = ["main", "parse_address", "refusal_text", "TokenStore"]

NAME_RULE: m.Text = get_args(m.Name)[1]
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7777
LIVENESS_PING_SECONDS = 1.0
"""The terminal client pings this long after it last sent anything (the server answers)."""
LIVENESS_IDLE_SECONDS = 10.0
"""Nothing heard for this long: the connection is given up and made again."""
DEFAULT_TLS_PORT = 7778


# =====================================================================================
# Where the server is
# =====================================================================================


def parse_address(text: str | None, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``:PORT``, ``[v6]:PORT`` or a bare v6 address to (host, port)."""
    if not text:
        return DEFAULT_HOST, default_port
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    host = host or DEFAULT_HOST
    if not port:
        return host, default_port
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not a port: {port!r} (use HOST:PORT, e.g. 192.168.1.20:{DEFAULT_PORT})")
    return host, int(port)


# =====================================================================================
# Session tokens, kept between runs
# =====================================================================================


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / "hickory"


class TokenStore:
    """Session tokens by server ("host:port") and player name, in one JSON file (mode 0600).

    The token is the key to a seat, so the file is written owner-only, atomically (a
    temporary file renamed over it), and a damaged file is treated as empty rather than
    stopping anyone from playing.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else config_dir() / "tokens.json"

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            k: {n: t for n, t in v.items() if isinstance(n, str) and isinstance(t, str)}
            for k, v in data.items()
            if isinstance(k, str) and isinstance(v, dict)
        }

    def get(self, server: str, name: str) -> str | None:
        return self._load().get(server, {}).get(name)

    def put(self, server: str, name: str, token: str | None) -> None:
        """Save (or with None, forget) the token for ``name`` on ``server``."""
        data = self._load()
        names = data.setdefault(server, {})
        if token is None:
            names.pop(name, None)
            if not names:
                data.pop(server, None)
        else:
            names[name] = token
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=".tokens-", dir=self.path.parent)
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2, sort_keys=True)
                f.write("\n")
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


# =====================================================================================
# Refusals, in words a player can act on
# =====================================================================================


def refusal_text(code: str | None, message: str, args: argparse.Namespace) -> str:
    """What the player should do about a refusal (the server's own message follows)."""
    director = getattr(args, "director", None) is not None
    if director and code in (E.WRONG_PASSWORD, E.UNAUTHORIZED):
        # The director logs in with a secret, not the players' password.
        return ("Wrong director secret: use the one the server printed at its first start "
                "and start again with --director SECRET (lost it? the host makes a new one with "
                f"hickory-server director-secret --db FILE). Server said: {message}")
    hint = {
        E.WRONG_PASSWORD: "Wrong password: ask the organiser for it and start again with --password",
        E.NAME_TAKEN: f"The name {getattr(args, 'name', '')!r} is taken: choose another with --name",
        E.SERVER_FULL: "The server is full: no seat or connection slot is free",
        E.UNSUPPORTED_VERSION: "This client and the server speak different protocol versions: "
        "update the client",
        E.UNAUTHORIZED: "Refused: check the director secret" if getattr(args, "director", None) else "Refused",
        E.BAD_TOKEN: "The saved seat is no longer valid on this server",
        E.TOURNAMENT_OVER: "The tournament is over",
        E.INVALID_STATE: "The tournament is not taking new players now",
    }.get(code or "")
    return f"{hint}. Server said: {message}" if hint else message


# =====================================================================================
# The client: prompt_toolkit on asyncio, the session in Trio guest mode
# =====================================================================================


class Client:
    """The ``Actions`` the key bindings use, and the Trio side that feeds the model."""

    def __init__(self, args: argparse.Namespace, host: str, port: int, tokens: TokenStore) -> None:
        self.args = args
        self.host, self.port = host, port
        self.server_key = f"{host}:{port}"
        self.tokens = tokens
        self.model = ClientModel()
        self.ui = UiState(
            ascii=args.ascii, server_label=self.server_key, practice=args.practice,
            confirm_quit=not args.no_confirm, confirm_all_in=not args.no_confirm,
        )
        # The table a spectator asked for (--spectate 2), else the first one in play.
        self.watch: int | None = args.spectate or None
        self.app: Application[None] | None = None
        self.session: ClientSession | None = None
        self.trio_token: trio.lowlevel.TrioToken | None = None
        self._offset = 0.0
        self._stop: trio.Event | None = None
        self.refusal: str | None = None
        self.tls = tls_trust(args, host, port)
        self.hand_log: HandLog | None = None  # this player's hands as PokerStars text

    # -- Actions ------------------------------------------------------------------------

    def send(self, msg: m.ClientMessage) -> bool:
        s = self.session
        return s.send_nowait(msg) if s is not None else False

    def quit(self) -> None:
        app = self.app
        if app is not None and app.is_running and app.future is not None and not app.future.done():
            app.exit()

    def now(self) -> float:
        """The session's clock (Trio's), read from outside Trio."""
        return time.perf_counter() + self._offset

    # -- called from outside Trio ---------------------------------------------------------

    def stop(self) -> None:
        """Ask the Trio side to say goodbye and finish (no-op if it already has)."""
        token, stop = self.trio_token, self._stop
        if token is None or stop is None:
            return
        with contextlib.suppress(trio.RunFinishedError):
            token.run_sync_soon(stop.set)

    # -- the Trio side ----------------------------------------------------------------------

    async def trio_main(self) -> None:
        self.trio_token = trio.lowlevel.current_trio_token()
        self._offset = trio.current_time() - time.perf_counter()
        self._stop = trio.Event()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._sessions)
            await self._stop.wait()
            session = self.session
            if session is not None:
                with trio.move_on_after(2):
                    await session.close("the player quit")
            nursery.cancel_scope.cancel()

    async def _sessions(self) -> None:
        """Run the session; a saved token the server no longer knows falls back to a join."""
        args = self.args
        while True:
            token = None
            if args.name is not None:
                token = self.tokens.get(self.server_key, args.name)
            self.model.me.token = token
            if args.name is not None:
                # A join starts a new record (a new tournament); a resume goes on with it.
                path = args.deck_record or default_record_path(config_dir(), self.host, self.port, args.name)
                try:
                    self.model.decks = recording_log(path, fresh=token is None)
                except (OSError, ValueError) as exc:
                    self.model.decks = DeckLog()
                    self.ui.say(f"cannot keep the deck record in {path}: {exc}")
                self.hand_log = open_hand_log(config_dir(), self.host, self.port, args.name,
                                              fresh=token is None, say=self.ui.say)
            session = ClientSession(
                self.host,
                self.port,
                name=args.name,
                password=args.password,
                token=token,
                spectate=args.spectate is not None,
                spectate_table=args.spectate or None,
                director_secret=args.director,
                model=self.model,
                on_change=self._changed,
                on_message=self._message,
                first_connect_final=True,
                # A ping a second when nothing else is sent: a server that stops answering
                # shows within SILENT_SECONDS (client.tui.liveness), not after a minute.
                ping_interval=LIVENESS_PING_SECONDS,
                idle_timeout=LIVENESS_IDLE_SECONDS,
                tls=self.tls,
            )
            self.session = session
            await session.run()
            err = self.model.last_error
            code = err.code if err is not None else None
            if self.model.connection is ConnectionState.REFUSED:
                if code == E.BAD_TOKEN and token is not None and args.name is not None:
                    self.tokens.put(self.server_key, args.name, None)
                    self.model.last_error = None
                    continue
                reason = err.message if err is not None else (self.model.connection_reason or "refused")
                self.refusal = refusal_text(code, reason, args)
                self.model.connection_reason = self.refusal
                self._changed(self.model)
            return

    def _changed(self, model: ClientModel) -> None:
        if self.app is not None:
            self.app.invalidate()

    def _message(self, msg: m.ServerMessage, now: float) -> None:
        model = self.model
        self.ui.last_heard = now
        if isinstance(msg, m.Welcome) and msg.token is not None and msg.name is not None:
            try:
                self.tokens.put(self.server_key, msg.name, msg.token)
            except OSError as exc:
                self.ui.say(f"could not save the session token: {exc}")
        if isinstance(msg, m.Welcome) and self.tls is not None and self.tls.first_use:
            self.tls.first_use = False  # said once
            self.ui.say(f"first TLS connection to {self.server_key}: its certificate "
                        f"{self.tls.presented} is trusted from now on (compare it with the host's screen)")
        if model.me.role in ("spectator", "director") and model.table is None:
            # Watch a table as soon as there is one (a director is not sent one by itself):
            # the one asked for, else the first in play. The welcome names the table the
            # server will send a snapshot of; a lobby before that snapshot must not ask
            # for another table.
            if isinstance(msg, m.Welcome):
                if msg.table is not None:
                    self.watch = msg.table
                    self._asked = msg.table
                    self.send(m.SnapshotRequest(table=msg.table))
            elif isinstance(msg, m.Lobby) and msg.tables and model.connection is ConnectionState.CONNECTED:
                tables = [t.table for t in msg.tables]
                want = self.watch if self.watch in tables else tables[0]
                if getattr(self, "_asked", None) != want:
                    self._asked = want
                    self.send(m.SnapshotRequest(table=want))
        if self.hand_log is not None:
            self.hand_log.received(msg, model)
        note_server_message(model, self, msg, now)
        if turn_bell(model, self.ui, msg) and self.app is not None:
            # A bell, in case the player is looking elsewhere (most terminals flash or beep).
            self.app.output.bell()


async def run_client(args: argparse.Namespace, host: str, port: int, tokens: TokenStore) -> int:
    client = Client(args, host, port, tokens)
    app = create_application(client.model, client, client.now)
    if getattr(args, "four_colour", False):
        app.style = with_four_colours(app.style)
    client.app = app
    loop = asyncio.get_running_loop()
    trio_done: asyncio.Future[Any] = loop.create_future()

    def done_callback(outcome: Any) -> None:
        if not trio_done.done():
            trio_done.set_result(outcome)
        client.quit()

    def start_trio() -> None:
        trio.lowlevel.start_guest_run(
            client.trio_main,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=loop.call_soon,
            host_uses_signal_set_wakeup_fd=True,
            done_callback=done_callback,
        )

    try:
        await app.run_async(pre_run=start_trio)
    finally:
        client.stop()
        outcome = await trio_done
    outcome.unwrap()
    if client.refusal:
        print(f"hickory: {client.refusal}", file=sys.stderr)
        return 1
    model = client.model
    if model.finished is not None:
        place = model.my_place
        print(f"{model.finished.name} is over" + (f": you finished in place {place}." if place else "."))
    elif model.me.role == "player" and model.me.name and not args.practice:
        print("Your seat is kept. Come back with: "
              + come_back_command(host, port, model.me.name, args.password, tls=client.tls is not None))
    return 0


def tls_trust(args: argparse.Namespace, host: str, port: int) -> TlsTrust | None:
    """What this run trusts over TLS (None: plain TCP). ``--accept-fingerprint`` means TLS."""
    if not getattr(args, "tls", False) and getattr(args, "accept_fingerprint", None) is None:
        return None
    path = getattr(args, "known_servers", None) or config_dir() / "known_servers.json"
    return TlsTrust(known=KnownServers(path), server=f"{host}:{port}",
                    accept=getattr(args, "accept_fingerprint", None),
                    announced=getattr(args, "announced_fingerprint", None))


def discovered(args: argparse.Namespace, seconds: float = BROWSE_SECONDS) -> tuple[str, int] | None:
    """No address given: the server announced on this network (``client/discovery.py``),
    over TLS when it offers TLS; None when none is (then this machine's, as before).

    The player picks from a list when there are several (``--tournament`` picks by name);
    an announced fingerprint is checked on first use (``args.announced_fingerprint``)."""
    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    say("hickory: looking for servers on this network...")
    try:
        found = browse(seconds)
    except DiscoveryError as exc:
        say(f"hickory: {exc}")
        found = []
    if not found and args.tournament is None:
        say(f"hickory: no server announced itself on this network; trying this machine "
            f"({DEFAULT_HOST}) instead. Elsewhere, give the address: hickory HOST:PORT --name NAME")
        return None
    chosen = choose(found, pick=args.tournament, ask=input if sys.stdin.isatty() else None, say=say)
    if chosen.tls_port is not None:
        args.tls = True
        args.announced_fingerprint = chosen.fingerprint
        say(f"hickory: joining {chosen.describe()}, over TLS")
        return chosen.host, chosen.tls_port
    if args.tls:
        raise DiscoveryError(f"{chosen.tournament} does not serve TLS (asked for with --tls)")
    say(f"hickory: joining {chosen.describe()}")
    return chosen.host, chosen.port


def come_back_command(host: str, port: int, name: str, password: str | None, *, tls: bool = False) -> str:
    """The command that puts this player back in their seat, quoted for a POSIX shell."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    words = ["hickory", where, "--name", name] + (["--tls"] if tls else [])
    if password:
        words += ["--password", password]
    return shlex.join(words)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hickory",
        description="Play in a Hickory poker tournament from your terminal.",
        epilog="Keys at the table: f fold, c check/call, r raise, m all in, ? for the rest.",
    )
    p.add_argument("server", nargs="?", metavar="HOST[:PORT]",
                   help="the server (default: the one announced on this network, else "
                   f"{DEFAULT_HOST}:{DEFAULT_PORT})")
    p.add_argument("--tournament", metavar="NAME",
                   help="with no address: join the announced server whose tournament is named so "
                   "(part of the name will do) instead of asking which")
    p.add_argument("--name", help="your player name (1-24 characters)")
    p.add_argument("--password", help="the tournament's password, if it has one")
    p.add_argument("--spectate", nargs="?", type=int, const=0, metavar="TABLE",
                   help="watch (a table, or the first one) without playing")
    p.add_argument("--director", metavar="SECRET", help="log in as the tournament director")
    p.add_argument("--ascii", action="store_true", help="plain letters for suits (As Kh), no symbols")
    p.add_argument("--plain", action="store_true",
                   help="line mode for screen readers and pipes: one line per event in words, "
                   "commands typed (call, raise 800, fold; help lists them)")
    p.add_argument("--four-colour", "--four-color", action="store_true", dest="four_colour",
                   help="four-colour deck: spades black, hearts red, diamonds blue, clubs green "
                   "(with --ascii the suit letters stay too)")
    p.add_argument("--no-confirm", action="store_true",
                   help="do not ask before going all in or quitting during a hand")
    p.add_argument("--deck-record", type=Path, metavar="FILE",
                   help="where to record every deck you are dealt from, for 'hickory verify FILE' "
                   "(default: decks/HOST_PORT_NAME.jsonl in the config directory)")
    p.add_argument("--tls", action="store_true",
                   help="connect over TLS (the server's --tls port); the server's certificate is "
                   "trusted on first use and must stay the same afterwards")
    p.add_argument("--accept-fingerprint", metavar="SHA256",
                   help="trust this certificate fingerprint for the server (after comparing it with "
                   "the one the host shows), replacing the one trusted before")
    p.add_argument("--token-file", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--known-servers", type=Path, help=argparse.SUPPRESS)  # tests
    p.add_argument("--practice", action="store_true", help=argparse.SUPPRESS)  # make play
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "verify":
        return main_verify(args_list[1:])
    parser = build_parser()
    args = parser.parse_args(args_list)
    roles = [args.name is not None, args.spectate is not None, args.director is not None]
    if sum(roles) != 1:
        parser.error("give --name NAME to play, or --spectate, or --director SECRET (one of them)")
    if args.name is not None:
        problem = NAME_RULE.problem(args.name)
        if problem:
            parser.error(f"--name: {problem}")
        try:  # the server's own rules, so a name it would refuse is said at once
            args.name = names.normalize(args.name)
        except names.NameRefused as exc:
            parser.error(f"--name: {exc.message}")
    if args.accept_fingerprint is not None:
        try:
            args.accept_fingerprint = normalize_fingerprint(args.accept_fingerprint)
        except ValueError as exc:
            parser.error(f"--accept-fingerprint: {exc}")
        args.tls = True
    where = None
    if args.server is None:
        try:
            where = discovered(args)
        except DiscoveryError as exc:
            print(f"hickory: {exc}", file=sys.stderr)
            return 2
    if where is not None:
        host, port = where
    else:
        try:
            host, port = parse_address(args.server, DEFAULT_TLS_PORT if args.tls else DEFAULT_PORT)
        except ValueError as exc:
            parser.error(str(exc))
    if args.plain:
        if args.director is not None:
            parser.error("--plain plays or watches; the director's console needs the full screen")
        tls = tls_trust(args, host, port)
        come_back = (come_back_command(host, port, args.name, args.password, tls=tls is not None)
                     + " --plain" if args.name is not None else None)
        return main_plain(args, host, port, TokenStore(args.token_file), config=config_dir(),
                          refusal=lambda code, message: refusal_text(code, message, args),
                          come_back=come_back, session_options={"tls": tls})
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print("hickory: needs a terminal (stdin and stdout must be a TTY)", file=sys.stderr)
        return 2
    tokens = TokenStore(args.token_file)
    try:
        return asyncio.run(run_client(args, host, port, tokens))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
