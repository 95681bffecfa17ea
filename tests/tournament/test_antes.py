"""The big-blind ante in the tournament (issue 27 part 1): off unless the director turns it
on (a rule change) or writes antes into the schedule (``100/200/200``); each hand is
dealt with its level's ante; a logged operation replays to the same settings."""

from __future__ import annotations

import pytest

from poker.cards import seeded_rng
from poker.events import AntePosted
from server.tournament import Director, Settings, Tournament, TournamentError
from server.tournament.events import DirectorAction, RulesChanged
from server.tournament.inputs import apply_director

from .helpers import started


def test_no_ante_unless_the_director_turns_it_on() -> None:
    t = started(4)
    hand, _ = t.begin_hand(1, 0.0)
    assert hand.ante == 0 and not any(isinstance(e, AntePosted) for e in hand.events)
    assert t.level_info(0.0).ante == 0


def test_the_rule_change_turns_on_an_ante_of_the_big_blind_from_the_next_hand() -> None:
    t = started(4)
    events = Director(t).change_rules(1.0, big_blind_ante=True, reason="TDA 2024")
    record = next(e for e in events if isinstance(e, DirectorAction))
    assert record.summary == "Rules v2: big-blind ante on from the next hand"
    assert next(e for e in events if isinstance(e, RulesChanged)).changes == (("big_blind_ante", "True"),)
    hand, _ = t.begin_hand(1, 2.0)
    assert hand.ante == 200
    ante = next(e for e in hand.events if isinstance(e, AntePosted))
    assert ante.seat == hand.big_blind_seat and ante.amount == 200
    info = t.level_info(2.0)
    assert (info.ante, info.next_ante) == (200, 300)
    Director(t).change_rules(3.0, big_blind_ante=False, reason="back to none")
    assert t.ante == 0


def test_antes_written_into_the_schedule_turn_the_ante_on_and_double_past_its_end() -> None:
    t = started(4)
    events = Director(t).change_schedule(1.0, [(100, 200, 200), (200, 400, 300)], reason="antes")
    record = next(e for e in events if isinstance(e, DirectorAction))
    assert record.summary == "Rules v2: new blind schedule from the next hand: 100/200/200, 200/400/300"
    s = t.settings
    assert s.big_blind_ante and s.antes == (200, 300)
    assert [s.ante(i) for i in range(4)] == [200, 300, 600, 1200]
    # A schedule of pairs names no antes: the ante stays on, now the big blind.
    Director(t).change_schedule(2.0, [(100, 200), (200, 400)], reason="plain")
    assert t.settings.antes == () and t.settings.ante(1) == 400


def test_antes_are_refused_with_what_is_wrong() -> None:
    with pytest.raises(TournamentError, match="2 antes for a schedule of 15 levels"):
        Settings(antes=(200, 300))
    with pytest.raises(TournamentError, match="the ante of level 1 is 0 to"):
        Settings(schedule=((100, 200),), antes=(-5,))
    with pytest.raises(TournamentError, match="big_blind_ante is on .true. or off .false., not 'yes'"):
        Settings(big_blind_ante="yes")  # type: ignore[arg-type]
    t = started(4)
    with pytest.raises(TournamentError, match="level 1 is .small blind, big blind. in whole chips"):
        Director(t).change_schedule(1.0, [(100, 200, 200, 5)], reason="bad")
    assert not t.settings.big_blind_ante  # refused: nothing changed


def test_a_logged_ante_operation_replays_to_the_same_settings() -> None:
    payloads = [
        {"op": "set_options", "now": 1.0, "reason": "TDA", "options": {"big_blind_ante": True}},
        {"op": "set_schedule", "now": 2.0, "reason": "antes", "schedule": [[100, 200, 100], [200, 400, 400]]},
    ]
    live = started(4)
    for p in payloads:
        apply_director(live, p)
    replayed = Tournament(Settings(), seeded_rng(1))
    for i in range(1, 5):
        replayed.register(f"p{i:02d}", f"P{i:02d}")
    replayed.start(0.0)
    for p in payloads:
        apply_director(replayed, p)
    assert replayed.settings == live.settings
    assert replayed.begin_hand(1, 3.0)[0].ante == 100
