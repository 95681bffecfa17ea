"""No line to any connection carries a hole card it may not see at that moment.

A multi-table tournament of wire bots, with a spectator at every table and the director
watching one. Two checks over the same recording:

* At the server, at the moment each line is queued (``Client.send_body`` wrapped): every
  card in it must be on that hand's board now, or in a hand shown now, or the
  connection's own player's hole card in that hand. The truth is the live ``Hand``.
* At each client, over the bytes it received: the line is exactly one the server checked
  (same ``seq``, same bytes), and, tracked from what that connection itself was told,
  every card is its own hole card, or was on a board or in a showdown it was sent before
  (or in this very line, which must then agree with the truth). A spectator owns no card.

History replies (a database is needed) are checked the same way in a second test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio

import protocol.messages as m
from poker import events as ev
from poker.cards import card_str
from poker.hand import Hand
from protocol.codec import stamp
from server.app import Server, open_server
from server.clients import Client
from server.house import Watcher
from tests.server.harness import BotResult, fast_config, joined, play, pusher, running
from tests.server.rawclient import RawClient

CARD = re.compile(rb'"([2-9TJQKA][cdhs])"')


@attrs.define
class Truth:
    """One hand as it really is: hole cards and who sat where."""

    table: int
    hand: Hand
    hole: dict[int, frozenset[str]]  # seat -> cards
    players: dict[int, str]  # seat -> player id

    def own(self, player_id: str | None) -> frozenset[str]:
        seats = [s for s, p in self.players.items() if p == player_id]
        return self.hole[seats[0]] if seats else frozenset()

    def visible_now(self, player_id: str | None) -> frozenset[str]:
        h = self.hand
        shown = [self.hole[s] for s in h.seats if h.shown(s)]
        return frozenset(card_str(c) for c in h.board).union(*shown, self.own(player_id))

    def final_board(self) -> tuple[str, ...]:
        return tuple(card_str(c) for c in self.hand.board)

    def shown_seats(self) -> set[int]:
        return {e.seat for e in self.hand.events if isinstance(e, ev.HandShown)}


class WatchedServer(Server, Watcher):
    """Records the truth of every hand before any of its lines are sent."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.watchers.append(self)
        self.truth: dict[int, Truth] = {}

    def hand_events(self, table_id: int, hand: Hand, events: Sequence[ev.Event]) -> None:
        if hand.hand_no not in self.truth:
            seats = self.tournament.table(table_id).seats
            self.truth[hand.hand_no] = Truth(
                table=table_id, hand=hand,
                hole={s: frozenset(card_str(c) for c in hand.hole_cards(s)) for s in hand.seats},
                players={s: seats[s].player_id for s in hand.seats},
            )


@attrs.define
class Sent:
    seq: int
    line: bytes


@attrs.define
class Recorder:
    """Wraps ``Client.send_body``: checks each line as it is queued, keeps it by peer."""

    server: WatchedServer | None = None
    sent: dict[str, dict[int, Sent]] = attrs.Factory(dict)
    leaks: list[str] = attrs.Factory(list)
    checked: int = 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = Client.send_body
        recorder = self

        def send_body(client: Client, body: bytes) -> None:
            recorder.check(client, body)
            recorder.sent.setdefault(client.conn.peer, {})[client.seq + 1] = Sent(
                client.seq + 1, stamp(body, client.seq + 1) + b"\n")
            original(client, body)

        monkeypatch.setattr(Client, "send_body", send_body)

    def check(self, client: Client, body: bytes) -> None:
        cards = {c.decode() for c in CARD.findall(body)}
        if not cards:
            return
        assert self.server is not None
        self.checked += 1
        obj = json.loads(body)
        who = f"{client.role} {client.player_id or ''} ({client.conn.peer})"
        records = obj["hands"] if obj["type"] == "history" else [obj]
        for rec in records:
            truth = self.server.truth.get(rec.get("hand_no"))
            found = {c.decode() for c in CARD.findall(json.dumps(rec).encode())}
            if truth is None:
                if found:
                    self.leaks.append(f"{who}: cards {sorted(found)} in a {obj['type']} with no hand")
                continue
            # For history (a finished hand) "now" is its final board and shown hands.
            extra = found - truth.visible_now(client.player_id)
            if extra:
                self.leaks.append(f"{who}: {obj['type']} of hand #{truth.hand.hand_no} carries {sorted(extra)}")


