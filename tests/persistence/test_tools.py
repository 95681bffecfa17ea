"""``hickory-server history`` and ``standings`` on a finished tournament's database, and the
tournament clock across a restart."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest
import trio

from server import cli
from server.app import open_server
from server.config import ServerConfig
from server.rows import parse_payload
from tests.persistence.harness import Bot, db_server


async def _tournament(db: Path, *, until_finished: bool) -> float:
    """Play with three bots; returns the tournament time when the server stopped."""
    config = ServerConfig(
        db=db, port=0, host="127.0.0.1", start_at=3, no_deadline=True, seats=3, hand_pause=0.0,
        starting_stack=1000, schedule=((10, 20), (25, 50), (50, 100), (100, 200), (200, 400), (400, 800)),
        level_minutes=10.0 if not until_finished else 1.0, hands_per_level=None if not until_finished else 3,
        action_clock=5, time_bank=1,
    )
    server = open_server(config)
    fake = SimpleNamespace(up=trio.Event(), port=None, generation=1)
    bots = [Bot(name, fake, seed=i, think=0.001, shove=0.03 if until_finished else 0, raise_cap=3)  # type: ignore[arg-type]
            for i, name in enumerate(("Alice", "Bob", "Carol"))]
    async with trio.open_nursery() as nursery:
        fake.port = await nursery.start(server.run)
        fake.up.set()
        for bot in bots:
            nursery.start_soon(bot.run)
        with trio.fail_after(120):
            if until_finished:
                while not server.tournament.finished:
                    await trio.sleep(0.02)
            else:
                while server.tournament.hands_dealt < 2:
                    await trio.sleep(0.02)
        stopped_at = server.now()
        nursery.cancel_scope.cancel()
    assert server.store is not None
    server.store.close()
    return stopped_at


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    db = tmp_path_factory.mktemp("tools") / "night.db"
    trio.run(lambda: _tournament(db, until_finished=True))
    return db


def test_standings_text_and_json(finished, capsys):
    assert cli.main(["standings", "--db", str(finished)]) == 0
    out = capsys.readouterr().out
    assert "finished, 3 players, 1 left" in out and "(ok)" in out and "out in hand #" in out
    assert cli.main(["standings", "--db", str(finished), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["state"] == "finished" and data["chips_in_play"] == data["chips_issued"] == 3000
    places = sorted(p["place"] for p in data["places"])
    assert places[0] == 1 and places[1:] in ([2, 3], [2, 2])  # two busts in one hand may share
    assert data["places"][0]["chips"] == 3000


def test_history_json_is_the_stored_events(finished, capsys):
    assert cli.main(["history", "--db", str(finished), "--format", "json"]) == 0
    hands = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [h["hand_no"] for h in hands] == list(range(1, len(hands) + 1))
    for h in hands:
        assert h["status"] == "finished"
        types = [e["type"] for e in h["events"]]
        assert types[0] == "HandStarted" and types[-1] in ("HandEnded", "HandShown")
        dealt = [e for e in h["events"] if e["type"] == "HoleCardsDealt"]
        assert dealt and all(len(e["cards"]) == 2 for e in dealt)  # the host's full record


def test_history_for_a_player_shows_only_their_cards_and_shown_ones(finished, capsys):
    assert cli.main(["history", "--db", str(finished), "--format", "json", "--player", "alice"]) == 0
    hands = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert hands
    for h in hands:
        seat = next(int(s) for s, p in h["players"].items() if p["name"] == "Alice")
        shown = {e["seat"] for e in h["events"] if e["type"] == "HandShown"}
        for e in h["events"]:
            if e["type"] == "HoleCardsDealt":
                assert (e["cards"] is not None) == (e["seat"] == seat or e["seat"] in shown), (h["hand_no"], e)
    # The same in text: no hole card of another player unless shown.
    assert cli.main(["history", "--db", str(finished), "--player", "Alice"]) == 0
    text = capsys.readouterr().out
    assert "Dealt to Alice" in text
    for block in text.split("\n\n"):
        for line in block.splitlines():
            if line.startswith("Dealt to ") and not line.startswith("Dealt to Alice"):
                who = line.split()[2]
                assert f"{who} shows" in block, line


def test_history_text_phh_one_hand_and_misses(finished, capsys, tmp_path):
    assert cli.main(["history", "--db", str(finished), "--hand", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Hickory Poker Showdown: Hand #1 at table 1") and "*** Summary ***" in text
    out = tmp_path / "one.phh"
    assert cli.main(["history", "--db", str(finished), "--hand", "1", "--format", "phh", "-o", str(out)]) == 0
    assert 'variant = "NT"' in out.read_text() and "hand = 1" in out.read_text()
    assert cli.main(["history", "--db", str(finished), "--hand", "9999"]) == 1
    assert "no finished hand #9999" in capsys.readouterr().err
    assert cli.main(["history", "--db", str(finished), "--player", "Nobody"]) == 1
    assert "no finished hand with a player named 'Nobody'" in capsys.readouterr().err


def last_logged_time(db: Path) -> float:
    """The latest tournament time the database holds, read straight from the file: the
    largest ``now`` of any input, or the saved clock if later."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        times = [parse_payload(text).get("now") for (text,) in conn.execute("SELECT payload FROM inputs")]
        row = conn.execute("SELECT value FROM meta WHERE key = 'clock'").fetchone()
    finally:
        conn.close()
    logged = [float(t) for t in times if t is not None]
    if row is not None:
        logged.append(float(row[0]))
    return max(logged)


async def test_the_clock_does_not_run_while_the_server_is_down(tmp_path):
    """No sleeping and no "about so many seconds": tournament time after a restart is, to
    the bit, the last time the log holds, and the restarted server's clock starts there,
    however long it was down (here the replays below; a clock that counted the downtime
    would start later by exactly that much)."""
    db = tmp_path / "clock.db"
    await _tournament(db, until_finished=False)
    logged = last_logged_time(db)
    assert logged > 0
    before = db_server(db).tournament.level_info(logged)
    assert before.seconds_left is not None
    restarted = open_server(ServerConfig(db=db, port=0, host="127.0.0.1", hand_pause=0.0))
    try:
        assert restarted.resume_at == logged
        async with trio.open_nursery() as nursery:
            t0 = trio.current_time()
            await nursery.start(restarted.run)
            t1 = trio.current_time()
            now, t2 = restarted.now(), trio.current_time()
            # The clock began at ``logged`` somewhere between t0 and t1 and runs at one
            # second a second: at t0 it read at most ``logged`` and at least ``logged``
            # minus the start-up itself. Downtime counted would put it above.
            at_t0 = now - (t2 - t0)
            assert logged - (t1 - t0) - 1e-6 <= at_t0 <= logged + 1e-6, (at_t0, logged)
            after = restarted.tournament.level_info(at_t0)
            nursery.cancel_scope.cancel()
        assert after.level == before.level
        assert after.seconds_left is not None
        assert before.seconds_left - 1e-6 <= after.seconds_left <= before.seconds_left + (t1 - t0) + 1e-6
    finally:
        assert restarted.store is not None
        restarted.store.close()
