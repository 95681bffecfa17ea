"""One home for each concept, checked (issue 24).

``test_layers.py`` checks which package may import which; these check the homes inside the
server: the tournament's private state is the tournament's, rows are written by the journal
and the store only, the tools that read a database build no server, and no module grows
into two. Each check is a function over a tree of sources, so a self-test can plant a
violation and see it caught.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.test_layers import imports_in

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("poker", "protocol", "server", "client", "tools", "bench", "tests")
TOURNAMENT = "server/tournament/tournament.py"
ROW_WRITERS = ("server/store.py", "server/rows.py", "server/journal.py")
NO_SERVER = ("server/recovery.py", "server/reports.py", "server/history_tool.py",
             "server/standings_tool.py")
MAX_LINES = 600

Sources = Mapping[str, str]  # repository-relative path -> text


def sources(root: Path = ROOT) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text(encoding="utf-8")
            for pkg in SCANNED for p in sorted((root / pkg).rglob("*.py"))}


def tournament_privates(text: str) -> set[str]:
    """The private members of ``Tournament``: its ``_methods`` and the ``self._x`` it sets."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef) and node.name == "Tournament":
            for n in ast.walk(node):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(n.name):
                    names.add(n.name)
                elif (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                      and n.value.id == "self" and _private(n.attr)):
                    names.add(n.attr)
    return names


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_reaches(src: Sources) -> list[str]:
    """Every ``something._member`` outside tournament.py naming a private of Tournament
    (``self._x`` in another class is that class's own)."""
    names = tournament_privates(src[TOURNAMENT])
    found = []
    for path, text in src.items():
        if path == TOURNAMENT:
            continue
        for n in ast.walk(ast.parse(text)):
            if (isinstance(n, ast.Attribute) and n.attr in names
                    and not (isinstance(n.value, ast.Name) and n.value.id == "self")):
                found.append(f"{path}:{n.lineno} uses Tournament.{n.attr}")
    return found


# A statement that writes rows, not a word: ``errors="replace"`` or "update" is no SQL.
ROW_SQL = re.compile(r"^\s*(INSERT\s+(OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE\s+(OR\s+\w+\s+)?\w+\s+SET|DELETE\s+FROM)\s",
                     re.IGNORECASE)


def row_writing_sql(src: Sources) -> list[str]:
    """Every string in ``server/`` that starts a statement writing rows, outside the
    journal and the store."""
    found = []
    for path, text in src.items():
        if not path.startswith("server/") or path in ROW_WRITERS:
            continue
        for n in ast.walk(ast.parse(text)):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and ROW_SQL.match(n.value):
                found.append(f"{path}:{n.lineno} writes rows: {n.value[:40]!r}")
    return found


def first_party_imports(path: str, text: str) -> set[str]:
    """The ``server.*`` modules ``path`` imports, wherever the import is written."""
    module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    found = imports_in(text, module, package=path.endswith("__init__.py"))
    return {name for name in found if name.split(".")[0] == "server"}


def reaches_the_app(src: Sources, starts: Iterable[str] = NO_SERVER) -> list[str]:
    """Each of ``starts`` that imports ``server.app``, directly or through other modules."""
    modules = {p.removesuffix(".py").removesuffix("/__init__").replace("/", "."): p
               for p in src if p.startswith("server/")}
    found = []
    for start in starts:
        seen: set[str] = set()
        todo = [start]
        chain: dict[str, str] = {}
        while todo:
            path = todo.pop()
            for name in first_party_imports(path, src[path]):
                if name == "server.app" or name.startswith("server.app."):
                    via = [path]
                    while via[-1] in chain:
                        via.append(chain[via[-1]])
                    found.append(f"{start} imports server.app (through {' <- '.join(via)})")
                    todo = []
                    break
                target = modules.get(name)
                if target is not None and target not in seen:
                    seen.add(target)
                    chain[target] = path
                    todo.append(target)
    return found


def long_modules(src: Sources) -> list[str]:
    return [f"{path} has {n} lines" for path, text in src.items()
            if path.startswith("server/") and (n := text.count("\n")) > MAX_LINES]


# -- the checks on the real tree ------------------------------------------------------------


def test_no_private_member_of_the_tournament_is_used_outside_it() -> None:
    assert private_reaches(sources()) == []


def test_rows_are_written_only_by_the_store_and_the_journal() -> None:
    assert row_writing_sql(sources()) == []


def test_the_tools_that_read_a_database_build_no_server() -> None:
    assert reaches_the_app(sources()) == []


def test_no_server_module_is_over_600_lines() -> None:
    assert long_modules(sources()) == []


# -- each check catches a planted violation -------------------------------------------------

TOURNAMENT_TEXT = """
class Tournament:
    def __init__(self):
        self._entrants = {}
    def _advance(self, now):
        return []
    def public(self):
        return self._entrants
"""


def test_a_reach_into_the_tournament_is_caught() -> None:
    src = {TOURNAMENT: TOURNAMENT_TEXT,
           "server/tournament/director.py": "class D:\n    def f(self):\n        return self.t._advance(1)\n",
           "server/other.py": "class O:\n    def f(self):\n        return self._entrants\n"}
    assert private_reaches(src) == ["server/tournament/director.py:3 uses Tournament._advance"]


def test_a_row_written_outside_the_journal_is_caught() -> None:
    src = {"server/chat.py": 'Q = "INSERT INTO chat VALUES (?)"\nR = "SELECT 1"\n',
           "server/journal.py": 'Q = "insert into inputs VALUES (?)"\n',
           "tools/x.py": 'Q = "DELETE FROM hands"\n',
           "server/tables.py": 'Q = "UPDATE hands SET status=?"\nR = "INSERT OR REPLACE INTO hands VALUES (?)"\n',
           "server/recovery.py": 'Q = "delete from hand_events"\nR = "REPLACE INTO meta VALUES (?)"\n',
           "server/share.py": 'T = b.decode(errors="replace")\nU = "update"\nV = "Delete the file"\n'}
    assert row_writing_sql(src) == [
        "server/chat.py:1 writes rows: 'INSERT INTO chat VALUES (?)'",
        "server/tables.py:1 writes rows: 'UPDATE hands SET status=?'",
        "server/tables.py:2 writes rows: 'INSERT OR REPLACE INTO hands VALUES (?)'",
        "server/recovery.py:1 writes rows: 'delete from hand_events'",
        "server/recovery.py:2 writes rows: 'REPLACE INTO meta VALUES (?)'",
    ]


def test_an_import_of_the_app_is_caught_through_another_module() -> None:
    src = {"server/recovery.py": "from server import helper\n",
           "server/helper.py": "def f():\n    from .app import Server\n",
           "server/reports.py": "import server.store\n",
           "server/store.py": "",
           "server/app.py": ""}
    assert reaches_the_app(src, ("server/recovery.py", "server/reports.py")) == [
        "server/recovery.py imports server.app (through server/helper.py <- server/recovery.py)"]


def test_a_long_module_is_caught() -> None:
    src = {"server/big.py": "x = 1\n" * 601, "server/ok.py": "x = 1\n" * 600, "client/big.py": "x\n" * 900}
    assert long_modules(src) == ["server/big.py has 601 lines"]
