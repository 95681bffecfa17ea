"""The client model fed scripted server messages: table state, log lines, turns, seq gaps."""

from __future__ import annotations

import random

import pytest

from client.model import (
    ClientModel,
    ConnectionState,
    action_to_act,
    legal_from_protocol,
    situation_from_model,
)
from client.strategies import make_strategy
from poker.actions import Action, ActionKind
from poker.cards import parse_card
from poker.events import Street
from protocol import messages as m

from .fakeserver import TOKEN, heads_up_snapshot, seat, welcome


def three_handed() -> ClientModel:
    """Alice (me, seat 0), Bob (seat 2), Carol (seat 4) at table 1, between hands."""
    model = ClientModel()
    model.apply(welcome())
    model.apply(
        m.TableSnapshot(
            table=1, max_seats=6, hand_no=None, street=None, button=None, small_blind=50,
            big_blind=100, seats=(seat(0, "alice", 2000), seat(2, "bob", 2000), seat(4, "carol", 2000)),
            board=(), pots=(), carried=0, to_act=None, your_seat=0, your_cards=None,
        )
    )
    return model


def start_hand(model: ClientModel, hand_no: int = 1) -> None:
    """Button alice (0), small blind bob (2), big blind carol (4)."""
    stacks = tuple(m.SeatStack(seat=s, stack=2000) for s in (0, 2, 4))
    model.apply(
        m.HandStarted(
            table=1, hand_no=hand_no, button=0, small_blind_seat=2, big_blind_seat=4,
            small_blind=50, big_blind=100, carried_in=0, stacks=stacks,
        )
    )
    model.apply(m.BlindPosted(table=1, hand_no=hand_no, seat=2, blind="small", amount=50, all_in=False))
    model.apply(m.BlindPosted(table=1, hand_no=hand_no, seat=4, blind="big", amount=100, all_in=False))
    model.apply(m.HoleCards(table=1, hand_no=hand_no, seat=0, cards=("Ks", "Kh")))


def act(model: ClientModel, seat_no: int, kind: str, amount: int, to: int, *, all_in: bool = False,
        automatic: bool = False, hand_no: int = 1) -> None:
    model.apply(
        m.Action(table=1, hand_no=hand_no, seat=seat_no, action=kind, amount=amount, to=to,  # type: ignore[arg-type]
                 all_in=all_in, automatic=automatic)
    )


def test_a_whole_hand_moves_the_chips_and_reads_like_a_hand_history() -> None:
    model = three_handed()
    start_hand(model)
    t = model.table
    assert t is not None
    assert model.my_cards == ("Ks", "Kh")
    assert (t.seats[2].stack, t.seats[2].bet, t.seats[4].bet) == (1950, 50, 100)
    assert t.pot_total == 150
    act(model, 0, "raise", 300, 300)
    act(model, 2, "fold", 0, 50)
    act(model, 4, "call", 200, 300)
    assert t.seats[2].folded
    assert t.pot_total == 650
    model.apply(m.Pots(table=1, hand_no=1, pots=(m.Pot(amount=650, eligible=(0, 4)),), carried=0))
    assert all(s.bet == 0 for s in t.seats.values())
    assert t.pot_total == 650
    model.apply(m.Board(table=1, hand_no=1, street="flop", cards=("Kd", "7c", "7s"), board=("Kd", "7c", "7s")))
    assert t.street is Street.FLOP
    act(model, 4, "check", 0, 0)
    act(model, 0, "bet", 400, 400)
    act(model, 4, "call", 400, 400)
    model.apply(m.Pots(table=1, hand_no=1, pots=(m.Pot(amount=1450, eligible=(0, 4)),), carried=0))
    for street, card in (("turn", "2d"), ("river", "3h")):
        t_board = (*t.board, card)
        model.apply(m.Board(table=1, hand_no=1, street=street, cards=(card,), board=t_board))  # type: ignore[arg-type]
        act(model, 4, "check", 0, 0)
        act(model, 0, "check", 0, 0, automatic=street == "river")
    model.apply(m.Showdown(table=1, hand_no=1, seat=4, cards=("Ac", "7d"), hand_name="Three of a kind, sevens"))
    model.apply(m.Showdown(table=1, hand_no=1, seat=0, cards=("Ks", "Kh"), hand_name="Full house, kings full of sevens"))
    model.apply(
        m.PotAwarded(table=1, hand_no=1, pot=0, amount=1450, winners=(m.Winner(seat=0, amount=1450),),
                     remainder_carried=0)
    )
    assert t.seats[0].stack == 2000 - 700 + 1450
    assert t.seats[4].cards == ("Ac", "7d")
    final = (m.SeatStack(seat=0, stack=2750), m.SeatStack(seat=2, stack=1950), m.SeatStack(seat=4, stack=1300))
    model.apply(m.HandEnded(table=1, hand_no=1, stacks=final, carried_out=0))
    assert t.street is None
    assert {s.seat: s.stack for s in t.seats.values()} == {0: 2750, 2: 1950, 4: 1300}
    assert list(model.log) == [
        "-- hand #1 at table 1: blinds 50/100, alice has the button",
        "bob posts the small blind 50",
        "carol posts the big blind 100",
        "you are dealt Ks Kh",
        "alice raises to 300",
        "bob folds",
        "carol calls 200",
        "board: Kd 7c 7s",
        "carol checks",
        "alice bets 400",
        "carol calls 400",
        "board: Kd 7c 7s 2d",
        "carol checks",
        "alice checks",
        "board: Kd 7c 7s 2d 3h",
        "carol checks",
        "alice checks (automatic)",
        "carol shows Ac 7d (Three of a kind, sevens)",
        "alice shows Ks Kh (Full house, kings full of sevens)",
        "alice wins 1,450 with Full house, kings full of sevens",
    ]


