"""How fast we evaluate 7-card hands, next to eval7 and treys, on the same hands in one run.

    python bench/evaluator.py [--hands N] [--repeat R] [--seed S]

Each library gets the hands already in its own card form (conversion is not timed for the
libraries, but is part of our cost: our callers hold int cards). Each rate is the best of R
runs, taken in turns, since the machine may be busy. Nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import eval7
from phevaluator._pheval import evaluate_7cards
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

# bench/ is first on the path when a script here runs, and bench/server.py would shadow
# the server package: put the repository first.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from targets import verdict  # noqa: E402 (bench/targets.py, beside this file)

from poker.cards import FULL_DECK, card_str  # noqa: E402
from poker.evaluator import evaluate, strength, strength7  # noqa: E402


def best_rates(runs: dict[str, Callable[[], None]], count: int, repeat: int) -> dict[str, float]:
    """Evaluations per second of each run's fastest of ``repeat`` tries.

    The runs take turns within each round, so a burst of load elsewhere on the machine hits
    them all alike instead of whichever happened to be running.
    """
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for label, run in runs.items():
            start = time.perf_counter()
            run()
            best[label] = min(best[label], time.perf_counter() - start)
    return {label: count / seconds for label, seconds in best.items()}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="7-card hands (200000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per evaluator, best kept (3)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the hands (1)")
    args = parser.parse_args(argv)
    n: int = args.hands

    rng = random.Random(args.seed)
    hands = [tuple(rng.sample(FULL_DECK, 7)) for _ in range(n)]
    e7_cards = [eval7.Card(card_str(c)) for c in FULL_DECK]
    e7_hands = [[e7_cards[c] for c in h] for h in hands]
    treys_cards = [TreysCard.new(card_str(c)) for c in FULL_DECK]
    treys_holes = [[treys_cards[c] for c in h[:2]] for h in hands]
    treys_boards = [[treys_cards[c] for c in h[2:]] for h in hands]
    treys = TreysEvaluator()

    # Same numbers from every path of ours and from eval7 itself.
    ours = [strength7(h) for h in hands]
    assert ours == [strength(h) for h in hands] == [eval7.evaluate(h) for h in e7_hands]
    assert ours[: n // 100] == [evaluate(h).strength for h in hands[: n // 100]]

    def run_strength7() -> None:
        for h in hands:
            strength7(h)

    def run_strength() -> None:
        for h in hands:
            strength(h)

    def run_evaluate() -> None:
        for h in hands:
            evaluate(h)

    def run_eval7() -> None:
        e7 = eval7.evaluate
        for h in e7_hands:
            e7(h)

    def run_pheval() -> None:
        ph = evaluate_7cards
        for h in hands:
            ph(*h)

    def run_treys() -> None:
        ev = treys.evaluate
        for hole, board in zip(treys_holes, treys_boards, strict=True):
            ev(hole, board)

    runs = {
        "ours: strength7 (fast path)": run_strength7,
        "ours: strength (5-7 cards)": run_strength,
        "ours: evaluate (full HandValue)": run_evaluate,
        "eval7.evaluate on eval7 Cards": run_eval7,
        "phevaluator 7 cards (its rank only)": run_pheval,
        "treys Evaluator.evaluate": run_treys,
    }
    rates = best_rates(runs, n, args.repeat)

    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    print(f"{n:,} random 7-card hands, seed {args.seed}, best of {args.repeat}")
    for label, rate in rates.items():
        print(f"  {label:34s} {rate:>12,.0f} /s")
    fast = rates["ours: strength7 (fast path)"]
    full = rates["ours: evaluate (full HandValue)"]
    e7_rate = rates["eval7.evaluate on eval7 Cards"]
    treys_rate = rates["treys Evaluator.evaluate"]
    ph_rate = rates["phevaluator 7 cards (its rank only)"]
    print(f"  strength7 / eval7   {fast / e7_rate:6.2f}")
    verdict("evaluator: strength7 per second", fast / e7_rate, at_least=1.0, against="eval7, same hands")
    print(f"  strength7 / phevaluator alone {fast / ph_rate:6.2f}  (our table lookup and call on top)")
    print(f"  strength7 / treys   {fast / treys_rate:6.2f}")
    print(f"  evaluate  / eval7   {full / e7_rate:6.2f}")
    print(f"  evaluate  / treys   {full / treys_rate:6.2f}")


if __name__ == "__main__":
    main()
