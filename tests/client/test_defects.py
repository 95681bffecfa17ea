"""The defects of issue 11, one test (or a few) each, numbered as in the issue.

Each test failed before its fix. Headless: models fed protocol messages (``scenes``), the
real key bindings in a headless Application (``press``), the pure render functions.
"""

from __future__ import annotations

import shlex

import attrs
import pytest
import trio
import trio.testing

from client import cli
from client.model import ClientModel, ConnectionState
from client.session import ClientSession
from client.tui.keys import quick_sizes
from client.tui.state import UiState
from protocol import messages as m
from tests.client import scenes
from tests.client.fakeserver import HELLO, fake_server, heads_up_snapshot, welcome
from tests.client.scenes import NOW
from tests.client.test_tui import FakeActions, acts, press, screen


def flop_pot_400() -> ClientModel:
    """Defect 1's table: a limped pot of 400 on the flop, alice first to act (min bet 200)."""
    model = scenes.connected()
    model.apply(scenes.lobby(n=2), NOW)
    model.apply(
        m.TableSnapshot(
            table=1, max_seats=6, hand_no=3, street="flop", button=1, small_blind=100,
            big_blind=200, seats=(scenes.seat(0, 10_900, cards=("As", "Kh")), scenes.seat(1, 10_900)),
            board=("Kd", "7c", "2s"), pots=(m.Pot(amount=400, eligible=(0, 1)),), carried=0,
            to_act=0, your_seat=0, your_cards=("As", "Kh"),
        ),
        NOW,
    )
    legal = m.Legal(fold=False, check=True, call=None, min_raise_to=200, max_raise_to=10_900)
    model.apply(scenes.your_turn(legal, hand_no=3), NOW)
    return model


# -- 1. quick sizes ----------------------------------------------------------------------


def test_1_each_quick_key_always_means_the_same_size_and_pot_is_the_pot() -> None:
    model = flop_pot_400()
    assert model.turn is not None
    sizes = quick_sizes(model.turn.legal, 400)
    # half pot (200) equals the minimum: still listed, so 3 is still "pot"
    assert [label for label, _ in sizes] == ["min", "half pot", "pot", "all in"]
    assert dict(sizes)["pot"] == 400
    sent = press(model, "3", "\r")
    assert acts(sent) == [m.Act(table=1, hand_no=3, action="bet", amount=400)]


def test_1_pot_after_calling_facing_a_raise() -> None:
    # preflop: blinds 50/100, carol raised to 300; pot 450, my call 300: pot = 300 + 750
    model = scenes.preflop()
    assert model.turn is not None
    assert dict(quick_sizes(model.turn.legal, 450))["pot"] == 1_050


def test_1_the_raise_box_names_the_size_it_holds() -> None:
    model = flop_pot_400()
    ui = UiState()
    actions = FakeActions(ui=ui)
    press(model, "3", actions=actions)
    assert "pot" in screen(model, ui).split("\n")[-2] + screen(model, ui).split("\n")[-1] or (
        ui.notice is not None and ui.notice.text.startswith("pot")
    )


# -- 2. a move within the table ----------------------------------------------------------


def test_2_a_player_moved_within_the_table_is_drawn_at_the_new_seat_with_the_pot_intact() -> None:
    model = scenes.preflop(role="spectator", turn=False)
    t = model.table
    assert t is not None
    t.max_seats = 8  # seats 6 and 7 are empty
    before = t.pot_total
    carol = t.seats[2]
    assert carol.bet == 300
    model.apply(m.PlayerMoved(player_id=3, name="carol", from_table=1, from_seat=2, table=1, seat=7), NOW)
    assert 2 not in t.seats
    assert t.seats[7].name == "carol" and t.seats[7].bet == 300 and t.seats[7].stack == carol.stack
    assert t.pot_total == before
    assert "carol moves to seat 7" in "\n".join(model.log)


# -- 3. the same player in two terminals -------------------------------------------------


async def test_3_a_replaced_connection_is_told_why_and_does_not_reconnect(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with fake_server() as (port, peers):
        session = ClientSession("127.0.0.1", port, name="alice", backoff_initial=0.01)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.run)
            peer = await peers.receive()
            await peer.send(HELLO)
            await peer.receive()
            await peer.send(welcome())
            await peer.send(m.ServerGoodbye(reason="replaced by a new connection with your token"))
            await peer.close()
            with trio.fail_after(30):
                await session.wait_done()
            nursery.cancel_scope.cancel()
    assert session.model.connection is ConnectionState.CLOSED
    assert session.stats.connects == 1
    assert "another terminal" in (session.model.connection_reason or "")


