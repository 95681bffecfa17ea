"""The codec: every message round-trips; every bad input is a ProtocolError with its code."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any, get_args

import attrs
import pytest

from protocol import codec, errors, jsontext
from protocol import messages as m
from protocol.codec import (
    decode_client,
    decode_server,
    error_reply,
    stamp,
    structure_client,
    structure_server,
    unstructure,
    validate,
)
from protocol.errors import ProtocolError
from protocol.examples import (
    CLIENT_EXAMPLES,
    COMMAND_EXAMPLES,
    SERVER_EXAMPLES,
    example,
    full_table_snapshot,
)

encode = functools.partial(codec.encode, version=m.LATEST_VERSION)
"""These tests speak the latest version, where every field is written."""

ALL_EXAMPLES: list[Any] = [*CLIENT_EXAMPLES, *SERVER_EXAMPLES]


def ids(msgs: list[Any]) -> list[str]:
    return [f"{type(x).__name__}-{i}" for i, x in enumerate(msgs)]


@pytest.fixture(params=["orjson", "json"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run a test with orjson, and as if orjson were not installed."""
    if request.param == "json":
        monkeypatch.setattr(codec, "_loads_fast", None)
        monkeypatch.setattr(codec, "_dumps", jsontext.dumps_json)
    yield request.param


# --- coverage of the examples ---------------------------------------------------------


def test_every_message_and_command_class_has_an_example() -> None:
    classes = {type(x) for x in ALL_EXAMPLES} | {type(c) for c in COMMAND_EXAMPLES}
    wanted = {*get_args(m.ClientMessage), *get_args(m.ServerMessage), *get_args(m.Command)}
    assert wanted <= classes
    assert {type(d.command) for d in CLIENT_EXAMPLES if isinstance(d, m.DirectorCommand)} == set(
        get_args(m.Command)
    )


def test_tags_are_unique_per_direction_and_snake_case() -> None:
    for union in (m.ClientMessage, m.ServerMessage, m.Command):
        tags = [cl.TYPE for cl in get_args(union)]
        assert len(tags) == len(set(tags))
        assert all(t.replace("_", "").isalpha() and t.islower() for t in tags)


def test_messages_are_frozen_keyword_only_and_slotted() -> None:
    msg = example(m.Act)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        msg.amount = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        m.Act(1, "fold")  # type: ignore[misc]
    assert not hasattr(msg, "__dict__")


def test_example_lookup() -> None:
    assert example(m.TableSnapshot).table == 1
    with pytest.raises(KeyError):
        example(int)


# --- round trips ---------------------------------------------------------------------


@pytest.mark.parametrize("msg", CLIENT_EXAMPLES, ids=ids(CLIENT_EXAMPLES))
def test_client_message_round_trip(msg: m.ClientMessage, backend: str) -> None:
    line = encode(msg)
    assert b"\n" not in line
    assert decode_client(line) == msg
    assert structure_client(unstructure(msg)) == msg
    assert json.loads(line) == unstructure(msg)
    assert list(unstructure(msg))[0] == "type"


@pytest.mark.parametrize("msg", SERVER_EXAMPLES, ids=ids(SERVER_EXAMPLES))
def test_server_message_round_trip(msg: m.ServerMessage, backend: str) -> None:
    line = encode(msg)
    assert b"\n" not in line
    assert decode_server(line) == msg
    assert structure_server(unstructure(msg)) == msg
    assert json.loads(line) == unstructure(msg)
    assert list(json.loads(line))[-1] == "seq"


@pytest.mark.parametrize("msg", ALL_EXAMPLES, ids=ids(ALL_EXAMPLES))
def test_both_json_backends_write_the_same_bytes(msg: Any) -> None:
    assert jsontext.dumps(codec.UNSTRUCTURE_WIRE[type(msg)](msg)) == jsontext.dumps_json(
        unstructure(msg)
    )


