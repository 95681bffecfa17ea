"""Where the server's time goes, kept only when asked (``--metrics FILE``).

Three things, each cheap enough to leave on in a benchmark or on the night:

- The server's own part of a decision's latency, in stages: a player's ``act`` read from
  the socket -> taken by the table's task (``act_to_table``: the inbox wait) -> the
  broadcast of that action queued on every connection (``table_to_queued``: the engine,
  the commit, encoding) -> that broadcast written to the acting player's socket
  (``queued_to_written``: the writer's turn on the loop). ``act_to_written`` is the sum,
  the figure a bot measures minus the network and the bot's own delays.
- Every event-loop step (``LoopWatch``, a Trio instrument): a histogram of step lengths,
  and each step longer than ``slow_step`` with its task's name, its CPU time (a step that
  took long on the clock but not on the CPU was the machine's doing, not ours) and how many
  lines it queued (work proportional to the connections touched).
- Garbage-collector pauses per generation (``gc.callbacks``).

Figures are histograms with fixed log-scale buckets (about 19% apart), so two dumps of the
same run can be subtracted: ``bench/server.py`` reads the file at the start and at the
end of its window and reports the difference. The file is rewritten (atomically) every
second while the server runs and once more at exit; a summary is logged at exit.
"""

from __future__ import annotations

import gc
import json
import logging
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

log = logging.getLogger("hickory.metrics")

_BASE = 1e-6  # the first bucket's lower edge: 1 us
_STEPS_PER_DOUBLING = 4
_BUCKETS = 112  # 1 us * 2 ** (112 / 4) = 268 s: everything above lands in the last bucket


class Histogram:
    """Counts of durations (seconds) in log-scale buckets; mergeable and subtractable."""

    __slots__ = ("counts", "total", "count", "max")

    def __init__(self) -> None:
        self.counts = [0] * _BUCKETS
        self.total = 0.0
        self.count = 0
        self.max = 0.0

    def add(self, seconds: float) -> None:
        if seconds <= _BASE:
            i = 0
        else:
            i = min(_BUCKETS - 1, int(math.log2(seconds / _BASE) * _STEPS_PER_DOUBLING))
        self.counts[i] += 1
        self.total += seconds
        self.count += 1
        if seconds > self.max:
            self.max = seconds

    @staticmethod
    def upper(i: int) -> float:
        """The upper edge of bucket ``i`` in seconds."""
        return float(_BASE * 2 ** ((i + 1) / _STEPS_PER_DOUBLING))

    def quantile(self, q: float) -> float:
        """The upper edge of the bucket holding the ``q`` quantile (at most 19% high);
        the exact maximum when that bucket holds it. NaN when empty."""
        if self.count == 0:
            return math.nan
        rank = q * self.count
        seen = 0
        for i, n in enumerate(self.counts):
            seen += n
            if n and seen >= rank:
                return min(self.upper(i), self.max) if self.max > 0 else self.upper(i)
        return self.max

    def minus(self, earlier: Histogram) -> Histogram:
        """What was added since ``earlier`` (a dump of the same histogram). The maximum is
        this one's (a dump cannot say when its maximum happened)."""
        out = Histogram()
        out.counts = [a - b for a, b in zip(self.counts, earlier.counts, strict=True)]
        out.total = self.total - earlier.total
        out.count = self.count - earlier.count
        top = max((i for i, n in enumerate(out.counts) if n), default=None)
        out.max = 0.0 if top is None else min(self.max, self.upper(top))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "total": self.total, "max": self.max, "counts": self.counts}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Histogram:
        h = cls()
        h.counts = list(data["counts"])
        h.total = float(data["total"])
        h.count = int(data["count"])
        h.max = float(data["max"])
        return h

    def summary(self, scale: float = 1000.0, unit: str = "ms") -> str:
        if self.count == 0:
            return "none"
        return (f"n={self.count} p50 {self.quantile(0.5) * scale:.1f} {unit}, "
                f"p99 {self.quantile(0.99) * scale:.1f} {unit}, max {self.max * scale:.1f} {unit}")


class LineCounter:
    """Lines queued to connections, counted where every server line goes out
    (``Client.send_body``): a step's share is the connections it touched."""

    queued = 0


