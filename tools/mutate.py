"""Mutation testing with mutmut, one package at a time: ``make mutate`` (or
``python -m tools.mutate [TARGET ...] [--fresh] [--children N]``).

Why per package: mutmut runs, for each mutant, only the tests that call the mutated
function; a package's own tests are the ones meant to catch its mistakes, and a small
selection keeps one run in minutes. The targets below are the whole configuration: edit
``TARGETS`` to change what is mutated or which tests judge it (``only`` narrows a file to
some functions, by mutant name, when only part of a module is meant).

Each target runs in its own scratch copy of the working tree (``.mutate/<target>/``, the
files git knows plus new ones it does not ignore), with a generated ``setup.cfg`` holding
mutmut's settings, so targets do not share mutmut's caches and a clean clone needs nothing
else. A second run reuses the copy and mutmut's results for files that did not change;
``--fresh`` starts over. The summary (``.mutate/<target>/summary.json``, and printed) has
the score: killed (including time-outs: a mutant that hangs is caught) over all mutants,
"no tests" counting as survivors. ``python -m tools.mutate --survivors TARGET`` lists
the survivors; ``--recheck`` runs only those again (after a test was added for them);
``--judge-untested`` runs the tests, in a fresh process each, on the mutants mutmut found
no test for and those of code run at import time (``Target.import_time``); ``cd .mutate/TARGET && ../../.venv/bin/mutmut show NAME`` shows one.
docs/testing.md records the scores and what each survivor is.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import time
from fnmatch import fnmatch
from pathlib import Path

import attrs

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / ".mutate"


@attrs.frozen(kw_only=True)
class Target:
    """What to mutate and which tests judge it."""

    paths: tuple[str, ...]  # files or packages to mutate
    tests: tuple[str, ...]  # pytest arguments that select the judging tests
    only: tuple[str, ...] = ()  # mutant-name globs (module.x_function / module.xǁClassǁmethod); () = all
    skip: tuple[str, ...] = ()  # files under ``paths`` not to mutate (globs), each with its reason in TARGETS
    # Mutant-name globs of code that runs at import time: mutmut imports once and forks a
    # child per mutant, so such a mutant never takes effect there and "survives"; these
    # are judged again in a fresh process (``--judge-untested``).
    import_time: tuple[str, ...] = ()


# The slowest tests of a package are left out where faster ones check the same: the
# pokerkit referee and the shuffle's chi-square runs take a minute and catch nothing the
# rules and property tests do not (measured: docs/testing.md).
TARGETS: dict[str, Target] = {
    "poker": Target(
        paths=("poker",),
        # By test name: "not pokerkit" also left out the quick PHH tests whose names say
        # pokerkit, and with them every check of the export's no-choice checks.
        tests=("tests/engine", "-k",
               "not pokerkit_replays_our_hands and not shuffle_puts and not naive_swap"),
    ),
    # simulate.py is the simulator's command line and report (help texts, formatting),
    # run end to end by tests/tournament/test_simulate.py: not the tournament's rules.
    # settings.py's validator factories run when ``Settings`` is defined, and the checks
    # they bind with ``partial`` at that moment are not seen switched in mutmut's forked
    # children either (each such mutant survives there and dies in a fresh process): all
    # four are judged in fresh processes.
    "tournament": Target(paths=("server/tournament",), tests=("tests/tournament",),
                         skip=("server/tournament/simulate.py",),
                         import_time=tuple(f"server.tournament.settings.x__{f}__*" for f in (
                             "whole_in", "seconds_in", "check_whole", "check_seconds"))),
    # At import, codec.py configures its cattrs converter (the hooks it makes) and
    # compiled.py generates the fast decoders and encoders; tests/protocol/test_built_fresh.py
    # builds them again inside a test, so mutmut judges those mutants like any other.
    "protocol": Target(paths=("protocol",), tests=("tests/protocol", "tests/docs")),
    # The server's director and recovery code (the pure half of the director's commands,
    # server/tournament/inputs.py, is in "tournament"). Tests over TCP and on real SQLite.
    "server": Target(
        paths=("server/directing.py", "server/recovery.py"),
        tests=("tests/server/test_director.py", "tests/server/test_director_details.py", "tests/server/test_floor.py",
               "tests/server/test_late_registration.py", "tests/persistence/test_replay.py",
               "tests/persistence/test_void.py", "tests/persistence/test_set_aside.py",
               "tests/persistence/test_startup.py", "tests/persistence/test_replay_log.py",
               # the seeds' reveal, set_break's payload, a break across a restart, the
               # read-only tools' replay (its ``watch``): a few seconds in all
               "tests/server/test_fairdeck.py", "tests/server/test_breaks.py",
               "tests/persistence/test_break_restart.py", "tests/persistence/test_tools.py"),
    ),
}

# Copied beside the mutated code so imports and data files resolve inside the copy.
SKIP = (".mutate", ".venv", ".git", ".hypothesis", ".mypy_cache", ".pytest_cache", ".ruff_cache")


def tree_files() -> list[Path]:
    """The working tree as git sees it: tracked files plus untracked ones not ignored."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=REPO, capture_output=True, check=True,
        ).stdout.decode()
        names = [n for n in out.split("\0") if n]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk it
        names = [str(p.relative_to(REPO)) for p in REPO.rglob("*") if p.is_file()]
    return [Path(n) for n in names if not n.startswith(SKIP) and (REPO / n).is_file()]


