"""``hickory-server verify --db FILE``: check every deck and the hand chain of a database.

Read-only (opened as the other tools open it, ``reports.open_readonly``), so it is safe next to
a running server. It walks the ``inputs`` log in order and, for the scheme of docs/fairness.md:

- checks each logged commitment against its server seed;
- re-derives each hand's deck from the server seed and the stored seed list, and compares
  it with the deck the hand was played with and with every card the stored events dealt
  (hole cards, board), in the deal order;
- re-derives the seat draw and compares the seating it gives with the seats of each
  table's first hand when that hand was dealt before anyone could have moved;
- recomputes the hash chain over the finished hands from the stored rows, so a hand changed
  or removed since shows as the first link that breaks.

It says which hand failed and why, prints the chain's last link (players get the same value
in ``reveal``), and exits 0 when everything holds, 1 when something failed.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from poker import fairdeck as fd
from poker.cards import Card, card_str, parse_card
from server.config import ServerConfig
from server.fairness import HandDraw, hand_digest, seeds_from_json, tournament_id_for
from server.recovery import stored_config
from server.reports import EXIT_ERROR, ToolError, open_readonly, read_meta
from server.rows import parse_payload
from server.store import StoreError
from server.tournament.seating import initial_seating

EXIT_FAILED = 1


@attrs.frozen(kw_only=True)
class Finding:
    what: str  # "hand #12 (table 1)", "the seat draw", "the chain"
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'} {self.what}: {self.detail}"


@attrs.frozen(kw_only=True)
class Verdict:
    findings: tuple[Finding, ...]
    chain: str
    hands: int

    @property
    def failures(self) -> list[Finding]:
        return [f for f in self.findings if not f.ok]


@attrs.define(kw_only=True)
class _Pending:
    server_seed: bytes
    commit: str


@attrs.define(kw_only=True)
class _Dealt:
    hand_no: int
    draw: fd.Draw
    commit: str
    seeds: tuple[fd.Contribution, ...]
    deck: list[Card]


def _inputs(conn: sqlite3.Connection) -> Iterator[tuple[int, str, int | None, dict[str, Any]]]:
    for seq, kind, table_id, payload in conn.execute(
            "SELECT seq, kind, table_id, payload FROM inputs ORDER BY seq"):
        yield seq, kind, table_id, parse_payload(payload)


def _events(conn: sqlite3.Connection, hand_no: int) -> list[str]:
    return [r[0] for r in conn.execute("SELECT event FROM hand_events WHERE hand_no=? ORDER BY idx", (hand_no,))]


def verify_database(conn: sqlite3.Connection) -> Verdict:
    """Check the database in ``conn`` (see the module docstring)."""
    conn.execute("BEGIN")  # one consistent read while a server may be writing
    try:
        return _verify(conn)
    finally:
        conn.execute("COMMIT")


def _verify(conn: sqlite3.Connection) -> Verdict:
    meta = read_meta(conn)
    if "seed" not in meta:
        raise ToolError("this database holds no tournament yet")
    tournament = tournament_id_for(int(meta["seed"]))
    config = stored_config(ServerConfig(db=None, no_deadline=True), meta.get("config"))
    findings: list[Finding] = []
    pending: dict[tuple[str, int, int], _Pending] = {}
    in_play: dict[int, _Dealt] = {}
    entrants: list[str] = []
    hands_dealt = 0
    moves_possible = False  # a hand ended or the director acted: seats may have changed
    first_hand_seen: set[int] = set()
    seating: dict[int, dict[int, str]] | None = None
    chain = fd.chain_start(tournament)
    chained = 0
    chain_broken = False

    for seq, kind, table_id, p in _inputs(conn):
        if kind == "register":
            entrants.append(str(p["player_id"]))
        elif kind == "deck_commit":
            draw = fd.Draw(kind=p["draw"], tournament=tournament, table=p["table"], number=p["number"])
            seed = bytes.fromhex(p["server_seed"])
            if fd.commitment(draw, seed).hex() != p["commit"]:
                findings.append(Finding(what=_name(draw, None), ok=False,
                                        detail=f"log entry {seq}: the commitment does not match its server seed"))
            pending[(draw.kind, draw.table, draw.number)] = _Pending(server_seed=seed, commit=p["commit"])
        elif kind == "start" and "draw" in p:
            draw = fd.Draw(kind=fd.SEATING, tournament=tournament, table=0, number=0)
            found = _take(pending, draw, p["draw"])
            if found is None:
                findings.append(Finding(what="the seat draw", ok=False,
                                        detail=f"log entry {seq}: no matching commitment was logged before it"))
                continue
            seeds = seeds_from_json(p["draw"]["seeds"])
            listed = [str(s.player_id) for s in seeds]
            if listed != entrants:
                findings.append(Finding(what="the seat draw", ok=False,
                                        detail="its seed list does not name the registered players in order"))
                continue
            stream = fd.draw_stream(draw, found.server_seed, seeds)
            seating = initial_seating(entrants, config.seats, stream)
            findings.append(Finding(what="the seat draw", ok=True,
                                    detail=f"commitment and seed list verified ({len(entrants)} players)"))
        elif kind == "begin_hand":
            hands_dealt += 1
            if "draw" not in p or table_id is None:
                continue
            draw = fd.Draw(kind=fd.DECK, tournament=tournament, table=table_id, number=p["draw"]["number"])
            name = _name(draw, hands_dealt)
            found = _take(pending, draw, p["draw"])
            if found is None:
                findings.append(Finding(what=name, ok=False,
                                        detail=f"log entry {seq}: dealt without a matching commitment logged before it"))
                continue
            seeds = seeds_from_json(p["draw"]["seeds"])
            deck = fd.derive_deck(draw, found.server_seed, seeds)
            dealt = _Dealt(hand_no=hands_dealt, draw=draw, commit=found.commit, seeds=seeds, deck=deck)
            in_play[table_id] = dealt
            problem = _deck_problem(conn, dealt, p["deck"])
            if problem is None and seating is not None and table_id not in first_hand_seen and not moves_possible:
                problem = _seating_problem(conn, hands_dealt, seating.get(table_id, {}))
            first_hand_seen.add(table_id)
            findings.append(Finding(what=name, ok=problem is None, detail=problem or "deck verified"))
        elif kind == "end_hand":
            moves_possible = True
            dealt_hand = in_play.pop(table_id, None) if table_id is not None else None
            if "chain" not in p or dealt_hand is None:
                continue
            body = _stored_digest(conn, dealt_hand)
            what = _name(dealt_hand.draw, dealt_hand.hand_no)
            chained += 1
            if body is None:
                findings.append(Finding(what=what, ok=False, detail="the finished hand is missing from the hands table"))
            elif fd.chain_link(chain, body).hex() != p["chain"]:
                findings.append(Finding(what=what, ok=False,
                                        detail="the hash chain breaks here: this hand, or one before it, was "
                                               "changed or removed after it was stored"))
            else:
                chain = fd.chain_link(chain, body)
                continue
            chain_broken = True
            chain = bytes.fromhex(p["chain"])  # go on from the stored link: later breaks show too
        elif kind == "director":
            moves_possible = True
    findings.append(Finding(what="the hash chain", ok=not chain_broken,
                            detail=f"{chained} finished hands, last link {chain.hex()}"))
    return Verdict(findings=tuple(findings), chain=chain.hex(), hands=hands_dealt)


def _take(pending: dict[tuple[str, int, int], _Pending], draw: fd.Draw, logged: dict[str, Any]) -> _Pending | None:
    found = pending.pop((draw.kind, draw.table, draw.number), None)
    if found is None or found.commit != logged.get("commit"):
        return None
    return found


def _name(draw: fd.Draw, hand_no: int | None) -> str:
    if draw.kind == fd.SEATING:
        return "the seat draw"
    if hand_no is None:
        return f"table {draw.table}'s hand {draw.number}"
    return f"hand #{hand_no} (table {draw.table})"


def _deck_problem(conn: sqlite3.Connection, dealt: _Dealt, played: list[int]) -> str | None:
    """Where the hand's stored deck or dealt cards differ from the committed deck."""
    if list(played) != dealt.deck:
        return "the deck the hand was played with is not the deck of its commitment and seed list"
    events = [json.loads(e) for e in _events(conn, dealt.hand_no)]
    started = next((e for e in events if e["type"] == "HandStarted"), None)
    if started is None:
        return "its stored events are missing"
    seats = [s.seat for s in dealt.seeds]
    dealt_in = sorted(int(s) for s, _ in started["stacks"])
    if dealt_in != seats:
        return f"the seed list names seats {seats} but seats {dealt_in} were dealt in"
    layout = fd.deal_layout(dealt.deck, seats, int(started["button"]))
    for e in events:
        if e["type"] == "HoleCardsDealt":
            got = tuple(parse_card(c) for c in e["cards"])
            if layout.hole.get(int(e["seat"])) != got:
                return f"seat {e['seat']} was dealt {' '.join(e['cards'])}, not its cards in the committed deck"
        elif e["type"] == "BoardDealt":
            board = [parse_card(c) for c in e["board"]]
            if list(layout.board[: len(board)]) != board:
                want = " ".join(card_str(c) for c in layout.board[: len(board)])
                return f"the board {' '.join(e['board'])} is not the committed deck's {want}"
    return None


