"""One bad director input can no longer end a tournament for good (issue 12, defect 1).

An older server accepted ``set_level 99`` (and logged it) and then could not encode the
blinds: restarted on the same database it answered every handshake with ``internal``. Here a
real server process plays a few hands, is killed, and the log gets the bad inputs an old
server would have written; a new server process starts on it, sets them aside (reported in
its log, kept in the audit, announced), the bots resume and the tournament plays on to its
end. ``replay_all`` is also checked directly: an input failing half-way is replayed around.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import trio

import protocol.messages as m
from server.app import open_server
from server.config import ServerConfig
from tests.persistence.harness import REPO, Bot, ServerProcess, check_chips, db_server

ARGS = ["--start-at", "3", "--no-deadline", "--seats", "3", "--hands-per-level", "3",
        "--schedule", "10/20,20/40,50/100,100/200,200/400,500/1000", "--action-clock", "5",
        "--time-bank", "1", "--starting-stack", "1500"]


async def wait_until(cond, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    with trio.move_on_after(timeout) as scope:
        while not cond():
            await trio.sleep(0.05)
    assert not scope.cancelled_caught, f"timed out waiting for {what}"


def append_as_an_old_server(db: Path, payloads: list[dict[str, object]]) -> list[int]:
    """Log director operations as a server without the checks did: the input row (what
    the replay reads) and the audit row; returns their log numbers."""
    conn = sqlite3.connect(db)
    try:
        last_now = max(json.loads(p).get("now", 0.0) or 0.0 for (p,) in conn.execute("SELECT payload FROM inputs"))
        seqs = []
        for payload in payloads:
            cur = conn.execute("INSERT INTO inputs (kind, table_id, payload) VALUES ('director', NULL, ?)",
                               (json.dumps({"now": last_now, "reason": "catch up", **payload}),))
            seqs.append(int(cur.lastrowid or 0))
            conn.execute("INSERT INTO audit (at, action, reason, detail) VALUES ('2024-05-04T21:00:00', ?, "
                         "'catch up', 'as an old server wrote it')", (payload["op"],))
        conn.commit()
        return seqs
    finally:
        conn.close()


async def test_a_server_restarted_on_a_log_with_a_bad_director_input_starts_reports_and_plays_on(tmp_path):
    server = ServerProcess(tmp_path, ARGS)
    bots = [Bot(f"p{i}", server, seed=40 + i, shove=0.02, raise_cap=2) for i in range(3)]
    await server.start()
    try:
        async with trio.open_nursery() as nursery:
            for bot in bots:
                nursery.start_soon(bot.run)
            await wait_until(lambda: db_server(server.db).tournament.hands_dealt >= 2, 60, "two hands")
            server.signal(signal.SIGKILL)
            await server.wait_exit()
            before = db_server(server.db).tournament
            level, hands = before.level, before.hands_dealt
            seqs = append_as_an_old_server(server.db, [
                {"op": "set_level", "level": 99},
                {"op": "set_options", "options": {"action_clock": -30}},
                {"op": "set_schedule", "schedule": [[1, 2**60]]},
            ])
            sessions = {b.name: b.sessions for b in bots}
            await server.start()  # it starts: the port file is written and it listens
            await wait_until(lambda: all(b.sessions > sessions[b.name] for b in bots), 30, "every bot to resume")
            await wait_until(lambda: all(b.finished for b in bots), 120, "the tournament to finish")
            server.signal(signal.SIGTERM)
            assert await server.wait_exit() == 0, server.last_log()
            nursery.cancel_scope.cancel()
    finally:
        server.stop()

    # Reported to the host, in the server's log...
    log = server.last_log()
    assert f"set aside log entry {seqs[0]} (director set_level): level 99 does not exist: the schedule has 6 levels" \
        in log, log
    assert f"log entry {seqs[1]} (director set_options): action_clock is from 1 to 3600 seconds" in log, log
    assert f"log entry {seqs[2]} (director set_schedule): level 1 (1/{2**60})" in log, log
    # ... and to the players, who resumed without an error and played to the end.
    assert all(not b.errors for b in bots), [b.errors for b in bots]
    heard = [x.text for b in bots for x in b.received if isinstance(x, m.Announcement)]
    assert any("3 input(s) from before the restart could not be replayed and were set aside" in t for t in heard)
    # Kept in the database: the audit shows it, the standings tool lists it.
    conn = sqlite3.connect(server.db)
    audit = [d for (d,) in conn.execute("SELECT detail FROM audit WHERE action='set_aside' ORDER BY id")]
    conn.close()
    assert [d.split(" (")[0] for d in audit] == [f"log entry {s}" for s in seqs]
    final = db_server(server.db)
    assert final.tournament.finished and final.tournament.hands_dealt > hands
    check_chips(final)
    assert max(level, 1) <= final.tournament.level <= 10
    out = subprocess.run([sys.executable, "-m", "server", "standings", "--db", str(server.db)],
                         cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Set aside (could not be replayed" in out.stdout and f"log entry {seqs[0]}" in out.stdout


def _config(db: Path) -> ServerConfig:
    return ServerConfig(db=db, port=0, host="127.0.0.1", start_at=3, no_deadline=True, seats=3, hand_pause=0.0)


def test_an_input_that_fails_half_way_is_replayed_around_and_skipped_for_good(tmp_path, monkeypatch, caplog):
    """Not a clean refusal: the operation changed the tournament, then failed. The replay
    starts again without it, so nothing of it is left; and later starts skip it unasked."""
    db = tmp_path / "half.db"
    server = open_server(_config(db))
    assert server.store is not None
    server.store.close()
    conn = sqlite3.connect(db)
    for i in range(3):
        conn.execute("INSERT INTO inputs (kind, table_id, payload) VALUES ('register', NULL, ?)",
                     (json.dumps({"player_id": f"{i + 1}", "name": f"n{i}"}),))
    conn.execute("INSERT INTO inputs (kind, table_id, payload) VALUES ('start', NULL, ?)",
                 (json.dumps({"now": 1.0, "deadline": None}),))
    conn.execute("INSERT INTO inputs (kind, table_id, payload) VALUES ('director', NULL, ?)",
                 (json.dumps({"op": "adjust_chips", "now": 2.0, "reason": "x", "player_id": "1", "delta": 5}),))
    conn.execute("INSERT INTO inputs (kind, table_id, payload) VALUES ('director', NULL, ?)",
                 (json.dumps({"op": "pause", "now": 3.0, "reason": "break"}),))
    conn.commit()
    conn.close()

    from server.tournament.director import Director

    real = Director.correct_chips

    def half_way(self, now, player_id, delta, *, reason):  # type: ignore[no-untyped-def]
        self._t.adjustment -= 1000  # changed something...
        raise RuntimeError("disk on fire")  # ... then failed: not a TournamentError

    monkeypatch.setattr(Director, "correct_chips", half_way)
    caplog.set_level("ERROR", logger="hickory.recovery")
    server = open_server(_config(db))
    assert ("replay: log entry 5 (director adjust_chips): RuntimeError: disk on fire; starting the replay "
            "again without it") in caplog.messages
    t = server.tournament
    assert t.adjustment == 0 and t.total_chips() == t.chips_issued  # nothing of it is left
    assert t.paused  # the inputs after it replayed
    assert any("RuntimeError: disk on fire" in a for a in server.pending_announcements)
    assert server.store is not None
    server.store.close()

    monkeypatch.setattr(Director, "correct_chips", real)  # a newer server would accept it: still skipped
    server = open_server(_config(db))
    assert server.tournament.adjustment == 0 and server.pending_announcements == []
    assert server.store is not None
    server.store.close()


def test_restart_notices_are_summed_up_past_a_few() -> None:
    from server.recovery import condensed

    assert condensed(["a", "b"]) == ["a", "b"]
    assert condensed(["a", "b", "c", "d"]) == ["a", "b", "c", "d"]  # up to the limit, each
    texts = [f"Hand #{i} was voided" for i in range(10)]
    assert condensed(texts) == [*texts[:3], "... and 7 more notices like these (the host's log has each)."]


def _log_inputs(db: Path, rows: list[tuple[str, int | None, dict[str, object]]]) -> None:
    conn = sqlite3.connect(db)
    for kind, table_id, payload in rows:
        conn.execute("INSERT INTO inputs (kind, table_id, payload) VALUES (?, ?, ?)",
                     (kind, table_id, json.dumps(payload)))
    conn.commit()
    conn.close()


def test_each_input_set_aside_is_named_for_the_host_and_the_players(tmp_path, caplog):
    """What the host and the players read about entries set aside: which entry, what it
    was (a director's operation, a deal or a hand's end at a table, an action, another
    input) and why; the players' notice names the first three and counts the rest."""
    db = tmp_path / "named.db"
    server = open_server(_config(db))
    assert server.store is not None
    server.store.close()
    _log_inputs(db, [
        *[("register", None, {"player_id": f"{i + 1}", "name": f"n{i}"}) for i in range(3)],
        ("start", None, {"now": 1.0, "deadline": None}),
        ("director", None, {"op": "set_level", "now": 2.0, "reason": "x", "level": 99}),  # 5
        ("director", None, {"now": 2.0, "reason": "x"}),  # 6: no operation named
        ("begin_hand", 9, {"now": 3.0}),  # 7
        ("end_hand", 8, {"now": 3.0}),  # 8
        ("act", 7, {"now": 3.0, "seat": 1, "kind": "fold"}),  # 9
        ("tick", None, {}),  # 10
    ])
    caplog.set_level("ERROR", logger="hickory.recovery")
    server = open_server(_config(db))
    assert server.store is not None
    server.store.close()
    level = "level 99 does not exist: the schedule has 15 levels (change the schedule to add levels)"
    director = "unknown director operation None (known: "
    texts = [
        f"log entry 5 (director set_level): {level}",
        "log entry 6 (director ?): " + director,
        "log entry 7 (a deal at table 9): a deal has no deck",
        "log entry 8 (the end of a hand at table 8): there is no table 8 (tables: 1)",
        "log entry 9 (an action at table 7): there is no such table",
        "log entry 10 (tick): a tick has no now",
    ]
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("set aside ")]
    assert len(logged) == 6 and all(got.startswith(f"set aside {want}") for got, want in zip(logged, texts, strict=True))
    [notice] = server.pending_announcements
    assert notice.startswith("6 input(s) from before the restart could not be replayed and were set aside "
                             f"(kept in the audit log): {texts[0]}; {texts[1]}")
    assert notice.endswith("); log entry 7 (a deal at table 9): a deal has no deck; and 3 more")
    conn = sqlite3.connect(db)
    audit = conn.execute("SELECT action, reason, detail FROM audit WHERE action='set_aside' ORDER BY id").fetchall()
    conn.close()
    assert [(a, r) for a, r, _ in audit] == [("set_aside", "could not be replayed at start-up")] * 6
    assert all(d.startswith(want) for (_, _, d), want in zip(audit, texts, strict=True))

    # Three or fewer are all named, and the notice goes first, before any other.
    from server.recovery import SetAside, report_set_aside

    report_set_aside(server, [SetAside(seq=11, kind="tick", what="tick", error="a tick has no now")])
    assert server.pending_announcements == [
        "1 input(s) from before the restart could not be replayed and were set aside (kept in the audit log): "
        "log entry 11 (tick): a tick has no now", notice]
    for n, end in ((3, "log entry 3 (tick): e"), (4, "log entry 3 (tick): e; and 1 more")):
        server.pending_announcements = []
        report_set_aside(server, [SetAside(seq=i, kind="tick", what="tick", error="e") for i in range(1, n + 1)])
        assert server.pending_announcements[0].endswith(f"(kept in the audit log): log entry 1 (tick): e; "
                                                        f"log entry 2 (tick): e; {end}")
