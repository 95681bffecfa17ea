"""The TV table over a real server (issue 27 part 6), held to the hidden-information rule.

Six players at two tables (three at one, for the delay) play a mix of folds, calls and all-ins; the director makes table
1 the TV table. Spectators of table 1 on versions 3 and 2, a spectator of table 2, the
director and every player record every message. The server's own record of each hand's
hole cards (a watcher) is the truth they are checked against: no connection ever sees a
hole card of a hand before that hand has ended for it, except its own and the ones shown
at showdown; the hole cards of the TV table's hands reach its version 3 spectators only,
after their ``hand_ended``, and with a delay, that delay later; nothing changes for the
players, the director or the other table's spectator.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import trio

import protocol.messages as m
from poker import events as ev
from poker.cards import card_str
from poker.hand import Hand
from server.house import Watcher
from tests.server.director import Director
from tests.server.harness import BotResult, fast_config, joined, play, pusher, running
from tests.server.rawclient import RawClient

Key = tuple[int, int]  # (table, hand_no)


class Truth(Watcher):
    """Every hand's hole cards, by the server (the test's referee)."""

    def __init__(self) -> None:
        self.holes: dict[Key, dict[int, tuple[str, ...]]] = defaultdict(dict)
        self.ended: dict[Key, float] = {}  # when the server ended each hand (trio's clock)

    def hand_events(self, table_id: int, hand: Hand, events: Sequence[ev.Event]) -> None:
        for e in events:
            if isinstance(e, ev.HoleCardsDealt):
                self.holes[(table_id, hand.hand_no)][e.seat] = tuple(card_str(c) for c in e.cards)
            elif isinstance(e, ev.HandEnded):
                self.ended[(table_id, hand.hand_no)] = trio.current_time()


def stamped(c: RawClient) -> list[float]:
    """When each message ``c`` receives arrived (trio's clock), beside ``c.received``."""
    times: list[float] = [float("-inf")] * len(c.received)  # before the stamps: the handshake
    take = c._take

    def _take(line: bytes) -> m.ServerMessage:
        times.append(trio.current_time())
        return take(line)

    c._take = _take  # type: ignore[method-assign]
    return times


def seat_cards(msg: m.ServerMessage) -> list[tuple[int, tuple[str, ...]]]:
    """The (seat, hole cards) a message carries."""
    if isinstance(msg, m.HoleCards | m.Showdown):
        return [(msg.seat, msg.cards)]
    if isinstance(msg, m.TableSnapshot):
        out = [(v.seat, v.cards) for v in msg.seats if v.cards is not None]
        if msg.your_cards is not None and msg.your_seat is not None:
            out.append((msg.your_seat, msg.your_cards))
        return out
    if isinstance(msg, m.TvCards):
        return [(d.seat, d.cards) for d in msg.hands]
    return []


def check_connection(c: RawClient, times: list[float], truth: Truth, *, tv: int | None, delay: float,
                     own: dict[Key, int]) -> int:
    """The hidden-information rule for one connection; the TV hands it was shown."""
    shown: set[tuple[int, int, int]] = set()
    ended: dict[Key, float] = {}
    tv_seen = 0
    for msg, at in zip(c.received, times, strict=True):
        table, hand_no = getattr(msg, "table", None), getattr(msg, "hand_no", None)
        if table is None or hand_no is None:
            continue
        key = (table, hand_no)
        if isinstance(msg, m.HandEnded):
            ended[key] = at
        for seat, cards in seat_cards(msg):
            assert truth.holes[key].get(seat) == cards, f"{c.name}: wrong cards {msg}"
            if isinstance(msg, m.Showdown):
                shown.add((table, hand_no, seat))
                continue
            if own.get(key) == seat or (table, hand_no, seat) in shown:
                continue
            assert isinstance(msg, m.TvCards), f"{c.name} saw seat {seat}'s cards of hand {key}: {msg}"
        if isinstance(msg, m.TvCards):
            assert tv == table and c.version == 3, f"{c.name} got the TV cards of table {table}: {msg}"
            assert key in truth.ended, f"{c.name} got the TV cards of hand {key} before its end"
            assert at - truth.ended[key] >= delay, f"{c.name} got hand {key}'s cards {at - truth.ended[key]} s after its end"
            # A watcher of the table all along saw the hand end first (one who arrived since
            # with a table that broke did not see it at all).
            assert key in ended or not any(
                getattr(x, "table", None) == table and getattr(x, "hand_no", None) == hand_no
                for x in c.received if isinstance(x, m.HandStarted)), f"{c.name}: TV cards before hand_ended"
            assert {d.seat for d in msg.hands} == set(truth.holes[key])
            tv_seen += 1
    return tv_seen


async def test_only_the_tv_tables_spectators_see_its_cards_and_only_once_each_hand_is_over(autojump_clock: object) -> None:
    await tv_night(delay=0, hands=6)


async def test_a_delay_holds_the_tv_cards_that_many_seconds_after_the_hand(autojump_clock: object) -> None:
    # One table: a table broken during the delay takes its spectators elsewhere before the
    # cards are due (they are sent to whoever watches the TV table then).
    await tv_night(delay=20, hands=2, players=3, seats=6, spectators=((1, 3), (1, 2)))


async def tv_night(*, delay: int, hands: int, players: int = 6, seats: int = 3,
                   spectators: tuple[tuple[int, int], ...] = ((1, 3), (1, 2), (2, 3))) -> None:
    cfg = fast_config(players, seats=seats, starting_stack=20_000, hands_per_level=20, action_clock=5.0,
                      time_bank=0.0)
    truth = Truth()
    async with running(cfg) as (srv, port):
        srv.watchers.append(truth)
        people = await joined(port, [f"p{i}" for i in range(players)], version=3)
        times = {c: stamped(c) for c in people}
        async with trio.open_nursery() as n:
            d = await Director.login(port, n, version=3)
            await d.ok(m.SetOptionsCommand(tv_table=1, tv_delay_seconds=delay, reason="the stream"))
            t = srv.tournament
            while not t.tables:  # the tables are there: each spectator watches the one it asks for
                await trio.sleep(0.1)
            specs = []
            for table, version in spectators:
                s = await RawClient.connect(port)
                times[s] = stamped(s)
                await s.spectate(table=table, version=version)
                s.name = f"spectator v{version} of table {table}"
                n.start_soon(s.pump)
                specs.append(s)
            results = [BotResult(name=c.name or "") for c in people]
            for i, (c, r) in enumerate(zip(people, results, strict=True)):
                n.start_soon(play, c, r, pusher, i)
            tv3 = specs[0]
            # Until the spectator saw ``hands`` TV hands, or table 1 is gone (it broke, or
            # the tournament is over): a random night may be short.
            while sum(isinstance(x, m.TvCards) for x in tv3.received) < hands and 1 in t.tables \
                    and not t.finished:
                assert not tv3.eof
                with trio.move_on_after(60):
                    await tv3.changed()
            await trio.sleep(delay + 1)
            n.cancel_scope.cancel()
    own: dict[RawClient, dict[Key, int]] = {c: {} for c in people}
    for c in people:
        for x in c.received:
            if isinstance(x, m.HoleCards):
                own[c][(x.table, x.hand_no)] = x.seat
    for c in people:
        assert check_connection(c, times[c], truth, tv=1, delay=delay, own=own[c]) == 0
    seen = [check_connection(s, times[s], truth, tv=1, delay=delay, own={}) for s in specs]
    assert seen[0] >= 1 and seen[1] == 0
    assert not any(isinstance(x, m.TvCards) for x in d.c.received)
    assert all(b'"tv_cards"' not in line for line in specs[1].lines)  # version 2: never
    # Every TV hand the version 3 spectator saw was a hand of table 1, ended, all its seats.
    tv_hands = {(x.table, x.hand_no) for x in tv3.received if isinstance(x, m.TvCards)}
    assert tv_hands <= set(truth.ended) and {t for t, _ in tv_hands} == {1}
    if len(specs) < 3:
        return
    # The other table's spectator: none while it watched table 2 (when table 2 breaks, its
    # watchers follow its players to table 1, the TV table, and see it from then on).
    other = specs[2].received
    broke = next((i for i, x in enumerate(other) if isinstance(x, m.TableBroken)), len(other))
    assert not any(isinstance(x, m.TvCards) for x in other[:broke])
    assert seen[2] == 0 or broke < len(other)
