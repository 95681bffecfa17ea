"""Late registration: opened by the director up to a level; late entries get the starting
stack and a seat at the table with the fewest players."""

from __future__ import annotations

import pytest

from server.tournament import TournamentError
from server.tournament.director import Director
from server.tournament.events import PlayerRegistered, PlayerSeated
from tests.tournament.helpers import started


def test_registration_after_the_start_needs_the_director() -> None:
    t = started(4)
    assert not t.registration_open()
    with pytest.raises(TournamentError, match="registration is closed: the tournament has started"):
        t.register("late", "Latecomer")


def test_a_late_entry_sits_at_the_shortest_table_with_the_starting_stack() -> None:
    t = started(14, seats_per_table=6, starting_stack=5000)  # 5 + 5 + 4: each has a free seat
    shortest = min(t.table_ids(), key=lambda tid: len(t.table(tid).seats))
    assert sorted(len(t.table(tid).seats) for tid in t.table_ids()) == [4, 5, 5]
    before = t.total_chips()
    (record,) = Director(t).late_registration(1.0, 2, reason="two friends on their way")
    assert "until the end of level 2" in record.summary and "5,000" in record.summary
    assert t.registration_open()
    events = t.register("late", "Latecomer")
    assert events[0] == PlayerRegistered(player_id="late", name="Latecomer", registered=15)
    seated = events[1]
    assert isinstance(seated, PlayerSeated) and seated.table_id == shortest and seated.stack == 5000
    assert t.stack_of("late") == 5000
    assert t.chips_issued == 15 * 5000 and t.total_chips() == before + 5000
    assert "late" in t.players_in()


def test_a_late_entry_waits_for_the_hand_at_that_table_to_end() -> None:
    t = started(3, seats_per_table=6)
    Director(t).late_registration(1.0, 1, reason="open")
    t.begin_hand(1, 2.0)
    assert t.register("late", "Latecomer")[1:] == []
    loc = t.location("late")
    assert loc is not None and loc.on_the_way
    hand = t.table(1).hand
    assert hand is not None
    while not hand.is_over:  # everyone folds to the big blind
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, legal.timeout_action())
    events = t.end_hand(1, 3.0)
    assert any(isinstance(e, PlayerSeated) and e.player_id == "late" for e in events)
    assert t.total_chips() == t.chips_issued == 4 * t.settings.starting_stack


def test_late_registration_closes_after_its_level_and_says_when() -> None:
    t = started(4, hands_per_level=1)
    Director(t).late_registration(0.0, 1, reason="open for level 1")
    t.begin_hand(1, 1.0)
    hand = t.table(1).hand
    assert hand is not None
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, legal.timeout_action())
    t.end_hand(1, 2.0)
    assert t.level == 2
    with pytest.raises(TournamentError, match="late registration closed at the end of level 1"):
        t.register("late", "Latecomer")
    Director(t).late_registration(3.0, None, reason="closed")
    assert t.late_until is None and not t.registration_open()


def test_the_director_opens_it_only_to_a_level_that_exists_from_now_on() -> None:
    t = started(4, hands_per_level=1)
    levels = len(t.settings.schedule)
    with pytest.raises(TournamentError, match=f"from 1 .* to {levels} .* not {levels + 1}"):
        Director(t).late_registration(0.0, levels + 1, reason="typo")
    with pytest.raises(TournamentError, match="not 0"):
        Director(t).late_registration(0.0, 0, reason="typo")
    with pytest.raises(TournamentError, match="reason"):
        Director(t).late_registration(0.0, 2, reason="")


def test_a_late_entry_is_refused_when_every_seat_is_taken() -> None:
    t = started(4, seats_per_table=4)
    Director(t).late_registration(0.0, 1, reason="open")
    with pytest.raises(TournamentError, match="every seat is taken"):
        t.register("late", "Latecomer")
    assert "late" not in t.registered
