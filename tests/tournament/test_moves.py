"""The director's move of a player (``move_player``): its refusals, and a move asked for
during the player's hand, which applies when that hand ends, to the seat asked for, or is
not applied (and the player is told why) when the hand or the tables changed meanwhile."""

from __future__ import annotations

import pytest

from server.tournament import Announcement, Director, PlayerMoved, TournamentError

from .helpers import check_seating, play_out, player_at, shove, stacked_deck, started


def moved_during_a_hand(seat: int | None, mover_wins: bool) -> tuple[list[object], str, object]:
    """Two tables of three (five seats each): the first player at table 1 is moved to
    table 2 during a hand at table 1 where they and the next player go all in."""
    t = started(6, seats_per_table=5)
    mover, other = (player_at(t, 1, s) for s in sorted(t.table(1).seats)[:2])
    holes = {mover: "AsAh", other: "2c7d"} if mover_wins else {mover: "2c7d", other: "AsAh"}
    hand, _ = t.begin_hand(1, 1.0, deck=stacked_deck(t, 1, holes, "Ks Qh 6c 5s Jd"))
    (record,) = Director(t).move_player(2.0, mover, 2, seat, reason="balance by hand")
    assert record.pending
    where = "table 2" + (f" seat {seat}" if seat is not None else "")
    assert record.summary == f"{t.name_of(mover)} moves to {where} after the current hand"
    play_out(t, 1, hand, shove([mover, other]))
    events = t.end_hand(1, 3.0)
    check_seating(t)
    return events, mover, t


def test_a_move_during_a_hand_takes_the_seat_asked_for_when_the_hand_ends() -> None:
    free = sorted(started(6, seats_per_table=5).seating.free_seats(2))
    assert len(free) == 2  # each of them, so a seat drawn at random cannot pass for the one asked
    for seat in free:
        events, mover, t = moved_during_a_hand(seat, mover_wins=True)
        (moved,) = [e for e in events if isinstance(e, PlayerMoved) and e.player_id == mover]
        assert (moved.to_table, moved.to_seat) == (2, seat)
        loc = t.location(mover)  # type: ignore[attr-defined]
        assert (loc.table_id, loc.seat) == (2, seat)


def test_a_move_is_not_applied_to_a_player_who_busts_in_that_hand() -> None:
    t0 = started(6, seats_per_table=5)
    seat = sorted(t0.seating.free_seats(2))[0]
    events, mover, t = moved_during_a_hand(seat, mover_wins=False)
    (note,) = [e for e in events if isinstance(e, Announcement)]
    name = t.name_of(mover)  # type: ignore[attr-defined]
    assert note == Announcement(
        at=2.0, to=(mover,),
        text=f"The director's the move to table 2 seat {seat} for {name} was not applied: eliminated first (place 6)",
    )
    assert not any(isinstance(e, PlayerMoved) and e.player_id == mover for e in events)


def test_a_move_is_not_applied_when_its_table_broke_during_the_hand() -> None:
    # Table 2 loses two of its three players while table 1 plays the hand of the player
    # moved there: table 2 breaks, and the move waiting at table 1 has nowhere to go.
    t = started(6, seats_per_table=4)
    mover = player_at(t, 1, sorted(t.table(1).seats)[0])
    hand, _ = t.begin_hand(1, 1.0)
    Director(t).move_player(2.0, mover, 2, reason="swap")
    winner, *losers = (player_at(t, 2, s) for s in sorted(t.table(2).seats))
    deck = stacked_deck(t, 2, {winner: "AsAh", losers[0]: "2c7d", losers[1]: "3c8d"}, "Ks Qh 6c 5s Jd")
    h2, _ = t.begin_hand(2, 2.0, deck=deck)
    play_out(t, 2, h2, shove([winner, *losers]))
    t.end_hand(2, 3.0)
    assert 2 not in t.table_ids()
    play_out(t, 1, hand, shove([]))
    events = t.end_hand(1, 4.0)
    (note,) = [e for e in events if isinstance(e, Announcement) and e.to == (mover,)]
    assert note.text == (f"The director's the move to table 2 (the table broke) for {t.name_of(mover)} "
                         "was not applied: it no longer fits their chips or seat")
    check_seating(t)


def test_move_player_refuses_with_what_to_do() -> None:
    t = started(6, seats_per_table=4)  # two tables of three
    d = Director(t)
    p = player_at(t, 1, sorted(t.table(1).seats)[0])

    def refused(table: int, seat: int | None) -> str:
        with pytest.raises(TournamentError) as info:
            d.move_player(1.0, p, table, seat, reason="x")
        return str(info.value)

    assert refused(1, None) == f"{t.name_of(p)} (player {p}) is already at table 1: name a seat to change seats"
    assert refused(2, 5) == "seat 5 does not exist (seats 1 to 4)"
    assert refused(2, 0) == "seat 0 does not exist (seats 1 to 4)"
    last_free = max(t.seating.free_seats(1))
    d.move_player(1.0, p, 1, last_free, reason="a seat by the window")  # a seat up to the last exists
    assert t.location(p).seat == last_free  # type: ignore[union-attr]
    full = started(8, seats_per_table=4)  # two full tables
    r = player_at(full, 1, 1)
    with pytest.raises(TournamentError) as info:
        Director(full).move_player(3.0, r, 2, reason="x")
    assert str(info.value) == "table 2 has no empty seat"
    with pytest.raises(TournamentError) as info:
        Director(full).move_player(3.0, r, 2, 4, reason="x")
    assert str(info.value) == "seat 4 at table 2 is taken"