class LoopWatch(trio.abc.Instrument):
    """Times every task step; keeps the slow ones with their task's name.

    ``clock`` and ``cpu`` are injectable so a test on the virtual clock can use a
    deterministic measure; ``max_lines`` is the most lines one step queued.
    """

    def __init__(self, slow_step: float = 0.02, keep: int = 100,
                 clock: Callable[[], float] = time.perf_counter,
                 cpu: Callable[[], float] = time.thread_time) -> None:
        self.slow_step = slow_step
        self.keep = keep
        self.clock = clock
        self.cpu = cpu
        self.steps = Histogram()
        self.cpu_steps = Histogram()  # the same steps by this thread's CPU time
        self.slow: list[dict[str, Any]] = []  # the first ``keep`` slow steps
        self.slow_text: list[str] = []  # the same, as JSON (each encoded once: dumps stay cheap)
        self.slow_count = 0
        self.max_lines = 0
        self.max_lines_task = ""
        self._start = 0.0
        self._cpu = 0.0
        self._lines = 0
        self._in_step = False  # False until a step begins (installed in the middle of one)
        self.step_no = 0
        self.samples: dict[int, list[str]] = {}  # step_no -> stacks seen by a StackSampler

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self._in_step = True
        self.step_no += 1
        self._lines = LineCounter.queued
        self._cpu = self.cpu()
        self._start = self.clock()

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        if not self._in_step:
            return
        self._in_step = False
        took = self.clock() - self._start
        cpu = self.cpu() - self._cpu
        lines = LineCounter.queued - self._lines
        self.steps.add(took)
        self.cpu_steps.add(cpu)
        if lines > self.max_lines:
            self.max_lines = lines
            self.max_lines_task = task.name
        if took >= self.slow_step:
            self.slow_count += 1
            if len(self.slow) < self.keep:
                record: dict[str, Any] = {"task": task.name, "ms": round(took * 1000, 2),
                                          "cpu_ms": round(cpu * 1000, 2), "lines": lines,
                                          "at": round(time.monotonic(), 3)}
                stacks = self.samples.pop(self.step_no, None)
                if stacks:
                    record["stacks"] = stacks
                self.slow.append(record)
                self.slow_text.append(json.dumps(record))
        if self.samples:
            self.samples.clear()

    def to_json(self) -> dict[str, Any]:
        """The figures, without the slow steps themselves (``slow_text``)."""
        return {"steps": self.steps.to_json(), "cpu_steps": self.cpu_steps.to_json(), "slow_step_ms": self.slow_step * 1000,
                "slow_count": self.slow_count, "max_lines": self.max_lines,
                "max_lines_task": self.max_lines_task}


class GcWatch:
    """Pause of every collection, per generation, through ``gc.callbacks``."""

    def __init__(self) -> None:
        self.pauses = [Histogram() for _ in range(3)]
        self.cpu = [Histogram() for _ in range(3)]
        self.collected = [0, 0, 0]  # objects found unreachable (cyclic garbage)
        self.running = False
        self._start = 0.0
        self._cpu = 0.0
        self.installed = False

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.running = True
            self._cpu = time.thread_time()
            self._start = time.perf_counter()
        else:
            gen = info["generation"]
            self.pauses[gen].add(time.perf_counter() - self._start)
            self.cpu[gen].add(time.thread_time() - self._cpu)
            self.collected[gen] += info["collected"]
            self.running = False

    def install(self) -> None:
        if not self.installed:
            gc.callbacks.append(self)
            self.installed = True

    def uninstall(self) -> None:
        if self.installed:
            gc.callbacks.remove(self)
            self.installed = False


