"""A generated tournament night against a real server, with the oracle watching.

One seed makes one night: a real ``Server`` on 127.0.0.1 in the test's Trio run (virtual
clock), players that are real TCP clients on protocol versions 1 to 3 keeping a
``ClientModel`` each, a spectator, and a director who at random moments moves players
within and between tables, voids hands, opens late registration (new players join),
pauses and resumes, schedules breaks, removes players and corrects stacks, while players
drop and resume mid-hand. Whenever the server is quiet (every task blocked: every line sent
has been read and applied), each connection's picture is compared with the server's
(``oracle``); and every hand dealt is checked for liveness: a player with chips at a table
is dealt in within (players there + 1) hands of sitting down.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import trio
import trio.testing

import protocol.commands as cmd
import protocol.messages as m
from poker import events as ev
from poker.hand import Hand
from server.app import Server
from server.clients import Client
from server.config import ServerConfig
from server.house import Watcher
from server.snapshots import snapshot_for
from server.tournament import events as tev
from tests.seams.oracle import Watched, mismatch
from tests.seams.replay import LogTap
from tests.server.harness import FAST_SCHEDULE, config, running
from tests.server.rawclient import RawClient


class Liveness(Watcher):
    """Counts, for every player seated with chips, the hands dealt at their table without
    them since they sat down there; a count past (most players there since + 1) is a
    player never dealt in."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.waited: dict[str, tuple[int, int]] = {}  # player -> (hands without them, most players)
        self.stuck: list[str] = []
        self.hands = 0

    def hand_events(self, table_id: int, hand: Hand, events: Sequence[ev.Event]) -> None:
        started = next((e for e in events if isinstance(e, ev.HandStarted)), None)
        if started is None:
            return
        self.hands += 1
        table = self.server.tournament.tables[table_id]
        dealt = set(hand.seats)
        for seat, p in table.seats.items():
            if p.stack <= 0:
                continue
            if seat in dealt:
                self.waited.pop(p.player_id, None)
                continue
            n, most = self.waited.get(p.player_id, (0, 0))
            n, most = n + 1, max(most, len(table.seats))
            self.waited[p.player_id] = (n, most)
            if n > most + 1:
                self.stuck.append(f"{self.server.players[p.player_id].name} has waited {n} hands at "
                                  f"table {table_id} ({len(table.seats)} players) (hand #{hand.hand_no})")

    def tournament_events(self, events: Sequence[object]) -> None:
        for e in events:
            if isinstance(e, (tev.PlayerMoved, tev.PlayerSeated)):
                self.waited.pop(e.player_id, None)  # a new table: their count starts again


@attrs.define
class Conn:
    raw: RawClient
    watched: Watched
    player: str | None = None  # the player's name


