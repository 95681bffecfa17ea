"""Tournaments in the states the room's screen must draw well, built from the pure
tournament (no server): the start, a scheduled break, a director's "dinner break", levels
by hands, 60 players at 7 tables with moves and a long announcement, the end.

A ``Scene`` is a tournament with what the server would add (table news, the start rule,
who is away) and the tournament time it was left at; ``state(feed, elapsed)`` draws the
feed ``elapsed`` real seconds later with ``state.py``, as the server would: the browser
tests serve these, so the page draws what the real server would send.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from poker.actions import Action
from poker.cards import seeded_rng
from server.clock.state import (
    Json,
    RoomContext,
    RoomNews,
    clock_state,
    standings_state,
    tables_state,
)
from server.tournament import Director, Settings, Tournament
from tests.tournament.helpers import bust

# Blinds that reach four and five digits (a long night's levels).
SCHEDULE = ((25, 50), (50, 100), (75, 150), (100, 200), (150, 300), (200, 400), (300, 600),
            (400, 800), (500, 1000), (600, 1200), (800, 1600), (1000, 2000), (1500, 3000),
            (3000, 6000), (4000, 8000), (5000, 10_000), (10_000, 20_000), (15_000, 30_000))
LONG_NAME = "The Hickory Social Club Winter Series Main Event, Night Four"
DINNER = "Dinner break: the kitchen closes at 21:30"
BIG_NEWS = ("Chip race at the next break: every 25 chip is raced off.\n"
            "Players with a 25 chip bring it to the director's table.\n"
            "Cards are dealt face up, one for each chip.\n"
            "The highest card wins a 100 chip.\n"
            "Nobody can be knocked out by the chip race.")


@attrs.define
class Scene:
    name: str
    t: Tournament
    now: float  # tournament time when the scene is shown
    news: RoomNews = attrs.Factory(RoomNews)
    context: RoomContext = RoomContext()
    away: frozenset[str] = frozenset()  # player ids whose client is gone

    def presence(self, player_id: str) -> str:
        return "away" if player_id in self.away else "playing"

    def state(self, feed: str, elapsed: float = 0.0) -> Json:
        now = self.now + elapsed
        if feed == "standings":
            return standings_state(self.t, now, news=self.news, context=self.context)
        if feed == "tables":
            return tables_state(self.t, now, self.presence, news=self.news, context=self.context)
        return clock_state(self.t, now, news=self.news, context=self.context)


def tournament(players: int, name: str, **options: object) -> Tournament:
    options = {"schedule": SCHEDULE, "starting_stack": 20_000, **options}
    t = Tournament(Settings(name=name, **options), seeded_rng(5))  # type: ignore[arg-type]
    for i in range(1, players + 1):
        t.register(f"p{i:02d}", NAMES[(i - 1) % len(NAMES)] + ("" if i <= len(NAMES) else f" {i}"))
    t.start(0.0)
    return t


NAMES = ("Alice Okonkwo", "Ben", "Carol", "Dmitri Vasilievich", "Erin", "Farouk", "Grace", "Hiro",
         "Ines", "Jack", "Kemal", "Lena", "Marguerite-Hélène", "Nils", "Oona", "Pavel",
         "Quentin", "Rosa", "Sam", "Tanvi", "Uli", "Vera", "Wen", "Xavier", "Yusuf", "Zoe")


def renamed(t: Tournament, night: str) -> None:
    t.settings = attrs.evolve(t.settings, name=LONG_NAME.replace("Night Four", night))


def at_level(t: Tournament, level: int, now: float) -> float:
    Director(t).set_level(now, level, reason="a long night")
    return now


def start() -> Scene:
    """Level 1 just under way, a break scheduled after level 4."""
    t = tournament(18, "Friday Night Hold'em", level_minutes=20, breaks=((4, 15),))
    return Scene("start", t, 95.0, context=RoomContext(deadline="23:45"))


def scheduled_break() -> Scene:
    """Three minutes into the 15-minute break after level 2; the blinds after it 75/150."""
    t = tournament(9, "Break Night", level_minutes=20, breaks=((2, 15),))
    t.tick(2400.0)  # the end of level 2: the break begins
    return Scene("break", t, 2580.0)


def dinner_break() -> Scene:
    """Levels by hands; the director paused for dinner two minutes ago."""
    t = tournament(18, "Dinner Night", hands_per_level=6)
    Director(t).pause(100.0, reason=DINNER)
    return Scene("dinner", t, 100.0 + 125.0)


def by_hands() -> Scene:
    """Levels by hands at level 14 (3,000/6,000), a 30-minute break after level 15."""
    t = tournament(27, "Hands Night", hands_per_level=4, breaks=((15, 30),))
    at_level(t, 14, 10.0)
    return Scene("hands", t, 20.0)


def moves(t: Tournament, news: RoomNews, count: int, now: float) -> None:
    """``count`` director moves from the fullest table to the emptiest, as the room hears them."""
    d = Director(t)
    for i in range(count):
        ids = sorted(t.table_ids(), key=lambda tid: (-len(t.table(tid).seats), tid))
        src, dst = ids[0], ids[-1]
        seats = sorted(t.table(src).seats)
        pid = t.table(src).seats[seats[i % len(seats)]].player_id
        news.take(t, now + i, d.move_player(now + i, pid, dst, None, reason="balance"))


def big_field(*, news: bool = True) -> Scene:
    """60 registered at 7 tables, 58 left, level 14, six moves, a five-line announcement
    (or, without ``news``, neither)."""
    t = tournament(60, LONG_NAME, level_minutes=20, breaks=((16, 20),), big_blind_ante=True)
    for tid in (1, 2):
        seats = t.table(tid).seats
        winner, loser = seats[min(seats)].player_id, seats[max(seats)].player_id
        bust(t, tid, winner, [loser], 5.0)
    at_level(t, 14, 20.0)
    if not news:
        return Scene("big", t, 64.0, context=RoomContext(deadline="01:30"))
    heard = RoomNews()
    moves(t, heard, 6, 30.0)
    d = Director(t)
    d.announce(40.0, "Seat open at table 3: late entries to the desk", reason="info")
    d.announce(60.0, BIG_NEWS, reason="info")
    mid_hand(t, 3, 62.0, 4)
    mid_hand(t, 6, 62.0, 2)
    return Scene("big", t, 64.0, news=heard, context=RoomContext(deadline="01:30"))


def mid_hand(t: Tournament, table_id: int, now: float, actions: int) -> None:
    """A hand under way at ``table_id``: a raise, then calls and folds, ``actions`` of them."""
    hand, _ = t.begin_hand(table_id, now)
    for i in range(actions):
        legal = hand.legal_actions()
        assert legal is not None
        if i == 0 and legal.min_raise_to is not None:
            action = Action.raise_to(legal.min_raise_to)
        elif i % 2 and legal.fold:
            action = Action.fold()
        else:
            action = Action.call() if legal.call is not None else Action.check()
        hand.act(legal.seat, action)


def late() -> Scene:
    """The big field hours later: level 17, five-digit blinds and ante, beside the long name."""
    scene = big_field()
    scene.name = "late"
    at_level(scene.t, 17, scene.now)
    scene.now += 90.0  # the announcement is off the overlay
    renamed(scene.t, "Night Nine")
    return scene


def busy() -> Scene:
    """The big field a minute later: the announcement is off the overlay, in its panel."""
    scene = big_field()
    scene.name, scene.now = "busy", scene.now + 60.0
    renamed(scene.t, "Night Five")  # the page is known to show it by its name
    return scene


def finished() -> Scene:
    """60 players played to one (one a hand, the big stack of a table busting the short),
    with a trophy; the winner's client has gone home."""
    t = tournament(60, "Final Night", level_minutes=20)
    news = RoomNews()
    now = 0.0
    d = Director(t)
    while not t.finished:
        now += 1.0
        tid = max(t.table_ids(), key=lambda x: (len(t.table(x).seats), -x))
        seats = t.table(tid).seats
        ids = sorted((p.player_id for p in seats.values()), key=t.stack_of)
        news.take(t, now, bust(t, tid, ids[-1], [ids[0]], now)[1])
        if len(t.players_in()) == 3 and not t.floor.awarded:
            d.award(now, "Best bluff", ids[0], reason="the river shove")
    assert t.result is not None and t.result.winner is not None
    return Scene("final", t, now + 30.0, news=news, away=frozenset({t.result.winner}))


SCENES: dict[str, Callable[[], Scene]] = {
    "start": start, "break": scheduled_break, "dinner": dinner_break, "hands": by_hands,
    "big": big_field, "busy": busy, "late": late, "final": finished,
}


def held() -> Scene:
    """Heads-up at the one table left, which the director holds."""
    t = tournament(2, "Held Night", level_minutes=20)
    Director(t).pause_table(30.0, 1, paused=True, reason="a ruling")
    return Scene("held", t, 40.0)


def restarted() -> Scene:
    """The big field as a clock started after a restart sees it: no moves heard."""
    scene = big_field()
    scene.name, scene.now = "restarted", scene.now + 60.0
    scene.news = RoomNews(resumed=True)
    renamed(scene.t, "Night Six")
    return scene


def quiet() -> Scene:
    """The big field with no table news at all (the centre must not move for news)."""
    scene = big_field(news=False)
    scene.name, scene.now = "quiet", scene.now + 60.0
    renamed(scene.t, "Night Seven")
    return scene
