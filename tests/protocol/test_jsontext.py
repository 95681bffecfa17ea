"""The strict JSON parser's refusals, word for word, and the words errors use for values."""

from __future__ import annotations

import pickle

import pytest

from protocol import errors
from protocol import messages as m
from protocol.errors import ProtocolError
from protocol.jsontext import MAX_DEPTH, MAX_INT_DIGITS, json_kind, parse_json, short


@pytest.mark.parametrize(("value", "kind"), [
    (None, "null"),
    (True, "true"),
    (False, "false"),
    (0, "an integer"),
    (1.5, "a number with a fraction or exponent"),
    ("", "a string"),
    ([], "an array"),
    ({}, "an object"),
    (b"x", "bytes"),  # not JSON: named by its Python type
])
def test_json_kind_names_a_value_in_json_words(value: object, kind: str) -> None:
    assert json_kind(value) == kind


def test_short_cuts_a_long_repr_to_its_limit() -> None:
    assert short("x" * 38) == "'" + "x" * 38 + "'"  # 40 characters: kept
    assert short("x" * 39) == "'" + "x" * 36 + "..."  # 41: cut to 40
    assert len(short("x" * 39)) == 40
    assert short(12345, limit=4) == "1..."
    assert short(None) == "None"


def refusal(line: bytes) -> tuple[str, str]:
    with pytest.raises(ProtocolError) as err:
        parse_json(line)
    return err.value.code, err.value.message


@pytest.mark.parametrize(("line", "message"), [
    (b'{"b":0,"a":1,"a":2}', "duplicate key 'a' in an object"),
    (b"[1e400]", "number '1e400' is out of range"),
    (b"[-1e400]", "number '-1e400' is out of range"),
    (b"[" + b"1" * (MAX_INT_DIGITS + 1) + b"]", f"integer with more than {MAX_INT_DIGITS} digits: '{'1' * 31}'"),
    (b'["\\ud800"]', "lone surrogate escape in a string (strings must be valid Unicode)"),
    (b'{"\\udc00":1}', "lone surrogate escape in a string (strings must be valid Unicode)"),
    (b"[" * (MAX_DEPTH + 1), f"nesting deeper than {MAX_DEPTH} levels"),  # unclosed
    (b'{"a":' * (MAX_DEPTH + 1), f"nesting deeper than {MAX_DEPTH} levels"),  # unclosed objects
    (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), f"nesting deeper than {MAX_DEPTH} levels"),
    (b"", "empty line"),
])
def test_each_refusal_of_the_parser_says_what_was_wrong(line: bytes, message: str) -> None:
    assert refusal(line) == (errors.BAD_JSON, message)


def test_nesting_is_counted_by_depth_not_by_brackets() -> None:
    many = b"[" + b",".join([b"[]"] * (MAX_DEPTH + 8)) + b"]"  # 41 arrays, 2 deep
    assert parse_json(many) == [[]] * (MAX_DEPTH + 8)
    objects = b"[" + b",".join([b"{}"] * (MAX_DEPTH + 8)) + b"]"
    assert parse_json(objects) == [{}] * (MAX_DEPTH + 8)
    wrapped = b"[" + b",".join([b"[{}]"] * (MAX_DEPTH + 8)) + b"]"  # objects inside arrays
    assert parse_json(wrapped) == [[{}]] * (MAX_DEPTH + 8)
    deepest = b"[[]," + b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1) + b"]"  # 33 brackets, 32 deep
    assert parse_json(deepest)[0] == []
    brackets_in_strings = b'["' + b"[" * 100 + b'"]'
    assert parse_json(brackets_in_strings) == ["[" * 100]


def test_an_unclosed_line_within_the_depth_is_invalid_json_not_too_deep() -> None:
    code, message = refusal(b"[]" + b"[" * MAX_DEPTH)  # 33 brackets, 32 left open
    assert code == errors.BAD_JSON
    assert message.startswith("invalid JSON: ")


def test_integers_of_up_to_30_digits_are_read() -> None:
    assert parse_json(b"[" + b"9" * MAX_INT_DIGITS + b"]") == [int("9" * MAX_INT_DIGITS)]
    assert parse_json(b"[-" + b"9" * MAX_INT_DIGITS + b"]") == [-int("9" * MAX_INT_DIGITS)]
    # with a longer run of digits elsewhere (in a string), each integer literal is counted
    line = b'["' + b"1" * (MAX_INT_DIGITS + 5) + b'", ' + b"9" * MAX_INT_DIGITS + b"]"
    assert parse_json(line) == ["1" * (MAX_INT_DIGITS + 5), int("9" * MAX_INT_DIGITS)]


def test_a_protocol_error_keeps_its_fields_through_pickle_and_says_them_in_its_repr() -> None:
    err = ProtocolError(errors.INVALID_FIELD, "bad", "act.amount")
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.code, copy.message, copy.path) == (errors.INVALID_FIELD, "bad", "act.amount")
    assert repr(err) == "ProtocolError('invalid_field', 'bad @ act.amount')"
    assert repr(ProtocolError(errors.BAD_JSON, "empty line")) == "ProtocolError('bad_json', 'empty line')"


def test_rule_errors_say_their_message() -> None:
    err = m.RuleError("last", "give hand_no or last, not both")
    assert str(err) == "give hand_no or last, not both"
    assert (err.field, err.missing) == ("last", False)


def test_set_options_takes_minutes_or_hands_but_not_both() -> None:
    assert m.SetOptionsCommand(level_minutes=10, reason="x").level_minutes == 10
    assert m.SetOptionsCommand(hands_per_level=8, reason="x").hands_per_level == 8
    with pytest.raises(m.RuleError) as err:
        m.SetOptionsCommand(level_minutes=10, hands_per_level=8, reason="x")
    assert (err.value.field, err.value.message) == (
        "hands_per_level", "give level_minutes or hands_per_level, not both"
    )


def test_a_text_constraint_says_what_is_wrong() -> None:
    token = m.Text(8, 128, pattern="^[a-z]+$")
    assert token.problem("abc") == "too short, expected at least 8 characters"
    assert m.Text(1, 5).problem("") == "must not be empty"
    assert m.Text(2, 5).problem("") == "too short, expected at least 2 characters"
    assert m.Text(0, 5).problem("a\x85") == "control character U+0085 not allowed"
    assert m.Text(0, 5, control_ok=True).problem("a\x85") is None
    forty = "A" * 40
    assert token.problem(forty) == f"invalid value {forty!r}, expected ^[a-z]+$"
    assert token.problem(forty + "B") == f"invalid value {'A' * 37!r}..., expected ^[a-z]+$"


def test_since_marks_a_field_new_in_a_version() -> None:
    import attrs

    from protocol.compiled import field_since

    @attrs.frozen
    class Probe:
        old: int = 0
        new: int = attrs.field(default=0, metadata=m.since(2))

    assert m.since(2) == {"since": 2}
    assert [field_since(f) for f in attrs.fields(Probe)] == [1, 2]
