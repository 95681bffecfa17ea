"""The plan of the house, checked: which package may import which, and no import cycles.

``docs/architecture.md`` draws the same plan. Every import counts, wherever it is written
(inside a function or under ``TYPE_CHECKING`` too): a cycle hidden in a function is still a
cycle for the reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("poker", "protocol", "server", "client", "tools")

ALLOWED: dict[str, set[str]] = {
    "poker": set(),  # the rules of the game stand alone
    "protocol": set(),  # the wire format stands alone
    "server": {"poker", "protocol"},
    "client": {"poker", "protocol"},  # never the server: a player's install is the client
    "tools": {"poker", "protocol", "server", "client"},  # doc generators run everything
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every first-party module ``path`` imports (``from a.b import c`` counts a.b and a.b.c)."""
    return imports_in(path.read_text(encoding="utf-8"), module_name(path), package=path.name == "__init__.py")


def imports_in(text: str, module: str, *, package: bool = False) -> set[str]:
    """Every first-party module the source ``text`` of ``module`` imports, wherever the
    import is written; ``package``: the text is the package's ``__init__``."""
    here = module.split(".")
    base_package = here if package else here[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(base_package[: len(base_package) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in PACKAGES}


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    return {name: {i for i in imports_of(path) if i in modules and i != name} for name, path in modules.items()}


def test_packages_import_only_what_the_plan_allows() -> None:
    wrong = sorted(
        f"{name} imports {target}"
        for name, targets in graph().items()
        for target in targets
        if (src := name.split(".")[0]) != (dst := target.split(".")[0]) and dst not in ALLOWED[src]
    )
    assert wrong == []


def test_no_import_cycles() -> None:
    g = graph()
    # A package's __init__ importing its own modules is how a package re-exports: not a cycle.
    edges = {name: {t for t in targets if not (name + ".").startswith(t + ".") and not t.startswith(name + ".")}
             for name, targets in g.items()}
    cycles = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    assert cycles == []


def test_the_check_sees_a_cycle_and_a_wrong_import(tmp_path: Path) -> None:
    """The scan itself works: it reads relative and function-level imports."""
    pkg = tmp_path / "client"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from server.app import Server\n")
    global ROOT
    old = ROOT
    ROOT = tmp_path
    try:
        assert imports_of(pkg / "a.py") == {"server.app", "server.app.Server"}
    finally:
        ROOT = old
