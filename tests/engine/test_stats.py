"""Statistics (poker/stats.py) on hands built by hand: each figure, with the edge cases
docs/statistics.md names (a walk, an all-in blind, a 4-bet, a split pot)."""

from __future__ import annotations

from poker.actions import Action
from poker.events import HoleCardsDealt, visible_to
from poker.hand import Hand
from poker.stats import PlayerStats, Ratio, compute_stats
from tests.engine.test_history import stacked_deck

NAMES = {1: "sb", 2: "bb", 3: "btn"}


def _hand(no: int, moves: list[tuple[int, Action]], holes: dict[int, str] | None = None,
          stacks: tuple[int, int, int] = (5000, 5000, 5000), board: str = "2c7d9hJs3s") -> Hand:
    holes = holes or {1: "8c8d", 2: "AhAd", 3: "KhKd"}
    hand = Hand(hand_no=no, seats=list(zip((1, 2, 3), stacks, strict=True)), button=3,
                small_blind=100, big_blind=200, deck=stacked_deck([1, 2, 3], 3, holes, board))
    for seat, action in moves:
        assert hand.to_act == seat, (no, seat, hand.to_act)
        hand.act(seat, action)
    assert hand.is_over, no
    return hand


def three_bet_hand() -> Hand:
    """btn opens to 600, sb folds, bb 3-bets to 1,800, btn folds."""
    return _hand(1, [(3, Action.raise_to(600)), (1, Action.fold()), (2, Action.raise_to(1800)),
                     (3, Action.fold())])


def walk() -> Hand:
    """Everyone folds to the big blind."""
    return _hand(2, [(3, Action.fold()), (1, Action.fold())])


def limped_to_showdown() -> Hand:
    """Limped; on the flop sb bets, bb calls, btn raises, sb folds, bb calls; checked down:
    bb's aces beat btn's kings."""
    check = Action.check()
    return _hand(3, [(3, Action.call()), (1, Action.call()), (2, check),
                     (1, Action.bet(200)), (2, Action.call()), (3, Action.raise_to(600)), (1, Action.fold()),
                     (2, Action.call()), (2, check), (3, check), (2, check), (3, check)])


def stats(*hands: Hand) -> dict[str, PlayerStats]:
    return compute_stats((h.events, NAMES) for h in hands)


def test_hands_dealt_counts_every_hand_a_player_was_dealt_into() -> None:
    s = stats(three_bet_hand(), walk(), limped_to_showdown())
    assert {n: p.hands for n, p in s.items()} == {"sb": 3, "bb": 3, "btn": 3}


def test_vpip_counts_calls_and_raises_before_the_flop_not_blinds_and_a_walk_is_no_chance() -> None:
    s = stats(three_bet_hand(), walk(), limped_to_showdown())
    assert s["btn"].vpip == Ratio(2, 3)  # open raise, fold, limp
    assert s["sb"].vpip == Ratio(1, 3)  # fold, fold, complete the small blind
    # The big blind: a 3-bet (voluntary), the walk (no decision: no chance), a check (not voluntary).
    assert s["bb"].vpip == Ratio(1, 2)
    assert s["bb"].vpip.text() == "50%" and Ratio().text() == "-"


def test_pfr_counts_raises_before_the_flop() -> None:
    s = stats(three_bet_hand(), walk(), limped_to_showdown())
    assert (s["btn"].pfr, s["sb"].pfr, s["bb"].pfr) == (Ratio(1, 3), Ratio(0, 3), Ratio(1, 2))


def test_three_bet_is_a_reraise_facing_exactly_one_raise() -> None:
    s = stats(three_bet_hand(), walk(), limped_to_showdown())
    assert s["bb"].three_bet == Ratio(1, 1)
    assert s["sb"].three_bet == Ratio(0, 1)  # folded to the open: a chance not taken
    assert s["btn"].three_bet == Ratio(0, 0)  # the opener faces no single raise before it acts