def client_side_leaks(c: RawClient, truth: dict[int, Truth], player_id: str | None) -> list[str]:
    """Replay what one connection was told, in order, and judge each line by it alone."""
    leaks: list[str] = []
    seen: dict[int, set[str]] = {}  # hand_no -> cards this connection was shown
    for line, msg in zip(c.lines, c.received, strict=True):
        found = {x.decode() for x in CARD.findall(line)}
        if not found:
            continue
        hand_no = getattr(msg, "hand_no", None)
        if hand_no is None or hand_no not in truth:
            leaks.append(f"{c.name}: cards in {type(msg).__name__} without a hand")
            continue
        t = truth[hand_no]
        known = seen.setdefault(hand_no, set())
        if isinstance(msg, m.Board):
            if msg.board != t.final_board()[: len(msg.board)]:
                leaks.append(f"{c.name}: board {msg.board} is not hand #{hand_no}'s")
            known.update(msg.board)
        elif isinstance(msg, m.Showdown):
            if msg.seat not in t.shown_seats() or set(msg.cards) != t.hole[msg.seat]:
                leaks.append(f"{c.name}: showdown of seat {msg.seat} in hand #{hand_no} is not real")
            known.update(msg.cards)
        elif isinstance(msg, m.TableSnapshot):  # a player moved in mid-hand sees the board
            if msg.board != t.final_board()[: len(msg.board)]:
                leaks.append(f"{c.name}: snapshot board {msg.board} is not hand #{hand_no}'s")
            known.update(msg.board)
        elif isinstance(msg, m.HoleCards):
            if t.players.get(msg.seat) != player_id:
                leaks.append(f"{c.name}: got seat {msg.seat}'s hole cards in hand #{hand_no}")
        extra = found - known - t.own(player_id)
        if extra:
            leaks.append(f"{c.name}: {type(msg).__name__} of hand #{hand_no} carries {sorted(extra)}")
    return leaks


def same_bytes(c: RawClient, recorder: Recorder) -> None:
    """Every line the client got is one the server checked when it queued it."""
    sent = recorder.sent[f"127.0.0.1:{c.local_port}"]
    seqs = [getattr(x, "seq", None) for x in c.received]
    assert seqs == list(range(1, len(seqs) + 1)), f"{c.name}: gap or repeat in seq"
    for line, seq in zip(c.lines, seqs, strict=True):
        assert seq is not None
        assert sent[seq].line == line + b"\n", f"{c.name}: line {seq} differs from the one checked"


async def test_no_connection_ever_sees_a_card_it_may_not(
    autojump_clock: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = 14
    cfg = fast_config(players, seats=6, hands_per_level=6)
    server = WatchedServer(cfg, seed=11)
    recorder = Recorder(server=server)
    recorder.install(monkeypatch)
    results = [BotResult(name=f"hc{i:02d}") for i in range(players)]
    watchers: list[RawClient] = []
    with trio.fail_after(3600):
        async with running(cfg, server=server, seed=11) as (_, port):
            # Spectators and the director first, so they see every hand from the start.
            for table_id in (1, 2, 3):
                s = await RawClient.connect(port)
                await s.spectate(table_id)
                watchers.append(s)
            d = await RawClient.connect(port)
            await d.recv_until(m.Hello)
            await d.send(m.DirectorLogin(version=1, secret="s3cret"))
            await d.recv_until(m.Welcome)
            d.name = "director"
            watchers.append(d)
            clients = await joined(port, [r.name for r in results])
            async with trio.open_nursery() as n:
                for w in watchers:
                    n.start_soon(w.pump)
                async with trio.open_nursery() as bots:
                    for i, (c, r) in enumerate(zip(clients, results, strict=True)):
                        bots.start_soon(play, c, r, pusher, i)
                for w in watchers:
                    await w.next(m.TournamentFinished)
                n.cancel_scope.cancel()
    assert all(r.finished is not None for r in results)
    assert len({t.table for t in server.truth.values()}) == 3
    assert recorder.checked > 300, "the recording covers the tournament"
    assert recorder.leaks == []
    shown = sum(len(t.shown_seats()) for t in server.truth.values())
    assert shown > 10, "showdowns happened, so shown cards were sent too"
    leaks: list[str] = []
    for c in clients:
        same_bytes(c, recorder)
        leaks += client_side_leaks(c, server.truth, str(c.player_id))
    for w in watchers:
        same_bytes(w, recorder)
        leaks += client_side_leaks(w, server.truth, None)
        assert not any(isinstance(x, m.HoleCards) for x in w.received)
    assert leaks == []


async def test_history_shows_only_own_and_shown_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finished hands from the database, asked for by players and a spectator."""
    cfg = fast_config(4, seats=4, db=tmp_path / "h.db", hands_per_level=4)
    watched = open_server(cfg)  # the server with its store, as hickory-server makes it
    watched.__class__ = WatchedServer
    assert isinstance(watched, WatchedServer)
    watched.truth = {}
    watched.watchers.append(watched)
    recorder = Recorder(server=watched)
    recorder.install(monkeypatch)
    results = [BotResult(name=f"hh{i}") for i in range(4)]
    try:
        with trio.fail_after(60):
            async with running(cfg, server=watched, seed=5) as (_, port):
                spectator = await RawClient.connect(port)
                await spectator.spectate(1)
                clients = await joined(port, [r.name for r in results])
                async with trio.open_nursery() as n:
                    for i, (c, r) in enumerate(zip(clients, results, strict=True)):
                        n.start_soon(play, c, r, pusher, i)
                for i, c in enumerate([*clients, spectator]):
                    await c.send(m.HistoryRequest(id=100 + i, table=1, last=20))
                    reply = await c.recv_until(m.History)
                    assert reply.id == 100 + i and reply.hands, "hands were stored"
                    for rec in reply.hands:
                        t = watched.truth[rec.hand_no]
                        if c is spectator:
                            assert rec.your_cards is None
                        elif rec.your_cards is not None:
                            assert set(rec.your_cards) == t.own(str(c.player_id))
                        for s in rec.shown:
                            assert s.seat in t.shown_seats() and set(s.cards) == t.hole[s.seat]
    finally:
        if watched.store is not None:
            watched.store.close()
    assert recorder.leaks == []
