"""What a restart rebuilds from the database: time banks, a voided hand's carried chip, and
every director operation.

The server runs in the test's Trio run on a real SQLite file (``open_server``, as
``hickory-server`` makes it); a "restart" stops it, opens the file again (the log is
replayed) and runs the new server; players come back with ``resume`` and their tokens.
Time is trio's ``mock_clock``: it moves only when the test jumps it, so an action clock or
a time bank runs out exactly when the test says and never while a commit is on its way.
"""

from __future__ import annotations

import faulthandler
import json
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import attrs
import pytest
import trio
from trio.testing import MockClock

import protocol.messages as m
from poker.cards import FULL_DECK, Card, parse_cards
from server.app import Server, open_server
from server.config import ServerConfig
from tests.server.director import Director
from tests.server.harness import Table, config, joined, running
from tests.server.rawclient import RawClient

T = TypeVar("T")
CLOCK = 30.0
BANK = 10.0
SEATS = 3  # the seat draw's seed


@pytest.fixture(autouse=True)
def hard_time_limit() -> Iterator[None]:
    """The mock clock never fires a timeout on its own: a hang must still end the run."""
    faulthandler.dump_traceback_later(120, exit=True, file=sys.__stderr__ or sys.stderr)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def _config(db: Path, **kw: Any) -> ServerConfig:
    base: dict[str, Any] = dict(db=db, start_at=3, seats=3, starting_stack=10_000, schedule=((100, 200),),
                                level_minutes=600.0, action_clock=CLOCK, time_bank=BANK)
    base.update(kw)
    return config(**base)


@asynccontextmanager
async def session(cfg: ServerConfig, names: list[str] | None = None, tokens: list[str] | None = None,
                  deck: list[Card] | None = None) -> AsyncIterator[Table]:
    """The server opened from ``cfg.db``; players join (``names``) or resume (``tokens``)."""
    server = open_server(cfg, seed=SEATS)
    try:
        async with running(cfg, server=server) as (srv, port):
            if deck is not None:
                # Every hand deals ``deck`` (the fair-deck dealer's own hook for tests; the
                # log keeps the deck as dealt, so a replay deals it too).
                srv.fair.deck = lambda draw, server_seed, seeds: list(deck)  # type: ignore[method-assign]
            if tokens is None:
                players = await joined(port, names or [])
                clock = trio.lowlevel.current_clock()
                assert isinstance(clock, MockClock)
                clock.jump(1.0)  # the coordinator looks at the start rule every 0.5 s
            else:
                players = []
                for token in tokens:
                    c = await RawClient.connect(port)
                    welcome = await c.resume(token)
                    assert isinstance(welcome, m.Welcome), welcome
                    players.append(c)
            async with trio.open_nursery() as nursery:
                for c in players:
                    nursery.start_soon(c.pump)
                yield Table(srv, port, players, nursery)
                nursery.cancel_scope.cancel()
    finally:
        assert server.store is not None
        server.store.close()


async def heard(c: RawClient, kind: type[T], pred: Callable[[T], bool]) -> T:
    """The first message of ``kind`` matching ``pred`` that ``c`` ever received (waits for
    it); unlike ``RawClient.next``, blind to the cursor ``Table.next_turn`` moves."""
    while True:
        changed = c.change_event()
        for x in c.received:
            if isinstance(x, kind) and pred(x):
                return x
        assert not c.eof, f"{c.name}: the connection closed"
        await changed.wait()


async def _stored(t: Table) -> None:
    """Wait until everything done so far is committed (a snapshot waits for the commits)."""
    c = t.players[0]
    await c.send(m.SnapshotRequest(id=4242))
    await c.wait_for(lambda x: isinstance(x, m.TableSnapshot) and x.id == 4242)


