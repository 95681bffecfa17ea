"""The plain mode's pure parts: the sentences (``client/plain_words.py``) and the typed
commands (``client/plain_commands.py``), on models built by feeding protocol messages
(``tests/client/scenes.py``), word for word.
"""

from __future__ import annotations

import os

import pytest

from client.model import ClientModel
from client.plain import HeardModel, stdin_lines
from client.plain_commands import Reply, Typist
from client.plain_words import (
    card_words,
    cards_words,
    options_words,
    said_line,
    sentences,
    turn_words,
)
from poker.actions import LegalActions
from protocol import messages as m
from tests.client import scenes
from tests.client.scenes import CHECK_OR_BET, FACING_RAISE, NOW


def said(model: ClientModel, msg: m.ServerMessage) -> list[str]:
    """Apply ``msg`` and return the sentences for it."""
    before = len(model.log)
    model.apply(msg, NOW)
    return sentences(model, msg, list(model.log)[before:])


def typed(typist: Typist, model: ClientModel, line: str) -> Reply:
    return typist.typed(line, model, NOW)


def act_of(reply: Reply) -> tuple[str, int | None]:
    assert reply.act is not None, reply
    return reply.act.action, reply.act.amount


# -- words ---------------------------------------------------------------------------------


def test_cards_in_words() -> None:
    assert card_words("As") == "ace of spades"
    assert card_words("Td") == "ten of diamonds"
    assert cards_words(("As", "Kh")) == "ace of spades and king of hearts"
    assert cards_words(("7c", "8d", "Jh")) == "seven of clubs, eight of diamonds and jack of hearts"


def test_a_raise_then_my_turn_in_words() -> None:
    model = scenes.preflop(turn=False)
    raise_ = m.Action(table=1, hand_no=17, seat=3, action="raise", amount=600, to=600,
                      all_in=False, automatic=False)
    assert said(model, raise_) == ["dave raises to 600. Pot 1,050."]
    fold = m.Action(table=1, hand_no=17, seat=4, action="fold", amount=0, to=50, all_in=False,
                    automatic=False)
    assert said(model, fold) == ["erin folds."]  # a fold leaves the pot as it was
    turn = scenes.your_turn(m.Legal(fold=True, check=False, call=600, min_raise_to=900,
                                    max_raise_to=10_000))
    model.apply(turn, NOW)
    assert Typist().heard(turn, model, NOW).lines == [
        "Your turn: fold, call 600, or raise from 900 to 10,000. 30 seconds, then 60 in your time bank."
    ]


def test_my_own_actions_say_you() -> None:
    model = scenes.preflop()
    call = m.Action(table=1, hand_no=17, seat=0, action="call", amount=300, to=300, all_in=False,
                    automatic=False)
    assert said(model, call) == ["You call 300. Pot 750."]
    shove = m.Action(table=1, hand_no=17, seat=0, action="all_in", amount=9_700, to=10_000,
                     all_in=True, automatic=True)
    assert said(model, shove)[0].startswith("You go all in for 10,000, played by the server")


