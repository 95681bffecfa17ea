"""The codec's tables built again inside a test: the generated decoders and encoders of
``protocol.compiled`` and the cattrs converter of ``protocol.codec``.

Both are built once, when the package is imported, so the tests elsewhere only ever see
that one build. Here ``compiled.build()`` and ``codec._build()`` run in the test and their
tables are put in place of the import-time ones; the checks then hold them to the
protocol's own rules, worked out apart from the codec (a value's validity from its type,
each version's fields from the attrs metadata), and to the import-time codec on the same
lines (same message, or same error code, path and message). A mutation tool sees the
builders run here (docs/testing.md, "Mutation testing").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any, Literal, get_args, get_origin

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import codec, compiled, errors
from protocol import messages as m
from protocol.errors import ProtocolError
from protocol.examples import CLIENT_EXAMPLES, COMMAND_EXAMPLES, SERVER_EXAMPLES
from tests.budget import examples
from tests.protocol.test_codec import BAD_LINES, BAD_SERVER_LINES
from tests.protocol.test_properties import mutated
from tests.protocol.test_versions import at_defaults, reference

SETTINGS = settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
ALL = [*CLIENT_EXAMPLES, *SERVER_EXAMPLES]
HANDSHAKES = set(get_args(m.Handshake))


# --- a fresh build in place of the import-time one --------------------------------------


def fresh_names() -> dict[str, Any]:
    """The codec's module names for a fresh build of everything built at import."""
    built = compiled.build()
    tables = codec._build(built)
    return {
        "converter": tables.converter,
        "_TABLES": tables,
        "_CLIENT": tables.client,
        "_SERVER": tables.server,
        "_CLIENT_FAST": tables.client_fast,
        "_SERVER_FAST": tables.server_fast,
        "_VERSIONED": tables.versioned,
        "UNSTRUCTURE": built.plain,
        "UNSTRUCTURE_WIRE": built.wire_by_version[m.LATEST_VERSION],
        "UNSTRUCTURE_WIRE_BY_VERSION": built.wire_by_version,
    }


@pytest.fixture
def built() -> dict[str, Any]:
    """A fresh build, once per test (not per hypothesis example: a build takes 0.2 s).
    Never shared between tests: a mutation tool's child process must build it itself."""
    return fresh_names()


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, built: dict[str, Any]) -> dict[str, Any]:
    """The codec running on tables built in this test (the names put in place)."""
    names = built
    for name, value in names.items():
        assert hasattr(codec, name), name
        monkeypatch.setattr(codec, name, value)
    return names


def outcome(decode: Any, line: bytes) -> tuple[Any, ...]:
    try:
        return ("ok", decode(line))
    except ProtocolError as exc:
        return ("error", exc.code, exc.path, exc.message, exc.id)


def both(decode: Any, line: bytes, monkeypatch: pytest.MonkeyPatch, names: dict[str, Any]) -> tuple[Any, Any]:
    """The outcome of ``line`` with the import-time tables, then with ``names``."""
    before = outcome(decode, line)
    with monkeypatch.context() as patch:
        for name, value in names.items():
            patch.setattr(codec, name, value)
        after = outcome(decode, line)
    return before, after


# --- the types, read apart from the codec -----------------------------------------------


def optional_inner(typ: Any) -> Any:
    args = get_args(typ)
    if type(None) in args and len(args) == 2:
        return next(a for a in args if a is not type(None))
    return None


def text(typ: Any) -> m.Text | None:
    return next((x for x in getattr(typ, "__metadata__", ()) if isinstance(x, m.Text)), None)


def least(typ: Any) -> int | None:
    found = [x.min for x in getattr(typ, "__metadata__", ()) if isinstance(x, m.Least)]
    return found[0] if found else None


