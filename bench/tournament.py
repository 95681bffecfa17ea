"""What the tournament layer costs on top of the engine: a 100-player simulated tournament
against the same hands played by the bare engine, in one run.

    python bench/tournament.py [--players 100] [--seed 0] [--tournaments 5] [--rounds 15]

The tournament side is ``simulate.run_tournament`` as it is: random-policy players, tables
playing concurrently, the chip total checked after every hand. Each tournament is also
played once, untimed, by a recorder that drives the same ``Tournament`` the same way but
draws each deck itself (the very draws ``begin_hand`` would make) and notes every hand's
inputs (seats and stacks, button, blinds, deck, carried chips, ruleset) and every action
chosen, in the order the tables took them. The recording is checked against a real run:
same result, and every replayed hand gives the very events the tournament's hand gave.

The engine sides play exactly those hands through ``Hand`` objects, with no tournament:

- engine: the single-table loop as ``bench/engine.py`` counts it, a shuffle before each
  deal (``cards.shuffled_deck``; its deck is set aside for the recorded one, so the cost is
  counted and the hands stay the tournament's) and ``random_action`` choosing, from a fresh
  RNG with the policy's seed, in the tables' interleaving, so it makes the same choices.
  Ratio = engine time / tournament time: shuffle and policy on both sides.
- bare engine: each hand alone with the recorded actions: no shuffle, no policy. Ratio =
  bare time / (tournament time - the policy's time), the policy's time being the same
  ``random_action`` calls on the recorded legal actions, timed alone. The stricter one:
  the tournament's shuffles count against it.

Target: tournament hands/s at least 80% of the engine's (ratio >= 0.80). Each round times
every side once per tournament, the sides in turns (the order alternating), so a busy spell
on the shared machine hits all sides. Printed by the wall clock and by this process's CPU
time (which leaves out waiting for a core): each side's best and median round, and the
median of the ratios taken within each round.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

# Run as ``python bench/tournament.py``, bench/ comes first on the path, where server.py (the
# server benchmark) would hide the ``server`` package: look in the repository first.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from targets import verdict  # noqa: E402 (bench/targets.py, beside this file)

from poker.actions import Action, LegalActions, Ruleset  # noqa: E402
from poker.cards import Card, seeded_rng, shuffled_deck  # noqa: E402
from poker.events import Event, HandStarted  # noqa: E402
from poker.hand import Hand  # noqa: E402
from poker.policy import random_action  # noqa: E402
from server.tournament import Tournament, TournamentFinished  # noqa: E402
from server.tournament.settings import Settings  # noqa: E402
from server.tournament.simulate import SECONDS_PER_ROUND, run_tournament  # noqa: E402

TARGET = 0.80


@attrs.frozen(kw_only=True)
class HandSpec:
    """Everything a ``Hand`` is made from."""

    hand_no: int
    seats: tuple[tuple[int, int], ...]
    button: int
    small_blind: int
    big_blind: int
    deck: tuple[Card, ...]
    carried_in: int
    ruleset: Ruleset

    def deal(self) -> Hand:
        return Hand(
            hand_no=self.hand_no, seats=self.seats, button=self.button,
            small_blind=self.small_blind, big_blind=self.big_blind, deck=self.deck,
            carried_in=self.carried_in, ruleset=self.ruleset,
        )


@attrs.define(kw_only=True)
class Recording:
    seed: int
    players: int
    hands: list[HandSpec] = attrs.Factory(list)
    actions: list[list[tuple[int, Action]]] = attrs.Factory(list)  # per hand, in order
    # The tables' interleaving: a hand's index when it is dealt, then again for each action.
    order: list[int] = attrs.Factory(list)
    legal: list[LegalActions] = attrs.Factory(list)  # what the policy saw, in order
    finished: TournamentFinished | None = None

    @property
    def action_count(self) -> int:
        return sum(len(a) for a in self.actions)


def record(players: int, seed: int) -> Recording:
    """Drive a tournament as ``run_tournament`` does, noting its hands and actions."""
    rec = Recording(seed=seed, players=players)
    t = Tournament(Settings(seats_per_table=9, hands_per_level=20), seeded_rng(seed))
    policy = random.Random(f"{seed}/policy")
    for i in range(1, players + 1):
        t.register(f"p{i:03d}", f"Player {i}")
    now = 0.0
    t.start(now)
    live: dict[int, tuple[int, Hand]] = {}
    while not t.finished:
        for tid in t.table_ids():
            if tid not in live and t.can_deal(tid, now):
                deck = shuffled_deck(t.rng)
                hand, _ = t.begin_hand(tid, now, deck=deck)
                started = hand.events[0]
                assert isinstance(started, HandStarted)
                index = len(rec.hands)
                rec.hands.append(HandSpec(
                    hand_no=started.hand_no, seats=started.stacks, button=started.button,
                    small_blind=started.small_blind, big_blind=started.big_blind,
                    deck=tuple(deck), carried_in=started.carried_in, ruleset=hand.ruleset,
                ))
                rec.actions.append([])
                rec.order.append(index)
                live[tid] = (index, hand)
        if not live:
            raise RuntimeError("the recorder stalled: no table can deal")
        for tid in sorted(live):
            index, hand = live[tid]
            legal = hand.legal_actions()
            if legal is not None:
                action = random_action(legal, policy)
                rec.legal.append(legal)
                rec.actions[index].append((legal.seat, action))
                rec.order.append(index)
                hand.act(legal.seat, action)
            if hand.is_over:
                del live[tid]
                t.end_hand(tid, now)
        now += SECONDS_PER_ROUND
        t.tick(now)
    rec.finished = t.result
    return rec


def verify(rec: Recording) -> None:
    """The recording is the tournament's: same result, and every hand replays to its events."""
    seen: list[list[Event]] = []
    run = run_tournament(
        players=rec.players, seed=rec.seed,
        after_hand=lambda t, tid, hand, new: seen.append(list(hand.events)),
    )
    assert run.hands == len(rec.hands) == len(seen), (run.hands, len(rec.hands), len(seen))
    assert run.finished == rec.finished, "the recorder's tournament ended differently"
    by_no = {events[0].hand_no: events for events in seen if isinstance(events[0], HandStarted)}
    for spec, actions in zip(rec.hands, rec.actions, strict=True):
        hand = spec.deal()
        for seat, action in actions:
            hand.act(seat, action)
        assert hand.is_over and hand.events == by_no[spec.hand_no], f"hand #{spec.hand_no} differs"
    played: list[Hand] = []
    engine(rec, played)
    assert len(played) == len(rec.hands)
    for hand in played:
        assert hand.events == by_no[hand.hand_no], f"hand #{hand.hand_no} differs with the policy"


