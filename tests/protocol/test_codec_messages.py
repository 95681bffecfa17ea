"""What the codec says when it refuses something, word for word, on both sides."""

from __future__ import annotations

import json

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
