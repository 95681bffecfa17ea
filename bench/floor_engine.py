"""The floor of ``bench/engine.py``: our engine's very hands, with the rules' answers given.

    .venv/bin/python bench/floor_engine.py [--hands 4000] [--pokerkit-hands 100] [--rounds 3]   (about 40 s)

bench/engine.py times our engine (``Hand``, a shuffle a hand, ``policy.random_action``
choosing) against pokerkit playing the same kind of hands. The floor plays exactly our
engine's hands and decisions with the least work that is left once the rules have been
answered: before anything is timed, our engine plays every hand and each decision's
``LegalActions`` is kept. Timed, the floor shuffles a deck per hand (``shuffled_deck``, the
same draws), asks ``random_action`` with the same RNG for each decision on the kept legal
actions (so it draws and chooses what ours did), and keeps the chips in plain lists: the
blinds, each action's chips, the street's bets, the uncalled bet returned, the pots by
contribution levels, the showdown by ``evaluator.strength7``, the odd chips carried. No
turn found, no validation, no legal actions worked out, no events. An untimed pass checks
that the floor ends every hand with the engine's stacks and carried chips.

Printed by CPU time, the three sides alternating in each round as bench/engine.py's two
do: ours / pokerkit (bench/engine.py's target, at least 50), floor / pokerkit (what an
engine reaches when finding whose turn it is and what they may do costs nothing), ours /
floor. Lines start with ``FLOOR``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))

from engine import BIG_BLIND, PLAYERS, SMALL_BLIND, STACK, arguments, ours, theirs  # noqa: E402 (bench/engine.py)

from poker.actions import ActionKind, LegalActions, Ruleset  # noqa: E402
from poker.cards import shuffled_deck  # noqa: E402
from poker.evaluator import strength7  # noqa: E402
from poker.events import HandStarted  # noqa: E402
from poker.hand import Hand  # noqa: E402
from poker.policy import random_action  # noqa: E402

Spec = tuple[int, int, int, list[LegalActions], list[int], tuple[tuple[int, int], ...], int]
"""One hand: button, small and big blind seats, each decision's legal actions and street
number, and the engine's final stacks and carried chips (for the check)."""

_STREET = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}
_FOLD, _CHECK, _CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL


def record(hands: int, rounds: int, seed: int) -> list[list[Spec]]:
    """Our engine's hands, round by round, as bench/engine.py's ``ours`` plays them."""
    rng = random.Random(seed)
    seats = [(s, STACK) for s in range(1, PLAYERS + 1)]
    out: list[list[Spec]] = []
    for _ in range(rounds):
        specs: list[Spec] = []
        for n in range(hands):
            hand = Hand(hand_no=n + 1, seats=seats, button=n % PLAYERS + 1, small_blind=SMALL_BLIND,
                        big_blind=BIG_BLIND, deck=shuffled_deck(rng), ruleset=Ruleset.STANDARD)
            started = hand.events[0]
            assert isinstance(started, HandStarted)
            legals: list[LegalActions] = []
            streets: list[int] = []
            legal = hand.legal_actions()
            while legal is not None:
                legals.append(legal)
                streets.append(_STREET[hand.street])
                hand.act(legal.seat, random_action(legal, rng))
                legal = hand.legal_actions()
            assert hand.result is not None
            specs.append((started.button, started.small_blind_seat, started.big_blind_seat, legals, streets,
                          hand.result.stacks, hand.result.carried_out))
        out.append(specs)
    return out


