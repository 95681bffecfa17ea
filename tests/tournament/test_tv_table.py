"""The TV table as a rule change (issue 27 part 6): which table, how long after each hand,
refused for a table that is not there, in words, replayed from the log."""

from __future__ import annotations

import pytest

from server.tournament import Director, TournamentError
from server.tournament.events import DirectorAction
from server.tournament.inputs import apply_director

from .helpers import started


def test_the_director_makes_a_table_the_tv_table_and_says_so() -> None:
    t = started(4)
    events = Director(t).change_rules(1.0, tv_table=1, tv_delay=30, reason="the stream")
    record = next(e for e in events if isinstance(e, DirectorAction))
    assert record.summary == ("Rules v2: TV table 1 (its spectators see every hand's hole cards once the hand "
                              "is over), the TV table's cards 30 s after each hand ends from the next hand")
    assert (t.settings.tv_table, t.settings.tv_delay) == (1, 30)
    Director(t).change_rules(2.0, tv_table=0, reason="off air")
    assert t.settings.tv_table is None


def test_a_table_that_is_not_there_or_a_bad_delay_is_refused() -> None:
    t = started(4)
    with pytest.raises(TournamentError, match="there is no table 7 to make the TV table .tables: 1."):
        Director(t).change_rules(1.0, tv_table=7, reason="typo")
    with pytest.raises(TournamentError, match="tv_delay is from 0 to 3600 seconds"):
        Director(t).change_rules(1.0, tv_delay=-1, reason="bad")
    assert t.settings.tv_table is None and t.rules_version == 1


def test_a_logged_tv_table_replays() -> None:
    t = started(4)
    apply_director(t, {"op": "set_options", "now": 1.0, "reason": "tv", "options": {"tv_table": 1, "tv_delay": 0}})
    assert t.settings.tv_table == 1
