"""The replay itself (``recovery.replay_log`` and ``replay_all``), on a real log.

A module fixture plays a real tournament in process (the server on SQLite, the plain-TCP
bots of ``harness.py``), stops it in the middle of a hand, marks that hand's deal as set
aside by an earlier start (the ``set_aside`` meta entry), and plays on: the log then holds
what a real one does after such a start, the abandoned hand's deal and actions followed by
the hand dealt again in its place. The tests replay that log, or a copy changed the way a
damaged disk would change it, and check what the replay makes of each entry: a deal set
aside takes its hand with it, a voided hand's later entries are passed over, the fair-deck
state and the clock are rebuilt, and ``replay_all`` watches only the replay it keeps.
"""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs
import pytest
import trio

from server.app import Server, open_server
from server.config import ServerConfig
from server.recovery import (
    SetAside,
    read_set_aside,
    replay_all,
    replay_log,
    stored_config,
)
from server.rows import parse_payload
from tests.persistence.harness import Bot, check_chips, play_in_process

Entry = tuple[int, str, "int | None", dict[str, Any]]
WALL = "2024-05-04T21:30:00+02:00"


def _config(db: Path | None) -> ServerConfig:
    return ServerConfig(
        db=db, port=0, host="127.0.0.1", start_at=3, no_deadline=True, seats=3, hand_pause=0.0,
        starting_stack=100_000, schedule=((10, 20),), hands_per_level=1000, action_clock=5, time_bank=1,
    )


def _mid_hand(hands: int) -> Callable[[Server], bool]:
    def ready(server: Server) -> bool:
        t = server.tournament
        hand = t.table(1).hand if t.tables else None
        return (t.hands_dealt >= hands and hand is not None and not hand.is_over
                and sum(1 for e in hand.events if type(e).__name__ == "ActionTaken") >= 2)
    return ready


def _rows(db: Path) -> list[Entry]:
    conn = sqlite3.connect(db)
    try:
        return [(seq, kind, tid, parse_payload(p))
                for seq, kind, tid, p in conn.execute("SELECT seq, kind, table_id, payload FROM inputs ORDER BY seq")]
    finally:
        conn.close()


@attrs.frozen(kw_only=True)
class Played:
    db: Path
    seed: int
    tokens: dict[str, str]
    inputs: list[Entry]
    dropped_deal: int  # the seq of the deal the earlier start set aside
    dropped_hand: list[int]  # the seqs of that abandoned hand: its deal and its actions
    before: Path  # the database as the first run left it, before the deal was set aside

    def server(self) -> Server:
        """A fresh server for a replay, as the read-only tools make one."""
        return Server(_config(None), seed=self.seed)

    def entries(self, kind: str) -> list[Entry]:
        return [e for e in self.inputs if e[1] == kind]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    db = tmp_path_factory.mktemp("replay_log") / "log.db"
    config = _config(db)
    fake = SimpleNamespace(up=trio.Event(), port=None, generation=0)
    bots = [Bot(f"p{i}", fake, seed=i, think=0, shove=0, raise_cap=2) for i in range(3)]  # type: ignore[arg-type]
    trio.run(play_in_process, config, bots, _mid_hand(4))
    first = _rows(db)
    deal = max(seq for seq, kind, _, _ in first if kind == "begin_hand")
    abandoned = [seq for seq, kind, _, _ in first if seq >= deal]
    before = db.with_name("before.db")
    shutil.copy(db, before)
    assert [k for s, k, _, _ in first if s in abandoned][:1] == ["begin_hand"] and len(abandoned) >= 3
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO meta (key, value) VALUES ('set_aside', ?)",
                 (json.dumps({str(deal): f"log entry {deal} (a deal at table 1): set aside by an earlier start"}),))
    conn.commit()
    conn.close()
    dealt = len([e for e in first if e[1] == "begin_hand"])
    trio.run(play_in_process, config, bots, _mid_hand(dealt + 2))  # the abandoned hand's number is dealt again
    conn = sqlite3.connect(db)
    seed = int(conn.execute("SELECT value FROM meta WHERE key='seed'").fetchone()[0])
    tokens = {str(p): str(h) for p, h in conn.execute("SELECT player_id, token_hash FROM players")}
    conn.close()
    return Played(db=db, seed=seed, tokens=tokens, inputs=_rows(db), dropped_deal=deal, dropped_hand=abandoned,
                  before=before)