def floor(specs: Sequence[Spec], rng: random.Random, check: bool = False) -> int:
    """Play ``specs`` with the rules' answers given; the decisions made."""
    decisions = 0
    n = PLAYERS
    for button, small, big, legals, streets, final, carried_out in specs:
        deck = shuffled_deck(rng)
        stack = [STACK] * (n + 1)  # by seat; seat 0 unused
        bet = [0] * (n + 1)
        put = [0] * (n + 1)  # committed this hand
        folded = [False] * (n + 1)
        for seat, blind in ((small, SMALL_BLIND), (big, BIG_BLIND)):
            stack[seat] -= blind
            bet[seat] = put[seat] = blind
        street = 0
        for legal, st in zip(legals, streets, strict=True):
            if st != street:
                _return_uncalled(bet, put, stack)
                bet = [0] * (n + 1)
                street = st
            action = random_action(legal, rng)
            seat, kind = legal.seat, action.kind
            if kind is _FOLD:
                folded[seat] = True
            elif kind is not _CHECK:  # a call, or a bet or raise to an amount
                chips = (legal.call or 0) if kind is _CALL else (action.amount or 0) - legal.bet
                stack[seat] -= chips
                bet[seat] += chips
                put[seat] += chips
            decisions += 1
        _return_uncalled(bet, put, stack)
        carried = _award(deck, button, put, folded, stack)
        if check:
            assert tuple((s, stack[s]) for s in range(1, n + 1)) == final and carried == carried_out, \
                "the floor ended a hand otherwise than the engine"
    return decisions


def _return_uncalled(bet: list[int], put: list[int], stack: list[int]) -> None:
    """The part of the highest bet nobody matched goes back (the first such seat)."""
    top = second = 0
    who = 0
    for s in range(1, len(bet)):
        b = bet[s]
        if b > top:
            top, second, who = b, top, s
        elif b > second:
            second = b
    if top > second:
        back = top - second
        bet[who] -= back
        put[who] -= back
        stack[who] += back


def _award(deck: list[int], button: int, put: list[int], folded: list[bool], stack: list[int]) -> int:
    """The pots to their winners; the odd chips carried."""
    n = len(put) - 1
    live = [s for s in range(1, n + 1) if not folded[s]]
    if len(live) == 1:
        stack[live[0]] += sum(put)
        return 0
    # Hole cards one at a time from the left of the button; a burn before each street.
    order = [(button + i - 1) % n + 1 for i in range(1, n + 1)]
    board = (deck[2 * n + 1], deck[2 * n + 2], deck[2 * n + 3], deck[2 * n + 5], deck[2 * n + 7])
    strength = {s: strength7((deck[i], deck[n + i], *board)) for i, s in enumerate(order) if not folded[s]}
    carried = previous = 0
    for level in sorted({put[s] for s in live if put[s] > 0}):
        amount = sum(min(c, level) - min(c, previous) for c in put)
        eligible = [s for s in live if put[s] >= level]
        best = max(strength[s] for s in eligible)
        winners = [s for s in eligible if strength[s] == best]
        share = amount // len(winners)
        for s in winners:
            stack[s] += share
        carried += amount - share * len(winners)
        previous = level
    return carried


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__.splitlines()[0], argv)
    specs = record(args.hands, args.rounds, args.seed)
    check_rng = random.Random(args.seed)
    for round_specs in specs:
        floor(round_specs, check_rng, check=True)  # untimed: the floor's hands are the engine's
    random.seed(args.seed)  # pokerkit shuffles with the global random
    rngs = {side: random.Random(args.seed) for side in ("ours", "pokerkit", "floor")}
    seconds = dict.fromkeys(rngs, 0.0)
    hands = dict.fromkeys(rngs, 0)
    for r in range(args.rounds):
        for side in ("ours", "pokerkit", "floor") if r % 2 == 0 else ("floor", "pokerkit", "ours"):
            start = time.process_time()
            if side == "ours":
                ours(args.hands, rngs[side])
            elif side == "pokerkit":
                theirs(args.pokerkit_hands, rngs[side])
            else:
                floor(specs[r], rngs[side])
            seconds[side] += time.process_time() - start
            hands[side] += args.pokerkit_hands if side == "pokerkit" else args.hands
    rate = {side: hands[side] / seconds[side] for side in seconds}
    for side in ("ours", "floor", "pokerkit"):
        print(f"  {side:9} {rate[side]:9,.0f} hands/s ({hands[side]:,} hands, {seconds[side]:.2f} s CPU)")
    print(f"FLOOR engine: ours / pokerkit {rate['ours'] / rate['pokerkit']:.1f}x, floor / pokerkit "
          f"{rate['floor'] / rate['pokerkit']:.1f}x (the rules' answers free), ours / floor "
          f"{rate['ours'] / rate['floor']:.2f} (CPU clock, {args.rounds} rounds; load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