def valid(value: Any, typ: Any) -> bool:
    """Whether a JSON value is a valid value of a field type, from the protocol's rules
    (docs/protocol.md): integers 0 to 2^53-1 (or from a Least bound), never a bool or a
    float; text within its length, without control characters, matching its pattern."""
    import re

    inner = optional_inner(typ)
    if inner is not None:
        return value is None or valid(value, inner)
    t = text(typ)
    if t is not None:
        return (
            type(value) is str
            and t.min <= len(value) <= (t.max if t.max is not None else len(value))
            and (t.control_ok or not re.search(r"[\x00-\x1f\x7f-\x9f]", value))
            and (t.pattern is None or re.fullmatch(t.pattern, value) is not None)
        )
    low = least(typ)
    if low is not None or typ is int:
        return type(value) is int and (low or 0) <= value <= 2**53 - 1
    if typ is bool:
        return type(value) is bool
    if typ is str:
        return type(value) is str
    if get_origin(typ) is Literal:
        return type(value) is str and value in get_args(typ)
    if get_origin(typ) is tuple:
        return type(value) is list and all(valid(v, get_args(typ)[0]) for v in value)
    raise AssertionError(f"not a leaf type: {typ!r}")


def is_leaf(typ: Any) -> bool:
    inner = optional_inner(typ)
    if inner is not None:
        return is_leaf(inner)
    if get_origin(typ) is tuple:
        return is_leaf(get_args(typ)[0])
    return not (typ == m.Command or attrs.has(typ))


def edge_values(typ: Any) -> list[Any]:
    """Values at and just past each bound of a leaf type, and values of other JSON kinds."""
    wrong = [None, True, False, 1, 1.0, "1", [], {}]
    inner = optional_inner(typ)
    if inner is not None:
        return edge_values(inner)
    if get_origin(typ) is tuple:
        item = get_args(typ)[0]
        return [*wrong, [None], ["x"], *([v] for v in edge_values(item)[:12])]
    t = text(typ)
    if t is not None:
        values = [*wrong, "", "x" * max(t.min - 1, 0), "x" * t.min, "a\x00b", "a\x1fb", "a\x7fb", "a\x9fb", "\xa0a", "é" * t.min]
        if t.max is not None:
            values += ["x" * t.max, "x" * (t.max + 1), "é" * t.max]
        if typ == m.Card:
            values += ["As", "as", "Xs", "AsK", "1c"]
        return values
    low = least(typ)
    if low is not None or typ is int:
        low = low or 0
        return [*wrong, low - 1, low, low + 1, 2**53 - 1, 2**53, -(2**53), 10**29]
    if typ is bool:
        return [*wrong, 0]
    if get_origin(typ) is Literal:
        return [*wrong, *get_args(typ), "nope", get_args(typ)[0].upper()]
    return wrong


def leaves(data: Any, typ: Any, path: str) -> Iterator[tuple[tuple[Any, ...], Any, str]]:
    """(keys to the value, its type, its error path) for every leaf field under ``data``."""
    inner = optional_inner(typ)
    if inner is not None:
        if data is not None:
            yield from leaves(data, inner, path)
        return
    if typ == m.Command:
        typ = m.COMMAND_TYPES[data["op"]]
    if is_leaf(typ):
        return
    if get_origin(typ) is tuple:
        for i, item in enumerate(data):
            for keys, t, p in leaves(item, get_args(typ)[0], f"{path}[{i}]"):
                yield (i, *keys), t, p
        return
    for field in attrs.fields(attrs.resolve_types(typ)):
        if field.name not in data:
            continue
        here = f"{path}.{field.name}"
        if is_leaf(field.type):
            yield (field.name,), field.type, here
        for keys, t, p in leaves(data[field.name], field.type, here):
            yield (field.name, *keys), t, p


