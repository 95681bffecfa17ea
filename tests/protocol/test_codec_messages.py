"""What the codec says when it refuses something, word for word, on both sides."""

from __future__ import annotations

import json

import attrs
import pytest

from protocol import codec, errors
from protocol import messages as m
from protocol.codec import FieldError, error_reply, structure_client, structure_server
from protocol.errors import ProtocolError
from protocol.examples import example


def refused(fn: object, arg: object) -> ProtocolError:
    with pytest.raises(ProtocolError) as err:
        fn(arg)  # type: ignore[operator]
    return err.value


def server_line(msg: object, **changes: object) -> bytes:
    data = codec.unstructure(msg)  # type: ignore[arg-type]
    data.update(changes)
    return json.dumps(data).encode()


def test_a_plain_bool_or_str_field_names_the_type_it_wanted() -> None:
    err = refused(codec.decode_server, server_line(example(m.Error), fatal=1))
    assert (err.path, err.message) == ("error.fatal", "invalid value for type, expected bool, got an integer")
    err = refused(codec.decode_server, server_line(example(m.Hello), protocol=None))
    assert (err.path, err.message) == ("hello.protocol", "invalid value for type, expected str, got null")
    err = refused(codec.decode_server, server_line(example(m.Hello), protocol=5))
    assert (err.path, err.message) == ("hello.protocol", "invalid value for type, expected str, got an integer")
    err = refused(codec.decode_server, server_line(example(m.Standings), final="false"))
    assert (err.path, err.message) == ("standings.final", "invalid value for type, expected bool, got a string")


def test_the_largest_integer_is_taken_by_the_converter_too() -> None:
    line = {"type": "act", "hand_no": m.MAX_INT, "action": "bet", "amount": m.MAX_INT}
    assert codec.converter.structure(line, m.ClientMessage) == m.Act(
        hand_no=m.MAX_INT, action="bet", amount=m.MAX_INT
    )
    # on the strict path (a colon in a string), the largest integer is not a second fault
    bad = {"type": "chat", "scope": "table", "text": "a:b", "id": m.MAX_INT, "extra": 1}
    err = refused(codec.decode_client, json.dumps(bad).encode())
    assert (err.path, err.message) == ("chat.extra", "unknown field 'extra'")


def test_a_message_of_the_other_side_is_named_as_such() -> None:
    err = refused(structure_server, {"type": "act", "hand_no": 1, "action": "fold"})
    assert (err.code, err.path) == (errors.UNKNOWN_TYPE, "type")
    assert err.message == "'act' is a message the server receives, not one it sends"
    err = refused(structure_client, {"type": "welcome"})
    assert err.message == "'welcome' is a message a client receives, not one it sends"
    assert structure_server(codec.unstructure(example(m.Ack))) == example(m.Ack)
    err = refused(codec.decode_server, b'{"type":"act","hand_no":1,"action":"fold"}')
    assert err.message == "'act' is a message the server receives, not one it sends"
    err = refused(codec.decode_client, b'{"type":"welcome"}')
    assert err.message == "'welcome' is a message a client receives, not one it sends"


def test_error_reply_keeps_what_fits_and_cuts_what_does_not() -> None:
    fits = error_reply(ProtocolError(errors.INTERNAL, "x" * 2000, "p" * 2000))
    assert (fits.message, fits.path) == ("x" * 2000, "p" * 2000)
    cut = error_reply(ProtocolError(errors.INTERNAL, "x" * 2001, "p" * 2001))
    assert (cut.message, cut.path) == ("x" * 1997 + "...", "p" * 2000)
    assert error_reply(ProtocolError(errors.INTERNAL, "m", id=5)).id == 5
    assert error_reply(ProtocolError(errors.INTERNAL, "m", id=5), id=7).id == 7


def test_what_is_not_a_message_is_named_in_the_type_error() -> None:
    with pytest.raises(TypeError, match="^<class 'protocol.parts.Level'> is not a protocol message$"):
        codec.tag_of(m.Level)
    with pytest.raises(TypeError, match="^'x' is not a protocol message$"):
        codec.unstructure("x")  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="int"):
        from protocol.examples import example as find

        find(int)


def test_a_field_error_says_its_message() -> None:
    err = FieldError("too long", sub="op")
    assert (str(err), err.message, err.code, err.sub) == ("too long", "too long", errors.INVALID_FIELD, "op")


@pytest.mark.parametrize(("line", "code", "message"), [
    (b'{"id":5}', errors.MISSING_TYPE, 'message has no "type"'),
    (b'{"type":7,"id":5}', errors.UNKNOWN_TYPE, '"type" must be a string, got an integer'),
    (b'{"type":"fly","id":5}', errors.UNKNOWN_TYPE, "unknown message type 'fly'"),
    (b'{"type":"join","version":9,"name":"Al","id":5}', errors.UNSUPPORTED_VERSION,
     "protocol version 9 is not supported; supported versions: 1, 2, 3"),
    (b'{"type":"act","hand_no":1,"action":"bet","id":5}', errors.MISSING_FIELD, "amount is required for bet"),
])
def test_a_refusal_says_what_was_wrong_and_keeps_the_request_id(line: bytes, code: str, message: str) -> None:
    err = refused(codec.decode_client, line)
    assert (err.code, err.message, err.id) == (code, message, 5)


@pytest.mark.parametrize("request_id", [0, m.MAX_INT])
def test_the_smallest_and_largest_request_ids_are_echoed(request_id: int) -> None:
    line = json.dumps({"type": "fly", "id": request_id}).encode()
    assert refused(codec.decode_client, line).id == request_id
    assert refused(codec.decode_client, line.replace(b'"fly"', b'"act"')).id == request_id


