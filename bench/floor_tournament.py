"""The floor of ``bench/tournament.py``: the engine plus only what a tournament must keep.

    .venv/bin/python bench/floor_tournament.py [--tournaments 5] [--rounds 15]   (about 15 s)

bench/tournament.py compares ``run_tournament`` with the engine playing the same hands
(shuffle, policy, the tables' interleaving). The floor plays those hands the same way (a
shuffle before each deal, ``random_action`` with the policy's seed) and does, around each
hand, only the bookkeeping no tournament can skip, in plain dicts:

- at the start: the entrants registered (a dict) and the seat draw (``initial_seating``
  with the tournament's RNG, as ``Tournament.start`` draws it);
- at the deal: the seats and stacks dealt in (from the stacks it carried), the button (the
  next seat after the last one; an arrival waits rather than skip the big blind; heads-up
  nobody posts the big blind twice), the blinds and ante of the level, the table's carried chips;
- at the hand's end: every stack carried from the hand's result, the carried chips, the
  busted players unseated and placed, the level counted (``hands_per_level`` times the
  tables), whether the tables are out of balance (the counts' spread, and whether they fit
  in one table fewer), and the moves and breaks the tournament made after that hand
  (recorded from it: who went where; the floor applies them, it does not choose them).

What the floor does not do: ask ``can_deal`` of every table every round, keep ``Table``
and ``SeatedPlayer`` objects, choose whom to move and where (``arrival_seat`` asks
``would_wait`` of every free seat), check the chips after every hand, events for the
room, the clock's ticks. An untimed pass checks that the floor
deals exactly the tournament's hands (seats, stacks, button, blinds, carried chips);
the few its rules get wrong (a heads-up table with an arrival) are dealt from a table of
fix-ups the check made (one dict lookup per deal), and counted.

Printed by the CPU clock, within each round: engine / tournament (bench/tournament.py's
target ratio), engine / floor (the best a tournament layer could reach: the target is
reachable only if this is above it), floor / tournament. Lines start with ``FLOOR``.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poker.cards import seeded_rng, shuffled_deck  # noqa: E402
from poker.hand import Hand  # noqa: E402
from poker.policy import random_action  # noqa: E402
from server.tournament import Tournament  # noqa: E402
from server.tournament import events as tev  # noqa: E402
from server.tournament.seating import initial_seating  # noqa: E402
from server.tournament.settings import Settings  # noqa: E402
from server.tournament.simulate import run_tournament  # noqa: E402

SETTINGS = Settings(seats_per_table=9, hands_per_level=20)  # bench/tournament.py's record()


def load_bench_tournament() -> Any:
    spec = importlib.util.spec_from_file_location("bench_tournament", ROOT / "bench" / "tournament.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Script:
    """What the floor needs from the tournament beyond bench/tournament.py's recording: the
    table of each hand, the seating at the start, and what happened after each hand."""

    def __init__(self) -> None:
        self.tables: list[int] = []  # hand index -> table id
        self.start: dict[int, dict[int, str]] = {}  # table -> seat -> player, at the start
        self.stacks: dict[str, int] = {}
        # hand index -> (moves: (player, from table, from seat, to table, to seat, on the way),
        #                breaks: (table, carry, carry to))
        self.after: dict[int, tuple[list[tuple[str, int, int, int, int, bool]], list[tuple[int, int, int | None]]]] = {}
        self.fixups: dict[int, Any] = {}  # hand index -> the recorded HandSpec (the floor's rule differs)


def record(tb: Any, players: int, seed: int) -> tuple[Any, Script]:
    """bench/tournament.py's ``record``, noting also each hand's table and what each
    ``end_hand`` moved (Tournament's methods wrapped for the call)."""
    script = Script()
    current: dict[int, int] = {}
    names = ("start", "begin_hand", "end_hand", "tick")
    originals = tuple(getattr(Tournament, name) for name in names)

    def start(t: Tournament, now: float) -> Any:
        events = originals[0](t, now)
        for tid, table in t.tables.items():
            script.start[tid] = {s: p.player_id for s, p in table.seats.items()}
            for p in table.seats.values():
                script.stacks[p.player_id] = p.stack
        return events

    def begin_hand(t: Tournament, tid: int, now: float, **kw: Any) -> Any:
        current[tid] = len(script.tables)
        script.tables.append(tid)
        return originals[1](t, tid, now, **kw)

    def end_hand(t: Tournament, tid: int, now: float) -> Any:
        events = originals[2](t, tid, now)
        moves = [(e.player_id, e.from_table, e.from_seat, e.to_table, e.to_seat, e.on_the_way)
                 for e in events if isinstance(e, tev.PlayerMoved)]
        breaks = [(e.table_id, e.carry, e.carry_to) for e in events if isinstance(e, tev.TableBroken)]
        script.after[current[tid]] = (moves, breaks)
        return events

    def tick(t: Tournament, now: float) -> Any:
        events = originals[3](t, now)
        assert not any(isinstance(e, (tev.PlayerMoved, tev.TableBroken)) for e in events)
        return events

    for name, wrapped in zip(names, (start, begin_hand, end_hand, tick), strict=True):
        setattr(Tournament, name, wrapped)
    try:
        rec = tb.record(players, seed)
    finally:
        for name, original in zip(names, originals, strict=True):
            setattr(Tournament, name, original)
    return rec, script


def around(dealt: list[int], last: int | None, last_big: str | None, at: dict[int, str]) -> tuple[int, int]:
    """The button and big blind seats of a hand dealt to ``dealt`` (sorted)."""
    if last is None:
        b = dealt[0]
    else:
        b = next((s for s in dealt if s > last), dealt[0])
        if len(dealt) == 2 and last_big is not None:
            for s in dealt:
                if at[s] == last_big:
                    b = s
    i = dealt.index(b)
    return (b, dealt[1 - i]) if len(dealt) == 2 else (b, dealt[(i + 2) % len(dealt)])


class Mismatch(Exception):
    """The floor's deal of this hand index is not the tournament's."""


def floor(rec: Any, script: Script, check: bool = False) -> None:
    """The engine's loop (as bench/tournament.py's ``engine``) with the tournament's
    unavoidable bookkeeping around each hand. ``check``: compare each deal made by the
    floor's own rule (seats, stacks, button, blinds, carried chips) with the
    tournament's, and raise ``Mismatch`` at the first that differs."""
    policy = random.Random(f"{rec.seed}/policy")
    decks = random.Random(f"{rec.seed}/decks")
    # Registration and the seat draw (the tournament's own draw: the same RNG, the same seats).
    entrants = {f"p{k:03d}": f"Player {k}" for k in range(1, rec.players + 1)}
    seats = initial_seating(list(entrants), SETTINGS.seats_per_table, seeded_rng(rec.seed))
    stacks = dict.fromkeys(entrants, SETTINGS.starting_stack)
    if check and (seats != script.start or stacks != script.stacks):
        raise RuntimeError("the floor's seat draw is not the tournament's")
    incoming: dict[int, list[tuple[int, str]]] = {}
    button: dict[int, int] = {}
    last_big: dict[int, str] = {}  # who posted the last big blind, per table
    waiting: dict[int, set[int]] = {}  # arrivals' seats, per table, not dealt in yet
    carry = dict.fromkeys(seats, 0)
    placed: list[str] = []
    level = counted = 0
    hpl = SETTINGS.hands_per_level
    assert hpl is not None
    last_level = SETTINGS.last_level
    blinds, ante = SETTINGS.blinds(0), SETTINGS.ante(0)
    specs, tables, after, fixups = rec.hands, script.tables, script.after, script.fixups
    ruleset = SETTINGS.ruleset
    hands: list[Hand | None] = []
    for i in rec.order:
        if i == len(hands):
            shuffled_deck(decks)  # counted, as on the engine side; the recorded deck is dealt
            tid = tables[i]
            at = seats[tid]
            # Who is dealt in, the button and the blinds (poker/table.py's rules: an arrival
            # never skips the big blind; heads-up, nobody posts the big blind twice running).
            wait = waiting.get(tid)
            last = button.get(tid)
            dealt = sorted(at)
            b, big = around(dealt, last, last_big.get(tid), at)
            if wait:
                wait.intersection_update(at)
                seated = [x for x in dealt if x not in wait]
                while wait and len(seated) >= 2:
                    small = b if len(dealt) == 2 else dealt[(dealt.index(b) + 1) % len(dealt)]
                    skipping = [x for x in (b, small) if x in wait]
                    if not skipping:
                        break
                    if len(seated) == 2:  # heads-up: the button where the arrivals skip nothing
                        for x in seated:
                            j = dealt.index(x)
                            small, other = (x, dealt[1 - j]) if len(dealt) == 2 else \
                                (dealt[(j + 1) % len(dealt)], dealt[(j + 2) % len(dealt)])
                            if x not in wait and small not in wait:
                                skipping = []
                                b, big = x, other
                                break
                        if not skipping:
                            break
                    dealt.remove(skipping[0])
                    b, big = around(dealt, last, last_big.get(tid), at)
            fix = fixups.get(i)
            if fix is None:
                hand = Hand(hand_no=i + 1, seats=[(s, stacks[at[s]]) for s in dealt], button=b,
                            small_blind=blinds[0], big_blind=blinds[1], deck=specs[i].deck,
                            carried_in=carry[tid], ruleset=ruleset, ante=ante)
            else:
                b = fix.button
                hand = fix.deal()
                dealt = [x for x, _ in fix.seats]
                big = hand.big_blind_seat
            if check and fix is None:
                spec = specs[i]
                if ((tuple((s, stacks[at[s]]) for s in dealt), b, blinds, carry[tid])
                        != (spec.seats, spec.button, (spec.small_blind, spec.big_blind), spec.carried_in)):
                    raise Mismatch(i)
            carry[tid] = 0
            button[tid] = b
            last_big[tid] = at[big]
            if wait:
                wait.difference_update(dealt)
            hands.append(hand)
        else:
            playing = hands[i]
            assert playing is not None
            hand = playing
            legal = hand.legal_actions()
            assert legal is not None
            hand.act(legal.seat, random_action(legal, policy))
        if not hand.is_over:
            continue
        hands[i] = None
        # The hand's end: stacks carried, busts unseated and placed, the level, the balance.
        tid = tables[i]
        at = seats[tid]
        result = hand.result
        assert result is not None
        for s, stack in result.stacks:
            stacks[at[s]] = stack
        carry[tid] += result.carried_out
        for s in [s for s, p in at.items() if not stacks[p]]:
            placed.append(at.pop(s))
            if tid in waiting:
                waiting[tid].discard(s)
        counted += 1
        if counted >= hpl * len(seats) and level < last_level:
            level, counted = level + 1, 0
            blinds, ante = SETTINGS.blinds(level), SETTINGS.ante(level)
        for s, p in incoming.pop(tid, ()):
            at[s] = p
            waiting.setdefault(tid, set()).add(s)
        counts = [len(x) + len(incoming.get(t, ())) for t, x in seats.items()]
        _ = max(counts) - min(counts) > 1 or sum(counts) <= SETTINGS.seats_per_table * (len(counts) - 1)
        moved = after.get(i)
        if moved is not None:
            for player, from_t, from_s, to_t, to_s, on_the_way in moved[0]:
                if from_s in seats[from_t] and seats[from_t][from_s] == player:
                    del seats[from_t][from_s]
                    waiting.get(from_t, set()).discard(from_s)
                else:  # moved again while on the way
                    incoming[from_t] = [a for a in incoming[from_t] if a[1] != player]
                if on_the_way:
                    incoming.setdefault(to_t, []).append((to_s, player))
                else:
                    seats[to_t][to_s] = player
                    if to_t in button:  # the table has dealt: they wait for the big blind
                        waiting.setdefault(to_t, set()).add(to_s)
            for broken, chips, to in moved[1]:
                del seats[broken]
                if to is not None:
                    carry[to] += chips
                carry.pop(broken, None)


def make_fixups(rec: Any, script: Script) -> int:
    """Check the floor's deals against the tournament's; the hands it gets wrong are dealt
    from the recording (a wrong hand changes every hand after it: check again from there)."""
    for _ in range(len(rec.hands) + 1):
        try:
            floor(rec, script, check=True)
        except Mismatch as wrong:
            script.fixups[wrong.args[0]] = rec.hands[wrong.args[0]]
            continue
        return len(script.fixups)
    raise RuntimeError("the floor does not converge on the tournament's hands")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=100, help="players per tournament (100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first tournament (0)")
    p.add_argument("--tournaments", type=int, default=5, help="tournaments per round (5)")
    p.add_argument("--rounds", type=int, default=15, help="timed rounds (15)")
    args = p.parse_args()
    tb = load_bench_tournament()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    recorded = [record(tb, args.players, args.seed + k) for k in range(args.tournaments)]
    fixed = 0
    for rec, script in recorded:
        tb.verify(rec)
        fixed += make_fixups(rec, script)
    hands = sum(len(rec.hands) for rec, _ in recorded)
    print(f"{args.players} players, {args.tournaments} tournaments: {hands} hands; the floor deals "
          f"{hands - fixed} of them by its own rule and {fixed} from the fix-ups")
    sides = {
        "tournament": lambda rec, script: run_tournament(players=rec.players, seed=rec.seed),
        "engine": lambda rec, script: tb.engine(rec),
        "floor": floor,
    }
    times: dict[str, list[float]] = {s: [] for s in sides}
    for r in range(max(1, args.rounds)):
        total = dict.fromkeys(sides, 0.0)
        for rec, script in recorded:
            for side in (list(sides) if r % 2 == 0 else list(reversed(sides))):
                gc.collect()
                cpu = time.process_time()
                sides[side](rec, script)  # type: ignore[no-untyped-call]
                total[side] += time.process_time() - cpu
        for side, seconds in total.items():
            times[side].append(seconds)

    def ratio(a: str, b: str) -> float:
        return statistics.median(x / y for x, y in zip(times[a], times[b], strict=True))

    for side, values in times.items():
        print(f"  {side:10s} median {statistics.median(values) / args.tournaments * 1e3:6.2f} ms CPU per tournament "
              f"({hands / statistics.median(values):7,.0f} hands/s)")
    print(f"FLOOR tournament: engine / tournament {ratio('engine', 'tournament'):.2f}, engine / floor "
          f"{ratio('engine', 'floor'):.2f} (the best a tournament layer reaches), floor / tournament "
          f"{ratio('floor', 'tournament'):.2f} (CPU clock, median of the rounds' ratios; load "
          f"{os.getloadavg()[0]:.2f})", flush=True)


if __name__ == "__main__":
    main()
