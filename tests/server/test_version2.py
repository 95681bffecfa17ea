"""What protocol version 2 adds, as the server sends it over real TCP, beside version 1.

Three players at one table (blinds 100/200, 10,000 chips, a 30 s clock and a 10 s bank)
joined on version 2, with a version 2 and a version 1 spectator. Every line a version 1
connection receives is decoded as a version 1 client would (``RawClient``): a version 2
message or field sent to it fails the test by itself.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

import protocol.messages as m
from poker.cards import parse_card
from poker.evaluator import evaluate
from tests.server.harness import BANK, CLOCK, Table, table
from tests.server.rawclient import RawClient


@asynccontextmanager
async def bounded(version: int) -> AsyncIterator[Table]:
    """The table, bounded in tournament time (the virtual clock): a message that never
    comes fails the test instead of letting the table play on for ever."""
    async with table(version=version) as t:
        with trio.fail_after(10 * CLOCK):
            yield t


async def watchers(t: Table, *versions: int) -> list[RawClient]:
    """Spectators of table 1, one per version, reading in the background (after the
    start: before it there is no table to watch)."""
    await t.players[0].seen(m.TableSnapshot, lambda _: True)
    out = []
    for version in versions:
        s = await RawClient.connect(t.port)
        await s.spectate(1, version=version)
        t.nursery.start_soon(s.pump)
        out.append(s)
    return out


async def fresh_hand(t: Table) -> tuple[RawClient, m.YourTurn]:
    """The first decision of a hand dealt after now (the hand in play is folded out)."""
    started = max((x.hand_no for x in t.players[0].received if isinstance(x, m.HandStarted)), default=0)
    while True:
        c, turn = await t.next_turn()
        if turn.hand_no > started:
            return c, turn
        await t.act(c, turn, "fold" if turn.legal.fold else "check")


def of_hand(c: RawClient, hand_no: int, kind: type[m.ServerMessage] | None = None) -> list[m.ServerMessage]:
    return [x for x in c.received if getattr(x, "hand_no", None) == hand_no
            and (kind is None or isinstance(x, kind))]


def after(c: RawClient, first: m.ServerMessage, then: m.ServerMessage) -> bool:
    return c.received.index(first) < c.received.index(then)


async def test_everyone_at_the_table_is_told_whose_turn_it_is_and_when_the_bank_starts(
    autojump_clock: object,
) -> None:
    async with bounded(2) as t:
        v2, v1 = await watchers(t, 2, 1)
        c, turn = await fresh_hand(t)
        for x in [*t.players, v2]:
            told = await x.seen(m.Turn, lambda u: (u.hand_no, u.seat) == (turn.hand_no, turn.seat))
            assert told.player_id == c.player_id and told.table == 1
            assert (told.deadline_ms, told.time_bank_ms) == (CLOCK * 1000, BANK * 1000)
        mine = next(x for x in of_hand(c, turn.hand_no, m.Turn) if x.seat == turn.seat)  # type: ignore[attr-defined]
        assert after(c, mine, turn), "the turn line comes just before the player's own your_turn"
        # The snapshot of a version 2 connection says whose clock runs and how much is left.
        await v2.send(m.SnapshotRequest(id=7, table=1))
        snap = await v2.next(m.TableSnapshot, lambda s: s.id == 7)
        assert snap.to_act == turn.seat
        assert snap.deadline_ms is not None and 0 < snap.deadline_ms <= CLOCK * 1000
        assert snap.time_bank_ms == BANK * 1000
        await v1.send(m.SnapshotRequest(id=7, table=1))
        old = await v1.next(m.TableSnapshot, lambda s: s.id == 7)
        assert old.to_act == turn.seat and old.deadline_ms is None
        assert b"deadline_ms" not in v1.lines[v1.received.index(old)]
        # Nobody acts: when the action clock runs out the bank starts, and everyone is told.
        for x in [*t.players, v2]:
            bank = await x.seen(m.Turn, lambda u: (u.hand_no, u.seat, u.deadline_ms) == (turn.hand_no, turn.seat, 0))
            assert (bank.deadline_ms, bank.time_bank_ms) == (0, BANK * 1000)
        timed_out = await v1.next(m.Action, lambda a: a.seat == turn.seat and a.hand_no == turn.hand_no)
        assert timed_out.automatic
        assert not [x for x in v1.received if isinstance(x, m.Turn)]


async def test_an_uncalled_bet_comes_back_and_a_round_ended_by_folds_has_its_pots(
    autojump_clock: object,
) -> None:
    async with bounded(2) as t:
        v2, v1 = await watchers(t, 2, 1)
        c, turn = await fresh_hand(t)
        hand_no = turn.hand_no
        await t.act(c, turn, "raise", 600)
        for _ in range(2):
            o, ot = await t.next_turn()
            await t.act(o, ot, "fold")
        ended = await v2.next(m.HandEnded, lambda e: e.hand_no == hand_no)
        await v1.next(m.HandEnded, lambda e: e.hand_no == hand_no)
        back = of_hand(v2, hand_no, m.BetReturned)
        assert [(b.seat, b.amount) for b in back] == [(turn.seat, 400)]  # type: ignore[attr-defined]
        pots = of_hand(v2, hand_no, m.Pots)
        awarded = of_hand(v2, hand_no, m.PotAwarded)
        assert len(pots) == 1 and len(awarded) == 1
        pot = pots[0]
        assert isinstance(pot, m.Pots) and isinstance(awarded[0], m.PotAwarded)
        assert [(p.amount, p.eligible) for p in pot.pots] == [(500, (turn.seat,))]
        assert after(v2, back[0], pot) and after(v2, pot, awarded[0]) and after(v2, awarded[0], ended)
        # Version 1: the same hand without the returned bet nor the pots of the last round.
        assert not of_hand(v1, hand_no, m.Pots)
        assert len(of_hand(v1, hand_no, m.PotAwarded)) == 1


async def test_the_showdown_and_the_award_name_the_five_cards_and_the_kickers(
    autojump_clock: object,
) -> None:
    async with bounded(2) as t:
        v2, v1 = await watchers(t, 2, 1)
        c, turn = await fresh_hand(t)
        hand_no = turn.hand_no
        while True:
            await t.act(c, turn, "check" if turn.legal.check else "call")
            c, turn = await t.next_turn()
            if turn.hand_no != hand_no:
                break
        await v2.next(m.HandEnded, lambda e: e.hand_no == hand_no)
        await v1.next(m.HandEnded, lambda e: e.hand_no == hand_no)
        board = [x for x in of_hand(v2, hand_no, m.Board)][-1].board  # type: ignore[attr-defined]
        shown = {x.seat: x for x in of_hand(v2, hand_no, m.Showdown)}  # type: ignore[attr-defined]
        assert len(shown) == 3
        for s in shown.values():
            value = evaluate([parse_card(x) for x in (*s.cards, *board)])
            assert s.hand_detail == value.detail and s.hand_detail.startswith(s.hand_name)
            assert s.best_five is not None and set(s.best_five) <= {*s.cards, *board}
            assert [parse_card(x) for x in s.best_five] == list(value.best_five)
        for award in of_hand(v2, hand_no, m.PotAwarded):
            assert isinstance(award, m.PotAwarded)
            winner = shown[award.winners[0].seat]
            assert (award.best_five, award.hand_detail) == (winner.best_five, winner.hand_detail)
        for x in [*of_hand(v1, hand_no, m.Showdown), *of_hand(v1, hand_no, m.PotAwarded)]:
            line = v1.lines[v1.received.index(x)]
            assert b"best_five" not in line and b"hand_detail" not in line
            assert x.hand_name is not None  # type: ignore[union-attr]


async def test_legal_has_the_stack_and_the_all_in_total(autojump_clock: object) -> None:
    async with bounded(2) as t:
        c, turn = await fresh_hand(t)
        assert (turn.legal.stack, turn.legal.all_in_to) == (10_000, 10_000)
        await t.act(c, turn, "call")
        small, turn = await t.next_turn()
        assert (turn.legal.call, turn.legal.stack, turn.legal.all_in_to) == (100, 9_900, 10_000)


async def test_the_lobby_and_the_standings_carry_the_start_rule_hand_numbers_and_carried_chips(
    autojump_clock: object,
) -> None:
    async with bounded(2) as t:
        spectator, = await watchers(t, 1)
        c, turn = await fresh_hand(t)
        await c.send(m.LobbyRequest(id=3))
        lobby = await c.next(m.Lobby, lambda x: x.id == 3)
        assert lobby.start_players == 3
        assert [(x.table, x.hand_no) for x in lobby.tables] == [(1, turn.hand_no)]
        # The chips in play are the players' chips plus the carried chips.
        assert "carried" in json.loads(c.lines[c.received.index(lobby)])
        assert sum(p.chips for p in lobby.players) + lobby.carried == 30_000
        await c.send(m.StandingsRequest(id=4))
        standings = await c.next(m.Standings, lambda x: x.id == 4)
        assert "carried" in json.loads(c.lines[c.received.index(standings)])
        assert sum(p.chips for p in standings.places) + standings.carried == 30_000
        await spectator.send(m.LobbyRequest(id=3))
        old = await spectator.next(m.Lobby, lambda x: x.id == 3)
        assert old.start_players is None and old.tables[0].hand_no is None


async def test_a_version_1_player_gets_exactly_version_1(autojump_clock: object) -> None:
    """A whole hand to showdown and one ended by folds, read by version 1 players: the
    strict reader would fail on any version 2 line, and the lines hold no version 2 key."""
    async with bounded(1) as t:
        for _ in range(2):
            c, turn = await fresh_hand(t)
            hand_no = turn.hand_no
            while turn.hand_no == hand_no:
                await t.act(c, turn, "check" if turn.legal.check else "call")
                c, turn = await t.next_turn()
        c, turn = await fresh_hand(t)
        await t.act(c, turn, "raise", 600)
        for _ in range(2):
            o, ot = await t.next_turn()
            await t.act(o, ot, "fold")
        await t.next_turn()
        for p in t.players:
            await p.seen(m.HandEnded, lambda e: e.hand_no == turn.hand_no)
        for p in t.players:
            text = b"\n".join(p.lines)
            for key in (b"best_five", b"hand_detail", b"all_in_to", b'"type":"turn"',
                        b"bet_returned", b"start_players"):
                assert key not in text, key
