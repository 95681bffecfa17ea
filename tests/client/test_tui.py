"""The terminal client without a terminal: keys to protocol messages, and what each state shows.

Key tests run the real Application headless (``create_pipe_input`` + ``DummyOutput`` inside
``create_app_session``) over models built from protocol messages (``scenes``), with a fake
``Actions`` that records what would have been sent. Render tests call the pure render
functions at 80x24 and read the text.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import attrs
import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.application.current import get_app
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.utils import get_cwidth

from client.cli import TokenStore, parse_address, refusal_text
from client.model import ClientModel
from client.tui.app import create_application, note_server_message
from client.tui.bottom import hand_name
from client.tui.canvas import plain
from client.tui.director import DirectorInputError, parse_command
from client.tui.keys import create_key_bindings, parse_raise, quick_sizes
from client.tui.layout import render_terminal
from client.tui.render import render_screen
from client.tui.side_panel import chat_lines, render_side_panel
from client.tui.state import InputMode, Overlay, Panel, Tone, UiState
from protocol import messages as m
from tests.client import scenes
from tests.client.scenes import NOW

# =====================================================================================
# Driving the Application headless
# =====================================================================================


@attrs.define
class FakeActions:
    """Records what the keys send; ``quit`` ends the headless Application."""

    ui: UiState = attrs.Factory(UiState)
    sent: list[m.ClientMessage] = attrs.Factory(list)
    connected: bool = True
    quits: int = 0

    def send(self, msg: m.ClientMessage) -> bool:
        if not self.connected:
            return False
        self.sent.append(msg)
        return True

    def quit(self) -> None:
        self.quits += 1
        app = get_app()
        if not app.is_done:
            app.exit()

    def now(self) -> float:
        return NOW + 1


CTRL_C = "\x03"
ESC = "\x1b"


def press(model: ClientModel, *keys: str, actions: FakeActions | None = None) -> FakeActions:
    """Type ``keys`` into the client's Application (then Ctrl-C to quit); what was sent."""
    actions = actions if actions is not None else FakeActions()
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        app = create_application(model, actions, actions.now, input=inp, output=DummyOutput(),
                                 refresh_interval=None)
        for k in keys:
            inp.send_text(k)
        inp.send_text(CTRL_C)
        app.run()
    assert actions.quits >= 1
    return actions


def acts(actions: FakeActions) -> list[m.Act]:
    return [msg for msg in actions.sent if isinstance(msg, m.Act)]


# =====================================================================================
# Keys to protocol messages
# =====================================================================================


def test_f_folds_the_hand_in_play() -> None:
    model = scenes.preflop()
    sent = press(model, "f")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="fold")]
    assert model.turn is not None and model.turn.acted


def test_c_calls_the_amount_the_server_offered() -> None:
    assert acts(press(scenes.preflop(), "c")) == [m.Act(table=1, hand_no=17, action="call")]


def test_c_checks_when_checking_is_free() -> None:
    assert acts(press(scenes.flop_check(), "c")) == [m.Act(table=1, hand_no=18, action="check")]


def test_f_does_not_fold_when_checking_is_free() -> None:
    sent = press(scenes.flop_check(), "f")
    assert acts(sent) == []
    assert sent.ui.notice is not None and "press c to check" in sent.ui.notice.text


def test_r_then_enter_raises_to_the_minimum() -> None:
    sent = press(scenes.preflop(), "r", "\r")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="raise", amount=500)]


def test_r_with_an_amount_typed_raises_to_it() -> None:
    sent = press(scenes.preflop(), "r", "1200", "\r")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="raise", amount=1200)]


def test_an_opening_bet_is_sent_as_bet() -> None:
    sent = press(scenes.flop_check(), "r", "450", "\r")
    assert acts(sent) == [m.Act(table=1, hand_no=18, action="bet", amount=450)]


def test_m_goes_all_in_once_confirmed() -> None:
    assert acts(press(scenes.preflop(), "m", "y")) == [m.Act(table=1, hand_no=17, action="all_in")]


