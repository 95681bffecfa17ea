"""One fast table's cost counted in instructions: ``bench/server.py`` (a) without the noise.

    .venv/bin/python bench/instructions_server.py [--decisions 2000] [--sides ours,hops,floor]

Each side is a server subprocess run under valgrind's callgrind (no cache simulation):
ours (``python -m server --no-db``, the settings of ``bench/server.py`` (a)), and the
floors of ``bench/floor_server.py``: "hops" (the floor server with a reader task per
connection posting to the table's channel, the architecture's hops) and "floor" (the
table's task reads the actor's line itself). Six instant bots (``bench/server.py``'s) play
at the table; after a warm-up the counters are zeroed (``callgrind_control -z``), and after
``--decisions`` more decisions they are dumped: instructions per decision, the server's
user-space work alone (the kernel's part of a write or an epoll is not counted, nor are
the bots). The count moves by about 0.5% from run to run (how many loop passes a
decision takes depends a little on timing), where the timed CPU per decision moves by 10
to 30% on this shared host: this is the bench to tell which way a change to the fast path
moves it. An instruction is not a nanosecond; ``bench/server.py`` stays the judge of the
target. Needs valgrind (Debian's package); about a minute per side. Not in ``make bench``.

(The bare fan-out server of ``bench/server.py`` is left out: it awaits ``send_all`` per
socket, so much of its cost per decision is in the kernel and in Trio's own Python, and its
instruction count says little about its CPU time.)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import trio  # noqa: E402
from floor_server import ROOT, load_bench_server  # noqa: E402

CALLGRIND = ["valgrind", "--tool=callgrind", "--dump-instr=no"]


def start(bs: Any, side: str, tmp: Path) -> Any:
    """One side's server under callgrind, as ``bench/server.py``'s ``Proc`` (its port read
    from what the server prints; stopped with SIGTERM, so callgrind writes its last dump)."""
    valgrind = [*CALLGRIND, f"--callgrind-out-file={tmp / 'callgrind.out'}"]
    if side == "ours":
        config = tmp / "bench.toml"
        config.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in bs.table_settings(6, 6).items()))

        def ours_port(p: subprocess.Popen[str]) -> int:
            assert p.stdout is not None
            for line in p.stdout:
                if "director secret" in line:
                    return int((tmp / "port").read_text())
            raise SystemExit("the server did not start under valgrind")

        return bs.Proc([*valgrind, sys.executable, "-m", "server", "--config", str(config), "--no-db",
                        "--port", "0", "--port-file", str(tmp / "port")], ours_port)

    def floor_port(p: subprocess.Popen[str]) -> int:
        assert p.stdout is not None
        return int(p.stdout.readline())

    return bs.Proc([*valgrind, sys.executable, str(ROOT / "bench" / "floor_server.py"), "--serve", "6",
                    *(["--hops"] if side == "hops" else [])], floor_port)


def count(bs: Any, side: str, decisions: int, warmup: int) -> float:
    """Instructions per decision of one side's server."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        server = start(bs, side, tmp)
        try:
            def control(option: str) -> None:
                subprocess.run(["callgrind_control", option, str(server.popen.pid)], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

            async def play() -> int:
                bots = await bs.connect_bots(server.port, 6, 0.0, "count")
                async with trio.open_nursery() as nursery:
                    for bot in bots:
                        nursery.start_soon(bot.play)
                    while sum(b.decisions for b in bots) < warmup:
                        await trio.sleep(0.05)
                    await trio.to_thread.run_sync(control, "-z")
                    start = sum(b.decisions for b in bots)
                    while sum(b.decisions for b in bots) < start + decisions:
                        await trio.sleep(0.01)
                    await trio.to_thread.run_sync(control, "-d")
                    done: int = sum(b.decisions for b in bots) - start
                    nursery.cancel_scope.cancel()
                return done

            done = trio.run(play)
            dumps = sorted(tmp.glob("callgrind.out*"), key=os.path.getmtime)
            for line in dumps[-1].read_text().splitlines():
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1]) / done
            raise RuntimeError(f"callgrind wrote no total for {side}")
        finally:
            server.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--decisions", type=int, default=2000, help="decisions counted per side (default 2000)")
    p.add_argument("--warmup", type=int, default=300, help="decisions before the count (default 300)")
    p.add_argument("--sides", default="ours,hops,floor", help="ours, hops, floor (default: all three)")
    args = p.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("bench/instructions_server.py needs valgrind (apt-get install valgrind)")
    bs = load_bench_server()
    names = {"ours": "ours", "hops": "floor, hops", "floor": "floor"}
    counts: dict[str, float] = {}
    print(f"one table of 6 instant bots, {args.decisions} decisions per side, under callgrind")
    for side in args.sides.split(","):
        counts[side] = count(bs, side, args.decisions, args.warmup)
        print(f"  {names[side]:12s} {counts[side] / 1000:8.1f} k instructions per decision", flush=True)
    for floor in ("hops", "floor"):
        if "ours" in counts and floor in counts:
            print(f"FLOOR ours / {names[floor]}: {counts['ours'] / counts[floor]:.2f}")


if __name__ == "__main__":
    main()