def test_a_bet_nobody_calls_goes_back_to_its_owner() -> None:
    model = three_handed()
    start_hand(model)
    act(model, 0, "raise", 1000, 1000)
    act(model, 2, "fold", 0, 50)
    act(model, 4, "fold", 0, 100)
    # 900 of the raise was never matched: the pot holds 100 + 100 + 50.
    model.apply(m.Pots(table=1, hand_no=1, pots=(m.Pot(amount=250, eligible=(0,)),), carried=0))
    t = model.table
    assert t is not None
    assert t.seats[0].stack == 1900
    assert t.pot_total == 250


def test_side_pots_and_odd_chips_in_the_log() -> None:
    model = three_handed()
    start_hand(model)
    model.apply(
        m.PotAwarded(table=1, hand_no=1, pot=1, amount=301, winners=(m.Winner(seat=2, amount=150), m.Winner(seat=4, amount=150)),
                     remainder_carried=1)
    )
    assert list(model.log)[-3:] == [
        "bob wins 150 from side pot 1",
        "carol wins 150 from side pot 1",
        "1 odd chip carried to the next hand",
    ]


def test_all_in_and_automatic_actions_are_said_so() -> None:
    model = three_handed()
    start_hand(model)
    act(model, 0, "raise", 2000, 2000, all_in=True)
    act(model, 2, "fold", 0, 50, automatic=True)
    assert list(model.log)[-2:] == ["alice raises to 2,000 and is all in", "bob folds (automatic)"]
    assert model.table is not None and model.table.seats[0].all_in


def test_your_turn_becomes_a_pending_turn_until_i_act() -> None:
    model = three_handed()
    start_hand(model)
    legal = m.Legal(fold=True, check=False, call=100, min_raise_to=200, max_raise_to=2000)
    model.apply(m.YourTurn(table=1, hand_no=1, seat=0, legal=legal, deadline_ms=20000, time_bank_ms=5000), now=100.0)
    turn = model.turn
    assert turn is not None
    assert turn.deadline == 120.0 and turn.bank_deadline == 125.0
    assert turn.legal.current_bet == 100 and not turn.legal.is_bet
    act(model, 0, "call", 100, 100)
    assert model.turn is None


def test_a_new_hand_or_a_stale_error_clears_the_turn() -> None:
    model = three_handed()
    start_hand(model)
    legal = m.Legal(fold=True, check=False, call=100, min_raise_to=200, max_raise_to=2000)
    model.apply(m.YourTurn(table=1, hand_no=1, seat=0, legal=legal, deadline_ms=20000, time_bank_ms=0))
    model.apply(m.Error(code="stale_hand", message="hand 1 is over"))
    assert model.turn is None
    assert model.last_error is not None and model.last_error.code == "stale_hand"
    model.apply(m.YourTurn(table=1, hand_no=1, seat=0, legal=legal, deadline_ms=20000, time_bank_ms=0))
    model.apply(m.HandEnded(table=1, hand_no=1, stacks=(), carried_out=0))
    assert model.turn is None