async def test_the_time_bank_left_before_a_restart_is_the_bank_after_it(tmp_path: Path, mock_clock: MockClock) -> None:
    cfg = _config(tmp_path / "bank.db")
    async with session(cfg, names=["p1", "p2", "p3"]) as t:
        # The first to act thinks 4 s past the action clock: 4 s of the bank are spent.
        slow, turn = await t.next_turn()
        assert (turn.deadline_ms, turn.time_bank_ms) == (CLOCK * 1000, BANK * 1000)
        mock_clock.jump(CLOCK + 4)
        await t.act(slow, turn, "call")
        # The next lets the clock and the whole bank run out: the server folds for them.
        idle, turn = await t.next_turn()
        assert idle is not slow and turn.time_bank_ms == BANK * 1000
        mock_clock.jump(CLOCK + BANK + 1)
        auto = await heard(slow, m.Action, lambda a: a.seat == turn.seat)
        assert auto.automatic and auto.action == "fold"
        await _stored(t)
        tokens = [c.token for c in t.players if c.token is not None]
        banks = {slow.player_id: (BANK - 4) * 1000, idle.player_id: 0}
        banks.update({c.player_id: BANK * 1000 for c in t.players if c.player_id not in banks})
    async with session(cfg, tokens=tokens) as t:
        for c in t.players:
            await c.send(m.ImBack())  # the one who timed out is sitting out
        seen: dict[int | None, int] = {}
        while len(seen) < 3:
            c, turn = await t.next_turn()
            seen.setdefault(c.player_id, turn.time_bank_ms)
            await t.act(c, turn, "check" if turn.legal.check else "call")
    assert seen == banks


ROYAL_BOARD = "As Ks Qs Js Ts"


def _split_deck(players: int) -> list[Card]:
    """Every hand's board is a royal flush: everyone still in splits the pot."""
    board = parse_cards(ROYAL_BOARD)
    rest = [c for c in FULL_DECK if c not in board]
    first = 2 * players + 1  # after the hole cards and a burn
    for i, c in zip([first, first + 1, first + 2, first + 4, first + 6], board, strict=True):
        rest.insert(i, c)
    return rest


