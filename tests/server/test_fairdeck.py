"""The fair deck on a real server (docs/fairness.md): commit, contribute, deal, reveal.

Plain TCP clients speak version 2 as a third-party client would: they answer each
``deck_commit`` with a seed, and the test checks the order of what they receive, the seed
lists, that the deck dealt is the one the scheme derives, the window for missing seeds
(on Trio's virtual clock), that version 1 connections see none of it, that the
commitment is stored before it is sent, and the reveal. A server that deals another deck
than the one it committed to is caught by the players' own checks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs
import trio
import trio.testing

import protocol.errors as E
import protocol.messages as m
from client.bot import Bot
from client.tui.render import render_header
from poker import fairdeck as fd
from poker.cards import Card, parse_card
from protocol.codec import encode
from server.app import Server
from server.clients import Client
from server.fairness import REVEAL_BATCH, FairDealer, HandDraw, reveal_messages
from server.store import Store
from tests.server.harness import Choose, check_call, fast_config, pusher, running
from tests.server.rawclient import RawClient


@attrs.define(eq=False)
class Seeder:
    """A version 2 player on a raw connection: seeds every draw (unless ``silent``), plays
    with ``choose``, and notes when each message arrived (virtual time)."""

    client: RawClient
    name: str
    choose: Choose = check_call
    silent: bool = False
    rng: random.Random = attrs.Factory(lambda: random.Random(5))
    seen: list[tuple[float, m.ServerMessage]] = attrs.Factory(list)
    sent: dict[tuple[str, int, int], str] = attrs.Factory(dict)

    async def run(self, until: Callable[[m.ServerMessage], bool]) -> None:
        while True:
            try:
                msg = await self.client.recv()
            except EOFError:
                return
            self.seen.append((trio.current_time(), msg))
            if isinstance(msg, m.DeckCommit) and not self.silent:
                seed = self.rng.randbytes(16).hex()
                self.sent[(msg.draw, msg.table, msg.number)] = seed
                await self.client.send(m.ClientSeed(draw=msg.draw, table=msg.table, number=msg.number,
                                                    commit=msg.commit, seed=seed))
            elif isinstance(msg, m.YourTurn):
                await self.client.send(self.choose(msg, self.rng))
            elif isinstance(msg, m.ServerPing):
                await self.client.send(m.Pong(nonce=msg.nonce))
            if until(msg):
                return

    def of(self, kind: type[Any]) -> list[Any]:
        return [msg for _, msg in self.seen if isinstance(msg, kind)]

    def at(self, pred: Callable[[m.ServerMessage], bool]) -> float:
        return next(t for t, msg in self.seen if pred(msg))


async def seeders(port: int, names: list[str], version: int = 2, **kw: Any) -> list[Seeder]:
    out = []
    for name in names:
        c = await RawClient.connect(port)
        await c.join(name, version=version)
        out.append(Seeder(client=c, name=name, **kw))
    return out


def first_hand_dealt(msg: m.ServerMessage) -> bool:
    return isinstance(msg, m.HoleCards)


def contributions(seeds: m.SeedsReceived) -> list[fd.Contribution]:
    return [fd.Contribution(seat=s.seat, player_id=s.player_id, seed=None if s.seed is None else bytes.fromhex(s.seed))
            for s in seeds.seeds]


# --- a hand, as a version 2 player sees it ---------------------------------------------------


async def test_players_are_committed_to_add_their_seeds_and_are_dealt_the_derived_deck(
        autojump_clock: trio.testing.MockClock) -> None:
    cfg = fast_config(2, seats=6)
    async with running(cfg, seed=4) as (server, port):
        players = await seeders(port, ["ann", "ben"])
        async with trio.open_nursery() as n:
            for p in players:
                n.start_soon(p.run, first_hand_dealt)
        dealt = server.fair.dealt
    for p in players:
        kinds = [type(msg).__name__ for _, msg in p.seen]
        order = ["DeckCommit", "SeedsReceived", "TableSnapshot", "DeckCommit", "SeedsReceived", "HandStarted",
                 "HoleCards"]
        found = [k for k in kinds if k in order]
        assert found == order, kinds
        seating_commit, deck_commit = p.of(m.DeckCommit)
        seating_seeds, deck_seeds = p.of(m.SeedsReceived)
        assert (seating_commit.draw, seating_commit.table, seating_commit.number) == ("seating", 0, 0)
        assert (deck_commit.draw, deck_commit.table, deck_commit.number) == ("deck", 1, 1)
        assert deck_commit.window_ms == 1000 and deck_commit.tournament == server.fair.tournament_id
        # The seed lists answer the commitments and hold every seed as sent.
        assert seating_seeds.commit == seating_commit.commit and deck_seeds.commit == deck_commit.commit
        assert [s.player_id for s in seating_seeds.seeds] == [1, 2]
        [started] = p.of(m.HandStarted)
        assert deck_seeds.hand_no == started.hand_no
        assert [s.seat for s in deck_seeds.seeds] == sorted(s.seat for s in started.stacks)
        for other in players:
            for key, seeds_msg in ((("seating", 0, 0), seating_seeds), (("deck", 1, 1), deck_seeds)):
                listed = {s.player_id: s.seed for s in seeds_msg.seeds}
                assert listed[other.client.player_id] == other.sent[key]
        # Every seed came at once: the deal did not wait for the window.
        committed_at = next(t for t, x in p.seen if x is deck_commit)
        assert p.at(lambda x: isinstance(x, m.HandStarted)) - committed_at < cfg.seed_window
        # The cards are the scheme's: the revealed-later server seed and this seed list.
        hand_draw = next(d for d in dealt if d.hand_no == started.hand_no)
        draw = fd.Draw(kind="deck", tournament=deck_commit.tournament, table=1, number=1)
        assert fd.commitment(draw, hand_draw.server_seed).hex() == deck_commit.commit
        deck = fd.derive_deck(draw, hand_draw.server_seed, contributions(deck_seeds))
        [hole] = p.of(m.HoleCards)
        layout = fd.deal_layout(deck, [s.seat for s in deck_seeds.seeds], started.button)
        assert layout.hole[hole.seat] == tuple(parse_card(c) for c in hole.cards)


async def test_a_missing_seed_is_listed_as_missing_and_holds_the_deal_only_for_the_window(
        autojump_clock: trio.testing.MockClock) -> None:
    cfg = fast_config(2, seats=6, seed_window=0.4)
    async with running(cfg, seed=4) as (server, port):
        talker, mute = await seeders(port, ["talker", "mute"])
        mute.silent = True
        async with trio.open_nursery() as n:
            n.start_soon(talker.run, first_hand_dealt)
            n.start_soon(mute.run, first_hand_dealt)
        # A seed after the window: acknowledged, ignored, no error.
        commit = talker.of(m.DeckCommit)[-1]
        await mute.client.send(m.ClientSeed(id=7, draw="deck", table=1, number=1, commit=commit.commit,
                                            seed="ab" * 16))
        ack = await mute.client.recv_until(m.Ack)
        assert ack.id == 7
        hand = next(d for d in server.fair.dealt if d.hand_no == 1)
        assert {s.player_id: s.seed for s in hand.seeds}[mute.client.player_id] is None
    for p in (talker, mute):
        deck_seeds = p.of(m.SeedsReceived)[-1]
        listed = {s.player_id: s.seed for s in deck_seeds.seeds}
        assert listed[mute.client.player_id] is None
        assert listed[talker.client.player_id] == talker.sent[("deck", 1, 1)]
        waited = p.at(lambda x: isinstance(x, m.HandStarted)) - p.at(
            lambda x: isinstance(x, m.DeckCommit) and x.draw == "deck")
        assert cfg.seed_window <= waited < cfg.seed_window + 0.1, waited
    assert not mute.of(m.Error)


async def test_version_1_connections_see_none_of_it_and_are_not_waited_for(
        autojump_clock: trio.testing.MockClock) -> None:
    cfg = fast_config(2, seats=6)
    async with running(cfg, seed=4) as (server, port):
        old = await seeders(port, ["old-1", "old-2"], version=1)
        async with trio.open_nursery() as n:
            for p in old:
                n.start_soon(p.run, first_hand_dealt)
        # A version 2 message on a version 1 connection is refused as unknown.
        seed = m.ClientSeed(id=3, draw="deck", table=1, number=1, commit="0" * 64, seed="ab" * 16)
        await old[0].client.send_raw(encode(seed, 2) + b"\n")
        err = await old[0].client.recv_until(m.Error)
        assert err.code == E.UNKNOWN_TYPE and "version 2" in err.message
        # A spectator has no seed to give.
        watcher = await RawClient.connect(port)
        await watcher.spectate(1, version=2)
        await watcher.send(m.ClientSeed(id=4, draw="deck", table=1, number=2, commit="0" * 64, seed="ab" * 16))
        err = await watcher.recv_until(m.Error)
        assert err.code == E.UNAUTHORIZED
        assert server.tournament.hands_dealt >= 1
        assert all(s.seed is None for d in server.fair.dealt for s in d.seeds)
    for p in old:
        assert not p.of(m.DeckCommit) and not p.of(m.SeedsReceived) and not p.of(m.Reveal)
        assert not any(b'"deck_commit"' in line or b'"seeds_received"' in line for line in p.client.lines)
        # Nobody was asked, so nobody was waited for.
        assert p.at(lambda x: isinstance(x, m.HandStarted)) < cfg.seed_window


# --- store, then send -------------------------------------------------------------------------


class GatedStore(Store):
    """Holds every write that logs a commitment until the test releases it."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.held = trio.Event()
        self.release = trio.Event()

    async def write(self, records: list[Any]) -> None:
        if any("deck_commit" in r.params for r in records) and not self.release.is_set():
            self.held.set()
            await self.release.wait()
        await super().write(records)


