"""PokerStars hand histories (poker/pokerstars.py): the exact lines for the hands trackers
are strict about (side pots, uncalled bets, all-ins, split pots, short blinds, carried odd
chips), and many simulated hands read back by an independent parser (pokerdf)."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter

import attrs
import pytest

from poker.actions import Action
from poker.cards import parse_cards, shuffled_deck
from poker.events import BlindPosted, HandStarted, visible_to
from poker.hand import Hand
from poker.history import HandInfo, HistoryError
from poker.pokerstars import (
    carried_chips,
    eastern_time,
    hand_description,
    hand_id,
    ordinal,
    roman,
    to_pokerstars,
)
from poker.policy import random_action
from poker.table import Table
from server.simulate import SimulationConfig, simulate_table
from tests.engine.pokerstars_referee import Expected, check_file
from tests.engine.test_history import NAMES, stacked_deck

CET = dt.timezone(dt.timedelta(hours=1), "CET")


def four_way_all_in() -> Hand:
    deck = stacked_deck([1, 2, 3, 4], 4, {1: "AhAd", 2: "KhKd", 3: "QhQc", 4: "QdQs"}, "2c7d9hJs3s")
    hand = Hand(hand_no=7, seats=[(1, 500), (2, 1500), (3, 3000), (4, 3000)], button=4,
                small_blind=100, big_blind=200, deck=deck)
    for seat in (3, 4, 1, 2):
        hand.act(seat, Action.all_in())
    return hand


def test_four_way_all_in_two_side_pots_and_a_split_are_written_as_pokerstars_writes_them() -> None:
    info = HandInfo(table_id=2, level=1, players={1: "ann", 2: "ben", 3: "cy", 4: "dee"}, seat_count=6,
                    started_at=dt.datetime(2026, 11, 30, 21, 5, 9, tzinfo=CET))
    assert to_pokerstars(four_way_all_in().events, info, tournament_no=2611302100, viewer=3) == """\
