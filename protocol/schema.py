"""JSON Schema (draft 2020-12) of protocol v1, generated from the message classes.

``python -m protocol.schema > docs/protocol.schema.json`` writes the committed file; a
test fails when it is stale. Descriptions come from the class docstrings: the text before
``Attributes:`` describes the message, each ``name: text`` entry under it describes a field,
and ``messages.FIELD_DOCS`` describes the fields common to many messages.

What the schema says is what goes over the wire: a server message lists every field as
required (the server always sends them all, ``null`` included, and ``seq``); a client
message requires only the fields without a default. Every object refuses unknown
properties, as the decoder does.
"""

from __future__ import annotations

import inspect
import json
import sys
from typing import Any, Literal, get_args, get_origin

import attrs

from protocol.compiled import (
    field_since,
    least_of,
    optional_inner,
    tag_key,
    tag_of,
    text_of,
    tuple_item,
)
from protocol.messages import (
    CLIENT_TYPES,
    COMMAND_TAG,
    COMMAND_TYPES,
    CONTROL,
    FIELD_DOCS,
    MAX_INT,
    PROTOCOL_NAME,
    SERVER_TYPES,
    SUPPORTED_VERSIONS,
    Act,
    ClientMessage,
    Command,
    HistoryRequest,
    ServerMessage,
    SetOptionsCommand,
)

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_SERVER_CLASSES = frozenset(SERVER_TYPES.values())

# The cross-field rules the classes check in __attrs_post_init__ (messages.RuleError).
_RULES: dict[type, dict[str, Any]] = {
    Act: {
        "if": {"properties": {"action": {"enum": ["bet", "raise"]}}},
        "then": {"required": ["amount"], "properties": {"amount": {"type": "integer"}}},
        "else": {"properties": {"amount": {"type": "null"}}},
    },
    SetOptionsCommand: {
        "not": {
            "required": ["level_minutes", "hands_per_level"],
            "properties": {
                "level_minutes": {"type": "integer"},
                "hands_per_level": {"type": "integer"},
            },
        },
    },
    HistoryRequest: {
        "not": {
            "required": ["hand_no", "last"],
            "properties": {"hand_no": {"type": "integer"}, "last": {"type": "integer"}},
        },
    },
}


def class_doc(cl: type) -> str:
    """The description part of a class docstring (before ``Attributes:``)."""
    doc = inspect.cleandoc(cl.__doc__ or "")
    return doc.split("\nAttributes:", 1)[0].strip()


def field_docs(cl: type) -> dict[str, str]:
    """Field descriptions: the docstring's ``Attributes:`` entries, else FIELD_DOCS."""
    docs: dict[str, str] = {}
    text = inspect.cleandoc(cl.__doc__ or "")
    if "\nAttributes:" in text:
        current: str | None = None
        for line in text.split("\nAttributes:", 1)[1].splitlines():
            if not line.strip():
                continue
            indent = len(line) - len(line.lstrip())
            name, sep, rest = line.strip().partition(": ")
            if indent <= 4 and sep and name.isidentifier():
                current = name
                docs[name] = rest.strip()
            elif current is not None:
                docs[current] += " " + line.strip()
    out = {}
    for field in attrs.fields(cl):
        doc = docs.get(field.name) or FIELD_DOCS.get(field.name)
        if doc:
            out[field.name] = doc
    return out


