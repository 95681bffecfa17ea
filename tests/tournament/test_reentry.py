"""Re-entry (issue 27 part 2): during late registration, a player who is out may enter
again for the starting stack, if the director allows it (entries per player, through a
level). Standings count entries and say which entry finished where."""

from __future__ import annotations

import pytest

from poker.cards import seeded_rng
from server.tournament import Director, Settings, Tournament, TournamentError
from server.tournament.events import DirectorAction, PlayerReentered, PlayerSeated
from server.tournament.inputs import apply_input

from .helpers import bust, check_chips, check_seating, player_at, started


def opened(players: int = 4, *, entries: int = 2, until: int | None = None) -> Tournament:
    t = started(players, seats_per_table=6, starting_stack=1000)
    d = Director(t)
    d.late_registration(1.0, 3, reason="friends on their way")
    d.change_rules(1.0, max_entries=entries, reentry_until=until or 0, reason="re-entry tonight")
    return t


def first_bust(t: Tournament) -> str:
    winner, loser = player_at(t, 1, sorted(t.table(1).seats)[0]), player_at(t, 1, sorted(t.table(1).seats)[1])
    bust(t, 1, winner, [loser], now=2.0)
    return loser


def test_a_player_who_is_out_re_enters_for_the_starting_stack_and_sits_as_a_late_entry() -> None:
    t = opened()
    gone = first_bust(t)
    assert gone not in t.players_in() and t.why_no_reentry(gone) is None
    issued = t.chips_issued
    events = t.reenter(gone)
    assert events[0] == PlayerReentered(player_id=gone, name=t.name_of(gone), entry=2, stack=1000)
    assert isinstance(events[1], PlayerSeated) and events[1].stack == 1000
    assert gone in t.players_in() and t.stack_of(gone) == 1000
    assert t.chips_issued == issued + 1000 and t.entries_made() == 5
    check_chips(t)
    check_seating(t)


def test_standings_count_entries_and_say_which_entry_finished_where() -> None:
    t = opened(4)
    gone = first_bust(t)
    (before,) = [s for s in t.standings() if s.player_id == gone]
    assert (before.place, before.entry, before.entries) == (4, 1, 1)
    t.reenter(gone)
    rows = [s for s in t.standings() if s.player_id == gone]
    # The new entry is in; the first finished 5th of the five entries (the field grew).
    assert [(s.entry, s.entries, s.eliminated, s.place) for s in rows] == [(2, 2, False, rows[0].place), (1, 2, True, 5)]
    assert sorted(s.place for s in t.standings())[-1] == 5  # the four entries still in are 1st to 4th
    assert len(t.standings()) == 5


def test_re_entry_is_refused_with_the_reason() -> None:
    t = started(4, seats_per_table=6, starting_stack=1000)
    still_in = t.players_in()[0]
    assert t.why_no_reentry(still_in) == f"{t.name_of(still_in)} is still in: only a player who is out may re-enter"
    gone = first_bust(t)
    assert t.why_no_reentry(gone) == "re-entry is not allowed in this tournament"
    Director(t).change_rules(3.0, max_entries=2, reason="re-entry")
    assert t.why_no_reentry(gone) == "re-entry is only during late registration: late registration is closed"
    Director(t).late_registration(3.0, 2, reason="open")
    Director(t).change_rules(3.0, reentry_until=1, reason="level 1 only")
    t.tick(3.0 + 20 * 60)  # level 2
    assert t.why_no_reentry(gone) == "re-entry closed at the end of level 1"
    with pytest.raises(TournamentError, match="re-entry closed at the end of level 1"):
        t.reenter(gone)
    assert gone not in t.players_in()  # refused: nothing changed
    assert t.why_no_reentry("nobody") == "there is no player nobody"


def test_a_player_may_make_only_the_entries_allowed() -> None:
    t = opened(3, entries=2)
    gone = first_bust(t)
    t.reenter(gone)
    seat = next(s for s, p in t.table(1).seats.items() if p.player_id == gone)
    other = next(p.player_id for s, p in t.table(1).seats.items() if s != seat)
    bust(t, 1, other, [gone], now=3.0)
    assert gone not in t.players_in()
    assert t.why_no_reentry(gone) == f"{t.name_of(gone)} has made all 2 entries allowed"
    assert [s.entry for s in t.standings() if s.player_id == gone] == [2, 1]


def test_the_rule_change_is_announced_in_words() -> None:
    t = started(3)
    events = Director(t).change_rules(1.0, max_entries=3, reentry_until=4, reason="TDA")
    record = next(e for e in events if isinstance(e, DirectorAction))
    assert record.summary == "Rules v2: up to 3 entries per player (re-entry), re-entry through level 4 from the next hand"
    events = Director(t).change_rules(2.0, max_entries=1, reason="no more")
    record = next(e for e in events if isinstance(e, DirectorAction))
    assert record.summary == "Rules v3: no re-entry from the next hand"
    with pytest.raises(TournamentError, match="max_entries is a whole number from 1 to 100"):
        Director(t).change_rules(3.0, max_entries=0, reason="bad")


def test_a_late_entry_after_a_bust_moves_the_bust_one_place_down() -> None:
    """Before issue 27 a bust placed 4th of 4 and a later bust after a late entry were both
    4th: every new entry now joins above the entries already out."""
    t = opened(4, entries=1)
    gone = first_bust(t)
    t.register("late", "Latecomer")
    assert next(s.place for s in t.standings() if s.player_id == gone) == 5


def test_a_logged_re_entry_replays_to_the_same_tournament() -> None:
    t = opened()
    gone = first_bust(t)
    apply_input(t, "reenter", None, {"player_id": gone})
    assert gone in t.players_in()
    with pytest.raises(TournamentError, match="a re-entry has no player_id"):
        apply_input(t, "reenter", None, {})
    assert Settings(max_entries=2).max_entries == 2
    assert Tournament(Settings(), seeded_rng(1)).why_no_reentry("x") == "there is no player x"
