"""The director's floor: calls wait in a queue, rulings close them, trophies are named."""

from __future__ import annotations

import pytest

from server.tournament import TournamentError
from server.tournament.director import Director
from server.tournament.events import DirectorAction, FloorCalled, RulingMade, TrophyAwarded
from server.tournament.floor import trophies
from server.tournament.standings import Standing
from tests.tournament.helpers import started


def test_calls_wait_in_a_queue_with_the_hand_being_played() -> None:
    t = started(4)
    hand, _ = t.begin_hand(1, 1.0)
    (first,) = t.call_floor(2.0, "p03", "he acted out of turn")
    (second,) = t.call_floor(3.0, "p01", "my cards were flashed")
    assert isinstance(first, FloorCalled) and isinstance(second, FloorCalled)
    assert (first.call_id, second.call_id) == (1, 2)
    assert first.hand_no == hand.hand_no == second.hand_no
    assert sorted(t.floor.open) == [1, 2]


def test_a_ruling_closes_its_call_and_goes_to_that_table_and_the_audit() -> None:
    t = started(12, seats_per_table=6)
    (call,) = t.call_floor(2.0, "p03", "misclick: I meant to call")
    assert isinstance(call, FloorCalled)
    record, ruling = Director(t).rule(5.0, "The fold stands", call_id=call.call_id, reason="floor call")
    assert ruling == RulingMade(at=5.0, call_id=call.call_id, table_id=call.table_id, decision="The fold stands")
    assert isinstance(record, DirectorAction) and record.action == "rule"
    assert t.audit_log[-1] is record
    assert t.floor.open == {}
    with pytest.raises(TournamentError, match=r"no open call #1 \(no call is open\)"):
        Director(t).rule(6.0, "again", call_id=call.call_id, reason="twice")


def test_a_ruling_without_a_call_names_a_table_in_play_or_everyone() -> None:
    t = started(4)
    (_, ruling) = Director(t).rule(1.0, "No phones at the table", table_id=1, reason="house rule")
    assert isinstance(ruling, RulingMade) and ruling.table_id == 1 and ruling.call_id is None
    (_, everyone) = Director(t).rule(2.0, "Dinner at nine", reason="house rule")
    assert isinstance(everyone, RulingMade) and everyone.table_id is None
    with pytest.raises(TournamentError, match="no table 9"):
        Director(t).rule(3.0, "x", table_id=9, reason="typo")
    with pytest.raises(TournamentError, match="reason"):
        Director(t).rule(3.0, "x", reason=" ")
    with pytest.raises(TournamentError, match="decision"):
        Director(t).rule(3.0, "  ", reason="empty")


def test_trophies_are_named_once_each_for_a_player_of_the_tournament() -> None:
    t = started(4)
    (record, award) = Director(t).award(9.0, "Best bluff", "p02", reason="seven high")
    assert award == TrophyAwarded(at=9.0, title="Best bluff", player_id="p02")
    assert isinstance(record, DirectorAction) and "P02" in record.summary
    with pytest.raises(TournamentError, match="already awarded"):
        Director(t).award(9.0, "best BLUFF", "p03", reason="again")
    with pytest.raises(TournamentError):
        Director(t).award(9.0, "Iron man", "nobody", reason="typo")
    assert [x.title for x in t.floor.awarded] == ["Best bluff"]


def standing(place: int, pid: str) -> Standing:
    return Standing(place=place, player_id=pid, name=pid.upper(), chips=0, eliminated=place > 1)


def test_winner_and_runner_up_come_from_the_standings_and_ties_share_first() -> None:
    t = started(4)
    Director(t).award(1.0, "Last woman standing", "p04", reason="by acclaim")
    alone = trophies([standing(1, "a"), standing(2, "b"), standing(3, "c")], t.floor.awarded)
    assert [(x.title, x.player_id, x.by_rule) for x in alone] == [
        ("Winner", "a", True), ("Runner-up", "b", True), ("Last woman standing", "p04", False)]
    # Two share first at the deadline: both are winners; the runner-up is the next place.
    shared = trophies([standing(1, "a"), standing(1, "b"), standing(3, "c")], [])
    assert [(x.title, x.player_id) for x in shared] == [("Winner", "a"), ("Winner", "b"), ("Runner-up", "c")]
    assert trophies(None, []) == []


def test_rulings_are_announced_and_audited_with_what_they_are_about() -> None:
    t = started(4)
    (call,) = t.call_floor(1.0, "p02", "he acted out of turn")
    assert isinstance(call, FloorCalled)
    record, _ = Director(t).rule(2.0, "  Action stands  ", call_id=call.call_id, reason="floor")
    assert isinstance(record, DirectorAction)
    assert record.summary == f"Ruling (call #{call.call_id}): Action stands"
    record, _ = Director(t).rule(3.0, "No phones", table_id=1, reason="house")
    assert isinstance(record, DirectorAction) and record.summary == "Ruling (table 1): No phones"
    record, _ = Director(t).rule(4.0, "Dinner at nine", reason="house")
    assert isinstance(record, DirectorAction) and record.summary == "Ruling (everyone): Dinner at nine"
    with pytest.raises(TournamentError, match="^a call is named by its number, not '1'$"):
        Director(t).rule(5.0, "x", call_id="1", reason="typo")  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="^a ruling is a text of at most "):
        Director(t).rule(5.0, "x" * 10_000, reason="long")
    with pytest.raises(TournamentError, match="^there is no table 9 in play$"):
        Director(t).rule(5.0, "x", table_id=9, reason="typo")
