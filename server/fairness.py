"""What the server keeps of the fair-deck scheme (docs/fairness.md), and its records.

``FairDealer`` holds the tournament's id in the scheme, the commitments made and not yet
used, the seed rounds open now, every draw dealt (for the reveal at the end) and the hash
chain over the finished hands. It decides nothing and sends nothing: ``server/dealing.py``
runs the rounds (commit, collect, draw) and this module gives it the values, the rows to
log and the messages to send. ``replay_input`` rebuilds the same state from the log after
a restart, so a commitment sent before a crash is honoured after it.

Logged inputs (``inputs`` table, replayed by ``recovery.py``):

- ``deck_commit``: ``{draw, table, number, commit, server_seed}``, stored before the
  commitment is sent;
- ``begin_hand`` and ``start`` carry ``draw``: ``{number, commit, seeds}``, the seed list
  the deck or the seating was drawn with (``seeds``: ``[seat, player_id, hex or null]``);
- ``end_hand`` carries ``chain``: the link of the hash chain for that hand.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

import attrs

import protocol.messages as m
from poker import fairdeck as fd
from poker.cards import Card
from poker.events import Event
from server.clients import Client
from server.journal import hand_event_texts
from server.records import event_to_json
from server.rows import Record

REVEAL_BATCH = 100
"""Draws per ``reveal`` line: about 20 KB, well under any line limit."""


def speaks_fairness(client: Client | None) -> bool:
    """The connection's protocol version has the scheme's messages (version 2 on)."""
    return client is not None and client.version >= m.DeckCommit.SINCE


def tournament_id_for(seed: int) -> str:
    """The tournament's id in the scheme: fixed by its stored seed, so a restart keeps it."""
    return hashlib.sha256(f"hickory-tournament/{seed}".encode()).hexdigest()[:16]


@attrs.define(kw_only=True)
class Committed:
    """A commitment made (and perhaps sent) but not yet used for a draw."""

    draw: fd.Draw
    server_seed: bytes
    commit: bytes
    stored: bool = False  # its ``deck_commit`` row is committed to the database


@attrs.define(eq=False)
class SeedRound:
    """Seeds coming in for one commitment; ``complete`` once every expected one is in."""

    committed: Committed
    expected: frozenset[str]  # player ids whose clients were asked and can answer
    wake: Callable[[], None]  # called once every expected seed is in
    seeds: dict[str, bytes] = attrs.Factory(dict)

    def complete(self) -> bool:
        return self.expected <= self.seeds.keys()


@attrs.frozen(kw_only=True)
class HandDraw:
    """A draw that was dealt: what the reveal, the chain and the replay need of it."""

    draw: fd.Draw
    server_seed: bytes
    commit: bytes
    seeds: tuple[fd.Contribution, ...]
    hand_no: int | None  # None for the seat draw
    deck: tuple[Card, ...] = ()


def round_key(kind: str, table: int, number: int) -> tuple[str, int, int]:
    return (kind, table, number)


def key_of(draw: fd.Draw) -> tuple[str, int, int]:
    return round_key(draw.kind, draw.table, draw.number)