def _seating_problem(conn: sqlite3.Connection, hand_no: int, drawn: dict[int, str]) -> str | None:
    row = conn.execute("SELECT seats FROM hands WHERE hand_no=?", (hand_no,)).fetchone()
    if row is None:
        return "the hand is missing from the hands table"
    stored = {int(s): str(v[0]) for s, v in json.loads(row[0]).items()}
    if stored != drawn:
        return "the table's first seating is not the one the seat draw gives"
    return None


def _stored_digest(conn: sqlite3.Connection, dealt: _Dealt) -> bytes | None:
    row = conn.execute("SELECT summary FROM hands WHERE hand_no=? AND status='finished'", (dealt.hand_no,)).fetchone()
    if row is None or row[0] is None:
        return None
    done = HandDraw(draw=dealt.draw, server_seed=b"", commit=bytes.fromhex(dealt.commit), seeds=dealt.seeds,
                    hand_no=dealt.hand_no, deck=tuple(dealt.deck))
    return hand_digest(done, _events(conn, dealt.hand_no), json.loads(row[0]))


# -- the command -----------------------------------------------------------------------------


def add_verify_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Check every deck of a Hickory database against its commitment and seeds, "
                     "and the hash chain over its hands (docs/fairness.md). Safe while the server runs.")
    p.add_argument("--db", type=Path, default=Path("hickory.db"), help="the database (default hickory.db)")
    p.add_argument("--quiet", action="store_true", help="print only failures and the verdict")


def run_verify(args: argparse.Namespace) -> int:
    try:
        conn = open_readonly(args.db)
    except StoreError as exc:
        print(f"hickory-server verify: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        verdict = verify_database(conn)
    except ToolError as exc:
        print(f"hickory-server verify: {args.db}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    finally:
        conn.close()
    for f in verdict.findings:
        if not args.quiet or not f.ok:
            print(f.line())
    failures = verdict.failures
    if failures:
        print(f"{len(failures)} check(s) FAILED; the first: {failures[0].what}: {failures[0].detail}")
        return EXIT_FAILED
    print(f"every deck verified ({verdict.hands} hands); chain {verdict.chain}")
    return 0
