"""Registration, the start and the blind schedule refuse what cannot be, each with a
message the host or the director can act on (docs/testing.md: mutants of these messages
and bounds lived)."""

from __future__ import annotations

import pytest

from poker.cards import seeded_rng
from poker.limits import MAX_CHIPS
from server.tournament import Director, Settings, Tournament, TournamentError

from .helpers import started


def refused(call: object, *args: object) -> str:
    with pytest.raises(TournamentError) as info:
        call(*args)  # type: ignore[operator]
    return str(info.value)


def test_registration_refuses_with_what_is_wrong() -> None:
    t = Tournament(Settings(seats_per_table=2), seeded_rng(1))
    t.register("p1", "Ann")
    assert refused(t.register, "", "Bob") == "a player needs an id (text), not ''"
    assert refused(t.register, 7, "Bob") == "a player needs an id (text), not 7"
    assert refused(t.register, "p1", "Ann again") == "Ann (player p1) is already registered"
    assert refused(t.register, "p2", 5) == "a player's name is text, not 5"
    assert refused(t.register, "p2", "   ") == "a player needs a name"
    t.register("p2", "Bob")
    t.start(0.0)
    assert refused(t.start, 1.0) == "the tournament has already started"
    assert refused(t.register, "p3", "Cy") == "registration is closed: the tournament has started"
    Director(t).late_registration(1.0, 1, reason="friends")
    assert refused(t.register, "p3", "Cy") == "every seat is taken: a late entry waits for a free seat"
    t.tick(20 * 60.0)
    assert refused(t.register, "p3", "Cy") == "late registration closed at the end of level 1"


def test_the_start_refuses_too_few_players_and_too_many_chips() -> None:
    t = Tournament(Settings(), seeded_rng(1))
    t.register("p1", "Ann")
    assert refused(t.start, 0.0) == "a tournament needs at least 2 players; 1 registered"
    assert refused(t.start, "now") == "the start time is a number of seconds, not 'now'"
    exact = Tournament(Settings(starting_stack=MAX_CHIPS // 2), seeded_rng(1))
    exact.register("p1", "Ann")
    exact.register("p2", "Bob")
    exact.start(0.0)  # every chip the limit allows, and no more: it starts
    over = Tournament(Settings(starting_stack=MAX_CHIPS // 2 + 1), seeded_rng(1))
    over.register("p1", "Ann")
    over.register("p2", "Bob")
    assert refused(over.start, 0.0) == (
        f"2 players with {MAX_CHIPS // 2 + 1} chips each would put {2 * (MAX_CHIPS // 2 + 1)} chips in play, "
        f"above the limit of {MAX_CHIPS}: lower the starting stack")


def test_a_late_entry_that_would_pass_the_chip_limit_is_refused() -> None:
    t = started(2, starting_stack=MAX_CHIPS // 3)
    Director(t).late_registration(1.0, 1, reason="one more")
    t.register("p03", "P03")  # three stacks: within the limit
    assert refused(t.register, "p04", "P04") == (
        f"another {MAX_CHIPS // 3} chips would put more than {MAX_CHIPS} chips in play")


def test_the_blind_schedule_and_the_seats_refuse_what_cannot_be() -> None:
    def schedule(levels: object) -> str:
        return refused(lambda: Settings(schedule=levels))

    assert schedule([]) == "a blind schedule needs at least one level"
    assert schedule([(100, 200), (100, 200)]) == (
        "level 2 (100/200) after level 1 (100/200): blinds rise level by level "
        "(a higher big blind, a small blind no lower)")
    assert schedule([(100, 200), (300, 400), (200, 600)]) == (
        "level 3 (200/600) after level 2 (300/400): blinds rise level by level "
        "(a higher big blind, a small blind no lower)")
    assert schedule([(100, 200), (1, MAX_CHIPS + 1)]).startswith("level 2 (1/")
    assert Settings(schedule=[(100, 200), (100, 400), (1_000, MAX_CHIPS)]).schedule[-1] == (1_000, MAX_CHIPS)
    assert Settings(seats_per_table=10).seats_per_table == 10
    assert Settings(seats_per_table=2).seats_per_table == 2
    for bad in (11, 1, "9", 2.5):
        assert refused(lambda b=bad: Settings(seats_per_table=b)) == f"seats per table must be 2 to 10, not {bad!r}"


def test_the_start_says_who_sits_where_and_a_single_table_is_the_final_table() -> None:
    from server.tournament import FinalTable, PlayerSeated, TournamentStarted

    for players, seats, tables in ((3, 9, 1), (6, 4, 2)):
        t = Tournament(Settings(seats_per_table=seats), seeded_rng(1))
        for i in range(1, players + 1):
            t.register(f"p{i}", f"P{i}")
        events = t.start(5.0)
        assert events[0] == TournamentStarted(at=5.0, players=players, tables=tables, seats_per_table=seats,
                                              starting_stack=10_000, level=1, small_blind=100, big_blind=200)
        seated = {(e.player_id, e.table_id, e.seat) for e in events if isinstance(e, PlayerSeated)}
        loc = {(p, t.location(p).table_id, t.location(p).seat) for p in t.players_in()}  # type: ignore[union-attr]
        assert seated == loc and len(seated) == players
        finals = [e for e in events if isinstance(e, FinalTable)]
        assert finals == ([FinalTable(table_id=1, players=tuple(p for _, p in sorted(
            (s, pl.player_id) for s, pl in t.table(1).seats.items())))] if tables == 1 else [])