def replaced(data: Any, keys: tuple[Any, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(data))
    parent = copy
    for k in keys[:-1]:
        parent = parent[k]
    parent[keys[-1]] = value
    return copy


def side(msg_class: type) -> tuple[Any, Any]:
    if msg_class in m.SERVER_TYPES.values():
        return codec.decode_server, m.ServerMessage
    return codec.decode_client, m.ClientMessage


# --- valid messages, any values the types allow ------------------------------------------


def values_of(typ: Any) -> st.SearchStrategy[Any]:
    inner = optional_inner(typ)
    if inner is not None:
        return st.none() | values_of(inner)
    if typ == m.Card:
        return st.sampled_from(sorted(m.CARDS))
    t = text(typ)
    if t is not None:
        if t.pattern is not None:
            return st.from_regex(t.pattern, fullmatch=True).filter(
                lambda s: t.min <= len(s) <= (t.max or len(s)) and not s.endswith("\n")
            )
        chars = st.characters(blacklist_categories=("Cs",) if t.control_ok else ("Cs", "Cc"))
        top = t.max if t.max is not None else t.min + 20
        return st.text(chars, min_size=t.min, max_size=min(top, t.min + 20)) | st.just("x" * top)
    low = least(typ)
    if low is not None or typ is int:
        return st.integers(low or 0, 2**53 - 1)
    if typ is bool:
        return st.booleans()
    if typ is str:
        return st.text(st.characters(blacklist_categories=("Cs",)), max_size=10)
    if get_origin(typ) is Literal:
        return st.sampled_from(get_args(typ))
    if get_origin(typ) is tuple:
        return st.lists(values_of(get_args(typ)[0]), max_size=3).map(tuple)
    if typ == m.Command:
        return st.one_of([instances(cl) for cl in m.COMMAND_TYPES.values()])
    assert attrs.has(typ), typ
    return instances(typ)


def instances(cl: type) -> st.SearchStrategy[Any]:
    fields = attrs.fields(attrs.resolve_types(cl))

    def build(kwargs: dict[str, Any]) -> Any:
        try:
            return cl(**kwargs)
        except m.RuleError:
            return None

    strategies = {
        f.name: st.just(m.LATEST_VERSION) if cl in HANDSHAKES and f.name == "version" else values_of(f.type)
        for f in fields
    }
    return st.fixed_dictionaries(strategies).map(build).filter(lambda x: x is not None)


def keys_in(value: Any) -> int:
    if isinstance(value, dict):
        return len(value) + sum(keys_in(v) for v in value.values())
    if isinstance(value, list):
        return sum(keys_in(v) for v in value)
    return 0


@SETTINGS
@given(st.sampled_from([*m.CLIENT_TYPES.values(), *m.SERVER_TYPES.values()]).flatmap(instances))
def test_any_valid_message_round_trips_through_a_fresh_build(built: dict[str, Any], msg: Any) -> None:
    """Every version's line holds exactly its fields and decodes back; the generated
    structure function takes the line itself (the fast path: it must accept every valid
    message, counting every key), and the converter agrees."""
    names = built
    wire_by_version = names["UNSTRUCTURE_WIRE_BY_VERSION"]
    plain = names["UNSTRUCTURE"]
    entries = names["_SERVER"] if type(msg) in m.SERVER_TYPES.values() else names["_CLIENT"]
    cl, fast, hook = entries[msg.TYPE]
    assert cl is type(msg)
    data = reference(msg, m.LATEST_VERSION)
    assert plain[cl](msg) == data
    assert list(plain[cl](msg))[0] == "type"
    count = [0]
    assert fast(json.loads(json.dumps(data)), count) == msg
    assert count[0] == keys_in(data)
    assert hook({k: v for k, v in data.items() if k != "type"}, cl) == msg
    union = m.ServerMessage if type(msg) in m.SERVER_TYPES.values() else m.ClientMessage
    assert names["converter"].structure(data, union) == msg
    assert names["converter"].unstructure(msg) == data
    for version in m.SUPPORTED_VERSIONS:
        wire = wire_by_version[version].get(cl)
        if msg.SINCE > version:
            assert wire is None
            continue
        nested = getattr(msg, "command", None)
        if nested is not None and nested.SINCE > version:
            continue
        assert wire is not None
        line = json.dumps(wire(msg), separators=(",", ":"), ensure_ascii=False)
        assert json.loads(line) == reference(msg, version)
        expected = at_defaults(msg, version)
        count = [0]
        assert fast(json.loads(line), count) == expected
        assert count[0] == keys_in(json.loads(line))


@pytest.mark.parametrize("version", m.SUPPORTED_VERSIONS)
def test_every_example_encodes_and_decodes_with_a_fresh_build(version: int, fresh: dict[str, Any]) -> None:
    for msg in ALL:
        nested = getattr(msg, "command", None)
        if not codec.sendable(msg, version) or (nested is not None and nested.SINCE > version):
            continue
        line = codec.encode(msg, version)
        assert json.loads(line) == reference(msg, version)
        decode, _ = side(type(msg))
        assert decode(line) == at_defaults(msg, version)
        assert codec.unstructure(msg) == reference(msg, m.LATEST_VERSION)


def test_a_fresh_build_makes_the_same_tables() -> None:
    """The same classes in each table as at import: the version 1 encoder lacks exactly
    the version 2 classes, the fast client path skips exactly the handshakes."""
    names = fresh_names()
    every = {*m.CLIENT_TYPES.values(), *m.SERVER_TYPES.values(), *m.COMMAND_TYPES.values()}
    for version, table in names["UNSTRUCTURE_WIRE_BY_VERSION"].items():
        assert {cl for cl in table if cl in every} == {cl for cl in every if cl.SINCE <= version}
    assert set(names["UNSTRUCTURE_WIRE_BY_VERSION"]) == set(m.SUPPORTED_VERSIONS)
    assert set(names["UNSTRUCTURE"]) >= every
    assert set(names["_CLIENT_FAST"]) == set(m.CLIENT_TYPES) - {cl.TYPE for cl in HANDSHAKES}
    assert set(names["_SERVER_FAST"]) == set(m.SERVER_TYPES)
    assert {t: e[0] for t, e in names["_CLIENT"].items()} == m.CLIENT_TYPES
    assert {t: e[0] for t, e in names["_SERVER"].items()} == m.SERVER_TYPES
    for tag, fast in names["_CLIENT_FAST"].items():
        assert fast is names["_CLIENT"][tag][1]
    for tag, fast in names["_SERVER_FAST"].items():
        assert fast is names["_SERVER"][tag][1]


def versioned_reference() -> set[type]:
    """The classes holding a class or field newer than version 1, anywhere inside."""

    def classes_in(typ: Any) -> list[type]:
        if typ == m.Command:
            return list(m.COMMAND_TYPES.values())
        if isinstance(typ, type) and attrs.has(typ):
            return [typ]
        return [c for a in get_args(typ) if isinstance(a, type) or get_args(a) for c in classes_in(a)]

    def newer(cl: type, seen: frozenset[type]) -> bool:
        if getattr(cl, "SINCE", 1) > 1:
            return True
        for field in attrs.fields(attrs.resolve_types(cl)):
            if field.metadata.get("since", 1) > 1:
                return True
            if any(newer(sub, seen | {cl}) for sub in classes_in(field.type) if sub not in seen | {cl}):
                return True
        return False

    found: set[type] = set()
    todo = [*m.CLIENT_TYPES.values(), *m.SERVER_TYPES.values(), *m.COMMAND_TYPES.values()]
    done: set[type] = set()
    while todo:
        cl = todo.pop()
        if cl in done:
            continue
        done.add(cl)
        if newer(cl, frozenset()):
            found.add(cl)
        for field in attrs.fields(attrs.resolve_types(cl)):
            todo.extend(classes_in(field.type))
    return found


def test_the_classes_a_version_1_connection_must_check_are_exactly_those_with_newer_parts() -> None:
    expected = versioned_reference()
    assert m.Lobby in expected and m.Turn in expected and m.Act not in expected
    assert fresh_names()["_VERSIONED"] == expected


def test_a_fresh_build_refuses_for_version_1_what_version_2_added(fresh: dict[str, Any]) -> None:
    for msg in SERVER_EXAMPLES:
        if type(msg) not in versioned_reference() or msg.SINCE > 2:
            continue
        line = codec.encode(msg, 2)
        if at_defaults(msg, 1) == msg and msg.SINCE == 1:
            assert codec.decode_server(line, version=1) == msg
            continue
        with pytest.raises(ProtocolError) as err:
            codec.decode_server(line, version=1)
        assert err.value.code in (errors.UNKNOWN_TYPE, errors.UNKNOWN_FIELD)
        assert codec.decode_server(line, version=2) == at_defaults(msg, 2)
    seed = next(x for x in CLIENT_EXAMPLES if isinstance(x, m.ClientSeed))
    with pytest.raises(ProtocolError) as err:
        codec.decode_client(codec.encode(seed, 2), version=1)
    assert (err.value.code, err.value.path) == (errors.UNKNOWN_TYPE, "type")


# --- bad input: the fresh build refuses it as the rules and the import-time build do ---


@pytest.mark.parametrize("decode", ["client", "server"])
def test_bad_lines_get_the_same_code_path_and_message_from_a_fresh_build(
    decode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = fresh_names()
    fn, cases = (
        (codec.decode_client, BAD_LINES) if decode == "client" else (codec.decode_server, BAD_SERVER_LINES)
    )
    for name, line, code, path in cases:
        if name in ("deep nesting", "deep unclosed nesting"):
            continue  # the JSON parser's refusals, no table involved (and slow)
        before, after = both(fn, line, monkeypatch, names)
        assert after == before, name
        assert after[:3] == ("error", code, path), name


# Each strict hook's message, exactly (the converter is the source of every message).
MESSAGES: list[tuple[bytes, str, str]] = [
    (b'{"type":"act","hand_no":true,"action":"fold"}', "act.hand_no", "invalid value for type, expected int, got true"),
    (b'{"type":"act","hand_no":-1,"action":"fold"}', "act.hand_no", f"integer out of range, expected 0 to {m.MAX_INT}"),
    (b'{"type":"act","hand_no":1,"action":5}', "act.action", "invalid value for type, expected one of fold, check, call, bet, raise, all_in, got an integer"),
    (b'{"type":"act","hand_no":1,"action":"zap"}', "act.action", "invalid value 'zap', expected one of fold, check, call, bet, raise, all_in"),
    (b'{"type":"chat","scope":"table","text":5}', "chat.text", "invalid value for type, expected str, got an integer"),
    (b'{"type":"chat","scope":"table","text":""}', "chat.text", "must not be empty"),
    (b'{"type":"chat","scope":"table","text":"a\\u0001"}', "chat.text", "control character U+0001 not allowed"),
    (b'{"type":"resume","version":1,"token":"abc"}', "resume.token", "too short, expected at least 8 characters"),
    (b'{"type":"join","version":1,"name":"' + b"a" * 25 + b'"}', "join.name", "too long, expected at most 24 characters"),
    (b'{"type":"resume","version":1,"token":"abc defgh"}', "resume.token", "invalid value 'abc defgh', expected ^[A-Za-z0-9_.~-]+$"),
    (b'{"type":"spectate","version":1,"table":0}', "spectate.table", f"integer out of range, expected 1 to {m.MAX_INT}"),
    (b'{"type":"spectate","version":1,"table":"1"}', "spectate.table", "invalid value for type, expected int, got a string"),
    (b'{"type":"act","hand_no":1,"action":"fold","amount":null,"id":"x"}', "act.id", "invalid value for type, expected int, got a string"),
    (b'{"type":"history_request","hand_no":1,"last":1}', "history_request.last", "give hand_no or last, not both"),
    (b'{"type":"act","hand_no":1,"action":"bet"}', "act.amount", "amount is required for bet"),
    (b'{"type":"director_command","command":[]}', "director_command.command", "invalid value for type, expected object, got an array"),
    (b'{"type":"director_command","command":{"reason":"x"}}', "director_command.command.op", "required field missing"),
    (b'{"type":"director_command","command":{"op":5}}', "director_command.command.op", "unknown command 5, expected one of " + ", ".join(m.COMMAND_TYPES)),
    (b'{"type":"director_command","command":{"op":"pause"}}', "director_command.command.reason", "required field missing"),
    (b'{"type":"director_command","command":{"op":"pause","reason":"x","why":1}}', "director_command.command.why", "unknown field 'why'"),
    (b'{"type":"ping","b":1,"a":2}', "ping.a", "unknown fields 'a', 'b'"),
    (b'{"type":"act","hand_no":[1],"action":"fold"}', "act.hand_no", "invalid value for type, expected int, got an array"),
    (b'{"type":"act","hand_no":1,"action":"fold","amount":{}}', "act.amount", "invalid value for type, expected int, got an object"),
    (b'{"type":"director_command","command":{"op":"set_schedule","reason":"x","levels":{}}}', "director_command.command.levels", "invalid value for type, expected array, got an object"),
    (b'{"type":"director_command","command":{"op":"set_schedule","reason":"x","levels":[{"small_blind":1,"big_blind":2},5]}}', "director_command.command.levels[1]", "invalid value for type, expected object, got an integer"),
]


def test_each_refusal_says_what_was_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the import-time build, then with a fresh one (one test, one build: a mutation
    run calls it once per mutant of the builders)."""
    names = fresh_names()
    for line, path, message in MESSAGES:
        before, after = both(codec.decode_client, line, monkeypatch, names)
        assert before[2:4] == (path, message), line
        assert after == before, line


def test_every_field_at_and_past_its_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each leaf field of each example, given values at and past its type's bounds and
    values of other kinds: refused at that field's path when the rules say so, and the
    fresh build answers exactly as the import-time one (message, code, path)."""
    names = fresh_names()
    fasts = {e[0]: e[1] for e in [*names["_CLIENT"].values(), *names["_SERVER"].values()]}
    checked = 0
    for msg in ALL:
        cl = type(msg)
        data = reference(msg, m.LATEST_VERSION)
        decode, _ = side(cl)
        for keys, typ, path in leaves(data, cl, cl.TYPE):
            for value in edge_values(typ):
                line = json.dumps(replaced(data, keys, value)).encode()
                before, after = both(decode, line, monkeypatch, names)
                assert after == before, (path, value)
                try:
                    fast_result = fasts[cl](json.loads(line), [0])
                except Exception:
                    fast_result = None
                if not valid(value, typ):
                    assert after[0] == "error" and (after[2] or "").startswith(path), (path, value, after)
                    assert fast_result is None, (path, value)
                elif after[0] == "ok" and cl not in HANDSHAKES:
                    assert fast_result == after[1], (path, value)
                checked += 1
    assert checked > 3000


@SETTINGS
@given(mutated(st.sampled_from(ALL).map(lambda x: reference(x, m.LATEST_VERSION))))
def test_mutated_lines_get_the_same_answer_from_a_fresh_build(built: dict[str, Any], line: bytes) -> None:
    names = built
    with pytest.MonkeyPatch.context() as patch:
        for decode in (codec.decode_client, codec.decode_server):
            before = outcome(decode, line)
            for name, value in names.items():
                patch.setattr(codec, name, value)
            after = outcome(decode, line)
            patch.undo()
            assert after == before


def test_commands_built_fresh_round_trip_inside_director_commands(fresh: dict[str, Any]) -> None:
    for command in COMMAND_EXAMPLES:
        msg = m.DirectorCommand(command=command)
        line = codec.encode(msg, m.LATEST_VERSION)
        assert json.loads(line)["command"]["op"] == command.TYPE
        assert codec.decode_client(line) == msg
        assert codec.converter.structure(codec.unstructure(command), m.Command) == command


# --- what the generators refuse to build (a field type the protocol has no rule for) ----


def test_the_generators_name_a_field_type_they_cannot_handle() -> None:
    structurers = compiled._Structurers()
    with pytest.raises(TypeError, match="^no structure function for <class 'float'>$"):
        structurers._check(float, "x", "")
    with pytest.raises(TypeError, match=r"^typing.Literal\[1, 2\]: protocol literals are strings$"):
        structurers._check(Literal[1, 2], "x", "")

    @attrs.frozen
    class Listy:
        items: tuple[int, ...] = attrs.field(factory=tuple)

    with pytest.raises(TypeError, match="^Listy.items: factories are not supported$"):
        structurers.get(Listy)
    with pytest.raises(TypeError, match="^no unstructure function for <class 'float'>$"):
        compiled._Unstructurers(plain=True)._expr(float, "o.x", 0)
    with pytest.raises(TypeError, match="^<class 'protocol.parts.Level'> has no tag$"):
        compiled.tag_of(m.Level)
    assert compiled.tag_of(m.Act) == "act"


def test_the_type_helpers_read_optional_and_tuple_types() -> None:
    from typing import Optional, Union

    assert compiled.optional_inner(int | None) is int
    assert compiled.optional_inner(Optional[str]) is str  # noqa: UP045 - the typing spelling too
    assert compiled.optional_inner(Union[None, bool]) is bool  # noqa: UP007
    assert compiled.optional_inner(int | str) is None
    assert compiled.optional_inner(int | str | None) is None
    assert compiled.tuple_item(tuple[int, ...]) is int
    assert compiled.tuple_item(tuple[int, int]) is None
    assert compiled.tuple_item(list[int]) is None


def test_the_generators_handle_field_types_no_message_uses_yet() -> None:
    """Text without an upper bound and a list of choices: allowed by the type rules, used
    by no message today, so checked here on a class made for the test."""
    @attrs.frozen
    class Probe:
        word: Annotated[str, m.Text(3)]
        moves: tuple[Literal["in", "out"], ...] = ()

    structure = compiled._Structurers().get(Probe)
    assert structure({"word": "abc" * 1000, "moves": ["in", "out", "in"]}, [0]) == Probe(
        word="abc" * 1000, moves=("in", "out", "in")
    )
    assert structure({"word": "abc"}, [0]) == Probe(word="abc")
    for bad in ({"word": "ab"}, {"word": 123}, {"word": "abc\x00"}, {"word": "abc", "moves": ["up"]},
                {"word": "abc", "moves": "in"}, {"word": "abc", "moves": [["in"]]}):
        with pytest.raises(Exception):  # noqa: B017, PT011 - the fast path raises anything
            structure(bad, [0])
    plain = compiled._Unstructurers(plain=True).get(Probe)
    assert plain(Probe(word="abcd", moves=("out",))) == {"word": "abcd", "moves": ["out"]}


@attrs.frozen
class _Pair:
    """A part with a rule across its fields (no message has one in a list yet)."""

    low: int
    high: int

    def __attrs_post_init__(self) -> None:
        if self.low > self.high:
            raise m.RuleError("high", "high below low")


def test_the_generators_handle_lists_no_message_uses_yet() -> None:
    """Lists of parts with a rule, of tagged messages and of optional parts: each takes its
    own branch in the generated list function."""

    @attrs.frozen
    class Lists:
        pairs: tuple[_Pair, ...] = ()
        acts: tuple[m.Act, ...] = ()
        levels: tuple[m.Level | None, ...] = ()

    structure = compiled._Structurers().get(Lists)
    good = {
        "pairs": [{"low": 1, "high": 2}, {"low": 2, "high": 2}],
        "acts": [{"type": "act", "hand_no": 1, "action": "fold"}, {"type": "act", "hand_no": 2, "action": "bet", "amount": 5}],
        "levels": [None, {"index": 0, "small_blind": 1, "big_blind": 2, "ante": None}],  # (ante: v3)
    }
    count = [0]
    assert structure(good, count) == Lists(
        pairs=(_Pair(low=1, high=2), _Pair(low=2, high=2)),
        acts=(m.Act(hand_no=1, action="fold"), m.Act(hand_no=2, action="bet", amount=5)),
        levels=(None, m.Level(index=0, small_blind=1, big_blind=2)),
    )
    assert count[0] == keys_in(good)
    value = structure(good, [0])
    back = compiled._Unstructurers(plain=True).get(Lists)(value)
    assert structure(back, [0]) == value
    assert back["pairs"] == good["pairs"] and back["levels"] == good["levels"]
    assert [a["type"] for a in back["acts"]] == ["act", "act"]
    for field, bad in (("pairs", [{"low": 3, "high": 2}]), ("acts", [{"type": "act", "hand_no": 1, "action": "bet"}]),
                       ("levels", ["x"]), ("levels", [{"index": -1, "small_blind": 1, "big_blind": 2}]),
                       ("acts", {"type": "act"}), ("pairs", [[1, 2]])):
        with pytest.raises(Exception):  # noqa: B017, PT011 - the fast path raises anything
            structure({**good, field: bad}, [0])
