"""``hickory-server history`` and ``hickory-server standings``: read-only tools on a database.

Both open the file read-only (``mode=ro``), so they are safe while the server runs on it:
SQLite's WAL lets a reader see the last committed state while the writer goes on. They
never write, never migrate and never take the server's lock.

- ``history`` exports finished hands from the ``hands`` and ``hand_events`` tables:
  ``text`` (for people), ``phh`` (the Poker Hand History standard, one ``[hand]`` section
  per hand when there are several; pokerkit reads it), ``pokerstars`` (the PokerStars
  text trackers import, ``poker.pokerstars``; ``--each-player DIR`` writes one file per
  player and the full one) or ``json`` (the stored events, one hand per line). Without ``--player`` it is the host's full record with every hole card;
  with ``--player NAME`` it is that player's copy: their own cards, others' only as shown
  (``--all-cards`` keeps every card).
- ``standings`` rebuilds the tournament by replaying the ``inputs`` log through a fresh
  ``Tournament`` (the same path the server takes at start-up, ``recovery.replay_all``) and
  prints the places, stacks and the chip count, and any logged input set aside because it
  could not be replayed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import attrs

from poker.actions import Ruleset
from poker.events import Event, HandShown, HoleCardsDealt
from poker.history import HandInfo, HistoryError, to_phh, to_text
from poker.pokerstars import to_pokerstars
from poker.stats import PlayerStats, compute_stats
from protocol.names import is_invisible, printable
from server.config import ServerConfig
from server.house import House
from server.records import event_from_json
from server.recovery import read_set_aside, replay_all, resume_clock, stored_config
from server.results import results_csv, results_html
from server.statsformat import (
    stats_csv,
    stats_html,
    stats_json,
    stats_rows,
    stats_table_html,
    stats_text,
)
from server.store import APPLICATION_ID, SCHEMA_VERSION, StoreError, parse_payload
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
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{path} cannot be read as a Hickory database ({exc})") from exc
    if app_id != APPLICATION_ID:
        conn.close()
        raise StoreError(f"{path} is an SQLite file of another application, not a Hickory database")
    if version > SCHEMA_VERSION:
        conn.close()
        raise StoreError(
            f"{path} was written by a newer Hickory (schema {version}, this one knows {SCHEMA_VERSION})"
        )
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


# -- history -----------------------------------------------------------------------------------


def add_history_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "Export hands from a Hickory database (safe while the server runs)."
    p.add_argument("--db", type=Path, default=Path("hickory.db"), help="the database (default hickory.db)")
    p.add_argument("--hand", type=int, metavar="ID", help="only this hand number")
    p.add_argument("--player", metavar="NAME", help="only hands this player was dealt into, as they may see them")
    p.add_argument("--format", choices=("text", "phh", "pokerstars", "json"), default="text",
                   help="text (readable, default), phh (Poker Hand History, pokerkit reads it), "
                        "pokerstars (what PokerTracker, Hold'em Manager and hand2note import) "
                        "or json (the stored events, one hand per line)")
    p.add_argument("--each-player", type=Path, metavar="DIR",
                   help="with --format pokerstars: write into DIR one file per player (their "
                        "own cards in every hand, others' as shown) and one with every card")
    p.add_argument("--all-cards", action="store_true",
                   help="with --player: keep every hole card (the full record)")
    p.add_argument("-o", "--output", type=Path, help="write here instead of standard output")


def _hand_info(hand: StoredHand, meta: dict[str, str]) -> HandInfo:
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


def _json_hand(hand: StoredHand, viewer: int | None, reveal_all: bool) -> str:
    events = [json.loads(e) for e in hand.events]
    if not reveal_all:
        shown = {e["seat"] for e in events if e.get("type") == HandShown.__name__}
        for e in events:
            if e.get("type") == HoleCardsDealt.__name__ and e["seat"] != viewer and e["seat"] not in shown:
                e["cards"] = None
    doc = {
        "hand_no": hand.hand_no, "table": hand.table_id, "level": hand.level,
        "started_at": hand.started_at, "status": hand.status,
        "players": {str(s): {"player_id": p, "name": n} for s, (p, n) in sorted(hand.seats.items())},
        "summary": hand.summary, "events": events,
    }
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def export_history(
    conn: sqlite3.Connection, out: TextIO, *, fmt: str = "text", hand_no: int | None = None,
    player: str | None = None, all_cards: bool = False, err: TextIO | None = None,
    finishes: dict[int, list[tuple[str, int]]] | None = None,
) -> int:
    """Write the selected hands to ``out``; returns how many were written."""
    conn.execute("BEGIN")
    try:
        meta = read_meta(conn)
        hands = list(read_hands(conn, hand_no=hand_no, player=player))
    finally:
        conn.execute("COMMIT")
    written = 0
    several = hand_no is None
    if finishes is None:
        finishes = tournament_finishes(conn, err) if fmt == "pokerstars" else {}
    for hand in hands:
        viewer = hand.seat_of(player) if player is not None else None
        reveal_all = player is None or all_cards
        if fmt == "json":
            out.write(_json_hand(hand, viewer, reveal_all) + "\n")
            written += 1
            continue
        if hand.status != "finished":
            if err is not None:
                why = "was voided" if hand.status == "voided" else "is still being played"
                print(f"hand #{hand.hand_no} {why}: not exported", file=err)
            continue
        info = _hand_info(hand, meta)
        try:
            if fmt == "pokerstars":
                events = hand.parsed()
                if player is not None and not any(
                        isinstance(e, HoleCardsDealt) and e.seat == viewer for e in events):
                    continue  # seated but not dealt in: nothing of theirs to import
                out_here = {seat: place for name, place in finishes.get(hand.hand_no, ())
                            if (seat := hand.seat_of(name)) is not None}
                text = to_pokerstars(events, info, tournament_no=tournament_number(meta),
                                     viewer=viewer, reveal_all=reveal_all, finishes=out_here) + "\n"
            elif fmt == "phh":
                text = to_phh(hand.parsed(), info, viewer=viewer, reveal_all=reveal_all)
                if several:
                    text = f"[{hand.hand_no}]\n{text}"
            else:
                text = to_text(hand.parsed(), info, viewer=viewer, reveal_all=reveal_all)
                # For a terminal: a name's invisible or bidi characters shown as codes.
                text = "\n".join(printable(line) for line in text.split("\n"))
        except (HistoryError, KeyError, ValueError) as exc:
            if err is not None:
                print(f"hand #{hand.hand_no} cannot be exported: {exc}", file=err)
            continue
        if written:
            out.write("\n")
        out.write(text)
        written += 1
    return written


def tournament_finishes(conn: sqlite3.Connection, err: TextIO | None = None) -> dict[int, list[tuple[str, int]]]:
    """Who finished the tournament in which hand, and in what place (hand number ->
    [(name, place)]), from the standings the log replays to; the winner wins in the hand
    that put the runner-up out. Empty (said on ``err``) if the log cannot be replayed."""
    try:
        server, _ = load_replay(conn)
    except ToolError as exc:
        if err is not None:
            print(f"no finishing places in the hand histories: {exc}", file=err)
        return {}
    places = standings_data(server)["places"]
    out: dict[int, list[tuple[str, int]]] = {}
    for p in places:
        if p["place"] is not None and p.get("eliminated") and p.get("eliminated_in_hand") is not None:
            out.setdefault(p["eliminated_in_hand"], []).append((p["name"], p["place"]))
    runner_up = next((p for p in places if p["place"] == 2 and p.get("eliminated_in_hand") is not None), None)
    winners = [p for p in places if p["place"] == 1 and not p.get("eliminated")]
    if runner_up is not None and len(winners) == 1 and server.tournament.phase is Phase.FINISHED:
        out.setdefault(runner_up["eliminated_in_hand"], []).append((winners[0]["name"], 1))
    return out


def tournament_number(meta: dict[str, str]) -> int:
    """The tournament's number in PokerStars files: when its database was made, as
    ``YYMMDDHHMM`` (the same in every file of the night, different the next night)."""
    try:
        return int(dt.datetime.fromisoformat(meta["created"]).strftime("%y%m%d%H%M"))
    except (KeyError, ValueError):
        return 1


def _file_part(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in text) or "_"


def write_each_player(conn: sqlite3.Connection, directory: Path, *, err: TextIO | None = None) -> list[Path]:
    """One PokerStars file per player who was dealt a hand (``HH<date> T<number> <id>
    <name>.txt``: what they saw, their own cards in every hand) and ``... all hands.txt``
    with every card; returns the paths written, the full file first."""
    conn.execute("BEGIN")
    try:
        meta = read_meta(conn)
        players = {pid: name for hand in read_hands(conn) for pid, name in hand.seats.values()}
    finally:
        conn.execute("COMMIT")
    directory.mkdir(parents=True, exist_ok=True)
    number = tournament_number(meta)
    stem = f"HH20{str(number)[:6]} T{number}" if number > 1 else "HH T1"
    paths = [directory / f"{stem} all hands.txt"]
    finishes = tournament_finishes(conn, err)
    with open(paths[0], "w", encoding="utf-8") as out:
        export_history(conn, out, fmt="pokerstars", err=err, finishes=finishes)
    for pid, name in sorted(players.items(), key=lambda p: int(p[0]) if p[0].isdigit() else 0):
        path = directory / f"{stem} {_file_part(pid)} {_file_part(name)}.txt"
        with open(path, "w", encoding="utf-8") as out:
            export_history(conn, out, fmt="pokerstars", player=name, finishes=finishes)
        paths.append(path)
    return paths


def _run_each_player(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    if args.format != "pokerstars" or args.hand is not None or args.player is not None:
        print("hickory-server history: --each-player goes with --format pokerstars alone "
              "(no --hand or --player)", file=sys.stderr)
        return EXIT_ERROR
    try:
        paths = write_each_player(conn, args.each_player, err=sys.stderr)
    except OSError as exc:
        print(f"hickory-server history: cannot write into {args.each_player}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    for path in paths:
        print(path)
    return 0


def run_history(args: argparse.Namespace) -> int:
    try:
        conn = open_readonly(args.db)
    except StoreError as exc:
        print(f"hickory-server history: {exc}", file=sys.stderr)
        return EXIT_ERROR
    if getattr(args, "each_player", None) is not None:
        try:
            return _run_each_player(args, conn)
        finally:
            conn.close()
    try:
        out: TextIO = sys.stdout if args.output is None else open(args.output, "w", encoding="utf-8")
        try:
            written = export_history(conn, out, fmt=args.format, hand_no=args.hand, player=args.player,
                                     all_cards=args.all_cards, err=sys.stderr)
        finally:
            if args.output is not None:
                out.close()
    except sqlite3.DatabaseError as exc:
        print(f"hickory-server history: {args.db} cannot be read ({exc})", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # piped into head, say: not an error
        _quiet_stdout()
        return 0
    finally:
        conn.close()
    if written == 0:
        if args.hand is not None:
            print(f"hickory-server history: no finished hand #{args.hand} in {args.db}", file=sys.stderr)
        elif args.player is not None:
            print(f"hickory-server history: no finished hand with a player named {args.player!r}",
                  file=sys.stderr)
        else:
            print(f"hickory-server history: no finished hand in {args.db} yet", file=sys.stderr)
        return EXIT_NOT_FOUND
    return 0


def _quiet_stdout() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


# -- standings ----------------------------------------------------------------------------------


def add_standings_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "Print a Hickory tournament's standings (safe while the server runs)."
    p.add_argument("--db", type=Path, default=Path("hickory.db"), help="the database (default hickory.db)")
    p.add_argument("--format", choices=("text", "json", "csv", "html"), default="text",
                   help="text (default), json, csv (for a spreadsheet) or html (a page to print or post)")
    p.add_argument("--stats", action="store_true",
                   help="add every player's statistics (VPIP, PFR, ...: hickory-server stats) "
                        "to the text, JSON and HTML standings")


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


def json_text(data: object) -> str:
    """JSON with invisible and bidi characters escaped (``\\u202e``): the same data, but
    a terminal it is printed on shows them as codes instead of obeying them."""
    text = json.dumps(data, ensure_ascii=False)
    if not any(is_invisible(ch) for ch in text):
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if not is_invisible(ch):
            out.append(ch)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
    return "".join(out)


def format_standings(data: dict[str, Any]) -> str:
    """The standings as text for a terminal; names are printed through ``printable``, so
    a name with a right-to-left override or an invisible character cannot rearrange or
    hide the lines around it."""
    lines = [
        f"{printable(data['name'])}: {data['state']}, {data['players']} players, {data['players_left']} left",
    ]
    if data["state"] != "registering":
        lines.append(
            f"Level {data['level']} ({data['small_blind']:,}/{data['big_blind']:,}), "
            f"{data['hands_dealt']} hands dealt, tables {', '.join(map(str, data['tables'])) or 'none'}"
        )
    lines.append("")
    shown = [printable(p["name"]) for p in data["places"]]
    width = max([6, *(len(name) for name in shown)])
    lines.append(f"{'Place':>5}  {'Player':<{width}}  {'Chips':>12}")
    for p, name in zip(data["places"], shown, strict=True):
        place = "-" if p["place"] is None else str(p["place"])
        if p.get("removed"):
            note = "removed by the director"
        elif p["eliminated"]:
            hand = p.get("eliminated_in_hand")
            note = f"out in hand #{hand}" if hand is not None else "out"
        elif p.get("table") is not None:
            note = f"table {p['table']}, seat {p['seat']}"
        else:
            note = ""
        chips = "" if p["eliminated"] else f"{p['chips']:,}"
        lines.append(f"{place:>5}  {name:<{width}}  {chips:>12}  {note}".rstrip())
    if data["trophies"]:
        lines.append("")
        lines += [f"{printable(tr['title'])}: {printable(tr['name'])}" for tr in data["trophies"]]
    if data["state"] != "registering":
        lines.append("")
        total = data["chips_in_play"] + data["adjustment"]
        check = "ok" if total == data["chips_issued"] else "MISMATCH"
        extra = f", {data['carried']:,} carried to the next hand" if data["carried"] else ""
        adj = f", {data['adjustment']:,} in the director's adjustment account" if data["adjustment"] else ""
        lines.append(f"Chips: {data['chips_in_play']:,} in play{extra}{adj}; "
                     f"issued {data['chips_issued']:,} ({check})")
    if data.get("set_aside"):
        lines.append("")
        lines.append("Set aside (could not be replayed, skipped; see the audit table):")
        lines.extend(f"  {text}" for text in data["set_aside"])
    return "\n".join(lines) + "\n"


def run_standings(args: argparse.Namespace) -> int:
    try:
        conn = open_readonly(args.db)
    except StoreError as exc:
        print(f"hickory-server standings: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        server, set_aside = load_replay(conn)
    except ToolError as exc:
        print(f"hickory-server standings: {args.db}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except sqlite3.DatabaseError as exc:
        print(f"hickory-server standings: {args.db} cannot be read ({exc})", file=sys.stderr)
        return EXIT_ERROR
    finally:
        conn.close()
    data = standings_data(server)
    data["set_aside"] = set_aside
    players: list[PlayerStats] = []
    if getattr(args, "stats", False):
        try:
            players = player_stats(open_readonly(args.db), order=[p["name"] for p in data["places"]])
        except (StoreError, sqlite3.DatabaseError) as exc:
            print(f"hickory-server standings: {args.db}: no statistics ({exc})", file=sys.stderr)
            return EXIT_ERROR
        data["stats"] = stats_rows(players)
    if args.format == "json":
        sys.stdout.write(json_text(data) + "\n")
    elif args.format == "csv":
        sys.stdout.write(results_csv(data))
    elif args.format == "html":
        page = results_html(data)
        if players:
            page = page.replace("</body>", "<h2>Statistics</h2>" + stats_table_html(players) + "</body>", 1)
        sys.stdout.write(page)
    else:
        sys.stdout.write(format_standings(data))
        if players:
            sys.stdout.write("\n" + stats_text(players))
    return 0


# -- statistics ---------------------------------------------------------------------------------


def player_stats(conn: sqlite3.Connection, *, order: list[str] | None = None) -> list[PlayerStats]:
    """Every player's figures over the finished hands in ``conn`` (closes it), in the
    order of ``order`` (the standings) when given, else as they first appear."""
    try:
        conn.execute("BEGIN")
        try:
            hands = [h for h in read_hands(conn) if h.status == "finished"]
        finally:
            conn.execute("COMMIT")
    finally:
        conn.close()
    by_name = compute_stats((h.parsed(), {s: n for s, (_, n) in h.seats.items()}) for h in hands)
    if order is None:
        return list(by_name.values())
    rank = {name: i for i, name in enumerate(order)}
    return sorted(by_name.values(), key=lambda p: rank.get(p.name, len(rank)))


def add_stats_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Print every player's statistics over the finished hands of a Hickory "
                     "database (safe while the server runs): hands, VPIP, PFR, 3-bet, fold to "
                     "3-bet, aggression factor, went to and won at showdown, biggest pot.")
    p.add_argument("--db", type=Path, default=Path("hickory.db"), help="the database (default hickory.db)")
    p.add_argument("--format", choices=("text", "json", "csv", "html"), default="text",
                   help="text (default), json, csv (for a spreadsheet) or html (a page)")
    p.add_argument("--player", metavar="NAME", help="only this player")


def run_stats(args: argparse.Namespace) -> int:
    try:
        conn = open_readonly(args.db)
        meta = read_meta(conn)
        players = player_stats(conn)
    except StoreError as exc:
        print(f"hickory-server stats: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except sqlite3.DatabaseError as exc:
        print(f"hickory-server stats: {args.db} cannot be read ({exc})", file=sys.stderr)
        return EXIT_ERROR
    if args.player is not None:
        players = [p for p in players if p.name.casefold() == args.player.casefold()]
    if not players:
        who = f"a player named {args.player!r}" if args.player is not None else "any player"
        print(f"hickory-server stats: no finished hand with {who} in {args.db}", file=sys.stderr)
        return EXIT_NOT_FOUND
    if args.format == "json":
        sys.stdout.write(stats_json(players) + "\n")
    elif args.format == "csv":
        sys.stdout.write(stats_csv(players))
    elif args.format == "html":
        title = json.loads(meta.get("config") or "{}").get("name") or "Hickory"
        sys.stdout.write(stats_html(players, str(title)))
    else:
        sys.stdout.write(stats_text(players))
    return 0
