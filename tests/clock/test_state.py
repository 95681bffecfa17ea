"""What the room's screen shows, from a pure tournament: no server, no browser.

``server.clock.state`` builds the three pictures the page draws. These tests drive a real
``Tournament`` (and its ``Director``) through registration, levels, pauses, moves, hands in
progress and the end, and read the dicts; a whole random tournament checks that no state
ever carries a card.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from poker.cards import card_str, seeded_rng
from poker.hand import Hand
from poker.policy import random_action
from server.clock.state import (
    ANNOUNCEMENTS_KEPT,
    MOVES_KEPT,
    RoomContext,
    RoomNews,
    clock_state,
    standings_state,
    tables_state,
)
from server.tournament import Director, Settings, Tournament
from tests.tournament.helpers import bust, play_hand, randomly, started

SCHEDULE = ((100, 200), (200, 400), (300, 600))
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def playing(_: str) -> str:
    return "playing"


def test_before_the_start_the_screen_shows_registration_and_the_first_level() -> None:
    t = Tournament(Settings(name="Friday", schedule=SCHEDULE, level_minutes=15), seeded_rng(1))
    for i in range(5):
        t.register(f"p{i}", f"Player {i}")
    s = clock_state(t, 0.0, context=RoomContext(starts="at 20:00", deadline="23:45"))
    assert s["name"] == "Friday"
    assert s["phase"] == "registering"
    assert (s["level"]["number"], s["level"]["small_blind"], s["level"]["big_blind"]) == (1, 100, 200)
    assert s["level"]["seconds_left"] == 15 * 60 and s["level"]["running"] is False
    assert s["next_level"] == {"number": 2, "small_blind": 200, "big_blind": 400, "ante": 0}
    assert s["players"] == {"left": 5, "registered": 5, "entries": 5}
    assert s["chips_in_play"] == 5 * 10_000  # what will be in play
    assert s["average_stack"] == 10_000 and s["average_bb"] == 50.0
    assert s["starts"] == "at 20:00" and s["deadline"] == "23:45"


def test_the_countdown_runs_with_tournament_time_and_the_level_changes() -> None:
    t = started(6, schedule=SCHEDULE, level_minutes=10, seats_per_table=6)
    s = clock_state(t, 0.0)
    assert s["phase"] == "running" and s["level"]["running"]
    assert s["level"]["seconds_left"] == 600.0
    assert clock_state(t, 125.5)["level"]["seconds_left"] == 474.5
    t.tick(600.0)
    s = clock_state(t, 601.0)
    assert (s["level"]["number"], s["level"]["big_blind"], s["level"]["seconds_left"]) == (2, 400, 599.0)
    assert s["next_level"]["big_blind"] == 600
    assert s["players"] == {"left": 6, "registered": 6, "entries": 6}
    assert s["average_stack"] == 10_000 and s["average_bb"] == 25.0
    assert s["chips_in_play"] == 60_000 and s["tables"] == 1


def test_levels_by_hands_count_hands_not_seconds() -> None:
    t = started(4, schedule=SCHEDULE, hands_per_level=3, seats_per_table=4)
    s = clock_state(t, 0.0)
    assert s["level"]["by_hands"] and s["level"]["seconds_left"] is None
    assert s["level"]["hands_left"] == 3
    play_hand(t, 1, 0.0, randomly(random.Random(1)))
    assert clock_state(t, 0.0)["level"]["hands_left"] == 2


def test_a_pause_shows_paused_with_its_reason_and_a_break_shows_break() -> None:
    t = started(4, schedule=SCHEDULE, level_minutes=10, seats_per_table=4)
    Director(t).pause(100.0, reason="a ruling at table 1")
    s = clock_state(t, 160.0)
    assert s["phase"] == "paused" and not s["on_break"]
    assert s["paused_reason"] == "a ruling at table 1"
    assert s["level"]["seconds_left"] == 500.0 and not s["level"]["running"]  # frozen
    Director(t).resume(200.0, reason="done")
    s = clock_state(t, 210.0)
    assert s["phase"] == "running" and s["paused_reason"] is None
    assert s["level"]["seconds_left"] == 490.0
    Director(t).pause(220.0, reason="Dinner break, 20 minutes")
    s = clock_state(t, 230.0)
    assert s["phase"] == "paused" and s["on_break"]


def test_a_database_failure_shows_as_a_pause_without_its_details() -> None:
    t = started(4, schedule=SCHEDULE, seats_per_table=4)
    s = clock_state(t, 1.0, context=RoomContext(halted=True))
    assert s["phase"] == "paused" and "database" not in json.dumps(s)


def fuller_table(t: Tournament) -> tuple[int, int]:
    """(the table with more players, the other) of two."""
    a, b = sorted(t.table_ids(), key=lambda tid: -len(t.table(tid).seats))
    return a, b


def test_moves_and_announcements_newest_first_and_private_ones_never() -> None:
    t = started(9, schedule=SCHEDULE, seats_per_table=6)  # 5 and 4: one move keeps them balanced
    news = RoomNews()
    d = Director(t)
    src, dst = fuller_table(t)
    mover = t.table(src).seats[min(t.table(src).seats)].player_id
    events = d.move_player(5.0, mover, dst, None, reason="balance by hand")
    news.take(t, 5.0, events)
    d.announce(10.0, "Chip race at the break", reason="info")
    d.announce(12.0, "Only for P01", to=["p01"], reason="private")
    d.announce(20.0, "Final table at 22:00", reason="info")
    s = clock_state(t, 80.0, news=news)
    (move,) = s["moves"]
    loc = t.location(mover)
    assert loc is not None
    assert move["kind"] == "move" and move["name"] == t.name_of(mover)
    assert (move["from_table"], move["to_table"], move["to_seat"]) == (src, dst, loc.seat)
    assert move["ago"] == 75
    assert [a["text"] for a in s["announcements"]] == ["Final table at 22:00", "Chip race at the break"]
    assert [a["ago"] for a in s["announcements"]] == [60, 70]
    assert "Only for P01" not in json.dumps(s)


def test_the_screen_keeps_only_the_latest_news() -> None:
    t = started(9, schedule=SCHEDULE, seats_per_table=6)
    news = RoomNews()
    d = Director(t)
    for i in range(MOVES_KEPT + 3):
        src, dst = fuller_table(t)
        pid = t.table(src).seats[min(t.table(src).seats)].player_id
        news.take(t, float(i), d.move_player(float(i), pid, dst, None, reason="shuffle"))
        d.announce(float(i), f"note {i}", reason="info")
    s = clock_state(t, 50.0, news=news)
    assert len(s["moves"]) == MOVES_KEPT
    assert [a["text"] for a in s["announcements"]] == [f"note {i}" for i in range(MOVES_KEPT + 2, MOVES_KEPT + 2 - ANNOUNCEMENTS_KEPT, -1)]


def test_busts_count_down_players_left_and_the_end_shows_the_standings() -> None:
    t = started(3, schedule=SCHEDULE, seats_per_table=3)
    seats = t.table(1).seats
    winner, *losers = [seats[s].player_id for s in sorted(seats)]
    bust(t, 1, winner, losers[:1])
    s = clock_state(t, 1.0)
    assert s["players"] == {"left": 2, "registered": 3, "entries": 3}
    assert s["average_stack"] == 15_000 and s["final"] is None
    Director(t).award(1.5, "Best bluff", losers[1], reason="the river shove")
    bust(t, 1, winner, losers[1:])
    s = clock_state(t, 2.0)
    assert s["phase"] == "finished"
    final = s["final"]
    assert final["winner"] == t.name_of(winner) and final["reason"] == "winner"
    assert [p["place"] for p in final["places"]] == [1, 2, 3]
    assert final["places"][0]["chips"] == 30_000 and final["places"][2]["out"]
    assert [(tr["title"], tr["name"]) for tr in final["trophies"]] == [
        ("Winner", t.name_of(winner)), ("Runner-up", t.name_of(losers[1])),
        ("Best bluff", t.name_of(losers[1]))]
    standings = standings_state(t, 2.0)["standings"]
    assert [p["name"] for p in standings] == [p["name"] for p in final["places"]]


def test_standings_list_everyone_by_place_with_their_seat() -> None:
    t = started(6, schedule=SCHEDULE, seats_per_table=3)
    s = standings_state(t, 0.0)
    assert s["clock"]["phase"] == "running"
    places = s["standings"]
    assert len(places) == 6 and all(p["place"] == 1 for p in places)  # all equal: shared 1st
    for p in places:
        pid = next(x for x in t.registered if t.name_of(x) == p["name"])
        loc = t.location(pid)
        assert loc is not None and (p["table"], p["seat"]) == (loc.table_id, loc.seat)


def test_tables_show_stacks_bets_and_the_hand_number_mid_hand() -> None:
    t = started(4, schedule=SCHEDULE, seats_per_table=4)
    hand, _ = t.begin_hand(1, 0.0)
    rng = random.Random(3)
    for _ in range(3):
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, random_action(legal, rng))
    (table,) = tables_state(t, 0.0, playing)["tables"]
    assert table["hand_no"] == hand.hand_no and table["in_hand"]
    assert table["chips"] == 40_000  # stacks and bets together: every chip at the table
    assert table["pot"] == sum(s["bet"] for s in table["seats"]) > 0
    by_seat = {s["seat"]: s for s in table["seats"]}
    for seat in hand.seats:
        assert by_seat[seat]["stack"] == hand.stack(seat)
        assert by_seat[seat]["bet"] == hand.committed(seat)
        assert by_seat[seat]["folded"] == hand.folded(seat)
    to_act = [s["seat"] for s in table["seats"] if s["to_act"]]
    assert to_act == ([hand.to_act] if hand.to_act is not None else [])


def _all_strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [k for k in value] + [s for v in value.values() for s in _all_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _all_strings(v)]
    return [value] if isinstance(value, str) else []


def test_no_state_ever_carries_a_card() -> None:
    """A whole tournament, every table's state at every action: no card, not even a shown
    one at showdown, and no key that would hold one."""
    t = started(9, seed=7, schedule=SCHEDULE, seats_per_table=5, starting_stack=2_000)
    news = RoomNews()
    rng = random.Random(7)
    hands: dict[int, Hand] = {}
    now = 0.0
    seen = 0
    while not t.finished and now < 5_000:
        for tid in t.table_ids():
            if tid not in hands and t.can_deal(tid, now):
                hands[tid], _ = t.begin_hand(tid, now)
        for tid in sorted(hands):
            hand = hands[tid]
            legal = hand.legal_actions()
            if legal is not None:
                hand.act(legal.seat, random_action(legal, rng))
            dealt = {card_str(c) for seat in hand.seats for c in hand.hole_cards(seat)}
            states = [clock_state(t, now, news=news), standings_state(t, now, news=news),
                      tables_state(t, now, playing, news=news)]
            for state in states:
                strings = _all_strings(state)
                assert not [x for x in strings if CARD.search(x)], strings
                assert not {"cards", "hole_cards", "board", "deck", "token", "secret"} & set(strings)
                assert not dealt & set(strings)
            seen += 1
            if hand.is_over:
                del hands[tid]
                news.take(t, now, t.end_hand(tid, now))
        now += 1.0
    assert t.finished and seen > 100


def test_late_registration_and_a_held_table_show() -> None:
    t = started(6, schedule=SCHEDULE, level_minutes=10, seats_per_table=3)
    assert clock_state(t, 0.0)["late_until"] is None
    Director(t).late_registration(0.0, 2, reason="friends on the way")
    assert clock_state(t, 1.0)["late_until"] == 2
    t.tick(1200.0)  # level 3: closed
    assert clock_state(t, 1201.0)["late_until"] is None
    Director(t).pause_table(1201.0, 2, paused=True, reason="a spill")
    held = {x["table"]: x["held"] for x in tables_state(t, 1201.0, playing)["tables"]}
    assert held == {1: False, 2: True}


def test_a_scheduled_break_shows_break_with_its_countdown_and_the_next_break_before_it() -> None:
    t = started(4, schedule=SCHEDULE, level_minutes=10, seats_per_table=4)
    s = clock_state(t, 0.0)
    assert s["next_break"] is None and s["next_break_seconds"] is None
    Director(t).set_break(60.0, 2, 15, reason="dinner")
    s = clock_state(t, 60.0)
    assert s["next_break"] == {"after_level": 2, "minutes": 15}
    assert s["next_break_seconds"] == 540.0 + 600.0  # the rest of level 1, then level 2
    t.tick(1200.0)
    s = clock_state(t, 1500.0)
    assert s["phase"] == "paused" and s["on_break"]
    assert s["paused_reason"] == "break after level 2: play resumes at level 3"
    assert s["break_seconds_left"] == 600.0 and s["break_seconds"] == 900.0
    assert s["next_break"] is None  # taken
    t.tick(2100.0)
    s = clock_state(t, 2100.0)
    assert s["phase"] == "running" and not s["on_break"] and s["break_seconds_left"] is None


def test_a_directors_pause_says_how_long_it_has_lasted_and_the_play_so_far() -> None:
    """Issue 25 item 7: a "dinner break" has no end to count to: the screen counts up
    from its start. Time played leaves pauses and breaks out."""
    t = started(4, schedule=SCHEDULE, level_minutes=10, seats_per_table=4)
    assert clock_state(t, 50.0)["elapsed_seconds"] == 50.0
    Director(t).pause(100.0, reason="Dinner break")
    s = clock_state(t, 225.0)
    assert s["on_break"] and s["paused_seconds"] == 125.0
    assert s["elapsed_seconds"] == 100.0  # the pause is not play
    Director(t).resume(300.0, reason="back")
    s = clock_state(t, 310.0)
    assert s["paused_seconds"] is None and s["elapsed_seconds"] == 110.0


def test_a_held_table_is_named_on_the_clock() -> None:
    """Issue 25 item 11: with its only table held, the big screen can say HELD."""
    t = started(2, schedule=SCHEDULE, level_minutes=10, seats_per_table=2)
    assert clock_state(t, 1.0)["held_tables"] == []
    Director(t).pause_table(2.0, 1, paused=True, reason="a ruling")
    assert clock_state(t, 3.0)["held_tables"] == [1]


def test_a_clock_started_on_a_tournament_under_way_says_earlier_moves_are_lost() -> None:
    """Issue 25 item 10: after a restart the clock heard no moves; the state says so."""
    from types import SimpleNamespace

    from server.clock.feeds import Feeds

    t = Tournament(Settings(schedule=SCHEDULE), seeded_rng(1))
    for i in range(3):
        t.register(f"p{i}", f"P{i}")
    fresh = Feeds(SimpleNamespace(tournament=t, watchers=[]))  # type: ignore[arg-type]
    assert not fresh.news.resumed
    t.start(0.0)
    later = Feeds(SimpleNamespace(tournament=t, watchers=[]))  # type: ignore[arg-type]
    assert later.news.resumed
    assert clock_state(t, 1.0, news=later.news)["moves_before_restart_lost"]
    assert not clock_state(t, 1.0, news=fresh.news)["moves_before_restart_lost"]


def test_the_screen_shows_the_big_blind_ante_of_this_level_and_the_next() -> None:
    """Issue 27: with antes written into the schedule, the level and the next say them."""
    t = Tournament(Settings(schedule=SCHEDULE, antes=(200, 300, 600), big_blind_ante=True), seeded_rng(1))
    for i in range(3):
        t.register(f"p{i}", f"Player {i}")
    t.start(0.0)
    s = clock_state(t, 1.0)
    assert (s["level"]["big_blind"], s["level"]["ante"]) == (200, 200)
    assert s["next_level"] == {"number": 2, "small_blind": 200, "big_blind": 400, "ante": 300}


def test_the_screen_counts_entries_with_re_entries() -> None:
    """Issue 27: a re-entry is an entry more, of the same player."""
    from server.tournament import Director
    from tests.tournament.helpers import bust, player_at

    t = Tournament(Settings(schedule=SCHEDULE, seats_per_table=6, starting_stack=1000), seeded_rng(1))
    for i in range(3):
        t.register(f"p{i}", f"Player {i}")
    t.start(0.0)
    Director(t).late_registration(1.0, 2, reason="open")
    Director(t).change_rules(1.0, max_entries=2, reason="re-entry")
    seats = sorted(t.table(1).seats)
    loser = player_at(t, 1, seats[1])
    bust(t, 1, player_at(t, 1, seats[0]), [loser], now=2.0)
    t.reenter(loser)
    s = clock_state(t, 3.0)
    assert s["players"] == {"left": 3, "registered": 3, "entries": 4}
