"""Balancing and breaking in the tournament itself, with real hands (interpretation 7).

Tables play concurrently, so the tournament only changes seats at a table between hands:
the player due the next big blind at the largest table moves, a table that is in a hand
waits, and a player moved to a table in a hand waits for its next hand.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.actions import Action, LegalActions
from poker.hand import Hand
from server.tournament import (
    MoveReason,
    PlayerMoved,
    PlayerSeated,
    TableBroken,
    TournamentError,
)
from server.tournament.director import Director
from tests.budget import examples

from .helpers import (
    act_once,
    bust,
    check_balanced,
    check_chips,
    check_seating,
    play_hand,
    play_out,
    player_at,
    randomly,
    shove,
    stacked_deck,
    started,
)


def _all_in_often(rng: random.Random):  # type: ignore[no-untyped-def]
    """Players shove a third of the time: hands end quickly and bust players in random order."""
    rand = randomly(rng)

    def decide(pid, legal):  # type: ignore[no-untyped-def]
        if rng.random() < 0.35 and (legal.max_raise_to is not None or legal.call is not None):
            return shove([pid])(pid, legal)
        return rand(pid, legal)

    return decide


@settings(max_examples=examples(100), deadline=None)
@given(
    seats=st.integers(2, 10),
    players=st.integers(2, 45),
    seed=st.integers(0, 2**32),
    concurrent=st.booleans(),
)
def test_balancing_with_real_busts(seats: int, players: int, seed: int, concurrent: bool) -> None:
    """After every hand: nobody lost or seated twice, chips conserved; whenever every table
    is between hands, no table is two short of another and none could be broken."""
    t = started(players, seed=seed, seats_per_table=seats, hands_per_level=3)
    rng = random.Random(seed)
    decide = _all_in_often(rng)
    hands: dict[int, Hand] = {}
    now = 0.0
    for _ in range(200_000):
        if t.finished:
            break
        idle = [tid for tid in t.table_ids() if tid not in hands and t.can_deal(tid, now)]
        choices = sorted(hands) + idle
        assert choices, "nothing can happen: the tournament is stuck"
        tid = rng.choice(choices) if concurrent else (min(hands) if hands else choices[0])
        if tid not in hands:
            hands[tid], _ = t.begin_hand(tid, now)
        hand = hands[tid]
        if not hand.is_over:
            act_once(t, tid, hand, decide)
        if hand.is_over:
            del hands[tid]
            events = t.end_hand(tid, now)
            check_seating(t)
            check_chips(t)
            for e in events:
                if isinstance(e, TableBroken):
                    # it broke because the players fit at the tables left
                    assert len(t.players_in()) <= e.tables_left * seats
            if not hands and not t.finished:
                check_balanced(t)
        now += 1.0
    assert t.finished
    result = t.result
    assert result is not None and result.winner is not None
    assert sorted(s.player_id for s in result.standings) == sorted(t.registered)


def test_the_player_due_the_big_blind_at_the_largest_table_moves() -> None:
    # 12 players at 2 tables of 6; two busts at table 1 leave it 4 against 6.
    t = started(12, seats_per_table=6)
    t1 = t.table(1)
    seats = sorted(t1.seats)
    winner, a, b = (player_at(t, 1, s) for s in seats[:3])
    due = player_at(t, 2, t.table(2).next_big_blind())
    _, events = bust(t, 1, winner, [a, b])
    moved = [e for e in events if isinstance(e, PlayerMoved)]
    assert len(moved) == 1
    assert (moved[0].player_id, moved[0].from_table, moved[0].to_table) == (due, 2, 1)
    assert moved[0].reason is MoveReason.BALANCE and not moved[0].on_the_way
    assert t.location(due).table_id == 1  # type: ignore[union-attr]
    assert sorted(len(t.table(i).seats) for i in (1, 2)) == [5, 5]
    check_seating(t)


def test_of_two_largest_tables_the_highest_numbered_gives_its_player_due_the_big_blind() -> None:
    # 18 players at 3 tables of 6; two busts at table 1 leave it 4 against 6 and 6.
    t = started(18, seats_per_table=6)
    assert [len(t.table(i).seats) for i in (1, 2, 3)] == [6, 6, 6]
    winner, a, b = (player_at(t, 1, s) for s in sorted(t.table(1).seats)[:3])
    due = player_at(t, 3, t.table(3).next_big_blind())
    _, events = bust(t, 1, winner, [a, b])
    moved = [e for e in events if isinstance(e, PlayerMoved)]
    assert [(e.player_id, e.from_table, e.to_table) for e in moved] == [(due, 3, 1)]
    assert [len(t.table(i).seats) for i in (1, 2, 3)] == [5, 6, 5]
    check_seating(t)


def test_a_moved_player_waits_for_the_next_hand_at_a_table_in_a_hand() -> None:
    t = started(12, seats_per_table=6)
    # Both tables in a hand; table 1 loses two players while table 2 is still playing.
    h2, _ = t.begin_hand(2, 0.0)
    w, a, b = (player_at(t, 1, s) for s in sorted(t.table(1).seats)[:3])
    _, events = bust(t, 1, w, [a, b])
    assert not any(isinstance(e, PlayerMoved) for e in events)  # table 2 is in a hand: wait
    # Table 1 deals again with 4 players; table 2 ends its hand and must give a player.
    h1, _ = t.begin_hand(1, 1.0)
    while not h2.is_over:
        act_once(t, 2, h2, shove([]))
    events = t.end_hand(2, 2.0)
    moved = [e for e in events if isinstance(e, PlayerMoved)]
    assert len(moved) == 1 and moved[0].on_the_way and moved[0].to_table == 1
    pid = moved[0].player_id
    assert t.location(pid).on_the_way  # type: ignore[union-attr]
    assert pid not in {t.table(1).seats[s].player_id for s in h1.seats}
    assert t.arrivals(1) == [(pid, moved[0].to_seat)]
    check_seating(t)
    check_chips(t)
    # When table 1's hand ends, the player sits down and plays its next hand.
    while not h1.is_over:
        act_once(t, 1, h1, shove([]))
    events = t.end_hand(1, 3.0)
    assert PlayerSeated(player_id=pid, table_id=1, seat=moved[0].to_seat, stack=moved[0].stack) in events
    assert not t.location(pid).on_the_way  # type: ignore[union-attr]
    h1, _ = t.begin_hand(1, 4.0)
    assert moved[0].to_seat in h1.seats
    check_seating(t)


def test_a_table_breaks_when_the_players_fit_in_one_fewer_and_its_players_spread() -> None:
    t = started(15, seats_per_table=6)  # tables of 5, 5, 5
    assert [len(t.table(i).seats) for i in (1, 2, 3)] == [5, 5, 5]
    w, *losers = (player_at(t, 3, s) for s in sorted(t.table(3).seats))
    _, events = bust(t, 3, w, losers[:2])  # 13 players do not fit in 12 seats at 2 tables
    assert not any(isinstance(e, TableBroken) for e in events)
    check_balanced(t)
    # One more bust: 12 players fit at two tables of 6: the smallest table breaks.
    small = min(t.table_ids(), key=lambda i: (len(t.table(i).seats), -i))
    w, loser = (player_at(t, small, s) for s in t.table(small).deal_plan()[0][:2])  # dealt in
    _, events = bust(t, small, w, [loser])
    broken = [e for e in events if isinstance(e, TableBroken)]
    assert len(broken) == 1 and broken[0].tables_left == 2
    assert broken[0].table_id not in t.table_ids()
    spread = [e for e in events if isinstance(e, PlayerMoved) and e.reason is MoveReason.BREAK]
    assert sorted(e.player_id for e in spread) == sorted(broken[0].players)
    assert [len(t.table(i).seats) for i in t.table_ids()] == [6, 6]
    check_seating(t)
    check_chips(t)


def test_a_broken_tables_carry_goes_to_the_next_hand_where_its_first_player_moved() -> None:
    # Odd blinds so a split leaves an odd chip: 5/10.
    t = started(6, seats_per_table=4, schedule=[(5, 10)])  # tables of 3 and 3
    seats = sorted(t.table(2).seats)
    hand, _ = t.begin_hand(2, 0.0, deck=_split_deck(t, 2))
    sb = hand.small_blind_seat
    others = [player_at(t, 2, s) for s in seats if s != sb]
    while not hand.is_over:
        act_once(t, 2, hand, shove(others))
    assert hand.carried_out == 1
    t.end_hand(2, 0.0)
    assert t.table(2).carry == 1
    check_chips(t)
    # Table 1 is in a hand while two players at table 2 are removed: table 2 breaks.
    h1, _ = t.begin_hand(1, 1.0)
    gone = [player_at(t, 2, s) for s in sorted(t.table(2).seats)[:2]]
    events = []
    for pid in gone:
        events += Director(t).remove_player(1.0, pid, reason="test: leave the table short")
    assert 2 not in t.table_ids()
    (broken,) = [e for e in events if isinstance(e, TableBroken)]
    (moved,) = [e for e in events if isinstance(e, PlayerMoved)]
    assert (broken.carry, broken.carry_to, moved.to_table, moved.on_the_way) == (1, 1, 1, True)
    assert t.table(1).carry == 1  # waits for table 1's next hand
    check_chips(t)
    while not h1.is_over:
        act_once(t, 1, h1, shove([]))
    t.end_hand(1, 2.0)
    assert t.begin_hand(1, 3.0)[0].carried_in == 1


def _split_deck(t, table_id):  # type: ignore[no-untyped-def]
    """The board is a royal flush: everyone still in splits."""
    return stacked_deck(t, table_id, {}, "As Ks Qs Js Ts")


def test_seating_changes_wait_for_the_end_of_the_hand() -> None:
    t = started(4, seats_per_table=9)
    t.begin_hand(1, 0.0)
    try:
        t.begin_hand(1, 0.0)
    except TournamentError as e:
        assert "in a hand" in str(e)
    else:
        raise AssertionError("dealt twice at one table")


@pytest.mark.parametrize("seed", range(6))
def test_a_moved_player_never_skips_the_big_blind_at_the_new_table(seed: int) -> None:
    """TDA, issue 12 defect 7: a player moved to balance (or from a broken table) is dealt in
    anywhere but on the button or in the small blind of their first hand at the new table;
    they wait for the button to pass instead. Before: they could land on the button at once."""

    t = started(45, seed=seed, seats_per_table=6, hands_per_level=4)  # 8 tables of 5 or 6
    rng = random.Random(seed)
    randomly_ = randomly(rng)
    first_hand: dict[str, int] = {}  # moved player -> the table where their first hand is due
    checked = waited = 0
    while not t.finished:
        hands = {tid: t.begin_hand(tid, 0.0)[0] for tid in t.table_ids() if t.can_deal(tid, 0.0)}
        assert hands
        for tid, hand in hands.items():
            table = t.table(tid)
            dealt = {table.seats[s].player_id: s for s in hand.seats}
            arrived = [p for p, to in first_hand.items() if to == tid and p in dealt]
            waiting = [p for p, to in first_hand.items() if to == tid and p not in dealt and table.seat_of(p)]
            waited += len(waiting)
            if len(hand.seats) - len(arrived) >= 2:  # else they are dealt in whatever the seat
                for p in arrived:
                    assert dealt[p] not in (hand.button, hand.small_blind_seat), (
                        f"{p} moved to table {tid} and is on the "
                        f"{'button' if dealt[p] == hand.button else 'small blind'} of their first hand")
                    checked += 1
            for p in arrived:
                del first_hand[p]
        for tid, hand in hands.items():
            while not hand.is_over:
                act_once(t, tid, hand, randomly_)
            for e in t.end_hand(tid, 0.0):
                if isinstance(e, PlayerMoved):
                    first_hand[e.player_id] = e.to_table
            check_seating(t)
            check_chips(t)
            if t.finished:
                break
    assert checked >= 10, checked  # the rule was really exercised
def test_a_table_broken_by_a_bust_sends_its_carry_with_its_first_moved_player() -> None:
    # Thirteen players at four seats a table: tables of 4, 3, 3 and 3, blinds 5/10. At
    # table 4 two players tie with the board's straight and split a main pot of 9 (the
    # third, corrected down to 3 chips, busts): 1 chip is carried, and 12 players now fit
    # at three tables: table 4 breaks. Its first player goes to the table with the fewest,
    # table 2 (not the lowest-numbered, table 1), and the chip with them.
    t = started(13, seats_per_table=4, schedule=[(5, 10)])
    assert [len(t.table(i).seats) for i in (1, 2, 3, 4)] == [4, 3, 3, 3]
    # Table 2 carries 2 chips of its own already (taken from a stack: none are made).
    t.table(2).seats[min(t.table(2).seats)].stack -= 2
    t.table(2).carry += 2
    x, y, z = (player_at(t, 4, s) for s in sorted(t.table(4).seats))
    Director(t).correct_chips(0.0, z, -(10_000 - 3), reason="test: a short stack")
    deck = stacked_deck(t, 4, {x: "Th3c", y: "Tc4h", z: "7c8c"}, "Ah Kd Qc Js 2d")
    hand, events = play_hand(t, 4, 1.0, shove([x, y, z]), deck)
    assert hand.carried_out == 1
    (broken,) = [e for e in events if isinstance(e, TableBroken)]
    moved = [e for e in events if isinstance(e, PlayerMoved)]
    assert sorted(e.player_id for e in moved) == sorted([x, y])
    assert (broken.table_id, broken.carry, broken.carry_to, moved[0].to_table) == (4, 1, 2, 2)
    assert t.table(2).carry == 3 and t.table(1).carry == 0 and 4 not in t.table_ids()
    assert t.broken_tables == [4]
    check_chips(t)
    check_seating(t)
    assert t.begin_hand(2, 2.0)[0].carried_in == 3


def test_a_table_left_with_no_one_sends_its_carry_to_the_lowest_numbered_table() -> None:
    # Nine players at three seats a table. Table 3 splits a pot of 25 (5/10, the small
    # blind folds, a royal flush on the board) and carries a chip; tables 1 and 2 are in
    # hands, so neither can give a player to balance, and the director removes everyone at
    # table 3: it breaks with no one to follow, and the chip goes to table 1's next hand.
    t = started(9, seats_per_table=3, schedule=[(5, 10)])
    hand, _ = t.begin_hand(3, 0.0, deck=_split_deck(t, 3))
    small = player_at(t, 3, hand.small_blind_seat)

    def decide(pid: str, legal: LegalActions) -> Action:
        if pid == small and legal.fold:
            return Action.fold()
        return Action.check() if legal.check else Action.call()

    play_out(t, 3, hand, decide)
    t.end_hand(3, 0.0)
    assert t.table(3).carry == 1
    (h1, _), (h2, _) = t.begin_hand(1, 1.0), t.begin_hand(2, 1.0)
    events = []
    for pid in [p.player_id for p in t.table(3).seats.values()]:
        events += Director(t).remove_player(1.0, pid, reason="test: the table empties")
    (broken,) = [e for e in events if isinstance(e, TableBroken)]
    assert (broken.table_id, broken.players, broken.carry, broken.carry_to) == (3, (), 1, 1)
    assert (t.table(1).carry, t.table(2).carry, t.table_ids()) == (1, 0, [1, 2])
    check_chips(t)
    play_out(t, 2, h2, shove([]))
    t.end_hand(2, 2.0)
    play_out(t, 1, h1, shove([]))
    t.end_hand(1, 2.0)
    assert t.begin_hand(1, 3.0)[0].carried_in == 1


def test_the_final_table_is_announced_once_with_everyone_at_it() -> None:
    from server.tournament import FinalTable

    from .helpers import bust, player_at

    t = started(6, seats_per_table=4)  # two tables of three
    winner, *losers = (player_at(t, 2, s) for s in sorted(t.table(2).seats))
    _, events = bust(t, 2, winner, losers)  # four left: table 2 breaks into table 1
    (broken,) = [e for e in events if isinstance(e, TableBroken)]
    assert (broken.table_id, broken.carry, broken.carry_to) == (2, 0, None)  # no carry: nowhere to go
    (final,) = [e for e in events if isinstance(e, FinalTable)]
    assert final.table_id == 1 and t.table_ids() == [1]
    assert sorted(final.players) == sorted(t.players_in()) and len(final.players) == 4
    later: list[object] = []
    for n in range(3):
        table = t.table(1)
        if len(table.seats) < 2:
            break
        _, events = bust(t, 1, table.seats[sorted(table.seats)[0]].player_id, [], now=float(n + 1))
        later += events
    assert not any(isinstance(e, FinalTable) for e in later)


def test_the_final_table_counts_the_players_on_their_way_to_it() -> None:
    from server.tournament import FinalTable

    from .helpers import bust, player_at

    t = started(6, seats_per_table=4)  # two tables of three
    t.begin_hand(1, 1.0)  # table 1 is in a hand when table 2 breaks
    winner, *losers = (player_at(t, 2, s) for s in sorted(t.table(2).seats))
    _, events = bust(t, 2, winner, losers, now=2.0)
    (final,) = [e for e in events if isinstance(e, FinalTable)]
    assert winner in final.players and len(final.players) == 4
    loc = t.location(winner)
    assert loc is not None and (loc.table_id, loc.on_the_way) == (1, True)
    assert sorted(final.players) == sorted(t.players_in())
