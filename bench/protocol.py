"""Protocol codec cost per message: ours (typed, strict) vs bare orjson dicts, same run.

For a full nine-seat table snapshot and an ``act``, times encode + decode through
``protocol.codec`` against ``orjson.dumps`` + ``orjson.loads`` of the same content as plain
dicts, and prints microseconds per message and the ratio (issue 16 asked for 3x). Also shows
the standard-library fallback (no orjson) and the parts: encode, decode, stamp. The target
(issue 29): encode + decode within 1.1x of the codec's own floor, measured in the same
batches: orjson's parse, making the instances with no check, unstructure, orjson's dump.

Timings are the best of many short batches, the sides interleaved round by round, so a
busy machine spoils some batches of each side, not one side. Run: ``python bench/protocol.py [--quick]``.
"""

from __future__ import annotations

import os
import sys
import timeit
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Literal, get_origin

import attrs
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from targets import verdict  # noqa: E402 (bench/targets.py, beside this file)

from protocol import codec, compiled, jsontext  # noqa: E402
from protocol.examples import full_table_snapshot  # noqa: E402
from protocol.messages import LATEST_VERSION, Act, Card  # noqa: E402

FLOOR_TARGET = 1.1  # encode + decode at most 1.1x the floor with no checks (issue 29)
LATEST = LATEST_VERSION  # the newest protocol: every field of the message is on the line


def best_us(fn: Callable[[], Any], number: int, rounds: int) -> float:
    """Best per-call time over many short batches: a busy machine spoils some, not all."""
    return min(timeit.repeat(fn, number=number, repeat=rounds)) / number * 1e6


@contextmanager
def stdlib_backend() -> Iterator[None]:
    """The codec as if orjson were not installed (its fallback path)."""
    saved = codec._dumps, codec._loads_fast
    codec._dumps, codec._loads_fast = jsontext.dumps_json, None
    try:
        yield
    finally:
        codec._dumps, codec._loads_fast = saved