# -- sequence numbers -------------------------------------------------------------------


def test_consecutive_seq_is_fine_and_a_gap_asks_for_a_resync() -> None:
    model = ClientModel()
    model.apply(m.Hello(protocol="hickory", versions=(1,), server="s", tournament="T", max_line=100, seq=1))
    model.apply(m.Ack(seq=2))
    assert not model.needs_resync
    model.apply(m.Ack(seq=4))
    assert model.needs_resync and model.gaps == 1
    model.resync_requested = True
    model.apply(m.Ack(seq=5))
    assert model.needs_resync and model.resync_requested  # still waiting for the snapshot
    model.apply(attrs_evolve_seq(heads_up_snapshot(), 6))
    assert not model.needs_resync and not model.resync_requested


def test_a_new_connection_starts_the_count_again() -> None:
    model = ClientModel()
    model.apply(m.Ack(seq=40))
    model.set_connecting()
    model.apply(m.Ack(seq=1))
    assert not model.needs_resync and model.gaps == 0


def attrs_evolve_seq(msg: m.TableSnapshot, seq: int) -> m.TableSnapshot:
    import attrs

    return attrs.evolve(msg, seq=seq)


# -- legal actions and the bots' situation ----------------------------------------------


def test_legal_facing_a_bet_knows_it_is_a_raise() -> None:
    legal = legal_from_protocol(
        m.Legal(fold=True, check=False, call=200, min_raise_to=600, max_raise_to=1500),
        seat=3, stack=1300, bet=200,
    )
    assert (legal.current_bet, legal.to_call, legal.stack, legal.bet) == (400, 200, 1300, 200)
    assert not legal.is_bet
    assert legal.all_in_action() == Action.raise_to(1500)


def test_legal_with_checking_free_is_a_bet_after_the_flop() -> None:
    legal = legal_from_protocol(
        m.Legal(fold=False, check=True, call=None, min_raise_to=100, max_raise_to=900),
        seat=1, stack=None, bet=None,
    )
    assert legal.is_bet and legal.stack == 900 and legal.bet == 0
    assert legal.timeout_action() == Action.check()


def test_legal_big_blind_option_is_a_raise() -> None:
    legal = legal_from_protocol(
        m.Legal(fold=False, check=True, call=None, min_raise_to=200, max_raise_to=2000),
        seat=4, stack=1900, bet=100,
    )
    assert legal.current_bet == 100 and not legal.is_bet


def test_legal_call_all_in_for_less() -> None:
    legal = legal_from_protocol(
        m.Legal(fold=True, check=False, call=300, min_raise_to=None, max_raise_to=None),
        seat=1, stack=300, bet=0, current_bet=1000,
    )
    assert legal.to_call == 1000 and legal.call == 300
    assert legal.describe() == "fold, call 300"


def test_action_to_act_sends_amounts_only_for_bet_and_raise() -> None:
    assert action_to_act(Action.raise_to(600), 9, 2) == m.Act(table=2, hand_no=9, action="raise", amount=600)
    assert action_to_act(Action.fold(), 9) == m.Act(hand_no=9, action="fold")
    assert action_to_act(Action.all_in(), 9, 1).amount is None


def test_situation_from_the_model_matches_the_table() -> None:
    model = three_handed()
    start_hand(model)
    act(model, 0, "raise", 300, 300)
    act(model, 2, "call", 250, 300)
    legal = m.Legal(fold=True, check=False, call=200, min_raise_to=500, max_raise_to=2000)
    model.apply(m.YourTurn(table=1, hand_no=1, seat=4, legal=legal, deadline_ms=1000, time_bank_ms=0))
    # I am carol for this test: the turn is for seat 4, with my cards there.
    assert model.table is not None
    model.table.your_seat = 4
    model.table.your_cards = ("Ah", "Ad")
    s = situation_from_model(model)
    assert s.seat == 4 and s.hole == (parse_card("Ah"), parse_card("Ad"))
    assert s.pot == 700
    assert (s.stack, s.bet, s.current_bet, s.to_call) == (1900, 100, 300, 200)
    assert s.seats == (2, 4, 0)
    assert (s.button, s.small_blind_seat, s.big_blind_seat) == (0, 2, 4)
    assert [o.seat for o in s.opponents] == [2, 0]
    assert s.preflop_raises == 1
    assert next(o for o in s.opponents if o.seat == 0).preflop_raises == 1
    assert next(o for o in s.opponents if o.seat == 2).voluntary
    assert [a.kind for a in s.actions] == [ActionKind.RAISE, ActionKind.CALL]
    for name in ("random", "calling-station", "solid"):
        choice = make_strategy(name, random.Random(1), iterations=50) if name == "solid" else make_strategy(name, random.Random(1))
        decided = choice.decide(s)
        assert decided.kind in (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE)