def _replay(played: Played, inputs: Iterable[Entry], skip: dict[int, str] | None = None,
            after: Callable[[int, str, int | None], None] | None = None,
            ) -> tuple[Server, list[SetAside], list[int | None]]:
    server = played.server()
    voids: list[int | None] = []
    found = replay_log(server, inputs, played.tokens, skip=skip, on_void=voids.append, after=after)
    return server, found, voids


def _state(server: Server) -> tuple[object, ...]:
    """What a resumed server holds: the count of hands, the seats and stacks, the hand in
    progress at its last action, the odd chip carried, each player's bank and status."""
    t = server.tournament
    table = t.table(1)
    hand = table.hand
    return (
        t.hands_dealt, t.level, table.carry,
        sorted((s, p.player_id, p.stack) for s, p in table.seats.items()),
        None if hand is None else (hand.hand_no, len(hand.events), hand.is_over),
        sorted((pid, ps.bank, ps.sitting_out) for pid, ps in server.players.items()),
        server.pending_announcements,
    )


def _known(played: Played) -> dict[int, str]:
    return {played.dropped_deal: "set aside before"}


# -- a deal set aside ------------------------------------------------------------------------------


def test_a_deal_set_aside_takes_its_hand_with_it_and_the_next_deal_plays(played: Played) -> None:
    """The deal an earlier start set aside is passed over with its actions (they belong to
    a hand that is not there), and the deal made in its place plays: the replay ends where
    the log without the abandoned hand ends, with nothing set aside and nothing voided."""
    server, found, voids = _replay(played, played.inputs, skip=_known(played))
    without, found_without, voids_without = _replay(
        played, [e for e in played.inputs if e[0] not in played.dropped_hand])
    assert found == found_without == [] and voids == voids_without == []
    assert _state(server) == _state(without)
    t = server.tournament
    deals = len(played.entries("begin_hand"))
    assert t.hands_dealt == deals - 1  # every deal but the one set aside
    hand = t.table(1).hand
    assert hand is not None and hand.hand_no == t.hands_dealt and not hand.is_over
    assert server.pending_announcements == []
    check_chips(server)


def test_the_server_resumes_a_log_with_a_deal_set_aside_without_a_new_notice(played: Played, tmp_path: Path) -> None:
    db = tmp_path / "copy.db"
    shutil.copy(played.db, db)
    server = open_server(_config(db))
    try:
        assert server.pending_announcements == []
        replayed, _, _ = _replay(played, played.inputs, skip=_known(played))
        assert _state(server)[:5] == _state(replayed)[:5]
    finally:
        assert server.store is not None
        server.store.close()
    conn = sqlite3.connect(db)
    statuses = set(conn.execute("SELECT status FROM hands").fetchall())
    conn.close()
    assert ("voided",) not in statuses