def test_quick_sizes_open_the_raise_box_with_the_amount() -> None:
    # Pot 450 + my call 300 = 750 after calling; a pot raise is to 300 + 750 = 1,050.
    sent = press(scenes.preflop(), "3", "\r")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="raise", amount=1050)]
    sent = press(scenes.preflop(), "2", "\r")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="raise", amount=675)]
    sent = press(scenes.preflop(), "4", "\r")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="raise", amount=10_000)]


def test_tab_in_the_raise_box_cycles_the_quick_sizes() -> None:
    sent = press(scenes.preflop(), "r", "\t", "\t", "\r")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="raise", amount=1050)]


@pytest.mark.parametrize("keys", ["f", "c", "r", "m", "1", "r\r", "m\r", "my"])
def test_no_action_is_sent_when_it_is_not_my_turn(keys: str) -> None:
    model = scenes.preflop(turn=False)
    assert model.turn is None
    sent = press(model, keys)
    assert acts(sent) == []


def test_no_second_action_for_a_turn_already_answered() -> None:
    sent = press(scenes.preflop(), "c", "c", "f")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="call")]


def test_spectators_have_no_action_keys() -> None:
    model = scenes.preflop(role="spectator")
    sent = press(model, "f", "c", "m", "y", "s")
    assert sent.sent == []


def test_the_raise_box_refuses_an_amount_below_the_minimum() -> None:
    model = scenes.preflop()
    sent = press(model, "r", "250", "\r")
    assert acts(sent) == []
    assert sent.ui.notice is not None and sent.ui.notice.tone is Tone.ERROR
    assert "raise to 250 is below the minimum 500" in sent.ui.notice.text
    # The box stays open with what was typed, so the player can fix it.
    assert sent.ui.input_mode is InputMode.RAISE and sent.ui.buffer.text == "250"


def test_the_raise_box_refuses_an_amount_above_the_maximum() -> None:
    sent = press(scenes.preflop(), "r", "25000", "\r")
    assert acts(sent) == []
    assert sent.ui.notice is not None
    assert "raise to 25,000 is over your all-in 10,000" in sent.ui.notice.text


def test_the_raise_box_refuses_what_is_not_a_number_and_then_accepts_a_fix() -> None:
    sent = press(scenes.preflop(), "r", "lots", "\r")
    assert acts(sent) == [] and sent.ui.notice is not None
    assert "not an amount" in sent.ui.notice.text
    sent = press(scenes.preflop(), "r", "lots", "\r", "\x15", "800", "\r")  # Ctrl-U clears
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="raise", amount=800)]


def test_escape_closes_the_raise_box_without_sending() -> None:
    sent = press(scenes.preflop(), "r", ESC, "f")
    assert acts(sent) == [m.Act(table=1, hand_no=17, action="fold")]


def test_a_failed_send_keeps_the_turn() -> None:
    model = scenes.preflop()
    sent = press(model, "c", actions=FakeActions(connected=False))
    assert sent.sent == [] and model.turn is not None and not model.turn.acted
    assert sent.ui.notice is not None and "not connected" in sent.ui.notice.text


def test_a_refused_action_gives_the_turn_back() -> None:
    model = scenes.preflop()
    actions = press(model, "c")
    assert model.turn is not None and model.turn.acted
    err = m.Error(code="illegal_action", message="call is not allowed")
    model.apply(err, NOW)
    note_server_message(model, actions, err, NOW)
    assert not model.turn.acted
    assert actions.ui.notice is not None and "refused: call is not allowed" in actions.ui.notice.text


def test_s_sits_out_and_again_comes_back() -> None:
    assert press(scenes.preflop(turn=False), "s").sent == [m.SitOut()]
    assert press(scenes.sitting_out(), "s").sent == [m.ImBack()]


