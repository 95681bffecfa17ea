"""Properties of every hand, over random tables and random legal play.

Hypothesis picks the seats (2 to 10, any seat numbers), the stacks (tiny ones below the
blinds included), the blinds, the button, chips carried in from an earlier split, the
ruleset and the deck; then plays the hand choosing each action among everything
``legal_actions()`` lists, any kind and any raise amount. After every action:

- chips are conserved (stacks + chips in the middle + carry == the total at the start;
  after the hand, stacks + the chips carried out);
- every listed action is accepted, and actions not listed are refused with
  ``IllegalAction`` and leave the hand exactly as it was;
- no card is dealt twice, and no burned card is ever seen;
- the hand ends within a bounded number of actions;
- a pot leaves a remainder only when it splits unevenly.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from poker.actions import Action, ActionKind, IllegalAction, LegalActions, Ruleset
from poker.cards import FULL_DECK, Card, parse_cards, shuffled_deck
from poker.evaluator import evaluate
from poker.events import (
    ActionTaken,
    BlindPosted,
    BoardDealt,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    Street,
    UncalledBetReturned,
)
from poker.hand import Hand
from poker.table import Table
from tests.budget import examples

PROPERTY_SETTINGS = settings(
    max_examples=examples(250),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@attrs.frozen(kw_only=True)
class Setup:
    seats: tuple[tuple[int, int], ...]
    button: int
    small_blind: int
    big_blind: int
    carried_in: int
    ruleset: Ruleset
    deck: tuple[Card, ...]

    @property
    def total(self) -> int:
        return sum(stack for _, stack in self.seats) + self.carried_in

    def hand(self) -> Hand:
        return Hand(
            hand_no=1, seats=self.seats, button=self.button, small_blind=self.small_blind,
            big_blind=self.big_blind, deck=self.deck, carried_in=self.carried_in,
            ruleset=self.ruleset,
        )


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    n = draw(st.integers(2, 10))
    seat_numbers = draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True))
    small_blind = draw(st.integers(1, 200))
    big_blind = draw(st.sampled_from([small_blind, 2 * small_blind, 2 * small_blind + 1]))
    stack = st.one_of(
        st.integers(1, 2 * big_blind),  # below or about the blinds
        st.integers(2 * big_blind, 8 * big_blind),  # short: all-ins below a full raise
        st.integers(1, 60 * big_blind),
    )
    seats = tuple((s, draw(stack)) for s in seat_numbers)
    deck = list(draw(st.permutations(FULL_DECK)))
    if draw(st.integers(0, 3)) == 0:
        # A royal flush on the board: every hand still in ties, so pots split.
        royal = draw(st.sampled_from([parse_cards(f"A{s}K{s}Q{s}J{s}T{s}") for s in "cdhs"]))
        rest = [c for c in deck if c not in royal]
        first = 2 * n + 1
        board_at = [first, first + 1, first + 2, first + 4, first + 6]
        for i, c in zip(board_at, royal, strict=True):
            rest.insert(i, c)
        deck = rest
    return Setup(
        seats=seats,
        button=draw(st.sampled_from(seat_numbers)),
        small_blind=small_blind,
        big_blind=big_blind,
        carried_in=draw(st.sampled_from([0, 0, 1, 2, 7, 150])),
        ruleset=draw(st.sampled_from(list(Ruleset))),
        deck=tuple(deck),
    )


def raise_kind(legal: LegalActions) -> ActionKind:
    return ActionKind.BET if legal.is_bet else ActionKind.RAISE


def listed_actions(legal: LegalActions) -> list[Action]:
    """One of each action ``legal`` lists, raises at the minimum, the maximum and between."""
    actions = []
    if legal.fold:
        actions.append(Action.fold())
    if legal.check:
        actions.append(Action.check())
    if legal.call is not None:
        actions.append(Action.call())
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is not None and hi is not None:
        kind = raise_kind(legal)
        for to in sorted({lo, (lo + hi) // 2, hi}):
            actions.append(Action(kind=kind, amount=to))
    if all_in_allowed(legal):
        actions.append(Action.all_in())
    return actions


def all_in_allowed(legal: LegalActions) -> bool:
    """All-in is a raise to the stack, or a call that takes the whole stack."""
    return legal.min_raise_to is not None or (legal.call is not None and legal.call == legal.stack)


def chosen_action(data: st.DataObject, legal: LegalActions) -> Action:
    """A strategy over all legal kinds and amounts, so every corner is reachable."""
    # Listed twice: drawn twice as often (hypothesis draws uniformly from the list).
    kinds = []
    if legal.fold:
        kinds += ["fold", "fold"]
    if legal.check:
        kinds += ["check", "check"]
    if legal.call is not None:
        kinds += ["call", "call"]
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is not None and hi is not None:
        kinds += ["raise", "raise"]
    kinds.append("all_in")
    kind = data.draw(st.sampled_from(kinds))
    if kind == "fold":
        return Action.fold()
    if kind == "check":
        return Action.check()
    if kind == "call":
        return Action.call()
    if kind == "raise":
        assert lo is not None and hi is not None
        to = data.draw(st.one_of(st.just(lo), st.just(hi), st.integers(lo, hi)))
        return Action(kind=raise_kind(legal), amount=to)
    return legal.all_in_action()


def unlisted_actions(hand: Hand, legal: LegalActions) -> Iterator[tuple[int, Action]]:
    """Actions ``legal`` does not allow now, each with the seat that tries it."""
    seat = legal.seat
    for other in hand.seats:
        if other != seat:
            yield other, legal.timeout_action()  # out of turn
            yield other, Action.all_in()
    yield max(hand.seats) + 1, Action.check()  # not at the table
    if not all_in_allowed(legal) and legal.call is not None:
        yield seat, Action.all_in()  # raising is closed and calling leaves chips behind
    kind = raise_kind(legal)
    wrong = ActionKind.RAISE if kind is ActionKind.BET else ActionKind.BET
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is not None and hi is not None:
        if lo < hi:
            yield seat, Action(kind=kind, amount=lo - 1)
        yield seat, Action(kind=kind, amount=hi + 1)
        if not (wrong is ActionKind.BET and legal.call is None):  # the big blind's option: a bet raises
            yield seat, Action(kind=wrong, amount=lo)
        yield seat, Action(kind=kind, amount=None)
    else:
        yield seat, Action(kind=kind, amount=legal.current_bet + hand.big_blind)
        yield seat, Action(kind=kind, amount=legal.bet + legal.stack)
        yield seat, Action(kind=ActionKind.RAISE, amount=legal.bet + legal.stack)
    if not legal.fold:
        yield seat, Action.fold()
    if not legal.check:
        yield seat, Action.check()
    if legal.call is None:
        yield seat, Action.call()
    for no_amount in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL):
        yield seat, Action(kind=no_amount, amount=legal.current_bet + 1)


def snapshot(hand: Hand) -> tuple[Any, ...]:
    return (
        tuple(hand.events),
        hand.legal_actions(),
        hand.to_act,
        hand.street,
        tuple(hand.board),
        hand.current_bet,
        hand.carried_in,
        tuple(
            (s, hand.stack(s), hand.bet(s), hand.committed(s), hand.folded(s), hand.shown(s))
            for s in hand.seats
        ),
    )


def assert_chips_conserved(hand: Hand, total: int) -> None:
    assert hand.total_chips() == total
    if hand.result is None:
        in_play = sum(hand.stack(s) + hand.committed(s) for s in hand.seats) + hand.carried_in
        assert in_play == total
    else:
        assert sum(st for _, st in hand.result.stacks) + hand.result.carried_out == total
        assert dict(hand.result.stacks) == {s: hand.stack(s) for s in hand.seats}
        assert all(hand.committed(s) == 0 for s in hand.seats)


def expected_min_increment(hand: Hand) -> int:
    """The least a raise must add now, worked out from the rulebook and the events alone
    (never from the engine's own bookkeeping), docs/rules.md section 4:

    - ``hickory``: the big blind, always;
    - ``standard``: the largest full bet or raise increment of this betting round, never
      less than the big blind. An all-in that adds less than that is not a full raise and
      leaves the size as it was; the round starts at the big blind (before the flop the
      blinds make a bet of one big blind to match, even when the big blind is short).
    """
    big = hand.big_blind
    if hand.ruleset is Ruleset.HICKORY:
        return big
    current = big if hand.street is Street.PREFLOP else 0
    full = big
    for e in hand.events:
        if isinstance(e, ActionTaken) and e.street is hand.street and e.to > current:
            if e.to - current >= full:
                full = e.to - current
            current = e.to
    assert current == hand.current_bet, "the events and the bet to match disagree"
    return full


def assert_legal_is_consistent(hand: Hand, legal: LegalActions) -> None:
    seat = legal.seat
    assert legal.stack == hand.stack(seat) > 0 and not hand.folded(seat)
    assert legal.fold == (legal.to_call > 0) and legal.check == (legal.to_call == 0)
    if legal.call is not None:
        assert 0 < legal.call <= legal.stack and legal.call == min(legal.to_call, legal.stack)
    if legal.max_raise_to is not None:
        assert legal.min_raise_to is not None
        assert legal.current_bet < legal.min_raise_to <= legal.max_raise_to
        assert legal.max_raise_to == legal.bet + legal.stack
        if legal.is_bet:
            assert legal.min_raise_to == min(hand.big_blind, legal.max_raise_to)
        else:
            assert legal.min_raise_to == min(
                legal.current_bet + expected_min_increment(hand), legal.max_raise_to
            )


def assert_reopening_rule(hand: Hand, legal: LegalActions) -> None:
    """A player may bet or raise only if someone else can still act, and, having acted
    this round already, only facing at least a full raise since (interpretation 4)."""
    seat = legal.seat
    mine = [
        e for e in hand.events
        if isinstance(e, ActionTaken) and e.seat == seat and e.street is hand.street
    ]
    others = [s for s in hand.seats if s != seat and not hand.folded(s)]
    # Someone could call a raise: another live player can put in more than the bet now.
    can_be_called = any(hand.stack(s) + hand.bet(s) > legal.current_bet for s in others)
    all_all_in = all(hand.stack(s) == 0 for s in others)  # (implies not can_be_called)
    reopened = True
    if mine:
        reopened = legal.current_bet - mine[-1].to >= expected_min_increment(hand)
        if not reopened and can_be_called and legal.to_call:
            event("a short all-in did not reopen the betting")
    may_raise = legal.max_raise_to is not None
    assert may_raise is (
        not all_all_in and can_be_called and reopened and legal.bet + legal.stack > legal.current_bet
    )


def action_bound(setup: Setup) -> int:
    """No hand can take more actions than this (each raise adds at least a big blind, or
    is some player's one all-in, and between raises each player acts at most once)."""
    n = len(setup.seats)
    raises_per_round = setup.total // setup.big_blind + n + 1
    return 4 * n * (raises_per_round + 1)


def assert_cards_dealt_once(hand: Hand, setup: Setup) -> None:
    n = len(setup.seats)
    deck = setup.deck
    holes = [c for e in hand.events if isinstance(e, HoleCardsDealt) for c in e.cards]
    assert len(holes) == 2 * n and sorted(holes) == sorted(deck[: 2 * n])
    seen = holes + list(hand.board)
    assert len(seen) == len(set(seen))
    # Burn, three, burn, one, burn, one.
    expected_board = [deck[2 * n + 1], deck[2 * n + 2], deck[2 * n + 3], deck[2 * n + 5], deck[2 * n + 7]]
    assert list(hand.board) == expected_board[: len(hand.board)]
    dealt_boards = [c for e in hand.events if isinstance(e, BoardDealt) for c in e.cards]
    assert dealt_boards == list(hand.board)
    burned = {deck[2 * n], deck[2 * n + 4], deck[2 * n + 6]}
    for e in hand.events:
        for name in ("cards", "board"):
            assert not burned & set(getattr(e, name, ()))


def assert_refused_unchanged(hand: Hand, seat: int, action: Action) -> None:
    before = snapshot(hand)
    with pytest.raises(IllegalAction):
        hand.act(seat, action)
    assert snapshot(hand) == before


def assert_settled_properly(hand: Hand, setup: Setup) -> None:
    assert hand.result is not None
    assert isinstance(hand.events[-1], HandEnded)
    live = {s for s in hand.seats if not hand.folded(s)}
    awarded = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert awarded, "every hand awards at least the main pot"
    for pot in awarded:
        assert set(pot.eligible) <= live
        assert pot.winners and {s for s, _ in pot.winners} <= set(pot.eligible)
        shares = {won for _, won in pot.winners}
        assert len(shares) == 1
        share = shares.pop()
        assert share * len(pot.winners) + pot.remainder == pot.amount
        assert pot.remainder == pot.amount % len(pot.winners)
        if pot.remainder:
            assert len(pot.winners) > 1  # only a split leaves chips behind
    assert hand.result.carried_out == sum(p.remainder for p in awarded)
    event(f"showdown: {hand.result.showdown}")
    event(f"pots: {min(len(awarded), 3)}{'+' if len(awarded) >= 3 else ''}")
    if hand.result.carried_out:
        event("odd chips carried out")
    shown = [e.seat for e in hand.events if isinstance(e, HandShown)]
    assert len(shown) == len(set(shown)) and set(shown) <= live
    if hand.result.showdown:
        assert set(shown) == live  # every hand still in is shown
    else:
        assert len(live) == 1 and not shown


def assert_matches_reference_settlement(hand: Hand, setup: Setup) -> None:
    """Work the pots and the payout out again from the events alone, independently of
    ``pots.py`` and ``Hand._settle``, and compare."""
    street_bets: dict[tuple[Street, int], int] = {}
    holes: dict[int, tuple[Card, ...]] = {}
    street = Street.PREFLOP
    for e in hand.events:
        if isinstance(e, BlindPosted):
            street_bets[street, e.seat] = street_bets.get((street, e.seat), 0) + e.amount
        elif isinstance(e, ActionTaken):
            street = e.street
            street_bets[street, e.seat] = street_bets.get((street, e.seat), 0) + e.amount
        elif isinstance(e, UncalledBetReturned):
            street_bets[street, e.seat] -= e.amount
        elif isinstance(e, HoleCardsDealt):
            holes[e.seat] = e.cards
    # Every round ends with the largest bet matched: the unmatched part went back.
    for st_ in Street:
        bets = sorted((street_bets.get((st_, s), 0) for s in hand.seats), reverse=True)
        assert bets[0] == bets[1], f"an unmatched bet stayed in the pot on the {st_}"
    contrib = {s: sum(v for (_, seat), v in street_bets.items() if seat == s) for s in hand.seats}
    live = [s for s in hand.seats if not hand.folded(s)]
    # Layers cut at each amount a live player put in; folded chips fill the layers they reach.
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in sorted({contrib[s] for s in live if contrib[s] > 0}):
        amount = sum(min(c, level) - min(c, previous) for c in contrib.values())
        eligible = tuple(s for s in live if contrib[s] >= level)
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
        previous = level
    leftover = sum(max(0, c - previous) for c in contrib.values())
    assert leftover == 0, "chips no player still in could win stayed in the pot"
    assert pots, "someone still in put chips in"
    pots[0] = (pots[0][0] + setup.carried_in, pots[0][1])
    strength = {
        s: evaluate(holes[s] + tuple(hand.board)).strength if len(live) > 1 else 0 for s in live
    }
    expected_stacks = {s: stack - contrib[s] for s, stack in setup.seats}
    expected_awards = []
    for amount, eligible in pots:
        best = max(strength[s] for s in eligible)
        winners = [s for s in eligible if strength[s] == best]
        share = amount // len(winners)
        for s in winners:
            expected_stacks[s] += share
        expected_awards.append((amount, eligible, tuple((s, share) for s in winners)))
    awarded = [(p.amount, p.eligible, p.winners) for p in hand.events if isinstance(p, PotAwarded)]
    assert awarded == expected_awards
    assert {s: hand.stack(s) for s in hand.seats} == expected_stacks


def assert_nobody_passed_over(hand: Hand, after: int) -> None:
    """Everyone between ``after`` and the player to act (clockwise) had nothing to do:
    folded, all-in, or already acted this round with the bet matched (interpretation 3)."""
    if hand.to_act is None:
        return
    seats = list(hand.seats)
    acted = {
        e.seat for e in hand.events if isinstance(e, ActionTaken) and e.street is hand.street
    }
    start = seats.index(after)
    for k in range(1, len(seats) + 1):
        s = seats[(start + k) % len(seats)]
        if s == hand.to_act:
            return
        if hand.folded(s) or hand.stack(s) == 0:
            continue
        matched = hand.bet(s) == hand.current_bet
        alone = not any(
            not hand.folded(o) and hand.stack(o) > 0 for o in seats if o != s
        )
        assert matched and (s in acted or alone), f"seat {s} was passed over"
    raise AssertionError("the player to act is not in the hand")


def assert_round_closed_properly(
    hand: Hand, street: Street, actor: int, to: int, before: dict[int, tuple[bool, int, int]]
) -> None:
    """A betting round ended: every player still in with chips had acted in it (unless no
    one else could act) and matched the largest bet."""
    live_after = [s for s in hand.seats if not hand.folded(s)]
    if len(live_after) == 1:
        return  # everyone else folded
    acted = {e.seat for e in hand.events if isinstance(e, ActionTaken) and e.street is street}
    round_max = max([bet for _, _, bet in before.values()] + [to])
    # Chips behind once the action was taken (before any uncalled bet or pot came back).
    behind = {s: stack for s, (folded, stack, _) in before.items() if not hand.folded(s)}
    if actor in behind:
        behind[actor] -= to - before[actor][2]
    for s, (folded, stack, bet) in before.items():
        if s == actor or folded or stack == 0:
            continue
        assert bet == round_max, f"seat {s} never matched {round_max} on the {street}"
        others = [o for o, chips in behind.items() if o != s and chips > 0]
        assert s in acted or not others, f"seat {s} never acted on the {street}"


def play_out(hand: Hand, setup: Setup, data: st.DataObject, *, probe: bool) -> int:
    """Play ``hand`` to its end with drawn legal actions; return the number of actions."""
    total = setup.total
    bound = action_bound(setup)
    actions = 0
    assert_chips_conserved(hand, total)
    assert_nobody_passed_over(hand, hand.big_blind_seat)
    while not hand.is_over:
        assert actions < bound, "the hand did not end within the bound"
        legal = hand.legal_actions()
        assert legal is not None and hand.to_act == legal.seat
        assert_legal_is_consistent(hand, legal)
        assert_reopening_rule(hand, legal)
        if probe:
            for seat, action in unlisted_actions(hand, legal):
                assert_refused_unchanged(hand, seat, action)
            for action in listed_actions(legal):
                trial = copy.deepcopy(hand)
                trial.act(legal.seat, action)  # accepted: raises nothing
                assert_chips_conserved(trial, total)
        action = chosen_action(data, legal)
        street = hand.street
        before = {s: (hand.folded(s), hand.stack(s), hand.bet(s)) for s in hand.seats}
        events = hand.act(legal.seat, action, automatic=data.draw(st.booleans()))
        taken = next(e for e in events if isinstance(e, ActionTaken))
        assert taken.seat == legal.seat
        actions += 1
        assert_chips_conserved(hand, total)
        if hand.street is street:
            assert_nobody_passed_over(hand, legal.seat)
        else:
            assert_round_closed_properly(hand, street, legal.seat, taken.to, before)
            assert_nobody_passed_over(hand, hand.button)  # flop, turn, river
    assert hand.legal_actions() is None and hand.to_act is None
    if probe:
        for seat in hand.seats:
            with pytest.raises(IllegalAction) as info:
                hand.act(seat, Action.check())
            assert info.value.code == "hand_over"
    return actions


@PROPERTY_SETTINGS
@given(setup=setups(), data=st.data())
def test_random_hands_follow_the_rules(setup: Setup, data: st.DataObject) -> None:
    hand = setup.hand()
    play_out(hand, setup, data, probe=True)
    assert_cards_dealt_once(hand, setup)
    assert_settled_properly(hand, setup)
    assert_matches_reference_settlement(hand, setup)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    stacks=st.lists(st.integers(1, 4000), min_size=2, max_size=10),
    ruleset=st.sampled_from(list(Ruleset)),
    data=st.data(),
)
def test_a_table_conserves_chips_and_moves_the_button_hand_after_hand(
    stacks: list[int], ruleset: Ruleset, data: st.DataObject
) -> None:
    table = Table(table_id=1, seat_count=10, ruleset=ruleset)
    for seat, stack in enumerate(stacks, start=1):
        table.sit(seat, f"p{seat}", stack)
    total = sum(stacks)
    last_big_blind = None
    for hand_no in range(1, 16):
        if table.player_count < 2:
            break
        expected_button = table.next_button()
        expected_big_blind = table.next_big_blind()
        deck = tuple(shuffled_deck(data.draw(st.randoms(use_true_random=False))))
        hand = table.start_hand(hand_no=hand_no, deck=deck, small_blind=50, big_blind=100)
        assert (hand.button, hand.big_blind_seat) == (expected_button, expected_big_blind)
        big_blind = table.seats[hand.big_blind_seat].player_id
        assert big_blind != last_big_blind, f"{big_blind} posts the big blind twice in a row (TDA)"
        last_big_blind = big_blind
        assert table.total_chips() == total
        started = hand.events[0]
        assert isinstance(started, HandStarted)
        setup = Setup(
            # The hand may be over already (blinds all-in): its carry is then in the pot
            # and hand.carried_in is 0; what it started with is in HandStarted.
            seats=hand.starting_stacks,
            button=hand.button, small_blind=50, big_blind=100, carried_in=started.carried_in,
            ruleset=ruleset, deck=deck,
        )
        play_out(hand, setup, data, probe=False)
        assert_matches_reference_settlement(hand, setup)
        seated_before = set(table.seats)
        busted = table.finish_hand()
        assert table.total_chips() == total
        assert {s for s, _, _ in busted} == seated_before - set(table.seats)
        assert all(p.stack > 0 for p in table.seats.values())