# -- 4. times are local wall-clock times --------------------------------------------------


def test_4_the_deadline_summary_is_no_raw_number() -> None:
    from server.tournament.director_words import deadline_summary

    text = deadline_summary(now=1000.0, deadline=1000.0 + 2 * 3600 + 17 * 60)
    assert text == "The deadline is now in 2 h 17 min"
    assert deadline_summary(now=5.0, deadline=None) == "No deadline"


def test_4_the_lobby_shows_the_deadline_as_local_time() -> None:
    model = scenes.registering()
    text = screen(model)
    assert "2026-11-30" not in text and "ends by" in text


# -- 5. the finishing place ---------------------------------------------------------------


def test_5_the_place_comes_from_the_elimination_not_stale_standings() -> None:
    model = scenes.preflop(turn=False)
    # stale standings from before the hand: alice first
    model.apply(m.Standings(places=tuple(
        m.Place(place=i + 1, player_id=i + 1, name=scenes.NAMES[i], chips=10_000, eliminated_in_hand=None)
        for i in range(6)), final=False), NOW)
    model.apply(m.PlayerStatus(player_id=1, name="alice", table=1, seat=0, status="eliminated"), NOW)
    assert model.my_place == 6
    assert "in place 6" in screen(model)


def test_5_the_place_is_shown_in_a_lan_game_without_standings() -> None:
    model = scenes.preflop(turn=False)
    model.apply(m.PlayerStatus(player_id=4, name="dave", table=1, seat=3, status="eliminated"), NOW)
    model.apply(m.PlayerStatus(player_id=1, name="alice", table=1, seat=0, status="eliminated"), NOW)
    assert model.my_place == 5
    assert "in place 5" in screen(model)


# -- 6. whose turn it is --------------------------------------------------------------------


def test_6_the_turn_message_highlights_the_acting_seat_with_its_clock_for_everyone() -> None:
    model = scenes.preflop(role="spectator", turn=False)
    model.apply(m.Turn(table=1, hand_no=17, seat=3, player_id=4, deadline_ms=30_000, time_bank_ms=60_000), NOW)
    t = model.table
    assert t is not None and t.to_act == 3
    text = screen(model, now=NOW + 7)
    assert "dave to act" in text and "0:23" in text


# -- 7. watching on after elimination -------------------------------------------------------


def test_7_watching_on_after_elimination_follows_the_hands() -> None:
    model = scenes.preflop(turn=False)
    model.apply(m.PlayerStatus(player_id=1, name="alice", table=1, seat=0, status="eliminated"), NOW)
    model.apply(
        m.HandStarted(table=1, hand_no=18, button=4, small_blind_seat=5, big_blind_seat=1,
                      small_blind=50, big_blind=100, carried_in=0,
                      stacks=tuple(m.SeatStack(seat=i, stack=10_000) for i in range(1, 6))),
        NOW,
    )
    assert model.table is not None and model.table.hand_no == 18
    assert "Hand #18" in screen(model)


# -- 8. --spectate 2 -------------------------------------------------------------------------


def test_8_spectate_2_asks_for_table_2_and_not_the_first_table() -> None:
    args = cli.build_parser().parse_args(["--spectate", "2"])
    client = cli.Client(args, "127.0.0.1", 7777, cli.TokenStore())
    sent: list[m.ClientMessage] = []
    client.send = lambda msg: sent.append(msg) or True  # type: ignore[method-assign]
    client.model.apply(m.Welcome(version=2, role="spectator", player_id=None, name=None, token=None,
                                 table=2, seat=None), NOW)
    client.model.set_connected()
    client._message(m.Welcome(version=2, role="spectator", player_id=None, name=None, token=None,
                              table=2, seat=None), NOW)
    lobby = attrs.evolve(scenes.lobby(), tables=(m.LobbyTable(table=1, players=(1, 2)),
                                                  m.LobbyTable(table=2, players=(3, 4))))
    client.model.apply(lobby, NOW)
    client._message(lobby, NOW)
    assert [s.table for s in sent if isinstance(s, m.SnapshotRequest)] == [2]


# -- 9. quitting and all in ------------------------------------------------------------------


