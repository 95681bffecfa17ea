"""The tournament layer's cost counted in instructions, not seconds: a figure the load of a
shared machine does not move (issue 29: the same timing bench moved by a factor of two
within minutes on this host).

    python bench/instructions.py [--players 100] [--tournaments 5]

Counts the CPU instructions (valgrind's cachegrind, no cache simulation) of two child
processes per side: one that only imports and prepares, one that also plays every
tournament twice; the difference over the plays is that side's count. The sides are
``bench/tournament.py``'s: ``run_tournament`` as it is, and the engine playing the same
hands (shuffle and policy included, from a recording made in the child). Both sides make the
recordings while preparing, so the caches filled by a first play are warm on both. The ratio
engine / tournament stands for ``bench/tournament.py``'s target (at least 0.8) without the
noise; an instruction is not a nanosecond (a cache miss costs more than an add), so the
timed bench stays the judge and this one shows which way a change moves it, to 0.1%.
Needs valgrind (Debian's package); about a minute and a half. Not in ``make bench``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import importlib.util, sys
root, side, plays, players, tournaments = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, root)
sys.path.insert(0, root + "/bench")
spec = importlib.util.spec_from_file_location("bench_tournament", root + "/bench/tournament.py")
bt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bt)
seeds = range(tournaments)
# Both sides record in their preparation: recording plays every hand once, which fills
# caches that the plays then find warm (poker/hand.py's names of hand strengths), as
# bench/tournament.py's record-and-verify does before anything is timed.
recs = [bt.record(players, s) for s in seeds]
for _ in range(plays):
    if side == "engine":
        for rec in recs:
            bt.engine(rec)
    else:
        for s in seeds:
            bt.run_tournament(players=players, seed=s)
'''


def instructions(side: str, plays: int, players: int, tournaments: int) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", CHILD, str(ROOT), side, str(plays), str(players), str(tournaments)],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if found is None:
        raise RuntimeError(f"valgrind printed no instruction count:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_tournament(side: str, players: int, tournaments: int) -> float:
    """Instructions of one tournament's play: (two plays - none) / (2 x tournaments)."""
    base = instructions(side, 0, players, tournaments)
    return (instructions(side, 2, players, tournaments) - base) / (2 * tournaments)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--tournaments", type=int, default=5)
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    tour = per_tournament("tournament", args.players, args.tournaments)
    eng = per_tournament("engine", args.players, args.tournaments)
    print(f"{args.players} players, seeds 0..{args.tournaments - 1}, instructions per tournament:")
    print(f"  tournament (run_tournament)          {tour / 1e6:8.2f} M")
    print(f"  engine (shuffle, policy, same hands) {eng / 1e6:8.2f} M")
    print(f"  engine / tournament {eng / tour:.3f} (bench/tournament.py's target: at least 0.8; "
          f"0.8 needs the tournament at {eng / 0.8 / 1e6:.2f} M)")


if __name__ == "__main__":
    main()
