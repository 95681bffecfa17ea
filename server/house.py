"""The server's shared state, and the words its parts use to talk about tables.

Every concern of the server (sessions, tables, the coordinator, the director, requests)
is a module of functions over one ``House``: the tournament, the players, the
connections, the table tasks and the journal. The house itself decides nothing; it only
holds what they share, so each concern can be read on its own. All changes happen
synchronously between awaits, so each is atomic for the others.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs
import trio

import protocol.messages as m
from poker.events import Event
from poker.hand import Hand
from poker.makers import maker
from protocol import names
from server.clients import Client, PlayerState
from server.config import ServerConfig
from server.director_key import digest, new_secret
from server.fairness import FairDealer, tournament_id_for
from server.herald import Herald
from server.journal import Journal
from server.metrics import Metrics
from server.ratelimit import Doorman
from server.store import Store
from server.tournament.seating import make_location
from server.tournament.tournament import Location, Phase, Tournament

SOFTWARE = "hickory-server 0.1.0"


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

    def left_ms(self, now: float) -> tuple[int, int]:
        """What is left at ``now`` of the action clock and of the time bank, in ms: the bank
        runs only once the action clock has run out."""
        left = max(0.0, self.started + self.clock - now)
        bank = self.bank if left > 0 else max(0.0, self.deadline() - now)
        return int(left * 1000), int(bank * 1000)


@attrs.frozen
class TableAct:
    """A player's action, for the table's task to check against its hand and turn."""

    msg: m.Act
    player_id: str
    client: Client


# TableAct(msg, player_id, client) through ``poker.makers``: one per action.
make_table_act = maker(TableAct)


@attrs.frozen
class TableSitOut:
    """A player sits out: at once, even in a hand (their turn is then acted for them)."""

    player_id: str
    client: Client | None = None


@attrs.frozen
class TableImBack:
    """A player sitting out is back: from the next hand when one is in play."""

    player_id: str
    client: Client | None = None


@attrs.frozen
class TableVoid:
    """The director calls the hand in play off: ``payload`` is the logged director input."""

    payload: dict[str, Any]


@attrs.frozen
class TableWake:
    """Something elsewhere changed (a move, a level, a resume): a table waiting between
    hands looks again whether it may deal."""


# What reaches a table's task through its inbox.
TableCommand = TableAct | TableSitOut | TableImBack | TableVoid | TableWake
WAKE = TableWake()


class TableHandle(Protocol):
    """What the rest of the server may do with a table's task: post to it, read its turn."""

    table_id: int
    turn: Turn | None
    idle: bool  # waiting between hands: a change elsewhere may let it deal

    def post_nowait(self, cmd: TableCommand) -> bool: ...

    def queued_for(self, client: Client) -> int:
        """Commands from ``client`` in the inbox, not yet taken by the table."""
        ...


class Watcher:
    """Something that wants to know what happens at the tables: tests that audit every
    hand, the metrics, the room clock. Each method is called synchronously before the
    news goes out, and does nothing here; a watcher overrides what it needs."""

    def hand_events(self, table_id: int, hand: Hand, events: Sequence[Event]) -> None:
        """New events of a hand, stored and about to be sent."""

    def hand_ended(self, table_id: int) -> None:
        """A table ended its hand and the tournament took the result in."""

    def player_status(self, player_id: str, status: str) -> None:
        """A player's status changed (sitting out, back, disconnected, reconnected)."""

    def tournament_events(self, events: Sequence[object]) -> None:
        """The tournament's news (moves, table breaks, eliminations, announcements, the
        end), stored and about to be sent."""


