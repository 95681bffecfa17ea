"""The server over loopback: one fast table against bare JSON-lines servers, and many bots.

    python bench/server.py [--quick] [--clients 1000] [--seconds 15] [--only a|b]

(a) One table of 6 bots that answer every ``your_turn`` at once (check, else call) against
    ``hickory-server`` in a subprocess: decisions per second. In the same run, two bare
    Trio JSON-lines servers (decode a line, encode a reply; no game, no checks):
    - ping-pong: one client's request/reply round trips. Target: the table's decisions at
      least 50% of this rate.
    - fan-out: the same 6 bots; each ``act`` is broadcast to all six and the next seat gets
      ``your_turn`` (awaiting ``send_all`` on each socket in turn). Same messages as the
      table, so table / fan-out is what the game itself costs.
    A decision is a round trip plus a broadcast to six, so ping-pong is an upper bound the
    fan-out cannot reach either. The three alternate over a few rounds; best and median,
    and the server's CPU per decision, are printed.

(b) ``--clients`` bots (default 1,000) at ten-seat tables, each thinking 0.1 s before it
    acts, so every bot acts about once a second when the server keeps up (a table takes
    one decision at a time). The bots run in ``--procs`` worker processes (default 4), so
    no single load generator's event loop sits inside the figure. At the acting bot: the
    delay from sending ``act`` to receiving the broadcast of that action (p50, p99, max),
    the end-to-end figure. Next to it, the server's own part over the same window, from
    its ``--metrics`` file: act read -> broadcast written, by stage, its loop steps (by
    wall clock and by CPU) and its garbage-collector pauses. Server CPU from
    ``/proc/<pid>/stat`` (1.0 = one core), peak RSS from ``VmHWM``, and from
    ``/proc/<pid>/schedstat`` the time the server was ready to run but waiting for a CPU
    (a busy machine, not the server, when it is large). The peer: the bare fan-out
    server (tables of ten, no game) under the same bots, in turns with ours for
    ``--rounds-b`` rounds; each ratio is taken within a round. Targets: p99 under 50 ms,
    RSS under 300 MB (500 MB at 2,000 bots), CPU per action within 1.15x the peer's.
    ``--stacks`` also prints what the server's slowest steps were doing (diagnosis).

The servers are subprocesses (``python -m server`` with a TOML config, no database, no
pause between hands, stacks so deep nobody busts); the bots are lean Trio clients that
parse only the lines they act on (in this process for (a), in worker processes for (b)). Loopback only; bounded in time. The load
average is printed first: on a shared machine every figure depends on it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

try:
    import orjson

    loads: Callable[[bytes], Any] = orjson.loads
    dumps: Callable[[Any], bytes] = orjson.dumps
except ImportError:  # pragma: no cover
    loads = json.loads

    def dumps(obj: Any) -> bytes:
        return json.dumps(obj, separators=(",", ":")).encode()


ROOT = Path(__file__).resolve().parent.parent
# This file is bench/server.py: put the repository first, or ``server`` would be this file.
sys.path.insert(0, str(ROOT))
from lean import LeanClient  # noqa: E402 (bench/lean.py, beside this file)
from targets import verdict  # noqa: E402 (bench/targets.py, beside this file)

TICK = os.sysconf("SC_CLK_TCK")

BARE_SERVER = r'''
import sys, trio
try:
    from orjson import dumps, loads
except ImportError:
    import json
    loads = json.loads
    def dumps(o): return json.dumps(o, separators=(",", ":")).encode()

SEATS = int(sys.argv[1])
tables = []  # the fan-out "tables": streams in join order, SEATS to a table
where = {}  # stream -> (table, seat)
locks = {}  # one sender at a time per stream

async def send(stream, data):
    async with locks[stream]:
        await stream.send_all(data)

async def turn_to(table, i, hand_no):
    line = dumps({"type": "your_turn", "table": 1, "hand_no": hand_no, "seat": i,
                  "legal": {"fold": False, "check": True, "call": None, "min_raise_to": 2,
                            "max_raise_to": 100}, "deadline_ms": 30000, "time_bank_ms": 0}) + b"\n"
    await send(table[i], line)

async def handle(stream):
    locks[stream] = trio.Lock()
    buf = b""
    try:
        while True:
            data = await stream.receive_some(65536)
            if not data:
                return
            buf += data
            *lines, buf = buf.split(b"\n")
            out = []
            for line in lines:
                msg = loads(line)
                kind = msg.get("type")
                if kind == "ping":  # ping-pong: decode, encode, reply
                    out.append(dumps({"type": "pong", "id": msg.get("id"), "seq": 1}) + b"\n")
                elif kind == "join":  # fan-out: tables with no game
                    await send(stream, b'{"type":"welcome"}\n')
                    if not tables or len(tables[-1]) == SEATS:
                        tables.append([])
                    table = tables[-1]
                    where[stream] = (table, len(table))
                    table.append(stream)
                    if len(table) == SEATS:
                        await turn_to(table, 0, 1)
                elif kind == "act":  # broadcast the action to the table, prompt the next seat
                    table, i = where[stream]
                    action = dumps({"type": "action", "table": 1, "hand_no": msg["hand_no"], "seat": i,
                                    "action": msg["action"], "amount": 0, "to": 0, "all_in": False,
                                    "automatic": False}) + b"\n"
                    for p in table:
                        await send(p, action)
                    await turn_to(table, (i + 1) % SEATS, msg["hand_no"])
            if out:
                await send(stream, b"".join(out))
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass

async def main():
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1", backlog=4096)
    print(listeners[0].socket.getsockname()[1], flush=True)
    await trio.serve_listeners(handle, listeners)

trio.run(main)
'''


# -- processes -------------------------------------------------------------------------


class Proc:
    """A server subprocess: its port, its CPU seconds and peak RSS from /proc."""

    def __init__(self, args: list[str], port_from: Callable[[subprocess.Popen[str]], int]) -> None:
        self.popen = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.port = port_from(self.popen)

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime

    def waited(self) -> float:
        """Seconds this process was runnable but waiting for a CPU (schedstat)."""
        return int(Path(f"/proc/{self.popen.pid}/schedstat").read_text().split()[1]) / 1e9

    def peak_rss_mb(self) -> float:
        for line in Path(f"/proc/{self.popen.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        self.popen.send_signal(signal.SIGTERM)
        try:
            self.popen.wait(10)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()


def hickory_server(tmp: Path, **settings: Any) -> Proc:
    config = tmp / f"bench-{time.monotonic_ns()}.toml"
    lines = []
    for key, value in settings.items():
        lines.append(f"{key} = {json.dumps(value)}")
    config.write_text("\n".join(lines) + "\n")
    port_file = tmp / "port"

    def port_from(p: subprocess.Popen[str]) -> int:
        assert p.stdout is not None
        for line in p.stdout:
            if "director secret" in line:
                return int(port_file.read_text())
        raise SystemExit(f"the server did not start: {p.stderr.read() if p.stderr else ''}")

    return Proc([sys.executable, "-m", "server", "--config", str(config), "--no-db",
                 "--port", "0", "--port-file", str(port_file)], port_from)


def bare_server(seats: int = 6) -> Proc:
    def port_from(p: subprocess.Popen[str]) -> int:
        assert p.stdout is not None
        return int(p.stdout.readline())

    return Proc([sys.executable, "-c", BARE_SERVER, str(seats)], port_from)


def table_settings(players: int, seats: int) -> dict[str, Any]:
    return {
        "start_at": players, "seats": seats, "max_players": players,
        "max_connections": players + 100, "starting_stack": 10**12, "schedule": [[1, 2]],
        "level_minutes": 10**6, "no_deadline": True, "hand_pause": 0.0, "action_clock": 60.0,
        "send_queue_bytes": 4 << 20,
        # Every bot here dials from 127.0.0.1: lift the per-address room and registration limits.
        "max_connections_per_address": players + 100, "joins_per_minute_per_address": 1e6,
        "joins_per_minute": 1e6,
    }


# -- a lean bot --------------------------------------------------------------------------


class Bot(LeanClient):
    """Reads lines, parses only your_turn; optionally times act -> own action broadcast."""

    def __init__(self, stream: trio.SocketStream, think: float = 0.0) -> None:
        super().__init__(stream)
        self.think = think
        self.decisions = 0
        self.sent_at: float | None = None
        self.delays: list[float] = []
        self.record = False

    async def play(self) -> None:
        while line := await self.line():
            if self.sent_at is not None and line.startswith(b'{"type":"action"'):
                if self.record:
                    self.delays.append(time.perf_counter() - self.sent_at)
                self.sent_at = None
            elif line.startswith(b'{"type":"your_turn"'):
                msg = loads(line)
                if self.think:
                    await trio.sleep(self.think)
                legal = msg["legal"]
                action = b"check" if legal["check"] else b"call"
                self.sent_at = time.perf_counter()
                await self.stream.send_all(
                    b'{"type":"act","hand_no":%d,"action":"%s"}\n' % (msg["hand_no"], action))
                self.decisions += 1
            elif line.startswith(b'{"type":"ping"'):
                await self.stream.send_all(b'{"type":"pong"}\n')


async def connect_bots(port: int, n: int, think: float, prefix: str) -> list[Bot]:
    bots: list[Bot] = [None] * n  # type: ignore[list-item]
    limit = trio.CapacityLimiter(50)

    async def one(i: int) -> None:
        async with limit:
            bot = Bot(await trio.open_tcp_stream("127.0.0.1", port), think)
            await bot.join(f"{prefix}{i}")
            bots[i] = bot

    async with trio.open_nursery() as nursery:
        for i in range(n):
            nursery.start_soon(one, i)
    return bots


# -- (a) one fast table vs bare round trips ---------------------------------------------


async def bare_rate(port: int, seconds: float) -> float:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    buf = b""
    count = 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        await stream.send_all(dumps({"type": "ping", "id": count, "nonce": "x"}) + b"\n")
        while b"\n" not in buf:
            buf += await stream.receive_some(65536)
        line, buf = buf.split(b"\n", 1)
        loads(line)
        count += 1
    await stream.aclose()
    return count / (time.perf_counter() - start)


async def table_rate(server: Proc, warmup: float, seconds: float) -> tuple[float, float, float]:
    """Decisions per second at one 6-seat table (the hickory server or the bare fan-out),
    the window in seconds and the server's CPU seconds over it."""
    bots = await connect_bots(server.port, 6, 0.0, "fast")
    async with trio.open_nursery() as nursery:
        for bot in bots:
            nursery.start_soon(bot.play)
        await trio.sleep(warmup)
        before = sum(b.decisions for b in bots)
        cpu0, start = server.cpu(), time.perf_counter()
        await trio.sleep(seconds)
        done = sum(b.decisions for b in bots) - before
        elapsed = time.perf_counter() - start
        cpu = server.cpu() - cpu0
        nursery.cancel_scope.cancel()
    return done / elapsed, elapsed, cpu


