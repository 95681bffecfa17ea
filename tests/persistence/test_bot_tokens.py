"""The built-in bots keep their seats across a crash during registration (issue 23, defect 4).

A bot chose its session token in memory, sent it with its join, and wrote it to its token
file only once welcomed: a server killed right after storing the join took the bot process
with it (the bots end with the server) before the file was written, so the restarted
server's bots were refused ("the name 'bot-1' is taken", or "registration is closed" after
the start) and their seats stayed empty all night. Now the token is on disk before the join
leaves. The first test makes the crash happen exactly there; the second kills a real server
process with its built-in bots and restarts it.
"""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import trio

import protocol.messages as m
from client.bot import Bot
from server.app import open_server
from server.rows import Record
from tests.server.harness import fast_config, running
from tests.server.rawclient import RawClient
from tests.server.test_processes import server_process, stderr_of


async def wait_until(cond: object, timeout: float, what: str) -> None:
    assert callable(cond)
    with trio.move_on_after(timeout) as scope:
        while not cond():
            await trio.sleep(0.02)
    assert not scope.cancelled_caught, f"timed out waiting for {what}"


async def test_a_bot_gone_right_after_its_join_was_stored_resumes_its_seat_after_the_restart(
    tmp_path: Path,
) -> None:
    cfg = fast_config(3, db=tmp_path / "t.db")
    token_file = tmp_path / "t.db.bots" / "bot-1.token"
    token_file.parent.mkdir()
    server = open_server(cfg)
    try:
        async with running(cfg, server=server) as (_, port):
            bot = Bot("127.0.0.1", port, "bot-1", "calling-station", seed=1, token_file=token_file)
            assert token_file.exists(), "the token must be on disk before the join is sent"
            stored = server.journal.commit

            with trio.CancelScope() as gone:
                async def commit(records: list[Record]) -> None:
                    await stored(records)
                    if any(r.params and r.params[0] == "register" for r in records):
                        gone.cancel()  # the bot dies with the server: no welcome reaches it

                server.journal.commit = commit  # type: ignore[method-assign]
                await bot.run()
            assert gone.cancelled_caught and server.players["1"].name == "bot-1"
    finally:
        assert server.store is not None
        server.store.close()

    again = open_server(cfg)
    try:
        async with running(cfg, server=again) as (_, port):
            back = Bot("127.0.0.1", port, "bot-1", "calling-station", seed=1, token_file=token_file)
            async with trio.open_nursery() as n:
                n.start_soon(back.run)
                await wait_until(lambda: back.model.me.player_id is not None or back.refused is not None,
                                 20, "the bot's welcome")
                n.cancel_scope.cancel()
            assert back.refused is None, back.refused
            assert (back.model.me.player_id, back.model.me.name) == (1, "bot-1")
            assert len(again.players) == 1  # the same entrant, not a second one
    finally:
        assert again.store is not None
        again.store.close()


def registered(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return int(conn.execute("SELECT count(*) FROM players").fetchone()[0])
    except sqlite3.Error:
        return 0


async def test_built_in_bots_killed_during_registration_play_after_the_restart(tmp_path: Path) -> None:
    """kill -9 the moment the bots' joins are stored; the restarted server's bots resume
    their seats, the tournament starts with a third player and the bots act themselves."""
    db = tmp_path / "t.db"
    args = ["--db", str(db), "--bots", "2", "--start-at", "3", "--hand-pause", "0", "--action-clock", "5"]
    async with server_process(tmp_path, *args) as (proc, _port, _):
        with trio.fail_after(30):
            while registered(db) < 2:
                await trio.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    async with server_process(tmp_path, *args) as (proc, port, _):
        with trio.fail_after(60):
            human = await RawClient.connect(port)
            await human.join("carol", version=2)
            acted: set[int] = set()
            while len(acted) < 2:
                msg = await human.recv()
                if isinstance(msg, m.YourTurn):
                    await human.send(m.Act(hand_no=msg.hand_no, action="check" if msg.legal.check else "call"))
                elif isinstance(msg, m.Action) and not msg.automatic and msg.seat != human_seat(human):
                    acted.add(msg.seat)
            await human.aclose()
        err = stderr_of(proc)
    assert "bots stopped" not in err and "refused" not in err and "Traceback" not in err, err


def human_seat(c: RawClient) -> int | None:
    for msg in reversed(c.received):
        if isinstance(msg, m.TableSnapshot):
            return msg.your_seat
    return None