def test_9_q_during_a_hand_asks_first() -> None:
    model = scenes.preflop()
    actions = FakeActions()
    press(model, "q", actions=actions)
    # only the Ctrl-C that ends the headless run quit; q asked first
    assert actions.quits == 1
    assert actions.ui.confirm is not None and "quit" in actions.ui.confirm.summary.lower()


def test_9_q_then_y_quits_and_between_hands_q_quits_at_once() -> None:
    # A key after the quit is never handled: the fold after "q y" is not sent ...
    sent = press(scenes.preflop(), "q", "y", "f")
    assert acts(sent) == [] and sent.quits == 1
    # ... while after "q n" the game goes on and f folds.
    sent = press(scenes.preflop(), "q", "n", "f")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="fold")]
    # Between hands (the hand is over) q quits at once: the chat key after it is not handled.
    sent = press(scenes.showdown(), "q", "t")
    assert sent.ui.input_mode is None and sent.quits == 1


def test_9_all_in_asks_first_unless_it_is_the_only_way_on_and_the_key_is_not_a() -> None:
    sent = press(scenes.preflop(), "a")
    assert acts(sent) == []
    sent = press(scenes.preflop(), "m")
    assert acts(sent) == []
    assert sent.ui.confirm is not None
    sent = press(scenes.preflop(), "m", "y")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="all_in")]


def test_9_confirmations_can_be_turned_off() -> None:
    ui = UiState(confirm_all_in=False, confirm_quit=False)
    sent = press(scenes.preflop(), "m", actions=FakeActions(ui=ui))
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="all_in")]
    sent = press(scenes.preflop(), "q", "f", actions=FakeActions(ui=UiState(confirm_quit=False)))
    assert acts(sent) == []


def test_9_under_make_play_the_help_says_quitting_ends_the_practice_game() -> None:
    ui = UiState(practice=True)
    model = scenes.preflop()
    ui.overlay = __import__("client.tui.state", fromlist=["Overlay"]).Overlay.HELP
    text = screen(model, ui)
    assert "your seat is kept" not in text
    assert "ends the practice" in text


# -- 10. the exit hint -------------------------------------------------------------------------


def test_10_the_exit_hint_is_a_command_that_works() -> None:
    hint = cli.come_back_command("192.168.1.20", 7777, "Mary Ann", "s3cret pw")
    argv = shlex.split(hint)
    assert argv[0] == "hickory"
    args = cli.build_parser().parse_args(argv[1:])
    assert (args.server, args.name, args.password) == ("192.168.1.20:7777", "Mary Ann", "s3cret pw")
    assert "--password" not in cli.come_back_command("::1", 7777, "bob", None)
    assert cli.build_parser().parse_args(shlex.split(cli.come_back_command("::1", 7777, "bob", None))[1:]).server == "[::1]:7777"


# -- 11. a wrong address ------------------------------------------------------------------------


async def test_11_a_wrong_address_on_the_first_connection_is_said_and_not_retried(
    autojump_clock: trio.testing.MockClock,
) -> None:
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    await listener.aclose()  # nothing listens there now
    session = ClientSession("127.0.0.1", port, name="alice", first_connect_final=True)
    with trio.fail_after(60):
        await session.run()
    assert session.model.connection is ConnectionState.REFUSED
    assert session.model.connection_reason is not None
    assert session.model.connection_reason.startswith(f"cannot connect to 127.0.0.1:{port}: check the address")


# -- 12. standings refresh ------------------------------------------------------------------------


def test_12_standings_follow_the_game_without_tabbing() -> None:
    model = scenes.preflop(turn=False)
    model.apply(m.Standings(places=tuple(
        m.Place(place=i + 1, player_id=i + 1, name=scenes.NAMES[i], chips=10_000, eliminated_in_hand=None)
        for i in range(6)), final=False), NOW)
    model.apply(m.HandEnded(table=1, hand_no=17, stacks=(m.SeatStack(seat=0, stack=1_000),
                                                          m.SeatStack(seat=2, stack=19_000)),
                            carried_out=0), NOW)
    places = {p.name: (p.place, p.chips) for p in model.standings}
    assert places["carol"] == (1, 19_000)
    assert places["alice"][1] == 1_000


# -- 13. the lobby ------------------------------------------------------------------------------


def test_13_the_lobby_shows_ids_the_whole_status_and_no_waiting_for_a_seat_to_a_seated_player() -> None:
    model = scenes.connected()
    lobby = scenes.lobby()
    players = tuple(attrs.evolve(p, status="eliminated", table=None, seat=None) if p.player_id == 6 else p
                    for p in lobby.players)
    model.apply(attrs.evolve(lobby, players=players), NOW)
    text = screen(model, width=100, height=30)
    assert "waiting for your seat" not in text
    assert "eliminated" in text
    assert "#6" in text or " 6 " in text