def test_the_converter_unstructures_like_the_codec() -> None:
    for msg in ALL_EXAMPLES:
        assert codec.converter.unstructure(msg) == unstructure(msg)
        union = m.ServerMessage if type(msg) in m.SERVER_TYPES.values() else m.ClientMessage
        assert codec.converter.structure(unstructure(msg), union) == msg


def test_text_in_names_and_chat_is_unicode_not_escaped() -> None:
    msg = m.Chat(scope="lobby", text="très bien ♠ 🂡")
    line = encode(msg)
    assert "très bien ♠ 🂡".encode() in line
    assert decode_client(line) == msg


def test_whitespace_and_escapes_from_other_json_writers_are_fine(backend: str) -> None:
    msg = example(m.Act)
    loose = json.dumps(unstructure(msg), indent=2, ensure_ascii=True).replace("\n", " ")
    assert decode_client(loose.encode()) == msg
    chat = m.Chat(scope="table", text='ça: "gg" \\o/')
    assert decode_client(json.dumps(unstructure(chat)).encode()) == chat


def test_optional_client_fields_may_be_left_out() -> None:
    assert decode_client(b'{"type":"act","hand_no":4,"action":"fold"}') == m.Act(
        hand_no=4, action="fold"
    )
    assert decode_client(b'{"type":"sit_out"}') == m.SitOut()


# --- seq -----------------------------------------------------------------------------


@pytest.mark.parametrize("msg", SERVER_EXAMPLES, ids=ids(SERVER_EXAMPLES))
def test_stamp_gives_an_encoded_broadcast_its_seq(msg: Any, backend: str) -> None:
    body = encode(attrs.evolve(msg, seq=None))
    assert b'"seq"' not in body
    line = stamp(body, 4711)
    assert decode_server(line) == attrs.evolve(msg, seq=4711)
    assert line == encode(attrs.evolve(msg, seq=4711))


def test_one_body_stamped_for_many_connections() -> None:
    body = encode(full_table_snapshot(your_seat=None))
    seqs = [decode_server(stamp(body, n)).seq for n in (1, 2, 99)]
    assert seqs == [1, 2, 99]


# --- bad input: every one a ProtocolError with the right code ------------------------

