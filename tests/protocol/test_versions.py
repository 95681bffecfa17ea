"""Protocol version 2 beside version 1: what each version's lines hold, and the refusals.

The reference here walks the attrs fields and their ``since`` metadata on its own, apart
from the generated encoders in ``protocol.compiled``, so the two must agree.
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import codec, errors
from protocol import messages as m
from protocol.examples import CLIENT_EXAMPLES, RULES, SERVER_EXAMPLES, example
from tests.budget import examples

ALL = [*CLIENT_EXAMPLES, *SERVER_EXAMPLES]


def reference(value: Any, version: int) -> Any:
    """The JSON data a ``version`` connection gets, from the classes' own metadata."""
    if isinstance(value, tuple):
        return [reference(v, version) for v in value]
    if not attrs.has(type(value)):
        return value
    out: dict[str, Any] = {}
    cl = type(value)
    if hasattr(cl, "TYPE"):
        out["op" if cl in m.COMMAND_TYPES.values() else "type"] = cl.TYPE
    for field in attrs.fields(cl):
        if field.metadata.get("since", 1) > version:
            continue
        if field.name == "seq" and value.seq is None:
            continue
        out[field.name] = reference(getattr(value, field.name), version)
    return out


def at_defaults(value: Any, version: int) -> Any:
    """``value`` with every field newer than ``version`` set back to its default."""
    if isinstance(value, tuple):
        return tuple(at_defaults(v, version) for v in value)
    if not attrs.has(type(value)):
        return value
    changes = {}
    for field in attrs.fields(type(value)):
        if field.metadata.get("since", 1) > version:
            changes[field.name] = field.default
        else:
            changes[field.name] = at_defaults(getattr(value, field.name), version)
    return attrs.evolve(value, **changes)


@pytest.mark.parametrize("version", m.SUPPORTED_VERSIONS)
@pytest.mark.parametrize("msg", ALL, ids=[type(x).__name__ for x in ALL])
def test_each_version_gets_exactly_its_fields(msg: Any, version: int) -> None:
    nested = getattr(msg, "command", None)
    if nested is not None and getattr(nested, "SINCE", 1) > version:
        return  # a director command new in a later version: the director's client is v2
    if not codec.sendable(msg, version):
        with pytest.raises(errors.ProtocolError, match=f"cannot be sent on a version {version} "):
            codec.encode(msg, version)
        return
    line = codec.encode(msg, version)
    assert json.loads(line) == reference(msg, version)
    decoded = codec.decode_server(line) if msg.__class__ in m.SERVER_TYPES.values() else (
        codec.decode_client(line)
    )
    assert decoded == at_defaults(msg, version)


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(SERVER_EXAMPLES), st.data())
def test_versioned_encoders_agree_with_the_reference_on_any_values(
    msg: m.ServerMessage, data: st.DataObject
) -> None:
    """New fields take arbitrary values: still dropped at v1, still written at v2."""
    changes: dict[str, Any] = {}
    for field in attrs.fields(type(msg)):
        if field.metadata.get("since", 1) > 1:
            if "Rules" in str(field.type):  # a part: the example's, or null
                changes[field.name] = data.draw(st.sampled_from([None, RULES]))
            elif "Trophy" in str(field.type):  # a tuple of parts: keep the example's, or none
                changes[field.name] = data.draw(st.sampled_from([(), getattr(msg, field.name)]))
            elif "Card" in str(field.type):
                changes[field.name] = data.draw(
                    st.none() | st.lists(st.sampled_from(sorted(m.CARDS)), max_size=5).map(tuple)
                )
            elif "str" in str(field.type):
                changes[field.name] = data.draw(st.none() | st.text(max_size=20))
            elif "None" in str(field.type):
                changes[field.name] = data.draw(st.none() | st.integers(0, 10**6))
            else:
                changes[field.name] = data.draw(st.integers(0, 10**6))
    msg = attrs.evolve(msg, **changes)
    for version in m.SUPPORTED_VERSIONS:
        if codec.sendable(msg, version):
            assert json.loads(codec.encode(msg, version)) == reference(msg, version)


