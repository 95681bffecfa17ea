"""Calling the floor, rulings and trophies over the wire, and after a restart (real database)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import protocol.messages as m
from server.app import open_server
from server.reports import load_server, open_readonly, standings_data
from server.results import results_csv, results_html
from tests.server.harness import fast_config, joined, running
from tests.server.rawclient import RawClient


async def director(port: int) -> RawClient:
    """A director on version 2: the queue of calls carries their numbers (call_id)."""
    c = await RawClient.connect(port)
    await c.director(version=2)
    return c


async def until(c: RawClient, pred: Callable[[m.ServerMessage], bool]) -> m.ServerMessage:
    """Read until a message matches (these clients are read in the test's own task)."""
    while not pred(msg := await c.recv()):
        pass
    return msg


async def command(d: RawClient, cmd: m.Command, rid: int) -> m.ServerMessage:
    await d.send(m.DirectorCommand(id=rid, command=cmd))
    return await until(d, lambda x: isinstance(x, (m.Ack, m.Error)) and x.id == rid)


async def test_a_call_waits_for_the_director_whose_ruling_reaches_that_table_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    # Real time, not the virtual clock: the store commits on a thread, and a virtual clock
    # would jump past every deadline while a commit waits for the disk.
    cfg = fast_config(4, db=tmp_path / "floor.db", seats=2, action_clock=600.0)
    server = open_server(cfg)
    try:
        async with running(cfg, server=server) as (srv, port):
            players = await joined(port, ["ann", "bob", "cid", "dee"])
            await players[0].recv_until(m.HandStarted)
            await players[0].send(m.CallDirector(id=5, message="bob acted out of turn"))
            await until(players[0], lambda x: isinstance(x, m.Ack) and x.id == 5)
            d = await director(port)  # logs in after the call: the queue is sent on login
            called = await d.recv_until(m.DirectorCalled)
            assert called.name == "ann" and called.message == "bob acted out of turn"
            assert called.table == srv.locate(str(players[0].player_id)).table_id  # type: ignore[union-attr]
            assert called.call_id == 1 and called.hand_no is not None
            wrong = await command(d, m.RuleCommand(call_id=7, decision="x", reason="typo"), 1)
            assert isinstance(wrong, m.Error) and "no open call #7 (open: #1)" in wrong.message
            ok = await command(d, m.RuleCommand(call_id=1, decision="The action stands", reason="floor"), 2)
            assert isinstance(ok, m.Ack)
            table = called.table
            for p in players:
                here = srv.locate(str(p.player_id)).table_id == table  # type: ignore[union-attr]
                if here:  # a version-1 client reads the ruling as an announcement
                    note = await until(p, lambda x: isinstance(x, m.Announcement) and "Ruling" in x.text)
                    assert note.text == "Ruling (call #1): The action stands" and note.by == "director"
            others = [p for p in players if srv.locate(str(p.player_id)).table_id != table]  # type: ignore[union-attr]
            assert others
            award = await command(d, m.AwardCommand(title="Best table talk", player_id=2, reason="fun"), 3)
            assert isinstance(award, m.Ack)
            for p in others:  # a pong comes after everything queued for them before it
                await p.send(m.Ping(id=99, nonce="after"))
                await until(p, lambda x: isinstance(x, m.ServerPong) and x.id == 99)
                assert not any(isinstance(x, m.Announcement) and "Ruling" in x.text
                               for x in p.received), "a ruling stays at its table"
            for c in [*players, d]:
                await c.aclose()
    finally:
        if server.store is not None:
            server.store.close()
    again = open_server(cfg)  # the restart replays the call, the ruling and the trophy
    try:
        t = again.tournament
        assert t.floor.open == {}
        assert [r.decision for r in t.floor.rulings] == ["The action stands"]
        assert [(x.title, x.player_id) for x in t.floor.awarded] == [("Best table talk", "2")]
    finally:
        assert again.store is not None
        again.store.close()
    conn = open_readonly(cfg.db)  # type: ignore[arg-type]
    try:
        data = standings_data(load_server(conn))
    finally:
        conn.close()
    assert {"title": "Best table talk", "player_id": "2", "name": "bob", "by_rule": False} in data["trophies"]
    assert "bob,10000,,Best table talk" in results_csv(data) or ",bob," in results_csv(data)
    assert "<b>Best table talk</b>: bob" in results_html(data)


def test_exports_escape_what_players_typed() -> None:
    data = {"name": "Friday <b>night</b>", "state": "finished", "players": 2, "hands_dealt": 9,
            "places": [{"place": 1, "player_id": "1", "name": "=HYPERLINK(\"x\")", "chips": 20000,
                        "eliminated": False},
                       {"place": 2, "player_id": "2", "name": "<script>alert(1)</script>", "chips": 0,
                        "eliminated": True, "eliminated_in_hand": 9}],
            "trophies": [{"title": "Winner", "player_id": "1", "name": "=HYPERLINK(\"x\")", "by_rule": True}]}
    page = results_html(data)
    assert "<script>" not in page and "&lt;script&gt;" in page and "Friday &lt;b&gt;" in page
    rows = results_csv(data).splitlines()
    assert rows[1].startswith('1,1,"\'=HYPERLINK') and rows[1].endswith("Winner")
    assert rows[2] == "2,2,<script>alert(1)</script>,0,9,"


async def test_the_director_voids_a_hand_in_progress_and_a_restart_agrees(tmp_path: Path) -> None:
    cfg = fast_config(3, db=tmp_path / "void.db", seats=6, action_clock=600.0)
    server = open_server(cfg)
    stack = cfg.starting_stack
    try:
        async with running(cfg, server=server) as (srv, port):
            players = await joined(port, ["ann", "bob", "cid"])
            turn = await until(players[0], lambda x: isinstance(x, m.YourTurn) or isinstance(x, m.HandStarted))
            hand_no = turn.hand_no  # type: ignore[union-attr]
            d = await director(port)
            busy = await command(d, m.VoidHandCommand(table=9, reason="typo"), 1)
            assert isinstance(busy, m.Error)
            ok = await command(d, m.VoidHandCommand(table=1, reason="exposed deck"), 2)
            assert isinstance(ok, m.Ack), ok
            for p in players:
                snap = await until(p, lambda x: isinstance(x, m.TableSnapshot) and x.street is None)
                assert isinstance(snap, m.TableSnapshot)
                assert sorted(s.stack for s in snap.seats if s.name) == [stack] * 3, "every bet went back"
            for c in [*players, d]:
                await c.aclose()
    finally:
        if server.store is not None:
            server.store.close()
    again = open_server(cfg)
    try:
        assert again.store is not None
        status = again.store.reader().execute("SELECT status FROM hands WHERE hand_no=?", (hand_no,)).fetchone()
        assert tuple(status) == ("voided",)
        table = again.tournament.table(1)
        if table.hand is not None and table.hand.hand_no > hand_no:  # the next hand had begun
            assert sorted(st for _, st in table.hand.starting_stacks) == [stack] * 3
        else:
            assert table.hand is None and sorted(p.stack for p in table.seats.values()) == [stack] * 3
    finally:
        assert again.store is not None
        again.store.close()