BAD_LINES: list[tuple[str, bytes, str, str | None]] = [
    ("empty line", b"", errors.BAD_JSON, None),
    ("blank line", b"   ", errors.BAD_JSON, None),
    ("not json", b"hello", errors.BAD_JSON, None),
    ("truncated", b'{"type":"ping"', errors.BAD_JSON, None),
    ("NaN", b'{"type":"act","hand_no":NaN,"action":"fold"}', errors.BAD_JSON, None),
    ("Infinity", b'{"type":"act","hand_no":Infinity,"action":"fold"}', errors.BAD_JSON, None),
    ("-Infinity", b'{"type":"act","hand_no":-Infinity,"action":"fold"}', errors.BAD_JSON, None),
    ("1e400", b'{"type":"act","hand_no":1e400,"action":"fold"}', errors.BAD_JSON, None),
    ("duplicate key", b'{"type":"act","hand_no":1,"hand_no":2,"action":"fold"}', errors.BAD_JSON, None),
    ("duplicate nested key", b'{"type":"director_command","command":{"op":"pause","reason":"a","reason":"b"}}', errors.BAD_JSON, None),
    ("huge integer", b'{"type":"act","hand_no":' + b"9" * 5000 + b',"action":"fold"}', errors.BAD_JSON, None),
    ("31-digit integer", b'{"type":"act","hand_no":' + b"1" * 31 + b',"action":"fold"}', errors.BAD_JSON, None),
    ("deep nesting", b"[" * 100000 + b"]" * 100000, errors.BAD_JSON, None),
    ("deep unclosed nesting", b'{"a":' * 100000, errors.BAD_JSON, None),
    ("33 levels", b"[" * 33 + b"]" * 33, errors.BAD_JSON, None),
    ("lone surrogate", b'{"type":"chat","scope":"table","text":"\\ud800"}', errors.BAD_JSON, None),
    ("lone low surrogate in a key", b'{"type":"ping","\\udc00":1}', errors.BAD_JSON, None),
    ("invalid utf-8", b'{"type":"chat","scope":"table","text":"\xff"}', errors.BAD_UTF8, None),
    ("utf-8 encoded surrogate", b'{"type":"chat","scope":"table","text":"\xed\xa0\x80"}', errors.BAD_UTF8, None),
    ("overlong utf-8", b'{"type":"ping","nonce":"\xc0\xaf"}', errors.BAD_UTF8, None),
    ("BOM", b'\xef\xbb\xbf{"type":"ping"}', errors.BAD_JSON, None),
    ("NUL after object", b'{"type":"ping"}\x00', errors.BAD_JSON, None),
    ("raw NUL in string", b'{"type":"ping","nonce":"a\x00b"}', errors.BAD_JSON, None),
    ("array", b'[{"type":"ping"}]', errors.NOT_AN_OBJECT, None),
    ("string", b'"ping"', errors.NOT_AN_OBJECT, None),
    ("null", b"null", errors.NOT_AN_OBJECT, None),
    ("missing type", b'{"nonce":"x"}', errors.MISSING_TYPE, None),
    ("null type", b'{"type":null}', errors.MISSING_TYPE, None),
    ("numeric type", b'{"type":5}', errors.UNKNOWN_TYPE, "type"),
    ("unknown type", b'{"type":"fly"}', errors.UNKNOWN_TYPE, "type"),
    ("server type from a client", b'{"type":"welcome"}', errors.UNKNOWN_TYPE, "type"),
    ("true as an amount", b'{"type":"act","hand_no":1,"action":"bet","amount":true}', errors.INVALID_FIELD, "act.amount"),
    ('"5" as an amount', b'{"type":"act","hand_no":1,"action":"bet","amount":"5"}', errors.INVALID_FIELD, "act.amount"),
    ("5.0 as an amount", b'{"type":"act","hand_no":1,"action":"bet","amount":5.0}', errors.INVALID_FIELD, "act.amount"),
    ("5.5 as an amount", b'{"type":"act","hand_no":1,"action":"bet","amount":5.5}', errors.INVALID_FIELD, "act.amount"),
    ("negative amount", b'{"type":"act","hand_no":1,"action":"bet","amount":-5}', errors.INVALID_FIELD, "act.amount"),
    ("amount over 2^53", b'{"type":"act","hand_no":1,"action":"bet","amount":9007199254740992}', errors.INVALID_FIELD, "act.amount"),
    ("30-digit amount", b'{"type":"act","hand_no":1,"action":"bet","amount":' + b"1" * 30 + b"}", errors.INVALID_FIELD, "act.amount"),
    ("list as an amount", b'{"type":"act","hand_no":1,"action":"bet","amount":[5]}', errors.INVALID_FIELD, "act.amount"),
    ("unknown action", b'{"type":"act","hand_no":1,"action":"steal"}', errors.INVALID_FIELD, "act.action"),
    ("bet without amount", b'{"type":"act","hand_no":1,"action":"bet"}', errors.MISSING_FIELD, "act.amount"),
    ("fold with amount", b'{"type":"act","hand_no":1,"action":"fold","amount":5}', errors.INVALID_FIELD, "act.amount"),
    ("missing field", b'{"type":"act","action":"fold"}', errors.MISSING_FIELD, "act.hand_no"),
    ("extra field", b'{"type":"act","hand_no":1,"action":"fold","cheat":true}', errors.UNKNOWN_FIELD, "act.cheat"),
    ("extra fields", b'{"type":"sit_out","b":1,"a":2}', errors.UNKNOWN_FIELD, "sit_out.a"),
    ("seq from a client", b'{"type":"ping","seq":1}', errors.UNKNOWN_FIELD, "ping.seq"),
    ("null name", b'{"type":"join","version":1,"name":null}', errors.INVALID_FIELD, "join.name"),
    ("empty name", b'{"type":"join","version":1,"name":""}', errors.INVALID_FIELD, "join.name"),
    ("long name", b'{"type":"join","version":1,"name":"' + b"a" * 25 + b'"}', errors.INVALID_FIELD, "join.name"),
    ("NUL escape in name", b'{"type":"join","version":1,"name":"a\\u0000b"}', errors.INVALID_FIELD, "join.name"),
    ("newline in chat", b'{"type":"chat","scope":"table","text":"a\\nb"}', errors.INVALID_FIELD, "chat.text"),
    ("future version", b'{"type":"join","version":99,"name":"Al","shiny":1}', errors.UNSUPPORTED_VERSION, "join.version"),
    ("version 0", b'{"type":"resume","version":0,"token":"abcdefgh"}', errors.UNSUPPORTED_VERSION, "resume.version"),
    ("missing version", b'{"type":"spectate"}', errors.MISSING_FIELD, "spectate.version"),
    ("string version", b'{"type":"director","version":"1","secret":"x"}', errors.INVALID_FIELD, "director.version"),
    ("bad token", b'{"type":"resume","version":1,"token":"no spaces allowed"}', errors.INVALID_FIELD, "resume.token"),
    ("command not an object", b'{"type":"director_command","command":"pause"}', errors.INVALID_FIELD, "director_command.command"),
    ("command without op", b'{"type":"director_command","command":{"reason":"x"}}', errors.MISSING_FIELD, "director_command.command.op"),
    ("unknown op", b'{"type":"director_command","command":{"op":"deal_aces","reason":"x"}}', errors.INVALID_FIELD, "director_command.command.op"),
    ("command without reason", b'{"type":"director_command","command":{"op":"pause"}}', errors.MISSING_FIELD, "director_command.command.reason"),
    ("bad schedule level", b'{"type":"director_command","command":{"op":"set_schedule","reason":"x","levels":[{"small_blind":1,"big_blind":2},{"small_blind":1,"big_blind":"2"}]}}', errors.INVALID_FIELD, "director_command.command.levels[1].big_blind"),
    ("schedule not a list", b'{"type":"director_command","command":{"op":"set_schedule","reason":"x","levels":{"small_blind":1}}}', errors.INVALID_FIELD, "director_command.command.levels"),
    ("bad deadline", b'{"type":"director_command","command":{"op":"set_deadline","reason":"x","deadline":"tomorrow"}}', errors.INVALID_FIELD, "director_command.command.deadline"),
    ("minutes and hands", b'{"type":"director_command","command":{"op":"set_options","reason":"x","level_minutes":10,"hands_per_level":8}}', errors.INVALID_FIELD, "director_command.command.hands_per_level"),
    ("unknown ruleset", b'{"type":"director_command","command":{"op":"set_options","reason":"x","ruleset":"pot_limit"}}', errors.INVALID_FIELD, "director_command.command.ruleset"),
    ("hand_no and last", b'{"type":"history_request","hand_no":3,"last":2}', errors.INVALID_FIELD, "history_request.last"),
]