def sync_copy(dest: Path) -> None:
    """Make ``dest`` a copy of the tree; unchanged files keep their times (mutmut's cache)."""
    wanted = set(tree_files())
    for rel in wanted:
        src, dst = REPO / rel, dest / rel
        s = src.stat()
        if dst.exists():
            d = dst.stat()
            if (d.st_size, int(d.st_mtime)) == (s.st_size, int(s.st_mtime)):
                continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    for top in ("poker", "protocol", "server", "client", "tools", "tests", "docs", "bench"):
        for p in (dest / top).rglob("*") if (dest / top).exists() else []:
            if p.is_file() and "__pycache__" not in p.parts and p.relative_to(dest) not in wanted:
                p.unlink()


def setup_cfg(target: Target) -> str:
    """mutmut's settings for ``target`` (mutmut reads setup.cfg when pyproject.toml has none)."""
    tops = sorted({p.parts[0] for p in tree_files() if len(p.parts) > 1} - {"tests"})
    lines = [
        "[mutmut]",
        "source_paths =", *(f"    {p}" for p in target.paths),
        "also_copy =", *(f"    {p}" for p in tops),
        "pytest_add_cli_args_test_selection =", *(f"    {a}" for a in target.tests),
        *(["do_not_mutate =", *(f"    {g}" for g in target.skip)] if target.skip else []),
        # One process per mutant already: no xdist, no cache writes from forked runs.
        "pytest_add_cli_args =", "    -p", "    no:cacheprovider", "    -p", "    no:xdist",
        "",
    ]
    return "\n".join(lines)


def mutmut(workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("mutmut")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([str(exe), *args], cwd=workdir, env=env, text=True, capture_output=True)


def results(workdir: Path, target: Target) -> dict[str, str]:
    """Every mutant of ``target`` (filtered by ``only``) and its status; a "no tests" mutant
    judged since by ``judge_untested`` has that verdict instead."""
    out = mutmut(workdir, "results", "--all", "true").stdout
    judged = judged_untested(workdir)
    found: dict[str, str] = {}
    for line in out.splitlines():
        name, sep, status = line.strip().partition(": ")
        if sep and "__mutmut_" in name and (not target.only or any(fnmatch(name, g) for g in target.only)):
            module = name.split(".x", 1)[0].replace(".", "/") + ".py"
            if not any(fnmatch(module, g) for g in target.skip):
                status = status.strip()
                rejudged = status == "no tests" or any(fnmatch(name, g) for g in target.import_time)
                found[name] = judged.get(name, status) if rejudged else status
    return found


# Code that runs when a module is imported (protocol/compiled.py generates its decoders
# then) is called by no test as far as mutmut can see ("no tests", never run), or runs in
# mutmut's parent process before it forks a child per mutant (so the mutant never takes
# effect: "survived"). Both are judged here instead: the target's tests, all of them,
# stopping at the first failure, in a fresh process with the mutant switched on from the
# start (the environment variable mutmut's trampolines read).


def judged_untested(workdir: Path) -> dict[str, str]:
    path = workdir / "untested.json"
    verdicts: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}
    return verdicts


