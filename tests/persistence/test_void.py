"""A hand whose log cannot be replayed (a damaged row) is voided at start-up: every bet goes
back, the hand is marked voided and announced, play goes on with the next hand number, and
a second restart comes to the same state."""

from __future__ import annotations

import json
import sqlite3
from types import SimpleNamespace

import pytest
import trio

import protocol.messages as m
from server.app import open_server
from server.config import ServerConfig
from tests.persistence.harness import Bot, check_chips, play_in_process


def _config(db):
    return ServerConfig(
        db=db, port=0, host="127.0.0.1", start_at=3, no_deadline=True, seats=3, hand_pause=0.0,
        starting_stack=100_000, schedule=((10, 20),), hands_per_level=1000, action_clock=5, time_bank=1,
    )


def _in_a_hand_with_actions(server) -> bool:
    hand = server.tournament.table(1).hand if server.tournament.tables else None
    return (server.tournament.hands_dealt >= 3 and hand is not None and not hand.is_over
            and sum(1 for e in hand.events if type(e).__name__ == "ActionTaken") >= 2)


@pytest.mark.parametrize("damage", ["illegal action", "unreadable row"])
async def test_a_hand_that_cannot_be_resumed_is_voided_with_every_bet_returned(tmp_path, damage):
    db = tmp_path / "void.db"
    config = _config(db)
    fake = SimpleNamespace(up=trio.Event(), port=None, generation=0)
    bots = [Bot(f"p{i}", fake, seed=i, think=0, shove=0, raise_cap=2) for i in range(3)]  # type: ignore[arg-type]
    await play_in_process(config, bots, _in_a_hand_with_actions)

    # Damage the hand in progress: its last action becomes one the engine refuses.
    conn = sqlite3.connect(db)
    seq, payload = conn.execute("SELECT seq, payload FROM inputs WHERE kind='act' ORDER BY seq DESC LIMIT 1").fetchone()
    if damage == "illegal action":
        bad = json.dumps(json.loads(payload) | {"kind": "raise", "amount": 10**12})
    else:
        bad = payload[: len(payload) // 2]  # torn: not JSON any more
    conn.execute("UPDATE inputs SET payload=? WHERE seq=?", (bad, seq))
    hand_no, started = conn.execute(
        "SELECT hand_no, event FROM hand_events WHERE idx=0 ORDER BY hand_no DESC LIMIT 1").fetchone()
    conn.commit()
    conn.close()
    before_hand = dict((s, st) for s, st in json.loads(started)["stacks"])

    for _ in range(2):  # the same on every restart
        server = open_server(config)
        try:
            t = server.tournament
            table = t.table(1)
            assert table.hand is None and t.hands_dealt == hand_no
            assert {s: p.stack for s, p in table.seats.items()} == before_hand  # every bet returned
            check_chips(server)
            assert any(f"Hand #{hand_no}" in a and "voided" in a for a in server.pending_announcements)
        finally:
            assert server.store is not None
            server.store.close()
        conn = sqlite3.connect(db)
        assert conn.execute("SELECT status FROM hands WHERE hand_no=?", (hand_no,)).fetchone()[0] == "voided"
        conn.close()

    # Play goes on: the next hand has the next number, and the players hear why.
    await play_in_process(config, bots, lambda s: s.tournament.hands_dealt >= hand_no + 2)
    conn = sqlite3.connect(db)
    statuses = dict(conn.execute("SELECT hand_no, status FROM hands"))
    conn.close()
    assert statuses[hand_no] == "voided" and statuses[hand_no + 1] == "finished"
    assert sorted(statuses) == list(range(1, max(statuses) + 1))
    heard = [x.text for b in bots for x in b.received if isinstance(x, m.Announcement)]
    assert any(f"Hand #{hand_no}" in text and "voided" in text for text in heard), heard


async def test_a_damaged_entry_outside_a_hand_is_set_aside_and_the_tournament_goes_on(tmp_path):
    """A torn registration (a damaged disk) no longer stops every start-up (issue 12): the
    entry is set aside, reported and kept in the audit, and every restart skips it alike."""
    db = tmp_path / "damaged.db"
    config = _config(db)
    fake = SimpleNamespace(up=trio.Event(), port=None, generation=0)
    bots = [Bot(f"p{i}", fake, seed=i, think=0, shove=0, raise_cap=2) for i in range(3)]  # type: ignore[arg-type]
    await play_in_process(config, bots, lambda s: s.tournament.hands_dealt >= 2)
    conn = sqlite3.connect(db)
    seq = conn.execute("SELECT min(seq) FROM inputs WHERE kind='register'").fetchone()[0]
    conn.execute("UPDATE inputs SET payload='{\"player_id\":' WHERE seq=?", (seq,))
    conn.commit()
    conn.close()
    states = []
    for _ in range(2):
        server = open_server(config)
        try:
            t = server.tournament
            assert len(t.registered) == 2 and t.phase.value == "running"
            check_chips(server)
            states.append((t.hands_dealt, [(s.player_id, s.chips) for s in t.standings()]))
        finally:
            assert server.store is not None
            server.store.close()
    assert states[0] == states[1]
    conn = sqlite3.connect(db)
    aside = json.loads(conn.execute("SELECT value FROM meta WHERE key='set_aside'").fetchone()[0])
    audit = conn.execute("SELECT action, detail FROM audit WHERE action='set_aside'").fetchall()
    conn.close()
    assert list(aside) == [str(seq)] and "registration has no player_id" in aside[str(seq)]
    assert len(audit) == 1 and f"log entry {seq} (register)" in audit[0][1]  # recorded once
