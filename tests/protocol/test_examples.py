"""The documentation's examples built again inside a test.

``protocol.examples`` builds its example messages when it is imported, so the documented
table snapshot is checked here by calling its builder: the snapshot docs/protocol.md
shows, and the same table seen by a spectator."""

from __future__ import annotations

from pathlib import Path

import attrs

from protocol import messages as m
from protocol.examples import SERVER_EXAMPLES, example, full_table_snapshot
from tools.docgen import example_line

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_the_documented_table_snapshot_is_the_one_built() -> None:
    snapshot = full_table_snapshot(your_seat=1, seq=9)
    assert snapshot in SERVER_EXAMPLES
    assert "```json\n" + example_line(snapshot) + "\n```" in DOC.read_text(encoding="utf-8")


def test_a_spectator_sees_the_same_table_without_cards() -> None:
    seen = full_table_snapshot(your_seat=None)
    player = full_table_snapshot(your_seat=1)
    assert seen.your_seat is None and seen.your_cards is None and seen.seq is None
    assert all(s.cards is None for s in seen.seats)
    assert [s.cards for s in player.seats] == [("As", "Kd")] + [None] * 8
    assert player.your_cards == ("As", "Kd")
    assert tuple(attrs.evolve(s, cards=None) for s in player.seats) == seen.seats
    third = full_table_snapshot(your_seat=3)
    assert [s.seat for s in third.seats if s.cards] == [3]


def test_example_finds_the_first_example_of_a_class() -> None:
    assert example(m.TableSnapshot) is next(x for x in SERVER_EXAMPLES if isinstance(x, m.TableSnapshot))