def part_a(tmp: Path, rounds: int, seconds: float) -> None:
    print("(a) one table of 6 instant bots vs bare JSON-lines servers, loopback")
    rates: dict[str, list[float]] = {"bare ping-pong": [], "bare fan-out": [], "table": []}
    cpu_ms: dict[str, list[float]] = {"bare fan-out": [], "table": []}
    for r in range(rounds):
        bare = bare_server()
        try:
            rates["bare ping-pong"].append(trio.run(bare_rate, bare.port, seconds))
        finally:
            bare.stop()
        for name in ("bare fan-out", "table"):
            server = bare_server() if name == "bare fan-out" else hickory_server(tmp, **table_settings(6, 6))
            try:
                rate, elapsed, cpu = trio.run(table_rate, server, 1.0, seconds)
            finally:
                server.stop()
            rates[name].append(rate)
            cpu_ms[name].append(cpu / (rate * elapsed) * 1000)
        print(f"    round {r + 1}: " + "   ".join(f"{k} {v[-1]:6.0f}/s" for k, v in rates.items())
              + f"   server CPU per decision {cpu_ms['table'][-1]:.2f} ms (bare fan-out {cpu_ms['bare fan-out'][-1]:.2f})")
    med = {k: statistics.median(v) for k, v in rates.items()}
    for k, v in rates.items():
        print(f"  {k + ':':16s} best {max(v):7.0f}/s  median {med[k]:7.0f}/s")
    ratio = med["table"] / med["bare ping-pong"]
    print(f"  table decisions / bare round trips: median {ratio:.1%}, best/best "
          f"{max(rates['table']) / max(rates['bare ping-pong']):.1%}  (target >= 50%: {'met' if ratio >= 0.5 else 'NOT met'})")
    fan = statistics.median(t / b for t, b in zip(rates["table"], rates["bare fan-out"], strict=True))
    print(f"  table decisions / bare fan-out decisions (same messages, no game): median "
          f"{med['table'] / med['bare fan-out']:.1%}; median of the rounds' ratios {fan:.1%}")
    cpu_ratio = statistics.median(t / b for t, b in zip(cpu_ms["table"], cpu_ms["bare fan-out"], strict=True))
    print(f"  server CPU per decision: table {statistics.median(cpu_ms['table']):.2f} ms, "
          f"bare fan-out {statistics.median(cpu_ms['bare fan-out']):.2f} ms; median ratio within a round "
          f"{cpu_ratio:.2f}")
    verdict("server (a), one table of 6 instant bots: decisions/s", fan, at_least=0.87,
            against="the bare fan-out server, same messages (median of the rounds' ratios)",
            detail=f"{med['table']:.0f} vs {med['bare fan-out']:.0f}/s")
    verdict("server (a), one table: CPU per decision", cpu_ratio, at_most=1.15,
            against="the bare fan-out server (median of the rounds' ratios)",
            detail=f"{statistics.median(cpu_ms['table']):.2f} vs {statistics.median(cpu_ms['bare fan-out']):.2f} ms")


