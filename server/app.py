"""The Trio server: a thin shell around the pure engine, tournament and protocol.

- Each connection has a reader (framing, deadlines, decoding) and a writer task behind a
  bounded queue (``connection.py``); a handler's error is caught per connection.
- Each table is one task (``TableRunner``) that owns its hand: player actions, sit-outs
  and wake-ups reach it through its inbox channel; it applies them to the engine, stores
  the result, and only then broadcasts.
- The ``Tournament`` is shared, but every change to it is synchronous (no await in the
  middle), so each change is atomic; its inputs are logged for replay (``recovery.py``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import logging
import math
import random
import secrets
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import trio

import protocol.errors as E
import protocol.messages as m
from poker import events as ev
from poker.actions import Action, ActionKind, IllegalAction
from poker.cards import shuffled_deck
from poker.hand import Hand
from poker.views import view_for
from protocol.codec import decode_client, encode, error_reply, stamp
from protocol.errors import ProtocolError
from protocol.framing import LineBuffer
from server import outbound
from server.config import ServerConfig
from server.connection import Connection
from server.records import event_to_json, hand_record
from server.store import Record, Store, StoreError, input_record, meta_record
from server.tournament import events as tev
from server.tournament.errors import TournamentError
from server.tournament.tournament import Location, Phase, Tournament

log = logging.getLogger("hickory.server")

SOFTWARE = "hickory-server 0.1.0"
HISTORY_MAX = 20
CLOCK_SAVE_EVERY = 5.0  # seconds between saves of the tournament time (meta "clock")
LOBBY_BYTES_PER_SECOND = 1e6  # bound on lobby pushes: bytes x receivers per second


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@attrs.define(eq=False)
class Client:
    """One connection and who it is (after the handshake)."""

    conn: Connection
    role: str = ""  # "", player, spectator, director
    player_id: str | None = None
    watching: int | None = None  # the table a spectator watches
    version: int = 1
    seq: int = 0
    errors: int = 0
    chat_times: deque[float] = attrs.Factory(deque)

    def send_body(self, body: bytes) -> None:
        """Send an encoded server message (without seq): stamped per connection here."""
        self.seq += 1
        self.conn.send_nowait(stamp(body, self.seq) + b"\n")

    def send(self, msg: m.ServerMessage) -> None:
        self.send_body(encode(msg))


@attrs.define(eq=False)
class PlayerState:
    """What the server keeps about a player besides the tournament's view of them."""

    player_id: str
    name: str
    token_hash: str
    bank: float  # time bank seconds left
    client: Client | None = None
    sitting_out: bool = False
    is_bot: bool = False


@attrs.define(eq=False)
class Turn:
    """The decision a table is waiting for, so a resuming player gets the time left."""

    seat: int
    player_id: str
    started: float
    clock: float
    bank: float

    def deadline(self) -> float:
        return self.started + self.clock + self.bank


@attrs.frozen
class TableCommand:
    kind: str  # act, sit_out, im_back, wake
    player_id: str | None = None
    msg: Any = None
    client: Client | None = None


class TableRunner:
    """The one task that plays hands at one table."""

    def __init__(self, server: Server, table_id: int) -> None:
        self.server = server
        self.table_id = table_id
        self.send, self.inbox = trio.open_memory_channel[TableCommand](1024)
        self.turn: Turn | None = None
        self.last_hand_end = -math.inf
        self.away_until: float | None = None  # when everyone is sitting out: next deal

    def post(self, cmd: TableCommand) -> bool:
        try:
            self.send.send_nowait(cmd)
            return True
        except trio.WouldBlock:
            return False

    async def run(self) -> None:
        s = self.server
        t = s.tournament
        while not t.finished and self.table_id in t.tables:
            table = t.table(self.table_id)
            if table.hand is not None and not table.hand.is_over:
                await self.play(table.hand)  # a hand restored after a restart
                continue
            if table.hand is not None and table.hand.is_over:
                await s.end_hand(self.table_id)
                self.last_hand_end = trio.current_time()
                continue
            now = s.now()
            if not t.can_deal(self.table_id, now):
                await self.wait_for_change(1.0)
                continue
            if self.everyone_away():
                # Nobody here is playing: deal at a human pace (one hand per action clock),
                # not as fast as the CPU can fold hands; at once when someone is back.
                if self.away_until is None:
                    self.away_until = trio.current_time() + t.settings.action_clock
                if trio.current_time() < self.away_until:
                    await self.wait_for_change(self.away_until - trio.current_time())
                    continue
            self.away_until = None
            pause_left = self.last_hand_end + s.config.hand_pause - trio.current_time()
            if pause_left > 0:
                await self.wait_for_change(pause_left)
                continue
            await s.begin_hand(self.table_id)
            await trio.lowlevel.checkpoint()

    def everyone_away(self) -> bool:
        seats = self.server.tournament.table(self.table_id).seats.values()
        return all(self.server.players[p.player_id].sitting_out for p in seats if p.stack > 0)

    async def wait_for_change(self, timeout: float) -> None:
        with trio.move_on_after(timeout):
            cmd = await self.inbox.receive()
            self.handle_idle(cmd)

    def handle_idle(self, cmd: TableCommand) -> None:
        """Commands that arrive between hands."""
        if cmd.kind == "act" and cmd.player_id is not None:
            self.server.set_sitting_out(cmd.player_id, False)  # trying to act means "I'm back"
        if cmd.kind == "act" and cmd.client is not None:
            self.server.reply_error(cmd.client, E.NOT_YOUR_TURN, "no hand is being played at your table", cmd.msg.id)
        elif cmd.kind in ("sit_out", "im_back") and cmd.player_id is not None:
            self.server.set_sitting_out(cmd.player_id, cmd.kind == "sit_out")

    async def play(self, hand: Hand) -> None:
        s = self.server
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            seat = legal.seat
            player_id = s.tournament.table(self.table_id).seats[seat].player_id
            ps = s.players[player_id]
            if ps.sitting_out:
                await self.apply(hand, seat, legal.timeout_action(), automatic=True)
                continue
            settings = s.tournament.hand_settings(self.table_id)
            turn = self.turn
            if turn is None or turn.seat != seat or turn.player_id != player_id:
                turn = Turn(seat=seat, player_id=player_id, started=trio.current_time(),
                            clock=settings.action_clock, bank=ps.bank)
                self.turn = turn
                s.send_your_turn(self.table_id, hand, turn)
            acted = False
            with trio.move_on_at(turn.deadline()):
                while not acted:
                    cmd = await self.inbox.receive()
                    acted = await self.handle_in_hand(hand, turn, cmd)
            if not acted:
                # Clock and bank ran out: check if free, else fold; then sitting out.
                ps.bank = 0.0
                self.turn = None
                await self.apply(hand, seat, legal.timeout_action(), automatic=True)
                s.set_sitting_out(player_id, True)

    async def handle_in_hand(self, hand: Hand, turn: Turn, cmd: TableCommand) -> bool:
        """Handle one command during a hand; True when the player to act has acted."""
        s = self.server
        if cmd.kind in ("sit_out", "im_back") and cmd.player_id is not None:
            s.set_sitting_out(cmd.player_id, cmd.kind == "sit_out")
            if cmd.kind == "sit_out" and cmd.player_id == turn.player_id:
                self.turn = None
                legal = hand.legal_actions()
                assert legal is not None
                await self.apply(hand, turn.seat, legal.timeout_action(), automatic=True)
                return True
            return False
        if cmd.kind != "act" or cmd.client is None:
            return False
        msg: m.Act = cmd.msg
        client = cmd.client
        if cmd.player_id is not None:
            # A sitting-out player is acted for without a turn, so trying to act is how
            # "they act" ends the sit-out: back from their next decision.
            s.set_sitting_out(cmd.player_id, False)
        if cmd.player_id != turn.player_id:
            s.reply_error(client, E.NOT_YOUR_TURN, f"not your turn: seat {turn.seat} is to act", msg.id)
            return False
        if msg.hand_no != hand.hand_no or (msg.table is not None and msg.table != self.table_id):
            s.reply_error(client, E.STALE_HAND,
                          f"that action is for hand #{msg.hand_no}; hand #{hand.hand_no} is being played", msg.id)
            return False
        action = Action(kind=ActionKind(msg.action), amount=msg.amount)
        try:
            new = hand.act(turn.seat, action)
        except IllegalAction as exc:
            s.reply_error(client, exc.code if exc.code != "hand_over" else E.STALE_HAND, exc.message, msg.id)
            return False
        used = trio.current_time() - turn.started
        ps = s.players[turn.player_id]
        if used > turn.clock:
            ps.bank = max(0.0, turn.bank - (used - turn.clock))
        self.turn = None
        await self.record(hand, turn.seat, action, False, new)
        if ps.sitting_out:
            s.set_sitting_out(turn.player_id, False)  # any action means "I'm back"
        if msg.id is not None:
            client.send(m.Ack(id=msg.id))
        return True

    async def apply(self, hand: Hand, seat: int, action: Action, *, automatic: bool) -> None:
        await self.record(hand, seat, action, automatic, hand.act(seat, action, automatic=automatic))

    async def record(
        self, hand: Hand, seat: int, action: Action, automatic: bool, new: list[ev.Event]
    ) -> None:
        """Store an applied action and its consequences, then broadcast them."""
        s = self.server
        player_id = s.tournament.table(self.table_id).seats[seat].player_id
        records = [
            input_record("act", {
                "seat": seat, "kind": action.kind.value, "amount": action.amount,
                "automatic": automatic, "now": s.now(), "bank": s.players[player_id].bank,
            }, self.table_id),
            *s.hand_event_records(hand, new),
        ] if s.store is not None else []
        await s.commit(records)
        s.broadcast_hand_events(self.table_id, hand, new)


