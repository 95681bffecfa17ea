"""``hickory-bot``: play bots against a server, or load it and measure.

    hickory-bot HOST[:PORT] --name NAME --strategy random|calling-station|solid [--count N]
    hickory-bot load HOST[:PORT] --clients N --think SECONDS --duration SECONDS [--churn P]

The first form plays until the tournament is over and prints each bot's place (with
``--count N`` the bots are NAME-1 .. NAME-N). The load tool connects N ``random`` bots
that think for about ``--think`` seconds a decision, plays for ``--duration`` seconds and
reports hands per second (distinct hands seen starting), the action latency as the bots
see it (from sending ``act`` to the server's first message about it), reconnects and
errors. ``--churn P`` cuts the connection of each bot with probability P every second
(except in the last two seconds); the bot reconnects and resumes its seat with its token. ``run_load`` is the same from
Python (``bench/server.py``, tests).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import attrs
import trio

from client.bot import Bot
from client.model import ConnectionState
from client.strategies import STRATEGIES
from protocol import messages as m

__all__ = ["LoadReport", "main", "parse_address", "run_load"]

DEFAULT_PORT = 7777


def parse_address(text: str) -> tuple[str, int]:
    """``host``, ``host:port``, ``[::1]:port`` -> (host, port)."""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, ""
    if not port:
        return host or "127.0.0.1", DEFAULT_PORT
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"not a port: {port!r}")
    return host or "127.0.0.1", int(port)


# =====================================================================================
# The load tool
# =====================================================================================


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100) by nearest rank; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


@attrs.frozen(kw_only=True)
class LoadReport:
    """What a load run measured. Latencies in seconds.

    ``resumed_ok``: every reconnect was welcomed back as the same player (no refusal).
    """

    clients: int
    joined: int  # bots the server welcomed at least once
    duration: float
    hands: int
    actions: int
    latency_p50: float | None
    latency_p99: float | None
    reconnects: int
    drops: int
    errors: int
    refused: int
    resumed_ok: bool
    refusals: tuple[str, ...] = ()

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.duration if self.duration > 0 else 0.0

    def summary(self) -> str:
        def ms(v: float | None) -> str:
            return "-" if v is None else f"{v * 1000:.1f} ms"

        lines = [
            f"clients: {self.clients} ({self.joined} joined), duration: {self.duration:g} s",
            f"hands: {self.hands} ({self.hands_per_second:.2f} per second)",
            f"actions: {self.actions}, latency p50 {ms(self.latency_p50)}, p99 {ms(self.latency_p99)}",
            f"reconnects: {self.reconnects} (churn drops: {self.drops}), "
            f"resumed as the same player: {'yes' if self.resumed_ok else 'NO'}",
            f"errors: {self.errors}, refused: {self.refused}",
        ]
        lines += [f"  refused: {r}" for r in self.refusals[:5]]
        return "\n".join(lines)


class _Watch:
    """Per-bot welcome bookkeeping: was every welcome after the first the same player?"""

    def __init__(self) -> None:
        self.player_id: int | None = None
        self.welcomes = 0
        self.mismatch = False

    def __call__(self, msg: m.ServerMessage, now: float) -> None:
        if isinstance(msg, m.Welcome):
            self.welcomes += 1
            if self.player_id is None:
                self.player_id = msg.player_id
            elif msg.player_id != self.player_id:
                self.mismatch = True


async def run_load(
    host: str,
    port: int,
    *,
    clients: int,
    think: float,
    duration: float,
    churn: float = 0.0,
    seed: int | None = None,
    name_prefix: str = "load",
    strategy: str = "random",
    password: str | None = None,
    director_secret: str | None = None,
) -> LoadReport:
    """Connect ``clients`` bots, play for ``duration`` seconds (Trio clock), report."""
    if not 0 <= churn <= 1:
        raise ValueError(f"churn is a probability per bot per second, got {churn}")
    rng = random.Random(seed)
    watches = [_Watch() for _ in range(clients)]
    bots = [
        Bot(
            host, port, f"{name_prefix}-{i + 1}", strategy, seed=rng.getrandbits(32),
            think=think, password=password, on_message=watches[i],
        )
        for i in range(clients)
    ]
    drops = 0

    async def churner() -> None:
        nonlocal drops
        # No cuts in the last two seconds: every cut bot has time to come back before the end.
        while trio.current_time() + 1 <= end - 2:
            await trio.sleep(1)
            for b in bots:
                if b.session.model.connection is ConnectionState.CONNECTED and rng.random() < churn:
                    b.session.drop("load tool churn")
                    drops += 1

    async def start_when_joined() -> None:
        assert director_secret is not None
        while sum(1 for b in bots if b.session.model.me.player_id is not None) < clients:
            await trio.sleep(0.1)
        from client.session import open_session

        async with open_session(host, port, director_secret=director_secret) as d:
            d.send_nowait(m.DirectorCommand(command=m.StartCommand(reason="load test")))
            await trio.sleep(0.5)

    end = trio.current_time() + duration
    async with trio.open_nursery() as nursery:
        for b in bots:
            nursery.start_soon(b.run)
        if director_secret is not None:
            nursery.start_soon(start_when_joined)
        if churn > 0:
            nursery.start_soon(churner)
        await trio.sleep(duration)
        nursery.cancel_scope.cancel()

    latencies = [x for b in bots for x in b.latencies]
    refusals = tuple(f"{b.name}: {b.refused}" for b in bots if b.refused is not None)
    return LoadReport(
        clients=clients,
        joined=sum(1 for w in watches if w.welcomes),
        duration=duration,
        hands=len(set().union(*(b.hands_started for b in bots))) if bots else 0,
        actions=len(latencies),
        latency_p50=percentile(latencies, 50),
        latency_p99=percentile(latencies, 99),
        reconnects=sum(b.session.stats.reconnects for b in bots),
        drops=drops,
        errors=sum(b.session.stats.errors + b.session.stats.bad_lines for b in bots),
        refused=len(refusals),
        resumed_ok=not refusals and not any(w.mismatch for w in watches),
        refusals=refusals,
    )


# =====================================================================================
# The command line
# =====================================================================================


async def _play(args: argparse.Namespace, host: str, port: int) -> int:
    names = [args.name] if args.count == 1 else [f"{args.name}-{i + 1}" for i in range(args.count)]
    token_dir: Path | None = args.token_dir
    if token_dir is not None:
        token_dir.mkdir(parents=True, exist_ok=True)
    bots = [
        Bot(
            host, port, name, args.strategy,
            seed=None if args.seed is None else args.seed + i,
            token_file=token_dir / f"{name}.token" if token_dir is not None else None,
            password=args.password, think=args.think,
            deck_record=_record_path(args.deck_record, name, len(names)),
        )
        for i, name in enumerate(names)
    ]
    async with trio.open_nursery() as nursery:
        if args.until_stdin_closes:
            nursery.start_soon(_cancel_when_stdin_closes, nursery.cancel_scope)
        async with trio.open_nursery() as players:
            for b in bots:
                players.start_soon(b.run)
        nursery.cancel_scope.cancel()
    status = 0
    for b in bots:
        if b.refused is not None:
            print(f"{b.name}: refused: {b.refused}", file=sys.stderr)
            status = 1
        elif b.place is None:
            print(f"{b.name}: stopped before the end ({b.session.model.connection_reason})")
        else:
            print(f"{b.name}: place {b.place}")
        report = b.decks.report if b.decks is not None else None
        if report is not None:
            print(f"{b.name}: {report.summary()}")
            if report.failed:
                status = 1
    return status


def _record_path(given: Path | None, name: str, count: int) -> Path | None:
    """``--deck-record``: the file itself for one bot, a directory of NAME.jsonl for several."""
    if given is None:
        return None
    return given if count == 1 else given / f"{name}.jsonl"


async def _cancel_when_stdin_closes(scope: trio.CancelScope) -> None:
    """End the bots when the parent that started them is gone (its end of the pipe closed)."""
    stdin = trio.lowlevel.FdStream(os.dup(sys.stdin.fileno()))
    async with stdin:
        while await stdin.receive_some(1024):
            pass
    scope.cancel()


async def _load(args: argparse.Namespace, host: str, port: int) -> int:
    report = await run_load(
        host, port, clients=args.clients, think=args.think, duration=args.duration,
        churn=args.churn, seed=args.seed, name_prefix=args.name_prefix, strategy=args.strategy,
        password=args.password, director_secret=args.director_secret,
    )
    print(report.summary())
    return 1 if report.refused else 0


def address_or_auto(text: str) -> tuple[str, int]:
    """``HOST[:PORT]``, or ``auto``: the one server announced on this network
    (``client/discovery.py``; its plain port)."""
    if text == "auto":
        from client.discovery import DiscoveryError, auto_address

        try:
            return auto_address()
        except DiscoveryError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return parse_address(text)


_address = address_or_auto


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", type=_address, metavar="HOST[:PORT]",
                   help=f"the server (port {DEFAULT_PORT} if not given), or auto: the one announced "
                   "on this network")
    p.add_argument("--password", default=os.environ.get("HICKORY_PASSWORD"),
                   help="the tournament password, if it has one (default: $HICKORY_PASSWORD)")
    p.add_argument("--seed", type=int, help="seed the bots' randomness (repeatable play)")
    p.add_argument("-v", "--verbose", action="store_true", help="log warnings and connections")


def _play_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hickory-bot",
        description="Play bots in a Hickory tournament until it ends. "
        "'hickory-bot load --help' for the load tool.",
    )
    _common(p)
    p.add_argument("--name", required=True, help="the bot's name (NAME-1..N with --count)")
    p.add_argument("--strategy", default="solid", choices=sorted(STRATEGIES),
                   help="how it plays (default solid)")
    p.add_argument("--count", type=int, default=1, help="how many bots (default 1)")
    p.add_argument("--think", type=float, default=0.0, help="seconds to wait before each action")
    p.add_argument("--token-dir", type=Path,
                   help="keep each bot's session token here, so a restarted bot resumes its seat")
    p.add_argument("--deck-record", type=Path, metavar="FILE",
                   help="record what the bot saw of every deck, for 'hickory verify FILE' "
                   "(docs/fairness.md); with --count, a directory of NAME.jsonl files")
    # For a parent that runs the bots (hickory-server --bots): stop when it goes away.
    p.add_argument("--until-stdin-closes", action="store_true", help=argparse.SUPPRESS)
    return p


def _load_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hickory-bot load",
        description="Load a server with random bots and report hands/s, latency, reconnects, errors.",
    )
    _common(p)
    p.add_argument("--clients", type=int, required=True, help="how many bots")
    p.add_argument("--think", type=float, default=0.5, help="mean seconds each decision takes")
    p.add_argument("--duration", type=float, required=True, help="seconds to play")
    p.add_argument("--churn", type=float, default=0.0,
                   help="each second, drop each bot's connection with this probability "
                   "(it reconnects with its token)")
    p.add_argument("--name-prefix", default="load", help="bots are PREFIX-1..N (default load)")
    p.add_argument("--strategy", default="random", choices=sorted(STRATEGIES),
                   help="how the bots play (default random; random bots bust each other fast, "
                   "calling-station keeps a long run going)")
    p.add_argument("--director-secret", help="start the tournament once every bot has joined")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    load = bool(args_list) and args_list[0] == "load"
    parser = _load_parser() if load else _play_parser()
    args = parser.parse_args(args_list[1:] if load else args_list)
    if args.count < 1 if not load else args.clients < 1:
        parser.error("need at least one bot")
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.ERROR,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    if not args.verbose:
        # A full server or a rate limit is waited out, not fatal: say so, and when the
        # next try is.
        logging.getLogger("hickory.session").setLevel(logging.WARNING)
    host, port = args.address
    try:
        return trio.run(_load if load else _play, args, host, port)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
