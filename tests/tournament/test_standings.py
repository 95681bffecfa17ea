"""Eliminations, places and the end (interpretation 6), on stacked decks.

Stacks are arranged with the director's chip transfers (which keep the total), then a hand
where the aces hold busts exactly the players named.
"""

from __future__ import annotations

from server.tournament import (
    DeadlinePassed,
    FinishReason,
    PlayerEliminated,
    TournamentFinished,
)
from server.tournament.director import Director
from server.tournament.standings import place_busts, rank_by_chips

from .helpers import act_once, bust, check_chips, player_at, shove, stacked_deck, started


def stacks(t, **chips):  # type: ignore[no-untyped-def]
    """Set stacks by transfers from/to the first player named (keeps the total)."""
    first, *rest = chips
    for pid in rest:
        delta = chips[pid] - t.stack_of(pid)
        if delta > 0:
            Director(t).transfer_chips(0.0, first, pid, delta, reason="test setup")
        elif delta < 0:
            Director(t).transfer_chips(0.0, pid, first, -delta, reason="test setup")
    assert all(t.stack_of(p) == c for p, c in chips.items())


def places(t):  # type: ignore[no-untyped-def]
    return [(s.place, s.player_id) for s in t.standings()]


def test_place_busts_by_starting_stack_with_ties_sharing() -> None:
    assert place_busts([("a", 300), ("b", 900), ("c", 300)], remaining_after=5) == [
        ("b", 6), ("a", 7), ("c", 7),
    ]
    assert rank_by_chips([("a", 5), ("b", 9), ("c", 5), ("d", 1)]) == [
        (1, "b", 9), (2, "a", 5), (2, "c", 5), (4, "d", 1),
    ]


def test_busted_in_one_hand_the_bigger_starting_stack_places_higher() -> None:
    t = started(4)
    stacks(t, p01=16000, p02=12000, p03=8000, p04=4000)
    _, events = bust(t, 1, "p01", ["p02", "p03", "p04"])
    out = [(e.player_id, e.place, e.shared) for e in events if isinstance(e, PlayerEliminated)]
    assert out == [("p04", 4, False), ("p03", 3, False), ("p02", 2, False)]
    (done,) = [e for e in events if isinstance(e, TournamentFinished)]
    assert (done.reason, done.winner, done.runner_up) == (FinishReason.WINNER, "p01", "p02")
    assert [(s.place, s.player_id, s.chips) for s in done.standings] == [
        (1, "p01", 40000), (2, "p02", 0), (3, "p03", 0), (4, "p04", 0),
    ]
    check_chips(t)


def test_busted_in_one_hand_with_equal_starting_stacks_share_a_place() -> None:
    t = started(4)
    stacks(t, p01=15000, p02=5000, p03=5000, p04=15000)
    _, events = bust(t, 1, "p01", ["p02", "p03"])
    out = {e.player_id: (e.place, e.shared) for e in events if isinstance(e, PlayerEliminated)}
    assert out == {"p02": (3, True), "p03": (3, True)}
    assert not t.finished
    assert [s.place for s in t.standings()] == [1, 2, 3, 3]
    assert t.standings()[0].player_id == "p01"  # 25000 against 15000


def test_the_runner_up_is_the_last_player_eliminated() -> None:
    t = started(3)
    bust(t, 1, "p01", ["p03"])
    _, events = bust(t, 1, "p01", ["p02"])
    (done,) = [e for e in events if isinstance(e, TournamentFinished)]
    assert (done.winner, done.runner_up) == ("p01", "p02")
    assert places(t) == [(1, "p01"), (2, "p02"), (3, "p03")]