def test_a_start_that_sets_a_deal_aside_drops_that_hands_record_so_its_number_can_be_dealt_again(
    played: Played, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """The next deal takes the number of the hand set aside: the stored record of that hand
    (its row and its events) goes, or the new hand's events collide with the old ones and
    the store refuses every write from then on (the module fixture plays on after this)."""
    db = tmp_path / "before.db"
    shutil.copy(played.before, db)
    conn = sqlite3.connect(db)
    dealt = conn.execute("SELECT max(hand_no) FROM hands").fetchone()[0]
    assert conn.execute("SELECT count(*) FROM hand_events WHERE hand_no=?", (dealt,)).fetchone()[0] > 0
    conn.execute("INSERT INTO meta (key, value) VALUES ('set_aside', ?)",
                 (json.dumps({str(played.dropped_deal): "set aside before"}),))
    conn.commit()
    conn.close()
    caplog.set_level("ERROR", logger="hickory.recovery")
    for again in (False, True):
        caplog.clear()
        server = open_server(_config(db))
        assert server.store is not None
        server.store.close()
        assert server.tournament.hands_dealt == dealt - 1
        dropping = [m for m in caplog.messages if m.startswith("the record of hands")]
        assert dropping == ([] if again else [f"the record of hands after #{dealt - 1} is dropped: "
                                              "their deals were set aside"])
        conn = sqlite3.connect(db)
        assert [n for (n,) in conn.execute("SELECT hand_no FROM hands ORDER BY hand_no")] == list(range(1, dealt))
        assert conn.execute("SELECT max(hand_no) FROM hand_events").fetchone()[0] == dealt - 1
        conn.close()


# -- a voided hand -------------------------------------------------------------------------------


def _damaged(played: Played, hand: int, index: int) -> tuple[list[Entry], int]:
    """The log with the ``index``-th action of hand number ``hand`` (counting the deals in
    the log) turned into a raise the engine refuses; returns it and that entry's seq."""
    deal = played.entries("begin_hand")[hand - 1][0]
    acts = [e for e in played.inputs if e[1] == "act" and e[0] > deal]
    seq = acts[index][0]
    bad = [(s, k, tid, p | {"kind": "raise", "amount": 10**12}) if s == seq else (s, k, tid, p)
           for s, k, tid, p in played.inputs]
    return bad, seq


def test_a_voided_hand_passes_over_its_later_actions_and_end_and_the_next_hand_plays(
    played: Played, caplog: pytest.LogCaptureFixture,
) -> None:
    inputs, seq = _damaged(played, 2, 1)
    caplog.set_level("ERROR", logger="hickory.recovery")
    server, found, voids = _replay(played, inputs, skip=_known(played))
    assert found == [] and voids == [2]  # only hand 2, once: its later actions and end are passed over
    t = server.tournament
    assert t.hands_dealt == len(played.entries("begin_hand")) - 1  # every later hand was dealt and played
    hand = t.table(1).hand
    normal, _, _ = _replay(played, played.inputs, skip=_known(played))
    assert hand is not None and _state(server)[4] == _state(normal)[4]  # the hand in progress, at its last action
    check_chips(server)
    assert server.pending_announcements == [
        "Hand #2 at table 1 could not be resumed after the restart and was voided: every bet was returned."]
    [line] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("hand #")]
    assert line.startswith(f"hand #2 at table 1 could not be resumed (log entry {seq}: ")
    assert line.endswith("); voided, every bet returned")


def test_a_voided_hand_gives_back_the_carry_its_deal_logged(played: Played) -> None:
    """The odd chip a voided hand started with goes back to the table as its deal logged
    it; a deal logged before deals carried it (no ``carry``) started with none."""
    inputs, _ = _damaged(played, 2, 0)
    deal = played.entries("begin_hand")[1][0]
    old = [(s, k, tid, {x: v for x, v in p.items() if x != "carry"}) if s == deal else (s, k, tid, p)
           for s, k, tid, p in inputs]
    server, found, voids = _replay(played, old, skip=_known(played))
    assert found == [] and voids == [2]
    check_chips(server)
    logged, _, _ = _replay(played, inputs, skip=_known(played))
    assert _state(server) == _state(logged)


def test_an_action_logged_between_hands_is_set_aside_and_voids_nothing(played: Played) -> None:
    """A damaged log with an action at a table that has no hand in progress: there is no
    hand to void, so the entry is set aside like an action at a table that is not there
    (before, it "voided" a ``Hand #None`` and put back the carry of the table's last deal,
    which the hand's end may have changed)."""
    end = played.entries("end_hand")[0]
    stray = (2 * end[0] + 1, "act", 1, {"seat": 1, "kind": "fold", "amount": None, "automatic": False,
                                        "now": end[3]["now"]})
    inputs = sorted([(2 * s, k, tid, p) for s, k, tid, p in played.inputs] + [stray], key=lambda e: e[0])
    server, found, voids = _replay(played, inputs, skip={2 * played.dropped_deal: "set aside before"})
    assert voids == [] and server.pending_announcements == []
    assert [(a.seq, a.kind, a.what, a.error) for a in found] == [
        (stray[0], "act", "an action at table 1", "there is no hand in progress at table 1")]
    normal, _, _ = _replay(played, played.inputs, skip=_known(played))
    assert _state(server) == _state(normal)


