"""The protocol package is pure: no trio, no sockets, no clock, no global random."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "protocol"
FORBIDDEN = {"trio", "socket", "time", "random", "asyncio", "datetime", "threading", "server", "client"}


def test_protocol_imports_nothing_impure() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_every_public_class_has_a_docstring() -> None:
    import inspect

    from protocol import (
        client_messages,
        codec,
        commands,
        compiled,
        errors,
        fields,
        framing,
        jsontext,
        messages,
        parts,
        schema,
        server_messages,
    )

    for module in (client_messages, codec, commands, compiled, errors, fields, framing, jsontext,
                   messages, parts, schema, server_messages):
        assert module.__doc__, module.__name__
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and obj.__module__ == module.__name__ and not name.startswith("_"):
                assert obj.__doc__, f"{module.__name__}.{name}"
