"""``hickory-server simulate``: one table of random-policy players, hand after hand.

It drives the real ``Table`` and ``Hand`` (no server, no network) to show the engine's
speed and that it loses no chip: stacks carry over from hand to hand, a busted player is
re-seated with a fresh starting stack so the table keeps going, and the blinds rise every
``hands_per_level`` hands along the default schedule. After every hand the chips on the
table (stacks plus the carried odd chips) must equal the chips brought in (the starting
stacks plus every re-buy).

One ``random.Random(seed)`` shuffles the decks and makes the players' choices, so a seed
always gives the same hands. The only clock read is for the hands-per-second figure, and
it never reaches a history.

``--tournament`` (a whole tournament over many tables) lives in
``server.tournament.simulate``, which wraps this subcommand's arguments and runner.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path

import attrs

from poker.actions import Ruleset
from poker.cards import shuffled_deck
from poker.hand import Hand
from poker.history import HandInfo, to_phh
from poker.levels import level_at
from poker.policy import random_action
from poker.table import Table

STARTING_STACK = 10_000
HANDS_PER_LEVEL = 50


class ChipsNotConserved(RuntimeError):
    """The table holds a different number of chips than were brought to it."""


@attrs.frozen(kw_only=True)
class SimulationConfig:
    hands: int
    players: int
    seed: int
    ruleset: Ruleset = Ruleset.HICKORY
    history_dir: Path | None = None
    starting_stack: int = STARTING_STACK
    hands_per_level: int = HANDS_PER_LEVEL
    table_id: int = 1
    event: str = "hickory-server simulate"

    def __attrs_post_init__(self) -> None:
        if not 2 <= self.players <= 10:
            raise ValueError(f"a table seats 2 to 10 players, not {self.players}")
        if self.hands < 0:
            raise ValueError("the number of hands cannot be negative")
        if self.starting_stack <= 0 or self.hands_per_level <= 0:
            raise ValueError("the starting stack and hands per level must be positive")


@attrs.frozen(kw_only=True)
class SimulationReport:
    config: SimulationConfig
    hands: int
    seconds: float
    starting_chips: int
    rebuys: int
    rebought_chips: int
    stacks: dict[int, int]
    carry: int
    showdowns: int
    checks: int  # chip-conservation checks passed (one per hand)

    @property
    def chips_now(self) -> int:
        return sum(self.stacks.values()) + self.carry

    @property
    def chips_in(self) -> int:
        return self.starting_chips + self.rebought_chips

    @property
    def conserved(self) -> bool:
        return self.chips_now == self.chips_in

    def rate_line(self) -> str:
        rate = self.hands / self.seconds if self.seconds > 0 else float("inf")
        return f"hands per second: {rate:,.0f} ({self.hands:,} hands in {self.seconds:.2f} s)"

    def conservation_line(self) -> str:
        verdict = (
            f"conserved after every hand ({self.checks:,} checks)"
            if self.conserved
            else "NOT CONSERVED"
        )
        return (
            f"chips: {self.starting_chips:,} at the start + {self.rebought_chips:,} re-bought "
            f"({self.rebuys:,} re-buys) = {self.chips_in:,}; at the end "
            f"{sum(self.stacks.values()):,} in stacks + {self.carry:,} carried = "
            f"{self.chips_now:,}: {verdict}"
        )

    def lines(self) -> list[str]:
        c = self.config
        level = _level_index(max(self.hands, 1), c)
        small_blind, big_blind = level_at(level)
        return [
            f"simulate: {self.hands:,} hands, {c.players} players, {c.ruleset} rules, "
            f"seed {c.seed}, blinds up every {c.hands_per_level} hands",
            f"showdowns: {self.showdowns:,}; last level {level + 1} ({small_blind:,}/{big_blind:,})",
            "stacks: " + ", ".join(f"seat {s} {st:,}" for s, st in sorted(self.stacks.items())),
            self.conservation_line(),
            self.rate_line(),
        ]


def _level_index(hand_no: int, config: SimulationConfig) -> int:
    return (hand_no - 1) // config.hands_per_level


def player_name(seat: int) -> str:
    return f"player{seat}"


def simulate_table(
    config: SimulationConfig,
    *,
    on_hand: Callable[[Hand, HandInfo], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SimulationReport:
    """Play ``config.hands`` hands at one table; check the chips after every hand.

    ``on_hand`` sees every finished hand with its ``HandInfo`` (the tests use it to
    referee the hands). Raises ``ChipsNotConserved`` the moment a hand loses or makes chips.
    """
    rng = random.Random(config.seed)
    table = Table(table_id=config.table_id, seat_count=config.players, ruleset=config.ruleset)
    for seat in range(1, config.players + 1):
        table.sit(seat, player_name(seat), config.starting_stack)
    names = {seat: player_name(seat) for seat in range(1, config.players + 1)}
    starting_chips = config.players * config.starting_stack
    rebuys = 0
    showdowns = 0
    if config.history_dir is not None:
        config.history_dir.mkdir(parents=True, exist_ok=True)

    started = clock()
    for hand_no in range(1, config.hands + 1):
        level = _level_index(hand_no, config)
        small_blind, big_blind = level_at(level)
        hand = table.start_hand(
            hand_no=hand_no, deck=shuffled_deck(rng), small_blind=small_blind,
            big_blind=big_blind,
        )
        legal = hand.legal_actions()
        while legal is not None:
            hand.act(legal.seat, random_action(legal, rng))
            legal = hand.legal_actions()
        assert hand.result is not None
        showdowns += hand.result.showdown
        if on_hand is not None or config.history_dir is not None:
            info = HandInfo(
                table_id=config.table_id, level=level + 1, players=names,
                seat_count=config.players, ruleset=config.ruleset, event=config.event,
            )
            if on_hand is not None:
                on_hand(hand, info)
            if config.history_dir is not None:
                path = config.history_dir / f"hand-{hand_no:06d}.phh"
                path.write_text(to_phh(hand.events, info), encoding="utf-8")
        for seat, _player, _stack in table.finish_hand():
            table.sit(seat, player_name(seat), config.starting_stack)
            rebuys += 1
        chips = table.total_chips()
        expected = starting_chips + rebuys * config.starting_stack
        if chips != expected:
            raise ChipsNotConserved(
                f"after hand #{hand_no} the table holds {chips:,} chips, "
                f"but {expected:,} were brought in"
            )
    seconds = clock() - started

    return SimulationReport(
        config=config,
        hands=config.hands,
        seconds=seconds,
        starting_chips=starting_chips,
        rebuys=rebuys,
        rebought_chips=rebuys * config.starting_stack,
        stacks={s: p.stack for s, p in table.seats.items()},
        carry=table.carry,
        showdowns=showdowns,
        checks=config.hands,
    )


# -- the subcommand ---------------------------------------------------------------------------


def _positive(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "Play hands at one table with random-policy players; check every chip."
    parser.add_argument("--hands", type=_positive, default=1000, help="hands to play (default 1000)")
    parser.add_argument("--players", type=int, default=6, help="players at the table, 2 to 10 (default 6)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the decks and the players (default 0)")
    parser.add_argument(
        "--ruleset", choices=[r.value for r in Ruleset], default=Ruleset.HICKORY.value,
        help="minimum raise rule (default hickory: every raise adds at least the big blind)",
    )
    parser.add_argument("--history-dir", type=Path, default=None, help="write every hand as PHH here")


def run_simulate(args: argparse.Namespace) -> int:
    try:
        config = SimulationConfig(
            hands=args.hands, players=args.players, seed=args.seed,
            ruleset=Ruleset(args.ruleset), history_dir=args.history_dir,
        )
    except ValueError as exc:
        print(f"hickory-server simulate: {exc}")
        return 2
    try:
        report = simulate_table(config)
    except ChipsNotConserved as exc:
        print(f"chips: NOT CONSERVED: {exc}")
        return 1
    for line in report.lines():
        print(line)
    return 0 if report.conserved else 1