def test_situation_after_a_mid_hand_snapshot_guesses_the_blinds() -> None:
    model = ClientModel()
    model.apply(welcome())
    model.apply(heads_up_snapshot())
    legal = m.Legal(fold=True, check=False, call=50, min_raise_to=200, max_raise_to=1000)
    model.apply(m.YourTurn(table=1, hand_no=7, seat=1, legal=legal, deadline_ms=1000, time_bank_ms=0))
    s = situation_from_model(model)
    assert (s.small_blind_seat, s.big_blind_seat, s.button) == (1, 2, 1)
    assert s.pot == 150 and s.actions == ()
    assert s.legal.current_bet == 100


def test_no_situation_without_a_turn() -> None:
    with pytest.raises(ValueError, match="no pending turn"):
        situation_from_model(three_handed())


# -- people, lobby, chat, the end ---------------------------------------------------------


def test_identity_keeps_the_token_from_join() -> None:
    model = ClientModel()
    model.apply(welcome())
    model.apply(welcome(token=None))
    assert model.me.token == TOKEN and model.me.player_id == 1 and model.me.role == "player"


def test_player_status_and_moves_update_seats_and_lobby() -> None:
    model = three_handed()
    model.apply(
        m.Lobby(
            name="T", state="running", level=m.Level(index=0, small_blind=50, big_blind=100),
            next_level_in=600, next_level_unit="seconds", schedule=(),
            players=(
                m.LobbyPlayer(player_id=3, name="bob", chips=2000, table=1, seat=2, status="playing"),
                m.LobbyPlayer(player_id=9, name="zed", chips=3100, table=2, seat=1, status="playing"),
            ),
            tables=(), deadline=None,
        )
    )
    t = model.table
    assert t is not None and model.level is not None and model.level.big_blind == 100
    model.apply(m.PlayerStatus(player_id=3, name="bob", table=1, seat=2, status="disconnected"))
    assert not t.seats[2].connected
    assert model.lobby is not None and model.lobby.players[0].status == "disconnected"
    model.apply(m.PlayerStatus(player_id=3, name="bob", table=1, seat=2, status="sitting_out"))
    assert t.seats[2].sitting_out
    model.apply(m.PlayerMoved(player_id=9, name="zed", from_table=2, from_seat=1, table=1, seat=5))
    assert t.seats[5].name == "zed" and t.seats[5].stack == 3100
    model.apply(m.PlayerStatus(player_id=3, name="bob", table=None, seat=None, status="eliminated"))
    assert 2 not in t.seats
    assert model.lobby.players[0].status == "eliminated"
    assert list(model.log)[-4:] == [
        "bob disconnected",
        "bob is sitting out",
        "zed joins from table 2, seat 5",
        "bob is eliminated",
    ]


def test_my_move_to_another_table_waits_for_its_snapshot() -> None:
    model = three_handed()
    model.apply(m.PlayerMoved(player_id=1, name="alice", from_table=1, from_seat=0, table=3, seat=2))
    assert model.table is None and (model.me.table, model.me.seat) == (3, 2)