# -- the timed sides ------------------------------------------------------------------


def engine(rec: Recording, keep: list[Hand] | None = None) -> None:
    """The same hands as a single-table loop plays them, interleaved as the tables played:
    a shuffle before each deal, the policy choosing again with its seed.

    A finished hand is dropped (into ``keep``, if given), as the tournament drops it."""
    specs = rec.hands
    policy = random.Random(f"{rec.seed}/policy")
    decks = random.Random(f"{rec.seed}/decks")
    hands: list[Hand | None] = []
    for i in rec.order:
        if i == len(hands):
            shuffled_deck(decks)  # the shuffle is counted; the recorded deck is dealt
            hand = specs[i].deal()
            hands.append(hand)
        else:
            playing = hands[i]
            assert playing is not None
            hand = playing
            legal = hand.legal_actions()
            assert legal is not None
            hand.act(legal.seat, random_action(legal, policy))
        if hand.is_over:
            hands[i] = None
            if keep is not None:
                keep.append(hand)


def bare_engine(rec: Recording) -> None:
    """Each hand on its own with the actions recorded: no tournament, shuffle or policy."""
    for spec, actions in zip(rec.hands, rec.actions, strict=True):
        hand = spec.deal()
        for seat, action in actions:
            hand.legal_actions()  # the tournament's loop asks before every action
            hand.act(seat, action)


def policy_alone(rec: Recording) -> None:
    """The policy's own time: its calls on the same legal actions with the same RNG."""
    policy = random.Random(f"{rec.seed}/policy")
    for legal in rec.legal:
        random_action(legal, policy)


SIDES: dict[str, Callable[[Recording], object]] = {
    "tournament": lambda rec: run_tournament(players=rec.players, seed=rec.seed),
    "engine": engine,
    "bare engine": bare_engine,
    "policy alone": policy_alone,
}


Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"wall": time.perf_counter, "cpu": time.process_time}