# -- the fair deck and the clock ------------------------------------------------------------------


def test_the_replay_rebuilds_the_fair_deck_state_hand_by_hand(played: Played) -> None:
    server, _, _ = _replay(played, played.inputs, skip=_known(played))
    fair = server.fair
    hand = server.tournament.table(1).hand
    assert hand is not None
    decks = [d for d in fair.dealt if d.hand_no is not None]
    assert [d.hand_no for d in decks] == list(range(1, hand.hand_no + 1))  # the number each deal gave its hand
    assert fair.in_play[1].hand_no == hand.hand_no
    last_deal = [p for s, k, _, p in played.inputs if k == "begin_hand" and s not in played.dropped_hand][-1]
    assert list(fair.in_play[1].deck) == last_deal["deck"]
    last_chain = [p["chain"] for _, k, _, p in played.inputs if k == "end_hand"][-1]
    assert fair.chain.hex() == last_chain


def test_the_replay_ends_at_the_last_time_logged(played: Played) -> None:
    """Tournament time resumes from the latest ``now`` in the log; a ``now`` that is not a
    finite number of seconds (true, text, infinity, NaN) is no time."""
    nows = [float(p["now"]) for _, _, _, p in played.inputs if "now" in p]
    server, _, _ = _replay(played, played.inputs, skip=_known(played))
    assert server.resume_at == max(nows)

    first_deal = played.entries("begin_hand")[0][0]
    early = [e for e in played.inputs if e[0] <= first_deal]  # under a second of tournament time
    start = max(float(p["now"]) for _, _, _, p in early if "now" in p)
    assert 0 < start < 1
    pid = next(iter(played.tokens))
    odd: list[Entry] = [
        (first_deal + 1 + i, "status", None, {"player_id": pid, "sitting_out": False, "now": now})
        for i, now in enumerate([True, "7", math.inf, math.nan, None])
    ]
    server, found, _ = _replay(played, [*early, *odd])
    assert found == [] and server.resume_at == start


# -- time banks and sitting out -------------------------------------------------------------------


def test_actions_and_statuses_restore_the_time_bank_they_logged(played: Played) -> None:
    pid = sorted(played.tokens)[0]
    deals = played.entries("begin_hand")
    cut = deals[1][0]  # before the second deal: hand 1 played, nobody acting
    head = [e for e in played.inputs if e[0] < cut]
    # Actions logged without a bank (an older server) leave each bank as it was.
    no_bank = [(s, k, tid, {x: v for x, v in p.items() if x != "bank"} if k == "act" else p)
               for s, k, tid, p in head]
    server, found, _ = _replay(played, no_bank)
    assert found == [] and {ps.bank for ps in server.players.values()} == {1.0}
    marks: list[Entry] = [
        (cut, "status", None, {"player_id": pid, "sitting_out": True, "bank": 0.25}),
        (cut + 1, "status", None, {"player_id": pid, "sitting_out": True}),  # no bank: it stays
    ]
    server, found, _ = _replay(played, [*no_bank, *marks])
    ps = server.players[pid]
    assert found == [] and ps.sitting_out and ps.bank == 0.25
    # An action's bank is the acting player's after it.
    acts = [e for e in head if e[1] == "act"]
    last = acts[-1]
    spent = [(s, k, tid, p | {"bank": 0.5}) if s == last[0] else (s, k, tid, p) for s, k, tid, p in head]
    server, _, _ = _replay(played, spent)
    actor = server.tournament.table(1).seats[last[3]["seat"]].player_id
    assert server.players[actor].bank == 0.5


# -- rule changes --------------------------------------------------------------------------------


def test_a_replayed_rule_change_keeps_the_wall_time_it_was_logged_with(played: Played) -> None:
    """The lobby shows when each rule changed: the time logged with the operation, the
    same after every restart (a replay never reads the clock for it)."""
    cut = played.entries("begin_hand")[1][0]
    head = [e for e in played.inputs if e[0] < cut]
    now = max(float(p["now"]) for _, _, _, p in head if "now" in p)
    ops: list[Entry] = [
        (cut, "director", None, {"op": "announce", "now": now, "reason": "hello", "text": "hi",
                                 "wall": "2024-05-04T21:00:00+02:00"}),
        (cut + 1, "director", None, {"op": "set_options", "now": now, "reason": "slower",
                                     "options": {"action_clock": 30}, "wall": WALL}),
    ]
    server, found, _ = _replay(played, [*head, *ops])
    assert found == []
    assert len(server.tournament.rule_changes) == 1 and server.rule_walls == [WALL]