async def test_a_commitment_is_stored_before_any_player_is_sent_it(tmp_path: Any, monkeypatch: Any) -> None:
    sent: list[bytes] = []
    original = Client.send_body

    def spy(self: Client, body: bytes) -> None:
        sent.append(body)
        original(self, body)

    monkeypatch.setattr(Client, "send_body", spy)
    cfg = fast_config(2, seats=6)
    store = GatedStore(tmp_path / "gated.db", synchronous="NORMAL")
    server = Server(cfg, store=store, seed=4)
    try:
        with trio.fail_after(30):
            async with running(cfg, server=server, seed=4) as (_, port):
                players = await seeders(port, ["ann", "ben"])
                async with trio.open_nursery() as n:
                    for p in players:
                        n.start_soon(p.run, lambda msg: isinstance(msg, m.DeckCommit))
                    await store.held.wait()  # the seat draw's commitment is being written...
                    assert not [b for b in sent if b.startswith(b'{"type":"deck_commit"')]  # ...and not sent
                    store.release.set()
                rows = list(store.iter_inputs())
                [logged] = [p for _, kind, _, p in rows if kind == "deck_commit"]
                assert logged["commit"] == players[0].of(m.DeckCommit)[0].commit
    finally:
        store.close()


# --- a cheating server ------------------------------------------------------------------------