def test_chat_announcements_standings_and_the_final_place() -> None:
    model = three_handed()
    model.apply(m.ChatMessage(scope="table", table=1, player_id=3, name="bob", role="player", text="nh"))
    model.apply(m.ChatMessage(scope="lobby", table=None, player_id=None, name="TD", role="director", text="break soon"))
    model.apply(m.Announcement(text="Level 2: blinds 100/200", by="director", reason="schedule"))
    assert [str(c) for c in model.chat] == ["[table 1] bob: nh", "[lobby] [DIRECTOR] break soon"]
    assert list(model.announcements) == ["director: Level 2: blinds 100/200 (schedule)"]
    places = (
        m.Place(place=1, player_id=3, name="bob", chips=6000, eliminated_in_hand=None),
        m.Place(place=2, player_id=1, name="alice", chips=0, eliminated_in_hand=88),
    )
    model.apply(m.Standings(places=places, final=False))
    assert model.standings == places and not model.standings_final
    assert model.my_place == 2  # eliminated in hand 88: the place is known before the end
    model.apply(m.TournamentFinished(name="T", places=places))
    assert model.my_place == 2 and model.standings_final
    assert list(model.log)[-2:] == ["T is over: bob wins", "you finish in place 2"]


def test_connection_states() -> None:
    model = ClientModel()
    assert model.connection is ConnectionState.CONNECTING
    model.set_connected()
    model.set_reconnecting("connection lost")
    model.set_connecting()
    assert model.connection is ConnectionState.RECONNECTING  # still trying, as far as a person cares
    model.set_refused("wrong tournament password (wrong_password)")
    assert model.connection is ConnectionState.REFUSED
    assert model.connection_reason == "wrong tournament password (wrong_password)"


def test_every_update_counts_as_a_change() -> None:
    model = ClientModel()
    before = model.changes
    model.apply(m.Ack())
    assert model.changes == before + 1


def test_all_in_before_the_river_shows_cards_and_names_the_winner_once_the_board_is_out() -> None:
    model = three_handed()
    start_hand(model)
    act(model, 0, "raise", 2000, 2000, all_in=True)
    act(model, 2, "fold", 0, 50)
    act(model, 4, "call", 1900, 2000, all_in=True)
    # Cards are shown before the board is out: no hand names yet.
    model.apply(m.Showdown(table=1, hand_no=1, seat=0, cards=("Ks", "Kh"), hand_name=None))
    model.apply(m.Showdown(table=1, hand_no=1, seat=4, cards=("Ac", "7d"), hand_name=None))
    t = model.table
    assert t is not None and t.pot_total == 4050
    # The server's pots for the run-out can describe a later moment (here: already empty);
    # the model keeps its own count.
    model.apply(m.Pots(table=1, hand_no=1, pots=(), carried=0))
    assert t.pot_total == 4050
    model.apply(m.Board(table=1, hand_no=1, street="flop", cards=("Kd", "7c", "7s"), board=("Kd", "7c", "7s")))
    model.apply(m.Board(table=1, hand_no=1, street="turn", cards=("2d",), board=("Kd", "7c", "7s", "2d")))
    model.apply(m.Board(table=1, hand_no=1, street="river", cards=("3h",), board=("Kd", "7c", "7s", "2d", "3h")))
    model.apply(m.PotAwarded(table=1, hand_no=1, pot=0, amount=4050, winners=(m.Winner(seat=0, amount=4050),),
                             remainder_carried=0))
    assert list(model.log)[-1] == "alice wins 4,050 with Full house, kings full of sevens"
    assert t.seats[0].stack == 4050 and t.seats[4].stack == 0


def test_the_winner_s_hand_name_from_the_server_is_used() -> None:
    model = three_handed()
    start_hand(model)
    model.apply(m.PotAwarded(table=1, hand_no=1, pot=0, amount=150, winners=(m.Winner(seat=4, amount=150),),
                             remainder_carried=0, hand_name="Flush, ace high"))
    assert list(model.log)[-1] == "carol wins 150 with Flush, ace high"


def test_an_uncalled_all_in_is_returned_when_the_round_ends() -> None:
    model = three_handed()
    start_hand(model)
    act(model, 0, "raise", 2000, 2000, all_in=True)
    act(model, 2, "fold", 0, 50)
    act(model, 4, "call", 700, 800, all_in=True)  # carol had only 800 in all
    model.apply(m.Showdown(table=1, hand_no=1, seat=0, cards=("Ks", "Kh"), hand_name=None))
    t = model.table
    assert t is not None
    assert t.seats[0].stack == 1200 and not t.seats[0].all_in  # 1,200 of the 2,000 came back
    assert t.pot_total == 1650
