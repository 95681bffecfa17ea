"""Where a process's time goes, from a py-spy raw profile, as shares of the samples.

    .venv/bin/py-spy record --pid PID -d 10 -r 250 --format raw -o prof.raw --nonblocking
    .venv/bin/python bench/floor_profile.py prof.raw [--top 10]

Each sample is a stack (outermost frame first) and a count. A sample belongs to the
innermost frame of ours (``server/``, ``protocol/``, ``poker/``) on its stack, grouped by
module (codec, engine, journal/store, table task, fan-out and writes, readers, tournament);
a sample with no frame of ours is Trio's (its scheduler, epoll, the socket wrappers) or
something else. Beside the groups: the top functions by self time (the leaf frame) and by
cumulative time (any frame on the stack, counted once per sample).

Used by the issue 29 floors (``bench/floor_server.py``, ``bench/floor_persistence.py``,
``bench/floor_tournament.py``) to say where the gap between ours and the floor goes.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^():]*)(?::(?P<line>\d+))?\)$")

# Module (path inside the repository) -> group; the first prefix that matches wins.
GROUPS: tuple[tuple[str, str], ...] = (
    ("protocol/", "codec"),
    ("poker/", "engine"),
    ("server/journal.py", "journal/store"),
    ("server/store.py", "journal/store"),
    ("server/records.py", "journal/store"),
    ("server/fanout.py", "fan-out and writes"),
    ("server/outbound.py", "fan-out and writes"),
    ("server/connection.py", "fan-out and writes"),
    ("server/herald.py", "fan-out and writes"),
    ("server/listener.py", "readers"),
    ("server/routes.py", "readers"),
    ("server/seat_requests.py", "readers"),
    ("server/ratelimit.py", "readers"),
    ("server/tournament/", "tournament"),
    ("server/tables.py", "table task"),
    ("server/inputs.py", "table task"),
    ("server/refusals.py", "table task"),
    ("server/dealing.py", "table task"),
    ("server/fairness.py", "table task"),
    ("server/house.py", "table task"),
    ("server/metrics.py", "metrics"),
    ("server/", "server, other"),
    ("bench/", "bench"),
)
OURS = ("protocol/", "poker/", "server/", "bench/", "floor_server.py")
# The floor server's own functions, in the groups of the server's work they stand for.
FLOOR_FUNCTIONS = {"Conn.flush": "fan-out and writes", "Conn.send": "fan-out and writes",
                   "Conn.line": "readers", "handle": "readers", "floor_table": "table task",
                   "_shown": "table task", "floor_main": "table task"}
# Entry points: every sample of the server has them at its root, so they say nothing.
ROOTS = ("server/cli.py", "server/serve.py", "server/__main__.py", "server/app.py")


def module_of(path: str) -> str:
    """The path from the package on (``.../site-packages/trio/_core/_run.py`` ->
    ``trio/_core/_run.py``, ``/work/main/server/tables.py`` -> ``server/tables.py``)."""
    for marker in ("/site-packages/", "/work/main/", "/lib/python3.11/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def group_of(frames: list[tuple[str, str]], by_file: bool = False) -> str:
    """The group of one sample, from its frames (outermost first); ``by_file``: the
    innermost module of ours itself."""
    modules = [mod for _, mod in frames]
    for func, mod in reversed(frames):
        if mod.startswith(OURS) and not mod.startswith(ROOTS):
            if by_file:
                return mod
            if mod.endswith("floor_server.py"):
                return FLOOR_FUNCTIONS.get(func, "table task")
            for prefix, group in GROUPS:
                if mod.startswith(prefix):
                    return group
    leaf = modules[-1] if modules else ""
    if leaf.startswith("trio/_core/_io_epoll"):
        return "trio: epoll"
    if leaf.startswith("trio/_core/"):
        return "trio: scheduler"
    if leaf.startswith("trio/"):
        return "trio: sockets, channels, other"
    if leaf.startswith(("sqlite3", "threading")) or "sqlite" in leaf:
        return "journal/store"
    return "other: " + (leaf.split("/", 1)[0] if leaf else "?")


def read(path: Path) -> Iterable[tuple[list[tuple[str, str]], int]]:
    """(frames as (function, module), count) per distinct stack."""
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = []
        for raw in stack.split(";"):
            match = FRAME.match(raw)
            if match is None:
                frames.append((raw, "?"))
            else:
                frames.append((match["func"], module_of(match["file"])))
        yield frames, int(count)


def idle(frames: list[tuple[str, str]]) -> bool:
    """Waiting, not working: py-spy keeps some samples of a thread blocked in epoll_wait
    (Trio's ``get_events``), and start-up's imports are not the steady state."""
    return frames[-1][0] == "EpollIOManager.get_events" or any("importlib" in m for _, m in frames)


def summarise(path: Path, top: int = 10, skip_threads: bool = True, by_file: bool = False,
              busy: bool = False, per: float | None = None) -> str:
    groups: Counter[str] = Counter()
    self_time: Counter[str] = Counter()
    cumulative: Counter[str] = Counter()
    total = 0
    for frames, count in read(path):
        if skip_threads and frames and frames[0][0].startswith("process "):
            frames = frames[1:]
        if skip_threads and frames and frames[0][0].startswith("thread "):
            frames = frames[1:]
        if not frames or (busy and idle(frames)):
            continue
        total += count
        groups[group_of(frames, by_file)] += count
        func, mod = frames[-1]
        self_time[f"{func} ({mod})"] += count
        for name in {f"{f} ({m})" for f, m in frames}:
            cumulative[name] += count
    if not total:
        return f"{path}: no samples"
    lines = [f"{path.name}: {total} samples" + (" (busy: epoll waits and imports left out)" if busy else "")]
    if per is not None:
        lines[0] += f"; {per:g} us of CPU per decision spread over them"
    lines.append(f"  by {'module' if by_file else 'group'} (innermost frame of ours, else the leaf's library):")
    lines += [f"    {n / total:6.1%}  {'' if per is None else f'{per * n / total:6.0f} us  '}{g}"
              for g, n in groups.most_common()]
    lines.append(f"  top {top} by self time:")
    lines += [f"    {n / total:6.1%}  {f}" for f, n in self_time.most_common(top)]
    lines.append(f"  top {top} by cumulative time (frames of ours and trio's only):")
    ours = [(f, n) for f, n in cumulative.most_common()
            if any(f"({p}" in f for p in (*OURS, "trio/"))]
    lines += [f"    {n / total:6.1%}  {f}" for f, n in ours[:top]]
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("profiles", nargs="+", type=Path, help="py-spy --format raw files")
    p.add_argument("--top", type=int, default=10)
    p.add_argument("--by-file", action="store_true", help="group by the innermost module of ours")
    p.add_argument("--busy", action="store_true", help="leave out the epoll waits and the imports")
    p.add_argument("--per", type=float, help="CPU us per decision (or action): also print each group's us")
    args = p.parse_args()
    for path in args.profiles:
        print(summarise(path, args.top, by_file=args.by_file, busy=args.busy, per=args.per))


if __name__ == "__main__":
    main()
