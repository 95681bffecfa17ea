"""The replayer's frames (client/model/replay.py) and its screen, from history records made
by the server's own ``hand_record`` out of hands played by the engine."""

from __future__ import annotations

from poker.actions import Action
from poker.hand import Hand
from protocol import messages as m
from server.records import hand_record
from tests.engine.test_history import stacked_deck

PLAYERS = {1: ("11", "ann"), 2: ("12", "ben"), 3: ("13", "cy")}


def _record(hand: Hand, viewer: str | None) -> m.HandRecord:
    return hand_record(table=2, hand_no=hand.hand_no, level=1, events=hand.events, players=PLAYERS, viewer=viewer)


def bet_and_fold() -> Hand:
    """cy opens to 1,000, ann calls, ben folds; ann checks, cy bets 1,000, ann folds."""
    deck = stacked_deck([1, 2, 3], 3, {1: "Ks7d", 2: "Ah2h", 3: "QhQc"}, "Kd7c2s9h3c")
    hand = Hand(hand_no=12, seats=[(1, 10_000), (2, 8_000), (3, 5_000)], button=3, small_blind=200,
                big_blind=400, deck=deck)
    for seat, action in ((3, Action.raise_to(1000)), (1, Action.call()), (2, Action.fold()),
                         (1, Action.check()), (3, Action.bet(1000)), (1, Action.fold())):
        hand.act(seat, action)
    return hand


def all_in_runout() -> Hand:
    deck = stacked_deck([1, 2, 3], 3, {1: "AhAd", 2: "KhKd", 3: "QhQd"}, "2c7d9hJs3s")
    hand = Hand(hand_no=13, seats=[(1, 1000), (2, 700), (3, 1000)], button=3, small_blind=50,
                big_blind=100, deck=deck)
    hand.act(3, Action.all_in())
    hand.act(1, Action.call())
    hand.act(2, Action.call())
    return hand


def test_each_street_shows_stacks_bets_pot_and_board_and_the_result_the_record_stacks() -> None:
    from client.model.replay import replay_frames

    frames = replay_frames(_record(bet_and_fold(), viewer="12"))  # ben, who folded
    assert [f.title for f in frames] == ["Blinds posted", "Before the flop", "Flop", "Result"]
    blinds, pre, flop, result = frames
    by = {s.name: s for s in blinds.seats}
    assert (by["ann"].stack, by["ann"].bet, by["ben"].bet, blinds.pot) == (9_800, 200, 400, 0)
    assert by["ben"].cards == ("Ah", "2h") and by["cy"].cards is None  # his own cards, even folded
    by = {s.name: s for s in pre.seats}
    assert (by["cy"].bet, by["ann"].bet, by["ben"].folded, pre.board) == (1_000, 1_000, True, ())
    by = {s.name: s for s in flop.seats}
    assert flop.board == ("Kd", "7c", "2s") and flop.pot == 2_400
    assert flop.lines[-1] == "uncalled 1,000 returned to cy"
    assert (by["cy"].stack, by["cy"].bet) == (3_000, 1_000)  # the bet in front as the round closed
    by = {s.name: s for s in result.seats}
    assert by["cy"].won == 2_400 and by["cy"].stack == 5_000 - 1_000 + 2_400
    assert {s.name: s.stack for s in result.seats} == {"ann": 9_000, "ben": 7_600, "cy": 6_400}
    assert all(s.cards is None for s in result.seats if s.name != "ben")  # nothing was shown


def test_an_all_in_board_is_dealt_street_by_street_and_shown_hands_appear_at_the_showdown() -> None:
    from client.model.replay import replay_frames

    frames = replay_frames(_record(all_in_runout(), viewer=None))  # a spectator
    assert [f.title for f in frames] == ["Blinds posted", "Before the flop", "Flop", "Turn", "River", "Showdown"]
    assert [len(f.board) for f in frames] == [0, 0, 3, 4, 5, 5]
    assert all(s.cards is None for f in frames[:-1] for s in f.seats)  # a spectator sees none before
    last = {s.name: s for s in frames[-1].seats}
    assert last["ann"].cards == ("Ah", "Ad") and last["ben"].cards == ("Kh", "Kd")
    assert frames[1].pot == 0 and frames[2].pot == 2_700 and frames[2].lines == ("no betting: a player is all in",)
    assert last["ann"].won == 2_700 and last["ann"].stack == 2_700
    assert "ann wins 2,100 from the main pot with Pair of aces" in frames[-1].lines
    assert "ann wins 600 from side pot 1 with Pair of aces" in frames[-1].lines


def test_the_replay_screen_draws_a_step() -> None:
    from client.model import ClientModel
    from client.tui.canvas import plain
    from client.tui.replayer import render_replay
    from client.tui.state import Overlay, UiState

    model = ClientModel()
    model.history = m.History(hands=(_record(bet_and_fold(), viewer="12"),))
    ui = UiState(ascii=True)
    ui.overlay, ui.replay_step = Overlay.HISTORY, 2
    screen = plain(render_replay(model, ui, 100, 30))
    assert "Replay · hand #12 · table 2 · blinds 200/400 · step 3 of 4: Flop" in screen
    assert "Pot: 2,400" in screen and "cy bets 1,000" in screen and "ben" in screen
    assert "folded" in screen and "Left/Right step through the hand" in screen