# -- replay_all: watching, and starting again ------------------------------------------------------


def _torn_last_commit(played: Played) -> tuple[list[Entry], int, int]:
    """The log with the last hand's deck commitment torn (unreadable): returns it, that
    entry's seq and the seq of the deal that needs it."""
    commit = played.entries("deck_commit")[-1][0]
    deal = next(s for s, k, _, _ in played.inputs if k == "begin_hand" and s > commit)
    torn = [(s, k, tid, {"_unreadable": '{"draw": "deck", "ta'}) if s == commit else (s, k, tid, p)
            for s, k, tid, p in played.inputs]
    return torn, commit, deal


def test_replay_all_watches_each_step_of_the_one_replay_it_keeps(played: Played) -> None:
    reads: list[int] = []
    seen: list[tuple[Server, int, str, int | None]] = []

    def read() -> list[Entry]:
        reads.append(1)
        return list(played.inputs)

    def watch(server: Server, seq: int, kind: str, table_id: int | None) -> None:
        seen.append((server, seq, kind, table_id))

    server, found = replay_all(played.server, read, played.tokens, known=_known(played), watch=watch)
    assert found == [] and len(reads) == 1  # nothing failed: the log is read once
    assert [step[1:] for step in seen] == [(s, k, tid) for s, k, tid, _ in played.inputs
                                           if s not in played.dropped_hand]
    assert all(step[0] is server for step in seen)


def test_replay_all_starts_again_without_an_entry_that_fails_half_way_and_watches_the_final_replay_whole(
    played: Played, caplog: pytest.LogCaptureFixture,
) -> None:
    """A torn deck commitment cannot be taken in (not a clean refusal): the replay starts
    again without it; the deal that needed it cannot be dealt either, and goes the same way
    with its hand. ``watch`` saw the first replay up to its failure; then it sees the final
    replay whole, each step once, on the server returned."""
    torn, commit, deal = _torn_last_commit(played)
    seen: list[tuple[Server, int, str, int | None]] = []
    caplog.set_level("ERROR", logger="hickory.recovery")

    def watch(server: Server, seq: int, kind: str, table_id: int | None) -> None:
        seen.append((server, seq, kind, table_id))

    server, found = replay_all(played.server, lambda: iter(torn), played.tokens, known=_known(played), watch=watch)
    assert [(a.seq, a.kind) for a in found] == [(commit, "deck_commit"), (deal, "begin_hand")]
    assert found[0].what == "deck_commit" and found[0].error == "KeyError: 'draw'"
    assert found[1].what == "a deal at table 1" and found[1].error.startswith("ValueError: the log deals deck draw 1/")
    assert [m for m in caplog.messages if m.startswith("replay: ")] == [
        f"replay: {a.text}; starting the replay again without it" for a in found]
    gone = {commit, deal, *(s for s, k, _, _ in torn if k == "act" and s > deal)}
    steps = [(s, k, tid) for s, k, tid, _ in torn if s not in gone and s not in played.dropped_hand]
    first = [step for step in steps if step[0] < commit]
    assert [step[1:] for step in seen[:len(first)]] == first
    assert all(step[0] is not server for step in seen[:len(first)])  # the replay given up
    assert [step[1:] for step in seen[len(first):]] == steps
    assert all(step[0] is server for step in seen[len(first):])
    t = server.tournament
    assert t.hands_dealt == len(played.entries("begin_hand")) - 2 and t.table(1).hand is None
    check_chips(server)