def time_rounds(recs: Sequence[Recording], rounds: int) -> dict[str, dict[str, list[float]]]:
    """Seconds per round for each side and clock, summed over the tournaments.

    Within a round the sides take turns for each tournament, in an order that alternates
    from round to round. The cpu clock (this process's CPU time) is shown beside the wall
    clock because the machine is shared: time spent waiting for a core is not ours."""
    times: dict[str, dict[str, list[float]]] = {c: {label: [] for label in SIDES} for c in CLOCKS}
    labels = list(SIDES)
    for r in range(rounds):
        total = {clock: dict.fromkeys(labels, 0.0) for clock in CLOCKS}
        for rec in recs:
            for label in labels if r % 2 == 0 else reversed(labels):
                gc.collect()
                wall, cpu = time.perf_counter(), time.process_time()
                SIDES[label](rec)
                total["cpu"][label] += time.process_time() - cpu
                total["wall"][label] += time.perf_counter() - wall
        for clock, sides in total.items():
            for label, seconds in sides.items():
                times[clock][label].append(seconds)
    return times


def report(times: dict[str, list[float]], pick: Callable[[list[float]], float], hands: int,
           tournaments: int) -> list[str]:
    """Lines for one clock and one way of picking a round."""
    t = {label: pick(v) for label, v in times.items()}
    tour, eng, bare, pol = t["tournament"], t["engine"], t["bare engine"], t["policy alone"]

    def row(label: str, seconds: float, ratio: float | None = None) -> str:
        line = (f"    {label:38s} {seconds / tournaments * 1e3:6.1f} ms per tournament "
                f"{hands / seconds:7,.0f} hands/s")
        if ratio is not None:
            line += f"   ratio {ratio:4.2f} {'ok' if ratio >= TARGET else 'BELOW'}"
        return line

    return [
        row("tournament (run_tournament)", tour),
        row("engine (shuffle, policy, same hands)", eng, eng / tour),
        row("tournament - policy", tour - pol),
        row("bare engine (same hands and actions)", bare, bare / (tour - pol)),
    ]


def round_ratios(times: dict[str, list[float]]) -> str:
    """Both ratios of each round, summarised: the sides of one round ran close together in
    time, so a slow spell of the machine cancels out of its ratio."""
    t = times
    with_policy = [e / tt for e, tt in zip(t["engine"], t["tournament"], strict=True)]
    strict = [
        b / (tt - p)
        for b, tt, p in zip(t["bare engine"], t["tournament"], t["policy alone"], strict=True)
    ]
    return "\n".join(
        f"    {label:38s} median {statistics.median(r):4.2f}   (from {min(r):4.2f} to {max(r):4.2f})"
        f"   {'ok' if statistics.median(r) >= TARGET else 'BELOW'}"
        for label, r in (("engine / tournament", with_policy),
                         ("bare engine / (tournament - policy)", strict))
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100, help="players per tournament (100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first tournament (0)")
    parser.add_argument("--tournaments", type=int, default=5,
                        help="tournaments per round, seeds from --seed on (5)")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds (15)")
    args = parser.parse_args(argv)

    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    recs = [record(args.players, args.seed + k) for k in range(args.tournaments)]
    for rec in recs:
        verify(rec)
    hands = sum(len(rec.hands) for rec in recs)
    actions = sum(rec.action_count for rec in recs)
    times = time_rounds(recs, args.rounds)

    seeds = f"{args.seed}..{args.seed + args.tournaments - 1}"
    print(f"{args.players} players, {args.tournaments} tournaments (seeds {seeds}): "
          f"{hands} hands ({', '.join(str(len(r.hands)) for r in recs)}), {actions} actions; "
          f"{args.rounds} rounds")
    for clock in CLOCKS:
        for name, pick in (("best", min), ("median", statistics.median)):
            print(f"  {clock} clock, {name} round of each side:")
            print("\n".join(report(times[clock], pick, hands, args.tournaments)))
        print(f"  {clock} clock, ratios within each round (the sides ran side by side):")
        print(round_ratios(times[clock]))
    cpu = times["cpu"]
    ratio = statistics.median(e / t for e, t in zip(cpu["engine"], cpu["tournament"], strict=True))
    verdict("tournament layer: engine time / tournament time, same hands", ratio, at_least=TARGET,
            against="the engine alone (CPU clock, median of the rounds' ratios)")


if __name__ == "__main__":
    main()