class CheatingDealer(FairDealer):
    """Deals table 1's second hand from the committed deck turned upside down."""

    def deck(self, draw: fd.Draw, server_seed: bytes, seeds: Any) -> list[Card]:
        deck = super().deck(draw, server_seed, seeds)
        return deck[::-1] if (draw.table, draw.number) == (1, 2) else deck


async def test_a_server_that_deals_another_deck_than_it_committed_to_is_caught_by_every_player(
        autojump_clock: trio.testing.MockClock) -> None:
    cfg = fast_config(3, seats=6)
    server = Server(cfg, seed=6)
    server.fair = CheatingDealer(server.fair.tournament_id)
    async with running(cfg, server=server, seed=6) as (_, port):
        bots = [Bot("127.0.0.1", port, f"b{i}", "calling-station", seed=i, keep_decks=True) for i in range(3)]
        async with trio.open_nursery() as n:
            for b in bots:
                n.start_soon(b.run)
    assert server.tournament.finished
    cheated = next(d.hand_no for d in server.fair.dealt if (d.draw.table, d.draw.number) == (1, 2))
    for b in bots:
        assert b.decks is not None and b.decks.report is not None
        failed = b.decks.report.failed
        assert [c.hand_no for c in failed] == [cheated], [c.line() for c in b.decks.report.checks]
        assert "the committed deck" in failed[0].detail
        assert len(b.decks.report.verified) == len(b.decks.report.checks) - 1
        # The player is told: the header and the log.
        header = "".join(text for line in render_header(b.model, 200, 0.0) for _, text, *_ in line)
        assert "DECK CHECK FAILED" in header
        assert any(line.startswith("DECK CHECK FAILED") and f"#{cheated}" in line for line in b.model.log)