def test_t_sends_chat_to_the_table_or_the_lobby_or_calls_the_director() -> None:
    sent = press(scenes.preflop(turn=False), "t", "nice hand", "\r")
    assert sent.sent == [m.Chat(scope="table", text="nice hand")]
    sent = press(scenes.preflop(turn=False), "t", "/lobby hi all", "\r")
    assert sent.sent == [m.Chat(scope="lobby", text="hi all")]
    sent = press(scenes.preflop(turn=False), "t", "/director dealer misdealt", "\r")
    assert sent.sent == [m.CallDirector(message="dealer misdealt")]


def test_typing_chat_does_not_trigger_action_keys() -> None:
    sent = press(scenes.preflop(), "t", "fcra", "\r")
    assert sent.sent == [m.Chat(scope="table", text="fcra")]


def test_h_asks_for_history_and_shows_it() -> None:
    sent = press(scenes.preflop(turn=False), "h")
    assert sent.sent == [m.HistoryRequest(last=20)]
    assert sent.ui.overlay is Overlay.HISTORY


def test_history_scrolls_and_browses() -> None:
    model = scenes.preflop(turn=False)
    model.apply(m.History(hands=(HAND_RECORD, attrs.evolve(HAND_RECORD, hand_no=15))), NOW)
    sent = press(model, "h", "\x1b[B", "\x1b[B")  # Down, Down
    assert sent.ui.history_scroll == 2 and sent.ui.history_index == -1
    sent = press(model, "h", "\x1b[D")  # Left: the older hand
    assert sent.ui.history_index == 0
    assert "Hand #16" in screen(model, attrs.evolve(sent.ui, history_index=0, overlay=Overlay.HISTORY))


def test_help_overlay_toggles_and_escape_closes() -> None:
    assert press(scenes.preflop(), "?").ui.overlay is Overlay.HELP
    assert press(scenes.preflop(), "?", "?").ui.overlay is None
    assert press(scenes.preflop(), "?", ESC).ui.overlay is None


def test_q_quits_and_sigint_is_bound() -> None:
    actions = FakeActions()
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        app = create_application(scenes.preflop(), actions, actions.now, input=inp,
                                 output=DummyOutput(), refresh_interval=None)
        inp.send_text("qy")  # during a hand q asks first
        app.run()
    assert actions.quits == 1
    kb = create_key_bindings(scenes.preflop(), FakeActions())
    assert kb.get_bindings_for_keys((Keys.SIGINT,)), "kill -INT must reach a binding"
    assert kb.get_bindings_for_keys((Keys.ControlC,))


def test_spectators_switch_tables_with_brackets() -> None:
    model = scenes.preflop(role="spectator")
    model.apply(attrs.evolve(scenes.lobby(), tables=(
        m.LobbyTable(table=1, players=(1, 2, 3)), m.LobbyTable(table=2, players=(4, 5, 6)))), NOW)
    assert press(model, "]").sent == [m.SnapshotRequest(table=2)]
    assert press(model, "[").sent == [m.SnapshotRequest(table=2)]
    assert press(scenes.preflop(), "]").sent == []  # players stay at their own table


def test_director_command_is_confirmed_before_it_is_sent() -> None:
    model = scenes.connected("director")
    model.apply(scenes.lobby(), NOW)
    sent = press(model, ":", "pause dinner break", "\r")
    assert sent.sent == [] and sent.ui.pending is not None
    assert "pause the tournament (reason: dinner break)" in sent.ui.pending.summary
    sent = press(model, ":", "pause dinner break", "\r", "y")
    assert sent.sent == [m.DirectorCommand(command=m.PauseCommand(reason="dinner break"))]
    sent = press(model, ":", "pause dinner break", "\r", "n")
    assert sent.sent == []


def test_director_command_without_a_reason_is_refused_with_usage() -> None:
    model = scenes.connected("director")
    sent = press(model, ":", "level 4", "\r")
    assert sent.sent == [] and sent.ui.notice is not None
    assert "every command needs a reason: level N REASON" in sent.ui.notice.text


