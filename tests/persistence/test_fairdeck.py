"""The fair deck across the database and real restarts (docs/fairness.md).

- A bot tournament on a server with a real SQLite file ends with ``hickory-server verify``
  passing on every hand of the file and ``hickory verify`` passing on one bot's record
  (both run as the commands people run), with the same chain value; a hand changed or
  removed in a copy of the file, and a card changed in a copy of the record, are caught
  and named.
- A real server process killed with SIGKILL after a commitment was sent (before the deal)
  sends the same commitment again after the restart, and one killed in the middle of a
  hand resumes it from the deck it committed to: every player's own check passes on every
  hand, the resumed one included.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

import protocol.messages as m
from client.bot import Bot
from client.deckfile import main_verify
from server.app import open_server
from server.verify import run_verify
from tests.persistence.harness import REPO, ServerProcess
from tests.server.harness import fast_config, running
from tests.server.rawclient import RawClient


def run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=120)


async def play_tournament(tmp_path: Path) -> tuple[Path, Path, str, int]:
    """A six-bot tournament on a database; (db, the winner's record, chain, hands dealt)."""
    db = tmp_path / "t.db"
    cfg = fast_config(6, seats=4, db=db, synchronous="normal")
    server = open_server(cfg)
    assert server.store is not None
    try:
        with trio.fail_after(120):
            async with running(cfg, server=server, seed=3) as (_, port):
                bots = [Bot("127.0.0.1", port, f"b{i}", "random" if i % 2 else "calling-station", seed=i,
                            deck_record=tmp_path / f"b{i}.jsonl") for i in range(6)]
                async with trio.open_nursery() as n:
                    for b in bots:
                        n.start_soon(b.run)
    finally:
        server.store.close()
    assert server.tournament.finished
    winner = next(b for b in bots if b.place == 1)
    return db, tmp_path / f"{winner.name}.jsonl", server.fair.chain.hex(), server.tournament.hands_dealt


async def test_a_bot_tournament_verifies_from_the_servers_file_and_a_players_record(tmp_path: Path) -> None:
    db, record, chain, hands = await play_tournament(tmp_path)
    host = run_tool("-m", "server", "verify", "--db", str(db))
    assert host.returncode == 0, host.stdout + host.stderr
    assert f"every deck verified ({hands} hands); chain {chain}" in host.stdout
    assert host.stdout.count("ok   hand #") == hands
    assert "ok   the seat draw" in host.stdout
    player = run_tool("-m", "client.cli", "verify", str(record))
    assert player.returncode == 0, player.stdout + player.stderr
    assert "every deck verified" in player.stdout and chain in player.stdout
    dealt_to_winner = record.read_text().count('"type":"seeds_received","draw":"deck"')
    assert player.stdout.count("ok   hand #") == dealt_to_winner > 0
    assert "FAIL" not in player.stdout


def _copy(db: Path, tmp_path: Path, name: str) -> Path:
    copy = tmp_path / name
    shutil.copy(db, copy)
    return copy


def _host_verdict(db: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    import argparse

    code = run_verify(argparse.Namespace(db=db, quiet=True))
    return code, capsys.readouterr().out


async def test_a_hand_changed_or_removed_in_the_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, record, _, _ = await play_tournament(tmp_path)

    # A bet changed: the deck still checks out, the chain breaks at that hand.
    changed = _copy(db, tmp_path, "changed.db")
    with sqlite3.connect(changed) as conn:
        hand_no, idx, event = conn.execute(
            "SELECT hand_no, idx, event FROM hand_events WHERE hand_no=3 AND event LIKE '%ActionTaken%' "
            "ORDER BY idx LIMIT 1").fetchone()
        data = json.loads(event)
        data["amount"] += 1
        conn.execute("UPDATE hand_events SET event=? WHERE hand_no=? AND idx=?", (json.dumps(data), hand_no, idx))
    code, out = _host_verdict(changed, capsys)
    assert code == 1
    assert "FAIL hand #3 " in out and "hash chain breaks here" in out

    # A hole card changed: the deck check names the seat.
    dealt = _copy(db, tmp_path, "dealt.db")
    with sqlite3.connect(dealt) as conn:
        idx, event = conn.execute("SELECT idx, event FROM hand_events WHERE hand_no=4 AND event LIKE "
                                  "'%HoleCardsDealt%' ORDER BY idx LIMIT 1").fetchone()
        data = json.loads(event)
        data["cards"] = ["As", "Ad"] if data["cards"] != ["As", "Ad"] else ["Ks", "Kd"]
        conn.execute("UPDATE hand_events SET event=? WHERE hand_no=4 AND idx=?", (json.dumps(data), idx))
    code, out = _host_verdict(dealt, capsys)
    assert code == 1 and "FAIL hand #4 (table" in out and f"seat {data['seat']} was dealt" in out

    # A hand removed.
    removed = _copy(db, tmp_path, "removed.db")
    with sqlite3.connect(removed) as conn:
        conn.execute("DELETE FROM hand_events WHERE hand_no=5")
        conn.execute("DELETE FROM hands WHERE hand_no=5")
    code, out = _host_verdict(removed, capsys)
    assert code == 1 and "FAIL hand #5 " in out

    # The untouched file passes (the checks above failed for the changes alone).
    code, out = _host_verdict(db, capsys)
    assert code == 0, out

    # The player's record: a hole card changed is named; no reveal means nothing to check.
    lines = record.read_text().splitlines()
    target = next(i for i, line in enumerate(lines) if '"hole_cards"' in line)
    entry = json.loads(lines[target])
    entry["in"]["cards"] = ["2c", "2d"] if entry["in"]["cards"] != ["2c", "2d"] else ["3c", "3d"]
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join([*lines[:target], json.dumps(entry), *lines[target + 1:]]) + "\n")
    assert main_verify(["--quiet", str(forged)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL hand #{entry['in']['hand_no']} " in out and "your hole cards were" in out
    unrevealed = tmp_path / "unrevealed.jsonl"
    unrevealed.write_text("\n".join(line for line in lines if '"reveal"' not in line) + "\n")
    assert main_verify([str(unrevealed)]) == 2
    assert "no reveal yet" in capsys.readouterr().out


# --- real kills -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


TARGET = ("deck", 1, 2)  # the draw killed between its commitment and its deal


async def holdout(port_of: Any, up: Any, killed_commit: list[str], kill: Any, finished: trio.Event) -> None:
    """A version 2 player on a raw connection that plays check/call and seeds every draw,
    except that it withholds its seed for TARGET the first time and has the server killed
    while the server waits for it; then it resumes with its token after each restart."""
    token: str | None = None
    while not finished.is_set():
        await up().wait()
        try:
            c = await RawClient.connect(port_of())
        except OSError:
            await trio.sleep(0.05)
            continue
        try:
            if token is None:
                token = (await c.join("holdout", version=2)).token
            else:
                await c.recv_until(m.Hello)
                await c.send(m.Resume(version=2, token=token))
            while True:
                msg = await c.recv()
                if isinstance(msg, m.DeckCommit):
                    if (msg.draw, msg.table, msg.number) == TARGET and not killed_commit:
                        killed_commit.append(msg.commit)
                        kill()
                        continue
                    await c.send(m.ClientSeed(draw=msg.draw, table=msg.table, number=msg.number,
                                              commit=msg.commit, seed="5e" * 16))
                elif isinstance(msg, m.YourTurn):
                    await c.send(m.Act(hand_no=msg.hand_no, action="check" if msg.legal.check else "call"))
                elif isinstance(msg, m.ServerPing):
                    await c.send(m.Pong(nonce=msg.nonce))
                elif isinstance(msg, m.PlayerStatus) and msg.name == "holdout" and msg.status == "sitting_out":
                    await c.send(m.ImBack())
                elif isinstance(msg, m.TournamentFinished) or (
                        isinstance(msg, m.PlayerStatus) and msg.name == "holdout" and msg.status == "eliminated"):
                    return
        except (EOFError, OSError, trio.BrokenResourceError):
            pass
        finally:
            with trio.CancelScope(shield=True):
                await c.aclose()


async def test_restarts_keep_the_committed_deck(tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess(tmp_path, [
        "--port", str(port), "--start-at", "4", "--no-deadline", "--seats", "4", "--hands-per-level", "3",
        "--starting-stack", "1000", "--schedule", "10/20,20/40,40/80,80/160,150/300,300/600,600/1200",
        "--seed-window", "20", "--action-clock", "3", "--time-bank", "1",
        "--synchronous", "normal",
    ])
    kills: list[str] = []  # what was happening at each kill
    restarts, restart_requests = trio.open_memory_channel[None](10)
    mid_hand: dict[str, Any] = {}

    def kill(why: str) -> None:
        if server.proc is not None and server.proc.poll() is None and server.up.is_set():
            kills.append(why)
            server.signal(signal.SIGKILL)
            restarts.send_nowait(None)

    def watch(bot: Bot, msg: m.ServerMessage, now: float) -> None:
        # The second kill: in the middle of a hand, once the first restart is behind us.
        if isinstance(msg, m.HoleCards) and len(kills) == 1 and msg.hand_no >= 4 and "hand" not in mid_hand:
            mid_hand.update(hand=msg.hand_no, bot=bot.name, cards=msg.cards)
            kill(f"hand #{msg.hand_no} dealt")

    async def restarter() -> None:
        async for _ in restart_requests:
            await server.wait_exit()
            await server.start()

    killed_commit: list[str] = []
    finished = trio.Event()
    try:
        with trio.fail_after(240):
            await server.start()
            bots = [
                Bot("127.0.0.1", port, f"b{i}", "calling-station", seed=i, think=0.02,
                    deck_record=tmp_path / f"b{i}.jsonl", token_file=tmp_path / f"b{i}.token",
                    on_message=lambda msg, now, i=i: watch(bots[i], msg, now), backoff_max=1.0)
                for i in range(3)
            ]
            async with trio.open_nursery() as n:
                n.start_soon(restarter)
                n.start_soon(holdout, lambda: port, lambda: server.up, killed_commit,
                             lambda: kill("committed, not dealt"), finished)
                async with trio.open_nursery() as players:
                    for b in bots:
                        players.start_soon(b.run)
                finished.set()
                n.cancel_scope.cancel()
    finally:
        server.stop()
    assert kills == ["committed, not dealt", f"hand #{mid_hand.get('hand')} dealt"], (kills, mid_hand)
    for b in bots:
        assert b.decks is not None and b.decks.report is not None, b.name
        report = b.decks.report
        assert report.revealed and not report.failed, [c.line() for c in report.failed]
        # The commitment sent before the first kill is the one dealt after the restart
        # (the reveal names what was dealt; a second commitment seen would have failed).
        assert b.decks.revealed[TARGET].commit == killed_commit[0]
    # The hand killed mid-play was resumed from its committed deck: its player's check
    # covers the hole cards seen before the kill and the board seen after.
    killed_bot = next(b for b in bots if b.name == mid_hand["bot"])
    assert killed_bot.decks is not None and killed_bot.decks.report is not None
    check = next(c for c in killed_bot.decks.report.checks if c.hand_no == mid_hand["hand"])
    assert check.status == "ok" and "your cards" in check.detail, check.line()
    with sqlite3.connect(server.db) as conn:
        logged = [json.loads(p) for kind, p in conn.execute("SELECT kind, payload FROM inputs") if kind == "deck_commit"]
        dealt = [json.loads(p)["draw"] for kind, p, t in conn.execute("SELECT kind, payload, table_id FROM inputs")
                 if kind == "begin_hand" and t == TARGET[1] and json.loads(p)["draw"]["number"] == TARGET[2]]
    assert [c["commit"] for c in logged if (c["draw"], c["table"], c["number"]) == TARGET] == killed_commit
    assert [d["commit"] for d in dealt] == killed_commit
    host = run_tool("-m", "server", "verify", "--db", str(server.db))
    assert host.returncode == 0, host.stdout + host.stderr