# -- (b) many bots at about one action a second -------------------------------------------
#
# The bots run in ``--procs`` worker processes (this script with ``--bot-worker``), so no
# single load generator's event loop is inside the figure. Each worker joins its share,
# prints "joined", starts timing on "record", and on "stop" prints its delays and decisions
# as one JSON line and exits.


async def worker_main(port: int, n: int, prefix: str, think: float) -> None:
    bots = await connect_bots(port, n, think, prefix)
    print("joined", flush=True)
    stdin = trio.lowlevel.FdStream(os.dup(0))
    buf = b""

    async def command() -> bytes:
        nonlocal buf
        while b"\n" not in buf:
            data = await stdin.receive_some(1024)
            if not data:
                return b"stop"
            buf += data
        line, buf = buf.split(b"\n", 1)
        return line.strip()

    async with trio.open_nursery() as nursery:
        for bot in bots:
            nursery.start_soon(bot.play)
        while (cmd := await command()) != b"record":
            if cmd == b"stop":
                break
        cpu0 = time.process_time()
        before = sum(b.decisions for b in bots)
        for bot in bots:
            bot.record = True
        while await command() != b"stop":
            pass
        for bot in bots:
            bot.record = False
        out = {"delays": [d for b in bots for d in b.delays], "decisions": sum(b.decisions for b in bots) - before,
               "cpu": time.process_time() - cpu0}
        print(json.dumps(out), flush=True)
        nursery.cancel_scope.cancel()


