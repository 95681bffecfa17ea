"""The director's chip corrections, transfers and deadline at their edges, and why a
table may not deal, in the words the director reads (docs/testing.md: mutants of these
bounds and messages lived)."""

from __future__ import annotations

import pytest

from poker.limits import MAX_CHIPS
from server.tournament import Announcement, ChipsCorrected, Director, TournamentError

from .helpers import play_out, player_at, shove, started


def small_blind_folds(correct: object) -> tuple[list[object], str, object]:
    """Three players at one table; ``correct(director, sb_player)`` is called during a hand
    the small blind folds (9,900 chips left), and the hand is ended."""
    t = started(3)
    hand, _ = t.begin_hand(1, 1.0)
    sb = player_at(t, 1, hand.small_blind_seat)
    record = correct(Director(t), sb)  # type: ignore[operator]
    assert record[0].pending
    play_out(t, 1, hand, shove([]))
    return t.end_hand(1, 2.0), sb, t


def test_a_pending_correction_may_leave_one_chip_not_none() -> None:
    events, sb, t = small_blind_folds(lambda d, p: d.correct_chips(1.5, p, -9_899, reason="miscount"))
    assert [(e.player_id, e.delta, e.stack) for e in events if isinstance(e, ChipsCorrected)] == [(sb, -9_899, 1)]
    events, sb, t = small_blind_folds(lambda d, p: d.correct_chips(1.5, p, -9_900, reason="miscount"))
    assert not any(isinstance(e, ChipsCorrected) for e in events)
    (note,) = [e for e in events if isinstance(e, Announcement)]
    assert note == Announcement(at=1.5, to=(sb,), text=(
        f"The director's the chip correction -9900 for {t.name_of(sb)} was not applied: "  # type: ignore[attr-defined]
        "it no longer fits their chips or seat"))
    events, sb, t = small_blind_folds(lambda d, p: d.correct_chips(1.5, p, 250, reason="found chips"))
    assert [(e.delta, e.stack) for e in events if isinstance(e, ChipsCorrected)] == [(250, 10_150)]
    assert t.audit_log[0].summary == (  # type: ignore[attr-defined]
        f"Chip count of {t.name_of(sb)} corrected by +250 after the current hand")  # type: ignore[attr-defined]


def test_a_pending_transfer_may_leave_the_giver_one_chip_not_none() -> None:
    def give(amount: int) -> object:
        return lambda d, p: d.transfer_chips(1.5, p, "p01" if p != "p01" else "p02", amount, reason="a deal")

    events, sb, t = small_blind_folds(give(9_899))
    to = "p01" if sb != "p01" else "p02"
    moved = [(e.player_id, e.delta, e.stack, e.counterpart, e.adjustment) for e in events
             if isinstance(e, ChipsCorrected)]
    assert moved == [(sb, -9_899, 1, to, 0), (to, 9_899, t.stack_of(to), sb, 0)]  # type: ignore[attr-defined]
    events, sb, t = small_blind_folds(give(9_900))
    (note,) = [e for e in events if isinstance(e, Announcement)]
    assert note.to == (sb,) and note.at == 1.5
    assert note.text == (f"The director's the transfer of 9900 chips for {t.name_of(sb)} was not applied: "  # type: ignore[attr-defined]
                         "it no longer fits their chips or seat")


def test_transfers_and_corrections_refuse_what_cannot_be() -> None:
    t = started(3)
    d = Director(t)
    with pytest.raises(TournamentError) as info:
        d.transfer_chips(1.0, "p01", "p01", 5, reason="x")
    assert str(info.value) == "a chip transfer needs two different players"
    with pytest.raises(TournamentError) as info:
        d.transfer_chips(1.0, "p01", "p02", 0, reason="x")
    assert str(info.value) == "a chip transfer is a whole number of chips above 0, not 0"
    d.transfer_chips(1.0, "p01", "p02", 1, reason="the smallest transfer")
    assert (t.stack_of("p01"), t.stack_of("p02")) == (9_999, 10_001)
    (record, _) = d.correct_chips(2.0, "p03", 1, reason="one chip found")
    assert record.summary == "Chip count of P03 corrected by +1"
    d.correct_chips(3.0, "p03", MAX_CHIPS - t.chips_in_play(), reason="up to the limit")
    assert t.chips_in_play() == MAX_CHIPS
    with pytest.raises(TournamentError) as info:
        d.correct_chips(4.0, "p03", 1, reason="one more")
    assert str(info.value) == (f"1 more chips would put {MAX_CHIPS + 1} chips in play, above the limit of {MAX_CHIPS}")
    d.correct_chips(5.0, "p03", -1, reason="one too many")
    assert t.chips_in_play() == MAX_CHIPS - 1


