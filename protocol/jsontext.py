"""JSON text in and out: the strict parser, and the fast paths when orjson is installed.

``parse_json`` is the reference: the standard library's parser with hooks that refuse
what RFC 8259 JSON is not, or what a protocol must not take on trust: NaN and Infinity,
numbers out of float range (``1e400``), integer literals over 30 digits, duplicate keys,
nesting deeper than 32, lone surrogates, a byte order mark, invalid UTF-8, an empty line.

orjson is optional (a test extra; the runtime works with the standard library alone).
When it is importable, ``dumps`` uses it (the same bytes as the standard library's
compact output) and ``loads_fast`` is ``orjson.loads``, which refuses NaN, Infinity,
``1e400``, lone surrogates, a BOM and bad UTF-8 by itself, but keeps the last of duplicate
keys and reads huge integers as floats. The codec therefore trusts a value from
``loads_fast`` only if its structure checks pass (no floats anywhere in a message) and the
line has no more colons than the parsed value has keys (see ``protocol.codec``); otherwise
it falls back to ``parse_json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from protocol import errors as E
from protocol.errors import ProtocolError

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted in a line."""
MAX_INT_DIGITS = 30
"""Longest integer literal accepted in a line (the integer range check comes later)."""

_BOM = b"\xef\xbb\xbf"
_LONG_DIGITS = re.compile(r"\d{" + str(MAX_INT_DIGITS + 1) + "}")
# A string, or an unterminated string's tail: the closing quote is optional so that a
# match never fails. (Requiring it made an unterminated string of escaped quotes cost
# O(n^2): every quote in it started a new scan to the end of the line.)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def short(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for echoing client input in errors."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def json_kind(value: object) -> str:
    """What a parsed JSON value is, in JSON's words, for error messages."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction or exponent"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ProtocolError(E.BAD_JSON, f"duplicate key {short(key)} in an object")
            seen.add(key)
    return obj


def _constant(name: str) -> Any:
    raise ProtocolError(E.BAD_JSON, f"{name} is not a JSON number")


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ProtocolError(E.BAD_JSON, f"number {short(text)} is out of range")
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ProtocolError(
            E.BAD_JSON, f"integer with more than {MAX_INT_DIGITS} digits: {short(text)}"
        )
    return int(text)


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)
_CAREFUL_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float, parse_int=_int
)


def _too_deep(text: str) -> bool:
    """Is any array/object nested deeper than MAX_DEPTH? Decided before json recurses."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(MAX_DEPTH):
        if not brackets:
            return False
        peeled = brackets.replace("[]", "").replace("{}", "")
        if peeled == brackets:  # unbalanced: not JSON anyway; judge by what is left open
            return brackets.count("[") + brackets.count("{") > MAX_DEPTH
        brackets = peeled
    return bool(brackets)


def _check_surrogates(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise ProtocolError(
                    E.BAD_JSON, "lone surrogate escape in a string (strings must be valid Unicode)"
                )
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def parse_json(line: bytes) -> Any:
    """One line (without its newline) -> a JSON value; ProtocolError for anything else.

    A byte order mark is refused, not skipped: RFC 8259 says not to send one, and a
    client that does gets told so instead of working by accident with one server only.
    """
    if not line:
        raise ProtocolError(E.BAD_JSON, "empty line")
    if line.startswith(_BOM):
        raise ProtocolError(
            E.BAD_JSON, "line starts with a byte order mark (EF BB BF); send UTF-8 without it"
        )
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(E.BAD_UTF8, f"invalid UTF-8 at byte {exc.start}") from None
    if text.count("[") + text.count("{") > MAX_DEPTH and _too_deep(text):
        raise ProtocolError(E.BAD_JSON, f"nesting deeper than {MAX_DEPTH} levels")
    decoder = _CAREFUL_DECODER if _LONG_DIGITS.search(text) else _DECODER
    try:
        value = decoder.decode(text)
    except ProtocolError:
        raise
    except json.JSONDecodeError as exc:
        raise ProtocolError(E.BAD_JSON, f"invalid JSON: {exc.msg} at character {exc.pos}") from None
    except RecursionError:
        raise ProtocolError(E.BAD_JSON, f"nesting deeper than {MAX_DEPTH} levels") from None
    except (ValueError, OverflowError) as exc:
        raise ProtocolError(E.BAD_JSON, f"invalid JSON: {short(str(exc), 200)}") from None
    if _SURROGATE_ESCAPE.search(text):
        _check_surrogates(value)
    return value


_JSON_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False
)


def dumps_json(obj: Any) -> bytes:
    """Compact one-line JSON by the standard library (the fallback of ``dumps``)."""
    return _JSON_ENCODER.encode(obj).encode("utf-8")


dumps: Callable[[Any], bytes]
loads_fast: Callable[[bytes], Any] | None
try:
    import orjson
except ImportError:  # pragma: no cover - the tests hide orjson to run this path
    BACKEND = "json"
    dumps = dumps_json
    loads_fast = None
else:
    BACKEND = "orjson"
    dumps = orjson.dumps
    loads_fast = orjson.loads