class Workers:
    """``procs`` bot processes sharing ``n`` bots."""

    def __init__(self, port: int, n: int, procs: int, think: float) -> None:
        shares = [n // procs + (1 if i < n % procs else 0) for i in range(procs)]
        self.popens = [
            subprocess.Popen([sys.executable, __file__, "--bot-worker", str(port), str(k), f"b{i}x", str(think)],
                             cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for i, k in enumerate(shares) if k
        ]

    def wait_joined(self) -> None:
        for p in self.popens:
            assert p.stdout is not None
            line = p.stdout.readline()
            if line.strip() != "joined":
                raise SystemExit(f"a bot worker failed to join: {line!r}")

    def tell(self, cmd: str) -> None:
        for p in self.popens:
            assert p.stdin is not None
            p.stdin.write(cmd + "\n")
            p.stdin.flush()

    def results(self) -> list[dict[str, Any]]:
        out = []
        for p in self.popens:
            assert p.stdout is not None
            out.append(json.loads(p.stdout.readline()))
            p.wait(10)
        return out

    def kill(self) -> None:
        for p in self.popens:
            if p.poll() is None:
                p.kill()
                p.wait()


def read_metrics(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return None


def wait_metrics_dump(path: Path, after: float) -> dict[str, Any] | None:
    """The first dump written after ``after`` (time.monotonic), within two seconds."""
    end = time.monotonic() + 2.5
    while time.monotonic() < end:
        data = read_metrics(path)
        if data is not None and path.stat().st_mtime >= after:
            return data
        time.sleep(0.05)
    return read_metrics(path)


def many(server: Proc, n: int, procs: int, warmup: float, seconds: float,
         metrics: Path | None) -> dict[str, Any]:
    t0 = time.perf_counter()
    workers = Workers(server.port, n, procs, 0.1)
    try:
        workers.wait_joined()
        joined = time.perf_counter() - t0
        time.sleep(warmup)
        workers.tell("record")
        m0 = wait_metrics_dump(metrics, time.time()) if metrics is not None else None
        cpu0, start, wait0 = server.cpu(), time.perf_counter(), server.waited()
        time.sleep(seconds)
        elapsed = time.perf_counter() - start
        cpu = (server.cpu() - cpu0) / elapsed
        waited = (server.waited() - wait0) / elapsed
        m1 = wait_metrics_dump(metrics, time.time()) if metrics is not None else None
        workers.tell("stop")
        results = workers.results()
    finally:
        workers.kill()
    delays = sorted(d for r in results for d in r["delays"])
    done = sum(r["decisions"] for r in results)
    q = statistics.quantiles(delays, n=100) if len(delays) >= 100 else [float("nan")] * 99
    res: dict[str, Any] = {
        "joined_s": joined, "actions_per_s": done / elapsed, "per_bot": done / elapsed / n,
        "p50_ms": q[49] * 1000, "p99_ms": q[98] * 1000, "max_ms": delays[-1] * 1000 if delays else float("nan"),
        "samples": len(delays), "cpu": cpu, "client_cpu": sum(r["cpu"] for r in results) / elapsed,
        "waited": waited, "cpu_ms_per_action": cpu * elapsed / done * 1000 if done else float("nan"),
    }
    if m0 is not None and m1 is not None:
        from server.metrics import STAGES, Histogram

        res["server"] = {k: Histogram.from_json(m1["latency"][k]).minus(Histogram.from_json(m0["latency"][k]))
                         for k in STAGES}
        res["steps"] = Histogram.from_json(m1["loop"]["steps"]).minus(Histogram.from_json(m0["loop"]["steps"]))
        res["slow"] = [x for x in m1["slow_steps"] if x not in m0["slow_steps"]]
        res["slow_count"] = m1["loop"]["slow_count"] - m0["loop"]["slow_count"]
        res["gc"] = [Histogram.from_json(a).minus(Histogram.from_json(b)) for a, b in zip(m1["gc"], m0["gc"], strict=True)]
        res["gc_cpu"] = [Histogram.from_json(a).minus(Histogram.from_json(b))
                         for a, b in zip(m1["gc_cpu"], m0["gc_cpu"], strict=True)]
        res["gc_collected"] = [a - b for a, b in zip(m1["gc_collected"], m0["gc_collected"], strict=True)]
        res["cpu_steps"] = Histogram.from_json(m1["loop"]["cpu_steps"]).minus(Histogram.from_json(m0["loop"]["cpu_steps"]))
        res["all_slow"] = m1["slow_steps"]
    return res


def report(res: dict[str, Any], rss: float, seconds: float, stacks: bool) -> None:
    print(f"    {res['actions_per_s']:.0f} actions/s ({res['per_bot']:.2f} per bot per s), "
          f"{res['samples']:.0f} delays timed over {seconds:g} s; joined in {res['joined_s']:.1f} s")
    print(f"    end to end, act -> broadcast at the bot: p50 {res['p50_ms']:.1f} ms, p99 {res['p99_ms']:.1f} ms, "
          f"max {res['max_ms']:.1f} ms  (target p99 < 50 ms: {'met' if res['p99_ms'] < 50 else 'NOT met'})")
    if "server" in res:
        srv = res["server"]
        print(f"    the server's part (--metrics, same window): act read -> broadcast written "
              f"{srv['act_to_written'].summary()}")
        for k in ("act_to_table", "table_to_queued", "queued_to_written"):
            print(f"        {k:18s} {srv[k].summary()}")
        print(f"    loop steps {res['steps'].summary()}; by CPU {res['cpu_steps'].summary()}; "
              f"{res['slow_count']} over 20 ms in the window")
        for gen, h in enumerate(res["gc"]):
            print(f"    gc generation {gen}: {h.summary()}; by CPU {res['gc_cpu'][gen].summary()}; "
                  f"{res['gc_collected'][gen]} objects collected")
        worst = sorted(res["all_slow"], key=lambda x: -x["cpu_ms"])[:6]
        if worst:
            print("    most CPU in one step, whole run (task, wall ms, CPU ms, lines queued): "
                  + "; ".join(f"{x['task'].rsplit('.', 1)[-1]} {x['ms']:.0f}/{x['cpu_ms']:.0f}/{x['lines']}" for x in worst))
            if stacks:
                for x in sorted(res["all_slow"], key=lambda x: -x["cpu_ms"])[:30]:
                    print(f"      {x['task']} {x['ms']:.0f} ms (CPU {x['cpu_ms']:.0f} ms, {x['lines']} lines)")
                    for st in x.get("stacks", []):
                        print(f"          {st}")
    print(f"    server CPU {res['cpu']:.2f} core, {res['cpu_ms_per_action']:.2f} ms per action; waited "
          f"{res['waited']:.2f} s per s for a CPU (a busy machine); peak RSS {rss:.0f} MB "
          f"(target < {500 if res['bots'] > 1000 else 300}: {'met' if rss < (500 if res['bots'] > 1000 else 300) else 'NOT met'}); "
          f"the bots' processes used {res['client_cpu']:.2f} core")


def part_b(tmp: Path, clients: int, seconds: float, procs: int, peer: bool, stacks: bool = False,
           rounds: int = 2) -> None:
    """Ours and the bare fan-out server in turns, ``rounds`` times: the load on a shared
    machine drifts, so each ratio is taken within a round and the median reported."""
    print(f"(b) {clients} bots in {procs} processes at ten-seat tables, each acting about once a second; "
          f"{rounds} round(s) of ours then the bare fan-out server")
    ratios: dict[str, list[float]] = {"p50": [], "p99": [], "max": [], "cpu": []}
    for r in range(rounds):
        metrics = tmp / f"metrics-{r}.json"
        server = hickory_server(tmp, **table_settings(clients, 10), metrics=str(metrics), metrics_stacks=stacks)
        try:
            res = many(server, clients, procs, 3.0, seconds, metrics)
            rss = server.peak_rss_mb()
        finally:
            server.stop()
        res["bots"] = clients
        load = os.getloadavg()
        print(f"  round {r + 1}, ours (load average {load[0]:.2f}):")
        report(res, rss, seconds, stacks)
        if not peer:
            continue
        bare_proc = bare_server(10)
        try:
            bare = many(bare_proc, clients, procs, 3.0, seconds, None)
            bare_rss = bare_proc.peak_rss_mb()
        finally:
            bare_proc.stop()
        load = os.getloadavg()
        print(f"  round {r + 1}, peer: bare fan-out server, no game (load average {load[0]:.2f}): "
              f"{bare['actions_per_s']:.0f} actions/s, p50 {bare['p50_ms']:.1f} ms, p99 {bare['p99_ms']:.1f} ms, "
              f"max {bare['max_ms']:.1f} ms, CPU {bare['cpu_ms_per_action']:.2f} ms per action, waited "
              f"{bare['waited']:.2f} s/s, RSS {bare_rss:.0f} MB")
        ratios["p50"].append(res["p50_ms"] / bare["p50_ms"])
        ratios["p99"].append(res["p99_ms"] / bare["p99_ms"])
        ratios["max"].append(res["max_ms"] / bare["max_ms"])
        ratios["cpu"].append(res["cpu_ms_per_action"] / bare["cpu_ms_per_action"])
        print("  round ratio ours / bare: " + ", ".join(f"{k} {v[-1]:.2f}" for k, v in ratios.items()))
    if peer:
        med = {k: statistics.median(v) for k, v in ratios.items()}
        print("  median ratio ours / bare: " + ", ".join(f"{k} {v:.2f}" for k, v in med.items()))
        verdict(f"server (b), {clients} bots: p99 act -> broadcast", med["p99"], at_most=1.2,
                against="the bare fan-out server, same bots (median of the rounds' ratios)")
        verdict(f"server (b), {clients} bots: CPU per action", med["cpu"], at_most=1.15,
                against="the bare fan-out server, same bots (median of the rounds' ratios)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="1 round of (a), 200 clients and 5 s in (b)")
    p.add_argument("--clients", type=int, help="bots in (b) (default 1000; 200 with --quick)")
    p.add_argument("--seconds", type=float, help="measuring window (default 15 for (b), 3 per round in (a))")
    p.add_argument("--rounds", type=int, help="rounds of (a) (default 3)")
    p.add_argument("--only", choices=["a", "b"])
    p.add_argument("--procs", type=int, default=4, help="bot processes in (b) (default 4)")
    p.add_argument("--no-peer", action="store_true", help="(b) without the bare fan-out server's run")
    p.add_argument("--stacks", action="store_true", help="(b): the server notes what its slow steps were doing (diagnosis)")
    p.add_argument("--rounds-b", type=int, default=2, help="rounds of (b), ours then the peer (default 2)")
    p.add_argument("--bot-worker", nargs=4, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.bot_worker is not None:
        port, n, prefix, think = args.bot_worker
        trio.run(worker_main, int(port), int(n), prefix, float(think))
        return
    clients = args.clients or (200 if args.quick else 1000)
    rounds = args.rounds or (1 if args.quick else 3)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if args.only != "b":
            part_a(tmp, rounds, args.seconds or (2.0 if args.quick else 3.0))
        if args.only != "a":
            part_b(tmp, clients, args.seconds or (5.0 if args.quick else 15.0), args.procs, not args.no_peer, args.stacks,
                   args.rounds_b)


if __name__ == "__main__":
    main()
