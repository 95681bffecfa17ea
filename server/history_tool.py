"""``hickory-server history``: finished hands out of a database, read-only (``reports.py``).

The hands of the ``hands`` and ``hand_events`` tables as ``text`` (for people), ``phh`` (the
Poker Hand History standard, one ``[hand]`` section per hand when there are several;
pokerkit reads it), ``pokerstars`` (the PokerStars text trackers import,
``poker.pokerstars``; ``--each-player DIR`` writes one file per player and the full one) or
``json`` (the stored events, one hand per line). Without ``--player`` it is the host's full
record with every hole card; with ``--player NAME`` it is that player's copy: their own
cards, others' only as shown (``--all-cards`` keeps every card).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sqlite3
import sys
from pathlib import Path
from typing import TextIO

from poker.events import HandShown, HoleCardsDealt
from poker.history import HistoryError, to_phh, to_text
from poker.pokerstars import to_pokerstars
from protocol.names import printable
from server.reports import (
    EXIT_ERROR,
    EXIT_NOT_FOUND,
    StoredHand,
    ToolError,
    hand_info,
    load_replay,
    open_readonly,
    read_hands,
    read_meta,
    standings_data,
)
from server.store import StoreError
from server.tournament.tournament import Phase


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
        info = hand_info(hand, meta)
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