class House:
    def __init__(self, config: ServerConfig, *, store: Store | None = None, seed: int | None = None) -> None:
        self.config = config
        self.store = store
        self.journal = Journal(store, on_failure=lambda text: None)  # the wiring (app.py) says who hears
        # The server seeds of the fair-deck scheme come from here: the OS CSPRNG; tests and
        # the docs inject a seeded one.
        self.deck_rng: random.Random = secrets.SystemRandom()
        self.clients: set[Client] = set()
        self.viewers: set[Client] = set()  # spectators and directors: a table's broadcasts scan these
        self.players: dict[str, PlayerState] = {}
        self.by_name: dict[str, str] = {}
        self.by_token_hash: dict[str, str] = {}  # SHA-256 of a session token -> player
        self.runners: dict[int, TableHandle] = {}
        self._where: dict[str, int] = {}  # player -> table last found at (a hint for locate)
        # Known in plain text only when made or given in this run (for the banner); a
        # restarted server checks logins against the hash kept in the database.
        self.director_secret: str | None = config.director_secret or new_secret()
        self.director_secret_hash = digest(self.director_secret)
        self._time_base = 0.0
        self.next_conn = 0
        self.port: int | None = None
        self.lobby_generation = 0  # +1 whenever something the lobby or standings show changes
        self._lobby_dirty = False
        self.pictures: dict[str, Any] = {}  # snapshots.Picture: the lobby and standings, by what they show
        self.lobby_entries: dict[str, tuple[tuple[object, ...], m.LobbyPlayer]] = {}  # reused if unchanged
        self.doorman = Doorman(
            joins_per_minute_per_address=config.joins_per_minute_per_address,
            joins_per_minute=config.joins_per_minute,
            failures_before_lockout=config.failures_before_lockout,
            lockout_seconds=config.lockout_seconds,
            failures_per_minute=config.failures_per_minute,
            allowance={config.dial_host(): config.bots} if config.bots else None,
        )
        self.sockets = 0  # accepted sockets still open (at most max_connections + REFUSAL_ROOM)
        self.pending: dict[Client, None] = {}  # connections before their handshake, oldest first
        self.lobby_share: Any = None  # snapshots.shared_lobby: the lobby being built for joins
        self.freeze_gc = False  # serve.py: freeze the collector's view once everyone is seated
        self.joins_in_flight = 0  # joins between their welcome and their lobby: no start meanwhile
        self.nursery: trio.Nursery | None = None
        self.finished = trio.Event()
        self.pending_announcements: list[str] = []  # from recovery, sent once running
        self.restart_notices: list[str] = []  # the same, repeated to each player who resumes
        self.chat_enabled = True
        self.rule_walls: list[str] = []  # the wall time of each rule change, by rules version - 2
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.fair = FairDealer(tournament_id_for(self.seed))  # the verifiable deck's state
        self.resume_at = 0.0  # tournament time when the server last stopped
        # The wall clock: the deadline and the start time are wall-clock times (tests set it).
        self.wall_clock: Callable[[], dt.datetime] = lambda: dt.datetime.now().astimezone()
        # Shown in the lobby before the start; the default ("next midnight") is fixed at the start.
        self.deadline_wall: dt.datetime | None = config.deadline_wall(self.wall_clock())
        self.tournament = Tournament(config.tournament_settings(None), random.Random(self.seed))
        self.watchers: list[Watcher] = []
        self.herald = Herald()  # news for the whole room, a few dozen receivers per step (fanout)
        self.metrics: Metrics | None = Metrics(config.metrics, stacks=config.metrics_stacks) \
            if config.metrics is not None else None

    @property
    def paused_for_store(self) -> str | None:
        return self.journal.failed

    @property
    def lobby_dirty(self) -> bool:
        """The lobby changed since the coordinator last pushed it (and the cached lobby and
        standings are out of date: each change counts in ``lobby_generation``)."""
        return self._lobby_dirty

    @lobby_dirty.setter
    def lobby_dirty(self, value: bool) -> None:
        if value:
            self.lobby_generation += 1
        self._lobby_dirty = value

    # -- room ------------------------------------------------------------------------------

    def handshake_room(self) -> int:
        """Connections kept free for handshakes in progress (a player coming back first
        connects, then resumes): spectators never take these."""
        return max(8, self.config.max_connections // 50)

    def spectator_room(self) -> int:
        """How many spectators and directors may be connected: what is left once every
        player still in the tournament has a connection kept for them."""
        t = self.tournament
        players = len(t.players_in()) if t.phase is not Phase.REGISTERING else len(self.players)
        return self.config.max_connections - players - self.handshake_room()

    def table_has_room(self, table_id: int) -> bool:
        """A spectator may watch this table: it has fewer than ``max_spectators_per_table``
        watchers (spectators, players who are out; each costs every broadcast there one more
        send; directors do not count)."""
        watching = sum(1 for c in self.viewers if c.watching == table_id and c.role != "director")
        return watching < self.config.max_spectators_per_table

    # -- time ---------------------------------------------------------------------------

    def now(self) -> float:
        """Tournament time: monotonic, and it does not run while the server is down."""
        return self._time_base + trio.current_time()

    def note_rule_times(self, wall: object) -> None:
        """The wall-clock time of each rule change a director operation just made (the
        lobby's ``rules.changes``): ``wall`` as logged with the operation, so a restart shows
        the same times. A log written before it carried one reads the time from the
        tournament clock (which stands still while the server is down)."""
        changes = self.tournament.rule_changes
        for change in changes[len(self.rule_walls):]:
            if not isinstance(wall, str):
                when = self.wall_clock() - dt.timedelta(seconds=max(0.0, self.now() - change.at))
                wall = when.isoformat(timespec="seconds")
            self.rule_walls.append(wall)

    def deadline_in_base(self) -> float | None:
        if self.deadline_wall is None:
            return None
        left = (self.deadline_wall - self.wall_clock()).total_seconds()
        return self.now() + left

    # -- where players are ------------------------------------------------------------------

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
                return make_location(table.table_id, seat, False)
        loc = t.location(player_id)
        if loc is not None and not loc.on_the_way:
            self._where[player_id] = loc.table_id
        return loc

    def player_named(self, name: str) -> str | None:
        """The id of the player with this name, compared as names are (``protocol.names.key``)."""
        return self.by_name.get(names.key(name))

    def seen_at(self, player_id: str, table_id: int) -> None:
        """A hint for ``locate``: the player was just seated or moved there."""
        self._where[player_id] = table_id

    def client_table(self, client: Client) -> int | None:
        """The table a connection plays at (or is on the way to), or watches: a player who
        is out watches like a spectator."""
        if client.player_id is not None:
            loc = self.locate(client.player_id)
            if loc is not None:
                return loc.table_id
        return client.watching