class FairDealer:
    """The scheme's state on the server (see the module docstring)."""

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        self.pending: dict[tuple[str, int, int], Committed] = {}
        self.rounds: dict[tuple[str, int, int], SeedRound] = {}
        self.dealt: list[HandDraw] = []  # in the order dealt: what ``reveal`` lists
        self.in_play: dict[int, HandDraw] = {}  # table -> the draw of its hand in play
        # table -> the hash of its hand's record so far and the events in it: the stored
        # event lines are hashed as they are stored, so the chain costs no second encoding.
        self._record: dict[int, tuple[Any, int]] = {}
        self.chain = fd.chain_start(tournament_id)

    # -- making draws ----------------------------------------------------------------------

    def draw_for(self, kind: str, table: int, number: int) -> fd.Draw:
        return fd.Draw(kind=kind, tournament=self.tournament_id, table=table, number=number)

    def commit(self, draw: fd.Draw, server_seed: bytes) -> Committed:
        """The commitment for ``draw``: the one made before (after a restart too), else a
        new one to ``server_seed``."""
        found = self.pending.get(key_of(draw))
        if found is None:
            found = Committed(draw=draw, server_seed=server_seed, commit=fd.commitment(draw, server_seed))
            self.pending[key_of(draw)] = found
        return found

    def deck(self, draw: fd.Draw, server_seed: bytes, seeds: Sequence[fd.Contribution]) -> list[Card]:
        """The deck the scheme gives. (A test replaces this to play a server that cheats.)"""
        return fd.derive_deck(draw, server_seed, seeds)

    def dealt_now(self, c: Committed, seeds: Sequence[fd.Contribution], hand_no: int | None,
                  deck: Sequence[Card] = ()) -> HandDraw:
        """The commitment was used: it moves from pending to the dealt draws."""
        self.pending.pop(key_of(c.draw), None)
        done = HandDraw(draw=c.draw, server_seed=c.server_seed, commit=c.commit, seeds=tuple(seeds),
                        hand_no=hand_no, deck=tuple(deck))
        self.dealt.append(done)
        if c.draw.kind == fd.DECK and hand_no is not None:
            self.in_play[c.draw.table] = done
            self._record[c.draw.table] = (hashlib.sha256(hand_header(done)), 0)
        return done

    # -- the hash chain ------------------------------------------------------------------------

    def events_stored(self, table: int, records: Sequence[Record]) -> None:
        """The hand's events among ``records`` (``Journal.hand_events`` rows) were stored."""
        acc = self._record.get(table)
        if acc is None:
            return
        digest, count = acc
        for text in hand_event_texts(records):
            digest.update(b"\n" + text.encode())
            count += 1
        self._record[table] = (digest, count)

    def chain_hand(self, table: int, events: Sequence[Event], result: dict[str, Any], *,
                   stored: bool = True) -> str | None:
        """Extend the chain with the hand just finished at ``table``; the new link (hex), or
        None for a hand dealt without the scheme (a database from before it) or not
        ``stored`` (a server without a database keeps no hands to chain)."""
        done = self.in_play.pop(table, None)
        acc = self._record.pop(table, None)
        if done is None or done.hand_no is None or not stored:
            return None
        if acc is None or acc[1] != len(events):
            # Resumed after a restart: encode the events as they were stored.
            digest = hashlib.sha256(hand_header(done))
            for e in events:
                digest.update(b"\n" + event_to_json(e).encode())
        else:
            digest = acc[0]
        digest.update(b"\n" + canonical(result))
        self.chain = fd.chain_link(self.chain, digest.digest())
        return self.chain.hex()


# -- rows and payloads ---------------------------------------------------------------------------


def commit_payload(c: Committed) -> dict[str, Any]:
    """The ``deck_commit`` input: stored before the commitment is sent."""
    return {"draw": c.draw.kind, "table": c.draw.table, "number": c.draw.number,
            "commit": c.commit.hex(), "server_seed": c.server_seed.hex()}


def seeds_json(seeds: Sequence[fd.Contribution]) -> list[list[Any]]:
    return [[s.seat, s.player_id, None if s.seed is None else s.seed.hex()] for s in seeds]


def seeds_from_json(rows: Sequence[Sequence[Any]]) -> tuple[fd.Contribution, ...]:
    return tuple(fd.Contribution(seat=int(seat), player_id=int(pid), seed=None if seed is None else bytes.fromhex(seed))
                 for seat, pid, seed in rows)


def draw_payload(c: Committed, seeds: Sequence[fd.Contribution]) -> dict[str, Any]:
    """The ``draw`` of a ``begin_hand`` or ``start`` input."""
    return {"number": c.draw.number, "commit": c.commit.hex(), "seeds": seeds_json(seeds)}


# -- the chain -----------------------------------------------------------------------------------


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def hand_header(done: HandDraw) -> bytes:
    """The first line of a hand's record in the chain: its draw and deck."""
    assert done.hand_no is not None
    return canonical({"hand_no": done.hand_no, "table": done.draw.table, "number": done.draw.number,
                      "commit": done.commit.hex(), "seeds": seeds_json(done.seeds), "deck": list(done.deck)})


