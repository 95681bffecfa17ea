"""The floor of ``bench/server.py``: the same game's messages written by the least a server can do.

    .venv/bin/python bench/floor_server.py [--rounds 3] [--seconds 3]            (a), about 50 s
    .venv/bin/python bench/floor_server.py --only b [--clients 1000] [--rounds-b 2]   (b), minutes

The floor server (this file with ``--serve``, a subprocess like the others) does only what
a poker server cannot skip: per table, one Trio task deals hands with the engine
(``poker.hand.Hand``, a fresh ``shuffled_deck`` each hand), turns each engine event into
its protocol message (``server.outbound.hand_event``, as ours does), encodes it once
(``protocol.codec.encode``) and stamps it per connection with its ``seq``, sends hole cards only to their seat, writes each connection's
lines of the step in one non-blocking ``os.write``, sends ``your_turn`` (``outbound.legal``)
to the player to act, then reads and decodes that player's ``act``
(``protocol.codec.decode_client``) and gives it to the engine. No checks (whose turn,
stale hand, rate limits), no journal, no tournament, no inbox, no reader task per
connection, no send queues, no clock, no lobby. The bots see the same lines as from ours
(the bench prints the bytes per decision each server sent, to show it).

(a) one table of 6 instant bots: ours (``hickory-server``, as bench/server.py runs it),
the bare fan-out server (bench/server.py's peer: no game, two lines per decision) and the
floor, in turns for ``--rounds`` rounds; decisions per second and the server's CPU per
decision, and the ratios within each round (ours / floor, floor / bare, ours / bare).

(b) ``--clients`` bots acting about once a second at tables of ten (bench/server.py's
bot workers): p99 act -> broadcast at the bot and CPU per action, ours, the bare fan-out
and the floor, in turns for ``--rounds-b`` rounds.

Lines start with ``FLOOR`` (not ``TARGET``: the targets are bench/server.py's). Loopback
only, bounded in time.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # before bench/, where server.py would hide the package

import trio  # noqa: E402

# -- the floor server (a subprocess) -----------------------------------------------------


class Conn:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.fd = stream.socket.fileno()
        self.buf = b""
        self.out: list[bytes] = []
        self.seq = 0  # every server line carries the connection's sequence number
        self.post: Any = None  # with hops: the table's channel, which this reader posts to

    def send(self, body: bytes) -> None:
        """An encoded message (without seq), stamped for this connection, for the next flush."""
        self.seq += 1
        self.out.append(b'%b,"seq":%d}\n' % (body[:-1], self.seq))  # protocol.codec.stamp

    async def line(self) -> bytes:
        while b"\n" not in self.buf:
            data = await self.stream.receive_some(1 << 16)
            if not data:
                raise trio.BrokenResourceError
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    async def flush(self) -> None:
        """The step's lines in one non-blocking write; the rest (a full socket) awaited."""
        data = b"".join(self.out)
        self.out.clear()
        try:
            n = os.write(self.fd, data)
        except BlockingIOError:
            n = 0
        if n < len(data):
            await self.stream.send_all(data[n:])


def _shown(hand: Any, public: list[Any], seat: int) -> Any:
    """A seat's shown cards (``outbound.hand_event``'s ``shown``), from one public view."""
    if not public:
        from poker.views import view_for

        public.append(view_for(hand, None))
    return public[0].seat(seat).cards


