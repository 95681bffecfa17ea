"""``hickory-server standings`` and ``hickory-server stats``, read-only (``reports.py``).

``standings`` replays the log (``reports.load_replay``) and prints the places, stacks and
the chip count, and any logged input set aside because it could not be replayed; as text,
JSON, CSV or an HTML page (``results.py``). ``stats`` prints every player's figures over
the finished hands (``poker.stats``, formatted by ``statsformat.py``).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from poker.stats import PlayerStats, compute_stats
from protocol.names import is_invisible, printable
from server.reports import (
    EXIT_ERROR,
    EXIT_NOT_FOUND,
    ToolError,
    load_replay,
    open_readonly,
    read_hands,
    read_meta,
    standings_data,
)
from server.results import results_csv, results_html
from server.statsformat import (
    stats_csv,
    stats_html,
    stats_json,
    stats_rows,
    stats_table_html,
    stats_text,
)
from server.store import StoreError


def add_standings_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "Print a Hickory tournament's standings (safe while the server runs)."
    p.add_argument("--db", type=Path, default=Path("hickory.db"), help="the database (default hickory.db)")
    p.add_argument("--format", choices=("text", "json", "csv", "html"), default="text",
                   help="text (default), json, csv (for a spreadsheet) or html (a page to print or post)")
    p.add_argument("--stats", action="store_true",
                   help="add every player's statistics (VPIP, PFR, ...: hickory-server stats) "
                        "to the text, JSON and HTML standings")


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
