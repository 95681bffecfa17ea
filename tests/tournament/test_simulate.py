"""Whole tournaments with random-policy players, tables playing concurrently."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from poker.hand import Hand
from server.tournament import FinishReason, PlayerEliminated, Tournament, TournamentEvent
from server.tournament.simulate import format_run, main, run_tournament

from .helpers import check_chips, check_seating


def _check_places(standings) -> None:  # type: ignore[no-untyped-def]
    """Competition ranking: each place is 1 + the number of players placed above."""
    places = [s.place for s in standings]
    for i, p in enumerate(places):
        assert p == i + 1 or (i > 0 and p == places[i - 1]), places


@pytest.mark.parametrize("seed", [1, 2])
def test_a_40_player_tournament_ends_with_one_winner_and_every_place_once(seed: int) -> None:
    shared: list[PlayerEliminated] = []
    totals: list[int] = []

    def after_hand(t: Tournament, table_id: int, hand: Hand, events: list[TournamentEvent]) -> None:
        check_seating(t)
        check_chips(t)
        totals.append(t.total_chips())
        shared.extend(e for e in events if isinstance(e, PlayerEliminated) and e.shared)

    run = run_tournament(players=40, seed=seed, hands_per_level=10, after_hand=after_hand)
    done = run.finished
    assert done.reason is FinishReason.WINNER
    assert [s.place for s in done.standings].count(1) == 1
    winner = done.standings[0]
    assert (winner.player_id, winner.chips, winner.eliminated) == (done.winner, 400_000, False)
    assert all(s.eliminated and s.chips == 0 for s in done.standings[1:])
    assert sorted(s.player_id for s in done.standings) == [f"p{i:03d}" for i in range(1, 41)]
    _check_places(done.standings)
    if not shared:
        assert [s.place for s in done.standings] == list(range(1, 41))
    assert done.runner_up == done.standings[1].player_id
    assert totals == [400_000] * run.hands == [400_000] * run.chip_checks
    assert run.tables_at_start == 5 and len(run.tables_broken) == 4
    assert run.most_tables_in_hand >= 2  # the tables really played at the same time


def test_a_tournament_ended_by_the_deadline_ranks_everyone() -> None:
    run = run_tournament(players=30, seed=5, deadline_hands=3)
    done = run.finished
    assert done.reason is FinishReason.DEADLINE
    assert len(done.standings) == 30
    _check_places(done.standings)
    still_in = [s for s in done.standings if not s.eliminated]
    assert len(still_in) > 1
    assert sum(s.chips for s in still_in) + done.unclaimed_carry == 300_000
    assert "deadline" in format_run(run)


def test_every_hand_is_written_as_phh_with_its_table_and_level(tmp_path: Path) -> None:
    run = run_tournament(players=12, seed=3, seats=6, hands_per_level=3, history_dir=tmp_path)
    files = sorted(tmp_path.glob("*.phh"))
    assert len(files) == run.hands
    docs = [tomllib.loads(f.read_text()) for f in files]
    assert {d["table"] for d in docs} <= {1, 2}
    assert [d["hand"] for d in docs] == list(range(1, run.hands + 1))
    assert max(d["level"] for d in docs) >= 2


def test_the_command_prints_the_standings_and_the_chip_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "12", "--seed", "4", "--seats", "6", "--hands-per-level", "5"]) == 0
    out = capsys.readouterr().out
    assert "Final standings:" in out and "Chip conservation: ok" in out and "Tables broken: 1" in out


def test_hickory_server_simulate_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    from server.cli import main as server_main

    argv = ["simulate", "--tournament", "--players", "20", "--seed", "2", "--deadline-hands", "2"]
    assert server_main(argv) == 0
    out = capsys.readouterr().out
    assert "Ended at the deadline" in out and "Final standings:" in out


@pytest.mark.parametrize("ruleset", ["standard", "hickory"])
def test_simulate_tournament_plays_the_ruleset_asked_for(
    ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``simulate --tournament --ruleset standard`` deals every hand under the standard rules
    (issue 12, defect 5: it played hickory whatever was asked)."""
    from server.cli import main as server_main

    argv = ["simulate", "--tournament", "--ruleset", ruleset, "--players", "8", "--seed", "3",
            "--seats", "4", "--deadline-hands", "3", "--history-dir", str(tmp_path)]
    assert server_main(argv) == 0
    out = capsys.readouterr().out
    assert f"{ruleset} rules" in out
    docs = [tomllib.loads(f.read_text()) for f in sorted(tmp_path.glob("*.phh"))]
    assert docs and {d["_ruleset"] for d in docs} == {ruleset}
    # The standalone entry point takes the option too.
    assert main(["--players", "6", "--seed", "1", "--ruleset", ruleset, "--deadline-hands", "1"]) == 0
    assert f"{ruleset} rules" in capsys.readouterr().out