@pytest.mark.parametrize(("line", "code", "path"), [b[1:] for b in BAD_LINES], ids=[b[0] for b in BAD_LINES])
def test_bad_client_lines_give_the_right_error(line: bytes, code: str, path: str | None, backend: str) -> None:
    with pytest.raises(ProtocolError) as err:
        decode_client(line)
    assert err.value.code == code, str(err.value)
    assert err.value.path == path
    assert err.value.code in errors.ERROR_CODES
    encode(error_reply(err.value))  # every error can be reported


BAD_SERVER_LINES: list[tuple[str, bytes, str, str | None]] = [
    ("a card that is not a card", b'{"type":"hole_cards","table":1,"hand_no":1,"seat":1,"cards":["As","Xx"],"seq":3}', errors.INVALID_FIELD, "hole_cards.cards[1]"),
    ("lowercase rank", b'{"type":"hole_cards","table":1,"hand_no":1,"seat":1,"cards":["as"],"seq":3}', errors.INVALID_FIELD, "hole_cards.cards[0]"),
    ("cards as a string", b'{"type":"hole_cards","table":1,"hand_no":1,"seat":1,"cards":"AsKd","seq":3}', errors.INVALID_FIELD, "hole_cards.cards"),
    ("client type from the server", b'{"type":"act","hand_no":1,"action":"fold"}', errors.UNKNOWN_TYPE, "type"),
    ("bad nested legal", b'{"type":"your_turn","table":1,"hand_no":1,"seat":1,"legal":{"fold":1,"check":false,"call":null,"min_raise_to":null,"max_raise_to":null},"deadline_ms":1,"time_bank_ms":1,"seq":1}', errors.INVALID_FIELD, "your_turn.legal.fold"),
    ("seat in a list", b'{"type":"hand_ended","table":1,"hand_no":1,"stacks":[{"seat":1,"stack":1},{"seat":1}],"carried_out":0,"seq":1}', errors.MISSING_FIELD, "hand_ended.stacks[1].stack"),
    ("bool seq", b'{"type":"ack","id":null,"seq":true}', errors.INVALID_FIELD, "ack.seq"),
]


