"""The director's corrections between and during hands: a void hand, a paused table."""

from __future__ import annotations

import pytest

from poker.actions import Action, ActionKind
from server.tournament import TournamentError
from server.tournament.director import Director
from server.tournament.events import DirectorAction, HandVoided
from tests.tournament.helpers import started


def test_a_void_hand_returns_every_bet_keeps_the_carry_and_the_button() -> None:
    t = started(4, seats_per_table=6)
    table = t.table(1)
    table.carry = 3  # odd chips waiting from an earlier hand
    stacks = {s: p.stack for s, p in table.seats.items()}
    button_before = table.button
    hand, _ = t.begin_hand(1, 1.0)
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to is not None
    hand.act(legal.seat, Action(kind=ActionKind.RAISE, amount=legal.min_raise_to))
    events = Director(t).void_hand(2.0, 1, reason="cards exposed")
    assert isinstance(events[0], DirectorAction) and events[0].action == "void_hand"
    assert HandVoided(at=2.0, table_id=1, hand_no=hand.hand_no) in events
    assert table.hand is None
    assert {s: p.stack for s, p in table.seats.items()} == stacks
    assert table.carry == 3 and table.button == button_before
    assert t.total_chips() == t.chips_issued + 3  # the 3 put in the carry by this test
    again, _ = t.begin_hand(1, 3.0)
    assert again.hand_no == hand.hand_no + 1, "hand numbers are never reused"
    assert again.button == hand.button, "the button deals the replayed hand again"


def test_only_a_hand_in_progress_can_be_void() -> None:
    t = started(4)
    with pytest.raises(TournamentError, match="no hand in progress"):
        Director(t).void_hand(1.0, 1, reason="x")
    with pytest.raises(TournamentError, match="reason"):
        Director(t).void_hand(1.0, 1, reason="")


def test_a_paused_table_finishes_its_hand_and_deals_no_other_until_resumed() -> None:
    t = started(12, seats_per_table=6)
    t.begin_hand(1, 1.0)
    Director(t).pause_table(2.0, 1, paused=True, reason="spilled drink")
    assert t.can_deal(2, 2.0), "the other table plays on"
    hand = t.table(1).hand
    assert hand is not None and not hand.is_over  # the hand in progress goes on
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, legal.timeout_action())
    t.end_hand(1, 3.0)
    assert t.why_not_deal(1, 4.0) == "table 1 is paused by the director"
    with pytest.raises(TournamentError, match="already paused"):
        Director(t).pause_table(4.0, 1, paused=True, reason="again")
    Director(t).pause_table(5.0, 1, paused=False, reason="cleaned")
    assert t.can_deal(1, 5.0)
    with pytest.raises(TournamentError, match="not paused"):
        Director(t).pause_table(6.0, 1, paused=False, reason="again")


def test_pausing_one_table_is_audited_and_refused_when_it_makes_no_sense() -> None:
    t = started(12, seats_per_table=6)
    (record,) = Director(t).pause_table(1.0, 2, paused=True, reason="spill")
    assert (record.action, record.summary) == (
        "pause_table", "Table 2 is paused: its hand in progress finishes, no new hand starts")
    assert t.held_tables == {2}
    (record,) = Director(t).pause_table(2.0, 2, paused=False, reason="clean")
    assert (record.action, record.summary) == ("resume_table", "Table 2 plays on")
    assert t.held_tables == set()
    with pytest.raises(TournamentError, match="^a table is paused or not \\(true or false\\), not 1$"):
        Director(t).pause_table(3.0, 2, paused=1, reason="x")  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="^table 2 is not paused$"):
        Director(t).pause_table(3.0, 2, paused=False, reason="x")
    Director(t).pause_table(4.0, 2, paused=True, reason="x")
    with pytest.raises(TournamentError, match="^table 2 is already paused$"):
        Director(t).pause_table(5.0, 2, paused=True, reason="x")
