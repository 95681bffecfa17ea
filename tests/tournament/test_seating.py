"""Seating at the start, and the balancing rule of interpretation 7 as data (seating.py).

The property tests bust random players one at a time (at 2 to 10 seats per table) and apply
the rule's steps on a model of the tables, some of them in a hand: the rule never takes a
player from a table in a hand, never breaks a table while the players do not fit in one
fewer, never loses or doubles a player, and once every table is between hands leaves no
table two or more players short of another.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from poker.cards import seeded_rng
from poker.table import Table
from server.tournament.seating import (
    BreakTable,
    MoveOne,
    Seating,
    TableLoad,
    fits_in_fewer,
    initial_seating,
    next_step,
    spread_target,
    table_count,
)
from tests.budget import examples


def loads(*counts: int, busy: tuple[int, ...] = ()) -> list[TableLoad]:
    return [TableLoad(table_id=i, players=c, idle=i not in busy) for i, c in enumerate(counts, start=1)]


def test_as_many_tables_as_needed_and_no_more() -> None:
    assert table_count(9, 9) == 1
    assert table_count(10, 9) == 2
    assert table_count(40, 9) == 5
    assert table_count(2, 2) == 1
    assert table_count(21, 10) == 3


def test_random_seating_fills_tables_evenly_with_every_player_once() -> None:
    players = [f"p{i}" for i in range(40)]
    tables = initial_seating(players, 9, seeded_rng(3))
    assert sorted(len(t) for t in tables.values()) == [8, 8, 8, 8, 8]
    seated = [p for t in tables.values() for p in t.values()]
    assert sorted(seated) == sorted(players)
    assert all(1 <= s <= 9 for t in tables.values() for s in t)


def test_random_seating_depends_on_the_rng() -> None:
    players = [f"p{i}" for i in range(20)]
    assert initial_seating(players, 9, seeded_rng(1)) == initial_seating(players, 9, seeded_rng(1))
    assert initial_seating(players, 9, seeded_rng(1)) != initial_seating(players, 9, seeded_rng(2))


def test_a_table_two_short_gets_the_largest_tables_player() -> None:
    assert next_step(loads(9, 7, 8), 9) == MoveOne(from_table=1, to_table=2)


def test_of_several_largest_tables_the_highest_numbered_gives_the_player() -> None:
    """docs/rules.md section 7 (TDA: a predetermined procedure): the same order in which
    tables break, so the final table is the lowest-numbered one."""
    assert next_step(loads(6, 6, 4), 6) == MoveOne(from_table=2, to_table=3)
    assert next_step(loads(6, 4, 6, 6), 6) == MoveOne(from_table=4, to_table=2)
    # Only a largest table between hands gives a player: of the others, the highest.
    assert next_step(loads(6, 4, 6, 6, busy=(4,)), 6) == MoveOne(from_table=3, to_table=2)


def test_of_several_shortest_tables_the_lowest_numbered_gets_the_player() -> None:
    assert next_step(loads(4, 6, 4), 6) == MoveOne(from_table=2, to_table=1)
    assert next_step(loads(6, 4, 6, 4), 6) == MoveOne(from_table=3, to_table=2)


def test_one_short_is_balanced() -> None:
    assert next_step(loads(9, 8, 8), 9) is None


def test_a_largest_table_in_a_hand_gives_no_player_until_it_ends() -> None:
    assert next_step(loads(9, 7, 8, busy=(1,)), 9) is None
    assert next_step(loads(9, 7, 9, busy=(1,)), 9) == MoveOne(from_table=3, to_table=2)


def test_the_short_table_may_be_in_a_hand_the_player_waits_for_it() -> None:
    assert next_step(loads(9, 7, 8, busy=(2,)), 9) == MoveOne(from_table=1, to_table=2)


def test_when_the_players_fit_in_one_fewer_table_the_smallest_breaks() -> None:
    assert next_step(loads(6, 5, 6), 9) == BreakTable(table_id=2)


def test_a_table_does_not_break_while_the_players_do_not_fit_in_one_fewer() -> None:
    assert not fits_in_fewer(loads(7, 6, 6), 9)  # 19 players, 18 seats at two tables
    assert next_step(loads(7, 6, 6), 9) is None


def test_the_break_waits_for_the_smallest_table_to_end_its_hand() -> None:
    assert next_step(loads(6, 3, 6, busy=(2,)), 9) is None
    # Of two smallest tables, one between hands breaks now (the highest number first).
    assert next_step(loads(6, 3, 3, busy=(2,)), 9) == BreakTable(table_id=3)
    assert next_step(loads(6, 3, 3), 9) == BreakTable(table_id=3)


def test_a_broken_tables_players_go_to_the_table_with_the_fewest() -> None:
    assert spread_target(loads(7, 5, 6), 9) == 2
    assert spread_target(loads(9, 9), 9) is None


def _apply(tables: dict[int, list[str]], seats: int, busy: set[int]) -> list[str]:
    """Run the rule to a standstill on the model; what it did, checked step by step."""
    log: list[str] = []
    while True:
        model = [TableLoad(table_id=t, players=len(p), idle=t not in busy) for t, p in tables.items()]
        step = next_step(model, seats)
        if step is None:
            return log
        if isinstance(step, BreakTable):
            assert fits_in_fewer(model, seats), f"broke a table while {model} do not fit in one fewer"
            assert step.table_id not in busy
            leaving = tables.pop(step.table_id)
            for p in leaving:
                rest = [TableLoad(table_id=t, players=len(q), idle=t not in busy) for t, q in tables.items()]
                target = spread_target(rest, seats)
                assert target is not None
                tables[target].append(p)
            log.append(f"break {step.table_id}")
        else:
            assert step.from_table not in busy, "took a player from a table in a hand"
            assert len(tables[step.to_table]) < seats
            tables[step.to_table].append(tables[step.from_table].pop(0))
            log.append(f"move {step.from_table}->{step.to_table}")


def test_a_moved_player_never_takes_a_seat_that_waits_while_another_is_free() -> None:
    """``Seating.put`` draws among the free seats where the arrival is dealt in at once
    (``Table.dealt_at_once``) whenever there is one, however few seats are free (two
    included: one free seat is the seat either way), with or without earlier arrivals
    still waiting for the big blind."""
    chose_among_few = 0
    for seed in range(300):
        rng = random.Random(seed)
        seating = Seating(seeded_rng(seed), who=str)
        table = seating.tables[1] = Table(table_id=1, seat_count=9)
        taken = sorted(rng.sample(range(1, 10), rng.randint(3, 7)))
        for s in taken:
            table.sit(s, f"p{s}", 1000)
        table.button = rng.choice(taken)  # as the last hand left it
        for s in rng.sample([s for s in range(1, 10) if s not in taken], rng.randint(0, 1)):
            table.sit(s, f"a{s}", 1000, arriving=True)  # an earlier arrival, awaiting the big blind
        free = seating.free_seats(1)
        at_once = table.dealt_at_once(free)
        seat, waiting = seating.put("new", 1000, 1, None)
        assert not waiting and seat in (at_once or free), (seed, free, at_once, seat)
        chose_among_few += 0 < len(at_once) < len(free) <= 2
    assert chose_among_few >= 10  # the case where a shortcut could go wrong came up


@settings(max_examples=examples(300), deadline=None)
@given(
    seats=st.integers(2, 10),
    players=st.integers(2, 90),
    seed=st.integers(0, 2**32),
    busy_chance=st.sampled_from([0.0, 0.3, 0.7]),
)
def test_balancing_over_random_bust_sequences(seats: int, players: int, seed: int, busy_chance: float) -> None:
    rng = random.Random(seed)
    everyone = [f"p{i}" for i in range(players)]
    tables = {t: list(s.values()) for t, s in initial_seating(everyone, seats, rng).items()}
    alive = set(everyone)
    while len(alive) > 1:
        # A bust at a random table, while a random set of tables is mid-hand.
        loser = rng.choice(sorted(alive))
        alive.remove(loser)
        for ps in tables.values():
            if loser in ps:
                ps.remove(loser)
        busy = {t for t in tables if rng.random() < busy_chance}
        _apply(tables, seats, busy)
        # Then every hand ends: balance completes.
        _apply(tables, seats, set())
        seated = [p for ps in tables.values() for p in ps]
        assert sorted(seated) == sorted(alive), "a player was lost or seated twice"
        assert all(len(ps) <= seats for ps in tables.values())
        counts = [len(ps) for ps in tables.values()]
        assert max(counts) - min(counts) <= 1, counts
        model = [TableLoad(table_id=t, players=len(p), idle=True) for t, p in tables.items()]
        assert not fits_in_fewer(model, seats), counts
    assert len(tables) == 1