@pytest.mark.parametrize(("line", "code", "path"), [b[1:] for b in BAD_SERVER_LINES], ids=[b[0] for b in BAD_SERVER_LINES])
def test_bad_server_lines_give_the_right_error(line: bytes, code: str, path: str | None, backend: str) -> None:
    with pytest.raises(ProtocolError) as err:
        decode_server(line)
    assert err.value.code == code, str(err.value)
    assert err.value.path == path


def test_error_text_names_the_type_and_the_path() -> None:
    with pytest.raises(ProtocolError) as err:
        decode_client(b'{"type":"act","hand_no":1,"action":"bet","amount":true}')
    assert str(err.value) == "invalid value for type, expected int, got true @ act.amount"
    assert repr(err.value).startswith("ProtocolError('invalid_field'")


def test_several_faults_are_counted_in_the_message() -> None:
    with pytest.raises(ProtocolError) as err:
        decode_client(b'{"type":"act","hand_no":"1","action":"zap","amount":-1}')
    assert err.value.path == "act.hand_no"
    assert "(and 2 more)" in err.value.message


def test_the_request_id_is_kept_for_the_error_reply() -> None:
    with pytest.raises(ProtocolError) as err:
        decode_client(b'{"type":"act","id":42,"hand_no":1,"action":"bet"}')
    reply = error_reply(err.value)
    assert reply.id == 42 and reply.code == errors.MISSING_FIELD and reply.path == "act.amount"
    assert decode_server(stamp(encode(reply), 5)).id == 42


def test_a_silly_id_is_not_echoed() -> None:
    with pytest.raises(ProtocolError) as err:
        decode_client(b'{"type":"act","id":-3,"hand_no":1}')
    assert err.value.id is None


def test_an_unsupported_version_names_the_supported_ones() -> None:
    with pytest.raises(ProtocolError) as err:
        decode_client(b'{"type":"join","version":7,"name":"Al"}')
    assert "supported versions: 1" in err.value.message


def test_long_client_input_is_cut_short_in_error_messages() -> None:
    key = "k" * 10000
    line = json.dumps({"type": "ping", key: 1}).encode()
    with pytest.raises(ProtocolError) as err:
        decode_client(line)
    assert len(str(err.value)) < 200
    with pytest.raises(ProtocolError) as err:
        decode_client(json.dumps({"type": "x" * 10000}).encode())
    assert len(str(err.value)) < 200


def test_a_fatal_error_says_so() -> None:
    reply = error_reply(ProtocolError(errors.LINE_TOO_LONG, "too long"))
    assert reply.fatal and reply.path is None


def test_error_reply_cuts_an_overlong_message() -> None:
    reply = error_reply(ProtocolError(errors.INTERNAL, "x" * 5000, "p" * 5000))
    validate(reply)


