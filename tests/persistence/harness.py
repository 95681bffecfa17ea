"""Real server processes and plain-TCP bots for the persistence tests.

- ``ServerProcess`` runs ``python -m server --db ... --port 0 --port-file ...`` and can
  kill it (SIGKILL or SIGTERM) and start it again on the same database; the port changes
  each time and is read from the port file, as a script would.
- ``Bot`` is a check/call/raise player on a raw connection (``tests/server/rawclient.py``):
  it joins once, then after every restart reconnects and resumes with its token. It keeps
  what it saw (actions, hole cards, boards, snapshots) so a test can hold that against the
  database afterwards.
- ``check_against_db`` is that comparison; ``db_state`` replays the database read-only.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import trio

import protocol.messages as m
from server.app import Server, open_server
from server.config import ServerConfig
from server.reports import load_server, open_readonly
from server.snapshots import snapshot_for
from tests.server.rawclient import RawClient

REPO = Path(__file__).resolve().parents[2]


class ServerProcess:
    def __init__(self, tmp: Path, args: list[str], *, db: Path | None = None) -> None:
        self.tmp = tmp
        self.db = db or tmp / "hickory.db"
        self.port_file = tmp / "port"
        self.args = args
        self.proc: subprocess.Popen[bytes] | None = None
        self.port: int | None = None
        self.generation = 0
        self.up = trio.Event()
        self.log_paths: list[Path] = []

    async def start(self, timeout: float = 60.0) -> int:
        self.port_file.unlink(missing_ok=True)
        log_path = self.tmp / f"server-{self.generation + 1}.log"
        self.log_paths.append(log_path)
        with open(log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "server", "--db", str(self.db), "--port", "0",
                 "--port-file", str(self.port_file), "--hand-pause", "0", *self.args],
                cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )
        with trio.fail_after(timeout):
            while True:
                if self.proc.poll() is not None:
                    raise AssertionError(f"the server exited with {self.proc.returncode}:\n{log_path.read_text()}")
                try:
                    text = self.port_file.read_text()
                    if text.endswith("\n"):
                        self.port = int(text)
                        break
                except (FileNotFoundError, ValueError):
                    pass
                await trio.sleep(0.01)
        self.generation += 1
        self.up.set()
        return self.port

    def signal(self, sig: int = signal.SIGKILL) -> None:
        assert self.proc is not None
        self.up = trio.Event()
        self.proc.send_signal(sig)

    async def wait_exit(self, timeout: float = 30.0) -> int:
        assert self.proc is not None
        with trio.fail_after(timeout):
            while self.proc.poll() is None:
                await trio.sleep(0.01)
        return self.proc.returncode

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def last_log(self) -> str:
        return self.log_paths[-1].read_text() if self.log_paths else ""


Observer = Callable[["Bot", m.ServerMessage], None]


class Bot:
    """A simple player: mostly check/call, sometimes raise, bet, shove or fold."""

    def __init__(self, name: str, server: ServerProcess, seed: int, *, observe: Observer | None = None,
                 think: float = 0.01, shove: float = 0.04, raise_: float = 0.18,
                 raise_cap: float | None = None) -> None:
        self.name = name
        self.server = server
        self.rng = random.Random(seed)
        self.observe = observe
        self.think = think
        self.shove = shove  # how often it goes all-in, and raises, when it may
        self.raise_ = raise_
        self.raise_cap = raise_cap  # raise at most this many times the minimum (None: any size)
        self.token: str | None = None
        self.player_id: int | None = None
        self.seat: int | None = None
        self.table: int | None = None
        self.finished = False
        self.sessions = 0
        self.generation = 0  # the server run this bot's connection belongs to
        self.goodbyes = 0
        self.errors: list[str] = []
        self.received: list[m.ServerMessage] = []
        self.actions: dict[int, list[tuple[int, str, int, int]]] = defaultdict(list)  # hand -> seen
        self.holes: dict[int, tuple[int, tuple[str, ...]]] = {}  # hand -> (seat, cards)
        self.boards: dict[int, list[tuple[str, ...]]] = defaultdict(list)
        self.street: dict[int, str] = {}
        self.snapshots: list[tuple[int, bool, m.TableSnapshot]] = []  # (generation, after resume, snap)

    async def run(self) -> None:
        while not self.finished:
            await self.server.up.wait()
            port = self.server.port
            assert port is not None
            try:
                client = await RawClient.connect(port)
            except OSError:
                await trio.sleep(0.02)
                continue
            try:
                await self.session(client)
            except (EOFError, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            finally:
                with trio.CancelScope(shield=True):
                    try:
                        await client.aclose()
                    except Exception:
                        pass
            if not self.finished:
                await trio.sleep(0.01)

    async def session(self, c: RawClient) -> None:
        generation = self.generation = self.server.generation
        await c.recv_until(m.Hello)
        resumed = self.token is not None
        if self.token is None:
            await c.send(m.Join(version=1, name=self.name))
        else:
            await c.send(m.Resume(version=1, token=self.token))
        welcome = await c.recv()
        if isinstance(welcome, m.Error):
            raise AssertionError(f"{self.name}: handshake refused: {welcome.message}")
        assert isinstance(welcome, m.Welcome)
        self.sessions += 1
        if welcome.token is not None:
            self.token = welcome.token
        self.player_id = welcome.player_id
        if resumed:
            await c.send(m.ImBack())
        first_snapshot = resumed
        while True:
            msg = await c.recv()
            self.received.append(msg)
            if isinstance(msg, m.TableSnapshot):
                self.snapshots.append((generation, first_snapshot, msg))
                first_snapshot = False
                self.table = msg.table
                self.seat = msg.your_seat
                if msg.hand_no is not None and msg.street is not None:
                    self.street[msg.hand_no] = msg.street
                    if msg.your_cards is not None and msg.your_seat is not None:
                        self.holes[msg.hand_no] = (msg.your_seat, tuple(msg.your_cards))
            elif isinstance(msg, m.HandStarted):
                self.street[msg.hand_no] = "preflop"
            elif isinstance(msg, m.HoleCards):
                self.holes[msg.hand_no] = (msg.seat, tuple(msg.cards))
            elif isinstance(msg, m.Action):
                self.actions[msg.hand_no].append((msg.seat, msg.action, msg.amount, msg.to))
            elif isinstance(msg, m.Board):
                self.street[msg.hand_no] = msg.street
                self.boards[msg.hand_no].append(tuple(msg.board))
            elif isinstance(msg, m.PlayerMoved) and msg.player_id == self.player_id:
                self.table, self.seat = msg.table, msg.seat
            elif isinstance(msg, m.PlayerStatus):
                if msg.player_id == self.player_id and msg.status == "sitting_out":
                    await c.send(m.ImBack())
                if msg.player_id == self.player_id and msg.status in ("eliminated", "removed"):
                    self.seat = self.table = None
            elif isinstance(msg, m.ServerGoodbye):
                self.goodbyes += 1
            elif isinstance(msg, m.Error):
                self.errors.append(f"{msg.code}: {msg.message}")
            if self.observe is not None:
                self.observe(self, msg)
            if isinstance(msg, m.TournamentFinished) or (isinstance(msg, m.Standings) and msg.final):
                self.finished = True
                return
            if isinstance(msg, m.YourTurn):
                if self.think:
                    await trio.sleep(self.rng.random() * self.think)
                await c.send(self.decide(msg))

    def decide(self, turn: m.YourTurn) -> m.Act:
        legal = turn.legal
        r = self.rng.random()
        preflop = self.street.get(turn.hand_no, "preflop") == "preflop"
        can_raise = legal.min_raise_to is not None and legal.max_raise_to is not None
        raise_kind = "bet" if legal.check and not preflop else "raise"
        if can_raise and r < self.shove:
            return m.Act(hand_no=turn.hand_no, action="all_in")
        if can_raise and r < self.shove + self.raise_:
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            top = legal.max_raise_to if self.raise_cap is None else max(
                legal.min_raise_to, min(legal.max_raise_to, int(legal.min_raise_to * self.raise_cap)))
            to = legal.min_raise_to if self.rng.random() < 0.6 else self.rng.randint(legal.min_raise_to, top)
            return m.Act(hand_no=turn.hand_no, action=raise_kind, amount=to)  # type: ignore[arg-type]
        if legal.check:
            return m.Act(hand_no=turn.hand_no, action="check")
        if legal.fold and r > 0.85:
            return m.Act(hand_no=turn.hand_no, action="fold")
        return m.Act(hand_no=turn.hand_no, action="call")


# -- the database side ------------------------------------------------------------------------


def db_server(db: Path, watch: Callable[[Server, int, str, int | None], None] | None = None) -> Server:
    """The tournament replayed read-only from ``db``."""
    conn = open_readonly(db)
    try:
        return load_server(conn, watch=watch)
    finally:
        conn.close()


def phases(server: Server) -> set[str]:
    """Where each table's play stands: what a restart has to resume from."""
    out = set()
    t = server.tournament
    if t.finished:
        return {"finished"}
    for tid in t.table_ids():
        hand = t.table(tid).hand
        if hand is None:
            out.add("between hands")
        elif hand.is_over:
            out.add("settled, hand not yet ended")
        else:
            out.add(hand.street.value)
    return out