# =====================================================================================
# Amounts and director commands (pure)
# =====================================================================================


def legal_of(model: ClientModel):  # type: ignore[no-untyped-def]
    assert model.turn is not None
    return model.turn.legal


def test_parse_raise_accepts_numbers_in_range_and_named_sizes() -> None:
    legal = legal_of(scenes.preflop())
    assert parse_raise("500", legal) == 500
    assert parse_raise("1,200", legal) == 1200
    assert parse_raise("1.5k", legal) == 1500
    assert parse_raise("max", legal) == 10_000
    assert parse_raise("pot", legal, 450) == 1050
    with pytest.raises(ValueError, match="below the minimum 500"):
        parse_raise("499", legal)
    with pytest.raises(ValueError, match="over your all-in 10,000"):
        parse_raise("10001", legal)
    with pytest.raises(ValueError, match="not a whole number"):
        parse_raise("600.5", legal)


def test_quick_sizes_stay_legal_and_distinct() -> None:
    legal = legal_of(scenes.preflop())
    assert quick_sizes(legal, 450) == [("min", 500), ("half pot", 675), ("pot", 1050), ("all in", 10_000)]
    # A tiny pot: half pot and pot fall below the minimum and collapse into it.
    assert quick_sizes(legal, 0)[0] == ("min", 500)
    assert all(500 <= a <= 10_000 for _, a in quick_sizes(legal, 0))


def test_director_commands_parse_with_players_by_name() -> None:
    lobby = scenes.lobby()
    cmd, summary = parse_command("move bob 2 5 balancing", lobby)
    assert cmd == m.MovePlayerCommand(player_id=2, table=2, seat=5, reason="balancing")
    assert "move bob to table 2 seat 5" in summary
    cmd, _ = parse_command("chips carol 12,000 miscount", lobby)
    assert cmd == m.AdjustChipsCommand(player_id=3, chips=12000, reason="miscount")
    cmd, _ = parse_command("level 4 running late", lobby)
    assert cmd == m.SetLevelCommand(index=3, reason="running late")
    cmd, _ = parse_command("options action=20 chat=off slow", lobby)
    assert cmd == m.SetOptionsCommand(action_seconds=20, chat=False, reason="slow")
    cmd, _ = parse_command("announce Last hand before the break", lobby)
    assert isinstance(cmd, m.AnnounceCommand) and cmd.text == "Last hand before the break"
    with pytest.raises(DirectorInputError, match="no player named 'zed'"):
        parse_command("remove zed gone", lobby)
    with pytest.raises(DirectorInputError, match="unknown command"):
        parse_command("explode now", lobby)


# =====================================================================================
# What each state shows (80x24)
# =====================================================================================

WIDTH, HEIGHT = 80, 24


def screen(model: ClientModel, ui: UiState | None = None, now: float = NOW + 7,
           width: int = WIDTH, height: int = HEIGHT) -> str:
    """The whole terminal as text: the rendered screen plus the bottom line."""
    ui = ui if ui is not None else UiState()
    lines = render_terminal(model, ui, width, height, now)
    assert len(lines) == height
    for line in lines:
        text = "".join(f[1] for f in line)
        assert get_cwidth(text) <= width, f"line wider than {width}: {text!r}"
    return plain(lines)


def test_preflop_shows_seats_my_cards_and_the_keys_with_amounts() -> None:
    text = screen(scenes.preflop())
    for expected in [
        "Hickory Night", "Level 3 50/100", "next 4:25", "Table 1", "Hand #17",
        "carol", "9,700", "bet 300", "erin", "SB", "frank", "BB", "dave", "D",
        "Preflop", "Ace-king",
        "f fold", "c call 300", "r raise 500-10,000", "m all in 10,000", "Your turn",
        "Clock", "0:23",
        "carol raises to 300",
    ]:
        assert expected in text, expected
    # My hole cards are drawn large, with suit symbols.
    assert "│A    │" in text and "│    ♠│" in text and "│    ♥│" in text
    # bob folded this hand.
    assert "folded" in text


