"""Lines to typed messages and back: strict at the edge, fast on the way out.

Decoding (``decode_client`` on the server, ``decode_server`` in clients and bots) turns one
line into one message class from ``protocol.messages`` or raises ``ProtocolError`` with a
stable code and a field path; it never raises anything else. Beyond what
``protocol.jsontext.parse_json`` refuses at the JSON level, structuring refuses ``true``,
``"5"``, ``5.0`` or a negative number where an integer belongs, ``null`` where a string
belongs, strings that break a field's length or pattern, unknown fields, and messages of
the wrong direction or an unsupported protocol version.

The cattrs ``converter`` (strict hooks, detailed validation, tagged unions on ``"type"``
and on a director command's ``"op"``) is the reference. For speed a line first goes
through orjson (if installed) and a structure function generated per class
(``protocol.compiled``); only if that fails does the strict path run: the standard
library parser with its checks, then cattrs, whose errors become the ``ProtocolError``.

Encoding (``encode``) writes compact one-line JSON with ``"type"`` first, through orjson
when it is importable and the standard library otherwise (same bytes). Each server line
carries a per-connection ``seq``; the server encodes a message once with ``seq=None`` and
gives each connection its number with ``stamp(body, seq)``, which splices ``,"seq":N``
in before the closing brace.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar, cast, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import (
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from protocol import errors as E
from protocol import jsontext
from protocol.compiled import (
    BUILT,
    UNSTRUCTURE,
    UNSTRUCTURE_WIRE,
    UNSTRUCTURE_WIRE_BY_VERSION,
    Compiled,
    Structure,
    Unstructure,
    field_since,
    least_of,
    since_of,
    text_of,
    tuple_item,
)
from protocol.errors import ProtocolError
from protocol.jsontext import json_kind, parse_json, short
from protocol.messages import (
    CLIENT_TYPES,
    COMMAND_TAG,
    COMMAND_TYPES,
    LATEST_VERSION,
    MAX_INT,
    SERVER_TYPES,
    SUPPORTED_VERSIONS,
    ClientMessage,
    Command,
    Error,
    Handshake,
    RuleError,
    ServerMessage,
)

__all__ = [
    "converter",
    "decode_client",
    "decode_server",
    "encode",
    "error_reply",
    "newer_field",
    "parse_json",
    "sendable",
    "stamp",
    "stamp_line",
    "structure_client",
    "structure_server",
    "tag_of",
    "unstructure",
    "validate",
]

T = TypeVar("T")
Hook = Callable[[Any, Any], Any]
AnyMessage = ClientMessage | ServerMessage


def tag_of(cl: type | object) -> str:
    """The "type" (or, for a director command, "op") string of a class or instance."""
    tag = getattr(cl, "TYPE", None)
    if not isinstance(tag, str):
        raise TypeError(f"{cl!r} is not a protocol message")
    return tag


# =====================================================================================
# The cattrs converter: strict hooks first, then the tagged unions that capture them
# =====================================================================================


class FieldError(ValueError):
    """A value refused by a strict hook; ``sub`` extends the path (e.g. a union's tag)."""

    def __init__(self, message: str, *, code: str = E.INVALID_FIELD, sub: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.sub = sub


def _expected(name: str, value: object) -> FieldError:
    return FieldError(f"invalid value for type, expected {name}, got {json_kind(value)}")


def _structure_int(value: Any, _: Any) -> int:
    if type(value) is int:
        if 0 <= value <= MAX_INT:
            return value
        raise FieldError(f"integer out of range, expected 0 to {MAX_INT}")
    raise _expected("int", value)


def _structure_str(value: Any, _: Any) -> str:
    if type(value) is str:
        return value
    raise _expected("str", value)


def _structure_bool(value: Any, _: Any) -> bool:
    if type(value) is bool:
        return value
    raise _expected("bool", value)


def _make_text_hook(typ: Any) -> Hook:
    text = text_of(typ)
    assert text is not None
    problem = text.problem

    def structure_text(value: Any, _: Any) -> str:
        if type(value) is not str:
            raise _expected("str", value)
        found = problem(value)
        if found is not None:
            raise FieldError(found)
        return value

    return structure_text


def _make_literal_hook(typ: Any) -> Hook:
    allowed = get_args(typ)
    choices = frozenset(allowed)
    listing = ", ".join(str(a) for a in allowed)

    def structure_literal(value: Any, _: Any) -> Any:
        if type(value) is str and value in choices:
            return value
        if type(value) is not str:
            raise _expected(f"one of {listing}", value)
        raise FieldError(f"invalid value {short(value)}, expected one of {listing}")

    return structure_literal


def _make_least_hook(typ: Any) -> Hook:
    least = least_of(typ)
    assert least is not None
    low = least.min

    def structure_least(value: Any, _: Any) -> int:
        if type(value) is not int:
            raise _expected("int", value)
        if low <= value <= MAX_INT:
            return value
        raise FieldError(f"integer out of range, expected {low} to {MAX_INT}")

    return structure_least


def _is_literal(typ: Any) -> bool:
    return get_origin(typ) is Literal


def _configure(conv: cattrs.Converter, plain: dict[type, Unstructure]) -> None:
    """Strict hooks, registered before configure_tagged_union (which captures them);
    ``plain``: the generated unstructure functions, for ``conv.unstructure``."""
    conv.register_structure_hook(int, _structure_int)
    conv.register_structure_hook(bool, _structure_bool)
    conv.register_structure_hook(str, _structure_str)
    conv.register_structure_hook_factory(_is_literal, _make_literal_hook)
    conv.register_structure_hook_factory(lambda t: text_of(t) is not None, _make_text_hook)
    conv.register_structure_hook_factory(lambda t: least_of(t) is not None, _make_least_hook)

    # ``X | None``: cattrs' own union handling (None, else X's hook above) is already strict.

    def make_tuple(typ: Any) -> Hook:
        item = tuple_item(typ)
        hook = conv.get_structure_hook(item)

        def structure_tuple(value: Any, _: Any) -> tuple[Any, ...]:
            # Stops at the first bad item: only the first fault is reported, and
            # collecting thousands of them would let one line cost seconds.
            if type(value) is not list:
                raise _expected("array", value)
            out = []
            for index, v in enumerate(value):
                try:
                    out.append(hook(v, item))
                except Exception as exc:
                    exc.__notes__ = [
                        *getattr(exc, "__notes__", []),
                        IterableValidationNote(f"Structuring item @ index {index}", index, item),
                    ]
                    raise IterableValidationError(
                        f"While structuring {typ!r}", [exc], typ
                    ) from None
            return tuple(out)

        return structure_tuple

    conv.register_structure_hook_factory(lambda t: tuple_item(t) is not None, make_tuple)

    def make_class(cl: type[T]) -> Callable[[Any, Any], T]:
        base = make_dict_structure_fn(
            cl, conv, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
        )

        def structure_class(value: Any, _: Any) -> T:
            if type(value) is not dict:
                raise _expected("object", value)
            return base(value, cl)

        return structure_class

    conv.register_structure_hook_factory(attrs.has, make_class)

    configure_tagged_union(Command, conv, tag_generator=tag_of, tag_name=COMMAND_TAG)
    tagged = conv.get_structure_hook(Command)
    ops = ", ".join(COMMAND_TYPES)

    def structure_command(value: Any, typ: Any) -> Any:
        if type(value) is not dict:
            raise _expected("object", value)
        op = value.get(COMMAND_TAG)
        if op is None:
            raise FieldError("required field missing", code=E.MISSING_FIELD, sub=COMMAND_TAG)
        if type(op) is not str or op not in COMMAND_TYPES:
            raise FieldError(f"unknown command {short(op)}, expected one of {ops}", sub=COMMAND_TAG)
        return tagged(value, typ)

    conv.register_structure_hook(Command, structure_command)
    configure_tagged_union(ClientMessage, conv, tag_generator=tag_of, tag_name="type")
    configure_tagged_union(ServerMessage, conv, tag_generator=tag_of, tag_name="type")
    for cl, fn in plain.items():
        conv.register_unstructure_hook(cl, fn)


# =====================================================================================
# Decoding
# =====================================================================================

_Entry = tuple[type, Structure, Hook]
_HANDSHAKES = frozenset(tag_of(cl) for cl in get_args(Handshake))
_HANDSHAKE_CLASSES: frozenset[type] = frozenset(get_args(Handshake))
_SERVER_CLASSES = frozenset(SERVER_TYPES.values())


def _describe(exc: BaseException, typ: Any) -> tuple[str, str, str | None]:
    """(code, message, extra path) for one failure found while structuring."""
    if isinstance(exc, FieldError):
        return exc.code, exc.message, exc.sub
    if isinstance(exc, RuleError):
        return (E.MISSING_FIELD if exc.missing else E.INVALID_FIELD), exc.message, exc.field
    if isinstance(exc, ForbiddenExtraKeysError):
        extra = sorted(exc.extra_fields)
        first = extra[0] if len(extra[0]) <= 40 else extra[0][:37] + "..."
        if len(extra) == 1:
            return E.UNKNOWN_FIELD, f"unknown field {short(extra[0])}", first
        names = ", ".join(short(f) for f in extra[:5])
        return E.UNKNOWN_FIELD, f"unknown fields {names}", first
    if isinstance(exc, KeyError):
        return E.MISSING_FIELD, "required field missing", None
    # No failure of another kind reaches here (the strict hooks raise FieldError); kept so
    # that one would still be refused with a message.
    name = getattr(typ, "__name__", None) or repr(typ)  # pragma: no mutate - not reached
    return E.INVALID_FIELD, f"invalid value for type, expected {name}", None


def _structure_error(exc: Exception, tag: str, request_id: int | None) -> ProtocolError:
    found: list[tuple[BaseException, Any]] = []

    def note(e: BaseException, typ: Any) -> str:
        found.append((e, typ))
        return str(len(found) - 1)

    if isinstance(exc, ClassValidationError | IterableValidationError):
        lines = cattrs.transform_error(exc, path=tag, format_exception=note)
    else:  # pragma: no cover - cattrs wraps every failure of a class (RuleError included)
        lines = [f"{note(exc, None)} @ {tag}"]  # pragma: no mutate - not reached
    index, _, path = lines[0].partition(" @ ")
    code, message, sub = _describe(*found[int(index)])
    if sub:
        path = f"{path}.{sub}"
    if len(lines) > 1:
        message += f" (and {len(lines) - 1} more)"
    return ProtocolError(code, message, path, id=request_id)


def _structure(obj: Any, entries: dict[str, _Entry], other: dict[str, type], side: str) -> Any:
    """A parsed JSON value -> a message of one side (the strict path)."""
    if type(obj) is not dict:
        raise ProtocolError(E.NOT_AN_OBJECT, f"expected a JSON object, got {json_kind(obj)}")
    request_id = obj.get("id")
    if type(request_id) is not int or not 0 <= request_id <= MAX_INT:
        request_id = None
    tag = obj.get("type")
    if tag is None:
        raise ProtocolError(E.MISSING_TYPE, 'message has no "type"', id=request_id)
    if type(tag) is not str:
        raise ProtocolError(
            E.UNKNOWN_TYPE, f'"type" must be a string, got {json_kind(tag)}', "type", id=request_id
        )
    entry = entries.get(tag)
    if entry is None:
        if tag in other:
            why = f"{tag!r} is a message {side} receives, not one it sends"
        else:
            why = f"unknown message type {short(tag)}"
        raise ProtocolError(E.UNKNOWN_TYPE, why, "type", id=request_id)
    if tag in _HANDSHAKES:
        version = obj.get("version")
        if type(version) is int and version not in SUPPORTED_VERSIONS:
            offered = ", ".join(map(str, SUPPORTED_VERSIONS))
            raise ProtocolError(
                E.UNSUPPORTED_VERSION,
                f"protocol version {version} is not supported; supported versions: {offered}",
                f"{tag}.version",
                id=request_id,
            )
    cl, fast, detailed = entry
    try:
        # Only a shortcut: whatever it refuses, the detailed hook below decides the same.
        return fast(obj, [0])  # pragma: no mutate - a broken call falls through to the same answer
    except Exception:
        pass
    body = {k: v for k, v in obj.items() if k != "type"}
    try:
        result = detailed(body, cl)  # pragma: no mutate - the class hooks ignore their type argument
    except Exception as exc:
        try:
            error = _structure_error(exc, tag, request_id)
        except Exception:  # pragma: no cover - a fault we could not name is still refused
            error = ProtocolError(E.INVALID_FIELD, "invalid message", tag, id=request_id)  # pragma: no mutate - unreached
        raise error from None
    return result  # pragma: no cover - the fast path accepts whatever cattrs accepts


_loads_fast = jsontext.loads_fast


# The fast path (inlined in ``decode_client`` and ``decode_server``: a server decodes each
# line a client sends, and a call more per line was a tenth of an act's decoding). orjson
# keeps the last of duplicate keys, so the line's colons are counted: each key in the text
# is followed by exactly one colon outside strings, so a line with exactly as many colons
# as the structured objects have keys has no duplicate key. (A colon inside a string sends
# the line down the strict path: correct, slower.) Any failure, of any kind, also falls
# through to the strict path, which alone reports. What is done once per line is kept to
# the parse, the structure function, the colon count and a comparison (no ``typing``
# calls, no casts).


def _field_type_classes(typ: Any) -> list[type]:
    """The message or part classes a field's values are built from (for the version walk)."""
    if typ == Command:
        return list(COMMAND_TYPES.values())
    if isinstance(typ, type) and attrs.has(typ):
        return [typ]
    if text_of(typ) is not None or least_of(typ) is not None or _is_literal(typ):
        return []
    return [cl for arg in get_args(typ) if arg is not Ellipsis for cl in _field_type_classes(arg)]


def _versioned(cl: type, seen: set[type] | None = None) -> bool:
    """Whether ``cl`` or anything nested in it has a field or class newer than version 1."""
    seen = set() if seen is None else seen
    if cl in seen:
        return False
    seen.add(cl)
    if since_of(cl) > 1:
        return True
    for field in attrs.fields(attrs.resolve_types(cl)):
        if field_since(field) > 1:
            return True
        if any(_versioned(sub, seen) for sub in _field_type_classes(field.type)):
            return True
    return False


def _all_classes() -> list[type]:
    """Every message, command and part class, reachable from the message types."""
    todo: list[type] = [*CLIENT_TYPES.values(), *SERVER_TYPES.values(), *COMMAND_TYPES.values()]
    seen: list[type] = []
    while todo:
        cl = todo.pop()
        if cl not in seen:
            seen.append(cl)
            for field in attrs.fields(attrs.resolve_types(cl)):
                todo.extend(_field_type_classes(field.type))
    return seen


@attrs.frozen
class _Tables:
    """What the codec builds once, at import, from the generated functions (``_build``)."""

    converter: cattrs.Converter
    client: dict[str, _Entry]  # tag -> (class, fast structure, cattrs hook)
    server: dict[str, _Entry]
    client_fast: dict[str, Structure]  # the fast path's functions, per tag
    server_fast: dict[str, Structure]
    versioned: frozenset[type]  # classes holding something newer than version 1


def _build(built: Compiled) -> _Tables:
    """The converter and the decoding tables, from one build of ``protocol.compiled``.

    Run once, at import (below). A test builds a fresh set with a fresh ``Compiled`` and
    puts it in place of these to judge the builders: code run at import is out of a
    mutation tool's reach (docs/testing.md)."""
    conv = make_converter(forbid_extra_keys=True)
    _configure(conv, built.plain)
    structure = built.structure
    return _Tables(
        converter=conv,
        client={tag: (cl, structure[cl], conv.get_structure_hook(cl)) for tag, cl in CLIENT_TYPES.items()},
        server={tag: (cl, structure[cl], conv.get_structure_hook(cl)) for tag, cl in SERVER_TYPES.items()},
        # The fast path skips handshakes: they need the version check and come once a
        # connection.
        client_fast={tag: structure[cl] for tag, cl in CLIENT_TYPES.items() if tag not in _HANDSHAKES},
        server_fast={tag: structure[cl] for tag, cl in SERVER_TYPES.items()},
        versioned=frozenset(cl for cl in _all_classes() if _versioned(cl)),
    )


_TABLES = _build(BUILT)
converter = _TABLES.converter
"""The reference cattrs converter for messages, their parts and director commands."""
_CLIENT = _TABLES.client
_SERVER = _TABLES.server
_CLIENT_FAST = _TABLES.client_fast
_SERVER_FAST = _TABLES.server_fast
_VERSIONED = _TABLES.versioned
"""Classes holding something newer than version 1 (only these need the version walk)."""


def newer_field(msg: AnyMessage | Command, version: int, path: str | None = None) -> str | None:
    """The path of the first field or class in ``msg`` newer than ``version``, else None.

    A field counts when it holds something other than its default: the decoder fills a
    missing field with its default, so a non-default value was on the line.
    """
    cl = type(msg)
    if cl not in _VERSIONED:
        return None
    path = tag_of(cl) if path is None else path
    if since_of(cl) > version:
        return path
    for field in attrs.fields(cl):
        value = getattr(msg, field.name)
        if field_since(field) > version and value != field.default:
            return f"{path}.{field.name}"
        items = value if isinstance(value, tuple) else (value,)
        for index, item in enumerate(items):
            if attrs.has(type(item)):
                where = f"{path}.{field.name}" + (f"[{index}]" if isinstance(value, tuple) else "")
                found = newer_field(item, version, where)
                if found is not None:
                    return found
    return None


def _refuse_newer(msg: Any, version: int | None, request_id: int | None) -> Any:
    """``msg`` if it exists in ``version`` (a handshake is checked against its own version),
    else the ProtocolError that says which version introduced what it uses."""
    if msg.__class__ in _HANDSHAKE_CLASSES:
        handshake: Any = msg
        version = handshake.version
    if version is None or version >= LATEST_VERSION or type(msg) not in _VERSIONED:
        return msg
    found = newer_field(msg, version)
    if found is None:
        return msg
    if "." not in found:
        raise ProtocolError(
            E.UNKNOWN_TYPE,
            f"{found!r} is a version {since_of(msg)} message; this connection speaks "
            f"version {version}",
            "type",
            id=request_id,
        )
    raise ProtocolError(
        E.UNKNOWN_FIELD,
        f"field {found.rsplit('.', 1)[1]!r} is new in a later version; this connection "
        f"speaks version {version}",
        found,
        id=request_id,
    )


def decode_client(line: bytes, version: int | None = None) -> ClientMessage:
    """One line from a client (without its newline) -> a client message.

    ``version`` is the connection's negotiated protocol version (None before the
    handshake): a message type or a field newer than it is refused as unknown, as a
    server speaking only that version would.
    """
    msg: ClientMessage
    loads = _loads_fast
    fast = False
    if loads is not None:
        try:
            obj = loads(line)
            count = [0]
            msg = _CLIENT_FAST[obj["type"]](obj, count)  # never a handshake: not in the table
            fast = line.count(b":") == count[0]
        except Exception:
            pass
        if fast and (version is None or version >= LATEST_VERSION or msg.__class__ not in _VERSIONED):
            return msg  # the common case, decided without the version walk
    if not fast:
        msg = _structure(parse_json(line), _CLIENT, SERVER_TYPES, "a client")
    cl = msg.__class__
    if cl not in _HANDSHAKE_CLASSES and (
        version is None or version >= LATEST_VERSION or cl not in _VERSIONED
    ):
        return msg
    refused: ClientMessage = _refuse_newer(msg, version, getattr(msg, "id", None))
    return refused


def decode_server(line: bytes, version: int | None = None) -> ServerMessage:
    """One line from the server (without its newline) -> a server message.

    ``version``, if given, is the negotiated version: a message or field newer than it is
    refused, as it would be by a client that speaks only that version.
    """
    msg: ServerMessage
    loads = _loads_fast
    fast = False
    if loads is not None:
        try:
            obj = loads(line)
            count = [0]
            msg = _SERVER_FAST[obj["type"]](obj, count)
            fast = line.count(b":") == count[0]
        except Exception:
            pass
    if not fast:
        msg = _structure(parse_json(line), _SERVER, CLIENT_TYPES, "the server")
    if version is None or version >= LATEST_VERSION or msg.__class__ not in _VERSIONED:
        return msg
    refused: ServerMessage = _refuse_newer(msg, version, getattr(msg, "id", None))
    return refused


def structure_client(obj: Any, version: int | None = None) -> ClientMessage:
    """An already parsed JSON value -> a client message (same rules as decode_client)."""
    msg = _structure(obj, _CLIENT, SERVER_TYPES, "a client")
    return cast(ClientMessage, _refuse_newer(msg, version, getattr(msg, "id", None)))


def structure_server(obj: Any) -> ServerMessage:
    """An already parsed JSON value -> a server message (same rules as decode_server)."""
    return cast(ServerMessage, _structure(obj, _SERVER, CLIENT_TYPES, "the server"))


# =====================================================================================
# Encoding
# =====================================================================================

_dumps = jsontext.dumps


def unstructure(msg: AnyMessage | Command) -> dict[str, Any]:
    """A message as plain JSON data (dicts, lists, str, int, bool, None), "type" first."""
    try:
        fn = UNSTRUCTURE[msg.__class__]
    except KeyError:
        raise TypeError(f"{msg!r} is not a protocol message") from None
    return fn(msg)


def sendable(msg: AnyMessage | type, version: int) -> bool:
    """Whether a message (or message class) exists in protocol ``version`` at all.

    A message new in a later version is not sent on an older connection; fields new in a
    later version are simply left out by ``encode``.
    """
    return getattr(msg, "SINCE", 1) <= version  # (since_of's, without its two calls: per line)


def encode(msg: AnyMessage, version: int = SUPPORTED_VERSIONS[0]) -> bytes:
    """A message as one line of compact JSON, without the newline, in protocol ``version``.

    Fields newer than ``version`` are left out. The default is the oldest version, the
    shape every client reads: a connection that negotiated a later version must say so.
    A message newer than ``version`` raises ProtocolError (ask ``sendable`` first).
    """
    try:
        fn = UNSTRUCTURE_WIRE_BY_VERSION[version][msg.__class__]
    except KeyError:
        if msg.__class__ not in UNSTRUCTURE_WIRE:
            raise TypeError(f"{msg!r} is not a protocol message") from None
        if version not in UNSTRUCTURE_WIRE_BY_VERSION:
            raise ProtocolError(E.INTERNAL, f"protocol version {version} is not supported") from None
        raise ProtocolError(
            E.INTERNAL,
            f"{tag_of(msg)!r} is a version {since_of(msg)} message; it cannot be sent on a "
            f"version {version} connection",
        ) from None
    try:
        return _dumps(fn(msg))
    except Exception as exc:
        raise ProtocolError(E.INTERNAL, f"cannot encode {type(msg).__name__}: {exc}") from None


def stamp(body: bytes, seq: int) -> bytes:
    """Give an encoded server message (encoded with ``seq=None``) its sequence number.

    The server encodes a broadcast once and stamps it per connection: this splices
    ``,"seq":N`` in before the final ``}`` at the cost of one copy of the line.
    """
    return b'%b,"seq":%d}' % (body[:-1], seq)


def stamp_line(body: bytes, seq: int) -> bytes:
    """``stamp`` with the line's newline, in the same copy (the server's per-line path)."""
    return b'%b,"seq":%d}\n' % (body[:-1], seq)


def validate(msg: AnyMessage) -> None:
    """Check a message built in Python against the decoder's rules (ProtocolError if not)."""
    data = unstructure(msg)
    if msg.__class__ in _SERVER_CLASSES:
        structure_server(data)
    else:
        structure_client(data)


def error_reply(exc: ProtocolError, id: int | None = None) -> Error:
    """The ``error`` message reporting a ProtocolError (id: the request's, if known)."""
    message = exc.message if len(exc.message) <= 2000 else exc.message[:1997] + "..."
    path = exc.path if exc.path is None or len(exc.path) <= 2000 else exc.path[:2000]
    return Error(
        id=exc.id if id is None else id,
        code=exc.code,
        message=message,
        path=path,
        fatal=exc.fatal,
    )