def test_busts_at_two_tables_are_placed_in_the_order_their_hands_end() -> None:
    t = started(12, seats_per_table=6)
    a = [player_at(t, 1, s) for s in sorted(t.table(1).seats)]
    b = [player_at(t, 2, s) for s in sorted(t.table(2).seats)]
    h1, _ = t.begin_hand(1, 0.0, deck=stacked_deck(t, 1, {a[0]: "AsAh", a[1]: "2c7d"}, "Ks Qh 6c 5s Jd"))
    _, ev2 = bust(t, 2, b[0], [b[1]])
    while not h1.is_over:
        act_once(t, 1, h1, shove(a[:2]))
    ev1 = t.end_hand(1, 0.0)
    placed = [(e.player_id, e.place) for e in ev2 + ev1 if isinstance(e, PlayerEliminated)]
    assert placed == [(b[1], 12), (a[1], 11)]


def test_standings_rank_the_players_in_by_chips_then_the_eliminated() -> None:
    t = started(4)
    stacks(t, p01=12000, p02=10000, p03=10000, p04=8000)
    assert [(s.place, s.player_id, s.chips) for s in t.standings()] == [
        (1, "p01", 12000), (2, "p02", 10000), (2, "p03", 10000), (4, "p04", 8000),
    ]
    bust(t, 1, "p01", ["p04"])
    assert [(s.place, s.player_id, s.eliminated) for s in t.standings()] == [
        (1, "p01", False), (2, "p02", False), (2, "p03", False), (4, "p04", True),
    ]


def test_at_the_deadline_equal_stacks_share_a_place_and_there_is_no_single_winner() -> None:
    t = started(3, deadline=100.0)
    stacks(t, p01=12000, p02=9000, p03=9000)
    assert t.tick(99.0) == []
    events = t.tick(100.0)
    assert isinstance(events[0], DeadlinePassed)
    done = events[-1]
    assert isinstance(done, TournamentFinished) and done.reason is FinishReason.DEADLINE
    assert [(s.place, s.player_id) for s in done.standings] == [(1, "p01"), (2, "p02"), (2, "p03")]
    assert (done.winner, done.runner_up) == ("p01", None)  # second place is shared: no one runner-up
    t2 = started(2, deadline=10.0)
    (_, done2) = t2.tick(10.0)
    assert isinstance(done2, TournamentFinished)
    assert [s.place for s in done2.standings] == [1, 1] and done2.winner is None


def test_at_the_deadline_the_hand_in_progress_finishes_and_no_hand_starts() -> None:
    t = started(12, seats_per_table=6, deadline=100.0)
    hand, _ = t.begin_hand(1, 90.0)
    events = t.tick(100.0)
    assert events == [DeadlinePassed(at=100.0, tables_in_hand=(1,))]
    assert not t.finished
    assert not t.can_deal(2, 100.0)
    assert "deadline" in (t.why_not_deal(2, 100.0) or "")
    while not hand.is_over:
        act_once(t, 1, hand, shove([]))
    events = t.end_hand(1, 101.0)
    assert isinstance(events[-1], TournamentFinished)
    assert t.finished and len(t.result.standings) == 12  # type: ignore[union-attr]
    check_chips(t)


def _split_with_odd_chip(t):  # type: ignore[no-untyped-def]
    """Blinds 5/10: the small blind folds, the other two split a royal flush on the board:
    20005 chips in two shares of 10002 leave one chip for the next hand."""
    hand, _ = t.begin_hand(1, 0.0, deck=stacked_deck(t, 1, {}, "As Ks Qs Js Ts"))
    others = [player_at(t, 1, s) for s in hand.seats if s != hand.small_blind_seat]
    while not hand.is_over:
        act_once(t, 1, hand, shove(others))
    assert hand.carried_out == 1
    t.end_hand(1, 0.0)
    return hand


def test_carried_chips_at_the_end_go_to_the_winner() -> None:
    t = started(3, schedule=[(5, 10)])
    hand = _split_with_odd_chip(t)
    winner = player_at(t, 1, hand.small_blind_seat)
    others = [p for p in t.players_in() if p != winner]
    Director(t).remove_player(1.0, others[0], reason="test: disqualified")
    events = Director(t).remove_player(1.0, others[1], reason="test: disqualified")
    done = events[-1]
    assert isinstance(done, TournamentFinished)
    assert (done.winner, done.carry_to_winner, done.unclaimed_carry) == (winner, 1, 0)
    assert t.stack_of(winner) == 9995 + 1
    assert t.carried_chips() == 0
    check_chips(t)