async def floor_table(table_id: int, conns: list[Conn], inbox: Any = None) -> None:
    """One table's task. ``inbox``: the architecture's hops (the connections' reader tasks
    decode and post to this channel; the task waits with the turn's deadline), else the
    task reads the actor's line itself."""
    from poker.actions import Action, ActionKind
    from poker.cards import shuffled_deck
    from poker.events import HoleCardsDealt
    from poker.hand import Hand
    from protocol import messages as m
    from protocol.codec import decode_client, encode
    from server import outbound

    rng = random.Random(table_id)
    seat_conn = dict(enumerate(conns, start=1))
    stacks = dict.fromkeys(seat_conn, 10**12)
    button = len(conns)
    hand_no = 0
    while True:
        hand_no += 1
        button = button % len(conns) + 1
        hand = Hand(hand_no=hand_no, seats=sorted(stacks.items()), button=button, small_blind=1,
                    big_blind=2, deck=shuffled_deck(rng))
        events = hand.events
        while True:
            shown = functools.partial(_shown, hand, [])  # the public view, made when first needed
            for e in events:
                msg = outbound.hand_event(table_id, hand_no, e, shown, hand.board)
                if msg is None:
                    continue
                body = encode(msg, 1)
                if isinstance(e, HoleCardsDealt):
                    seat_conn[e.seat].send(body)
                else:
                    for c in conns:
                        c.send(body)
            legal = hand.legal_actions()
            if legal is not None:
                actor = seat_conn[legal.seat]
                actor.send(encode(m.YourTurn(
                    table=table_id, hand_no=hand_no, seat=legal.seat, legal=outbound.legal(legal),
                    deadline_ms=60_000, time_bank_ms=60_000), 1))
            for c in conns:
                if c.out:
                    await c.flush()
            if legal is None:
                break
            if inbox is None:
                act = decode_client(await actor.line(), 1)
            else:
                with trio.move_on_at(trio.current_time() + 60.0):  # the action clock
                    _, act = await inbox.receive()
            assert isinstance(act, m.Act)
            events = hand.act(legal.seat, Action(kind=ActionKind(act.action), amount=act.amount))
        assert hand.result is not None
        stacks.update(hand.result.stacks)


async def floor_main(seats: int, hops: bool = False) -> None:
    from protocol import messages as m
    from protocol.codec import decode_client

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1", backlog=4096)
    print(listeners[0].socket.getsockname()[1], flush=True)
    waiting: list[Conn] = []
    tables = 0
    post, inbox = trio.open_memory_channel[Any](1024)

    async with trio.open_nursery() as nursery:

        async def handle(stream: trio.SocketStream) -> None:
            nonlocal tables, waiting, post, inbox
            conn = Conn(stream)
            try:
                join = decode_client(await conn.line(), None)
                assert isinstance(join, m.Join)
                await stream.send_all(b'{"type":"welcome","version":1,"role":"player"}\n')
                waiting.append(conn)
                conn.post = post
                if len(waiting) == seats:
                    tables += 1
                    nursery.start_soon(floor_table, tables, waiting, inbox if hops else None)
                    waiting = []
                    post, inbox = trio.open_memory_channel[Any](1024)
                if not hops:
                    await trio.sleep_forever()  # the table's task reads and writes this stream
                while True:  # the reader task: decode, post to the table's task
                    conn.post.send_nowait((conn, decode_client(await conn.line(), 1)))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

        await trio.serve_listeners(handle, listeners)


# -- the bench ---------------------------------------------------------------------------


