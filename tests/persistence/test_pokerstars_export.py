"""A whole bot tournament over a real server, read by the host's tools: its statistics
(``hickory-server stats``, last test), and its hands exported with ``hickory-server history
--format pokerstars --each-player DIR`` (a real subprocess on the real database), and every
hand of every file read by an independent PokerStars parser (pokerdf) that must agree with
the stored record on seats, stacks, actions, board, pots and winners
(tests/engine/pokerstars_referee.py says exactly what it compares)."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import trio

from client.handlog import HandLog
from client.model import ClientModel
from client.tui.stats_view import table_stats
from poker.events import HandShown, HandStarted, HoleCardsDealt
from poker.stats import compute_stats
from protocol import messages as m
from server.app import open_server
from server.config import ServerConfig
from server.history_tool import tournament_finishes, tournament_number
from server.reports import StoredHand, hand_info, open_readonly, read_hands, read_meta
from tests.engine.pokerstars_referee import Expected, check_file
from tests.persistence.harness import Bot

PLAYERS = 8
RECEIVED: dict[str, list[m.ServerMessage]] = {}


async def _play_out(db: Path, seed: int) -> dict[str, list[m.ServerMessage]]:
    """Play the night out; returns what each bot received, message by message."""
    config = ServerConfig(
        db=db, port=0, host="127.0.0.1", start_at=PLAYERS, no_deadline=True, seats=5,
        hands_per_level=6, starting_stack=2000, action_clock=5, time_bank=1, hand_pause=0.0,
        schedule=((10, 20), (15, 30), (25, 50), (40, 80), (60, 120), (100, 200), (150, 300),
                  (250, 500), (400, 800), (600, 1200), (1000, 2000)),
    )
    server = open_server(config, seed=seed)
    server.deck_rng = random.Random(seed)
    fake = SimpleNamespace(up=trio.Event(), port=None, generation=1)
    bots = [Bot(f"player {i}", fake, seed=seed + i, think=0, shove=0.03, raise_=0.15, raise_cap=3)  # type: ignore[arg-type]
            for i in range(PLAYERS)]
    async with trio.open_nursery() as nursery:
        fake.port = await nursery.start(server.run)
        fake.up.set()
        for bot in bots:
            nursery.start_soon(bot.run)
            while bot.player_id is None:
                await trio.sleep(0.01)
        with trio.fail_after(240):
            while not server.tournament.finished:
                await trio.sleep(0.05)
        await trio.sleep(0.2)
        nursery.cancel_scope.cancel()
    assert server.store is not None
    server.store.close()
    return {bot.name: bot.received for bot in bots}


def _dealt(hand: StoredHand) -> int:
    return len(next(e for e in hand.parsed() if isinstance(e, HandStarted)).stacks)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Path]]:
    tmp = tmp_path_factory.mktemp("pokerstars")
    db = tmp / "night.db"
    RECEIVED.update(trio.run(_play_out, db, 4242))
    out = tmp / "hands"
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "history", "--db", str(db), "--format", "pokerstars",
         "--each-player", str(out)],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    paths = [Path(line) for line in done.stdout.splitlines()]
    return db, out, paths


def test_every_hand_of_every_players_file_and_the_full_file_reads_back_as_recorded(
        exported: tuple[Path, Path, list[Path]]) -> None:
    db, out, paths = exported
    conn = open_readonly(db)
    try:
        meta = read_meta(conn)
        hands = [h for h in read_hands(conn) if h.status == "finished"]
    finally:
        conn.close()
    number = tournament_number(meta)
    conn = open_readonly(db)
    try:
        out_in = tournament_finishes(conn)
    finally:
        conn.close()

    def finished(h: StoredHand) -> dict[int, int]:
        return {seat: place for name, place in out_in.get(h.hand_no, ()) if (seat := h.seat_of(name)) is not None}

    # Every player's place is written once, in the hand they went out in (two out in one
    # hand share a place), and the winner's in the last hand.
    names = [name for done in out_in.values() for name, _ in done]
    assert len(names) == len(set(names)) == PLAYERS and 1 in {p for done in out_in.values() for _, p in done}
    assert len(hands) >= 20
    assert paths[0].name.endswith(" all hands.txt") and len(paths) == PLAYERS + 1
    assert all(p.parent == out and p.name.startswith("HH") for p in paths)
    full = [Expected(events=h.parsed(), info=hand_info(h, meta), reveal_all=True, finishes=finished(h))
            for h in hands]
    text = paths[0].read_text(encoding="utf-8")
    # The seeded night has the shapes trackers are strict about (the decks are seeded; the
    # bots' timing is not, so the counts vary a little from run to run).
    # (Side pots, split pots and carried chips are certain in tests/engine/test_pokerstars.py.)
    for shape in ("Uncalled bet (", "*** SHOW DOWN ***", ": calls ", " and is all-in",
                  " wins the tournament\n", " finished the tournament in 2nd place\n"):
        assert shape in text, shape
    rows = check_file(text, full, number)
    assert rows == sum(_dealt(h) for h in hands)
    folded_own_cards = 0
    for path in paths[1:]:
        player_id = path.stem.split(" ")[2]  # HH<date> T<number> <player id> <name>
        seated = [h for h in hands if any(p == player_id for p, _ in h.seats.values())]
        name = next(n for p, n in seated[0].seats.values() if p == player_id)
        # Hands they were dealt into (a seat taken during a hand is not dealt in until the next).
        mine = [h for h in seated if any(isinstance(e, HoleCardsDealt) and e.seat == h.seat_of(name)
                                         for e in h.parsed())]
        assert mine, path
        assert path.stem.endswith(name.replace(" ", "_"))
        expected = [Expected(events=h.parsed(), info=hand_info(h, meta), viewer=h.seat_of(name),
                             finishes=finished(h)) for h in mine]
        text = path.read_text(encoding="utf-8")
        assert check_file(text, expected, number) == sum(_dealt(h) for h in mine)
        # Only the owner's cards and the cards shown are in a player's file.
        for h in mine:
            events = h.parsed()
            seat = h.seat_of(name)
            shown = {e.seat for e in events if isinstance(e, HandShown)}
            for e in events:
                if isinstance(e, HoleCardsDealt) and e.seat != seat and e.seat not in shown:
                    hidden = " ".join(f"{'23456789TJQKA'[c >> 2]}{'cdhs'[c & 3]}" for c in e.cards)
                    block = text.split(f"#{number * 1_000_000 + h.hand_no}:", 1)[1].split("PokerStars Hand", 1)[0]
                    assert f"[{hidden}]" not in block, (name, h.hand_no)
            folded_own_cards += any(e.seat == seat and e.action.value == "fold"
                                    for e in events if hasattr(e, "action"))
    assert folded_own_cards > 0  # hands a player folded, with their own cards in their file


def test_the_tool_refuses_each_player_with_another_format(exported: tuple[Path, Path, list[Path]],
                                                          tmp_path: Path) -> None:
    db = exported[0]
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "history", "--db", str(db), "--format", "text",
         "--each-player", str(tmp_path / "x")], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--each-player goes with --format pokerstars" in done.stderr
    assert not (tmp_path / "x").exists()


_FINISH = re.compile(r"^.* (?:finished the tournament in \d+\w\w place|wins the tournament)\n", re.MULTILINE)
_TIME = re.compile(r" - \d{4}/\d\d/\d\d \d+:\d\d:\d\d [A-Z]+ \[[^]]*ET\]$", re.MULTILINE)


def test_the_terminal_clients_own_file_is_the_servers_file_for_that_player(
        exported: tuple[Path, Path, list[Path]], tmp_path: Path) -> None:
    """Each bot's live messages, fed to a client model and its hand log as the terminal
    client does, write the same hands as the server's export for that player (the time
    of day aside: the client's clock stamps them; and who finished the tournament in the
    hand, which the client cannot know yet when it writes it)."""
    db, _, paths = exported
    conn = open_readonly(db)
    try:
        number = tournament_number(read_meta(conn))
    finally:
        conn.close()
    compared = checked_stats = 0
    conn = open_readonly(db)
    try:
        stored = {h.hand_no: h for h in read_hands(conn)}
    finally:
        conn.close()
    for name, received in RECEIVED.items():
        model = ClientModel()
        log = HandLog(tmp_path / f"{name}.txt", tournament_no=number)
        for msg in received:
            model.apply(msg)
            log.received(msg, model)
        mine = _TIME.sub("", log.path.read_text(encoding="utf-8")).strip().split("\n\n\n")
        server_file = next(p for p in paths[1:] if p.stem.endswith(" " + name.replace(" ", "_")))
        # The client cannot know who finished where when it writes a hand (the places come
        # after it): the host's file has those lines, the client's not.
        theirs = _FINISH.sub("", _TIME.sub("", server_file.read_text(encoding="utf-8"))).strip().split("\n\n\n")
        assert len(mine) == len(theirs) > 0, name
        # The model keeps the same hands (and the table's others, watched after they were out).
        kept = {h.hand_no for h in model.seen.hands if h.viewer is not None}
        assert kept == {int(t.split(":", 1)[0].rsplit("#", 1)[1]) % 1_000_000 for t in theirs}
        # The statistics overlay's figures: the table's players over the hands seen there,
        # the same as poker.stats over the server's full record of those hands.
        players, seen_here = table_stats(model)
        assert model.table is not None
        here = [h for h in model.seen.hands if h.info.table_id == model.table.table]
        assert seen_here == len(here) > 0
        full = compute_stats((stored[h.hand_no].parsed(), {s: n for s, (_, n) in stored[h.hand_no].seats.items()})
                             for h in here)
        assert players == [full[p.name] for p in players] and players
        checked_stats += 1
        for a, b in zip(mine, theirs, strict=True):
            assert a.strip() == b.strip()
            compared += 1
    assert compared >= 40 and checked_stats == PLAYERS


def _tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_stats_prints_every_players_figures_in_each_format(exported: tuple[Path, Path, list[Path]]) -> None:
    """``hickory-server stats`` over the night: the figures are ``poker.stats``' over the
    stored hands (each figure is tested on hands built by hand in tests/engine/test_stats.py),
    the same in text, CSV, JSON and HTML; ``standings --stats`` carries them too."""
    db = str(exported[0])
    conn = open_readonly(db)
    try:
        hands = [h for h in read_hands(conn) if h.status == "finished"]
    finally:
        conn.close()
    want = compute_stats((h.parsed(), {s: n for s, (_, n) in h.seats.items()}) for h in hands)
    assert sum(p.hands for p in want.values()) == sum(_dealt(h) for h in hands)
    done = _tool("stats", "--db", db, "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = {r["name"]: r for r in json.loads(done.stdout)["players"]}
    assert rows == {name: p.row() for name, p in want.items()}
    text = _tool("stats", "--db", db).stdout.splitlines()
    assert text[0].split() == ["Player", "Hands", "VPIP", "PFR", "3-bet", "Fold", "to", "3-bet", "AF", "WTSD",
                               "W$SD", "Biggest", "pot"]
    for name, p in want.items():
        line = next(t for t in text if t.startswith(name + " "))
        assert line.split()[2:4] == [str(p.hands), p.vpip.text()], line
    table = list(csv.DictReader(io.StringIO(_tool("stats", "--db", db, "--format", "csv").stdout)))
    assert [r["name"] for r in table] == list(want) and all(
        int(r["hands"]) == want[r["name"]].hands and int(r["vpip_made"]) == want[r["name"]].vpip.made
        for r in table)
    done = _tool("stats", "--db", db, "--format", "html")
    assert done.returncode == 0, done.stderr
    page = done.stdout
    assert page.startswith("<!doctype html>") and page.count("<tr>") == len(want) + 1
    one = _tool("stats", "--db", db, "--player", "PLAYER 0", "--format", "json")
    assert [r["name"] for r in json.loads(one.stdout)["players"]] == ["player 0"]
    nobody = _tool("stats", "--db", db, "--player", "nobody")
    assert nobody.returncode == 1 and "no finished hand with a player named 'nobody'" in nobody.stderr
    standings = json.loads(_tool("standings", "--db", db, "--stats", "--format", "json").stdout)
    assert [r["name"] for r in standings["stats"]] == [p["name"] for p in standings["places"]
                                                        if p["name"] in want]
    assert "<h2>Statistics</h2>" in _tool("standings", "--db", db, "--stats", "--format", "html").stdout
    assert "W$SD" in _tool("standings", "--db", db, "--stats").stdout
    assert "W$SD" not in _tool("standings", "--db", db).stdout