def hand_digest(done: HandDraw, events: Sequence[str], result: Any) -> bytes:
    """SHA-256 of a finished hand's record as the chain hashes it (docs/fairness.md): the
    header line, each stored event line, the result line, joined by newlines."""
    body = b"\n".join([hand_header(done), *(e.encode() for e in events), canonical(result)])
    return hashlib.sha256(body).digest()


# -- messages ------------------------------------------------------------------------------------


def commit_message(c: Committed, window: float) -> m.DeckCommit:
    d = c.draw
    return m.DeckCommit(draw=d.kind, tournament=d.tournament, table=d.table,  # type: ignore[arg-type]
                        number=d.number, commit=c.commit.hex(), window_ms=int(window * 1000))


def seeds_message(done: HandDraw) -> m.SeedsReceived:
    d = done.draw
    return m.SeedsReceived(
        draw=d.kind, table=d.table, number=d.number, commit=done.commit.hex(),  # type: ignore[arg-type]
        hand_no=done.hand_no,
        seeds=tuple(m.SeedEntry(seat=s.seat, player_id=s.player_id, seed=None if s.seed is None else s.seed.hex())
                    for s in done.seeds),
    )


def reveal_messages(fair: FairDealer) -> list[m.Reveal]:
    """Every dealt draw's server seed, a batch per line; at least one line (``final``)."""
    draws = [
        m.RevealedDraw(draw=d.draw.kind, table=d.draw.table, number=d.draw.number,  # type: ignore[arg-type]
                       hand_no=d.hand_no, commit=d.commit.hex(), server_seed=d.server_seed.hex())
        for d in fair.dealt
    ]
    batches = [draws[i : i + REVEAL_BATCH] for i in range(0, len(draws), REVEAL_BATCH)] or [[]]
    return [
        m.Reveal(tournament=fair.tournament_id, draws=tuple(b), chain=fair.chain.hex(), final=i == len(batches) - 1)
        for i, b in enumerate(batches)
    ]


# -- replay --------------------------------------------------------------------------------------


def replay_input(fair: FairDealer, kind: str, table_id: int | None, p: dict[str, Any],
                 next_hand_no: int) -> fd.DrawStream | None:
    """Rebuild the scheme's state from one logged input, before it is applied.

    ``next_hand_no`` is the number a ``begin_hand`` now gives its hand. Returns the
    seating stream for a ``start`` input with a draw: the tournament's RNG from then on.
    """
    if kind == "deck_commit":
        draw = fair.draw_for(p["draw"], p["table"], p["number"])
        c = Committed(draw=draw, server_seed=bytes.fromhex(p["server_seed"]),
                      commit=bytes.fromhex(p["commit"]), stored=True)
        fair.pending[key_of(draw)] = c
    elif kind == "begin_hand" and "draw" in p and table_id is not None:
        c = _stored(fair, fd.DECK, table_id, p["draw"])
        fair.dealt_now(c, seeds_from_json(p["draw"]["seeds"]), next_hand_no, p["deck"])
    elif kind == "start" and "draw" in p:
        c = _stored(fair, fd.SEATING, 0, p["draw"])
        seeds = seeds_from_json(p["draw"]["seeds"])
        fair.dealt_now(c, seeds, None)
        return fd.draw_stream(c.draw, c.server_seed, seeds)
    elif kind == "end_hand" and "chain" in p and table_id is not None:
        fair.in_play.pop(table_id, None)
        fair.chain = bytes.fromhex(p["chain"])
    return None


def _stored(fair: FairDealer, kind: str, table: int, draw: dict[str, Any]) -> Committed:
    c = fair.pending.get(round_key(kind, table, draw["number"]))
    if c is None or c.commit.hex() != draw["commit"]:
        raise ValueError(f"the log deals {kind} draw {table}/{draw['number']} without the commitment it names")
    return c
