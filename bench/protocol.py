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
from typing import Any

import attrs
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from targets import verdict  # noqa: E402 (bench/targets.py, beside this file)

from protocol import codec, compiled, jsontext  # noqa: E402
from protocol.examples import full_table_snapshot  # noqa: E402
from protocol.messages import Act  # noqa: E402

FLOOR_TARGET = 1.1  # encode + decode at most 1.1x the floor with no checks (issue 29)
LATEST = compiled.LATEST_VERSION  # the newest protocol: every field of the message is on the line


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


class Unchecked(compiled._Structurers):
    """The generated structure functions without the value checks: what reading the dict
    and making the instances cost alone (one descriptor call per field)."""

    def _check(self, typ: Any, var: str, indent: str) -> list[str]:
        if compiled.optional_inner(typ) is not None:
            inner = self._check(compiled.optional_inner(typ), var, indent + "    ")
            return [f"{indent}if {var} is not None:", *inner]
        if compiled.tuple_item(typ) is not None or attrs.has(typ) or typ is compiled.Command:
            return super()._check(typ, var, indent)
        return [f"{indent}pass"]


UNCHECKED = Unchecked().by_class


def count_fields(obj: Any) -> int:
    if isinstance(obj, tuple):
        return sum(count_fields(x) for x in obj)
    if not attrs.has(type(obj)):
        return 0
    return sum(1 + count_fields(getattr(obj, f.name)) for f in attrs.fields(type(obj)))


def where_the_time_goes(cases: list[tuple[str, Any, Callable[[bytes], Any], int]], rounds: int) -> bool:
    """The decode side split into its parts (the encode side is the unstructure function and
    orjson.dumps): orjson's parse, the structure function, and within it the cost of making
    the instances alone (the same generated functions without the value checks, which the
    structure function cannot avoid in pure Python: one dict read and one descriptor call
    per field)."""
    print("where the time goes, microseconds per message (best of the same batches):")
    ok = True
    for name, msg, decode, number in cases:
        body = codec.encode(msg, LATEST)
        obj = orjson.loads(body)
        structure = compiled.STRUCTURE[type(msg)]
        unstructure = compiled.UNSTRUCTURE_WIRE[type(msg)]
        unchecked = UNCHECKED[type(msg)]
        plain = unstructure(msg)
        t = interleaved({
            "ours": lambda msg=msg, decode=decode: decode(codec.encode(msg, LATEST)),
            "orjson.loads": lambda body=body: orjson.loads(body),
            "structure": lambda obj=obj, structure=structure: structure(obj, [0]),
            "instances alone": lambda obj=obj, unchecked=unchecked: unchecked(obj, [0]),
            "colon count": lambda body=body: body.count(b":"),
            "unstructure": lambda msg=msg, unstructure=unstructure: unstructure(msg),
            "orjson.dumps": lambda plain=plain: orjson.dumps(plain),
        }, number, rounds, stdlib=set())
        fields = count_fields(msg)
        print(f"  {name}: {fields} fields. decode: orjson.loads {t['orjson.loads']:.2f}, structure "
              f"{t['structure']:.2f} ({t['structure'] / fields * 1000:.0f} ns a field; making the instances "
              f"alone {t['instances alone']:.2f}), colon count {t['colon count']:.2f}. encode: unstructure "
              f"{t['unstructure']:.2f}, orjson.dumps {t['orjson.dumps']:.2f}")
        # What no amount of checking code can go under: parse, build the instances (one
        # descriptor call per field), walk them back to dicts, serialise.
        floor = t["orjson.loads"] + t["instances alone"] + t["unstructure"] + t["orjson.dumps"]
        print(f"    floor without any check or dispatch: {floor:.2f} us, "
              f"{floor / (t['orjson.loads'] + t['orjson.dumps']):.1f}x bare orjson; ours {t['ours']:.2f} us")
        ok = verdict(f"codec, {name}: encode + decode / its floor with no checks", t["ours"] / floor,
                     at_most=FLOOR_TARGET, against=f"the floor ({t['ours']:.2f} vs {floor:.2f} us)") and ok
    return ok


if __name__ == "__main__":
    main()
