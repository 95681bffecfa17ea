"""A trophy's title: 1 to 80 characters once trimmed, each title once (case aside), and a
registered player. Each refusal says what was wrong (docs/testing.md: mutants of these
bounds lived)."""

from __future__ import annotations

import pytest

from server.tournament import TournamentError
from server.tournament.director import Director
from server.tournament.director_limits import MAX_TITLE
from server.tournament.events import DirectorAction, TrophyAwarded

from .helpers import started


def award(title: object, player_id: object = "p01") -> list[object]:
    t = started(4)
    return list(Director(t).award(5.0, title, player_id, reason="test"))  # type: ignore[arg-type]


def test_a_title_of_one_to_eighty_characters_is_awarded_as_trimmed() -> None:
    assert MAX_TITLE == 80
    for title in ("X", " X ", "b" * 80, " " + "b" * 80 + " "):
        events = award(title)
        assert TrophyAwarded(at=5.0, title=title.strip(), player_id="p01") in events


@pytest.mark.parametrize("title", ["", "   ", "b" * 81, None, 7])
def test_a_title_empty_too_long_or_not_text_is_refused_saying_the_bounds(title: object) -> None:
    with pytest.raises(TournamentError) as info:
        award(title)
    assert str(info.value) == f"a trophy needs a title of 1 to 80 characters, not {title!r}"


@pytest.mark.parametrize("player_id", [None, 3])
def test_a_trophy_for_a_player_id_that_is_not_text_is_refused(player_id: object) -> None:
    with pytest.raises(TournamentError) as info:
        award("Best bluff", player_id)
    assert str(info.value) == f"no player {player_id!r} is registered"


def test_a_trophy_for_someone_not_registered_is_refused() -> None:
    with pytest.raises(TournamentError) as info:
        award("Best bluff", "nobody")
    assert str(info.value) == "there is no player nobody"


def test_the_same_title_twice_whatever_the_case_is_refused() -> None:
    t = started(4)
    Director(t).award(5.0, "Best bluff", "p01", reason="test")
    with pytest.raises(TournamentError) as info:
        Director(t).award(6.0, " best BLUFF ", "p02", reason="test")
    assert str(info.value) == "the trophy 'best BLUFF' is already awarded"


def test_an_award_is_in_the_directors_log_naming_the_player() -> None:
    t = started(4)
    record, awarded = Director(t).award(5.0, "Best bluff", "p01", reason=" a bold river ")
    assert isinstance(record, DirectorAction) and record is t.audit_log[-1]
    assert (record.at, record.action, record.reason, record.concerns, record.pending) == (
        5.0, "award", "a bold river", ("p01",), False
    )
    assert record.summary == f"Trophy 'Best bluff': {t.name_of('p01')}"
    assert awarded == TrophyAwarded(at=5.0, title="Best bluff", player_id="p01")