PokerStars Hand #2611302100000007: Tournament #2611302100, Freeroll Hold'em No Limit - Level I (100/200) - 2026/11/30 21:05:09 CET [2026/11/30 15:05:09 ET]
Table '2611302100 2' 6-max Seat #4 is the button
Seat 1: ann (500 in chips)
Seat 2: ben (1500 in chips)
Seat 3: cy (3000 in chips)
Seat 4: dee (3000 in chips)
ann: posts small blind 100
ben: posts big blind 200
*** HOLE CARDS ***
Dealt to cy [Qh Qc]
cy: raises 2800 to 3000 and is all-in
dee: calls 3000 and is all-in
ann: calls 400 and is all-in
ben: calls 1300 and is all-in
*** FLOP *** [2c 7d 9h]
*** TURN *** [2c 7d 9h] [Js]
*** RIVER *** [2c 7d 9h Js] [3s]
*** SHOW DOWN ***
ann: shows [Ah Ad] (a pair of Aces)
ben: shows [Kh Kd] (a pair of Kings)
cy: shows [Qh Qc] (a pair of Queens)
dee: shows [Qd Qs] (a pair of Queens)
cy collected 1500 from side pot-2
dee collected 1500 from side pot-2
ben collected 3000 from side pot-1
ann collected 2000 from main pot
*** SUMMARY ***
Total pot 8000 Main pot 2000. Side pot-1 3000. Side pot-2 3000. | Rake 0
Board [2c 7d 9h Js 3s]
Seat 1: ann (small blind) showed [Ah Ad] and won (2000) with a pair of Aces
Seat 2: ben (big blind) showed [Kh Kd] and won (3000) with a pair of Kings
Seat 3: cy showed [Qh Qc] and won (1500) with a pair of Queens
Seat 4: dee (button) showed [Qd Qs] and won (1500) with a pair of Queens
"""


def test_an_uncalled_bet_comes_back_and_a_folded_players_own_cards_are_in_their_copy() -> None:
    deck = stacked_deck([1, 2, 3], 1, {1: "AsAd", 2: "7c2d", 3: "9h9s"})
    hand = Hand(hand_no=3, seats=[(1, 5_000), (2, 5_000), (3, 5_000)], button=1,
                small_blind=100, big_blind=200, deck=deck)
    hand.act(1, Action.raise_to(600))
    hand.act(2, Action.fold())
    hand.act(3, Action.fold(), automatic=True)
    info = HandInfo(table_id=1, level=2, players=NAMES)
    lines = to_pokerstars(hand.events, info, tournament_no=5, viewer=2).splitlines()
    assert lines[0].startswith("PokerStars Hand #5000003: Tournament #5, Freeroll Hold'em No Limit - Level II")
    assert lines[8:] == [
        "Dealt to bob [7c 2d]",  # bob folded: his cards are still in his copy (PokerTH #406)
        "alice: raises 400 to 600",
        "bob: folds",
        "carol: folds",
        "Uncalled bet (400) returned to alice",
        "alice collected 500 from pot",
        "alice: doesn't show hand",
        "*** SUMMARY ***",
        "Total pot 500 | Rake 0",
        "Seat 1: alice (button) collected (500)",
        "Seat 2: bob (small blind) folded before Flop",
        "Seat 3: carol (big blind) folded before Flop",
    ]
    text = "\n".join(lines)
    assert "As" not in text and "9h" not in text
    hand.show(1)  # shown by choice after the hand
    lines = to_pokerstars(hand.events, info, tournament_no=5, viewer=3).splitlines()
    assert lines[lines.index("*** SUMMARY ***") - 2:lines.index("*** SUMMARY ***")] == [
        "alice collected 500 from pot", "alice: shows [As Ad]"]
    assert "Dealt to carol [9h 9s]" in lines and "7c" not in "\n".join(lines)


def test_a_split_main_pot_keeps_its_odd_chip_and_the_side_pot_is_split_too() -> None:
    deck = stacked_deck([1, 2, 3], 3, {1: "4c5d", 2: "KhKd", 3: "KcKs"}, "2c7d9hJs3s")
    hand = Hand(hand_no=8, seats=[(1, 501), (2, 2001), (3, 2000)], button=3,
                small_blind=100, big_blind=200, deck=deck)
    hand.act(3, Action.all_in())
    hand.act(1, Action.all_in())
    hand.act(2, Action.call())
    lines = to_pokerstars(hand.events, HandInfo(table_id=1, level=4), tournament_no=9,
                          reveal_all=True).splitlines()
    assert lines[lines.index("*** HOLE CARDS ***"):] == [
        "*** HOLE CARDS ***",
        "Dealt to seat 1 [4c 5d]",  # the full record: every player's cards, from the left of the button
        "Dealt to seat 2 [Kh Kd]",
        "Dealt to seat 3 [Kc Ks]",
        "seat 3: raises 1800 to 2000 and is all-in",
        "seat 1: calls 401 and is all-in",
        "seat 2: calls 1800",
        "*** FLOP *** [2c 7d 9h]",
        "*** TURN *** [2c 7d 9h] [Js]",
        "*** RIVER *** [2c 7d 9h Js] [3s]",
        "*** SHOW DOWN ***",
        "seat 1: shows [4c 5d] (high card Jack)",
        "seat 2: shows [Kh Kd] (a pair of Kings)",
        "seat 3: shows [Kc Ks] (a pair of Kings)",
        "seat 2 collected 1499 from side pot",
        "seat 3 collected 1499 from side pot",
        "seat 2 collected 751 from main pot",
        "seat 3 collected 751 from main pot",
        "*** SUMMARY ***",
        # 1,503 + 2,998 = 4,501; one odd chip of the main pot stays for the next hand
        "Total pot 4501 Main pot 1503. Side pot 2998. | Rake 0",
        "Board [2c 7d 9h Js 3s]",
        "Seat 1: seat 1 (small blind) showed [4c 5d] and lost with high card Jack",
        "Seat 2: seat 2 (big blind) showed [Kh Kd] and won (2250) with a pair of Kings",
        "Seat 3: seat 3 (button) showed [Kc Ks] and won (2250) with a pair of Kings",
    ]
    assert carried_chips(hand.events) == (0, 1)


def test_chips_carried_in_are_in_the_main_pot_and_the_total() -> None:
    table = Table(table_id=4, seat_count=3, carry=3)
    for seat, name in NAMES.items():
        table.sit(seat, name, 1_000)
    deck = stacked_deck([1, 2, 3], 3, {1: "2c3d", 2: "AsKd", 3: "AhKc"}, "Qs Js 8d 4h 5c")
    hand = table.start_hand(hand_no=9, deck=deck, small_blind=25, big_blind=50, button=3)
    hand.act(3, Action.call())
    hand.act(1, Action.fold())
    hand.act(2, Action.check())
    for _ in range(3):
        hand.act(2, Action.check())
        hand.act(3, Action.check())
    lines = to_pokerstars(hand.events, HandInfo(table_id=4, level=1, players=NAMES), tournament_no=1,
                          viewer=1).splitlines()
    # 25 + 50 + 50 put in, 3 carried in: 128, split 64 each (no line says "carried")
    assert "Total pot 128 | Rake 0" in lines
    assert "bob collected 64 from pot" in lines and "carol collected 64 from pot" in lines
    assert "Seat 1: alice (small blind) folded before Flop" in lines
    assert carried_chips(hand.events) == (3, 0)


def test_a_short_big_blind_is_all_in_on_the_post_and_the_call_is_the_full_blind() -> None:
    deck = stacked_deck([1, 2, 3], 3, {1: "AhAd", 2: "KhKd", 3: "QhQd"}, "2c7d9hJs3s")
    hand = Hand(hand_no=10, seats=[(1, 1000), (2, 7), (3, 1000)], button=3, small_blind=5,
                big_blind=10, deck=deck)
    hand.act(3, Action.call())
    hand.act(1, Action.call())
    while not hand.is_over:
        assert hand.to_act is not None
        hand.act(hand.to_act, Action.check())
    lines = to_pokerstars(hand.events, HandInfo(table_id=1, level=1), tournament_no=1, viewer=3).splitlines()
    assert lines[5:8] == ["seat 1: posts small blind 5", "seat 2: posts big blind 7 and is all-in",
                          "*** HOLE CARDS ***"]
    assert "seat 3: calls 10" in lines and "seat 1: calls 5" in lines
    assert "seat 1 collected 6 from side pot" in lines and "seat 1 collected 21 from main pot" in lines
    assert "Total pot 27 Main pot 21. Side pot 6. | Rake 0" in lines
    assert "Seat 2: seat 2 (big blind) showed [Kh Kd] and lost with a pair of Kings" in lines


def test_heads_up_the_button_is_the_small_blind_and_a_checked_down_hand_reaches_showdown() -> None:
    deck = stacked_deck([2, 5], 5, {2: "Tc9c", 5: "8h8s"}, "7c6c2d3h8c")
    hand = Hand(hand_no=44, seats=[(2, 3000), (5, 3000)], button=5, small_blind=50, big_blind=100, deck=deck)
    hand.act(5, Action.call())
    hand.act(2, Action.check())
    while not hand.is_over:
        assert hand.to_act is not None
        hand.act(hand.to_act, Action.check())
    lines = to_pokerstars(hand.events, HandInfo(table_id=3, level=12, players={2: "x", 5: "y"}, seat_count=2),
                          tournament_no=77, viewer=5).splitlines()
    assert lines[1] == "Table '77 3' 2-max Seat #5 is the button"
    assert lines[4:6] == ["y: posts small blind 50", "x: posts big blind 100"]
    assert "y: calls 50" in lines and "x: checks" in lines
    assert lines[-2:] == [
        "Seat 2: x (big blind) showed [Tc 9c] and won (200) with a straight flush, Six to Ten",
        "Seat 5: y (button) (small blind) showed [8h 8s] and lost with three of a kind, Eights",
    ]
    assert "Level XII (50/100)" in lines[0]


def test_the_big_blind_ante_is_posted_first_and_is_in_the_pot() -> None:
    deck = stacked_deck([1, 2, 3], 3, {1: "AhAd", 2: "KhKd", 3: "7c2d"}, "2c7d9hJs3s")
    hand = Hand(hand_no=5, seats=[(1, 5000), (2, 5000), (3, 5000)], button=3, small_blind=100,
                big_blind=200, deck=deck, ante=200)
    for seat, action in ((3, Action.fold()), (1, Action.raise_to(600)), (2, Action.fold())):
        hand.act(seat, action)
    lines = to_pokerstars(hand.events, HandInfo(table_id=1, level=1, players=NAMES), tournament_no=1,
                          viewer=2).splitlines()
    assert lines[5:9] == ["bob: posts the ante 200", "alice: posts small blind 100", "bob: posts big blind 200",
                          "*** HOLE CARDS ***"]
    assert "Uncalled bet (400) returned to alice" in lines and "alice collected 600 from pot" in lines
    assert "Total pot 600 | Rake 0" in lines  # 200 + 200 of the blinds and the 200 ante


def test_a_big_blind_all_in_on_the_ante_posts_no_blind() -> None:
    deck = stacked_deck([1, 2, 3], 3, {1: "AhAd", 2: "KhKd", 3: "7c2d"}, "2c7d9hJs3s")
    hand = Hand(hand_no=6, seats=[(1, 5000), (2, 150), (3, 5000)], button=3, small_blind=100,
                big_blind=200, deck=deck, ante=200)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Action.check() if legal.check else Action.call())
    lines = to_pokerstars(hand.events, HandInfo(table_id=1, level=1, players=NAMES), tournament_no=1,
                          viewer=2).splitlines()
    assert "bob: posts the ante 150 and is all-in" in lines
    assert not any(line.startswith("bob: posts big blind") for line in lines)
    text = "\n".join(lines)
    assert check_file(text, [Expected(events=hand.events, info=HandInfo(table_id=1, level=1, players=NAMES),
                                      viewer=2)], 1) == 3


def test_hand_names_in_pokerstars_words() -> None:
    cases = {
        "AhKd7c5s3d2c9h": "high card Ace",
        "QsQh2d7c9sJd3h": "a pair of Queens",
        "KhKd7s7c2d3h4s": "two pair, Kings and Sevens",
        "8h8d8c2s4dJhKs": "three of a kind, Eights",
        "Ah2d3c4s5hKdQc": "a straight, Ace to Five",
        "9h8d7c6s5hKd2c": "a straight, Five to Nine",
        "Ah9h7h4h2hKdQc": "a flush, Ace high",
        "KhKdKs7c7d2h3s": "a full house, Kings full of Sevens",
        "AhAdAsAc2d3h4s": "four of a kind, Aces",
        "9h8h7h6h5hKd2c": "a straight flush, Five to Nine",
        "AhKhQhJhTh2d3c": "a Royal Flush",
    }
    for cards, name in cases.items():
        assert hand_description(parse_cards(cards)) == name, cards


def test_eastern_time_follows_the_us_daylight_rule_and_levels_are_roman() -> None:
    utc = dt.UTC
    assert eastern_time(dt.datetime(2026, 1, 5, 12, 0, tzinfo=utc)) == dt.datetime(2026, 1, 5, 7, 0)
    assert eastern_time(dt.datetime(2026, 7, 5, 12, 0, tzinfo=utc)) == dt.datetime(2026, 7, 5, 8, 0)
    # 2026: daylight time from 8 March 07:00 UTC to 1 November 06:00 UTC
    assert eastern_time(dt.datetime(2026, 3, 8, 6, 59, tzinfo=utc)).hour == 1
    assert eastern_time(dt.datetime(2026, 3, 8, 7, 0, tzinfo=utc)).hour == 3
    assert eastern_time(dt.datetime(2026, 11, 1, 5, 59, tzinfo=utc)).hour == 1
    assert eastern_time(dt.datetime(2026, 11, 1, 6, 0, tzinfo=utc)).hour == 1
    assert [roman(n) for n in (1, 4, 9, 14, 40, 49)] == ["I", "IV", "IX", "XIV", "XL", "XLIX"]
    assert hand_id(2612012100, 42) == 2612012100000042


def test_a_zone_without_an_abbreviation_is_written_in_utc() -> None:
    odd = dt.timezone(dt.timedelta(hours=5, minutes=30))
    info = HandInfo(table_id=1, level=1, started_at=dt.datetime(2026, 12, 1, 3, 30, tzinfo=odd))
    head = to_pokerstars(four_way_all_in().events, info, tournament_no=1, viewer=1).splitlines()[0]
    assert head.endswith("- 2026/11/30 22:00:00 UTC [2026/11/30 17:00:00 ET]")


def test_an_unfinished_hand_is_refused() -> None:
    hand = Hand(hand_no=1, seats=[(1, 100), (2, 100)], button=1, small_blind=1, big_blind=2,
                deck=stacked_deck([1, 2], 1, {1: "AhAd", 2: "KhKd"}))
    with pytest.raises(HistoryError, match="not over"):
        to_pokerstars(hand.events, HandInfo(table_id=1, level=1), tournament_no=1, viewer=1)


@pytest.mark.parametrize("seed", [11])
def test_an_independent_parser_reads_every_simulated_hand_as_recorded(seed: int) -> None:
    """pokerdf reads 400 hands of a 6-max table, from two players' copies and the full
    record, and agrees with the events on every field it reads (tests/engine/pokerstars_referee.py)."""
    copies: dict[tuple[int | None, bool], tuple[list[str], list[Expected]]] = {
        (1, False): ([], []), (4, False): ([], []), (None, True): ([], [])}
    seen: Counter[str] = Counter()
    start = dt.datetime(2026, 12, 1, 21, 0, tzinfo=dt.UTC)

    def on_hand(hand: Hand, info: HandInfo) -> None:
        info = attrs.evolve(info, seat_count=6, started_at=start + dt.timedelta(minutes=hand.hand_no))
        for (viewer, reveal), (texts, expected) in copies.items():
            texts.append(to_pokerstars(hand.events, info, tournament_no=2612012100, viewer=viewer,
                                       reveal_all=reveal))
            if viewer is not None:
                # A player's client knows only what it was sent: the same copy from that.
                seen_by = [e for e in hand.events if visible_to(e, viewer)]
                assert to_pokerstars(seen_by, info, tournament_no=2612012100, viewer=viewer) == texts[-1]
            expected.append(Expected(events=list(hand.events), info=info, viewer=viewer, reveal_all=reveal))
        text = texts[-1]
        seen["side pot"] += "Side pot" in text
        seen["uncalled"] += "Uncalled bet" in text
        seen["split"] += any(len(p.winners) > 1 for p in hand.pots_awarded)
        seen["short blind"] += "blind" in text and any(
            isinstance(e, BlindPosted) and e.all_in for e in hand.events)
        seen["showdown"] += "*** SHOW DOWN ***" in text
        start_event = next(e for e in hand.events if isinstance(e, HandStarted))
        seen["carried"] += bool(start_event.carried_in)

    simulate_table(SimulationConfig(hands=400, players=6, seed=seed, starting_stack=1500, hands_per_level=40),
                   on_hand=on_hand)
    for texts, expected in copies.values():
        assert check_file("\n\n".join(texts), expected, 2612012100) == 400 * 6
    assert all(seen[k] > 0 for k in ("side pot", "uncalled", "split", "short blind", "showdown", "carried")), seen


def test_an_independent_parser_reads_simulated_hands_with_a_big_blind_ante() -> None:
    """250 hands at a 5-max table with a big-blind ante as large as the big blind (short
    stacks post it all in), through pokerdf as recorded: the ante line and the pots."""
    rng = random.Random(27)
    table = Table(table_id=3, seat_count=5)
    names = {s: f"p{s}" for s in range(1, 6)}
    for s in names:
        table.sit(s, names[s], 1200)
    texts: list[str] = []
    expected: list[Expected] = []
    seen = Counter[str]()
    for no in range(1, 251):
        blind = 50 * (1 + no // 50)
        hand = table.start_hand(hand_no=no, deck=shuffled_deck(rng), small_blind=blind // 2, big_blind=blind,
                                ante=blind)
        legal = hand.legal_actions()
        while legal is not None:
            hand.act(legal.seat, random_action(legal, rng))
            legal = hand.legal_actions()
        info = HandInfo(table_id=3, level=1 + no // 50, players=names, seat_count=5)
        texts.append(to_pokerstars(hand.events, info, tournament_no=7, viewer=1))
        expected.append(Expected(events=list(hand.events), info=info, viewer=1))
        seen["ante"] += "posts the ante" in texts[-1]
        seen["ante all-in"] += bool(re.search(r"posts the ante \d+ and is all-in", texts[-1]))
        seen["side pot"] += "Side pot" in texts[-1]
        for seat, _player, _stack in table.finish_hand():
            table.sit(seat, names[seat], 1200)
    assert check_file("\n\n".join(texts), expected, 7) == 250 * 5
    assert seen["ante"] == 250 and seen["ante all-in"] > 0 and seen["side pot"] > 0, seen


def test_who_finished_the_tournament_in_the_hand_is_written_before_the_summary() -> None:
    hand = four_way_all_in()
    info = HandInfo(table_id=2, level=1, players={1: "ann", 2: "ben", 3: "cy", 4: "dee"})
    lines = to_pokerstars(hand.events, info, tournament_no=1, viewer=1, finishes={3: 3, 4: 3, 1: 1}).splitlines()
    at = lines.index("*** SUMMARY ***")
    assert lines[at - 3:at] == ["cy finished the tournament in 3rd place", "dee finished the tournament in 3rd place",
                                "ann wins the tournament"]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]
    expected = Expected(events=hand.events, info=info, viewer=1, finishes={3: 3, 4: 3, 1: 1})
    assert check_file("\n".join(lines), [expected], 1) == 4
