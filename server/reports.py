"""The read side the tools share: a Hickory database opened read-only, its stored hands,
and the tournament rebuilt from its log.

The file is opened read-only (``mode=ro``), so the tools are safe while the server runs on
it: SQLite's WAL lets a reader see the last committed state while the writer goes on. They
never write, never migrate and never take the server's lock. The commands are
``history_tool.py`` (``hickory-server history``), ``standings_tool.py`` (``standings``,
``stats``) and ``verify.py``.

- ``read_hands`` gives the hands of the ``hands`` and ``hand_events`` tables in order.
- ``load_replay`` rebuilds the tournament by replaying the ``inputs`` log through a fresh
  ``Tournament`` (the same path the server takes at start-up, ``recovery.replay_all``), and
  says which logged inputs were set aside because they could not be replayed;
  ``standings_data`` is its standings as plain data.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from poker.actions import Ruleset
from poker.events import Event
from poker.history import HandInfo
from server.config import ServerConfig
from server.house import House
from server.records import event_from_json
from server.recovery import read_set_aside, replay_all, resume_clock, stored_config
from server.rows import parse_payload
from server.store import SCHEMA_VERSION, StoreError, check_identity
from server.tournament.floor import trophies
from server.tournament.tournament import Phase

EXIT_ERROR = 2
EXIT_NOT_FOUND = 1


class ToolError(Exception):
    """A clear message for the person running the tool."""


# -- opening the database read-only ------------------------------------------------------------


def open_readonly(path: Path | str) -> sqlite3.Connection:
    """Open a Hickory database for reading only; refuse anything else with a clear message.

    Never creates, writes, migrates or locks the file, so it is safe next to a running server.
    """
    path = Path(path)
    if not path.exists():
        raise StoreError(f"{path}: no such database")
    if not path.is_file():
        raise StoreError(f"{path} is not a file")
    try:
        with open(path, "rb") as f:
            header = f.read(16)
    except OSError as exc:
        raise StoreError(f"{path} cannot be read: {exc.strerror}") from exc
    if header != b"SQLite format 3\x00":
        what = "an empty file" if not header else "not an SQLite file"
        raise StoreError(f"{path} is not a Hickory database ({what})")
    uri = path.absolute().as_uri() + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"{path} cannot be opened: {exc}") from exc
    version, schema = check_identity(conn, path, server=False)
    names = {name for name, kind in schema.items() if kind == "table"}
    try:
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        check = str(exc)
    if check != "ok":
        conn.close()
        raise StoreError(f"{path} is corrupt ({check})")
    missing = {"meta", "inputs", "hands", "hand_events"} - names
    if version < SCHEMA_VERSION or missing:
        conn.close()
        raise StoreError(
            f"{path} has an older or incomplete schema (version {version}); "
            "start the server on it once to upgrade it"
        )
    return conn


@attrs.frozen(kw_only=True)
class StoredHand:
    hand_no: int
    table_id: int
    level: int
    started_at: str
    status: str  # playing, finished, voided
    seats: dict[int, tuple[str, str]]  # seat -> (player_id, name)
    summary: dict[str, Any] | None
    events: list[str]  # stored JSON, in order

    def parsed(self) -> list[Event]:
        return [event_from_json(e) for e in self.events]

    def seat_of(self, name: str) -> int | None:
        folded = name.casefold()
        return next((s for s, (_, n) in self.seats.items() if n.casefold() == folded), None)


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}


def read_hands(
    conn: sqlite3.Connection, *, hand_no: int | None = None, player: str | None = None
) -> Iterator[StoredHand]:
    """Stored hands in order, optionally one hand or those a player was dealt into."""
    if hand_no is not None:
        rows = conn.execute(
            "SELECT hand_no, table_id, level, started_at, status, seats, summary FROM hands WHERE hand_no=?",
            (hand_no,),
        ).fetchall()
    else:
        rows = conn.execute(
            "SELECT hand_no, table_id, level, started_at, status, seats, summary FROM hands ORDER BY hand_no"
        ).fetchall()
    for no, table_id, level, started_at, status, seats, summary in rows:
        hand = StoredHand(
            hand_no=no, table_id=table_id, level=level, started_at=started_at, status=status,
            seats={int(s): (str(p[0]), str(p[1])) for s, p in json.loads(seats).items()},
            summary=None if summary is None else json.loads(summary),
            events=[r[0] for r in conn.execute(
                "SELECT event FROM hand_events WHERE hand_no=? ORDER BY idx", (no,))],
        )
        if player is not None and hand.seat_of(player) is None:
            continue
        yield hand


def hand_info(hand: StoredHand, meta: dict[str, str]) -> HandInfo:
    config = json.loads(meta.get("config") or "{}")
    started: dt.datetime | None
    try:
        started = dt.datetime.fromisoformat(hand.started_at)
    except ValueError:
        started = None
    return HandInfo(
        table_id=hand.table_id,
        level=hand.level,
        players={s: name for s, (_, name) in hand.seats.items()},
        seat_count=config.get("seats"),
        ruleset=Ruleset(config.get("ruleset", Ruleset.HICKORY.value)),
        event=config.get("name"),
        started_at=started,
        time_zone=started.tzname() if started is not None and started.tzinfo is not None else None,
    )



# -- rebuilding the tournament by replay --------------------------------------------------------


def load_server(
    conn: sqlite3.Connection, *, watch: Callable[[House, int, str, int | None], None] | None = None
) -> House:
    """The tournament as the log in ``conn`` makes it, replayed without writing anything.

    ``watch(server, seq, kind, table_id)`` is called after each logged input is applied
    (tests compare what clients saw with every state the log passes through).
    """
    return load_replay(conn, watch=watch)[0]


def load_replay(
    conn: sqlite3.Connection, *, watch: Callable[[House, int, str, int | None], None] | None = None
) -> tuple[House, list[str]]:
    """``load_server``, and what the replay set aside: the entries the server set aside at a
    start-up (kept in ``meta``) and any it would set aside now, as text for the host."""
    conn.execute("BEGIN")  # one consistent read while a server may be writing
    try:
        meta = read_meta(conn)
        if "seed" not in meta:
            raise ToolError("this database holds no tournament yet")
        config = stored_config(ServerConfig(db=None, no_deadline=True), meta.get("config"))
        tokens = {str(p): str(h) for p, h in conn.execute("SELECT player_id, token_hash FROM players")}
        known = read_set_aside(meta.get("set_aside"))

        def inputs() -> Iterator[tuple[int, str, int | None, dict[str, Any]]]:
            for seq, kind, table_id, payload in conn.execute(
                "SELECT seq, kind, table_id, payload FROM inputs ORDER BY seq"
            ):
                yield seq, kind, table_id, parse_payload(payload)

        try:
            server, found = replay_all(lambda: House(config, seed=int(meta["seed"])), inputs, tokens,
                                       known=known, watch=watch)
            resume_clock(server, meta.get("clock"))
        except ToolError:
            raise
        except Exception as exc:
            raise ToolError(f"the tournament log cannot be replayed: {exc!r}") from exc
        return server, [text for _, text in sorted(known.items())] + [a.text for a in found]
    finally:
        conn.execute("COMMIT")


# -- the standings -------------------------------------------------------------------------------


def standings_data(server: House) -> dict[str, Any]:
    t = server.tournament
    state = t.state
    places: list[dict[str, Any]] = []
    if t.phase is Phase.REGISTERING:
        for pid in t.registered:
            places.append({"place": None, "player_id": pid, "name": t.name_of(pid),
                           "chips": t.settings.starting_stack, "eliminated": False})
    else:
        for s in t.standings():
            loc = t.location(s.player_id)
            places.append({
                "place": s.place, "player_id": s.player_id, "name": s.name, "chips": s.chips,
                "eliminated": s.eliminated, "removed": s.removed, "eliminated_in_hand": s.hand_no,
                "table": loc.table_id if loc is not None else None,
                "seat": loc.seat if loc is not None else None,
            })
    sb, bb = t.blinds
    return {
        "name": t.settings.name, "state": state, "level": t.level, "small_blind": sb, "big_blind": bb,
        "hands_dealt": t.hands_dealt, "tables": t.table_ids(), "players": len(t.registered),
        "players_left": len(t.players_in()), "chips_issued": t.chips_issued,
        "chips_in_play": t.chips_in_play(), "carried": t.carried_chips(), "adjustment": t.adjustment,
        "places": places,
        "trophies": [{"title": tr.title, "player_id": tr.player_id, "name": t.name_of(tr.player_id),
                      "by_rule": tr.by_rule}
                     for tr in trophies(t.result.standings if t.result is not None else None, t.floor.awarded)],
    }
