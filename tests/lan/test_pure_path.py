"""The shared client's pure-Python paths agree with the compiled ones they stand in for.

``poker/pure_strength.py`` against phevaluator (through ``poker.evaluator.strength``) on
every 5-card hand class and on random 6- and 7-card hands; and ``poker.evaluator`` itself
with phevaluator, eval7 and orjson hidden, in a fresh interpreter.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

from poker.evaluator import COMPILED, evaluate, strength
from poker.pure_strength import pure_strength

ROOT = Path(__file__).resolve().parents[2]


def five_card_classes() -> list[list[int]]:
    """One hand of each of the 7462 classes: five ranks suited and not, and every multiset
    of ranks with a pair or more."""
    hands = []
    for ranks in itertools.combinations(range(13), 5):
        hands.append([r * 4 for r in ranks])
        hands.append([ranks[0] * 4 + 1] + [r * 4 for r in ranks[1:]])
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        counts = {r: ranks.count(r) for r in ranks}
        if 2 <= max(counts.values()) <= 4:
            hands.append([r * 4 + suit for r, k in counts.items() for suit in range(k)])
    return hands


def test_every_five_card_class_has_the_compiled_strength() -> None:
    assert COMPILED  # the test environment has phevaluator: this compares the two
    hands = five_card_classes()
    assert len({strength(h) for h in hands}) == 7462
    assert [pure_strength(h) for h in hands] == [strength(h) for h in hands]


def test_random_six_and_seven_card_hands_agree() -> None:
    rng = random.Random(28)
    for n in (6, 7):
        for _ in range(4000):
            cards = rng.sample(range(52), n)
            assert pure_strength(cards) == strength(cards), cards


def test_the_evaluator_without_compiled_packages() -> None:
    code = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("phevaluator", "eval7", "orjson"):
            raise ImportError("hidden: " + name)
sys.meta_path.insert(0, Hide())
import poker.evaluator as e, protocol.jsontext as j
print(e.COMPILED, j.BACKEND, e.evaluate([48, 49, 50, 44, 45, 0, 5]).name)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.split(None, 2) == ["False", "json", evaluate([48, 49, 50, 44, 45, 0, 5]).name + "\n"], out.stderr