def test_the_default_encoding_is_version_1_the_shape_every_client_reads() -> None:
    snapshot = example(m.TableSnapshot)
    assert snapshot.deadline_ms is not None
    assert b"deadline_ms" not in codec.encode(snapshot)
    assert b"deadline_ms" in codec.encode(snapshot, version=2)


def test_new_messages_are_version_2_and_not_sendable_to_version_1() -> None:
    new = {cl.TYPE for cl in m.SERVER_TYPES.values() if cl.SINCE == 2}
    assert new == {"turn", "bet_returned", "table_broken", "ruling", "deck_commit", "seeds_received", "reveal"}
    assert not codec.sendable(example(m.Turn), 1)
    assert codec.sendable(example(m.Turn), 2)
    assert codec.sendable(m.Action, 1)
    assert {cl.TYPE for cl in m.CLIENT_TYPES.values() if cl.SINCE == 2} == {"client_seed"}


def test_version_3_adds_re_entry_and_the_tv_table_as_new_messages() -> None:
    """Issue 27: new messages only for version 3; none reaches a version 1 or 2 connection."""
    assert {cl.TYPE for cl in m.SERVER_TYPES.values() if cl.SINCE == 3} == {"reentry_offer", "tv_cards"}
    assert {cl.TYPE for cl in m.CLIENT_TYPES.values() if cl.SINCE == 3} == {"reenter"}
    for version in (1, 2):
        assert not codec.sendable(example(m.ReentryOffer), version)
    assert codec.sendable(example(m.ReentryOffer), 3)


def test_a_version_1_reader_refuses_what_version_2_added() -> None:
    turn = codec.encode(example(m.Turn), version=2)
    with pytest.raises(errors.ProtocolError) as err:
        codec.decode_server(turn, version=1)
    assert (err.value.code, err.value.path) == (errors.UNKNOWN_TYPE, "type")
    assert "version 2 message" in err.value.message
    assert codec.decode_server(turn, version=2) == attrs.evolve(example(m.Turn))

    legal = codec.encode(example(m.YourTurn), version=2)
    with pytest.raises(errors.ProtocolError) as err:
        codec.decode_server(legal, version=1)
    assert (err.value.code, err.value.path) == (errors.UNKNOWN_FIELD, "your_turn.legal.stack")
    # the same message written for version 1 is accepted by a version 1 reader
    assert codec.decode_server(codec.encode(example(m.YourTurn), version=1), version=1)


def test_newer_field_names_the_path_of_a_nested_field() -> None:
    lobby = example(m.Lobby)
    assert codec.newer_field(lobby, 1) == "lobby.tables[0].hand_no"
    bare = tuple(attrs.evolve(t, hand_no=None) for t in lobby.tables)
    assert codec.newer_field(attrs.evolve(lobby, tables=bare), 1) == "lobby.carried"
    assert codec.newer_field(lobby, 2) is None


def test_a_handshake_is_checked_against_the_version_it_asks_for() -> None:
    # No client message has a version 2 field yet, so only the version itself is checked.
    assert codec.decode_client(b'{"type":"join","version":1,"name":"Al"}').version == 1
    assert codec.decode_client(b'{"type":"join","version":2,"name":"Al"}').version == 2
    assert codec.decode_client(b'{"type":"join","version":3,"name":"Al"}').version == 3
    with pytest.raises(errors.ProtocolError) as err:
        codec.decode_client(b'{"type":"join","version":4,"name":"Al"}')
    assert err.value.code == errors.UNSUPPORTED_VERSION


@pytest.mark.parametrize(
    ("line", "path"),
    [
        (b'{"type":"spectate","version":1,"table":0}', "spectate.table"),
        (b'{"type":"snapshot_request","table":0}', "snapshot_request.table"),
        (
            b'{"type":"director_command","command":{"op":"move_player","player_id":1,'
            b'"table":1,"seat":0}}',
            "director_command.command.seat",
        ),
    ],
)
def test_table_and_seat_start_at_1(line: bytes, path: str) -> None:
    with pytest.raises(errors.ProtocolError) as err:
        codec.decode_client(line)
    assert (err.value.code, err.value.path) == (errors.INVALID_FIELD, path)
    assert "expected 1 to" in err.value.message