def judge_untested(name: str, *, children: int) -> None:
    target = TARGETS[name]
    workdir = WORK / name
    out = mutmut(workdir, "results", "--all", "true").stdout
    untested = []
    for line in out.splitlines():
        mutant, _, status = line.strip().partition(": ")
        if status == "no tests" or (status == "survived" and any(fnmatch(mutant, g) for g in target.import_time)):
            untested.append(mutant)
    verdicts = judged_untested(workdir)
    # In a seeded random order: a run cut short has judged a fair sample.
    todo = sorted(m for m in untested if m not in verdicts)
    random.Random(19).shuffle(todo)
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *target.tests]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", HICKORY_MUTATE="1")

    def run(mutant: str, timeout: float | None = None) -> tuple[str, float, str]:
        start = time.monotonic()
        try:
            done = subprocess.run(cmd, cwd=workdir / "mutants", env=dict(env, MUTANT_UNDER_TEST=mutant),
                                  capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return mutant, time.monotonic() - start, "timeout"
        return mutant, time.monotonic() - start, "survived" if done.returncode == 0 else "killed"

    _, baseline, verdict = run("")  # no mutant: the tests must pass
    if verdict != "survived":
        raise SystemExit(f"{name}: the tests fail without a mutant (in {workdir / 'mutants'})")
    print(f"judging {len(todo)} 'no tests' mutants of {name} (the whole run takes {baseline:.0f} s)", flush=True)
    with concurrent.futures.ThreadPoolExecutor(children) as pool:
        for mutant, _, verdict in pool.map(lambda m: run(m, 10 * baseline + 10), todo):
            verdicts[mutant] = verdict
            (workdir / "untested.json").write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n")
    summary = summarize(name, results(workdir, target))
    (workdir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary), flush=True)


def summarize(name: str, found: dict[str, str]) -> dict[str, object]:
    counts: dict[str, int] = {}
    for status in found.values():
        counts[status] = counts.get(status, 0) + 1
    total = len(found)
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    score = round(100.0 * killed / total, 1) if total else None
    return {"target": name, "mutants": total, "killed": killed, "score": score, "by_status": counts}


def survivors(workdir: Path, target: Target) -> list[str]:
    """The mutants of the last run that no test killed (survived, or no test reached);
    not those a run cut short never got to ("not checked")."""
    if not (workdir / "mutants").exists():
        return []
    done = ("killed", "timeout", "not checked")
    return sorted(m for m, status in results(workdir, target).items() if status not in done)


def run_target(name: str, *, fresh: bool, children: int, recheck: bool = False) -> dict[str, object]:
    target = TARGETS[name]
    workdir = WORK / name
    if fresh and workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    # Named before the copy is refreshed: mutmut runs a mutant it is given by name again,
    # with the tests (new ones included) as they are now.
    before = results(workdir, target) if recheck and (workdir / "mutants").exists() else {}
    again = survivors(workdir, target) if recheck else []
    sync_copy(workdir)
    (workdir / "setup.cfg").write_text(setup_cfg(target))
    print(f"mutate {name}: {', '.join(target.paths)} judged by {' '.join(target.tests)}", flush=True)
    if recheck:
        print(f"rechecking the {len(again)} survivors of the last run", flush=True)
    exe = Path(sys.executable).with_name("mutmut")
    cmd = [str(exe), "run", "--max-children", str(children), *(again or target.only)]
    log = workdir / "run.log"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", HICKORY_MUTATE="1")
    with open(log, "w") as f:
        done = subprocess.run(cmd, cwd=workdir, stdout=f, stderr=subprocess.STDOUT, env=env)
        # A function edited since the last run has new mutants, not yet run by name.
        pending = [m for m, status in results(workdir, target).items()
                   if status == "not checked" and before.get(m) != "not checked"]
        if recheck and pending and done.returncode == 0:
            print(f"and the {len(pending)} new mutants of the functions changed since", flush=True)
            done = subprocess.run([*cmd[:4], *pending], cwd=workdir, stdout=f, stderr=subprocess.STDOUT, env=env)
    summary = summarize(name, results(workdir, target))
    summary["exit_code"] = done.returncode
    (workdir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary), flush=True)
    if done.returncode != 0:
        print(f"mutmut exited with {done.returncode}: see {log}", flush=True)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.mutate", description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help=f"default: all ({', '.join(TARGETS)})")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    parser.add_argument("--children", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--survivors", action="store_true", help="list the survivors of the last run")
    parser.add_argument("--judge-untested", action="store_true",
                        help="run the target's tests on each 'no tests' mutant of the last run")
    parser.add_argument("--recheck", action="store_true",
                        help="run only the last run's survivors again (after adding tests)")
    args = parser.parse_args(argv)
    names = args.targets or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"unknown target {', '.join(unknown)} (known: {', '.join(TARGETS)})")
    if args.survivors:
        for name in names:
            workdir = WORK / name
            if not (workdir / "mutants").exists():
                print(f"{name}: no run yet")
                continue
            for mutant, status in sorted(results(workdir, TARGETS[name]).items()):
                if status not in ("killed", "timeout", "not checked"):
                    print(f"{mutant}: {status}")
        return 0
    if args.judge_untested:
        for name in names:
            judge_untested(name, children=args.children)
        return 0
    failed = False
    for name in names:
        summary = run_target(name, fresh=args.fresh, children=args.children, recheck=args.recheck)
        failed |= summary["exit_code"] != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
