"""``hickory-server simulate`` as a user runs it: a subprocess, its output and its files."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from poker.actions import Ruleset
from server.simulate import ChipsNotConserved, SimulationConfig, simulate_table

ROOT = Path(__file__).resolve().parents[2]
CONSERVED = re.compile(
    r"^chips: ([\d,]+) at the start \+ ([\d,]+) re-bought \(([\d,]+) re-buys\) = ([\d,]+); "
    r"at the end ([\d,]+) in stacks \+ ([\d,]+) carried = ([\d,]+): "
    r"conserved after every hand \(([\d,]+) checks\)$",
    re.MULTILINE,
)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", "simulate", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )


def without_rate(stdout: str) -> str:
    return "\n".join(line for line in stdout.splitlines() if not line.startswith("hands per second"))


def number(text: str) -> int:
    return int(text.replace(",", ""))


def test_same_seed_same_hands_and_chips_conserved(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    first = run_cli("--hands", "120", "--players", "6", "--seed", "7", "--history-dir", str(a))
    second = run_cli("--hands", "120", "--players", "6", "--seed", "7", "--history-dir", str(b))
    other = run_cli("--hands", "120", "--players", "6", "--seed", "8", "--history-dir", str(c))
    for run in (first, second, other):
        assert run.returncode == 0, run.stderr
    assert without_rate(first.stdout) == without_rate(second.stdout)

    files = sorted(p.name for p in a.iterdir())
    assert files == [f"hand-{n:06d}.phh" for n in range(1, 121)]
    assert files == sorted(p.name for p in b.iterdir())
    for name in files:
        assert (a / name).read_text() == (b / name).read_text(), name
    assert any((a / n).read_text() != (c / n).read_text() for n in files)

    m = CONSERVED.search(first.stdout)
    assert m is not None, first.stdout
    start, rebought, rebuys, brought, stacks, carry, total, checks = map(number, m.groups())
    assert start == 60_000 and rebought == rebuys * 10_000
    assert brought == start + rebought == stacks + carry == total
    assert checks == 120
    assert re.search(r"^hands per second: [\d,]+ \(120 hands in [\d.]+ s\)$", first.stdout, re.M)


def test_standard_ruleset_and_the_blinds_rise_every_50_hands(tmp_path: Path) -> None:
    run = run_cli("--hands", "101", "--players", "3", "--seed", "1", "--ruleset", "standard",
                  "--history-dir", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert "standard rules" in run.stdout and "last level 3 (200/400)" in run.stdout
    texts = {n: (tmp_path / f"hand-{n:06d}.phh").read_text() for n in (1, 50, 51, 100, 101)}
    assert "min_bet = 200\n" in texts[1] and "level = 1\n" in texts[50]
    assert "min_bet = 300\n" in texts[51] and "level = 2\n" in texts[100]
    assert "min_bet = 400\n" in texts[101]
    assert all('_ruleset = "standard"' in t for t in texts.values())


def test_a_bad_player_count_is_refused() -> None:
    run = run_cli("--hands", "1", "--players", "11")
    assert run.returncode == 2 and "2 to 10 players" in run.stdout


def test_busted_players_are_rebought_and_every_hand_is_checked() -> None:
    seen: list[int] = []
    report = simulate_table(
        SimulationConfig(hands=300, players=4, seed=5, ruleset=Ruleset.STANDARD),
        on_hand=lambda hand, info: seen.append(hand.hand_no),
    )
    assert seen == list(range(1, 301))
    assert report.rebuys > 0 and report.conserved
    assert len(report.stacks) == 4 and all(st > 0 for st in report.stacks.values())


def test_a_lost_chip_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from poker.table import Table

    real = Table.finish_hand

    def leaky(self: Table) -> list:  # type: ignore[type-arg]
        busted = real(self)
        next(iter(self.seats.values())).stack -= 1
        return busted

    monkeypatch.setattr(Table, "finish_hand", leaky)
    with pytest.raises(ChipsNotConserved, match="after hand #1 the table holds"):
        simulate_table(SimulationConfig(hands=3, players=3, seed=1))
