"""A database that fails while the game runs (here a real SQLITE_FULL: the file may not grow)
pauses the game with an announcement; nothing a client sees is missing from the database,
and a restart on the same file resumes from the last stored action."""

from __future__ import annotations

from types import SimpleNamespace

import trio
import trio.testing

import protocol.messages as m
from server.app import open_server
from server.config import ServerConfig
from server.rows import Record
from tests.persistence.harness import Bot, check_against_db, check_chips, check_hands, db_server
from tests.server.rawclient import RawClient

HAND_EVENTS = (m.HandStarted, m.BlindPosted, m.HoleCards, m.Action, m.Board, m.Showdown,
               m.PotAwarded, m.HandEnded, m.YourTurn)


async def test_a_full_disk_pauses_the_game_and_nothing_runs_ahead_of_the_database(tmp_path):
    config = ServerConfig(
        db=tmp_path / "full.db", port=0, host="127.0.0.1", start_at=3, no_deadline=True, seats=3,
        hands_per_level=1000, starting_stack=100_000, schedule=((10, 20),), action_clock=5, time_bank=1,
        hand_pause=0.0,
    )
    server = open_server(config)
    fake = SimpleNamespace(up=trio.Event(), port=None, generation=1)
    # Deep stacks, tiny blinds and small raises: nobody busts before the disk fills up.
    bots = [Bot(f"p{i}", fake, seed=i, think=0.002, shove=0, raise_cap=2)  # type: ignore[arg-type]
            for i in range(3)]
    async with trio.open_nursery() as nursery:
        fake.port = await nursery.start(server.run)
        fake.up.set()
        for bot in bots:
            nursery.start_soon(bot.run)
        with trio.fail_after(60):
            while server.tournament.hands_dealt < 3:
                await trio.sleep(0.01)
        assert server.store is not None
        # From now on the file may not grow: the next commits fail with "database or disk is full".
        server.store.submit([Record(sql="PRAGMA max_page_count=1", params=())])
        with trio.fail_after(60):
            while not all(any(isinstance(x, m.Announcement) and "paused" in x.text for x in b.received)
                          for b in bots):
                await trio.sleep(0.01)
        assert server.paused_for_store is not None and "full" in server.paused_for_store
        hands_then = server.tournament.hands_dealt
        inputs_then = sum(1 for _ in server.store.iter_inputs())
        # The game stays paused: shown by state once the event loop has nothing left to
        # run, not by time passing. A store that has failed refuses every write at once (no
        # commit is left in its thread), so "every task blocked" means every table has
        # stopped where it is and every line sent has been read by the bots. The wait is
        # bounded: a game that runs on never goes idle, and the checks below then fail on
        # what it sent.
        with trio.move_on_after(10):
            await trio.testing.wait_all_tasks_blocked(cushion=0.05)
        # And the server is alive, not stuck: a new connection is answered (a spectator's
        # welcome, a pong, the lobby), then the loop goes idle again.
        probe = await RawClient.connect(fake.port)
        with trio.fail_after(30):
            await probe.spectate()
            await probe.send(m.Ping(id=1, nonce="paused?"))
            pong = await probe.recv_until(m.ServerPong)
            assert pong.nonce == "paused?"
            await probe.send(m.LobbyRequest(id=2))
            lobby = await probe.recv_until(m.Lobby)
            assert {p.name for p in lobby.players} == {b.name for b in bots}
        with trio.move_on_after(10):
            await trio.testing.wait_all_tasks_blocked(cushion=0.05)
        await probe.aclose()
        for bot in bots:
            at = next(i for i, x in enumerate(bot.received)
                      if isinstance(x, m.Announcement) and "paused" in x.text)
            after = [type(x).__name__ for x in bot.received[at:] if isinstance(x, HAND_EVENTS)]
            assert not after, f"{bot.name} saw play after the pause: {after}"
        assert server.tournament.hands_dealt == hands_then
        assert sum(1 for _ in server.store.iter_inputs()) == inputs_then, "an input was stored while paused"
        nursery.cancel_scope.cancel()
    server.store.close()

    # Everything the players saw is stored; the restart resumes from the last stored action.
    hands = check_hands(config.db, finished=False)
    check_against_db(config.db, bots, hands)
    state = db_server(config.db)
    check_chips(state)
    seen_last = max(h for b in bots for h in b.actions)
    assert state.tournament.hands_dealt >= seen_last
    restarted = open_server(config)
    try:
        check_chips(restarted)
        assert restarted.tournament.hands_dealt == state.tournament.hands_dealt
        table = restarted.tournament.table(1)
        assert (table.hand.hand_no if table.hand else None) == (
            state.tournament.table(1).hand.hand_no if state.tournament.table(1).hand else None)
    finally:
        assert restarted.store is not None
        restarted.store.close()