def test_a_hand_from_the_deal_to_the_end_in_words() -> None:
    model = scenes.connected()
    model.apply(scenes.lobby(n=3), NOW)
    model.apply(m.TableSnapshot(
        table=1, max_seats=6, hand_no=None, street=None, button=None, small_blind=50, big_blind=100,
        seats=tuple(scenes.seat(i) for i in range(3)), board=(), pots=(), carried=0, to_act=None,
        your_seat=0, your_cards=None), NOW)
    start = m.HandStarted(table=1, hand_no=4, button=0, small_blind_seat=1, big_blind_seat=2,
                          small_blind=50, big_blind=100, carried_in=0,
                          stacks=tuple(m.SeatStack(seat=i, stack=10_000) for i in range(3)))
    assert said(model, start) == ["Hand 4 at table 1. Blinds 50 and 100. You have the button."]
    assert said(model, m.BlindPosted(table=1, hand_no=4, seat=1, blind="small", amount=50,
                                     all_in=False)) == ["bob posts the small blind, 50."]
    assert said(model, m.HoleCards(table=1, hand_no=4, seat=0, cards=("As", "Kh"))) == [
        "Your cards: ace of spades and king of hearts."]
    model.apply(m.BlindPosted(table=1, hand_no=4, seat=2, blind="big", amount=100, all_in=False), NOW)
    for seat, kind, amount, to in ((0, "fold", 0, 0), (1, "call", 50, 100), (2, "check", 0, 100)):
        model.apply(m.Action(table=1, hand_no=4, seat=seat, action=kind, amount=amount, to=to,  # type: ignore[arg-type]
                             all_in=False, automatic=False), NOW)
    flop = m.Board(table=1, hand_no=4, street="flop", cards=("7c", "8d", "Jh"),
                   board=("7c", "8d", "Jh"))
    assert said(model, flop) == ["Flop: seven of clubs, eight of diamonds and jack of hearts. Pot 200."]
    turn = m.Board(table=1, hand_no=4, street="turn", cards=("2s",),
                   board=("7c", "8d", "Jh", "2s"))
    assert said(model, turn) == ["Turn: two of spades. Pot 200."]
    shown = m.Showdown(table=1, hand_no=4, seat=2, cards=("Qd", "Qc"), hand_name="Pair of queens")
    assert said(model, shown) == ["carol shows queen of diamonds and queen of clubs: pair of queens."]
    won = m.PotAwarded(table=1, hand_no=4, pot=0, amount=200, winners=(m.Winner(seat=2, amount=200),),
                       remainder_carried=0, hand_name="Pair of queens")
    assert said(model, won) == ["carol wins 200 with pair of queens."]
    ended = m.HandEnded(table=1, hand_no=4, stacks=tuple(
        m.SeatStack(seat=i, stack=s) for i, s in enumerate((10_000, 9_900, 10_100))), carried_out=0)
    assert said(model, ended) == ["Hand 4 is over. You have 10,000."]


def test_another_tables_hand_says_nothing() -> None:
    model = scenes.preflop(turn=False)
    other = m.Action(table=2, hand_no=3, seat=1, action="call", amount=100, to=100, all_in=False,
                     automatic=False)
    assert said(model, other) == []


def test_the_models_own_lines_as_sentences() -> None:
    assert said_line("-- level 3: blinds 100/200") == "Level 3: blinds 100 and 200."
    assert said_line("bob is eliminated") == "bob is eliminated."
    assert said_line("you move to table 2, seat 4") == "You move to table 2, seat 4."
    assert said_line("director: Last orders at the bar") == "Director: Last orders at the bar."
    model = scenes.preflop(turn=False)
    out = said(model, m.PlayerStatus(player_id=2, name="bob", table=1, seat=1, status="sitting_out"))
    assert out == ["bob is sitting out."]


def test_my_own_status_is_said_to_me() -> None:
    model = scenes.preflop(turn=False)
    out = said(model, m.PlayerStatus(player_id=1, name="alice", table=1, seat=0, status="sitting_out"))
    assert out == ["You are sitting out: the server checks or folds for you. Type back to play again."]
    out = said(model, m.PlayerStatus(player_id=1, name="alice", table=None, seat=None, status="eliminated"))
    assert out == ["You are out of the tournament, in place 6."]


def test_chat_in_words() -> None:
    model = scenes.preflop(turn=False)
    line = m.ChatMessage(scope="table", table=1, player_id=2, name="bob", role="player", text="nice hand")
    assert said(model, line) == ["bob says: nice hand"]
    shout = m.ChatMessage(scope="lobby", table=None, player_id=None, name="TD", role="director",
                          text="break in five minutes")
    assert said(model, shout) == ["In the lobby, the director says: break in five minutes"]


