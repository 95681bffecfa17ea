"""The JSON Schema: valid, current, and in agreement with the decoder."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings

from protocol import codec
from protocol import messages as m
from protocol.codec import decode_client, decode_server, unstructure
from protocol.errors import ProtocolError
from protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES
from protocol.schema import build_schema, class_doc, field_docs, schema_text
from tests.budget import examples
from tests.protocol.test_properties import client_dicts, mutated, server_dicts

encode = functools.partial(codec.encode, version=m.LATEST_VERSION)
"""These tests speak the latest version, where every field is written."""

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"
SCHEMA = build_schema()


def validator(definition: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{definition}"})


CLIENT = validator("ClientMessage")
SERVER = validator("ServerMessage")


def test_the_schema_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_committed_schema_is_current() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "docs/protocol.schema.json is stale: python -m protocol.schema > docs/protocol.schema.json"
    )


@pytest.mark.parametrize("msg", CLIENT_EXAMPLES, ids=lambda x: type(x).__name__)
def test_client_examples_validate(msg: Any) -> None:
    CLIENT.validate(json.loads(encode(msg)))
    jsonschema.validate(json.loads(encode(msg)), SCHEMA)


@pytest.mark.parametrize("msg", SERVER_EXAMPLES, ids=lambda x: type(x).__name__)
def test_server_examples_validate(msg: Any) -> None:
    SERVER.validate(json.loads(encode(msg)))
    jsonschema.validate(json.loads(encode(msg)), SCHEMA)


def test_null_passes_an_optional_text_field() -> None:
    assert CLIENT.is_valid({"type": "ping", "id": 26, "nonce": None})
    assert CLIENT.is_valid({"type": "goodbye", "reason": None})


def test_a_server_line_must_carry_seq() -> None:
    data = unstructure(SERVER_EXAMPLES[0])
    del data["seq"]
    assert not SERVER.is_valid(data)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "act", "hand_no": 1, "action": "bet"},
        {"type": "act", "hand_no": 1, "action": "raise", "amount": None},
        {"type": "act", "hand_no": 1, "action": "fold", "amount": 3},
        {"type": "history_request", "hand_no": 1, "last": 2},
        {
            "type": "director_command",
            "command": {"op": "set_options", "reason": "x", "level_minutes": 5, "hands_per_level": 9},
        },
        {"type": "join", "version": 1, "name": "a\nb"},
        {"type": "ping", "nonce": "\u0000"},
        {"type": "join", "version": 0, "name": "Al"},
        {"type": "join", "version": 1, "name": "ab\n"},
        {"type": "resume", "version": 1, "token": "abcdefgh\n"},
        {"type": "act", "hand_no": True, "action": "fold"},
        {"type": "act", "hand_no": -1, "action": "fold"},
        {"type": "act", "hand_no": 1, "action": "fold", "extra": 1},
    ],
)
def test_schema_and_decoder_refuse_the_same_rule_breakers(data: dict[str, Any]) -> None:
    assert not CLIENT.is_valid(data)
    with pytest.raises(ProtocolError):
        decode_client(json.dumps(data).encode())


def has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(has_float(v) for v in value)
    return False


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(client_dicts))
def test_schema_and_decoder_agree_on_client_messages(line: bytes) -> None:
    data = json.loads(line)
    try:
        decode_client(line)
        accepted = True
    except ProtocolError:
        accepted = False
    if accepted:
        assert CLIENT.is_valid(data), line
    elif not has_float(data) and CLIENT.is_valid(data):
        # JSON Schema cannot tell 5 from 5.0; anything else the schema allows, we decode
        pytest.fail(f"schema accepts what the decoder refuses: {line!r}")


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(server_dicts))
def test_what_the_schema_allows_from_the_server_decodes(line: bytes) -> None:
    data = json.loads(line)
    if SERVER.is_valid(data) and not has_float(data):
        decode_server(line)


def test_every_message_and_field_is_described() -> None:
    for name, definition in SCHEMA["$defs"].items():
        assert definition.get("description"), name
        for prop, sub in definition.get("properties", {}).items():
            assert sub.get("description"), f"{name}.{prop} has no description"


def test_docstring_parsing() -> None:
    assert class_doc(m.Act).startswith("Act on your turn.")
    docs = field_docs(m.Act)
    assert docs["amount"].startswith("for bet and raise only")
    assert docs["amount"].endswith("legal.max_raise_to")  # continuation lines are joined
    assert docs["id"] == m.FIELD_DOCS["id"]


def test_docstring_parsing_of_odd_docstrings() -> None:
    import attrs

    @attrs.frozen
    class Probe:
        """What it is.

        Attributes:
            a list of what follows, not an entry
            x: the x,
             see: the y
            y: the y
        """

        x: int = 0
        y: int = 0

    @attrs.frozen
    class Bare:
        x: int = 0

    assert class_doc(Probe) == "What it is."
    assert field_docs(Probe) == {"x": "the x, see: the y", "y": "the y"}
    assert class_doc(Bare) == ""
    assert field_docs(Bare) == {}


def test_the_schema_keeps_text_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(m.FIELD_DOCS, "id", "l'identifiant — écrit tel quel")
    assert "l'identifiant — écrit tel quel" in schema_text()


def test_a_type_without_a_schema_is_named() -> None:
    from protocol.schema import type_schema

    with pytest.raises(TypeError, match="^no schema for <class 'float'>$"):
        type_schema(float)


def test_the_command_line_prints_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from protocol.schema import main

    main()
    assert capsys.readouterr().out == schema_text()