def test_carried_chips_at_the_deadline_belong_to_no_one_and_are_reported() -> None:
    t = started(3, schedule=[(5, 10)], deadline=50.0)
    _split_with_odd_chip(t)
    done = t.tick(50.0)[-1]
    assert isinstance(done, TournamentFinished)
    assert (done.unclaimed_carry, done.carry_to_winner) == (1, 0)
    assert sum(s.chips for s in done.standings) == 29999
    check_chips(t)


def _deadline_with_stacks(deltas: dict[str, int]) -> TournamentFinished:
    """Four players (10,000 each), chip counts corrected by ``deltas``, then the deadline."""
    t = started(4)
    for pid, delta in deltas.items():
        Director(t).correct_chips(1.0, pid, delta, reason="test: set the counts")
    done = Director(t).set_deadline(2.0, 2.0, reason="test: the hall closes")[-1]
    assert isinstance(done, TournamentFinished) and done.reason is FinishReason.DEADLINE
    return done


def test_a_tie_for_first_at_the_deadline_has_no_winner_and_the_runner_up_is_the_next_place() -> None:
    """Issue 12, defect 7: the runner-up was whoever was listed second, one who shared first."""
    done = _deadline_with_stacks({"p01": 500, "p02": 500, "p03": 200})
    assert [(s.player_id, s.place) for s in done.standings] == [("p01", 1), ("p02", 1), ("p03", 3), ("p04", 4)]
    assert done.winner is None
    assert done.runner_up == "p03"  # third place: the next place after the shared first


def test_the_runner_up_place_shared_names_no_runner_up_and_everyone_tied_names_neither() -> None:
    done = _deadline_with_stacks({"p01": 500, "p02": 200, "p03": 200})
    assert (done.winner, done.runner_up) == ("p01", None)  # p02 and p03 share second
    done = _deadline_with_stacks({})
    assert (done.winner, done.runner_up) == (None, None)  # all four share first
    done = _deadline_with_stacks({"p01": 500, "p02": 200})
    assert (done.winner, done.runner_up) == ("p01", "p02")


def test_an_elimination_says_where_and_in_which_hand_and_a_removal_says_where() -> None:
    from server.tournament import Director, PlayerEliminated

    from .helpers import bust, player_at, started

    t = started(6, seats_per_table=4)  # two tables of three
    winner, loser = (player_at(t, 2, s) for s in sorted(t.table(2).seats)[:2])
    hand, events = bust(t, 2, winner, [loser])
    (out,) = [e for e in events if isinstance(e, PlayerEliminated)]
    assert (out.player_id, out.place, out.shared, out.table_id, out.hand_no, out.starting_stack,
            out.removed, out.players_left) == (loser, 6, False, 2, hand.hand_no, 10_000, False, 5)
    (standing,) = [s for s in t.standings() if s.player_id == loser]
    assert (standing.place, standing.chips, standing.eliminated, standing.removed, standing.hand_no) == (
        6, 0, True, False, hand.hand_no)
    cheat = player_at(t, 1, sorted(t.table(1).seats)[0])
    stack = t.stack_of(cheat)
    events = Director(t).remove_player(5.0, cheat, reason="collusion")
    (out,) = [e for e in events if isinstance(e, PlayerEliminated)]
    assert (out.player_id, out.place, out.shared, out.table_id, out.hand_no, out.starting_stack,
            out.removed, out.players_left) == (cheat, 5, False, 1, None, stack, True, 4)
    (standing,) = [s for s in t.standings() if s.player_id == cheat]
    assert (standing.place, standing.removed, standing.hand_no) == (5, True, None)
