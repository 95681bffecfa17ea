"""A player's own check of every deck it was dealt from (docs/fairness.md).

``DeckLog`` takes the server messages that matter (``deck_commit``, ``seeds_received``,
``hand_started``, ``hole_cards``, ``board``, ``showdown``, ``reveal``) and the seeds this
client sent, keeps what a check needs, and hands each of them to ``sink`` as a JSON-ready
entry: the record ``hickory verify`` reads back (``DeckLog.load``) to run the same
checks again. Once the reveal is complete it checks every hand:

- the commitment came before the seed list, and only one was sent for each draw;
- the seed list answers that commitment, names the seats that were dealt in, and holds
  our seed as we sent it (a seed listed as missing is a warning: it may have been late);
- SHA-256 of the draw and the revealed server seed is the commitment;
- the deck derived from the server seed and the seed list (``poker.fairdeck``) gives,
  in the deal order, our hole cards, every board card and every hand shown.

Pure: no I/O, no clock; the file is the caller's (``sink``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from poker import fairdeck as fd
from poker.cards import card_str, parse_card
from protocol import messages as m
from protocol.codec import structure_client, structure_server, unstructure

__all__ = ["DeckLog", "HandCheck", "Report", "verify_entries"]

Key = tuple[str, int, int]  # (draw kind, table, number)
Entry = dict[str, Any]

_RECORDED = (m.Welcome, m.DeckCommit, m.SeedsReceived, m.HandStarted, m.HoleCards, m.Board, m.Showdown, m.Reveal)

OK = "ok"
FAILED = "failed"
UNCHECKED = "unchecked"


@attrs.define(kw_only=True)
class _Draw:
    commit: str | None = None  # the first commitment seen
    other_commits: list[str] = attrs.Factory(list)
    committed_first: bool = False  # the commitment came before the seed list
    my_seed: str | None = None
    seeds: m.SeedsReceived | None = None


@attrs.define(kw_only=True)
class _Hand:
    table: int
    button: int | None = None
    dealt: tuple[int, ...] | None = None
    my_seat: int | None = None
    my_cards: tuple[str, ...] = ()
    boards: list[tuple[str, ...]] = attrs.Factory(list)  # every board as each street showed it
    shown: dict[int, tuple[str, ...]] = attrs.Factory(dict)


@attrs.frozen(kw_only=True)
class HandCheck:
    """The check of one draw: ``status`` ok, failed or unchecked, and why."""

    kind: str
    table: int
    number: int
    hand_no: int | None
    status: str
    detail: str
    warnings: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        if self.kind == fd.SEATING:
            return "the seat draw"
        hand = f"hand #{self.hand_no}" if self.hand_no is not None else f"hand {self.number}"
        return f"{hand} (table {self.table})"

    def line(self) -> str:
        text = f"{self.name}: {self.detail}"
        return text + "".join(f"; warning: {w}" for w in self.warnings)


@attrs.frozen(kw_only=True)
class Report:
    checks: tuple[HandCheck, ...]
    revealed: bool
    chain: str | None

    @property
    def failed(self) -> list[HandCheck]:
        return [c for c in self.checks if c.status == FAILED]

    @property
    def verified(self) -> list[HandCheck]:
        return [c for c in self.checks if c.status == OK]

    def summary(self) -> str:
        if not self.revealed:
            return f"{len(self.checks)} draw(s) recorded; no reveal yet: nothing can be checked before the tournament is over"
        if self.failed:
            first = self.failed[0]
            return f"DECK CHECK FAILED for {len(self.failed)} draw(s), first {first.line()}"
        unchecked = len(self.checks) - len(self.verified)
        tail = f", {unchecked} could not be checked" if unchecked else ""
        return f"every deck verified: {len(self.verified)} draw(s){tail}"


class DeckLog:
    """What this client saw of the scheme, and the checks (see the module docstring)."""

    def __init__(self, sink: Callable[[Entry], None] | None = None) -> None:
        self.sink = sink
        self.player_id: int | None = None
        self.draws: dict[Key, _Draw] = {}
        self.hands: dict[int, _Hand] = {}
        self.revealed: dict[Key, m.RevealedDraw] = {}
        self.tournament: str | None = None
        self.chain: str | None = None
        self.reveal_complete = False
        self.report: Report | None = None  # set when the reveal is complete

    # -- recording -------------------------------------------------------------------------

    @property
    def status(self) -> str | None:
        """For a mark on screen: None before any check, else ``verified`` or ``failed``."""
        if self.report is None:
            return None
        return FAILED if self.report.failed else "verified"

    def sent(self, msg: m.ClientSeed) -> None:
        """A seed this client sent."""
        self._entry("out", msg)
        self._draw((msg.draw, msg.table, msg.number)).my_seed = msg.seed

    def received(self, msg: m.ServerMessage) -> list[str]:
        """A server message; returns lines worth telling the player (a warning, the checks)."""
        if not isinstance(msg, _RECORDED):
            return []
        # The record may be shown to others (to prove a bad deal): never the session token.
        self._entry("in", attrs.evolve(msg, token=None) if isinstance(msg, m.Welcome) else msg)
        if isinstance(msg, m.Welcome):
            self.player_id = msg.player_id
        elif isinstance(msg, m.DeckCommit):
            if self.tournament is not None and msg.tournament != self.tournament:
                self._forget()  # another tournament: a record checks the last one
            d = self._draw((msg.draw, msg.table, msg.number))
            self.tournament = msg.tournament
            if d.commit is None:
                d.commit = msg.commit
            elif msg.commit != d.commit:
                d.other_commits.append(msg.commit)
                return [f"WARNING: the server sent a second, different commitment for {_where(msg)}"]
        elif isinstance(msg, m.SeedsReceived):
            d = self._draw((msg.draw, msg.table, msg.number))
            d.committed_first = d.commit is not None
            d.seeds = msg
            problem = _my_seed_problem(d, self.player_id)
            if problem is not None:
                return [f"warning: {problem} ({_where(msg)})"]
        elif isinstance(msg, m.HandStarted):
            hand = self._hand(msg.hand_no, msg.table)
            hand.button = msg.button
            hand.dealt = tuple(sorted(s.seat for s in msg.stacks))
        elif isinstance(msg, m.HoleCards):
            hand = self._hand(msg.hand_no, msg.table)
            hand.my_seat, hand.my_cards = msg.seat, msg.cards
        elif isinstance(msg, m.Board):
            self._hand(msg.hand_no, msg.table).boards.append(tuple(msg.board))
        elif isinstance(msg, m.Showdown):
            self._hand(msg.hand_no, msg.table).shown[msg.seat] = msg.cards
        elif isinstance(msg, m.Reveal):
            self.tournament = msg.tournament
            self.chain = msg.chain
            for r in msg.draws:
                self.revealed[(r.draw, r.table, r.number)] = r
            if msg.final:
                self.reveal_complete = True
                self.report = self.check()
                return _report_lines(self.report)
        return []

    def _forget(self) -> None:
        self.draws.clear()
        self.hands.clear()
        self.revealed.clear()
        self.chain = None
        self.reveal_complete = False
        self.report = None

    def _entry(self, direction: str, msg: m.ServerMessage | m.ClientMessage) -> None:
        if self.sink is not None:
            self.sink({direction: unstructure(msg)})

    def _draw(self, key: Key) -> _Draw:
        d = self.draws.get(key)
        if d is None:
            d = self.draws[key] = _Draw()
        return d

    def _hand(self, hand_no: int, table: int) -> _Hand:
        h = self.hands.get(hand_no)
        if h is None:
            h = self.hands[hand_no] = _Hand(table=table)
        return h

    # -- checking --------------------------------------------------------------------------

    def check(self) -> Report:
        """Check every draw recorded (as far as what has been revealed allows)."""
        checks = [self._check(key, d) for key, d in sorted(self.draws.items(), key=_order)]
        return Report(checks=tuple(checks), revealed=self.reveal_complete, chain=self.chain)

    def _check(self, key: Key, d: _Draw) -> HandCheck:
        kind, table, number = key
        seeds = d.seeds
        hand_no = seeds.hand_no if seeds is not None else None

        def result(status: str, detail: str, warnings: Iterable[str] = ()) -> HandCheck:
            return HandCheck(kind=kind, table=table, number=number, hand_no=hand_no, status=status,
                             detail=detail, warnings=tuple(warnings))

        if d.other_commits:
            return result(FAILED, "the server sent two different commitments for this draw")
        if seeds is None:
            return result(UNCHECKED, "no seed list was seen (the draw was not made while connected)")
        if d.commit is not None and seeds.commit != d.commit:
            return result(FAILED, "the seed list answers another commitment than the one sent before it")
        warnings = [] if d.committed_first else ["the commitment was not seen before the seed list"]
        problem = _my_seed_problem(d, self.player_id)
        if problem is not None:
            if "changed" in problem:
                return result(FAILED, problem)
            warnings.append(problem)
        revealed = self.revealed.get(key)
        if revealed is None:
            return result(UNCHECKED, "its server seed was not revealed", warnings)
        if revealed.commit != seeds.commit:
            return result(FAILED, "the reveal names another commitment than the seed list")
        if self.tournament is None:
            return result(UNCHECKED, "the tournament's id is unknown", warnings)
        draw = fd.Draw(kind=kind, tournament=self.tournament, table=table, number=number)
        server_seed = bytes.fromhex(revealed.server_seed)
        if fd.commitment(draw, server_seed).hex() != seeds.commit:
            return result(FAILED, "the revealed server seed does not match its commitment")
        contributions = [
            fd.Contribution(seat=s.seat, player_id=s.player_id, seed=None if s.seed is None else bytes.fromhex(s.seed))
            for s in seeds.seeds
        ]
        if kind == fd.SEATING:
            return result(OK, "commitment and seed list verified", warnings)
        hand = self.hands.get(hand_no) if hand_no is not None else None
        if hand is None:
            return result(OK, "commitment verified (none of the hand's cards were seen)", warnings)
        deck = fd.derive_deck(draw, server_seed, contributions)
        problem = _cards_problem(deck, [c.seat for c in contributions], hand)
        if problem is not None:
            return result(FAILED, problem, warnings)
        return result(OK, f"deck verified ({_what_was_seen(hand)})", warnings)

    # -- the record file -------------------------------------------------------------------

    @classmethod
    def load(cls, entries: Iterable[Mapping[str, Any]]) -> DeckLog:
        """Rebuild a log from its recorded entries (``ProtocolError``/``ValueError`` on a bad one)."""
        log = cls()
        for i, entry in enumerate(entries, 1):
            if "in" in entry:
                log.received(structure_server(entry["in"]))
            elif "out" in entry:
                msg = structure_client(entry["out"])
                if not isinstance(msg, m.ClientSeed):
                    raise ValueError(f"entry {i}: a recorded message sent must be a client_seed")
                log.sent(msg)
            else:
                raise ValueError(f"entry {i}: neither 'in' nor 'out'")
        if log.report is None:
            log.report = log.check()
        return log


def verify_entries(entries: Iterable[Mapping[str, Any]]) -> Report:
    """The checks of a recorded log, as ``hickory verify`` runs them."""
    report = DeckLog.load(entries).report
    assert report is not None
    return report


def _order(item: tuple[Key, _Draw]) -> tuple[int, int, int]:
    (kind, table, number), d = item
    hand_no = d.seeds.hand_no if d.seeds is not None and d.seeds.hand_no is not None else 0
    return (0 if kind == fd.SEATING else 1, hand_no, table * 1_000_000 + number)


def _where(msg: m.DeckCommit | m.SeedsReceived) -> str:
    if msg.draw == fd.SEATING:
        return "the seat draw"
    return f"table {msg.table}, hand {msg.number} there"


def _my_seed_problem(d: _Draw, player_id: int | None) -> str | None:
    if d.seeds is None or d.my_seed is None or player_id is None:
        return None
    mine = [s for s in d.seeds.seeds if s.player_id == player_id]
    if not mine:
        # The list names the seats dealt in: not there, this player is not dealt this hand
        # (seated since it was planned, waiting to be dealt in). If they were dealt in all
        # the same, the check of the cards says so ("the seed list names seats ...").
        return None
    if mine[0].seed is None:
        return "the seed this client sent is not in the seed list (too late?)"
    if mine[0].seed != d.my_seed:
        return "the server changed the seed this client sent"
    return None


def _cards_problem(deck: list[int], seats: list[int], hand: _Hand) -> str | None:
    if hand.dealt is not None and tuple(sorted(seats)) != hand.dealt:
        return (f"the seed list names seats {', '.join(map(str, sorted(seats)))} but seats "
                f"{', '.join(map(str, hand.dealt))} were dealt in")
    n = len(seats)
    board = [deck[2 * n + i] for i in (1, 2, 3, 5, 7)]
    for shown in hand.boards:  # each street's board, not only the last: a flop shown differs too
        for i, text in enumerate(shown):
            if i >= len(board) or parse_card(text) != board[i]:
                should = _card(board[i]) if i < len(board) else "nothing"
                return f"board card {i + 1} was {text}, the committed deck has {should} there"
    if hand.button is None:
        return None
    layout = fd.deal_layout(deck, seats, hand.button)
    seen = dict(hand.shown)
    if hand.my_seat is not None and hand.my_cards:
        seen[hand.my_seat] = hand.my_cards
    for seat, cards in sorted(seen.items()):
        expected = layout.hole.get(seat)
        got = tuple(parse_card(c) for c in cards)
        if expected is None or got != expected:
            whose = "your hole cards" if seat == hand.my_seat else f"the cards shown by seat {seat}"
            should = "no cards" if expected is None else " ".join(_card(c) for c in expected)
            return f"{whose} were {' '.join(cards)}, the committed deck deals {should}"
    return None


def _what_was_seen(hand: _Hand) -> str:
    parts = []
    if hand.my_cards:
        parts.append("your cards")
    if hand.boards:
        parts.append(f"{len(hand.boards[-1])} board cards")
    others = len([s for s in hand.shown if s != hand.my_seat])
    if others:
        parts.append(f"{others} shown hand{'s' if others > 1 else ''}")
    return ", ".join(parts) if parts else "no cards seen"


def _card(c: int) -> str:
    return card_str(c)


def _report_lines(report: Report) -> list[str]:
    """A line per draw (the per-hand mark), then the verdict."""
    return [("deck check: " if c.status != FAILED else "DECK CHECK FAILED: ") + c.line() for c in report.checks] + [
        report.summary()]