def legal(**kw: object) -> LegalActions:
    values: dict[str, object] = dict(seat=0, fold=True, check=False, call=300, min_raise_to=500,
                                     max_raise_to=10_000, to_call=300, current_bet=300,
                                     stack=10_000, bet=0)
    values.update(kw)
    return LegalActions(**values)  # type: ignore[arg-type]


def test_the_options_in_words() -> None:
    assert options_words(legal()) == "fold, call 300, or raise from 500 to 10,000"
    assert options_words(legal(fold=False, check=True, call=None, to_call=0, current_bet=0,
                               min_raise_to=100, max_raise_to=9_700)) == "check or bet from 100 to 9,700"
    short = legal(call=800, min_raise_to=None, max_raise_to=None, stack=800, to_call=1_000)
    assert options_words(short) == "fold or call 800, all in"
    assert options_words(legal(min_raise_to=2_000, max_raise_to=2_000, stack=2_000)) == (
        "fold, call 300, or go all in for 2,000")


def test_the_time_left_and_the_time_bank() -> None:
    model = scenes.preflop()
    turn = model.turn
    assert turn is not None
    assert turn_words(turn, NOW + 5) == (
        "Your turn: fold, call 300, or raise from 500 to 10,000. 25 seconds, then 60 in your time bank.")
    assert turn_words(turn, NOW + 42).endswith(". Time bank: 48 seconds.")


# -- typed commands -----------------------------------------------------------------------------


def test_a_raise_below_the_minimum_is_refused_in_words_and_nothing_is_sent() -> None:
    model, t = scenes.preflop(), Typist()
    out = typed(t, model, "raise 250")
    assert out.lines == ["Raise 250 is below the minimum raise to 500. Nothing was sent."]
    assert out.act is None and out.send == []
    assert typed(t, model, "r 499").lines == ["Raise 499 is below the minimum raise to 500. Nothing was sent."]
    assert act_of(typed(t, model, "r 500")) == ("raise", 500)
    assert act_of(typed(t, model, "r 10000")) == ("raise", 10_000)
    assert typed(t, model, "r 10001").act is None
    out = typed(t, model, "r 20,000")
    assert out.lines == ["Raise 20,000 is more than you have: all in is 10,000. Nothing was sent."]
    assert typed(t, model, "r").lines == [
        "Raise to how much? From 500 to 10,000, for example r 500. Nothing was sent."]
    assert typed(t, model, "r lots").lines == [
        "'lots' is not an amount: type whole chips, for example r 500. Nothing was sent."]


@pytest.mark.parametrize(("line", "want"), [
    ("raise 800", ("raise", 800)), ("r 800", ("raise", 800)), ("r800", ("raise", 800)),
    ("R 1,200", ("raise", 1_200)), ("r 1.2k", ("raise", 1_200)), ("bet 900", ("raise", 900)),
    ("r min", ("raise", 500)), ("r max", ("raise", 10_000)),
    ("r pot", ("raise", 300 + 450 + 300)),  # call 300, then raise by the pot after the call
    ("call", ("call", None)), ("c", ("call", None)), ("fold", ("fold", None)), ("f", ("fold", None)),
])
def test_typed_actions(line: str, want: tuple[str, int | None]) -> None:
    assert act_of(typed(Typist(), scenes.preflop(), line)) == want


def test_a_bet_when_nobody_has_bet() -> None:
    model, t = scenes.flop_check(), Typist()
    assert act_of(typed(t, model, "b 300")) == ("bet", 300)
    assert act_of(typed(t, model, "r 300")) == ("bet", 300)  # the word the rules need
    assert act_of(typed(t, model, "c")) == ("check", None)
    assert act_of(typed(t, model, "x")) == ("check", None)
    assert typed(t, model, "bet 50").lines == ["Bet 50 is below the minimum bet of 100. Nothing was sent."]
    assert typed(t, model, "fold").lines == ["Checking is free, so folding is not offered: type check."]


def test_check_when_there_is_a_bet_says_what_may_be_done() -> None:
    out = typed(Typist(), scenes.preflop(), "check")
    assert out.lines == ["You cannot check: you may fold, call 300, or raise from 500 to 10,000."]