class Server:
    def __init__(self, config: ServerConfig, *, store: Store | None = None, seed: int | None = None) -> None:
        self.config = config
        self.store = store
        self.deck_rng: random.Random = secrets.SystemRandom()  # tests and docs inject a seeded one
        self.clients: set[Client] = set()
        self.viewers: set[Client] = set()  # spectators and directors: a table's broadcasts scan these
        self.players: dict[str, PlayerState] = {}
        self.by_name: dict[str, str] = {}
        self.runners: dict[int, TableRunner] = {}
        self._where: dict[str, int] = {}  # player -> table last found at (a hint for locate)
        self.director_secret = config.director_secret or secrets.token_urlsafe(12)
        self._time_base = 0.0
        self._next_conn = 0
        self.port: int | None = None
        self._lobby_dirty = False
        self._nursery: trio.Nursery | None = None
        self.finished = trio.Event()
        self.paused_for_store: str | None = None
        self._in_flight = 0  # commits awaited now (``settled``)
        self._accepting = trio.CancelScope()  # cancelled by ``shutdown``
        self._settled = trio.Event()
        self.pending_announcements: list[str] = []  # from recovery, sent once running
        self.restart_notices: list[str] = []  # the same, repeated to each player who resumes
        self.chat_enabled = True
        self.seed = seed if seed is not None else secrets.randbits(64)
        self._resume_at = 0.0  # tournament time when the server last stopped
        self.deadline_wall: dt.datetime | None = config.deadline_wall(dt.datetime.now().astimezone())
        self.tournament = Tournament(config.tournament_settings(None), _seeded(self.seed))

    # -- time ---------------------------------------------------------------------------

    def now(self) -> float:
        """Tournament time: monotonic, and it does not run while the server is down."""
        return self._time_base + trio.current_time()

    def _deadline_in_base(self) -> float | None:
        if self.deadline_wall is None:
            return None
        left = (self.deadline_wall - dt.datetime.now().astimezone()).total_seconds()
        return self.now() + left

    # -- persistence --------------------------------------------------------------------

    async def commit(self, records: list[Record]) -> None:
        """Store, then send: wait until ``records`` are committed. Without a store, no-op."""
        if self.store is None or not records:
            return
        self._in_flight += 1
        try:
            await self.store.write(records)
        except StoreError as exc:
            # Never let the game run ahead of what is stored: stop this task's progress.
            if self.paused_for_store is None:
                self.paused_for_store = str(exc)
                self.announce_all(f"The game is paused: {exc}", by="server")
            await trio.sleep_forever()
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._settled.set()

    async def settled(self, limit: float = 1.0) -> None:
        """Wait (at most ``limit`` seconds) until no change is waiting for its commit.

        A snapshot built then shows only what is stored, and every later change reaches the
        client as an event after it: a client resuming just before a crash never sees an
        action the restarted server does not know.
        """
        with trio.move_on_after(limit):
            while self._in_flight:
                if self._settled.is_set():
                    self._settled = trio.Event()
                await self._settled.wait()

    def log_input(self, kind: str, payload: dict[str, Any], table_id: int | None = None) -> list[Record]:
        return [input_record(kind, payload, table_id)] if self.store is not None else []

    def hand_event_records(self, hand: Hand, events: Sequence[ev.Event]) -> list[Record]:
        if self.store is None:
            return []
        base = len(hand.events) - len(events)
        return [
            Record(sql="INSERT INTO hand_events (hand_no, idx, event) VALUES (?, ?, ?)",
                   params=(hand.hand_no, base + i, event_to_json(e)))
            for i, e in enumerate(events)
        ]

    # -- the tournament's flow ------------------------------------------------------------

    async def begin_hand(self, table_id: int) -> None:
        t = self.tournament
        deck = shuffled_deck(self.deck_rng)
        now = self.now()
        carry_before = t.table(table_id).carry
        hand = t.begin_hand(table_id, now, deck=deck)
        table = t.table(table_id)
        seats = {s: [p.player_id, self.players[p.player_id].name] for s, p in table.seats.items()}
        records = self.log_input("begin_hand", {"now": now, "deck": deck, "carry": carry_before}, table_id)
        if self.store is not None:
            records.append(Record(
                sql="INSERT OR REPLACE INTO hands (hand_no, table_id, level, started_at, status, seats) "
                    "VALUES (?, ?, ?, ?, 'playing', ?)",
                params=(hand.hand_no, table_id, t.hand_level(table_id),
                        dt.datetime.now().astimezone().isoformat(timespec="seconds"), json.dumps(seats)),
            ))
            records += self.hand_event_records(hand, hand.events)
        await self.commit(records)
        self.broadcast_hand_events(table_id, hand, hand.events)

    async def end_hand(self, table_id: int) -> None:
        t = self.tournament
        hand = t.table(table_id).hand
        assert hand is not None and hand.result is not None
        now = self.now()
        events = t.end_hand(table_id, now)
        records = self.log_input("end_hand", {"now": now}, table_id)
        if self.store is not None:
            summary = {"stacks": hand.result.stacks, "carried_out": hand.result.carried_out}
            records.append(Record(sql="UPDATE hands SET status='finished', summary=? WHERE hand_no=?",
                                  params=(json.dumps(summary), hand.hand_no)))
        records += self.tournament_event_records(events)
        await self.commit(records)
        self.handle_tournament_events(events)
        self.wake_tables()

    def tournament_event_records(self, events: Iterable[object]) -> list[Record]:
        if self.store is None:
            return []
        out = []
        for e in events:
            if isinstance(e, tev.DirectorAction):
                out.append(Record(
                    sql="INSERT INTO audit (at, action, reason, detail) VALUES (?, ?, ?, ?)",
                    params=(dt.datetime.now().astimezone().isoformat(timespec="seconds"),
                            e.action, e.reason, e.summary),
                ))
        return out

    def wake_tables(self) -> None:
        for runner in self.runners.values():
            runner.post(TableCommand(kind="wake"))

    def start_tables(self) -> None:
        assert self._nursery is not None
        for table_id in self.tournament.table_ids():
            if table_id not in self.runners:
                runner = TableRunner(self, table_id)
                self.runners[table_id] = runner
                self._nursery.start_soon(self._run_table, runner)

    async def _run_table(self, runner: TableRunner) -> None:
        try:
            await runner.run()
        finally:
            self.runners.pop(runner.table_id, None)

    async def start_tournament(self, reason: str = "start") -> list[object]:
        t = self.tournament
        now = self.now()
        self.tournament.settings = attrs.evolve(t.settings, deadline=self._deadline_in_base())
        events: list[object] = [*t.start(now)]
        await self.commit(self.log_input("start", {"now": now, "deadline": t.settings.deadline}))
        log.info("tournament started: %d players at %d tables", len(t.registered), len(t.tables))
        self.handle_tournament_events(events)
        self.start_tables()
        return events

    async def coordinator(self) -> None:
        """Level clock, deadline and the automatic start rule."""
        t = self.tournament
        clock_saved = trio.current_time()
        next_lobby = trio.current_time()
        while not t.finished:
            if t.phase is Phase.REGISTERING:
                if self._should_start():
                    await self.start_tournament()
            else:
                now = self.now()
                if self.store is not None and trio.current_time() - clock_saved >= CLOCK_SAVE_EVERY:
                    # Tournament time resumes from here after a crash (recovery), not from
                    # the last logged input: an idle spell still counts on the level clock.
                    clock_saved = trio.current_time()
                    self.store.submit([meta_record("clock", repr(now))])
                events = t.tick(now)
                if events:
                    await self.commit(self.log_input("tick", {"now": now}) + self.tournament_event_records(events))
                    self.handle_tournament_events(events)
                    self.wake_tables()
            if self._lobby_dirty and trio.current_time() >= next_lobby:
                self._lobby_dirty = False
                body = encode(self.lobby_message())
                receivers = [c for c in self.clients if c.role]
                for c in receivers:
                    c.send_body(body)
                # The lobby lists every entrant and goes to everyone: bound its bandwidth
                # (a 1,000-player lobby is ~100 KB; every 0.5 s to 1,000 clients would be
                # 200 MB/s). Small tournaments still get it every 0.5 s.
                next_lobby = trio.current_time() + len(body) * len(receivers) / LOBBY_BYTES_PER_SECOND
            await trio.sleep(0.5)
        self.finished.set()

    def _should_start(self) -> bool:
        c = self.config
        n = len(self.tournament.registered)
        if n < 2:
            return False
        if c.start_at is not None and n >= c.start_at:
            return True
        if c.start_time is not None and dt.datetime.now().astimezone() >= c.start_time:
            return True
        return False

    # -- events out -----------------------------------------------------------------------

    def table_clients(self, table_id: int) -> list[Client]:
        t = self.tournament
        out = []
        table = t.tables.get(table_id)
        if table is not None:
            for p in table.seats.values():
                c = self.players[p.player_id].client
                if c is not None:
                    out.append(c)
        out += [c for c in self.viewers if c.watching == table_id]
        return out

    def broadcast(self, msg: m.ServerMessage, clients: Iterable[Client] | None = None) -> None:
        """Encode once, stamp per connection."""
        body = encode(msg)
        for c in (self.clients if clients is None else clients):
            if c.role:
                c.send_body(body)

    def broadcast_hand_events(self, table_id: int, hand: Hand, events: Sequence[ev.Event]) -> None:
        clients = self.table_clients(table_id)
        if not clients:
            return
        table = self.tournament.tables.get(table_id)
        # Seated at this table (not on the way to it): this table's seats, not a scan of all.
        seat_of = {c: table.seat_of(c.player_id) if c.player_id and table else None for c in clients}
        for e in events:
            if isinstance(e, ev.HoleCardsDealt):
                msg = outbound.hand_event(table_id, hand.hand_no, e)
                assert msg is not None
                for c in clients:
                    if ev.visible_to(e, seat_of[c]):
                        c.send(msg)
                continue
            msg = outbound.hand_event(table_id, hand.hand_no, e)
            if msg is not None:
                self.broadcast(msg, clients)
        if hand.is_over:
            self._lobby_dirty = True

    def send_your_turn(self, table_id: int, hand: Hand, turn: Turn) -> None:
        ps = self.players[turn.player_id]
        if ps.client is None:
            return
        legal = hand.legal_actions()
        assert legal is not None
        left = max(0.0, turn.started + turn.clock - trio.current_time())
        bank = turn.bank if left > 0 else max(0.0, turn.deadline() - trio.current_time())
        ps.client.send(m.YourTurn(
            table=table_id, hand_no=hand.hand_no, seat=turn.seat, legal=outbound.legal(legal),
            deadline_ms=int(left * 1000), time_bank_ms=int(bank * 1000),
        ))

    def reply_error(self, client: Client, code: str, message: str, request_id: int | None = None) -> None:
        client.send(m.Error(id=request_id, code=code, message=message, path=None, fatal=code in E.FATAL_CODES))

    def announce_all(self, text: str, *, by: str = "director", reason: str | None = None) -> None:
        self.broadcast(m.Announcement(text=text, by=by, reason=reason))

    def set_sitting_out(self, player_id: str, value: bool) -> None:
        ps = self.players.get(player_id)
        if ps is None or ps.sitting_out == value:
            return
        ps.sitting_out = value
        self.player_status(player_id, "sitting_out" if value else "back")
        if self.store is not None:
            self.store.submit(self.log_input("status", {"player_id": player_id, "sitting_out": value, "bank": ps.bank}))

    def locate(self, player_id: str) -> Location | None:
        """``tournament.location``, but first at the table the player was last found at:
        one table's seats instead of every table's (a lookup per action and per player
        at the start; with 100 tables, ~1 ms each)."""
        t = self.tournament
        hint = self._where.get(player_id)
        table = t.tables.get(hint) if hint is not None else None
        if table is not None:
            seat = table.seat_of(player_id)
            if seat is not None:
                return Location(table_id=table.table_id, seat=seat, waiting=False)
        loc = t.location(player_id)
        if loc is not None and not loc.waiting:
            self._where[player_id] = loc.table_id
        return loc

    def player_status(self, player_id: str, status: str) -> None:
        loc = self.locate(player_id)
        msg = m.PlayerStatus(
            player_id=int(player_id), name=self.players[player_id].name,
            table=loc.table_id if loc else None, seat=loc.seat if loc else None,
            status=status,  # type: ignore[arg-type]
        )
        if loc is not None:
            self.broadcast(msg, self.table_clients(loc.table_id))
        self._lobby_dirty = True

    def handle_tournament_events(self, events: Iterable[object]) -> None:
        t = self.tournament
        resnap: set[str] = set()  # players to send a snapshot of where they end up
        for e in events:
            if isinstance(e, tev.PlayerMoved):
                ps = self.players[e.player_id]
                msg = m.PlayerMoved(player_id=int(e.player_id), name=ps.name, from_table=e.from_table,
                                    from_seat=e.from_seat, table=e.to_table, seat=e.to_seat)
                targets = set(self.table_clients(e.from_table)) | set(self.table_clients(e.to_table))
                if ps.client is not None:
                    targets.add(ps.client)
                self.broadcast(msg, targets)
                resnap.add(e.player_id)
                self._where[e.player_id] = e.to_table  # a hint: locate checks it
            elif isinstance(e, tev.PlayerSeated):
                resnap.add(e.player_id)
                self._where[e.player_id] = e.table_id
            elif isinstance(e, tev.PlayerEliminated):
                ps = self.players[e.player_id]
                status = "removed" if e.removed else "eliminated"
                self.broadcast(m.PlayerStatus(player_id=int(e.player_id), name=ps.name, table=e.table_id,
                                              seat=None, status=status))  # type: ignore[arg-type]
            elif isinstance(e, tev.TableBroken):
                runner = self.runners.get(e.table_id)
                if runner is not None:
                    runner.post(TableCommand(kind="wake"))
            elif isinstance(e, tev.DirectorAction):
                if e.action != "announce":  # an announcement is sent by its own event
                    self.announce_all(e.summary, by="director", reason=e.reason)
            elif isinstance(e, tev.Announcement):
                recipients = None if not e.to else [
                    c for p in e.to if (c := self.players[p].client) is not None
                ]
                self.broadcast(m.Announcement(text=e.text, by="director" if e.from_director else "server",
                                              reason=None), recipients)
            elif isinstance(e, tev.FloorCalled):
                ps = self.players[e.player_id]
                self.broadcast(
                    m.DirectorCalled(player_id=int(e.player_id), name=ps.name, table=e.table_id,
                                     seat=e.seat, message=e.message),
                    [c for c in self.clients if c.role == "director"],
                )
            elif isinstance(e, tev.TournamentFinished):
                self.broadcast(m.TournamentFinished(
                    name=t.settings.name, places=outbound.places(e.standings),
                ))
                log.info("tournament finished: %s", e.reason)
                self.finished.set()
            self._lobby_dirty = True
        # Moves are resolved after the whole batch: a table may break right after it
        # received a player, so only the final seat counts.
        for player_id in resnap:
            ps = self.players[player_id]
            loc = self.locate(player_id)
            if ps.client is not None and loc is not None and loc.table_id in t.tables:
                ps.client.send(self.snapshot_for(ps.client, loc.table_id))

    # -- messages built for one client -------------------------------------------------------

    def lobby_message(self, request_id: int | None = None) -> m.Lobby:
        t = self.tournament
        now = self.now()
        state = t.state
        level = None
        next_in = None
        unit = "hands" if t.settings.by_hands else "seconds"
        if t.phase is not Phase.REGISTERING:
            info = t.level_info(now)
            level = m.Level(index=info.level - 1, small_blind=info.small_blind, big_blind=info.big_blind)
            left = info.hands_left if info.hands_left is not None else info.seconds_left
            next_in = None if left is None else max(0, int(math.ceil(left)))
        players = []
        started = t.phase is not Phase.REGISTERING
        still_in = set(t.players_in()) if started else set()
        # One pass over the tables, not t.location / t.stack_of per player (each scans
        # every table), nor t.standings() (ranks by chips in quadratic time): a
        # 1,000-player lobby took ~0.3 s and stalled every table meanwhile.
        seated = {p.player_id: (Location(table_id=tid, seat=seat, waiting=False), p.stack)
                  for tid in t.table_ids() for seat, p in t.table(tid).seats.items()}
        for player_id in t.registered:
            ps = self.players[player_id]
            eliminated = started and player_id not in still_in
            loc, stack = seated.get(player_id, (None, 0))
            if loc is None and started and not eliminated:
                loc = t.location(player_id)  # on the way to a table (rare)
                stack = t.stack_of(player_id) if loc is not None else 0
            if eliminated:
                status = "eliminated"
            elif loc is None:
                status = "waiting"
            elif ps.client is None and not ps.is_bot:
                status = "disconnected"
            elif ps.sitting_out:
                status = "sitting_out"
            else:
                status = "playing"
            players.append(m.LobbyPlayer(
                player_id=int(player_id), name=ps.name,
                chips=stack if loc is not None else (0 if started else t.settings.starting_stack),
                table=loc.table_id if loc else None, seat=loc.seat if loc else None,
                status=status,  # type: ignore[arg-type]
            ))
        tables = [
            m.LobbyTable(table=tid, players=tuple(int(p.player_id) for _, p in sorted(t.table(tid).seats.items())))
            for tid in t.table_ids()
        ]
        schedule = tuple(m.ScheduleLevel(small_blind=sb, big_blind=bb,
                                         minutes=None if t.settings.by_hands else int(t.settings.level_minutes),
                                         hands=t.settings.hands_per_level)
                         for sb, bb in t.settings.schedule)
        return m.Lobby(
            id=request_id, name=t.settings.name, state=state,  # type: ignore[arg-type]
            level=level, next_level_in=next_in, next_level_unit=unit,  # type: ignore[arg-type]
            schedule=schedule, players=tuple(players), tables=tuple(tables),
            deadline=None if self.deadline_wall is None else self.deadline_wall.isoformat(timespec="seconds"),
        )

    def snapshot_for(self, client: Client, table_id: int, request_id: int | None = None) -> m.TableSnapshot:
        t = self.tournament
        table = t.table(table_id)
        your_seat = None
        if client.player_id is not None:
            loc = self.locate(client.player_id)
            if loc is not None and loc.table_id == table_id and not loc.waiting:
                your_seat = loc.seat
        hand = table.hand
        view = view_for(hand, your_seat if hand is not None and your_seat in hand.seats else None) if hand is not None else None

        def info(seat: int) -> tuple[str, str, bool, bool]:
            player_id = table.seats[seat].player_id
            ps = self.players[player_id]
            return player_id, ps.name, ps.sitting_out, ps.client is not None or ps.is_bot

        sb, bb = t.blinds
        return outbound.snapshot(
            table=table_id, max_seats=table.seat_count, view=view,
            seated={s: p.stack for s, p in table.seats.items()}, info=info,
            small_blind=sb, big_blind=bb, carry=table.carry, button=table.button,
            your_seat=your_seat, request_id=request_id,
        )

    def standings_message(self, request_id: int | None = None) -> m.Standings:
        t = self.tournament
        return m.Standings(id=request_id, places=outbound.places(t.standings()), final=t.finished)

    # -- connections --------------------------------------------------------------------

    async def handle_connection(self, stream: trio.SocketStream) -> None:
        """One connection, start to end. Nothing a client sends can escape this."""
        self._next_conn += 1
        try:
            host, port = stream.socket.getpeername()[:2]
            peer = f"{host}:{port}"
        except OSError:
            peer = "?"
        conn = Connection(stream, conn_id=self._next_conn, peer=peer,
                          max_queue_bytes=self.config.send_queue_bytes,
                          send_timeout=self.config.send_timeout)
        client = Client(conn=conn)
        try:
            if len(self.clients) >= self.config.max_connections:
                client.send(m.Error(code=E.SERVER_FULL, message="the server is full; try again later", fatal=True))
                await conn.flush_and_close("server full")
                return
            self.clients.add(client)
            log.info("%r connected", conn)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(conn.run_writer)
                nursery.start_soon(self._reader, client)
                await conn.wait_closed()
                nursery.cancel_scope.cancel()
        except Exception:
            log.exception("%r: internal error; connection closed", conn)
        finally:
            self.clients.discard(client)
            self.viewers.discard(client)
            self._detach(client)
            with trio.CancelScope(shield=True):
                with trio.move_on_after(1):
                    try:
                        await stream.aclose()
                    except Exception:
                        pass

    def _detach(self, client: Client) -> None:
        if client.player_id is None:
            return
        ps = self.players.get(client.player_id)
        if ps is not None and ps.client is client:
            ps.client = None
            log.info("%s disconnected (%s)", ps.name, client.conn.close_reason)
            grace = self.tournament.settings.reconnect_grace
            if grace <= 0 or self._nursery is None:
                self.player_status(ps.player_id, "disconnected")
            else:
                # A dropped connection that comes back within the grace is not announced;
                # the player's clock runs either way, so a drop never stalls the table.
                self._nursery.start_soon(self._announce_if_still_away, ps, grace)

    async def _announce_if_still_away(self, ps: PlayerState, grace: float) -> None:
        await trio.sleep(grace)
        if ps.client is None:
            self.player_status(ps.player_id, "disconnected")

    async def _reader(self, client: Client) -> None:
        c = self.config
        conn = client.conn
        stream = conn.stream
        buf = LineBuffer(c.max_line)
        client.send(m.Hello(protocol=m.PROTOCOL_NAME, versions=m.SUPPORTED_VERSIONS, server=SOFTWARE,
                            tournament=self.tournament.settings.name, max_line=c.max_line))
        handshake_deadline = trio.current_time() + c.handshake_timeout
        last_rx = trio.current_time()
        line_started: float | None = None
        pinged = False
        while not conn.closed:
            deadlines = [last_rx + (c.idle_timeout if pinged else c.ping_interval)]
            if not client.role:
                deadlines.append(handshake_deadline)
            if line_started is not None:
                deadlines.append(line_started + c.line_timeout)
            with trio.move_on_at(min(deadlines)) as scope:
                try:
                    data = await stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    conn.close("connection lost")
                    return
            now = trio.current_time()
            if scope.cancelled_caught:
                if not client.role and now >= handshake_deadline:
                    await self._fatal(client, E.TIMEOUT, f"no handshake within {c.handshake_timeout:g} s")
                    return
                if line_started is not None and now >= line_started + c.line_timeout:
                    await self._fatal(client, E.TIMEOUT, f"a line was not finished within {c.line_timeout:g} s")
                    return
                if pinged:
                    await self._fatal(client, E.TIMEOUT, f"no reply for {c.idle_timeout:g} s")
                    return
                pinged = True
                client.send(m.ServerPing(nonce=str(self._next_conn)))
                continue
            if not data:
                conn.close("client closed the connection")
                return
            last_rx = now
            pinged = False
            try:
                lines = buf.feed(bytes(data))
            except ProtocolError as exc:
                await self._fatal(client, exc.code, exc.message)
                return
            line_started = (now if line_started is None else line_started) if buf.has_partial else None
            for line in lines:
                if not line.strip():
                    continue
                await self._handle_line(client, line)
                if conn.closed:
                    return

    async def _fatal(self, client: Client, code: str, message: str) -> None:
        client.send(m.Error(code=code, message=message, fatal=True))
        await client.conn.flush_and_close(message)

    async def _handle_line(self, client: Client, line: bytes) -> None:
        try:
            msg = decode_client(line)
        except ProtocolError as exc:
            client.errors += 1
            client.send(error_reply(exc))
            if client.errors >= self.config.max_errors:
                await self._fatal(client, E.TOO_MANY_ERRORS,
                                  f"{client.errors} bad messages in a row; closing the connection")
            return
        client.errors = 0
        try:
            await self._dispatch(client, msg)
        except ProtocolError as exc:
            client.send(error_reply(exc, getattr(msg, "id", None)))
        except TournamentError as exc:
            self.reply_error(client, E.INVALID_STATE, str(exc), getattr(msg, "id", None))

    async def _dispatch(self, client: Client, msg: m.ClientMessage) -> None:
        rid = getattr(msg, "id", None)
        if isinstance(msg, m.Ping):
            client.send(m.ServerPong(id=rid, nonce=msg.nonce))
            return
        if isinstance(msg, m.Pong):
            return
        if isinstance(msg, m.Goodbye):
            await client.conn.flush_and_close("client said goodbye")
            return
        if isinstance(msg, (m.Join, m.Resume, m.Spectate, m.DirectorLogin)):
            if client.role:
                raise ProtocolError(E.ALREADY_JOINED, "this connection has already joined")
            if msg.version not in m.SUPPORTED_VERSIONS:
                raise ProtocolError(
                    E.UNSUPPORTED_VERSION,
                    f"protocol version {msg.version} is not supported; this server speaks "
                    + ", ".join(str(v) for v in m.SUPPORTED_VERSIONS),
                )
            await self._handshake(client, msg)
            return
        if not client.role:
            raise ProtocolError(E.HANDSHAKE_REQUIRED, "join, resume, spectate or director first")
        if isinstance(msg, m.LobbyRequest):
            client.send(self.lobby_message(rid))
        elif isinstance(msg, m.StandingsRequest):
            client.send(self.standings_message(rid))
        elif isinstance(msg, m.SnapshotRequest):
            await self.settled()
            table_id = msg.table or self._client_table(client)
            if table_id is None or table_id not in self.tournament.tables:
                raise ProtocolError(E.NOT_FOUND, "no such table" if table_id else "you are not at a table")
            if client.role == "player" and table_id != self._client_table(client):
                raise ProtocolError(E.UNAUTHORIZED, "players can see only their own table")
            if client.role in ("spectator", "director"):
                client.watching = table_id
            client.send(self.snapshot_for(client, table_id, rid))
        elif isinstance(msg, m.Act):
            self._to_table(client, TableCommand(kind="act", player_id=client.player_id, msg=msg, client=client), rid)
        elif isinstance(msg, (m.SitOut, m.ImBack)):
            kind = "sit_out" if isinstance(msg, m.SitOut) else "im_back"
            if client.player_id is None:
                raise ProtocolError(E.NOT_SEATED, "only players can sit out")
            table_id = self._client_table(client)
            runner = self.runners.get(table_id) if table_id is not None else None
            if runner is None or not runner.post(TableCommand(kind=kind, player_id=client.player_id)):
                self.set_sitting_out(client.player_id, kind == "sit_out")
            if rid is not None:
                client.send(m.Ack(id=rid))
        elif isinstance(msg, m.Chat):
            self._chat(client, msg)
        elif isinstance(msg, m.CallDirector):
            if client.player_id is None:
                raise ProtocolError(E.UNAUTHORIZED, "only players call the director")
            events = self.tournament.call_floor(self.now(), client.player_id, msg.message)
            self.handle_tournament_events(events)
            if rid is not None:
                client.send(m.Ack(id=rid))
        elif isinstance(msg, m.DirectorCommand):
            if client.role != "director":
                raise ProtocolError(E.UNAUTHORIZED, "director commands need the director's secret")
            await self._director(msg.command)
            if rid is not None:
                client.send(m.Ack(id=rid))
        elif isinstance(msg, m.HistoryRequest):
            client.send(await self._history(client, msg))
        else:  # pragma: no cover - every client message is handled above
            raise ProtocolError(E.UNKNOWN_TYPE, f"cannot handle {type(msg).__name__}")

    def _client_table(self, client: Client) -> int | None:
        if client.player_id is not None:
            loc = self.locate(client.player_id)
            return loc.table_id if loc is not None else None
        return client.watching

    def _to_table(self, client: Client, cmd: TableCommand, rid: int | None) -> None:
        if client.player_id is None:
            raise ProtocolError(E.NOT_SEATED, "spectators and the director do not act")
        if self.tournament.finished:
            raise ProtocolError(E.TOURNAMENT_OVER, "the tournament is over")
        table_id = self._client_table(client)
        runner = self.runners.get(table_id) if table_id is not None else None
        if runner is None:
            raise ProtocolError(E.NOT_SEATED, "you are not seated at a table in play")
        if not runner.post(cmd):
            raise ProtocolError(E.RATE_LIMITED, "too many requests queued at your table")

    async def _handshake(self, client: Client, msg: m.Handshake) -> None:
        t = self.tournament
        rid = msg.id
        client.version = msg.version
        if isinstance(msg, m.Join):
            if self.config.password is not None and not hmac.compare_digest(
                (msg.password or "").encode(), self.config.password.encode()
            ):
                raise ProtocolError(E.WRONG_PASSWORD, "wrong password for this tournament")
            if msg.name.casefold() in self.by_name:
                raise ProtocolError(
                    E.NAME_TAKEN,
                    f"the name {msg.name!r} is taken; pick another, or resume with your session token",
                )
            if t.phase is not Phase.REGISTERING:
                raise ProtocolError(E.INVALID_STATE, "registration is closed: the tournament has started")
            if len(self.players) >= self.config.max_players:
                raise ProtocolError(E.SERVER_FULL, "the tournament is full")
            token = secrets.token_urlsafe(24)
            player_id = await self.register(msg.name, token)
            ps = self.players[player_id]
            self._attach(client, ps)
            client.send(m.Welcome(id=rid, version=msg.version, role="player", player_id=int(player_id),
                                  name=ps.name, token=token, table=None, seat=None))
            client.send(self.lobby_message())
            self._lobby_dirty = True
            return
        if isinstance(msg, m.Resume):
            await self.settled()  # then no await until the snapshot is sent
            found = self._by_token(msg.token)
            if found is None:
                raise ProtocolError(E.BAD_TOKEN, "unknown session token; join with a new name instead")
            player_id = found
            ps = self.players[player_id]
            old = ps.client
            if old is not None and old is not client:
                old.send(m.ServerGoodbye(reason="replaced by a new connection with your token"))
                old.player_id = None
                old.role = ""
                self.clients.discard(old)
                # Close after the goodbye is out (a bare close lets the handler cancel the
                # writer first, and the old client never learns why it was cut off).
                if self._nursery is not None:
                    self._nursery.start_soon(old.conn.flush_and_close, "replaced by a new connection")
                else:
                    old.conn.close("replaced by a new connection")
            self._attach(client, ps)
            loc = self.locate(player_id)
            client.send(m.Welcome(id=rid, version=msg.version, role="player", player_id=int(player_id),
                                  name=ps.name, token=None, table=loc.table_id if loc else None,
                                  seat=loc.seat if loc else None))
            client.send(self.lobby_message())
            for text in self.restart_notices:
                client.send(m.Announcement(text=text, by="server", reason=None))
            if loc is not None and loc.table_id in t.tables:
                self.player_status(player_id, "reconnected")
                client.send(self.snapshot_for(client, loc.table_id))
                runner = self.runners.get(loc.table_id)
                hand = t.table(loc.table_id).hand
                if runner is not None and runner.turn is not None and runner.turn.player_id == player_id \
                        and hand is not None and not hand.is_over:
                    self.send_your_turn(loc.table_id, hand, runner.turn)
            self._send_result_if_over(client)
            log.info("%s resumed on %r", ps.name, client.conn)
            return
        if isinstance(msg, m.Spectate):
            await self.settled()
            client.role = "spectator"
            self.viewers.add(client)
            ids = t.table_ids()
            client.watching = msg.table if msg.table in t.tables else (ids[0] if ids else None)
            client.send(m.Welcome(id=rid, version=msg.version, role="spectator", player_id=None, name=None,
                                  token=None, table=client.watching, seat=None))
            client.send(self.lobby_message())
            if client.watching is not None:
                client.send(self.snapshot_for(client, client.watching))
            self._send_result_if_over(client)
            return
        assert isinstance(msg, m.DirectorLogin)
        if not hmac.compare_digest(msg.secret.encode(), self.director_secret.encode()):
            await trio.sleep(0.5)  # slow down guessing
            raise ProtocolError(E.UNAUTHORIZED, "wrong director secret")
        client.role = "director"
        self.viewers.add(client)
        ids = t.table_ids()
        client.watching = ids[0] if ids else None
        client.send(m.Welcome(id=rid, version=msg.version, role="director", player_id=None, name=None,
                              token=None, table=client.watching, seat=None))
        client.send(self.lobby_message())
        self._send_result_if_over(client)

    def _send_result_if_over(self, client: Client) -> None:
        """Late arrivals after the end get the result too (the server stays up for them)."""
        result = self.tournament.result
        if result is not None:
            client.send(m.TournamentFinished(name=self.tournament.settings.name,
                                             places=outbound.places(result.standings)))

    def _attach(self, client: Client, ps: PlayerState) -> None:
        client.role = "player"
        client.player_id = ps.player_id
        ps.client = client

    def _by_token(self, token: str) -> str | None:
        h = token_hash(token)
        for ps in self.players.values():
            if hmac.compare_digest(ps.token_hash, h):
                return ps.player_id
        return None

    async def register(self, name: str, token: str, *, is_bot: bool = False) -> str:
        player_id = str(len(self.players) + 1)
        h = token_hash(token)
        events = self.tournament.register(player_id, name)
        self.players[player_id] = PlayerState(player_id=player_id, name=name, token_hash=h,
                                              bank=self.config.time_bank, is_bot=is_bot)
        self.by_name[name.casefold()] = player_id
        records = self.log_input("register", {"player_id": player_id, "name": name})
        if self.store is not None:
            records.append(Record(
                sql="INSERT INTO players (player_id, name, token_hash, registered_seq) VALUES (?, ?, ?, ?)",
                params=(player_id, name, h, len(self.players)),
            ))
        await self.commit(records)
        log.info("%s joined as player %s", name, player_id)
        self.handle_tournament_events(events)
        return player_id

    def _chat(self, client: Client, msg: m.Chat) -> None:
        if not self.chat_enabled and client.role != "director":
            raise ProtocolError(E.INVALID_STATE, "the director has turned player chat off")
        now = trio.current_time()
        while client.chat_times and client.chat_times[0] < now - 10:
            client.chat_times.popleft()
        if len(client.chat_times) >= self.config.chat_per_10s:
            raise ProtocolError(E.RATE_LIMITED, f"at most {self.config.chat_per_10s} chat messages per 10 seconds")
        client.chat_times.append(now)
        name = self.players[client.player_id].name if client.player_id else (client.role or "?")
        table_id = self._client_table(client) if msg.scope == "table" else None
        out = m.ChatMessage(scope=msg.scope, table=table_id,
                            player_id=int(client.player_id) if client.player_id else None,
                            name=name, role=client.role, text=msg.text)  # type: ignore[arg-type]
        if msg.scope == "table":
            if table_id is None:
                raise ProtocolError(E.NOT_SEATED, "you are not at a table; use scope lobby")
            self.broadcast(out, self.table_clients(table_id))
        else:
            self.broadcast(out)
        if self.store is not None:
            self.store.submit([Record(
                sql="INSERT INTO chat (at, scope, player_id, text) VALUES (?, ?, ?, ?)",
                params=(dt.datetime.now().astimezone().isoformat(timespec="seconds"), msg.scope,
                        client.player_id, msg.text),
            )])
        if msg.id is not None:
            client.send(m.Ack(id=msg.id))

    async def _director(self, cmd: m.Command) -> None:
        """A director command: turned into a logged payload, applied, stored, announced."""
        t = self.tournament
        payload: dict[str, Any] = {"op": type(cmd).TYPE, "now": self.now(), "reason": cmd.reason}
        if isinstance(cmd, m.StartCommand) and t.phase is Phase.REGISTERING:
            await self.start_tournament()
            return
        if isinstance(cmd, m.SetLevelCommand):
            payload["level"] = cmd.index + 1
        elif isinstance(cmd, m.SetScheduleCommand):
            payload["schedule"] = [[lv.small_blind, lv.big_blind] for lv in cmd.levels]
        elif isinstance(cmd, m.SetOptionsCommand):
            opts: dict[str, Any] = {
                "action_clock": cmd.action_seconds, "time_bank": cmd.time_bank_seconds,
                "reconnect_grace": cmd.reconnect_grace_seconds, "level_minutes": cmd.level_minutes,
                "hands_per_level": cmd.hands_per_level, "ruleset": cmd.ruleset,
            }
            payload["options"] = {k: v for k, v in opts.items() if v is not None}
            if cmd.chat is not None:
                self.chat_enabled = cmd.chat
                self.announce_all(f"Player chat is {'on' if cmd.chat else 'off'}.", by="director",
                                  reason=cmd.reason)
                if not payload["options"]:
                    return
        elif isinstance(cmd, m.SetDeadlineCommand):
            self.deadline_wall = None if cmd.deadline is None else \
                dt.datetime.fromisoformat(cmd.deadline.replace("Z", "+00:00"))
            payload["deadline"] = self._deadline_in_base()
        elif isinstance(cmd, (m.MovePlayerCommand, m.RemovePlayerCommand, m.AdjustChipsCommand)):
            player_id = str(cmd.player_id)
            if player_id not in self.players:
                raise ProtocolError(E.NOT_FOUND, f"there is no player {cmd.player_id}")
            payload["player_id"] = player_id
            if isinstance(cmd, m.MovePlayerCommand):
                payload.update(table=cmd.table, seat=cmd.seat)
            elif isinstance(cmd, m.AdjustChipsCommand):
                payload["delta"] = cmd.chips - t.stack_of(player_id)
        elif isinstance(cmd, m.AnnounceCommand):
            payload["text"] = cmd.text
        events = apply_director(t, payload)
        records = self.log_input("director", payload) + self.tournament_event_records(events)
        if isinstance(cmd, m.SetDeadlineCommand) and self.store is not None:
            wall = "" if self.deadline_wall is None else self.deadline_wall.isoformat()
            records.append(meta_record("deadline_wall", wall))
        await self.commit(records)
        self.handle_tournament_events(events)
        self.wake_tables()

    async def _history(self, client: Client, msg: m.HistoryRequest) -> m.History:
        if self.store is None:
            return m.History(id=msg.id, hands=())
        table_id = msg.table if msg.table is not None else self._client_table(client)
        last = min(msg.last or 1, HISTORY_MAX)
        store = self.store

        def query() -> list[tuple[int, int, int, str, list[str]]]:
            conn = store.reader()
            try:
                if msg.hand_no is not None:
                    rows = conn.execute(
                        "SELECT hand_no, table_id, level, seats FROM hands WHERE hand_no=? AND status='finished'",
                        (msg.hand_no,)).fetchall()
                elif table_id is not None:
                    rows = conn.execute(
                        "SELECT hand_no, table_id, level, seats FROM hands WHERE table_id=? AND status='finished' "
                        "ORDER BY hand_no DESC LIMIT ?", (table_id, last)).fetchall()
                else:
                    rows = conn.execute(
                        "SELECT hand_no, table_id, level, seats FROM hands WHERE status='finished' "
                        "ORDER BY hand_no DESC LIMIT ?", (last,)).fetchall()
                out = []
                for hand_no, tid, level, seats in rows:
                    evs = [r[0] for r in conn.execute(
                        "SELECT event FROM hand_events WHERE hand_no=? ORDER BY idx", (hand_no,))]
                    out.append((hand_no, tid, level, seats, evs))
                return out
            finally:
                conn.close()

        from server.records import event_from_json

        rows = await trio.to_thread.run_sync(query)
        hands = []
        for hand_no, tid, level, seats, evs in sorted(rows):
            players = {int(s): (p[0], p[1]) for s, p in json.loads(seats).items()}
            hands.append(hand_record(table=tid, hand_no=hand_no, level=level - 1,  # stored from 1
                                     events=[event_from_json(e) for e in evs],
                                     players=players, viewer=client.player_id))
        return m.History(id=msg.id, hands=tuple(hands))

    # -- running ----------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        self._time_base = self._resume_at - trio.current_time()
        if self.store is not None:
            self.store.start()
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            if self.tournament.phase is not Phase.REGISTERING:
                self.start_tables()
            listeners = await nursery.start(self._accept, nursery)
            self.port = listeners[0].socket.getsockname()[1]
            self.listeners = listeners
            nursery.start_soon(self.coordinator)
            task_status.started(self.port)
            for text in self.pending_announcements:
                self.announce_all(text, by="server")
            # Nobody is connected yet after a restart: each player hears it on resuming.
            self.restart_notices, self.pending_announcements = self.pending_announcements, []
            await trio.sleep_forever()

    async def _accept(self, nursery: trio.Nursery, task_status: trio.TaskStatus[Any] = trio.TASK_STATUS_IGNORED) -> None:
        with self._accepting:
            await trio.serve_tcp(self.handle_connection, self.config.port, host=self.config.host,
                                 handler_nursery=nursery, task_status=task_status)

    async def shutdown(self, reason: str) -> None:
        """Stop accepting, tell every client, and let the writers flush."""
        self._accepting.cancel()  # stop accepting; the connections live in the server's nursery
        for client in list(self.clients):
            client.send(m.ServerGoodbye(reason=reason))
        with trio.move_on_after(2):
            async with trio.open_nursery() as n:
                for client in list(self.clients):
                    n.start_soon(client.conn.flush_and_close, reason)


