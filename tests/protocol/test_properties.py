"""Junk and mutated lines: nothing but ProtocolError ever escapes, and the fast path agrees
with the cattrs reference on every line."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from protocol import codec, jsontext
from protocol import messages as m
from protocol.codec import decode_client, decode_server, unstructure
from protocol.errors import ProtocolError
from protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES
from tests.budget import examples

encode = functools.partial(codec.encode, version=m.LATEST_VERSION)
"""These tests speak the latest version, where every field is written."""

SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["As", "Kd", "fold", "bet", "raise", "table", "lobby", "player", "", "1"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
client_dicts = st.sampled_from(CLIENT_EXAMPLES).map(unstructure)
server_dicts = st.sampled_from(SERVER_EXAMPLES).map(unstructure)


def reference(line: bytes, union: Any) -> Any:
    """The slow reference: strict stdlib parse, then the cattrs converter alone."""
    obj = jsontext.parse_json(line)
    types = m.CLIENT_TYPES if union is m.ClientMessage else m.SERVER_TYPES
    if type(obj) is not dict or obj.get("type") not in types:
        raise ValueError("not a message")
    if obj["type"] in ("join", "resume", "spectate", "director"):
        if obj.get("version") not in m.SUPPORTED_VERSIONS and type(obj.get("version")) is int:
            raise ValueError("version")
    return codec.converter.structure(obj, union)


def outcome(fn: Any, line: bytes) -> tuple[str, Any]:
    try:
        return "ok", fn(line)
    except ProtocolError as exc:
        return "error", exc.code
    except Exception as exc:
        return "crash", repr(exc)


def check_line(line: bytes) -> None:
    """Both decoders: a message or a ProtocolError, never anything else; and agreement."""
    for decode, union in ((decode_client, m.ClientMessage), (decode_server, m.ServerMessage)):
        kind, value = outcome(decode, line)
        assert kind != "crash", value
        try:
            expected = reference(line, union)
        except Exception:
            expected = None
        if kind == "ok":
            assert value == expected, line
            # whatever is accepted re-encodes to a line that decodes to the same message
            assert decode(encode(value)) == value
        else:
            assert expected is None, (line, value)


@SETTINGS
@given(st.binary(max_size=200))
@example(b"\xef\xbb\xbf{}")
@example(b"{}" + b"\x00")
def test_random_bytes_give_only_protocol_errors(line: bytes) -> None:
    check_line(line)


@SETTINGS
@given(st.sampled_from([*m.CLIENT_TYPES, *m.SERVER_TYPES, "", "Act"]), json_values)
def test_random_json_objects_with_a_real_type_give_only_protocol_errors(tag: str, body: Any) -> None:
    obj = dict(body) if isinstance(body, dict) else {"value": body}
    obj["type"] = tag
    check_line(json.dumps(obj).encode())


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            found += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += paths(v, (*prefix, i))
    return found


@st.composite
def mutated(draw: st.DrawFn, source: st.SearchStrategy[dict[str, Any]]) -> bytes:
    obj = draw(source)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        where = draw(st.sampled_from(paths(obj)))
        how = draw(st.sampled_from(["replace", "delete", "add", "wrap"]))
        if not where:
            continue
        parent = obj
        for step in where[:-1]:
            parent = parent[step]
        last = where[-1]
        if how == "replace":
            parent[last] = draw(json_values)
        elif how == "delete":
            del parent[last]
        elif how == "wrap":
            parent[last] = [parent[last]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(json_values)
        else:
            parent.insert(last, draw(json_values))
    text = json.dumps(obj, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        text = text.replace(", ", ",").replace(": ", ":")
    return text.encode()


@SETTINGS
@given(mutated(client_dicts))
def test_mutated_client_messages_give_a_message_or_a_protocol_error(line: bytes) -> None:
    check_line(line)


@SETTINGS
@given(mutated(server_dicts))
def test_mutated_server_messages_give_a_message_or_a_protocol_error(line: bytes) -> None:
    check_line(line)


@SETTINGS
@given(
    st.sampled_from([*CLIENT_EXAMPLES, *SERVER_EXAMPLES]).map(encode),
    st.lists(st.tuples(st.integers(min_value=0, max_value=2000), st.binary(max_size=3)), max_size=4),
)
def test_byte_level_mutations_give_only_protocol_errors(
    line: bytes, edits: list[tuple[int, bytes]]
) -> None:
    for at, new in edits:
        at %= len(line) + 1
        line = line[:at] + new + line[at + 1 :]
    check_line(line)


@SETTINGS
@given(st.sampled_from([*CLIENT_EXAMPLES, *SERVER_EXAMPLES]), st.data())
def test_duplicating_any_key_is_always_caught(msg: Any, data: st.DataObject) -> None:
    line = encode(msg)
    keys = [i for i in range(len(line)) if line[i : i + 2] == b'":']
    at = data.draw(st.sampled_from(keys))
    start = line.rindex(b'"', 0, at) + 1
    key = line[start - 1 : at + 2]  # "name":
    dup = line[: start - 1] + key + b"0," + line[start - 1 :]
    for decode in (decode_client, decode_server):
        with pytest.raises(ProtocolError):
            decode(dup)


def test_a_colon_inside_a_string_takes_the_strict_path_and_still_decodes() -> None:
    msg = m.Chat(scope="table", text="gg: well played")
    assert decode_client(encode(msg)) == msg
    dup = b'{"type":"chat","text":"a:b","text":"c","scope":"table"}'
    with pytest.raises(ProtocolError):
        decode_client(dup)