def test_a_deadline_just_inside_the_grace_is_now_and_just_outside_it_is_refused() -> None:
    from server.tournament.director_limits import DEADLINE_GRACE

    t = started(3)
    d = Director(t)
    now = 1_000.0
    with pytest.raises(TournamentError) as info:
        d.set_deadline(now, now - DEADLINE_GRACE - 1, reason="x")
    assert str(info.value) == ("that deadline is 61 seconds in the past: give a later one "
                               "(the time now ends the tournament after the hands in play)")
    events = d.set_deadline(now, now - DEADLINE_GRACE, reason="last orders")  # at the grace's edge: now
    assert t.settings.deadline == now and t.deadline_passed
    assert events[0].summary == "Rules v2: The deadline is now in 0 min"


def test_a_passed_deadline_is_put_back_while_the_last_hands_are_played() -> None:
    from server.tournament import RulesChanged

    t = started(3)
    hand, _ = t.begin_hand(1, 1.0)
    d = Director(t)
    d.set_deadline(2.0, 2.0, reason="closing")
    assert t.deadline_passed and t.why_not_deal(1, 3.0) is not None
    events = d.set_deadline(3.0, 3.0 + 3600, reason="one more hour")
    assert not t.deadline_passed
    assert RulesChanged(changes=(("deadline", "3603.0"),), version=3) in events
    assert events[0].summary == "Rules v3: The deadline is now in 1 h"
    play_out(t, 1, hand, shove([]))
    t.end_hand(1, 4.0)
    assert t.state == "running" and t.why_not_deal(1, 5.0) is None
    t.begin_hand(1, 5.0)
    d.set_deadline(6.0, 6.0, reason="now, after all")
    assert t.deadline_passed is True  # a deadline of now has passed (this hand is the last)
    d.set_deadline(7.0, 7.0, reason="still now")
    assert t.deadline_passed is True and t.settings.deadline == 7.0
    d.set_deadline(8.0, None, reason="no deadline tonight")
    assert t.settings.deadline is None and t.deadline_passed is False


def test_why_a_table_may_not_deal_in_words() -> None:
    from poker.cards import seeded_rng
    from server.tournament import Settings, Tournament

    t = Tournament(Settings(seats_per_table=4), seeded_rng(1))
    for i in range(1, 7):
        t.register(f"p{i}", f"P{i}")
    assert t.why_not_deal(1, 0.0) == "the tournament has not started"
    t.start(0.0)
    d = Director(t)
    d.pause(1.0, reason="x")
    assert t.why_not_deal(1, 1.0) == "the tournament clock is paused: no new hand starts until it resumes"
    d.resume(2.0, reason="x")
    assert t.why_not_deal(7, 2.0) == "there is no table 7 (tables: 1, 2)"
    hand, _ = t.begin_hand(1, 2.5)
    assert t.why_not_deal(1, 2.5) == f"table 1 is in a hand (#{hand.hand_no})"
    d.set_deadline(3.0, 3.0, reason="x")  # the hand at table 1 is the last
    assert t.why_not_deal(2, 3.0) == "the deadline has passed: no new hand starts"
    play_out(t, 1, hand, shove([]))
    t.end_hand(1, 4.0)
    assert t.state == "finished" and t.why_not_deal(1, 5.0) == "the tournament is over"