@attrs.define
class Night:
    seed: int
    rng: random.Random
    server: Server
    port: int
    liveness: Liveness
    conns: list[Conn] = attrs.Factory(list)
    tokens: dict[str, tuple[str, int]] = attrs.Factory(dict)  # name -> (token, version)
    mismatches: list[str] = attrs.Factory(list)
    checks: int = 0
    did: list[str] = attrs.Factory(list)  # the director's commands, for the report
    joined: int = 0

    # -- the oracle ---------------------------------------------------------------------

    def server_client(self, raw: RawClient) -> Client | None:
        peer = f"127.0.0.1:{raw.local_port}"
        return next((c for c in self.server.clients if c.conn.peer == peer and c.role), None)

    def check(self) -> None:
        h = self.server
        t = h.tournament
        self.checks += 1
        for conn in self.conns:
            if conn.raw.eof or conn.watched.model.goodbye is not None:
                continue
            sc = self.server_client(conn.raw)
            if sc is None:
                continue
            table_id: int | None = sc.watching
            if sc.player_id is not None:
                loc = h.locate(sc.player_id)
                if loc is not None:
                    table_id = loc.table_id
            if table_id is None or table_id not in t.tables:
                continue
            problem = mismatch(conn.watched, snapshot_for(h, sc, table_id))
            if problem is not None:
                self.mismatches.append(problem)

    def on_quiet(self) -> None:
        if not self.mismatches:
            try:
                self.check()
            except Exception as exc:  # noqa: BLE001 - inside the run loop: report, never crash it
                self.mismatches.append(f"the oracle itself failed: {exc!r}")



    # -- players ------------------------------------------------------------------------

    async def player(self, name: str, version: int, *, resume: bool = False) -> None:
        raw = await RawClient.connect(self.port)
        conn = Conn(raw=raw, watched=Watched(label=name, version=version), player=name)
        if resume:
            token, version = self.tokens[name]
            welcome = await raw.resume(token, version=version)
            assert isinstance(welcome, m.Welcome), welcome
        else:
            try:
                await raw.join(name, version=version)
            except AssertionError:
                return  # late registration closed meanwhile
            assert raw.token is not None
            self.tokens[name] = (raw.token, version)
        for msg in raw.received:
            conn.watched.apply(msg)
        self.conns.append(conn)
        rng = random.Random(f"{self.seed}:{name}:{resume}")
        try:
            while True:
                msg = await raw.recv()
                conn.watched.apply(msg)
                if isinstance(msg, m.ServerPing):
                    await raw.send(m.Pong(nonce=msg.nonce))
                elif isinstance(msg, m.YourTurn):
                    if rng.random() < 0.03:  # the connection drops with the turn in hand
                        await raw.aclose()
                        raw.eof = True
                        self.conns.remove(conn)
                        await trio.sleep(rng.uniform(0.5, 20))
                        await self.player(name, version, resume=True)
                        return
                    await raw.send(choose(msg, rng))
                elif isinstance(msg, m.ServerGoodbye):
                    return
        except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
            raw.eof = True

    async def spectator(self, version: int) -> None:
        raw = await RawClient.connect(self.port)
        await raw.spectate(None, version=version)
        conn = Conn(raw=raw, watched=Watched(label="spectator", version=version))
        for msg in raw.received:
            conn.watched.apply(msg)
        self.conns.append(conn)
        try:
            while True:
                msg = await raw.recv()
                conn.watched.apply(msg)
                if isinstance(msg, m.ServerPing):
                    await raw.send(m.Pong(nonce=msg.nonce))
        except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
            raw.eof = True

    # -- the director -------------------------------------------------------------------

    async def director(self, nursery: trio.Nursery) -> None:
        raw = await RawClient.connect(self.port)
        await raw.director(version=3)
        nursery.start_soon(raw.pump)
        rng = self.rng
        while True:
            await trio.sleep(rng.uniform(1, 40))
            command = self.pick(rng, nursery)
            if command is not None:
                self.did.append(type(command).__name__)
                await raw.send(m.DirectorCommand(command=command))

    def pick(self, rng: random.Random, nursery: trio.Nursery) -> Any:
        t = self.server.tournament
        if not t.tables or t.finished:
            return None
        players = [pid for pid in t.players_in()]
        tables = t.table_ids()
        why = "testing"
        kind = rng.choice(["move", "move", "move_here", "void", "late", "break", "pause",
                           "remove", "adjust", "announce"])
        if kind == "move" and players:
            return cmd.MovePlayerCommand(player_id=int(rng.choice(players)), table=rng.choice(tables),
                                         reason=why)
        if kind == "move_here" and players:  # within a table, to a seat named
            pid = rng.choice(players)
            loc = t.location(pid)
            if loc is not None:
                free = t.tables[loc.table_id].empty_seats()
                if free:
                    return cmd.MovePlayerCommand(player_id=int(pid), table=loc.table_id,
                                                 seat=rng.choice(free), reason=why)
        if kind == "void":
            busy = [tid for tid in tables if t.tables[tid].in_hand]
            if busy:
                return cmd.VoidHandCommand(table=rng.choice(busy), reason=why)
        if kind == "late":
            if t.registration_open():
                self.joined += 1
                nursery.start_soon(self.player, f"late{self.joined}", rng.choice([1, 2, 3]))
                return None
            return cmd.LateRegistrationCommand(until_level=t.level_info(self.server.now()).level + 2,
                                               reason=why)
        if kind == "break":
            level = t.level_info(self.server.now()).level
            return cmd.SetBreakCommand(after_level=level, minutes=1, reason=why)
        if kind == "pause":
            nursery.start_soon(self._pause_then_resume, rng.uniform(1, 30))
            return None
        if kind == "remove" and len(players) > 3 and rng.random() < 0.3:
            return cmd.RemovePlayerCommand(player_id=int(rng.choice(players)), reason=why)
        if kind == "adjust" and players:
            pid = rng.choice(players)
            return cmd.AdjustChipsCommand(player_id=int(pid), chips=max(1, t.stack_of(pid) + rng.randint(-50, 50)),
                                          reason=why)
        if kind == "announce":
            return cmd.AnnounceCommand(text="table talk", reason=why)
        return None

    async def _pause_then_resume(self, seconds: float) -> None:
        raw = await RawClient.connect(self.port)
        await raw.director(version=2)
        await raw.send(m.DirectorCommand(command=cmd.PauseCommand(reason="a pause")))
        await trio.sleep(seconds)
        await raw.send(m.DirectorCommand(command=cmd.ResumeCommand(reason="resumed")))
        await raw.aclose()