def test_ascii_mode_uses_letters_for_suits() -> None:
    text = screen(scenes.preflop(), UiState(ascii=True))
    assert "|A    |" in text and "|    s|" in text and "|    h|" in text
    assert not any(sym in text for sym in "♠♥♦♣│")


def test_the_clock_bar_moves_to_the_time_bank() -> None:
    model = scenes.preflop()
    assert "Clock" in screen(model, now=NOW + 5)
    later = screen(model, now=NOW + 45)
    assert "Time bank" in later and "0:45" in later


def test_my_hand_is_named_as_the_board_comes() -> None:
    text = screen(scenes.flop_check())
    assert "Pair of kings" in text
    assert "c check" in text and "r bet 100-9,700" in text and "f fold" not in text
    assert "K♦" in text and "7♣" in text
    assert hand_name(("As", "Kh"), ("Kd", "7c", "2s", "9h", "Ks")) == "Three of a kind, kings"
    assert hand_name(("Qs", "Qh"), ()) == "Pocket queens"
    assert hand_name(("9s", "8s"), ()) == "Nine-eight suited"


def test_all_in_with_side_pots_shows_each_pot_and_the_carried_chip() -> None:
    text = screen(scenes.all_in_side_pots())
    assert "Turn" in text
    assert "Pot 3,001" in text
    assert "Side pot 1 1,200" in text
    assert "+1 chip carried in" in text
    # With room (a wider terminal) each pot says who can win it.
    wide = screen(scenes.all_in_side_pots(), width=120, height=40)
    assert "Side pot 1 1,200 (bob, carol)" in wide and "+1 odd chip carried in" in wide
    assert "all in" in text  # alice's stack
    assert "bob to act" in text
    assert "Your turn" not in text


def test_showdown_shows_the_cards_and_the_winner() -> None:
    text = screen(scenes.showdown())
    assert "Q♦ Q♣" in text
    assert "bob shows Qd Qc (Four of" in text  # the log, wrapped to the side panel
    assert "bob wins 4,000 with Four" in text
    assert "Two pair, aces and queens" in text  # my hand's name
    assert "12,000" in text
    assert "Hand #30 is over" in text


def test_sitting_out_and_disconnected_are_marked() -> None:
    text = screen(scenes.sitting_out())
    assert "sitting out (s: I'm back)" in text
    assert "10,000 offline" in text  # bob
    assert "10,000 out" in text  # alice (a wider box has room for the words)
    assert "10,000 sitting out" in screen(scenes.sitting_out(), width=120, height=40)
    assert "s I'm back" in text


def test_an_eliminated_player_is_told_so() -> None:
    model = scenes.preflop(turn=False)
    model.apply(m.PlayerStatus(player_id=1, name="alice", table=1, seat=0, status="eliminated"), NOW)
    model.apply(m.Standings(places=(m.Place(place=6, player_id=1, name="alice", chips=0,
                                            eliminated_in_hand=17),), final=False), NOW)
    assert "You are out of the tournament in place 6" in screen(model)


def test_reconnecting_keeps_the_table_under_a_banner() -> None:
    model = scenes.preflop()
    model.set_reconnecting("connection lost: reset by peer")
    text = screen(model)
    assert "connection lost, reconnecting…" in text
    assert "connection lost: reset by peer" in text
    assert "carol" in text  # the table is still there, dimmed
    assert "Your turn" not in text  # the turn in flight is void until resumed


