"""Who watches what is changed in one place: ``server/watching.py`` (issue 24).

``Client.watching`` is assigned, and ``House.viewers`` added to or taken from, nowhere else
in ``server/`` (a class's own ``self.watching`` is its own). The check is a function over
sources, so a planted violation shows it is caught.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

HOME = "server/watching.py"
CHANGES = {"add", "discard", "remove", "clear", "update", "pop", "difference_update"}
ROOT = Path(__file__).resolve().parents[2]


def watching_changes(src: Mapping[str, str]) -> list[str]:
    found = []
    for path, text in src.items():
        if not path.startswith("server/") or path == HOME:
            continue
        for n in ast.walk(ast.parse(text)):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and n.attr == "watching" \
                    and not (isinstance(n.value, ast.Name) and n.value.id == "self"):
                found.append(f"{path}:{n.lineno} sets .watching")
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in CHANGES
                    and isinstance(n.func.value, ast.Attribute) and n.func.value.attr == "viewers"):
                found.append(f"{path}:{n.lineno} changes .viewers")
    return found


def test_only_the_watching_module_changes_who_watches_what() -> None:
    src = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted((ROOT / "server").rglob("*.py"))}
    assert watching_changes(src) == []


def test_a_change_of_who_watches_outside_its_home_is_caught() -> None:
    src = {HOME: "def f(h, c):\n    c.watching = 1\n    h.viewers.add(c)\n",
           "server/queries.py": "def g(h, c):\n    c.watching = 2\n    h.viewers.add(c)\n",
           "server/news.py": "class P:\n    def __init__(self):\n        self.watching = None\n",
           "server/listener.py": "def h(house, c):\n    house.viewers.discard(c)\n    n = len(house.viewers)\n"}
    assert watching_changes(src) == ["server/queries.py:2 sets .watching", "server/queries.py:3 changes .viewers",
                                     "server/listener.py:2 changes .viewers"]