def test_fold_to_three_bet_is_the_openers_answer_to_the_reraise() -> None:
    s = stats(three_bet_hand())
    assert s["btn"].fold_to_three_bet == Ratio(1, 1)
    assert s["bb"].fold_to_three_bet == Ratio(0, 0)
    # The opener calls the 3-bet this time: a chance, no fold.
    called = _hand(4, [(3, Action.raise_to(600)), (1, Action.fold()), (2, Action.raise_to(1800)),
                       (3, Action.call()), (2, Action.check()), (3, Action.check()), (2, Action.check()),
                       (3, Action.check()), (2, Action.check()), (3, Action.check())])
    assert stats(called)["btn"].fold_to_three_bet == Ratio(0, 1)
    # A 4-bet before the opener acts again: that is a fold to a 4-bet, not to a 3-bet.
    four = _hand(5, [(3, Action.raise_to(600)), (1, Action.raise_to(1800)), (2, Action.raise_to(4000)),
                     (3, Action.fold()), (1, Action.fold())])
    s4 = stats(four)
    assert s4["btn"].fold_to_three_bet == Ratio(0, 0)
    assert s4["sb"].three_bet == Ratio(1, 1) and s4["bb"].three_bet == Ratio(0, 0)


def test_aggression_factor_is_bets_and_raises_over_calls_after_the_flop() -> None:
    s = stats(limped_to_showdown())
    assert (s["sb"].bets_raises, s["sb"].calls, s["sb"].aggression) == (1, 0, None)
    assert s["sb"].aggression_text() == "inf"
    assert (s["bb"].bets_raises, s["bb"].calls, s["bb"].aggression) == (0, 2, 0.0)
    assert (s["btn"].bets_raises, s["btn"].calls) == (1, 0)
    # Before the flop nothing counts: the 3-bet hand has no flop.
    assert stats(three_bet_hand())["bb"].aggression_text() == "-"


def test_went_to_showdown_is_of_the_flops_seen_and_won_at_showdown_of_the_showdowns() -> None:
    s = stats(three_bet_hand(), walk(), limped_to_showdown())
    assert (s["sb"].saw_flop, s["sb"].showdown) == (1, Ratio(0, 1))  # folded on the flop
    assert s["bb"].showdown == Ratio(1, 1) and s["bb"].won_showdown == Ratio(1, 1)
    assert s["btn"].showdown == Ratio(1, 1) and s["btn"].won_showdown == Ratio(0, 1)


def test_an_all_in_preflop_sees_the_flop_and_a_split_pot_is_won_at_showdown() -> None:
    split = _hand(6, [(3, Action.all_in()), (1, Action.fold()), (2, Action.call())],
                  holes={1: "8c8d", 2: "AhKd", 3: "AdKh"})
    s = stats(split)
    assert s["bb"].showdown == Ratio(1, 1) and s["btn"].showdown == Ratio(1, 1)
    assert s["bb"].won_showdown == Ratio(1, 1) and s["btn"].won_showdown == Ratio(1, 1)
    assert s["sb"].saw_flop == 0 and s["sb"].showdown == Ratio(0, 0)
    # All in on the big blind: no decision before the flop, so no VPIP chance.
    short = _hand(7, [(3, Action.call()), (1, Action.call())] + [(s_, Action.check()) for s_ in (1, 3) * 3],
                  stacks=(5000, 150, 5000))
    assert stats(short)["bb"].vpip == Ratio(0, 0) and stats(short)["bb"].hands == 1


def test_biggest_pot_is_the_most_chips_collected_in_one_hand() -> None:
    s = stats(three_bet_hand(), walk(), limped_to_showdown())
    assert (s["bb"].biggest_pot, s["bb"].biggest_pot_hand) == (2000, 3)  # 3 x 200, then 200 + 600 + 600 on the flop
    assert (s["btn"].biggest_pot, s["btn"].biggest_pot_hand) == (0, None)
    assert stats(three_bet_hand())["bb"].biggest_pot == 1300  # 100 + 600 + 600 (1,200 came back)


def test_a_players_view_gives_the_same_figures_as_the_full_record() -> None:
    hands = [three_bet_hand(), walk(), limped_to_showdown()]
    full = compute_stats((h.events, NAMES) for h in hands)
    for viewer in (1, 2, 3, None):
        seen = compute_stats(([e for e in h.events if visible_to(e, viewer)], NAMES) for h in hands)
        assert seen == full
    assert any(isinstance(e, HoleCardsDealt) for e in hands[0].events)


def test_the_row_has_every_figure_with_its_counts() -> None:
    row = stats(three_bet_hand())["bb"].row()
    assert row["vpip"] == 100.0 and row["vpip_made"] == 1 and row["vpip_chances"] == 1
    assert row["aggression"] is None and row["biggest_pot"] == 1300 and row["biggest_pot_hand"] == 1