def test_the_directors_chat_is_marked_in_a_way_no_name_can_imitate() -> None:
    """Who spoke is shown from the message's role: the director's lines carry a mark in
    their own style, and a player named like the director (an old server let that in)
    shows as a player, by name, in the player's style."""
    model = scenes.preflop(turn=False)
    for name, role in (("director (director)", "player"), ("director", "director"), ("spectator", "spectator")):
        model.apply(m.ChatMessage(scope="table", table=1, player_id=7 if role == "player" else None, name=name,
                                  role=role, text="the game is paused"), NOW)  # type: ignore[arg-type]
    lines = chat_lines(model)
    assert lines == [
        ("class:chat", "director (director): the game is paused"),
        ("class:chat.director", "[DIRECTOR] the game is paused"),
        ("class:chat", "[spectator] the game is paused"),
    ]
    ui = UiState()
    ui.panel = Panel.CHAT
    drawn = render_side_panel(model, ui, 40, 10)
    director_rows = [line for line in drawn if "[DIRECTOR]" in "".join(f[1] for f in line)]
    assert director_rows and all("chat.director" in f[0] for f in director_rows[0] if f[1].strip())


def test_refused_shows_the_reason() -> None:
    model = ClientModel()
    model.set_refused("Wrong password: ask the organiser. Server said: wrong password")
    text = screen(model)
    assert "The server refused this client" in text and "Wrong password" in text


def test_lobby_before_the_start() -> None:
    text = screen(scenes.registering())
    assert "Registration open: 4 joined" in text
    assert "4 registered" in text and "starts at 25/50" in text
    for name in ["alice", "bob", "carol", "dave"]:
        assert name in text


def test_spectator_sees_no_hole_cards_and_no_keys() -> None:
    text = screen(scenes.preflop(role="spectator"))
    assert "watching" in text
    assert "Watching: hole cards show when they are shown" in text
    assert "Your turn" not in text and "f fold" not in text
    assert "▒▒ ▒▒" in text  # others' cards are face down


def test_help_and_history_overlays() -> None:
    ui = UiState(overlay=Overlay.HELP)
    text = screen(scenes.preflop(), ui)
    assert "check, or call the amount shown" in text and "sit out" in text
    model = scenes.preflop()
    ui = UiState(overlay=Overlay.HISTORY)
    assert "asking the server" in screen(model, ui)
    model.apply(m.History(hands=(HAND_RECORD,)), NOW)
    text = screen(model, ui)
    assert "Hand #16" in text and "You held A♠ K♥" in text
    assert "carol raises to 300" in text and "carol wins 650 from the pot" in text


def test_every_state_fits_80_by_24_and_other_sizes() -> None:
    models = [
        scenes.preflop(), scenes.flop_check(), scenes.all_in_side_pots(), scenes.showdown(),
        scenes.sitting_out(), scenes.registering(), scenes.preflop(role="spectator"),
    ]
    for model in models:
        for width, height in [(80, 24), (120, 40), (60, 20), (100, 30), (50, 19), (50, 18), (40, 12)]:
            screen(model, width=width, height=height)


def test_notices_and_announcements_reach_the_bottom_line() -> None:
    model = scenes.preflop()
    actions = FakeActions()
    ann = m.Announcement(text="Break in 5 minutes", by="director", reason=None)
    model.apply(ann, NOW)
    note_server_message(model, actions, ann, NOW)
    assert "director: Break in 5 minutes" in screen(model, actions.ui, now=NOW + 1)


HAND_RECORD = m.HandRecord(
    table=1, hand_no=16, level=2, button=3, small_blind=50, big_blind=100, carried_in=0,
    players=tuple(m.HandPlayer(seat=i, player_id=i + 1, name=n, stack=10_000)
                  for i, n in enumerate(["alice", "bob", "carol"])),
    blinds=(m.BlindPost(seat=1, blind="small", amount=50, all_in=False),
            m.BlindPost(seat=2, blind="big", amount=100, all_in=False)),
    actions=(
        m.HandAction(street="preflop", seat=0, action="call", amount=100, to=100, all_in=False, automatic=False),
        m.HandAction(street="preflop", seat=1, action="fold", amount=0, to=50, all_in=False, automatic=False),
        m.HandAction(street="preflop", seat=2, action="raise", amount=200, to=300, all_in=False, automatic=False),
        m.HandAction(street="preflop", seat=0, action="fold", amount=0, to=100, all_in=False, automatic=True),
    ),
    board=(), shown=(), your_seat=0, your_cards=("As", "Kh"),
    results=(m.PotResult(pot=0, amount=650, winners=(m.Winner(seat=2, amount=650),), remainder_carried=0),),
    carried_out=0, stacks=(),
)