def check_chips(server: Server) -> None:
    t = server.tournament
    assert t.total_chips() == t.chips_issued, (t.total_chips(), t.chips_issued)


def stored_hands(db: Path) -> dict[int, dict[str, Any]]:
    conn = open_readonly(db)
    try:
        hands: dict[int, dict[str, Any]] = {}
        for hand_no, status, table_id in conn.execute("SELECT hand_no, status, table_id FROM hands ORDER BY hand_no"):
            events = [json.loads(r[0]) for r in conn.execute(
                "SELECT event FROM hand_events WHERE hand_no=? ORDER BY idx", (hand_no,))]
            idx = [r[0] for r in conn.execute("SELECT idx FROM hand_events WHERE hand_no=? ORDER BY idx", (hand_no,))]
            hands[hand_no] = {"status": status, "table": table_id, "events": events, "idx": idx}
        begins = conn.execute("SELECT count(*) FROM inputs WHERE kind='begin_hand'").fetchone()[0]
        ends = conn.execute("SELECT count(*) FROM inputs WHERE kind='end_hand'").fetchone()[0]
        for h in hands.values():
            h["begins"], h["ends"] = begins, ends
        return hands
    finally:
        conn.close()


def check_hands(db: Path, *, finished: bool) -> dict[int, dict[str, Any]]:
    """No hand lost or played twice: numbers 1..N, one start and (when over) one end each."""
    hands = stored_hands(db)
    numbers = sorted(hands)
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    if not hands:
        return hands
    begins = next(iter(hands.values()))["begins"]
    assert begins == len(hands), (begins, len(hands))
    for no, h in hands.items():
        types = [e["type"] for e in h["events"]]
        assert h["idx"] == list(range(len(h["idx"]))), (no, h["idx"])
        assert types.count("HandStarted") == 1 and types[0] == "HandStarted", (no, types)
        assert types.count("HandEnded") <= 1, (no, types)
        if h["status"] == "finished":
            assert types.count("HandEnded") == 1, (no, types)
        else:
            assert h["status"] == "playing", (no, h["status"])
            assert not finished or no == numbers[-1], f"hand #{no} was never finished"
    return hands


