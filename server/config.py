"""The server's settings: every tournament option and every limit, from flags or a TOML file.

One frozen value built once at start-up; ``--help`` lists every option. The tournament's
own options (``server.tournament.settings.Settings``) are built from it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import tomllib
from pathlib import Path
from typing import Any

import attrs

from poker.actions import Ruleset
from protocol.framing import MAX_SERVER_LINE
from server.tournament.errors import TournamentError
from server.tournament.settings import Settings, split_levels

MAX_PLAYERS = 3000
"""The most players a server takes: its lobby of that many stays under ``MAX_SERVER_LINE``."""


@attrs.frozen(kw_only=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 7777
    db: Path | None = Path("hickory.db")  # None: no persistence (benchmarks, tests)
    synchronous: str = "full"  # full: every commit fsynced (survives a power cut); normal: kill -9 only
    name: str = "Hickory Poker Showdown"
    starting_stack: int = 10_000
    schedule: tuple[tuple[int, ...], ...] | None = None  # None: the default; SB/BB or SB/BB/ANTE levels
    level_minutes: float = 20.0
    hands_per_level: int | None = None
    seats: int = 9
    ruleset: Ruleset = Ruleset.HICKORY
    action_clock: float = 30.0
    time_bank: float = 60.0
    reconnect_grace: float = 60.0
    deadline: dt.datetime | None = None  # None: the midnight after the start, local time
    no_deadline: bool = False
    start_at: int | None = None  # start automatically when this many have joined
    start_time: dt.datetime | None = None  # or at this time
    password: str | None = None
    director_secret: str | None = None  # None: generated and printed at start-up
    hand_pause: float = 2.0  # seconds between hands, so people can see how a hand ended
    seed_window: float = 1.0  # longest wait for the players' seeds before a deal (docs/fairness.md)
    bots: int = 0
    bot_strategy: str = "solid"
    max_connections: int = 2000  # lowered at start-up to what the file limit can hold
    max_connections_per_address: int = 32  # connections from one address that are not a seated player's
    max_players: int = 1000
    max_spectators_per_table: int = 50  # each watcher costs every broadcast at the table one more send
    max_line: int = 65536
    lines_per_second: float = 400.0  # lines read from one connection per second (one refused counts 5)
    line_burst: int = 800  # ... and at once; past it the server reads that connection more slowly
    queued_per_connection: int = 4  # actions and sit-outs one connection may have waiting at its table
    lobby_per_minute: float = 30.0  # lobby requests per connection
    standings_per_minute: float = 30.0
    snapshot_per_minute: float = 60.0
    history_per_minute: float = 20.0
    status_per_minute: float = 20.0  # sit_out and call_director per connection
    joins_per_minute_per_address: float = 30.0  # registrations from one address
    joins_per_minute: float = 300.0  # registrations from everyone together
    failures_before_lockout: int = 5  # wrong passwords, secrets or tokens from one address
    lockout_seconds: float = 60.0  # first lockout; each further one doubles, up to an hour
    failures_per_minute: float = 60.0  # wrong guesses from everyone together
    handshake_timeout: float = 10.0
    line_timeout: float = 10.0  # a started line must be finished within this (slowloris)
    ping_interval: float = 20.0
    idle_timeout: float = 60.0
    send_queue_bytes: int = 2 << 20  # at least twice the longest line (MAX_SERVER_LINE)
    send_timeout: float = 10.0
    chat_per_10s: int = 5
    max_errors: int = 20  # bad messages in a row before the connection is closed
    port_file: Path | None = None  # write the listening port here once bound (tools, tests)
    clock_port: int | None = None  # the room's clock web page (server/clock/); None: off
    announce: bool = False  # announce on the LAN even when listening on loopback (tests in a namespace)
    no_announce: bool = False  # never announce (server/discovery.py; default: on unless on loopback)
    share_client: int | None = None  # serve the client (wheel, zip app) on this HTTP port; the clock's port does too
    tls: bool = False  # also serve the protocol over TLS on tls_port (server/tls.py)
    tls_port: int = 7778  # 0 picks a free one
    metrics: Path | None = None  # keep latency, loop-step and GC figures; rewrite this JSON file every second
    metrics_stacks: bool = False  # diagnosis: note what a slow loop step was doing (a sampling thread)
    # Reproducible games for tests and demos: seeds the seat draw of a new tournament and
    # every deck. Never in a real tournament: whoever knows the seed knows every card.
    seed: int | None = None

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.max_players <= MAX_PLAYERS:
            raise ValueError(f"max_players must be from 1 to {MAX_PLAYERS} (the lobby lists every "
                             f"player in one line of at most {MAX_SERVER_LINE} bytes); got {self.max_players}")
        for name in ("max_connections", "max_connections_per_address", "line_burst", "queued_per_connection",
                     "failures_before_lockout", "max_spectators_per_table"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1; got {getattr(self, name)}")

    def tournament_settings(self, deadline: float | None) -> Settings:
        kwargs: dict[str, Any] = {}
        if self.schedule is not None:
            # Levels written SB/BB/ANTE carry a big-blind ante and turn it on (issue 27).
            kwargs["schedule"], kwargs["antes"] = split_levels(self.schedule)
            kwargs["big_blind_ante"] = bool(kwargs["antes"])
        return Settings(
            name=self.name,
            starting_stack=self.starting_stack,
            level_minutes=self.level_minutes,
            hands_per_level=self.hands_per_level,
            seats_per_table=self.seats,
            ruleset=self.ruleset,
            action_clock=self.action_clock,
            time_bank=self.time_bank,
            reconnect_grace=self.reconnect_grace,
            deadline=deadline,
            **kwargs,
        )

    def dial_host(self) -> str:
        """The address a program on this machine dials to reach the server (the built-in
        bots): the listening address, or loopback when the server listens on every address."""
        return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(self.host, self.host)

    def deadline_wall(self, now: dt.datetime) -> dt.datetime | None:
        """The deadline as a wall-clock time: the one given, or the next local midnight."""
        if self.no_deadline:
            return None
        if self.deadline is not None:
            return self.deadline
        local = now.astimezone()
        return (local + dt.timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)


def _time(text: str) -> dt.datetime:
    """ISO date-time, or HH:MM meaning the next such time, local."""
    try:
        if len(text) <= 5 and ":" in text:
            hh, mm = (int(x) for x in text.split(":"))
            now = dt.datetime.now().astimezone()
            when = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
            return when if when > now else when + dt.timedelta(days=1)
        when = dt.datetime.fromisoformat(text)
        return when if when.tzinfo else when.astimezone()
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a time: {text!r} (use HH:MM or ISO 8601)") from exc


def _schedule(text: str) -> tuple[tuple[int, ...], ...]:
    try:
        levels = []
        for part in text.split(","):
            numbers = part.strip().split("/")
            if len(numbers) not in (2, 3):
                raise ValueError(part)
            levels.append(tuple(int(n) for n in numbers))
        return tuple(levels)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"not a schedule: {text!r} (use SB/BB,SB/BB,... e.g. 100/200,150/300; "
            "SB/BB/ANTE for a big-blind ante, e.g. 100/200/200)"
        ) from exc


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = ServerConfig()
    p.add_argument("--config", type=Path, help="a TOML file with any of these options (flags win)")
    p.add_argument("--host", help=f"address to listen on (default {d.host}; 0.0.0.0 for a LAN)")
    p.add_argument("--port", type=int, help=f"TCP port (default {d.port}; 0 picks a free one)")
    p.add_argument("--db", type=Path, help="SQLite file (default hickory.db): new file starts a tournament, existing one resumes it")
    p.add_argument("--no-db", action="store_true", help="keep nothing on disk (tests, benchmarks)")
    p.add_argument("--synchronous", choices=["full", "normal"],
                   help="full (default): every action is fsynced and survives a power cut; "
                        "normal: faster on slow disks, survives a server crash but may lose the last "
                        "actions in a power cut")
    p.add_argument("--name", help="the tournament's name")
    p.add_argument("--starting-stack", type=int, help=f"chips per player (default {d.starting_stack})")
    p.add_argument("--schedule", type=_schedule, help="blind levels SB/BB,SB/BB,... or SB/BB/ANTE for a big-blind ante (default: the rulebook's schedule, no antes)")
    p.add_argument("--level-minutes", type=float, help=f"minutes per level (default {d.level_minutes:g})")
    p.add_argument("--hands-per-level", type=int, help="levels by hands per table instead of minutes")
    p.add_argument("--seats", type=int, help=f"seats per table, 2 to 10 (default {d.seats})")
    p.add_argument("--ruleset", choices=[r.value for r in Ruleset], help="hickory (min raise = big blind, default) or standard")
    p.add_argument("--action-clock", type=float, help=f"seconds per decision (default {d.action_clock:g})")
    p.add_argument("--time-bank", type=float, help=f"each player's time bank in seconds (default {d.time_bank:g})")
    p.add_argument("--reconnect-grace", type=float, help=f"seconds before a dropped player is shown as disconnected (default {d.reconnect_grace:g})")
    p.add_argument("--deadline", type=_time, help="when the tournament ends: HH:MM or ISO time (default: the midnight after the start, local)")
    p.add_argument("--no-deadline", action="store_true", help="play until one player has every chip")
    p.add_argument("--start-at", type=int, help="start automatically when this many players have joined")
    p.add_argument("--start-time", type=_time, help="start automatically at this time (HH:MM or ISO)")
    p.add_argument("--password", help="players need this password to join")
    p.add_argument("--director-secret", help="the director's secret (default: generated, printed once, kept hashed in the database)")
    p.add_argument("--hand-pause", type=float, help=f"seconds between hands (default {d.hand_pause:g})")
    p.add_argument("--seed-window", type=float,
                   help=f"longest wait in seconds for the players' deck seeds before a deal (default {d.seed_window:g})")
    p.add_argument("--bots", type=int, help="fill this many seats with built-in bots")
    p.add_argument("--bot-strategy", choices=["random", "calling-station", "solid"], help="the built-in bots' strategy (default solid)")
    p.add_argument("--max-connections", type=int, help=f"refuse connections past this (default {d.max_connections})")
    p.add_argument("--max-connections-per-address", type=int,
                   help="connections from one address that are not a seated player's: handshakes, "
                        f"spectators, the director (default {d.max_connections_per_address})")
    p.add_argument("--max-players", type=int, help=f"players who may join (default {d.max_players})")
    p.add_argument("--max-spectators-per-table", type=int,
                   help=f"spectators watching one table (default {d.max_spectators_per_table}; more watch the lobby)")
    p.add_argument("--max-line", type=int, help=f"longest protocol line in bytes (default {d.max_line})")
    p.add_argument("--joins-per-minute-per-address", type=float,
                   help=f"registrations from one address per minute (default {d.joins_per_minute_per_address:g})")
    p.add_argument("--joins-per-minute", type=float,
                   help=f"registrations from everyone per minute (default {d.joins_per_minute:g})")
    p.add_argument("--port-file", type=Path, help="write the bound port to this file (for scripts)")
    p.add_argument("--clock-port", type=int,
                   help="serve the tournament clock for the room's screen on this HTTP port, at the "
                        "--host address (off unless given; 0 picks a free one)")
    announcing = p.add_mutually_exclusive_group()
    announcing.add_argument("--no-announce", action="store_true",
                            help="do not announce the server on the LAN (DNS-SD over multicast DNS, "
                                 "service _hickory._tcp); it is announced by default unless it listens on loopback")
    announcing.add_argument("--announce", action="store_true",
                            help="announce it even when listening on loopback (for a test network namespace)")
    p.add_argument("--share-client", type=int, metavar="PORT",
                   help="serve the client to the LAN on this HTTP port (a wheel for pip and a zip "
                        "application needing only Python 3.11; the clock's port serves them too)")
    p.add_argument("--tls", action="store_true",
                   help="also serve the protocol over TLS on --tls-port, with a self-signed certificate "
                        "made once and kept beside the database; its fingerprint is printed (plain TCP "
                        "stays on --port for clients that do not speak TLS)")
    p.add_argument("--tls-port", type=int, help=f"the TLS port (default {d.tls_port}; 0 picks a free one)")
    p.add_argument("--metrics", type=Path, metavar="FILE",
                   help="measure where the server's time goes (act read -> broadcast written, event-loop "
                        "steps, garbage-collector pauses); written to FILE every second and summarised in "
                        "the log at exit")
    p.add_argument("--metrics-stacks", action="store_true",
                   help="with --metrics: also note the stack of every slow event-loop step (diagnosis; costs a little)")
    p.add_argument("--seed", type=int, help="TESTS AND DEMOS ONLY: seed the seat draw and every deck "
                                            "(whoever knows it knows every card)")


_FIELDS = {f.name for f in attrs.fields(ServerConfig)}


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    values: dict[str, Any] = {}
    if args.config is not None:
        with open(args.config, "rb") as f:
            data = tomllib.load(f)
        for key, value in data.items():
            name = key.replace("-", "_")
            if name not in _FIELDS:
                raise SystemExit(f"{args.config}: unknown option {key!r}")
            if name in ("deadline", "start_time") and isinstance(value, str):
                value = _time(value)
            if name == "schedule" and isinstance(value, str):
                value = _schedule(value)
            if name == "schedule" and isinstance(value, list):
                value = tuple(tuple(x) for x in value)
            values[name] = value
    for name in _FIELDS:
        value = getattr(args, name, None)
        if value is not None and value is not False:
            values[name] = value
    if getattr(args, "no_db", False):
        values["db"] = None
    for name in ("db", "metrics", "port_file"):
        if name in values and isinstance(values[name], str):
            values[name] = Path(values[name])
    if "ruleset" in values:
        values["ruleset"] = Ruleset(values["ruleset"])
    try:
        config = ServerConfig(**values)
        config.tournament_settings(None)  # the tournament's own checks, said before starting
    except (TypeError, ValueError, TournamentError) as exc:
        raise SystemExit(f"hickory-server: {exc}") from None
    return config