# =====================================================================================
# The command line: addresses, tokens, refusals
# =====================================================================================


def test_parse_address() -> None:
    assert parse_address(None) == ("127.0.0.1", 7777)
    assert parse_address("poker.lan") == ("poker.lan", 7777)
    assert parse_address("10.0.0.5:9000") == ("10.0.0.5", 9000)
    assert parse_address("[::1]:9000") == ("::1", 9000)
    assert parse_address("::1") == ("::1", 7777)
    with pytest.raises(ValueError, match="not a port"):
        parse_address("host:http")


def test_tokens_are_kept_per_server_and_name_owner_only(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "hickory" / "tokens.json")
    assert store.get("h:1", "alice") is None
    store.put("h:1", "alice", "tok-aaaaaaaa")
    store.put("h:2", "alice", "tok-bbbbbbbb")
    assert store.get("h:1", "alice") == "tok-aaaaaaaa"
    assert store.get("h:2", "alice") == "tok-bbbbbbbb"
    mode = stat.S_IMODE(os.stat(store.path).st_mode)
    assert mode == 0o600
    store.put("h:1", "alice", None)
    assert store.get("h:1", "alice") is None
    assert json.loads(store.path.read_text()) == {"h:2": {"alice": "tok-bbbbbbbb"}}
    store.path.write_text("{not json")
    assert store.get("h:2", "alice") is None  # a damaged file is treated as empty


def test_token_file_lives_under_xdg_config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert TokenStore().path == tmp_path / "hickory" / "tokens.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert TokenStore().path == tmp_path / "home" / ".config" / "hickory" / "tokens.json"


def test_refusals_say_what_to_do() -> None:
    class Args:
        name = "alice"
        director = None

    assert "choose another with --name" in refusal_text("name_taken", "name taken", Args())  # type: ignore[arg-type]
    assert "--password" in refusal_text("wrong_password", "wrong password", Args())  # type: ignore[arg-type]
    assert "update the client" in refusal_text("unsupported_version", "v2 only", Args())  # type: ignore[arg-type]
    assert "server is full" in refusal_text("server_full", "full", Args())  # type: ignore[arg-type]


def test_a_raise_key_when_the_stack_only_allows_all_in_names_the_all_in_key() -> None:
    model = scenes.preflop()
    assert model.turn is not None
    legal = model.turn.legal
    stack = legal.max_raise_to
    model.turn = attrs.evolve(model.turn, legal=attrs.evolve(legal, min_raise_to=stack))
    sent = press(model, "r")
    assert acts(sent) == []
    assert sent.ui.notice is not None and sent.ui.notice.text.endswith("press m"), sent.ui.notice
    assert acts(press(model, "m", "y")) == [m.Act(table=1, hand_no=17, action="all_in")]


# =====================================================================================
# The rules in force and breaks (issue 12)
# =====================================================================================


def rules_lobby(**kw: object) -> m.Lobby:
    from protocol.examples import RULES

    return attrs.evolve(scenes.lobby(), rules=RULES, **kw)


def test_u_opens_the_rules_in_force_and_asks_for_a_fresh_lobby() -> None:
    model = scenes.preflop(turn=False)
    model.apply(rules_lobby(), NOW)
    sent = press(model, "u")
    assert sent.ui.overlay is Overlay.RULES and sent.sent == [m.LobbyRequest()]
    assert press(model, "u", "u").ui.overlay is None
    assert press(model, "u", ESC).ui.overlay is None