def test_every_error_code_is_documented_and_stable() -> None:
    names = [n for n in dir(errors) if n.isupper() and isinstance(getattr(errors, n), str)]
    codes = {getattr(errors, n) for n in names}
    assert codes == set(errors.ERROR_CODES)
    assert all(c == c.lower() and " " not in c for c in codes)
    assert errors.FATAL_CODES <= codes


# --- building messages in Python -------------------------------------------------------


def test_act_checks_its_amount_when_built() -> None:
    with pytest.raises(m.RuleError):
        m.Act(hand_no=1, action="raise")
    with pytest.raises(m.RuleError):
        m.Act(hand_no=1, action="check", amount=0)


def test_validate_applies_the_decoder_rules_to_built_messages() -> None:
    validate(example(m.TableSnapshot))
    with pytest.raises(ProtocolError) as err:
        validate(m.Join(version=1, name=""))
    assert err.value.path == "join.name"
    with pytest.raises(ProtocolError):
        validate(m.HoleCards(table=1, hand_no=1, seat=0, cards=("Ah", "1x")))


def test_encode_refuses_what_is_not_a_message() -> None:
    with pytest.raises(TypeError):
        encode(m.Level(index=0, small_blind=1, big_blind=2))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        unstructure(object())  # type: ignore[arg-type]


def test_encode_failure_is_an_internal_protocol_error() -> None:
    with pytest.raises(ProtocolError) as err:
        encode(m.Chat(scope="table", text="\ud800"))
    assert err.value.code == errors.INTERNAL


def test_tag_of() -> None:
    assert codec.tag_of(m.ServerPing) == "ping"
    assert codec.tag_of(example(m.Act)) == "act"
    with pytest.raises(TypeError):
        codec.tag_of(m.Level)


# --- cost of hostile lines -------------------------------------------------------------

HOSTILE = {
    "unterminated string of escaped quotes": b"[" * 40 + b'"' + b'\\"' * 32000,
    "all quotes": b"[" * 40 + b'"' * 65000,
    "all backslashes": b"[" * 40 + b"\\" * 65000,
    "open strings in arrays": b'["' * 32000,
    "keys without end": b'{"\\' * 21000,
    "wide shallow arrays": b"[" + b"[]," * 21000 + b"[]]",
    "32 deep, many times": b"[" + b",".join([b"[" * 31 + b"]" * 31] * 1000) + b"]",
    "digits": b'{"type":"act","hand_no":' + b"1" * 30 + b"," * 2 + b"1" * 60000 + b"}",
    "many small errors": b'{"type":"history","hands":[' + b",".join([b'{"x":1}'] * 8000) + b"]}",
    "many keys": b"{" + b",".join(b'"k%d":1' % i for i in range(6000)) + b"}",
}


@pytest.mark.parametrize("line", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_lines_of_64_kib_are_refused_quickly(line: bytes) -> None:
    import time

    assert len(line) <= 65536
    for decode in (decode_client, decode_server):
        start = time.process_time()
        with pytest.raises(ProtocolError):
            decode(line)
        assert time.process_time() - start < 1.0


def test_the_codec_works_without_orjson() -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = """
import sys
sys.modules["orjson"] = None  # import orjson now raises ImportError
from protocol import codec, jsontext
from protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES
assert jsontext.BACKEND == "json" and jsontext.loads_fast is None
for msg in CLIENT_EXAMPLES:
    assert codec.decode_client(codec.encode(msg, version=3)) == msg
for msg in SERVER_EXAMPLES:
    assert codec.decode_server(codec.encode(msg, version=3)) == msg
try:
    codec.decode_client(b'{"type":"act","hand_no":1,"hand_no":2,"action":"fold"}')
except codec.ProtocolError as exc:
    assert exc.code == "bad_json"
else:
    raise AssertionError("duplicate key accepted")
print("ok")
"""
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert out.stdout.strip() == "ok", out.stderr