def _with_null(schema: dict[str, Any]) -> dict[str, Any]:
    if "enum" in schema:
        return {**schema, "enum": [*schema["enum"], None]}
    if isinstance(schema.get("type"), str) and "$ref" not in schema:
        return {**schema, "type": [schema["type"], "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def type_schema(typ: Any) -> dict[str, Any]:
    """The schema of one field type (classes become ``$ref`` to ``#/$defs/<Name>``)."""
    text = text_of(typ)
    if text is not None:
        schema: dict[str, Any] = {"type": "string"}
        if text.min:
            schema["minLength"] = text.min
        if text.max is not None:
            schema["maxLength"] = text.max
        if text.pattern is not None:
            schema["pattern"] = text.pattern
        if not text.control_ok:
            # "contains no control character", written so that validators using Python's
            # re (where $ also matches before a final newline) agree with ECMA-262 ones.
            schema["not"] = {"type": "string", "pattern": CONTROL.pattern}
        return schema
    if typ is int:
        return {"type": "integer", "minimum": 0, "maximum": MAX_INT}
    least = least_of(typ)
    if least is not None:
        return {"type": "integer", "minimum": least.min, "maximum": MAX_INT}
    if typ is bool:
        return {"type": "boolean"}
    if typ is str:
        return {"type": "string"}
    if get_origin(typ) is Literal:
        return {"enum": list(get_args(typ))}
    inner = optional_inner(typ)
    if inner is not None:
        return _with_null(type_schema(inner))
    item = tuple_item(typ)
    if item is not None:
        return {"type": "array", "items": type_schema(item)}
    if typ == Command:
        return {"$ref": "#/$defs/Command"}
    if attrs.has(typ):
        return {"$ref": f"#/$defs/{typ.__name__}"}
    raise TypeError(f"no schema for {typ!r}")


def class_schema(cl: type) -> dict[str, Any]:
    """The schema of one message, command or part class."""
    docs = field_docs(cl)
    properties: dict[str, Any] = {}
    required: list[str] = []
    key = tag_key(cl)
    if key is not None:
        tag = tag_of(cl)
        what = "director command" if key == COMMAND_TAG else "message type"
        properties[key] = {"const": tag, "description": f"{what} {tag!r}"}
        required.append(key)
    server = cl in _SERVER_CLASSES
    for field in attrs.fields(attrs.resolve_types(cl)):
        if server and field.name == "seq":
            prop = type_schema(int)
        elif field.name == "version" and field.type is int:
            prop = {"type": "integer", "enum": list(SUPPORTED_VERSIONS)}
        else:
            prop = type_schema(field.type)
        if field.name in docs:
            prop = {**prop, "description": docs[field.name]}
        properties[field.name] = prop
        # A field new in a later version is absent from lines to older connections.
        if (server and field_since(field) == 1) or field.default is attrs.NOTHING:
            required.append(field.name)
    description = class_doc(cl)
    schema = {
        "type": "object",
        "title": cl.__name__,
        "description": description,
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    if cl in _RULES:
        schema["allOf"] = [_RULES[cl]]
    return schema


def _reachable(roots: list[type]) -> list[type]:
    """Every attrs class reachable from ``roots`` through field types, roots first."""
    seen: list[type] = []
    todo = list(roots)
    while todo:
        cl = todo.pop(0)
        if cl in seen:
            continue
        seen.append(cl)
        for field in attrs.fields(attrs.resolve_types(cl)):
            todo.extend(_classes_in(field.type))
    return seen


def _classes_in(typ: Any) -> list[type]:
    if typ == Command:
        return list(COMMAND_TYPES.values())
    if isinstance(typ, type) and attrs.has(typ):
        return [typ]
    if text_of(typ) is not None or get_origin(typ) is Literal:
        return []
    return [cl for arg in get_args(typ) if arg is not Ellipsis for cl in _classes_in(arg)]


def build_schema() -> dict[str, Any]:
    """The whole protocol v1 schema: a line is a ClientMessage or a ServerMessage."""
    defs: dict[str, Any] = {
        "ClientMessage": {
            "description": "A line a client sends, told apart by \"type\".",
            "oneOf": [{"$ref": f"#/$defs/{cl.__name__}"} for cl in get_args(ClientMessage)],
        },
        "ServerMessage": {
            "description": "A line the server sends, told apart by \"type\".",
            "oneOf": [{"$ref": f"#/$defs/{cl.__name__}"} for cl in get_args(ServerMessage)],
        },
        "Command": {
            "description": "A director command, told apart by \"op\".",
            "oneOf": [{"$ref": f"#/$defs/{cl.__name__}"} for cl in get_args(Command)],
        },
    }
    roots = [*CLIENT_TYPES.values(), *SERVER_TYPES.values(), *COMMAND_TYPES.values()]
    for cl in _reachable(roots):
        defs[cl.__name__] = class_schema(cl)
    versions = ", ".join(map(str, SUPPORTED_VERSIONS))
    return {
        "$schema": DIALECT,
        "$id": f"urn:{PROTOCOL_NAME}:protocol:v{SUPPORTED_VERSIONS[-1]}",
        "title": f"{PROTOCOL_NAME} protocol (versions {versions})",
        "description": (
            "One JSON object per line, UTF-8, newline-terminated. A line is a client "
            "message or a server message; see $defs/ClientMessage and $defs/ServerMessage."
        ),
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as the committed file holds it (indented, ending in a newline)."""
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    sys.stdout.write(schema_text())


if __name__ == "__main__":
    main()
