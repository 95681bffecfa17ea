"""``--metrics``: the server's own act -> broadcast latency, loop steps and GC pauses.

The figures themselves are timings (never asserted); what is checked is that every
action a player took is counted once, in every stage, that a dump can be subtracted from
a later one, and that a real server process writes the file and logs a summary on SIGTERM.
"""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
from pathlib import Path

import trio

import protocol.messages as m
from server.metrics import STAGES, Histogram, LineCounter, LoopWatch
from tests.server.harness import BotResult, check_call, fast_config, joined, play, running
from tests.server.rawclient import RawClient
from tests.server.test_signals import ROOT, read_banner


def test_histogram_quantiles_are_at_most_one_bucket_high() -> None:
    h = Histogram()
    for ms in range(1, 101):  # 1 ms .. 100 ms
        h.add(ms / 1000)
    assert h.count == 100 and h.max == 0.1
    for q, exact in ((0.5, 0.050), (0.99, 0.099)):
        got = h.quantile(q)
        assert exact <= got <= exact * 2 ** 0.25 * 1.0001, (q, got)
    assert h.quantile(1.0) == 0.1
    assert math.isnan(Histogram().quantile(0.5))


def test_a_later_dump_minus_an_earlier_one_is_what_happened_between() -> None:
    h = Histogram()
    for s in (0.001, 0.002, 0.5):
        h.add(s)
    earlier = Histogram.from_json(json.loads(json.dumps(h.to_json())))
    for s in (0.003, 0.004):
        h.add(s)
    diff = h.minus(earlier)
    assert diff.count == 2
    assert abs(diff.total - 0.007) < 1e-12
    assert 0.004 <= diff.max < 0.005  # not the 0.5 s from before the window
    assert 0.003 <= diff.quantile(0.5) < 0.004 * 1.2


async def test_every_action_is_timed_once_in_every_stage(tmp_path: Path, autojump_clock: object) -> None:
    path = tmp_path / "metrics.json"
    cfg = fast_config(4, metrics=path)
    results = [BotResult(f"p{i}") for i in range(4)]
    async with running(cfg) as (server, port):
        clients = await joined(port, [r.name for r in results])
        async with trio.open_nursery() as n:
            for i, (c, r) in enumerate(zip(clients, results, strict=True)):
                n.start_soon(play, c, r, check_call, i)
        await trio.sleep(2)  # the last broadcasts written, and a dump taken
    acted = sum(r.acted for r in results)
    assert all(r.finished is not None for r in results) and acted > 20
    data = json.loads(path.read_text())
    counts = {k: data["latency"][k]["count"] for k in STAGES}
    assert counts == dict.fromkeys(STAGES, acted), counts
    assert data["loop"]["steps"]["count"] > acted
    # A table's step sends its events to its four players (an all-in run-out: a dozen
    # events): the most lines one step queued is a small multiple of 4, with its task.
    assert 4 <= data["loop"]["max_lines"] <= 100 and data["loop"]["max_lines_task"]


async def test_the_loop_watch_names_the_task_and_counts_its_lines() -> None:
    ticks = iter(range(1000))
    watch = LoopWatch(slow_step=5, clock=lambda: float(next(ticks)), cpu=lambda: 0.0)

    class Conn:
        def send_nowait(self, line: bytes) -> None: ...

    async def busy() -> None:
        for _ in range(7):
            LineCounter.queued += 1
        await trio.lowlevel.checkpoint()

    trio.lowlevel.add_instrument(watch)
    try:
        async with trio.open_nursery() as n:
            n.start_soon(busy, name="busy-task")
    finally:
        trio.lowlevel.remove_instrument(watch)
    assert watch.max_lines == 7 and watch.max_lines_task == "busy-task"
    assert watch.steps.count >= 2


async def test_a_server_process_writes_the_file_and_logs_a_summary_on_sigterm(tmp_path: Path) -> None:
    port_file, path = tmp_path / "port", tmp_path / "metrics.json"
    with trio.fail_after(20):
        proc = await trio.lowlevel.open_process(
            [sys.executable, "-m", "server", "--port", "0", "--no-db", "--port-file", str(port_file),
             "--start-at", "2", "--metrics", str(path)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        try:
            await read_banner(proc)
            port = int(port_file.read_text())
            a, b = await RawClient.connect(port), await RawClient.connect(port)
            await a.join("alice")
            await b.join("bob")
            got: list[tuple[RawClient, m.YourTurn]] = []
            async with trio.open_nursery() as n:
                async def first_turn(c: RawClient, n: trio.Nursery = n) -> None:
                    got.append((c, await c.recv_until(m.YourTurn)))
                    n.cancel_scope.cancel()
                for c in (a, b):
                    n.start_soon(first_turn, c)
            actor, turn = got[0]
            await actor.send(m.Act(hand_no=turn.hand_no, action="call"))
            await actor.recv_until(m.Action)
            proc.send_signal(signal.SIGTERM)
            assert await proc.wait() == 0
            assert proc.stderr is not None
            err = b""
            while chunk := await proc.stderr.receive_some(65536):
                err += chunk
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    assert "act -> broadcast written (server's part): n=1 " in err.decode(), err.decode()
    data = json.loads(path.read_text())
    assert data["latency"]["act_to_written"]["count"] == 1
