"""The fair-deck rounds on the server: commit, collect the players' seeds, draw.

Before a table deals (``TableRunner.begin_hand``) and before the seat draw
(``coordinator.start_tournament``) the server commits to a fresh seed, asks the players'
clients for seeds of their own, waits for them at most ``seed_window`` seconds (less when
every client asked has answered), and draws from all of them (docs/fairness.md). A client
speaking protocol version 1 is neither sent the commitment nor waited for.

Store, then send: the commitment is committed to the database before ``deck_commit``
goes out. When nobody would receive it (no version 2 client at the table) nothing waits:
its row is returned and goes into the same transaction as the hand it is for. The seed
list goes out (``seeds_received``) only after the hand or the start that uses it is
stored, and before the first card.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import attrs
import trio

import protocol.errors as E
import protocol.messages as m
from poker import fairdeck as fd
from poker.cards import Card
from protocol.errors import ProtocolError
from server.clients import Client
from server.fairness import (
    Committed,
    SeedRound,
    commit_message,
    commit_payload,
    draw_payload,
    key_of,
    reveal_messages,
    round_key,
    seeds_message,
    speaks_fairness,
)
from server.fanout import broadcast, table_clients
from server.house import House
from server.rows import Record

log = logging.getLogger("hickory.server")


@attrs.frozen(kw_only=True)
class Drawn:
    """A draw made and not yet stored: what the caller logs with its hand or its start."""

    committed: Committed
    seeds: tuple[fd.Contribution, ...]
    records: list[Record]  # the commitment's row, when it was not stored before sending

    def payload(self) -> dict[str, object]:
        return draw_payload(self.committed, self.seeds)


@attrs.frozen(kw_only=True)
class DrawnDeck(Drawn):
    deck: list[Card]
    # The tournament time the table was found free to deal at: the deal uses it, so a level
    # (and a break after it) that runs out a moment later cannot refuse the deal half-way.
    now: float = 0.0


async def run_round(h: House, draw: fd.Draw, recipients: Iterable[Client], expected: Iterable[str]
                    ) -> tuple[Committed, dict[str, bytes], list[Record]]:
    """Commit (store, then send), then wait for the seeds of ``expected`` players.

    Returns the commitment, the seeds received by player id, and the commitment's row if
    it still has to be stored (nobody was sent it)."""
    fair = h.fair
    key = key_of(draw)
    c = fair.commit(draw, h.deck_rng.randbytes(fd.SERVER_SEED_BYTES))
    to = [client for client in recipients if speaks_fairness(client)]
    waiting = trio.Event()
    seed_round = SeedRound(committed=c, expected=frozenset(expected), wake=waiting.set)
    fair.rounds[key] = seed_round
    try:
        records = [] if c.stored else h.journal.input(
            "deck_commit", commit_payload(c), draw.table if draw.kind == fd.DECK else None)
        if to:
            await h.journal.commit(records)
            c.stored, records = True, []
            broadcast(h, commit_message(c, h.config.seed_window), to)
        if not seed_round.complete():
            with trio.move_on_after(h.config.seed_window):
                await waiting.wait()
    finally:
        fair.rounds.pop(key, None)
    return c, seed_round.seeds, records


async def draw_deck(h: House, table_id: int) -> DrawnDeck | None:
    """The deck for the table's next hand, or None if the table may no longer deal once
    the seeds are in (paused, broken up meanwhile): its commitment then serves the next
    deal there."""
    t = h.tournament
    number = t.hands_dealt_at(table_id) + 1
    draw = h.fair.draw_for(fd.DECK, table_id, number)
    players = [p.player_id for p in t.table(table_id).seats.values() if p.stack > 0]
    expected = [pid for pid in players if speaks_fairness(h.players[pid].client)]
    c, seeds, records = await run_round(h, draw, table_clients(h, table_id), expected)
    now = h.now()
    if not t.can_deal(table_id, now):
        return None
    table = t.table(table_id)
    # The seats this hand is dealt to (a player who arrived between the blinds waits: TDA).
    dealt_in = [(s, table.seats[s].player_id) for s in table.deal_plan()[0]]
    contributions = tuple(fd.Contribution(seat=s, player_id=int(pid), seed=seeds.get(pid)) for s, pid in dealt_in)
    deck = h.fair.deck(draw, c.server_seed, contributions)
    return DrawnDeck(committed=c, seeds=contributions, records=records, deck=deck, now=now)


def hand_dealt(h: House, table_id: int, drawn: DrawnDeck, hand_no: int) -> None:
    """The hand is stored: its seed list goes to the table, before its first card."""
    done = h.fair.dealt_now(drawn.committed, drawn.seeds, hand_no, drawn.deck)
    broadcast(h, seeds_message(done), table_clients(h, table_id))


async def seat_draw(h: House) -> Drawn | None:
    """The seat draw's round, for every registered player; None if one is already under
    way (the start rule and the director may both start the tournament)."""
    fair = h.fair
    if round_key(fd.SEATING, 0, 0) in fair.rounds:
        return None
    t = h.tournament
    draw = fair.draw_for(fd.SEATING, 0, 0)
    expected = [pid for pid in t.registered if speaks_fairness(h.players[pid].client)]
    c, seeds, records = await run_round(h, draw, [c for c in h.clients if c.role], expected)
    contributions = tuple(fd.Contribution(seat=0, player_id=int(pid), seed=seeds.get(pid)) for pid in t.registered)
    return Drawn(committed=c, seeds=contributions, records=records)


def seating_stream(drawn: Drawn) -> fd.DrawStream:
    c = drawn.committed
    return fd.draw_stream(c.draw, c.server_seed, drawn.seeds)


def seats_drawn(h: House, drawn: Drawn) -> None:
    """The start is stored: the seat draw's seed list goes to everyone."""
    done = h.fair.dealt_now(drawn.committed, drawn.seeds, None)
    broadcast(h, seeds_message(done))


def send_reveal(h: House, clients: Iterable[Client]) -> None:
    """Every dealt draw's server seed, once the tournament is over."""
    assert h.tournament.finished, "seeds are revealed only once the tournament is over"
    for msg in reveal_messages(h.fair):
        broadcast(h, msg, clients)


# -- the players' seeds ---------------------------------------------------------------------------


async def client_seed(h: House, client: Client, msg: m.ClientSeed) -> None:
    """A seed for an open round. One that comes too late, or twice, or from a player not
    seated at that table (out and watching it, or on the way to it), is acknowledged and
    ignored: ``seeds_received`` shows the player whether theirs counted."""
    if client.player_id is None:
        raise ProtocolError(E.UNAUTHORIZED, "only players send seeds")
    seed_round = h.fair.rounds.get(round_key(msg.draw, msg.table, msg.number))
    counts = seed_round is not None and seed_round.committed.commit.hex() == msg.commit
    if counts and msg.draw == fd.DECK:
        loc = h.locate(client.player_id)
        counts = loc is not None and not loc.on_the_way and loc.table_id == msg.table
    if seed_round is not None and counts:
        seed_round.seeds.setdefault(client.player_id, bytes.fromhex(msg.seed))
        if seed_round.complete():
            seed_round.wake()
    if msg.id is not None:
        client.send_nowait(m.Ack(id=msg.id))