def test_all_in_asks_first_and_no_sends_nothing() -> None:
    model, t = scenes.preflop(), Typist()
    out = typed(t, model, "all in")
    assert out.lines == ["All in for 10,000? Type yes or no."] and out.act is None
    assert typed(t, model, "no").lines == ["Not sent."]
    assert typed(t, model, "yes").lines == ["There is no question to answer."]
    typed(t, model, "m")
    assert act_of(typed(t, model, "yes")) == ("all_in", None)


def test_another_command_cancels_the_question() -> None:
    model, t = scenes.preflop(), Typist()
    typed(t, model, "shove")
    out = typed(t, model, "call")
    assert out.lines == ["All in for 10,000: cancelled."] and act_of(out) == ("call", None)


def test_an_all_in_answered_after_the_turn_is_gone_is_not_sent() -> None:
    model, t = scenes.preflop(), Typist()
    typed(t, model, "all in")
    model.apply(m.Action(table=1, hand_no=17, seat=0, action="fold", amount=0, to=0, all_in=False,
                         automatic=True), NOW)
    out = typed(t, model, "yes")
    assert out.lines == ["Your turn is over: nothing was sent."] and out.act is None


def test_all_in_as_the_only_way_on_and_no_confirm_ask_nothing() -> None:
    model = scenes.preflop(turn=False)
    model.apply(scenes.your_turn(m.Legal(fold=True, check=False, call=10_000, min_raise_to=None,
                                         max_raise_to=None)), NOW)
    assert act_of(typed(Typist(), model, "all in")) == ("all_in", None)
    assert act_of(typed(Typist(confirm_all_in=False), scenes.preflop(), "all in")) == ("all_in", None)


def test_quit_during_a_hand_asks_first() -> None:
    model, t = scenes.preflop(), Typist()
    assert typed(t, model, "quit").lines == ["Quit in the middle of a hand? Type yes or no."]
    assert typed(t, model, "no").lines == ["Staying."]
    typed(t, model, "q")
    assert typed(t, model, "y").quit
    assert typed(Typist(confirm_quit=False), model, "quit").quit
    assert typed(Typist(), scenes.registering(), "quit").quit  # no hand: no question


def test_actions_when_it_is_not_my_turn() -> None:
    model, t = scenes.preflop(turn=False), Typist()
    assert typed(t, model, "call").lines == [
        "It is not your turn. To queue one: k for check or fold, ca for call any."]
    watching = scenes.preflop(role="spectator")
    assert typed(t, watching, "fold").lines == ["You are watching: there is nothing to play."]
    answered = scenes.preflop()
    assert answered.turn is not None
    answered.turn.acted = True
    assert typed(t, answered, "fold").lines == ["You have answered this turn: waiting for the server."]


def test_check_fold_queued_plays_on_my_turn() -> None:
    model, t = scenes.preflop(turn=False), Typist()
    assert typed(t, model, "k").lines == ["Queued: check or fold on your turn. It is dropped if the bet changes."]
    turn = scenes.your_turn(FACING_RAISE)
    model.apply(turn, NOW)
    out = t.heard(turn, model, NOW)
    assert out.lines == ["Your turn: playing your queued check or fold."]
    assert act_of(out) == ("fold", None)
    assert t.pre_action is None


def test_call_any_queued_calls_and_check_fold_checks_when_free() -> None:
    model, t = scenes.preflop(turn=False), Typist()
    typed(t, model, "call any")
    turn = scenes.your_turn(FACING_RAISE)
    model.apply(turn, NOW)
    assert act_of(t.heard(turn, model, NOW)) == ("call", None)
    model, t = scenes.preflop(turn=False), Typist()
    typed(t, model, "cf")
    free = scenes.your_turn(CHECK_OR_BET)
    model.apply(free, NOW)
    assert act_of(t.heard(free, model, NOW)) == ("check", None)