def test_what_is_not_an_object_is_named() -> None:
    assert refused(codec.decode_client, b"[1]").message == "expected a JSON object, got an array"


def test_unknown_fields_are_listed_five_at_most_and_a_long_name_is_cut_in_the_path() -> None:
    many = {"type": "ping", **{k: 1 for k in "abcdef"}}
    err = refused(codec.decode_client, json.dumps(many).encode())
    assert (err.path, err.message) == ("ping.a", "unknown fields 'a', 'b', 'c', 'd', 'e'")
    err = refused(codec.decode_client, json.dumps({"type": "ping", "k" * 40: 1}).encode())
    assert (err.path, err.message) == ("ping." + "k" * 40, "unknown field " + repr("k" * 37)[:37] + "...")
    err = refused(codec.decode_client, json.dumps({"type": "ping", "k" * 41: 1}).encode())
    assert err.path == "ping." + "k" * 37 + "..."


def test_a_second_fault_is_counted() -> None:
    err = refused(codec.decode_client, b'{"type":"act","hand_no":"1","action":"zap"}')
    assert (err.path, err.message) == (
        "act.hand_no", "invalid value for type, expected int, got a string (and 1 more)"
    )


def test_a_version_1_reader_is_told_which_version_brought_what_it_refuses() -> None:
    err = refused(lambda line: codec.decode_server(line, version=1), codec.encode(example(m.Turn), version=2))
    assert (err.code, err.path, err.message) == (
        errors.UNKNOWN_TYPE, "type", "'turn' is a version 2 message; this connection speaks version 1"
    )
    line = codec.encode(example(m.YourTurn), version=2)
    err = refused(lambda line: codec.decode_server(line, version=1), line)
    assert (err.code, err.path, err.message) == (
        errors.UNKNOWN_FIELD, "your_turn.legal.stack",
        "field 'stack' is new in a later version; this connection speaks version 1",
    )


def test_structure_client_takes_a_version_2_message_when_no_version_is_given() -> None:
    seed = example(m.ClientSeed)
    assert structure_client(codec.unstructure(seed)) == seed
    assert structure_client(codec.unstructure(seed), version=2) == seed
    err = refused(lambda obj: structure_client(obj, version=1), codec.unstructure(seed))
    assert (err.code, err.path) == (errors.UNKNOWN_TYPE, "type")
    join = m.Join(version=1, name="Al", id=3)
    assert structure_client(codec.unstructure(join), version=2) == join  # its own version counts


def test_a_version_refusal_keeps_the_request_id() -> None:
    seed = attrs.evolve(example(m.ClientSeed), id=5)
    err = refused(lambda line: codec.decode_client(line, version=1), codec.encode(seed, version=2))
    assert (err.code, err.id) == (errors.UNKNOWN_TYPE, 5)
    err = refused(lambda obj: structure_client(obj, version=1), codec.unstructure(seed))
    assert (err.code, err.id) == (errors.UNKNOWN_TYPE, 5)
    lobby = example(m.Lobby)
    err = refused(lambda line: codec.decode_server(line, version=1), codec.encode(lobby, version=2))
    assert (err.code, err.path, err.id) == (errors.UNKNOWN_FIELD, "lobby.tables[0].hand_no", lobby.id)


def test_a_timestamp_takes_ascii_digits_only_like_the_schema() -> None:
    """Python's ``\\d`` also matches other scripts' digits; the schema's pattern (and every
    other reader of the protocol) does not, so the decoder refuses them too."""
    from protocol.fields import Text, Timestamp

    (text,) = [m for m in Timestamp.__metadata__ if isinstance(m, Text)]
    assert text.problem("2026-12-01T20:00:00Z") is None
    assert text.problem("\u0662\u0660\u0662\u0666-12-01T20:00:00Z") is not None  # Arabic-Indic digits


def test_the_encoder_refuses_in_words_what_it_cannot_send() -> None:
    act = example(m.Act)
    with pytest.raises(TypeError) as type_info:
        codec.encode("x")  # type: ignore[arg-type]
    assert str(type_info.value) == "'x' is not a protocol message"
    with pytest.raises(ProtocolError) as info:
        codec.encode(act, 9)
    assert (info.value.code, info.value.message) == (errors.INTERNAL, "protocol version 9 is not supported")
    v2 = next(cl for cl in codec.SERVER_TYPES.values() if codec.since_of(cl) == 2)
    with pytest.raises(ProtocolError) as info:
        codec.encode(example(v2), 1)
    assert (info.value.code, info.value.message) == (
        errors.INTERNAL,
        f"{codec.tag_of(v2)!r} is a version 2 message; it cannot be sent on a version 1 connection")


def test_the_json_reader_refuses_in_words() -> None:
    from protocol.jsontext import parse_json

    def bad(line: bytes) -> ProtocolError:
        with pytest.raises(ProtocolError) as info:
            parse_json(line)
        return info.value

    err = bad(b"\xef\xbb\xbf{}")
    assert (err.code, err.message) == (errors.BAD_JSON,
                                       "line starts with a byte order mark (EF BB BF); send UTF-8 without it")
    assert parse_json("{\"t\":\"\u00e9\"}".encode()) == {"t": "\u00e9"}


def test_a_message_holding_what_json_cannot_write_is_refused_naming_its_class() -> None:
    broken = attrs.evolve(example(m.Act), amount=object())  # no validator runs on evolve's value
    with pytest.raises(ProtocolError) as info:
        codec.encode(broken, 2)
    assert info.value.code == errors.INTERNAL and info.value.message.startswith("cannot encode Act: ")