async def test_a_voided_hand_gives_back_the_odd_chip_it_was_carrying(
    tmp_path: Path, mock_clock: MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    """Hand 1 splits a pot of 25 (5/10, the small blind folds): 1 chip is carried into
    hand 2. Hand 2 is voided at the restart: the chip is the table's again, and hand 3
    gets it."""
    cfg = _config(tmp_path / "carry.db", schedule=((5, 10),), starting_stack=1000)
    deck = _split_deck(3)
    async with session(cfg, names=["a", "b", "c"], deck=deck) as t:
        observer = t.players[0]
        while True:
            c, turn = await t.next_turn()
            if turn.hand_no == 2:
                break
            action = "fold" if turn.legal.call == 5 else "check" if turn.legal.check else "call"
            await t.act(c, turn, action)
        second = await heard(observer, m.HandStarted, lambda h: h.hand_no == 2)
        assert second.carried_in == 1
        await t.act(c, turn, "call")
        c, turn = await t.next_turn()
        await t.act(c, turn, "call")
        await heard(observer, m.Action, lambda a: a.hand_no == 2 and a.seat == turn.seat)
        tokens = [x.token for x in t.players]
    # The last action of hand 2 becomes one the engine refuses: the hand is voided.
    conn = sqlite3.connect(cfg.db)
    seq, payload = conn.execute("SELECT seq, payload FROM inputs WHERE kind='act' ORDER BY seq DESC LIMIT 1").fetchone()
    conn.execute("UPDATE inputs SET payload=? WHERE seq=?",
                 (json.dumps(json.loads(payload) | {"kind": "raise", "amount": 10**12}), seq))
    conn.commit()
    conn.close()
    caplog.set_level("ERROR", logger="hickory.recovery")
    replayed = open_server(cfg, seed=SEATS)
    try:
        # The host's log says which hand, where and why; the players hear which and that
        # every bet went back.
        assert [x for x in caplog.messages if x.startswith("hand #")] == [
            f"hand #2 at table 1 could not be resumed (log entry {seq}: raise to 1000000000000 is more than "
            "you have: the most is 1002 (all-in)); voided, every bet returned"]
        assert replayed.pending_announcements == [
            "Hand #2 at table 1 could not be resumed after the restart and was voided: every bet was returned."]
        t1 = replayed.tournament.table(1)
        assert t1.hand is None and t1.carry == 1 and replayed.tournament.hands_dealt == 2
        assert replayed.tournament.total_chips() == replayed.tournament.chips_issued
    finally:
        assert replayed.store is not None
        replayed.store.close()
    async with session(cfg, tokens=[tok for tok in tokens if tok is not None], deck=deck) as t:
        snap = await heard(t.players[0], m.TableSnapshot, lambda s: True)  # hand 3, or just before it
        assert snap.carried == 1 and snap.hand_no in (2, 3)
        # Pots count the bets in front and, in a hand, the carried chip; between hands the
        # chip waits on the table.
        waiting = snap.carried if snap.street is None else 0
        assert sum(s.stack for s in snap.seats) + sum(p.amount for p in snap.pots) + waiting == 3 * 1000
    conn = sqlite3.connect(cfg.db)
    assert conn.execute("SELECT status FROM hands WHERE hand_no=2").fetchone() == ("voided",)
    conn.close()


# -- every director operation survives a restart ------------------------------------------


def fingerprint(server: Server) -> dict[str, Any]:
    """The tournament as the players and the director know it."""
    t = server.tournament
    return {
        "state": t.state, "level": t.level, "blinds": t.blinds, "settings": t.settings,
        "adjustment": t.adjustment, "issued": t.chips_issued, "total": t.total_chips(),
        "hands": t.hands_dealt,
        "tables": {tid: (sorted((s, p.player_id, p.stack) for s, p in t.table(tid).seats.items()),
                         t.table(tid).carry, t.table(tid).button, t.table(tid).hand is None)
                   for tid in t.table_ids()},
        "standings": [attrs.astuple(s) for s in t.standings()],
        "audit": [attrs.astuple(a) for a in t.audit_log],
        "deadline_passed": t.deadline_passed,
        "chat": server.chat_enabled,
    }


Op = Callable[[m.Lobby], Any]

# Each operation, given the lobby before it. ``start`` and ``pause`` come first (below).
OPERATIONS: list[tuple[str, Op]] = [
    ("set_schedule", lambda lobby: m.SetScheduleCommand(levels=(
        m.ScheduleLevel(small_blind=50, big_blind=100, minutes=None, hands=None),
        m.ScheduleLevel(small_blind=75, big_blind=150, minutes=None, hands=None),
        m.ScheduleLevel(small_blind=150, big_blind=300, minutes=None, hands=None),
        m.ScheduleLevel(small_blind=300, big_blind=600, minutes=None, hands=None)), reason="slower")),
    ("set_level", lambda lobby: m.SetLevelCommand(index=2, reason="late")),
    ("set_options", lambda lobby: m.SetOptionsCommand(
        action_seconds=20, time_bank_seconds=45, reconnect_grace_seconds=5, ruleset="standard",
        hands_per_level=7, reason="faster")),
    ("set_options minutes", lambda lobby: m.SetOptionsCommand(level_minutes=12, reason="by time")),
    ("set_deadline", lambda lobby: m.SetDeadlineCommand(deadline="2099-01-01T00:00:00+00:00", reason="late")),
    ("set_deadline none", lambda lobby: m.SetDeadlineCommand(deadline=None, reason="no limit")),
    ("set_deadline again", lambda lobby: m.SetDeadlineCommand(deadline="2099-01-01T00:00:00+00:00", reason="late")),
    ("move_player", lambda lobby: m.MovePlayerCommand(
        player_id=lobby.players[0].player_id, table=1,
        seat=min(set(range(1, 7)) - {p.seat for p in lobby.players}), reason="draft")),
    ("adjust_chips up", lambda lobby: m.AdjustChipsCommand(
        player_id=lobby.players[1].player_id, chips=lobby.players[1].chips + 777, reason="miscount")),
    ("adjust_chips down", lambda lobby: m.AdjustChipsCommand(
        player_id=lobby.players[2].player_id, chips=lobby.players[2].chips - 333, reason="miscount")),
    ("remove_player", lambda lobby: m.RemovePlayerCommand(player_id=lobby.players[3].player_id, reason="gone")),
    ("announce", lambda lobby: m.AnnounceCommand(text="last orders", reason="bar")),
    ("chat off", lambda lobby: m.SetOptionsCommand(chat=False, reason="quiet, please")),
    ("chat on", lambda lobby: m.SetOptionsCommand(chat=True, reason="talk again")),  # stored "on": not off
    ("resume", lambda lobby: m.ResumeCommand(reason="play on")),
]


@asynccontextmanager
async def directed(cfg: ServerConfig, names: list[str] | None = None, *,
                   version: int = 1) -> AsyncIterator[tuple[Server, Director]]:
    """The server opened from ``cfg.db``, a director logged in, and ``names`` joined,
    sitting out and gone."""
    server = open_server(cfg, seed=SEATS)
    try:
        async with running(cfg, server=server) as (srv, port):
            for c in await joined(port, names or []):
                # Sitting out and gone: they keep their seats, and a table where everyone
                # is away deals one hand per action clock, which never passes here.
                await c.send(m.SitOut(id=1))
                await c.recv_until(m.Ack)
                await c.aclose()
            async with trio.open_nursery() as nursery:
                yield srv, await Director.login(port, nursery, version=version)
                nursery.cancel_scope.cancel()
    finally:
        assert server.store is not None
        server.store.close()


async def test_every_director_operation_is_the_same_after_a_restart(tmp_path: Path, mock_clock: MockClock) -> None:
    cfg = _config(tmp_path / "director.db", start_at=None, seats=6, hands_per_level=50,
                  schedule=((100, 200), (200, 400), (300, 600)))  # level 3 exists (set_level)
    names = [f"p{i}" for i in range(5)]
    checked: list[str] = []

    async def observe(server: Server, d: Director) -> tuple[dict[str, Any], Any, Any]:
        """The state, and what the director reads of it, once every change is committed."""
        await d.snapshot(1)  # a snapshot waits for the commits in flight
        lobby, standings = await d.lobby(), await d.standings()
        return fingerprint(server), attrs.evolve(lobby, id=None, seq=None), attrs.evolve(standings, id=None, seq=None)

    async with directed(cfg, names) as (server, d):
        await d.ok(m.StartCommand(reason="everyone is here"))
        expected = await observe(server, d)
        checked.append("start")
    steps: list[tuple[str, Op | None]] = [("pause", None), *OPERATIONS, ("none", None)]
    for what, op in steps:
        async with directed(cfg) as (server, d):
            # The replayed server, before anything else happens: the same as before the stop.
            assert fingerprint(server) == expected[0], f"after the restart that followed {checked[-1]}"
            got = await observe(server, d)
            assert got[1:] == expected[1:], f"after the restart that followed {checked[-1]}: {got[1:]} != {expected[1:]}"
            if what == "none":
                break
            if op is None:
                await d.ok(m.PauseCommand(reason="a break"))
                while (await d.snapshot(1)).street is not None:  # the hand in play ends:
                    mock_clock.jump(CLOCK + BANK + 1)  # the clock acts for the absent players
            else:
                await d.ok(op(await d.lobby()))
            expected = await observe(server, d)
            checked.append(what)
    final = expected[0]
    assert final["state"] == "running" and final["settings"].ruleset.value == "standard"
    assert [a[2] for a in final["audit"]] == [
        "pause", "change_schedule", "set_level", "change_rules", "change_rules", "set_deadline", "set_deadline", "set_deadline",
        "move_player", "set_stack", "set_stack", "remove_player", "announce", "resume"]