def quiet_clock() -> trio.testing.MockClock:
    """Trio's virtual clock (``autojump_threshold=0``) that calls the functions in its
    ``on_quiet`` list each time the run is quiet, just before it jumps: no task can run and
    the last wait for I/O found nothing, so every line sent on loopback has been read and
    applied. (A task in ``wait_all_tasks_blocked`` would stop the autojump: Trio wakes it
    instead. ``MockClock`` is final, so its jump is wrapped on the instance.)"""
    clock = trio.testing.MockClock(autojump_threshold=0)
    on_quiet: list[Callable[[], None]] = []
    jump = clock._autojump

    def autojump() -> None:
        for f in on_quiet:
            f()
        jump()

    clock._autojump = autojump  # type: ignore[method-assign]
    clock.on_quiet = on_quiet  # type: ignore[attr-defined]
    return clock


def choose(turn: m.YourTurn, rng: random.Random) -> m.Act:
    legal = turn.legal
    r = rng.random()
    if legal.max_raise_to is not None and r < 0.1:
        to = rng.randint(legal.min_raise_to or legal.max_raise_to, legal.max_raise_to)
        return m.Act(hand_no=turn.hand_no, action="bet" if legal.call is None else "raise", amount=to)
    if legal.check:
        return m.Act(hand_no=turn.hand_no, action="check")
    if r < 0.35:
        return m.Act(hand_no=turn.hand_no, action="fold")
    return m.Act(hand_no=turn.hand_no, action="call")


@attrs.frozen(kw_only=True)
class NightResult:
    seed: int
    hands: int
    checks: int
    mismatches: tuple[str, ...]
    stuck: tuple[str, ...]
    commands: tuple[str, ...]
    finished: bool
    config: ServerConfig
    tap: LogTap | None = None  # with ``run_night(tap=True)``: the night's log and states


async def run_night(seed: int, *, max_hands: int = 40, tap: bool = False) -> NightResult:
    # Trio shuffles the tasks that become runnable together, from a generator of its own:
    # seeded, the same seed plays the same night (a failure can be run again).
    trio._core._run._r.seed(seed)
    rng = random.Random(seed)
    players = rng.randint(4, 9)
    seats = rng.choice([3, 4, 4, 5, 6])
    cfg = config(start_at=players, seats=seats, starting_stack=rng.choice([600, 1000, 2000]),
                 hands_per_level=rng.choice([2, 3, 5]), schedule=FAST_SCHEDULE,
                 action_clock=15.0, time_bank=5.0)
    async with running(cfg, seed=seed) as (server, port):
        live = Liveness(server)
        server.watchers.append(live)
        kept = LogTap(server) if tap else None
        night = Night(seed=seed, rng=rng, server=server, port=port, liveness=live)
        clock = trio.lowlevel.current_clock()
        assert hasattr(clock, "on_quiet"), "run a night with trio.run(run_night, seed, clock=quiet_clock())"
        clock.on_quiet.append(night.on_quiet)
        async with trio.open_nursery() as n:
            for i in range(players):
                n.start_soon(night.player, f"p{i}", rng.choice([1, 2, 3]))
            n.start_soon(night.spectator, rng.choice([1, 2, 3]))
            n.start_soon(night.director, n)
            with trio.move_on_after(24 * 3600):
                while not server.tournament.finished and live.hands < max_hands \
                        and not night.mismatches and not live.stuck:
                    await trio.sleep(1)
            n.cancel_scope.cancel()
        return NightResult(seed=seed, hands=live.hands, checks=night.checks,
                           mismatches=tuple(night.mismatches[:3]), stuck=tuple(live.stuck[:3]),
                           commands=tuple(night.did), finished=server.tournament.finished,
                           config=cfg, tap=kept)
