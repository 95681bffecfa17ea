"""A player's own deck check (client/deckcheck.py) on a real record, honest and tampered.

The record comes from a bot that played a whole tournament against a real server (on
Trio's virtual clock); each test changes one thing in a copy of it, the way a dishonest
server would have to, and checks that ``verify_entries`` fails for that reason, on that
hand, and only there.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import trio
import trio.testing

import protocol.messages as m
from client.bot import Bot
from client.deckcheck import FAILED, OK, DeckLog, verify_entries
from tests.server.harness import fast_config, running

Entry = dict[str, Any]


@functools.cache
def _recorded(tmp: str) -> tuple[Entry, ...]:
    path = Path(tmp) / "b0.jsonl"

    async def tournament() -> None:
        async with running(fast_config(3, seats=6), seed=9) as (_, port):
            bots = [Bot("127.0.0.1", port, f"b{i}", "calling-station", seed=i,
                        deck_record=path if i == 0 else None) for i in range(3)]
            async with trio.open_nursery() as n:
                for b in bots:
                    n.start_soon(b.run)

    trio.run(tournament, clock=trio.testing.MockClock(autojump_threshold=0))
    return tuple(json.loads(line) for line in path.read_text().splitlines())


def record(tmp_path_factory: Any) -> list[Entry]:
    return copy.deepcopy(list(_recorded(str(tmp_path_factory.getbasetemp()))))


def first(entries: list[Entry], kind: str, pred: Any = lambda m: True) -> Entry:
    return next(e["in"] for e in entries if "in" in e and e["in"]["type"] == kind and pred(e["in"]))


def my_id(entries: list[Entry]) -> int:
    return int(first(entries, "welcome")["player_id"])


def test_the_honest_record_checks_out_on_every_draw(tmp_path_factory: Any) -> None:
    entries = record(tmp_path_factory)
    report = verify_entries(entries)
    assert report.revealed and report.checks
    assert all(c.status == OK for c in report.checks), [c.line() for c in report.checks]
    assert report.checks[0].kind == "seating"
    assert not any(e.get("in", {}).get("token") for e in entries), "the session token is never recorded"


def test_a_second_commitment_for_the_same_draw_fails_that_draw(tmp_path_factory: Any) -> None:
    entries = record(tmp_path_factory)
    commit = first(entries, "deck_commit", lambda m: m["draw"] == "deck" and m["number"] == 2)
    i = next(k for k, e in enumerate(entries) if e.get("in") is commit)
    other = dict(commit, commit="ab" * 32)
    entries.insert(i + 1, {"in": other})
    report = verify_entries(entries)
    assert [(c.table, c.number) for c in report.failed] == [(commit["table"], 2)]
    assert "two different commitments" in report.failed[0].detail


def test_a_seed_changed_by_the_server_fails_and_a_missing_one_only_warns(tmp_path_factory: Any) -> None:
    entries = record(tmp_path_factory)
    me = my_id(entries)
    seeds = first(entries, "seeds_received", lambda m: m["draw"] == "deck" and m["number"] == 3)
    mine = next(s for s in seeds["seeds"] if s["player_id"] == me)
    mine["seed"] = "00" * 16
    report = verify_entries(entries)
    assert [c.number for c in report.failed] == [3]
    assert "changed the seed" in report.failed[0].detail

    entries = record(tmp_path_factory)
    seeds = first(entries, "seeds_received", lambda m: m["draw"] == "deck" and m["number"] == 3)
    next(s for s in seeds["seeds"] if s["player_id"] == me)["seed"] = None
    report = verify_entries(entries)
    # The deck is derived from the list as sent, so the cards no longer match either:
    # the server cannot quietly drop a seed it was sent and deal the old deck.
    [check] = [c for c in report.checks if c.number == 3 and c.kind == "deck"]
    assert any("not in the seed list" in w for w in check.warnings)
    assert check.status == FAILED and "the committed deck" in check.detail


def test_a_revealed_seed_that_does_not_match_its_commitment_fails(tmp_path_factory: Any) -> None:
    entries = record(tmp_path_factory)
    reveal = first(entries, "reveal")
    drawn = next(d for d in reveal["draws"] if d["draw"] == "deck" and d["number"] == 1)
    drawn["server_seed"] = "11" * 32
    report = verify_entries(entries)
    assert [c.number for c in report.failed if c.kind == "deck"] == [1]
    assert "does not match its commitment" in report.failed[0].detail


def test_a_board_card_other_than_the_committed_decks_fails_naming_the_card(tmp_path_factory: Any) -> None:
    entries = record(tmp_path_factory)
    board = first(entries, "board", lambda m: m["street"] == "flop")
    replacement = next(c for c in ("2c", "2d", "2h") if c not in board["board"])
    board["board"][0] = board["cards"][0] = replacement
    report = verify_entries(entries)
    [failed] = report.failed
    assert failed.hand_no == board["hand_no"] and failed.status == FAILED
    assert f"board card 1 was {replacement}" in failed.detail


def test_only_the_last_tournament_in_a_record_is_checked(tmp_path_factory: Any) -> None:
    entries = record(tmp_path_factory)
    earlier = copy.deepcopy(entries)
    for e in earlier:
        msg = e.get("in") or e.get("out")
        if msg and "tournament" in msg:
            msg["tournament"] = "0" * 16  # another tournament: nothing of it matches
    report = verify_entries(earlier + entries)
    assert not report.failed and len(report.checks) == len(verify_entries(entries).checks)


def test_a_player_not_dealt_into_a_hand_is_not_warned_about_their_unused_seed() -> None:
    """A player moved to a table waits to be dealt in; they answer its commitments all the
    same, and the seed list (the seats dealt in) rightly leaves them out. Once, every such
    hand logged "the seed this client sent is not in the seed list" (issue 23, defect 6)."""
    log = DeckLog()
    log.received(m.Welcome(id=None, version=2, role="player", player_id=7, name="carol",
                           token=None, table=2, seat=3))
    commit = "ab" * 32
    log.received(m.DeckCommit(draw="deck", tournament="t" * 16, table=2, number=92, commit=commit,
                              window_ms=500))
    log.sent(m.ClientSeed(draw="deck", table=2, number=92, commit=commit, seed="cd" * 16))
    others = (m.SeedEntry(seat=1, player_id=1, seed="01" * 16), m.SeedEntry(seat=2, player_id=2, seed=None))
    assert log.received(m.SeedsReceived(draw="deck", table=2, number=92, commit=commit, hand_no=188,
                                        seeds=others)) == []
    late = (*others, m.SeedEntry(seat=3, player_id=7, seed=None))  # dealt in, seed too late
    log.sent(m.ClientSeed(draw="deck", table=2, number=93, commit=commit, seed="cd" * 16))
    [line] = log.received(m.SeedsReceived(draw="deck", table=2, number=93, commit=commit, hand_no=189,
                                          seeds=late))
    assert "not in the seed list (too late?)" in line
