"""6-player hands per second: our engine next to pokerkit, same random policy, one run.

    python bench/engine.py [--hands N] [--pokerkit-hands M] [--rounds R] [--seed S]

Each side plays whole hands of six players with 10,000 chips each at 100/200, from a new
shuffled deck to the last chip pushed, with the decisions of ``poker.policy``:
fold 18% when facing a bet, else raise 30% when a raise is allowed (the minimum, a random
size, or all-in), else check or call. For pokerkit the same logic reads its own queries
(``can_fold``, ``can_complete_bet_or_raise_to``, the min and max raise-to). pokerkit runs
with every non-decision step automated (blinds, dealing, burning, showdown, pushing
chips), the quickest way it can be driven. Both play the ``standard`` raise rule (pokerkit's
own), so the hands have the same shape (the decisions per hand are printed to show it).

The shuffle is counted for both: ours shuffles with ``cards.shuffled_deck`` (Fisher-Yates
on a ``random.Random``), pokerkit with ``random.shuffle`` when it creates a state. The
sides take turns for R rounds and the rates are CPU time (``time.process_time``), so other
work on a busy machine does not count against either. Nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pokerkit

# Run as ``python bench/engine.py``, bench/ comes first on the path, where server.py (the
# server benchmark) would hide the ``server`` package: look in the repository first.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from targets import verdict  # noqa: E402 (bench/targets.py, beside this file)

from poker.actions import Ruleset  # noqa: E402
from poker.cards import shuffled_deck  # noqa: E402
from poker.hand import Hand  # noqa: E402
from poker.policy import raise_size, random_action  # noqa: E402

PLAYERS = 6
STACK = 10_000
SMALL_BLIND, BIG_BLIND = 100, 200

_PK_AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_DEALING,
    pokerkit.Automation.BOARD_DEALING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


TARGET = 50.0  # hands per second against pokerkit's on the same kind of hands (issue 29)


def ours(hands: int, rng: random.Random) -> int:
    """Play ``hands`` hands; return the decisions made (to show both sides did work)."""
    decisions = 0
    seats = [(s, STACK) for s in range(1, PLAYERS + 1)]
    for n in range(hands):
        hand = Hand(
            hand_no=n + 1, seats=seats, button=n % PLAYERS + 1, small_blind=SMALL_BLIND,
            big_blind=BIG_BLIND, deck=shuffled_deck(rng), ruleset=Ruleset.STANDARD,
        )
        legal = hand.legal_actions()
        while legal is not None:
            hand.act(legal.seat, random_action(legal, rng))
            decisions += 1
            legal = hand.legal_actions()
    return decisions


def pokerkit_action(state: pokerkit.State, rng: random.Random) -> None:
    """``policy.random_action``'s choice, made from pokerkit's own queries."""
    roll = rng.random()
    if roll < 0.18 and state.can_fold():
        state.fold()
        return
    if roll > 0.70 and state.can_complete_bet_or_raise_to():
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        assert lo is not None and hi is not None
        state.complete_bet_or_raise_to(raise_size(roll, lo, hi, rng))
        return
    state.check_or_call()


def theirs(hands: int, rng: random.Random) -> int:
    decisions = 0
    for _ in range(hands):
        state = pokerkit.NoLimitTexasHoldem.create_state(
            _PK_AUTOMATIONS, False, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND,
            (STACK,) * PLAYERS, PLAYERS, mode=pokerkit.Mode.TOURNAMENT,
        )
        while state.status:
            pokerkit_action(state, rng)
            decisions += 1
    return decisions


def timed(run: Callable[[int, random.Random], int], hands: int, rng: random.Random) -> tuple[float, int]:
    start = time.process_time()
    decisions = run(hands, rng)
    return time.process_time() - start, decisions


def arguments(description: str, argv: Sequence[str] | None) -> argparse.Namespace:
    """The sides' sizes and seed (bench/floor_engine.py takes the same), after printing the
    load: the machine is shared."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--hands", type=int, default=4000, help="our hands per round (4000)")
    parser.add_argument("--pokerkit-hands", type=int, default=100, help="pokerkit hands per round (100)")
    parser.add_argument("--rounds", type=int, default=3, help="turns each side takes (3)")
    parser.add_argument("--seed", type=int, default=1, help="seed for decks and decisions (1)")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__.splitlines()[0], argv)
    random.seed(args.seed)  # pokerkit shuffles with the global random
    rng_ours, rng_theirs = random.Random(args.seed), random.Random(args.seed)
    totals = {"hickory": [0.0, 0, 0], "pokerkit": [0.0, 0, 0]}
    for _ in range(args.rounds):
        for label, run, hands, rng in (
            ("hickory", ours, args.hands, rng_ours),
            ("pokerkit", theirs, args.pokerkit_hands, rng_theirs),
        ):
            seconds, decisions = timed(run, hands, rng)
            totals[label][0] += seconds
            totals[label][1] += hands
            totals[label][2] += decisions
    rates = {}
    for label, (seconds, hands, decisions) in totals.items():
        rates[label] = hands / seconds
        print(
            f"{label:>8}: {rates[label]:10,.0f} hands/s  ({hands:,} hands, "
            f"{decisions / hands:.1f} decisions a hand, {seconds:.2f} s CPU)"
        )
    ratio = rates["hickory"] / rates["pokerkit"]
    print(f"   ratio: {ratio:10.1f}x pokerkit")
    verdict("engine hands/s against pokerkit's, same hands", ratio, at_least=TARGET, against="pokerkit")


if __name__ == "__main__":
    main()