async def test_an_honest_tournament_verifies_on_every_hand_and_the_header_says_so(
        autojump_clock: trio.testing.MockClock) -> None:
    cfg = fast_config(3, seats=6)
    async with running(cfg, seed=6) as (server, port):
        bots = [Bot("127.0.0.1", port, f"b{i}", "calling-station", seed=i, keep_decks=True) for i in range(3)]
        async with trio.open_nursery() as n:
            for b in bots:
                n.start_soon(b.run)
    for b in bots:
        assert b.decks is not None and b.decks.report is not None
        report = b.decks.report
        assert report.revealed and not report.failed
        assert len(report.verified) == len(report.checks)
        if b.place == 1:  # the winner saw every deal (a busted player sees none after)
            assert len(report.checks) == len(server.fair.dealt)
        assert report.chain == server.fair.chain.hex()
        header = "".join(text for line in render_header(b.model, 200, 0.0) for _, text, *_ in line)
        assert "deck \u2713" in header


# --- the reveal -------------------------------------------------------------------------------


async def test_seeds_are_revealed_only_after_the_end_to_late_arrivals_too_and_again_on_request(
        autojump_clock: trio.testing.MockClock) -> None:
    cfg = fast_config(2, seats=6)
    async with running(cfg, seed=2) as (server, port):
        director = await RawClient.connect(port)
        await director.recv_until(m.Hello)
        await director.send(m.DirectorLogin(version=2, secret="s3cret"))
        await director.recv_until(m.Welcome)
        players = await seeders(port, ["ann", "ben"], choose=pusher)
        # Before the end the director's reveal is refused: a seed would show hidden cards.
        await director.send(m.DirectorCommand(id=1, command=m.RevealCommand(reason="curious")))
        refused = await director.recv_until(m.Error)
        assert refused.code == E.INVALID_STATE and "folded hands" in refused.message
        async with trio.open_nursery() as n:
            for p in players:
                n.start_soon(p.run, lambda msg: isinstance(msg, m.TournamentFinished))
        for p in players:
            reveals = p.of(m.Reveal)
            assert len(reveals) == 1 and reveals[0].final
            kinds = [type(x) for _, x in p.seen]
            assert kinds.index(m.Reveal) == kinds.index(m.TournamentFinished) - 1  # just before the end
            # Nothing was revealed before the end.
            assert all(not isinstance(x, m.Reveal) for x in (msg for _, msg in p.seen[: kinds.index(m.Reveal)]))
        revealed = {(r.draw, r.table, r.number): r for r in players[0].of(m.Reveal)[0].draws}
        assert len(revealed) == len(server.fair.dealt)
        for d in server.fair.dealt:
            r = revealed[(d.draw.kind, d.draw.table, d.draw.number)]
            assert r.server_seed == d.server_seed.hex() and r.hand_no == d.hand_no
        # A late arrival gets the reveal before tournament_finished.
        late = await RawClient.connect(port)
        await late.spectate(None, version=2)
        assert isinstance(await late.recv_until(m.Reveal), m.Reveal)
        assert isinstance(await late.recv(), m.TournamentFinished)
        # The director asks again: everyone connected gets it.
        await director.send(m.DirectorCommand(id=2, command=m.RevealCommand(reason="for the record")))
        again = await director.recv_until(m.Reveal)
        assert again.draws == players[0].of(m.Reveal)[0].draws
        assert isinstance(await late.recv_until(m.Reveal), m.Reveal)


def test_a_long_tournament_is_revealed_in_several_lines() -> None:
    fair = FairDealer("abc")
    for i in range(2 * REVEAL_BATCH + 1):
        draw = fair.draw_for(fd.DECK, 1, i + 1)
        fair.dealt.append(HandDraw(draw=draw, server_seed=bytes(32), commit=fd.commitment(draw, bytes(32)),
                                   seeds=(), hand_no=i + 1))
    lines = reveal_messages(fair)
    assert [len(x.draws) for x in lines] == [REVEAL_BATCH, REVEAL_BATCH, 1]
    assert [x.final for x in lines] == [False, False, True]
    assert [d.hand_no for x in lines for d in x.draws] == list(range(1, 2 * REVEAL_BATCH + 2))
    assert len(reveal_messages(FairDealer("abc"))) == 1  # nothing dealt: one (final) line

