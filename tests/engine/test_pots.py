"""``poker/pots.py`` on its own: main and side pots from contributions, and the odd chip.

A hand calls ``build_pots`` only with chips every live player could contest (the
unmatched part of a bet is returned first), so the odd cases below, chips above every live
player's contribution, or chips in with no live contribution, are reached only by calling
it directly. They are defined anyway, so that no chip is ever orphaned.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from poker.pots import Pot, build_pots, split


def test_each_all_in_amount_cuts_a_side_pot() -> None:
    # docs/rules.md section 5: A all-in for 1,000, B for 3,000, C calls (C's extra went back).
    pots = build_pots({1: 1000, 2: 3000, 3: 3000}, {1, 2, 3})
    assert pots == [Pot(amount=3000, eligible=(1, 2, 3)), Pot(amount=4000, eligible=(2, 3))]


def test_folded_chips_stay_in_the_pots_they_reached_but_win_none() -> None:
    pots = build_pots({1: 1000, 2: 3000, 3: 3000, 4: 2000}, {1, 2, 3})
    assert pots == [Pot(amount=4000, eligible=(1, 2, 3)), Pot(amount=5000, eligible=(2, 3))]


def test_carried_chips_join_the_main_pot() -> None:
    pots = build_pots({1: 200, 2: 500, 3: 500}, {1, 2, 3}, carried_in=7)
    assert pots == [Pot(amount=607, eligible=(1, 2, 3)), Pot(amount=600, eligible=(2, 3))]


def test_chips_above_every_live_contribution_go_to_the_top_pot() -> None:
    # Seat 2 folded after putting in more than anyone still in (not possible in a hand).
    assert build_pots({1: 100, 2: 300, 3: 60}, {1, 3}) == [
        Pot(amount=180, eligible=(1, 3)), Pot(amount=280, eligible=(1,)),
    ]


def test_chips_with_no_live_contribution_go_to_every_live_player() -> None:
    assert build_pots({1: 0, 2: 50, 3: 0}, {1, 3}) == [Pot(amount=50, eligible=(1, 3))]
    assert build_pots({1: 0, 2: 0}, {1, 2}, carried_in=3) == [Pot(amount=3, eligible=(1, 2))]
    assert build_pots({1: 0, 2: 0}, {1, 2}) == []


@given(
    committed=st.dictionaries(st.integers(1, 10), st.integers(0, 5000), min_size=2),
    data=st.data(),
    carried=st.integers(0, 20),
)
def test_pots_hold_every_chip_and_each_has_fewer_players_than_the_last(
    committed: dict[int, int], data: st.DataObject, carried: int
) -> None:
    live = data.draw(st.sets(st.sampled_from(sorted(committed)), min_size=1))
    pots = build_pots(committed, live, carried)
    assert sum(p.amount for p in pots) == sum(committed.values()) + carried
    for before, after in zip(pots, pots[1:], strict=False):
        assert set(after.eligible) < set(before.eligible)
    for p in pots:
        assert p.eligible == tuple(sorted(p.eligible)) and set(p.eligible) <= live
        assert p.amount > 0


def test_a_split_leaves_the_remainder_for_the_next_hand() -> None:
    assert split(375, 2) == (187, 1)
    assert split(300, 3) == (100, 0)
    assert split(5, 1) == (5, 0)
    assert split(2, 3) == (0, 2)