def snapshot_key(s: m.TableSnapshot) -> tuple[Any, ...]:
    """What a snapshot says about the game (not who is connected or sitting out)."""
    return (
        s.table, s.hand_no, s.street, s.button, s.small_blind, s.big_blind,
        tuple((v.seat, v.player_id, v.stack, v.bet, v.folded, v.all_in) for v in s.seats),
        tuple(s.board), tuple((p.amount, tuple(p.eligible)) for p in s.pots), s.carried, s.to_act,
    )


def stored_table_states(db: Path) -> set[tuple[Any, ...]]:
    """Every table picture the log passes through, as a spectator sees it."""
    states: set[tuple[Any, ...]] = set()
    nobody = SimpleNamespace(player_id=None)

    def watch(server: Server, seq: int, kind: str, table_id: int | None) -> None:
        for tid in server.tournament.table_ids():
            states.add(snapshot_key(snapshot_for(server, nobody, tid)))  # type: ignore[arg-type]

    db_server(db, watch=watch)
    return states


def check_against_db(db: Path, bots: list[Bot], hands: dict[int, dict[str, Any]]) -> dict[str, int]:
    """Everything a bot saw is in the database, in order, once; every snapshot is a stored state."""
    counts = {"actions": 0, "snapshots": 0, "resume_snapshots": 0, "holes": 0}
    for bot in bots:
        for hand_no, seen in bot.actions.items():
            assert hand_no in hands, f"{bot.name} saw hand #{hand_no}, which is not stored"
            stored = [(e["seat"], e["action"], e["amount"], e["to"])
                      for e in hands[hand_no]["events"] if e["type"] == "ActionTaken"]
            it = iter(stored)
            assert all(a in it for a in seen), (
                f"{bot.name} saw actions in hand #{hand_no} that are not stored in that order:\n"
                f"seen   {seen}\nstored {stored}")
            counts["actions"] += len(seen)
        for hand_no, (seat, cards) in bot.holes.items():
            dealt = [e["cards"] for e in hands[hand_no]["events"]
                     if e["type"] == "HoleCardsDealt" and e["seat"] == seat]
            assert dealt == [list(cards)], (bot.name, hand_no, seat, cards, dealt)
            counts["holes"] += 1
        for hand_no, boards in bot.boards.items():
            stored_boards = [tuple(e["board"]) for e in hands[hand_no]["events"] if e["type"] == "BoardDealt"]
            assert boards == [b for b in stored_boards if b in boards], (bot.name, hand_no, boards, stored_boards)
            assert set(boards) <= set(stored_boards), (bot.name, hand_no, boards, stored_boards)
    states = stored_table_states(db)
    for bot in bots:
        for generation, after_resume, snap in bot.snapshots:
            key = snapshot_key(snap)
            assert key in states, (
                f"{bot.name}'s snapshot (server run {generation}) is not a state the log passes through:\n{snap}")
            counts["snapshots"] += 1
            counts["resume_snapshots"] += after_resume
            if snap.your_cards is not None and snap.hand_no is not None and snap.your_seat is not None:
                dealt = [e["cards"] for e in hands[snap.hand_no]["events"]
                         if e["type"] == "HoleCardsDealt" and e["seat"] == snap.your_seat]
                assert dealt == [list(snap.your_cards)], (bot.name, snap)
    return counts


async def play_in_process(config: ServerConfig, bots: list[Bot], until: Callable[[Server], bool]) -> None:
    """Run a server in this process on ``config`` with in-process ``bots`` (the ``Bot``s
    above, given a fake process handle) until ``until(server)``, then stop it as abruptly as
    a crash (its commits are done) and close its store. The tests that build a log with
    hands in it to restart on use this."""
    server = open_server(config)
    fake: Any = bots[0].server
    fake.up = trio.Event()
    async with trio.open_nursery() as nursery:
        fake.port = await nursery.start(server.run)
        fake.generation += 1
        fake.up.set()
        for bot in bots:
            nursery.start_soon(bot.run)
        with trio.fail_after(60):
            while not until(server):
                await trio.sleep(0)
        nursery.cancel_scope.cancel()
    assert server.store is not None
    server.store.close()