def test_a_table_deals_with_two_players_with_chips_even_one_chip() -> None:
    t = started(2)
    Director(t).set_stack(1.0, "p01", 1, reason="short")
    assert t.why_not_deal(1, 2.0) is None


def test_a_table_waits_for_an_operation_on_its_player_held_by_a_hand_elsewhere() -> None:
    t = started(6, seats_per_table=4)  # two tables of three
    a, b = player_at(t, 1, sorted(t.table(1).seats)[0]), player_at(t, 2, sorted(t.table(2).seats)[0])
    hand, _ = t.begin_hand(1, 1.0)
    Director(t).correct_chips(1.5, a, 100, reason="found under the table")  # a's own: no wait at table 2
    assert t.why_not_deal(2, 1.5) is None
    Director(t).transfer_chips(2.0, a, b, 100, reason="a side bet settled")  # waits for a's hand
    assert t.why_not_deal(2, 3.0) == "table 2 waits for a director's operation on a player in a hand elsewhere"
    play_out(t, 1, hand, shove([]))
    t.end_hand(1, 4.0)
    assert t.why_not_deal(2, 5.0) is None


def test_chips_in_play_count_every_table_whatever_its_hand_is_doing() -> None:
    t = started(6, seats_per_table=4)  # two tables of three: 60,000 chips
    assert t.chips_in_play() == 60_000
    h1, _ = t.begin_hand(1, 1.0)
    h2, _ = t.begin_hand(2, 1.0)
    assert t.chips_in_play() == 60_000  # both in progress
    play_out(t, 2, h2, shove([]))
    assert h2.is_over and t.in_hand(2)
    assert t.chips_in_play() == 60_000  # one in progress, one over but not ended
    play_out(t, 1, h1, shove([]))
    t.end_hand(1, 2.0)
    assert t.chips_in_play() == 60_000  # one ended, the other over but not ended
    t.end_hand(2, 2.0)
    assert t.chips_in_play() == 60_000


def test_a_table_that_does_not_exist_is_named_with_the_tables_that_do() -> None:
    from poker.cards import seeded_rng
    from server.tournament import Settings, Tournament

    t = Tournament(Settings(), seeded_rng(1))
    with pytest.raises(TournamentError) as info:
        t.table(3)
    assert str(info.value) == "there is no table 3 (tables: none)"
    t = started(6, seats_per_table=4)
    with pytest.raises(TournamentError) as info:
        t.table(3)
    assert str(info.value) == "there is no table 3 (tables: 1, 2)"


def test_a_player_on_the_way_to_a_table_can_be_corrected_and_moved() -> None:
    from server.tournament import PlayerMoved

    from .helpers import bust, check_chips

    t = started(9, seats_per_table=4)  # tables of three
    t.begin_hand(1, 1.0)  # table 1 is in a hand when table 3 breaks
    winner, *losers = (player_at(t, 3, s) for s in sorted(t.table(3).seats))
    bust(t, 3, winner, losers, now=2.0)
    waiting = [(p, t.location(p)) for p in t.players_in() if t.location(p).on_the_way]  # type: ignore[union-attr]
    assert waiting, "someone waits for table 1's hand to end"
    (p, loc), *_ = waiting
    before = t.stack_of(p)
    (_, corrected) = Director(t).correct_chips(3.0, p, 100, reason="found chips")
    assert (corrected.player_id, corrected.stack) == (p, before + 100) and t.stack_of(p) == before + 100
    assert (p, loc.seat) in t.arrivals(loc.table_id)
    other = 2 if loc.table_id != 2 else 1
    free = sorted(t.seating.free_seats(other))[0]
    events = Director(t).move_player(4.0, p, other, free, reason="to the other table")
    (moved,) = [e for e in events if isinstance(e, PlayerMoved) and e.player_id == p]
    assert (moved.from_table, moved.from_seat, moved.to_table, moved.to_seat, moved.stack) == (
        loc.table_id, loc.seat, other, free, before + 100)
    assert p not in [q for q, _ in t.arrivals(loc.table_id)]
    check_chips(t)