def test_a_queued_action_is_dropped_when_the_bet_changes_and_cleared_when_typed_again() -> None:
    model, t = scenes.preflop(turn=False), Typist()
    typed(t, model, "k")
    reraise = m.Action(table=1, hand_no=17, seat=3, action="raise", amount=900, to=900, all_in=False,
                       automatic=False)
    model.apply(reraise, NOW)
    assert t.heard(reraise, model, NOW).lines == ["The bet changed: your queued action is dropped."]
    assert t.pre_action is None
    typed(t, model, "k")
    assert typed(t, model, "k").lines == ["Queued check or fold cleared."]
    assert t.pre_action is None


def test_a_refused_action_gives_the_turn_back_and_says_it_again() -> None:
    model, t = scenes.preflop(), Typist()
    assert model.turn is not None
    model.turn.acted = True
    err = m.Error(code="illegal_action", message="raise to 450 is below the minimum raise to 500")
    model.apply(err, NOW)
    out = t.heard(err, model, NOW)
    assert out.lines == ["Refused: raise to 450 is below the minimum raise to 500. Your turn: fold, "
                         "call 300, or raise from 500 to 10,000. 30 seconds, then 60 in your time bank."]
    assert model.turn is not None and not model.turn.acted


def test_requests_and_chat() -> None:
    model, t = scenes.preflop(turn=False), Typist()
    assert typed(t, model, "say good luck").send == [m.Chat(scope="table", text="good luck")]
    assert typed(t, model, "lobby hello all").send == [m.Chat(scope="lobby", text="hello all")]
    assert typed(t, model, "director he acted out of turn").send == [
        m.CallDirector(message="he acted out of turn")]
    assert typed(t, model, "sit out").send == [m.SitOut()]
    assert typed(t, model, "back").send == [m.ImBack()]
    assert typed(t, model, "standings").send == [m.StandingsRequest()]
    assert typed(t, model, "wibble").lines == ["'wibble' is not a command: type help for the list."]
    assert typed(t, model, "cards").lines == ["Your cards: ace of spades and king of hearts. No board yet."]
    assert typed(t, model, "").lines == ["Waiting for the others. Pot 450."]
    typed(t, model, "k")
    assert typed(t, model, "o").lines == ["Waiting for the others. Pot 450. Queued: check or fold."]
    model.apply(m.Turn(table=1, hand_no=17, seat=3, player_id=4, deadline_ms=30_000, time_bank_ms=0), NOW)
    assert typed(t, model, "").lines == ["dave to act. Pot 450. Queued: check or fold."]


def test_the_heard_model_keeps_the_lines_it_wrote() -> None:
    model = HeardModel()
    model.apply(m.Announcement(by="director", text="Last orders", reason=None), NOW)
    assert model.said == ["director: Last orders"]


def test_standings_are_said_when_they_were_asked_for() -> None:
    model, t = scenes.preflop(turn=False), Typist()
    places = tuple(m.Place(place=i + 1, player_id=i + 1, name=scenes.NAMES[i], chips=10_000 - i,
                           eliminated_in_hand=None) for i in range(3))
    unasked = m.Standings(places=places, final=False)
    model.apply(unasked, NOW)
    assert t.heard(unasked, model, NOW).lines == []
    typed(t, model, "standings")
    asked = m.Standings(places=places, final=False)
    model.apply(asked, NOW)
    assert t.heard(asked, model, NOW).lines == ["Standings: 1 you 10,000; 2 bob 9,999; 3 carol 9,998."]


async def test_stdin_lines_from_a_pipe() -> None:
    """Lines as typed or piped: CR LF or LF, a last line without its end, bytes that are
    not UTF-8 replaced rather than fatal; end of input ends them."""
    read, write = os.pipe()
    os.write(write, b"call\r\nraise 800\nr\xff 9\nfold")
    os.close(write)
    try:
        got = [line async for line in stdin_lines(read)]
    finally:
        os.close(read)
    assert got == ["call", "raise 800", "r\ufffd 9", "fold"]