class StackSampler:
    """Diagnosis only (``--metrics-stacks``): a thread that looks at the event loop every
    ``every`` seconds and, while one step has run longer than half the slow-step bound,
    notes the loop thread's stack (and whether the collector is running). A slow step then
    carries what it was doing. It costs GIL switches, so it is off unless asked."""

    def __init__(self, watch: LoopWatch, gcw: GcWatch, every: float = 0.004) -> None:
        self.watch = watch
        self.gcw = gcw
        self.every = every
        self.target = threading.get_ident()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hickory-stack-sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        w = self.watch
        while not self._stop.wait(self.every):
            if not w._in_step or w.clock() - w._start < w.slow_step / 2:
                continue
            step = w.step_no
            frame = sys._current_frames().get(self.target)
            if frame is None:
                continue
            names: list[str] = []
            while frame is not None and len(names) < 10:
                code = frame.f_code
                where = code.co_filename.rsplit("/", 2)
                names.append(f"{'/'.join(where[-2:])}:{frame.f_lineno} {code.co_name}")
                frame = frame.f_back
            text = ("[gc] " if self.gcw.running else "") + " < ".join(names)
            if step == w.step_no and w._in_step:
                stacks = w.samples.setdefault(step, [])
                if len(stacks) < 3 and text not in stacks:
                    stacks.append(text)


STAGES = ("act_to_written", "act_to_table", "table_to_queued", "queued_to_written")


class Metrics:
    """The figures of one server run (see the module's docstring)."""

    def __init__(self, path: Path | None = None, *, slow_step: float = 0.02, stacks: bool = False) -> None:
        self.path = path
        self.latency = {name: Histogram() for name in STAGES}
        self.loop = LoopWatch(slow_step)
        self.gc = GcWatch()
        self.sampler = StackSampler(self.loop, self.gc) if stacks else None
        self.started = time.monotonic()

    def action_broadcast(self, conn: Any, read_at: float, taken_at: float) -> None:
        """An act read at ``read_at`` and taken by its table at ``taken_at`` (trio time)
        has just had its broadcast queued; ``conn`` (the actor's) will say when it is
        written."""
        now = trio.current_time()
        self.latency["act_to_table"].add(taken_at - read_at)
        self.latency["table_to_queued"].add(now - taken_at)

        def written(at: float) -> None:
            self.latency["queued_to_written"].add(at - now)
            self.latency["act_to_written"].add(at - read_at)

        conn.when_written(written)

    def to_json(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "uptime_s": round(time.monotonic() - self.started, 3),
            "cpu_s": time.process_time(),
            "gc_counts": gc.get_count(),
            "latency": {k: v.to_json() for k, v in self.latency.items()},
            "loop": self.loop.to_json(),
            "gc": [h.to_json() for h in self.gc.pauses],
            "gc_cpu": [h.to_json() for h in self.gc.cpu],
            "gc_collected": self.gc.collected,
        }

    def dump(self) -> None:
        """Rewrite the file atomically (a reader never sees half of it)."""
        if self.path is None:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        text = json.dumps(self.to_json())
        tmp.write_text(f'{text[:-1]}, "slow_steps": [{", ".join(self.loop.slow_text)}]}}')
        os.replace(tmp, self.path)

    def summary(self) -> str:
        lines = [f"act -> broadcast written (server's part): {self.latency['act_to_written'].summary()}"]
        for name in STAGES[1:]:
            lines.append(f"  {name}: {self.latency[name].summary()}")
        lines.append(f"loop steps: {self.loop.steps.summary()} (by CPU: {self.loop.cpu_steps.summary()}); "
                     f"{self.loop.slow_count} over "
                     f"{self.loop.slow_step * 1000:g} ms; at most {self.loop.max_lines} lines queued "
                     f"in one step ({self.loop.max_lines_task})")
        for gen, h in enumerate(self.gc.pauses):
            lines.append(f"gc generation {gen} pauses: {h.summary()} (by CPU: {self.gc.cpu[gen].summary()}; "
                         f"{self.gc.collected[gen]} objects collected)")
        return "\n".join(lines)

    async def run(self, interval: float = 1.0) -> None:
        """Install the watchers and dump every ``interval`` seconds until cancelled;
        then dump once more and log the summary."""
        trio.lowlevel.add_instrument(self.loop)
        self.gc.install()
        if self.sampler is not None:
            self.sampler.start()
        try:
            while True:
                self.dump()
                await trio.sleep(interval)
        finally:
            if self.sampler is not None:
                self.sampler.stop()
            self.gc.uninstall()
            try:
                trio.lowlevel.remove_instrument(self.loop)
            except KeyError:
                pass
            self.dump()
            log.warning("metrics:\n%s", self.summary())


def load(path: Path) -> dict[str, Any]:
    """A dump, as written by ``Metrics.dump``."""
    data: dict[str, Any] = json.loads(path.read_text())
    return data