def apply_director(t: Tournament, p: dict[str, Any]) -> Sequence[object]:
    """Apply a logged director operation: the one path for live commands and for replay."""
    d = t.director
    op, now, reason = p["op"], p["now"], p["reason"]
    if op == "start":
        return d.start(now, reason=reason)
    if op == "pause":
        return d.pause(now, reason=reason)
    if op == "resume":
        return d.resume(now, reason=reason)
    if op == "set_level":
        return d.set_level(now, p["level"], reason=reason)
    if op == "set_schedule":
        return d.change_schedule(now, p["schedule"], reason=reason)
    if op == "set_options":
        return d.change_rules(now, reason=reason, **p["options"])
    if op == "set_deadline":
        return d.set_deadline(now, p["deadline"], reason=reason)
    if op == "move_player":
        return d.move_player(now, p["player_id"], p["table"], p["seat"], reason=reason)
    if op == "remove_player":
        return d.remove_player(now, p["player_id"], reason=reason)
    if op == "adjust_chips":
        return d.correct_chips(now, p["player_id"], p["delta"], reason=reason)
    if op == "announce":
        return d.announce(now, p["text"], reason=reason)
    raise TournamentError(f"unknown director operation {op!r}")


def _seeded(seed: int) -> random.Random:
    """The tournament's seating RNG: seeded (and the seed stored) so replay redraws the same seats."""
    return random.Random(seed)