def test_13_the_lobby_shows_the_start_condition() -> None:
    model = scenes.connected()
    model.apply(attrs.evolve(scenes.lobby("registering", n=3), start_players=4), NOW)
    assert "3 of 4 joined" in screen(model)


# -- 14. the director console ---------------------------------------------------------------------


def test_14_help_lists_every_director_command_and_help_command_gives_the_syntax() -> None:
    from client.tui.director import COMMAND_HELP, help_text

    text = help_text(None)
    for op in COMMAND_HELP:
        assert op in text
    assert "move" in help_text("move") and "TABLE" in help_text("move")


def test_14_question_mark_shows_director_commands_to_the_director() -> None:
    from client.tui.state import Overlay

    model = scenes.preflop(role="director", turn=False)
    ui = UiState(overlay=Overlay.HELP)
    text = screen(model, ui, width=80, height=24)
    assert "pause" in text and "move" in text


def test_14_completion_of_commands_and_player_names() -> None:
    from client.tui.director import complete

    lobby = scenes.lobby()
    assert "pause" in complete("pa", lobby)
    assert "carol" in complete("move ca", lobby)


# -- 15. nothing cut at 80x24 ------------------------------------------------------------------------


def test_15_at_80x24_the_title_my_name_and_the_announcement_fit() -> None:
    model = scenes.preflop()
    model.tournament = "Hickory Night at the Community Hall"
    text = screen(model, width=80, height=24)
    header = text.split("\n")[0]
    assert "Hickory Night at the Community Hall" in header
    assert "alice" in header


# -- 16. the log tells what players need -----------------------------------------------------------


def test_16_the_log_has_kickers_uncalled_bets_and_level_changes() -> None:
    model = scenes.showdown()
    model.apply(m.BetReturned(table=1, hand_no=30, seat=1, amount=600), NOW)
    model.apply(m.PotAwarded(table=1, hand_no=30, pot=0, amount=100, winners=(m.Winner(seat=1, amount=100),),
                             hand_name="Three of a kind, queens", remainder_carried=0,
                             hand_detail="Three of a kind, queens, kickers king and seven"), NOW)
    lobby = scenes.lobby(n=2)
    model.apply(attrs.evolve(lobby, level=m.Level(index=3, small_blind=100, big_blind=200)), NOW)
    log = "\n".join(model.log)
    assert "kickers king and seven" in log
    assert "600 returned to bob" in log
    assert "level 4" in log.lower() and "100/200" in log


# -- 17. spectator log, history times, director errors ------------------------------------------------


def test_17_switching_tables_starts_a_fresh_log() -> None:
    model = scenes.preflop(role="spectator", turn=False)
    assert any("carol raises" in line for line in model.log)
    model.apply(attrs.evolve(heads_up_snapshot(), table=2), NOW)
    assert not any("carol raises" in line for line in model.log)
    assert any("table 2" in line for line in model.log)


def test_17_director_errors_name_the_player_not_an_internal_id() -> None:
    from server.tournament import TournamentError
    from server.tournament.director import Director
    from tests.tournament.helpers import started

    t = started(12, seats_per_table=6)
    mover = next(p for p in ("p01", "p02", "p03") if t.location(p) and t.location(p).table_id == 1)  # type: ignore[union-attr]
    with pytest.raises(TournamentError) as err:
        Director(t).move_player(0.0, mover, 1, reason="x")
    assert f"{mover!r}" not in str(err.value)
    assert f"{t.name_of(mover)} (player {mover})" in str(err.value)


def test_17_history_times_say_the_zone_once() -> None:
    import datetime as dt

    from poker.history import HandInfo

    info = HandInfo(table_id=1, level=1, started_at=dt.datetime(2026, 11, 30, 6, 10, 5, tzinfo=dt.UTC),
                    time_zone="UTC")
    head = _text_history_head(info)
    assert "2026-11-30 06:10:05 UTC" in head and "+00:00" not in head


def _text_history_head(info: object) -> str:
    """The first line of a text hand history with ``info`` (the engine's known test hand)."""
    from poker.history import to_text
    from tests.engine.test_history import known_hand

    return to_text(known_hand().events, info).splitlines()[0]  # type: ignore[arg-type]