def interleaved(
    fns: dict[str, Callable[[], Any]], number: int, rounds: int, stdlib: set[str]
) -> dict[str, float]:
    best = {name: float("inf") for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            with stdlib_backend() if name in stdlib else nullcontext():
                best[name] = min(best[name], best_us(fn, number, 30))
    return best


def main() -> None:
    quick = "--quick" in sys.argv
    rounds = 3 if quick else 10
    snapshot = full_table_snapshot(your_seat=1)
    act = Act(id=17, table=1, hand_no=42, action="raise", amount=800)
    cases: list[tuple[str, Any, Callable[[bytes], Any], int]] = [
        ("table_snapshot (9 seats)", snapshot, codec.decode_server, 50),
        ("act", act, codec.decode_client, 500),
    ]
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    print(f"JSON backend: {jsontext.BACKEND}; best of {rounds * 30} batches; microseconds per message")
    print()
    header = f"{'message':26} {'bytes':>6} {'ours':>8} {'orjson':>8} {'ratio':>6}"
    print(header + f" {'stdlib':>8} {'ratio':>6} | {'encode':>7} {'decode':>7} {'stamp':>6}")
    ok = True
    for name, msg, decode, number in cases:
        body = codec.encode(msg, LATEST)
        plain = codec.unstructure(msg)
        assert decode(body) == msg
        assert orjson.loads(orjson.dumps(plain)) == plain

        def ours(msg: Any = msg, decode: Callable[[bytes], Any] = decode) -> Any:
            return decode(codec.encode(msg, LATEST))

        def bare(plain: Any = plain) -> Any:
            return orjson.loads(orjson.dumps(plain))

        def encode_only(msg: Any = msg) -> Any:
            return codec.encode(msg, LATEST)

        def decode_only(body: bytes = body, decode: Callable[[bytes], Any] = decode) -> Any:
            return decode(body)

        def stamp_only(body: bytes = body) -> Any:
            return codec.stamp(body, 123456)

        t = interleaved(
            {
                "ours": ours,
                "bare": bare,
                "stdlib": ours,
                "encode": encode_only,
                "decode": decode_only,
                "stamp": stamp_only,
            },
            number,
            rounds,
            stdlib={"stdlib"},
        )
        ratio = t["ours"] / t["bare"]
        ok = ok and ratio <= 3.0
        print(
            f"{name:26} {len(body):>6} {t['ours']:>8.2f} {t['bare']:>8.2f} {ratio:>5.1f}x"
            f" {t['stdlib']:>8.2f} {t['stdlib'] / t['bare']:>5.1f}x"
            f" | {t['encode']:>7.2f} {t['decode']:>7.2f} {t['stamp']:>6.2f}"
        )
    print()
    print("ours within 3x of bare orjson (issue 16's target):", "yes" if ok else "no")
    print()
    where_the_time_goes(cases, rounds)


CHECK_KINDS = ("int", "bool", "text", "literal", "card", "str")
"""The kinds of value check the generated structure functions make, by the field's type."""


def check_kind(typ: Any) -> str | None:
    """Which kind of value check ``_Structurers._check`` makes for ``typ`` (None: none,
    or a container whose items are checked by their own kind)."""
    if typ == Card:
        return "card"
    if compiled.text_of(typ) is not None:
        return "text"
    if typ is int or compiled.least_of(typ) is not None:
        return "int"
    if typ is bool:
        return "bool"
    if typ is str:
        return "str"
    if get_origin(typ) is Literal:
        return "literal"
    return None


class Without(compiled._Structurers):
    """The generated structure functions with the value checks of some kinds left out
    (all of them: what reading the dict and making the instances cost alone, one dict
    read and one descriptor call per field). The object checks (a dict, no unknown key,
    the key count) and a tuple of cards' one C-level subset test stay in every variant."""

    def __init__(self, skip: frozenset[str] = frozenset(CHECK_KINDS)) -> None:
        self.skip = skip
        super().__init__()

    def _check(self, typ: Any, var: str, indent: str) -> list[str]:
        if compiled.optional_inner(typ) is not None:
            inner = self._check(compiled.optional_inner(typ), var, indent + "    ")
            return [f"{indent}if {var} is not None:", *inner]
        if check_kind(typ) in self.skip:
            return [f"{indent}pass"]
        return super()._check(typ, var, indent)


UNCHECKED = Without().by_class
WITHOUT_KIND = {kind: Without(frozenset({kind})).by_class for kind in CHECK_KINDS}


def count_fields(obj: Any) -> int:
    if isinstance(obj, tuple):
        return sum(count_fields(x) for x in obj)
    if not attrs.has(type(obj)):
        return 0
    return sum(1 + count_fields(getattr(obj, f.name)) for f in attrs.fields(type(obj)))


def count_kinds(obj: Any, typ: Any = None, into: dict[str, int] | None = None) -> dict[str, int]:
    """How many values of each check kind a message holds (a None checks nothing)."""
    into = {kind: 0 for kind in CHECK_KINDS} if into is None else into
    if obj is None:
        return into
    typ = type(obj) if typ is None else typ
    if compiled.optional_inner(typ) is not None:
        typ = compiled.optional_inner(typ)
    kind = check_kind(typ)
    if kind is not None:
        into[kind] += 1
    elif compiled.tuple_item(typ) is not None:
        if check_kind(compiled.tuple_item(typ)) in ("card", "literal"):
            return into  # one C-level subset test for the whole list, in every variant
        for item in obj:
            count_kinds(item, compiled.tuple_item(typ), into)
    elif attrs.has(type(obj)):
        for f in attrs.fields(attrs.resolve_types(type(obj))):
            count_kinds(getattr(obj, f.name), f.type, into)
    return into


def where_the_time_goes(cases: list[tuple[str, Any, Callable[[bytes], Any], int]], rounds: int) -> bool:
    """Where the time goes, and the floors it is judged against.

    The decode side split into its parts (the encode side is the unstructure function and
    orjson.dumps): orjson's parse, the structure function, and within it the cost of making
    the instances alone (the same generated functions without the value checks, which the
    structure function cannot avoid in pure Python: one dict read and one descriptor call
    per field). The target's floor is the sum of those parts, each timed alone.

    Two more floors are timed as one pass each, the way the codec runs: the same work
    done in one call, one part after the other, costs more than the sum of the parts
    timed alone in tight loops (the caches and the branch predictor see one part at a
    time there). "no checks, one pass": ``unchecked(loads(dumps(unstructure(msg))))``, a
    codec doing the same encoding and decoding with no checks; "strict, one pass": the
    same with the checks and the duplicate-key count, everything ours does but the
    dispatch (looking up the functions, two API calls). Then the checks by kind: the
    structure function with one kind of check left out."""
    print("where the time goes, microseconds per message (best of the same batches):")
    ok = True
    loads, dumps = orjson.loads, orjson.dumps
    for name, msg, decode, number in cases:
        body = codec.encode(msg, LATEST)
        obj = orjson.loads(body)
        structure = compiled.STRUCTURE[type(msg)]
        unstructure = compiled.UNSTRUCTURE_WIRE[type(msg)]
        unchecked = UNCHECKED[type(msg)]
        plain = unstructure(msg)

        def strict_pass(msg: Any = msg, structure: Any = structure, unstructure: Any = unstructure) -> Any:
            line = dumps(unstructure(msg))
            n = [0]
            out = structure(loads(line), n)
            if line.count(b":") != n[0]:
                raise AssertionError("duplicate keys")
            return out

        fns: dict[str, Callable[[], Any]] = {
            "ours": lambda msg=msg, decode=decode: decode(codec.encode(msg, LATEST)),
            "orjson.loads": lambda body=body: orjson.loads(body),
            "structure": lambda obj=obj, structure=structure: structure(obj, [0]),
            "instances alone": lambda obj=obj, unchecked=unchecked: unchecked(obj, [0]),
            "colon count": lambda body=body: body.count(b":"),
            "unstructure": lambda msg=msg, unstructure=unstructure: unstructure(msg),
            "orjson.dumps": lambda plain=plain: orjson.dumps(plain),
            "no checks, one pass": lambda msg=msg, u=unstructure, s=unchecked: s(loads(dumps(u(msg))), [0]),
            "strict, one pass": strict_pass,
        }
        for kind in CHECK_KINDS:
            without = WITHOUT_KIND[kind][type(msg)]
            fns[f"without {kind}"] = lambda obj=obj, without=without: without(obj, [0])
        t = interleaved(fns, number, rounds, stdlib=set())
        fields = count_fields(msg)
        print(f"  {name}: {fields} fields. decode: orjson.loads {t['orjson.loads']:.2f}, structure "
              f"{t['structure']:.2f} ({t['structure'] / fields * 1000:.0f} ns a field; making the instances "
              f"alone {t['instances alone']:.2f}), colon count {t['colon count']:.2f}. encode: unstructure "
              f"{t['unstructure']:.2f}, orjson.dumps {t['orjson.dumps']:.2f}")
        kinds = count_kinds(msg)
        checks = t["structure"] - t["instances alone"]
        shares = ", ".join(
            f"{kind} {t['structure'] - t[f'without {kind}']:.2f} ({kinds[kind]} values)"
            for kind in CHECK_KINDS if kinds[kind]
        )
        print(f"    the value checks {checks:.2f} us (structure - instances alone), by kind "
              f"(structure - structure without that kind): {shares}")
        # What no amount of checking code can go under: parse, build the instances (one
        # descriptor call per field), walk them back to dicts, serialise.
        floor = t["orjson.loads"] + t["instances alone"] + t["unstructure"] + t["orjson.dumps"]
        print(f"    floor without any check or dispatch (the sum of the parts): {floor:.2f} us, "
              f"{floor / (t['orjson.loads'] + t['orjson.dumps']):.1f}x bare orjson; ours {t['ours']:.2f} us")
        one_pass, strict = t["no checks, one pass"], t["strict, one pass"]
        print(f"    one pass: no checks {one_pass:.2f} us, strict (checks and count, no dispatch) "
              f"{strict:.2f} us ({strict / one_pass:.2f}x); ours / no checks {t['ours'] / one_pass:.2f}x, "
              f"ours / strict {t['ours'] / strict:.2f}x (the dispatch)")
        ok = verdict(f"codec, {name}: encode + decode / its floor with no checks", t["ours"] / floor,
                     at_most=FLOOR_TARGET, against=f"the floor ({t['ours']:.2f} vs {floor:.2f} us)") and ok
    return ok


if __name__ == "__main__":
    main()
