"""The cores are sans-I/O: no trio, no sockets, no clock reads, no global random.

The engine, the tournament and the protocol take time and randomness as arguments; this
scans their source so a stray ``import trio`` or ``random.shuffle(deck)`` fails the build.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = ["poker", "server/tournament", "protocol", "client/strategies", "client/model", "client/deckcheck.py",
        "client/acpc/matchstate.py", "client/acpc/betting.py", "client/acpc/gamedef.py", "client/acpc/botgame.py",
        "server/clock/state.py"]
FORBIDDEN_MODULES = {"trio", "socket", "asyncio", "time", "sqlite3", "threading", "selectors"}
# Functions of the module-level (global) RNG; random.Random instances passed in are fine.
GLOBAL_RANDOM = {
    "random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "uniform",
    "seed", "getrandbits", "gauss",
}


def _sources() -> list[Path]:
    files: list[Path] = []
    for pkg in PURE:
        path = ROOT / pkg
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return files


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_module_does_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] not in FORBIDDEN_MODULES, f"{path}: imports {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            assert top not in FORBIDDEN_MODULES, f"{path}: imports from {node.module}"
            if top == "random":
                names = {a.name for a in node.names}
                assert not names & GLOBAL_RANDOM, f"{path}: imports global random functions {names}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            # datetime values may be formatted, never read from the clock.
            assert node.func.attr not in {"now", "utcnow", "today"}, (
                f"{path}:{node.lineno}: reads the clock ({node.func.attr}); pass the time in"
            )
            value = node.func.value
            if isinstance(value, ast.Name) and value.id == "random":
                assert node.func.attr not in GLOBAL_RANDOM, (
                    f"{path}:{node.lineno}: uses the global random.{node.func.attr}; pass an RNG in"
                )


def test_every_pure_path_exists() -> None:
    """A module moved or split out from under the list would silently leave the scan."""
    assert [pkg for pkg in PURE if not (ROOT / pkg).exists()] == []


def test_scan_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import random\nrandom.shuffle([1, 2])\n")
    tree = ast.parse(bad.read_text())
    calls = [
        n for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name) and n.func.value.id == "random"
        and n.func.attr in GLOBAL_RANDOM
    ]
    assert calls, "the scan would miss random.shuffle"