def test_a_torn_deck_commitment_no_longer_stops_the_server_from_starting(played: Played, tmp_path: Path) -> None:
    """Issue 12's promise for every kind of entry: the fair-deck entries too. Before, the
    replay read a deck commitment outside its guard, and one torn row made every start-up
    fail ("the tournament log cannot be read")."""
    db = tmp_path / "torn.db"
    shutil.copy(played.db, db)
    _, commit, deal = _torn_last_commit(played)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE inputs SET payload='{\"draw\": \"deck\", \"ta' WHERE seq=?", (commit,))
    conn.commit()
    conn.close()
    for again in (False, True):
        server = open_server(_config(db))
        try:
            t = server.tournament
            assert t.hands_dealt == len(played.entries("begin_hand")) - 2 and t.table(1).hand is None
            check_chips(server)
            notices = [a for a in server.pending_announcements if "set aside" in a]
            assert notices == ([] if again else [notices[0]])
            if not again:
                assert f"log entry {commit} (deck_commit)" in notices[0] and f"log entry {deal} (a deal" in notices[0]
        finally:
            assert server.store is not None
            server.store.close()
    conn = sqlite3.connect(db)
    aside = json.loads(conn.execute("SELECT value FROM meta WHERE key='set_aside'").fetchone()[0])
    conn.close()
    assert sorted(int(k) for k in aside) == sorted([played.dropped_deal, commit, deal])


# -- the meta entries read at start-up --------------------------------------------------------------


def test_the_set_aside_entry_reads_as_none_when_absent_and_says_so_when_unreadable(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("ERROR", logger="hickory.recovery")
    assert read_set_aside(None) == {} and read_set_aside('{"7": "x"}') == {7: "x"}
    assert caplog.messages == []  # an absent entry is no error
    for text in ("{torn", '["7"]', '{"seven": "x"}'):
        assert read_set_aside(text) == {}
    assert caplog.messages == [
        f"the set_aside entry of the database cannot be read ({text!r}); ignored"
        for text in ("{torn", '["7"]', '{"seven": "x"}')]


def test_a_database_without_a_config_entry_keeps_the_options_given() -> None:
    """A database made before the options were stored has no ``config`` entry."""
    config = _config(None)
    assert stored_config(config, None) == config
    stored = stored_config(config, json.dumps({"schedule": [[5, 10], [10, 20]], "ruleset": "standard",
                                               "port": 9}))
    assert stored.schedule == ((5, 10), (10, 20)) and isinstance(stored.schedule[0], tuple)
    assert type(stored.ruleset).__name__ == "Ruleset" and stored.ruleset.value == "standard"
    assert stored.port == 0  # not a tournament option: the flag given wins
    no_rules = stored_config(config, json.dumps({"seats": 6}))
    assert no_rules.seats == 6 and no_rules.ruleset == config.ruleset


def test_a_deal_set_aside_mid_log_passes_over_its_end_but_not_the_next_deals_commitment(played: Played) -> None:
    """A deal set aside in the middle of the log: its actions and its end are passed over,
    and the commitment logged for the next deal at that table is still taken in (that deal
    needs it)."""
    deals = played.entries("begin_hand")
    second = deals[1][0]
    server, found, _ = _replay(played, played.inputs, skip={**_known(played), second: "set aside before"})
    assert found == []
    t = server.tournament
    assert t.hands_dealt == len(deals) - 2  # all but the two deals set aside
    decks = [d.hand_no for d in server.fair.dealt if d.hand_no is not None]
    assert decks == list(range(1, t.hands_dealt + 1))
    check_chips(server)


def test_a_deal_the_tournament_refuses_is_set_aside_with_its_actions(played: Played) -> None:
    """A deal refused on replay (here: logged without its time) is set aside; its hand's
    actions go with it, unreported (they belong to a hand that is not there)."""
    last = [e for e in played.entries("begin_hand") if e[0] not in played.dropped_hand][-1]
    inputs = [(s, k, tid, {x: v for x, v in p.items() if x != "now"}) if s == last[0] else (s, k, tid, p)
              for s, k, tid, p in played.inputs]
    server, found, voids = _replay(played, inputs, skip=_known(played))
    assert [(a.seq, a.what, a.error) for a in found] == [(last[0], "a deal at table 1", "a deal has no now")]
    assert voids == [] and server.tournament.table(1).hand is None
    check_chips(server)
