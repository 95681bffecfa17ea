"""Every player who arrives at a table is dealt in, soon: the liveness of the seating rule.

The rule (``poker/table.py``, ``docs/rules.md`` section 7): an arrival is never dealt in on
the button or in the small blind of their first hand, so they may wait for the button; and
heads-up, where the button never passes an empty seat, the button is placed to make them
the big blind at once. What must hold whatever the table: a player with chips is dealt in
within (players at that table + 1) hands of sitting down there.

The exhaustive check below once found 1,260 of 12,084 arrivals never dealt in, every one at
a table where two were playing (issue 23, defect 1). The hypothesis property adds what a
night adds: several arrivals, players leaving, voided hands.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from poker.actions import Action
from poker.cards import FULL_DECK
from poker.table import Table

DECK = list(FULL_DECK)


def fold_round(t: Table, hand_no: int) -> list[int]:
    """Deal one hand, everyone folds to the blinds (nobody busts); the seats dealt in."""
    hand = t.start_hand(hand_no=hand_no, deck=DECK, small_blind=50, big_blind=100)
    dealt = list(hand.seats)
    while not hand.is_over:
        hand.act(hand.to_act or 0, Action.fold())
    t.finish_hand()
    return dealt


def hands_until_dealt(t: Table, seat: int, *, limit: int, first_hand: int) -> int | None:
    """Hands played until ``seat`` is dealt in (1 = the next hand), None past ``limit``."""
    for n in range(1, limit + 1):
        if seat in fold_round(t, first_hand + n):
            return n
    return None


def test_every_arrival_is_dealt_in_within_the_table_size_plus_one_hands() -> None:
    """3 to 9 seats, 2 to 5 playing, the button in every position, an arrival in every
    empty seat, everyone folding so nobody busts."""
    arrivals = stuck = 0
    for seat_count in range(3, 10):
        for playing in range(2, min(5, seat_count - 1) + 1):
            for seats in itertools.combinations(range(1, seat_count + 1), playing):
                for button in seats:
                    for arrival in (s for s in range(1, seat_count + 1) if s not in seats):
                        t = Table(table_id=1, seat_count=seat_count)
                        for s in seats:
                            t.sit(s, f"p{s}", 100_000)
                        t.start_hand(hand_no=1, deck=DECK, small_blind=50, big_blind=100,
                                     button=button)
                        hand = t.hand
                        assert hand is not None
                        while not hand.is_over:
                            hand.act(hand.to_act or 0, Action.fold())
                        t.finish_hand()
                        t.sit(arrival, "new", 100_000, arriving=True)
                        bound = t.player_count + 1
                        arrivals += 1
                        if hands_until_dealt(t, arrival, limit=bound, first_hand=1) is None:
                            stuck += 1
    assert arrivals > 10_000
    assert stuck == 0, f"{stuck} of {arrivals} arrivals were not dealt in within players + 1 hands"


def test_an_arrival_at_a_heads_up_table_posts_the_big_blind_of_the_next_hand() -> None:
    t = Table(table_id=2, seat_count=4)
    t.sit(1, "bot-1", 10_000)
    t.sit(2, "bot-2", 10_000)
    for n in range(1, 6):  # the button alternates between seats 1 and 2
        fold_round(t, n)
    t.sit(3, "carol", 10_000, arriving=True)
    dealt, button, small, big = t.deal_plan()
    assert dealt == [1, 2, 3]
    assert big == 3 and {button, small} == {1, 2}


def test_heads_up_two_arrivals_one_dealt_at_once_the_other_when_the_button_passes() -> None:
    t = Table(table_id=2, seat_count=4)
    t.sit(1, "a", 10_000)
    t.sit(3, "c", 10_000)
    fold_round(t, 1)
    t.sit(2, "b", 10_000, arriving=True)
    t.sit(4, "d", 10_000, arriving=True)
    seen: set[int] = set()
    for n in range(2, 2 + t.player_count + 1):
        seen.update(fold_round(t, n))
    assert seen == {1, 2, 3, 4}


@settings(max_examples=300, deadline=None)
@given(
    seat_count=st.integers(2, 10),
    data=st.data(),
)
def test_whatever_happens_between_hands_every_arrival_is_dealt_in_soon(
    seat_count: int, data: st.DataObject,
) -> None:
    """Hands with arrivals, players leaving (a bust or a move away) and voided hands in any
    order: each arrival still at the table is dealt in within (players + 1) hands."""
    t = Table(table_id=1, seat_count=seat_count)
    first = data.draw(st.lists(st.integers(1, seat_count), min_size=2, max_size=seat_count,
                               unique=True), label="seated at the start")
    for s in first:
        t.sit(s, f"p{s}", 100_000)
    waiting_since: dict[int, tuple[int, int]] = {}  # seat -> (hands played, most players since)
    hand_no = 0
    names = itertools.count()
    for _ in range(data.draw(st.integers(1, 25), label="steps")):
        step = data.draw(st.sampled_from(["hand", "arrive", "leave", "void"]), label="step")
        if step == "arrive" and t.empty_seats():
            seat = data.draw(st.sampled_from(t.empty_seats()), label="arrival seat")
            t.sit(seat, f"n{next(names)}", 100_000, arriving=True)
            if t.seats[seat].awaiting_blind:
                waiting_since[seat] = (0, t.player_count)
        elif step == "leave" and t.player_count > 2:
            seat = data.draw(st.sampled_from(sorted(t.seats)), label="leaves")
            t.unsit(seat)
            waiting_since.pop(seat, None)
        elif step == "void" and t.player_count >= 2:
            hand_no += 1
            t.start_hand(hand_no=hand_no, deck=DECK, small_blind=50, big_blind=100)
            t.void_hand()  # no hand counts; an arrival dealt into it is now one of the players
            for s in [s for s in waiting_since if not t.seats[s].awaiting_blind]:
                del waiting_since[s]
        elif t.player_count >= 2:
            hand_no += 1
            dealt = fold_round(t, hand_no)
            for s, (played, most) in list(waiting_since.items()):
                if s in dealt:
                    del waiting_since[s]
                else:
                    waiting_since[s] = (played + 1, max(most, t.player_count))
        for s, (played, most) in waiting_since.items():
            assert played <= most, f"seat {s} has waited {played} hands at a table of {most}"
