"""Protocol codec cost per message: ours (typed, strict) vs bare orjson dicts, same run.

For a full nine-seat table snapshot and an ``act``, times encode + decode through
``protocol.codec`` against ``orjson.dumps`` + ``orjson.loads`` of the same content as plain
dicts, and prints microseconds per message and the ratio (target: within 3x). Also shows
the standard-library fallback (no orjson) and the parts: encode, decode, stamp.

Timings are the best of many short batches, the sides interleaved round by round, so a
busy machine spoils some batches of each side, not one side. Run: ``python bench/protocol.py [--quick]``.
"""

from __future__ import annotations

import sys
import timeit
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol import codec, jsontext  # noqa: E402
from protocol.examples import full_table_snapshot  # noqa: E402
from protocol.messages import Act  # noqa: E402


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
    print(f"JSON backend: {jsontext.BACKEND}; best of {rounds * 30} batches; microseconds per message")
    print()
    header = f"{'message':26} {'bytes':>6} {'ours':>8} {'orjson':>8} {'ratio':>6}"
    print(header + f" {'stdlib':>8} {'ratio':>6} | {'encode':>7} {'decode':>7} {'stamp':>6}")
    ok = True
    for name, msg, decode, number in cases:
        body = codec.encode(msg)
        plain = codec.unstructure(msg)
        assert decode(body) == msg
        assert orjson.loads(orjson.dumps(plain)) == plain

        def ours(msg: Any = msg, decode: Callable[[bytes], Any] = decode) -> Any:
            return decode(codec.encode(msg))

        def bare(plain: Any = plain) -> Any:
            return orjson.loads(orjson.dumps(plain))

        def encode_only(msg: Any = msg) -> Any:
            return codec.encode(msg)

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
    print("target (ours within 3x of bare orjson):", "met" if ok else "NOT met")


if __name__ == "__main__":
    main()