def test_the_rules_view_shows_every_rule_the_breaks_and_the_changes_with_reasons() -> None:
    model = scenes.preflop(turn=False)
    model.apply(rules_lobby(), NOW)
    text = screen(model, UiState(overlay=Overlay.RULES))
    for expected in [
        "Rules in force (version 3)", "hickory: every raise adds at least the big blind",
        "9 per table", "15 minutes each", "action clock 30 s, then a time bank of 60 s",
        "carried pot by pot into the next hand", "after level 4: 10 min",
        "v2", "action clock 30 s from the next hand", "reason: the night is running long",
        "v3", "a break of 10 minutes after level 4", "reason: pizza arrives at nine",
    ]:
        assert expected in text, expected
    model.apply(attrs.evolve(scenes.lobby(), rules=None), NOW)  # a version 1 server
    assert "protocol version 1" in screen(model, UiState(overlay=Overlay.RULES))


def test_a_break_shows_its_time_left_in_the_header_and_the_lobby() -> None:
    model = scenes.preflop(turn=False)
    model.apply(rules_lobby(state="paused", break_after_level=4, break_seconds_left=432,
                            break_until="2026-11-30T21:07:12Z"), NOW)
    text = screen(model, now=NOW + 7)
    assert "Break: 7:05 left" in text and "PAUSED" not in text
    lobby_text = screen(model, UiState(overlay=Overlay.LOBBY), now=NOW + 7)
    assert "On a break after level 4: play resumes at level 5" in lobby_text
    rules_text = screen(model, UiState(overlay=Overlay.RULES), now=NOW + 7)
    assert "7:05 left; play resumes at level 5" in rules_text
    model.apply(rules_lobby(state="paused"), NOW)  # a pause that is not a break
    text = screen(model, now=NOW + 7)
    assert "PAUSED" in text and "Break:" not in text


def test_the_help_lists_the_rules_key_and_the_directors_break_command() -> None:
    text = screen(scenes.preflop(turn=False), UiState(overlay=Overlay.HELP))
    assert "rules in force" in text
    from client.tui.director import complete, help_text

    assert complete("br", None) == ["break"]
    assert help_text("break") == ("break LEVEL MINUTES REASON (0 minutes removes it): a break of MINUTES "
                                  "(1-120) when level LEVEL ends; resume ends it early")
    cmd, summary = parse_command("break 4 10 pizza arrives at nine")
    assert cmd == m.SetBreakCommand(after_level=4, minutes=10, reason="pizza arrives at nine")
    assert summary == "a break of 10 min after level 4 (reason: pizza arrives at nine)"
    cmd, summary = parse_command("break 4 0 no pizza")
    assert cmd == m.SetBreakCommand(after_level=4, minutes=0, reason="no pizza")
    assert summary.startswith("remove the break after level 4")
    with pytest.raises(DirectorInputError, match="every command needs a reason: break LEVEL MINUTES REASON"):
        parse_command("break 4 10")
    with pytest.raises(DirectorInputError, match="the minutes must be a whole number"):
        parse_command("break 4 ten pizza")


def test_the_director_types_a_break_and_confirms_it() -> None:
    model = scenes.connected("director")
    model.apply(scenes.lobby(), NOW)
    sent = press(model, ":", "break 4 10 pizza", "\r", "y")
    assert sent.sent == [m.DirectorCommand(command=m.SetBreakCommand(after_level=4, minutes=10, reason="pizza"))]


def test_the_header_counts_down_to_no_next_level_once_the_tournament_is_over() -> None:
    model = scenes.preflop()
    before = "".join(t for _, t in render_screen(model, UiState(), 100, 30, NOW)[1])
    assert " · next " in before
    model.apply(m.TournamentFinished(name="Hickory Night", places=()), NOW)
    after = "".join(t for _, t in render_screen(model, UiState(), 100, 30, NOW)[1])
    assert "Level 3 50/100" in after and " · next " not in after, after