def load_bench_server() -> Any:
    """bench/server.py as a module (its name would hide the ``server`` package)."""
    spec = importlib.util.spec_from_file_location("bench_server", ROOT / "bench" / "server.py")
    assert spec is not None and spec.loader is not None
    sys.path.insert(1, str(ROOT / "bench"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def floor_server(bs: Any, seats: int, hops: bool = False) -> Any:
    def port_from(p: subprocess.Popen[str]) -> int:
        assert p.stdout is not None
        line = p.stdout.readline()
        if not line.strip():
            raise SystemExit(f"the floor server did not start: {p.stderr.read() if p.stderr else ''}")
        return int(line)

    return bs.Proc([sys.executable, str(Path(__file__).resolve()), "--serve", str(seats),
                    *(["--hops"] if hops else [])], port_from)


def counting_bot(bs: Any) -> Any:
    class Counting(bs.Bot):  # type: ignore[misc]
        """bench/server.py's bot, counting the bytes of the lines it reads while timed."""

        received = 0

        async def line(self) -> bytes:
            line: bytes = await super().line()
            if self.record:
                self.received += len(line) + 1
            return line

    return Counting


async def table_rate(bs: Any, server: Any, warmup: float, seconds: float) -> tuple[float, float, float, float]:
    """Decisions/s at one 6-seat table, the window, the server's CPU seconds, bytes per decision."""
    bot_class = counting_bot(bs)
    bots = []
    for i in range(6):
        bot = bot_class(await trio.open_tcp_stream("127.0.0.1", server.port))
        await bot.join(f"fast{i}")
        bots.append(bot)
    async with trio.open_nursery() as nursery:
        for bot in bots:
            nursery.start_soon(bot.play)
        await trio.sleep(warmup)
        before = sum(b.decisions for b in bots)
        for bot in bots:
            bot.record = True
        cpu0, start = server.cpu(), time.perf_counter()
        await trio.sleep(seconds)
        done = sum(b.decisions for b in bots) - before
        elapsed = time.perf_counter() - start
        cpu = server.cpu() - cpu0
        for bot in bots:
            bot.record = False
        nursery.cancel_scope.cancel()
    return done / elapsed, elapsed, cpu, sum(b.received for b in bots) / max(1, done)


SIDES = ("ours", "bare fan-out", "floor", "floor, hops")


def start(bs: Any, tmp: Path, side: str, players: int, seats: int, **extra: Any) -> Any:
    if side == "ours":
        return bs.hickory_server(tmp, **bs.table_settings(players, seats), **extra)
    if side == "bare fan-out":
        return bs.bare_server(seats)
    return floor_server(bs, seats, hops=side == "floor, hops")


def part_a(bs: Any, tmp: Path, rounds: int, seconds: float) -> None:
    print("(a) one table of 6 instant bots: ours, the bare fan-out server and the floor, in turns")
    rate: dict[str, list[float]] = {s: [] for s in SIDES}
    cpu: dict[str, list[float]] = {s: [] for s in SIDES}
    sent: dict[str, list[float]] = {s: [] for s in SIDES}
    for r in range(rounds):
        order = SIDES if r % 2 == 0 else tuple(reversed(SIDES))
        for side in order:
            server = start(bs, tmp, side, 6, 6)
            try:
                decisions, elapsed, seconds_cpu, per = trio.run(table_rate, bs, server, 1.0, seconds)
            finally:
                server.stop()
            rate[side].append(decisions)
            cpu[side].append(seconds_cpu / (decisions * elapsed) * 1e6)
            sent[side].append(per)
        print(f"    round {r + 1} (load {os.getloadavg()[0]:.2f}): " + "   ".join(
            f"{s} {rate[s][-1]:5.0f}/s {cpu[s][-1]:4.0f} us CPU, {sent[s][-1]:5.0f} B/decision" for s in SIDES))

    def ratio(values: dict[str, list[float]], a: str, b: str) -> float:
        return statistics.median(x / y for x, y in zip(values[a], values[b], strict=True))

    med = {s: (statistics.median(rate[s]), statistics.median(cpu[s]), statistics.median(sent[s])) for s in SIDES}
    for s in SIDES:
        print(f"  {s:13s} median {med[s][0]:6.0f} decisions/s, CPU {med[s][1]:4.0f} us per decision, "
              f"{med[s][2]:5.0f} bytes per decision to the 6 bots")
    print(f"FLOOR server (a) decisions/s: ours / floor {ratio(rate, 'ours', 'floor'):.2f}, floor / bare fan-out "
          f"{ratio(rate, 'floor', 'bare fan-out'):.2f}, ours / bare fan-out {ratio(rate, 'ours', 'bare fan-out'):.2f} "
          f"(median of the rounds' ratios; load {os.getloadavg()[0]:.2f})", flush=True)
    print(f"FLOOR server (a) CPU per decision: ours / floor {ratio(cpu, 'ours', 'floor'):.2f}, floor / bare "
          f"fan-out {ratio(cpu, 'floor', 'bare fan-out'):.2f}, ours / bare fan-out "
          f"{ratio(cpu, 'ours', 'bare fan-out'):.2f} (median of the rounds' ratios)", flush=True)
    print(f"FLOOR server (a) with the architecture's hops (reader tasks, the table's channel, the turn's "
          f"deadline): decisions/s / bare fan-out {ratio(rate, 'floor, hops', 'bare fan-out'):.2f}, CPU / bare "
          f"fan-out {ratio(cpu, 'floor, hops', 'bare fan-out'):.2f}; ours / it: decisions "
          f"{ratio(rate, 'ours', 'floor, hops'):.2f}, CPU {ratio(cpu, 'ours', 'floor, hops'):.2f}", flush=True)


def part_b(bs: Any, tmp: Path, clients: int, seconds: float, procs: int, rounds: int) -> None:
    print(f"(b) {clients} bots in {procs} processes at ten-seat tables, acting about once a second: "
          f"ours, the bare fan-out server and the floor, in turns")
    p99: dict[str, list[float]] = {s: [] for s in SIDES}
    cpu: dict[str, list[float]] = {s: [] for s in SIDES}
    for r in range(rounds):
        for side in SIDES:
            server = start(bs, tmp, side, clients, 10)
            try:
                res = bs.many(server, clients, procs, 3.0, seconds, None)
            finally:
                server.stop()
            p99[side].append(res["p99_ms"])
            cpu[side].append(res["cpu_ms_per_action"] * 1000)
            print(f"    round {r + 1}, {side} (load {os.getloadavg()[0]:.2f}): {res['actions_per_s']:.0f} actions/s, "
                  f"p50 {res['p50_ms']:.1f} ms, p99 {res['p99_ms']:.1f} ms, CPU {cpu[side][-1]:.0f} us per action, "
                  f"waited {res['waited']:.2f} s/s for a CPU", flush=True)

    def ratio(values: dict[str, list[float]], a: str, b: str) -> float:
        return statistics.median(x / y for x, y in zip(values[a], values[b], strict=True))

    for name, values in (("p99 act -> broadcast", p99), ("CPU per action", cpu)):
        print(f"FLOOR server (b) {clients} bots, {name}: ours / floor {ratio(values, 'ours', 'floor'):.2f}, "
              f"floor / bare fan-out {ratio(values, 'floor', 'bare fan-out'):.2f}, ours / bare fan-out "
              f"{ratio(values, 'ours', 'bare fan-out'):.2f} (median of the rounds' ratios; load "
              f"{os.getloadavg()[0]:.2f})", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", choices=["a", "b"], default="a", help="(a), the default, or (b)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of (a) (default 3)")
    p.add_argument("--seconds", type=float, help="measuring window (default 3 in (a), 15 in (b))")
    p.add_argument("--clients", type=int, default=1000, help="bots in (b) (default 1000)")
    p.add_argument("--procs", type=int, default=4, help="bot processes in (b) (default 4)")
    p.add_argument("--rounds-b", type=int, default=2, help="rounds of (b) (default 2)")
    p.add_argument("--serve", type=int, metavar="SEATS", help=argparse.SUPPRESS)
    p.add_argument("--hops", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve is not None:
        signal.signal(signal.SIGTERM, lambda *_: os._exit(0))  # Proc.stop: no traceback
        trio.run(floor_main, args.serve, args.hops)
        return
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    bs = load_bench_server()
    with tempfile.TemporaryDirectory() as d:
        if args.only == "a":
            part_a(bs, Path(d), max(1, args.rounds), args.seconds or 3.0)
        else:
            part_b(bs, Path(d), args.clients, args.seconds or 15.0, args.procs, max(1, args.rounds_b))


if __name__ == "__main__":
    main()
