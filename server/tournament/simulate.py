"""A whole tournament in process, with random-policy players: ``simulate --tournament``.

The tables play concurrently the way the server will run them: every round each table
between hands deals if it may, then each table in a hand takes one action (round-robin, one
action at a time), so hands at different tables overlap, end at different moments, and
balancing and breaking really happen between one table's hands while others are mid-hand.
Time is virtual: each round is ``SECONDS_PER_ROUND`` of tournament time (it matters only
with levels by minutes: ``hands_per_level=None``).

After every hand the chip total is checked against the chips issued. ``deadline_hands``
ends the tournament as if the deadline passed as soon as a table has dealt that many hands
(the virtual clock jumps to the deadline): hands in progress finish, no new hand starts.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

from poker.actions import Ruleset
from poker.cards import seeded_rng
from poker.hand import Hand
from poker.policy import random_action

from .events import FinishReason, MoveReason, PlayerMoved, TournamentEvent, TournamentFinished
from .settings import Settings
from .standings import Standing
from .tournament import Tournament

SECONDS_PER_ROUND = 10.0
DEADLINE_AT = 1e12  # the virtual deadline ``deadline_hands`` jumps to

AfterHand = Callable[[Tournament, int, Hand, list[TournamentEvent]], None]


class ChipsNotConserved(AssertionError):
    """The chip total changed: a bug, never a game event."""


@attrs.frozen(kw_only=True)
class TournamentRun:
    seed: int
    settings: Settings
    players: int
    hands: int
    tables_at_start: int
    tables_broken: tuple[int, ...]
    balance_moves: int
    break_moves: int
    most_tables_in_hand: int  # how many tables were mid-hand at the same moment, at most
    chip_checks: int  # hands after which the chip total was checked (all passed, or raised)
    chips: int  # the total, every time
    level: int
    finished: TournamentFinished

    @property
    def standings(self) -> tuple[Standing, ...]:
        return self.finished.standings


def run_tournament(
    *,
    players: int = 40,
    seed: int = 0,
    seats: int = 9,
    hands_per_level: int | None = 20,
    deadline_hands: int | None = None,
    history_dir: Path | str | None = None,
    ruleset: Ruleset = Ruleset.HICKORY,
    settings: Settings | None = None,
    after_hand: AfterHand | None = None,
) -> TournamentRun:
    """Play a tournament to the end; raises ``ChipsNotConserved`` if a chip goes astray.
    ``settings``, when given, replaces ``seats``, ``hands_per_level`` and ``ruleset``."""
    if settings is None:
        settings = Settings(seats_per_table=seats, hands_per_level=hands_per_level, ruleset=ruleset)
    if deadline_hands is not None:
        settings = attrs.evolve(settings, deadline=DEADLINE_AT)
    out_dir = Path(history_dir) if history_dir is not None else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    t = Tournament(settings, seeded_rng(seed))
    policy = random.Random(f"{seed}/policy")
    for i in range(1, players + 1):
        t.register(f"p{i:03d}", f"Player {i}")
    now = 0.0
    events = t.start(now)
    tables_at_start = len(t.tables)
    hands: dict[int, Hand] = {}
    checks = most_busy = 0
    moves: list[PlayerMoved] = []

    def check_chips(hand: Hand | None = None, tid: int = 0) -> None:
        if t.total_chips() != t.chips_issued:
            where = "at the end" if hand is None else f"after hand #{hand.hand_no} at table {tid}"
            raise ChipsNotConserved(
                f"{where}: {t.total_chips()} chips instead of {t.chips_issued} "
                f"(in play {t.chips_in_play()}, adjustment {t.adjustment})"
            )

    order: list[int] = []  # the tables in a hand, in number order: sorted again when one changes
    while not t.finished:
        if len(hands) < len(t.tables):  # some table is between hands
            for tid in t.table_ids():
                if tid not in hands and t.can_deal(tid, now):
                    hands[tid], dealt = t.begin_hand(tid, now)
                    events += dealt
        if len(order) != len(hands):
            order = sorted(hands)
            most_busy = max(most_busy, len(hands))
        if not hands:
            raise RuntimeError(f"the simulation stalled: no table can deal ({t.why_not_deal(t.table_ids()[0], now)})")
        ended = False
        for tid in order:
            hand = hands[tid]
            legal = hand.legal_actions()
            if legal is not None:
                hand.act(legal.seat, random_action(legal, policy))
            if not hand.is_over:
                continue
            del hands[tid]
            ended = True
            if out_dir is not None:
                _write_history(out_dir, t, tid, hand)
            new = t.end_hand(tid, now)
            checks += 1
            check_chips(hand, tid)
            if deadline_hands is not None and not t.deadline_passed and t.hands_dealt_at(tid) >= deadline_hands:
                now = DEADLINE_AT
                new += t.tick(now)
            if after_hand is not None:
                after_hand(t, tid, hand, new)
            events += new
        if ended:
            order = sorted(hands)
        now += SECONDS_PER_ROUND
        events += t.tick(now)
    check_chips()
    for e in events:
        if isinstance(e, PlayerMoved):
            moves.append(e)
    assert t.result is not None
    return TournamentRun(
        seed=seed, settings=settings, players=players, hands=t.hands_dealt,
        tables_at_start=tables_at_start, tables_broken=tuple(t.broken_tables),
        balance_moves=sum(1 for m in moves if m.reason is MoveReason.BALANCE),
        break_moves=sum(1 for m in moves if m.reason is MoveReason.BREAK),
        most_tables_in_hand=most_busy, chip_checks=checks, chips=t.total_chips(),
        level=t.level, finished=t.result,
    )


def _write_history(out_dir: Path, t: Tournament, table_id: int, hand: Hand) -> None:
    from poker.history import HandInfo, to_phh

    table = t.table(table_id)
    names = {seat: t.name_of(p.player_id) for seat, p in table.seats.items()}
    settings = t.hand_settings(table_id)
    info = HandInfo(
        table_id=table_id, level=t.hand_level(table_id), players=names,
        seat_count=table.seat_count, ruleset=settings.ruleset, event=settings.name,
    )
    path = out_dir / f"hand-{hand.hand_no:05d}-table-{table_id}.phh"
    path.write_text(to_phh(hand.events, info), encoding="utf-8")


def format_run(run: TournamentRun) -> str:
    s = run.settings
    levels = f"{s.hands_per_level} hands per table" if s.hands_per_level else f"{s.level_minutes:g} minutes (virtual)"
    f = run.finished
    lines = [
        f"Tournament: {run.players} players, {run.tables_at_start} table(s) of {s.seats_per_table}, "
        f"{s.ruleset} rules, seed {run.seed}, levels of {levels}",
    ]
    if f.reason is FinishReason.WINNER:
        winner = next(x for x in f.standings if x.player_id == f.winner)
        lines.append(f"Winner: {winner.name} with all {winner.chips} chips after {run.hands} hands "
                     f"(level {run.level}); carried chips to the winner: {f.carry_to_winner}")
    else:
        lead = "a tie for first" if f.winner is None else f"first: {f.standings[0].name}"
        lines.append(f"Ended at the deadline after {run.hands} hands (level {run.level}): {lead}; "
                     f"carried chips belonging to no one: {f.unclaimed_carry}")
    broken = ", ".join(map(str, run.tables_broken)) or "none"
    lines.append(f"Tables broken: {len(run.tables_broken)} ({broken})")
    lines.append(f"Players moved: {run.balance_moves} to balance, {run.break_moves} from broken tables; "
                 f"up to {run.most_tables_in_hand} tables in a hand at once")
    lines.append(f"Chip conservation: ok after each of {run.chip_checks} hands "
                 f"(total {run.chips} = chips issued)")
    lines.append("Final standings:")
    for x in f.standings:
        note = f"{x.chips:>9} chips" if not x.eliminated else (
            "removed" if x.removed else f"out in hand #{x.hand_no}")
        lines.append(f"  {x.place:>3}  {x.name:<14} {note}")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``simulate --tournament`` (``--players`` and ``--seed`` included)."""
    parser.add_argument("--players", type=int, default=40, help="players registered (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="seed for seating, decks and the random players")
    parser.add_argument(
        "--ruleset", choices=[r.value for r in Ruleset], default=Ruleset.HICKORY.value,
        help="minimum raise rule (default hickory: every raise adds at least the big blind)",
    )
    add_tournament_options(parser)


def add_tournament_options(parser: argparse.ArgumentParser) -> None:
    """The options only ``--tournament`` has, for a parser that already has --players/--seed."""
    parser.add_argument("--seats", type=int, default=9, help="seats per table, 2 to 10 (default 9)")
    parser.add_argument("--hands-per-level", type=int, default=20,
                        help="hands per table in a level (default 20)")
    parser.add_argument("--deadline-hands", type=int, default=None,
                        help="end as if the deadline passed once a table has dealt K hands")
    parser.add_argument("--history-dir", type=Path, default=None, help="write every hand as PHH here")


def run_from_args(args: argparse.Namespace) -> int:
    run = run_tournament(
        players=args.players, seed=args.seed, seats=args.seats,
        hands_per_level=args.hands_per_level, deadline_hands=args.deadline_hands,
        history_dir=args.history_dir, ruleset=Ruleset(args.ruleset),
    )
    print(format_run(run))
    return 0


AddArguments = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]


def with_tournament_mode(add: AddArguments | None, run: Run | None) -> tuple[AddArguments, Run]:
    """Wrap the ``simulate`` subcommand (or stand in for it) so that ``--tournament`` plays a
    whole tournament. Options the plain simulation already has (``--players``, ``--seed``,
    ``--seats``...) are shared, the others added; without ``--tournament`` it runs as before."""

    def add_all(parser: argparse.ArgumentParser) -> None:
        if add is not None:
            add(parser)
        parser.add_argument("--tournament", action="store_true",
                            help="play a whole tournament over as many tables as needed")
        probe = argparse.ArgumentParser(add_help=False)
        add_arguments(probe)
        existing = set(parser._option_string_actions)
        for action in probe._actions:
            if not existing.intersection(action.option_strings):
                parser._add_action(action)

    def run_any(args: argparse.Namespace) -> int:
        if args.tournament or run is None:
            return run_from_args(args)
        return run(args)

    return add_all, run_any


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hickory-server simulate --tournament", description=__doc__)
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
