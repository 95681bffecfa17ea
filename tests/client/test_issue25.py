"""The terminal client and the director's console of issue 25, numbered as in the issue.

Headless: models fed protocol messages (``scenes``), the real key bindings in a headless
Application (``press``), and ``render_terminal``, the whole terminal as the layout draws
it. The same prompts in a real terminal: ``test_tmux_fit``.
"""

from __future__ import annotations

import argparse
import inspect
import re

import attrs
import trio
import trio.testing

from client import cli
from client.model import ClientModel, ConnectionState
from client.session import ClientSession
from client.tui.app import note_server_message, turn_bell
from client.tui.canvas import plain
from client.tui.director import DirectorInputError, parse_command
from client.tui.layout import render_terminal
from client.tui.state import (
    Confirm,
    InputMode,
    Notice,
    Overlay,
    Panel,
    PendingCommand,
    Tone,
    UiState,
)
from protocol import errors as E
from protocol import messages as m
from tests.client import scenes
from tests.client.fakeserver import HELLO, fake_server, heads_up_snapshot, welcome
from tests.client.scenes import NOW
from tests.client.test_tui import FakeActions, press


def terminal(model: ClientModel, ui: UiState, width: int = 80, height: int = 24, now: float = NOW + 1) -> str:
    lines = render_terminal(model, ui, width, height, now)
    assert len(lines) == height
    return plain(lines)


def flowing(text: str) -> str:
    """The screen's words with line breaks and runs of spaces as single spaces."""
    return re.sub(r"\s+", " ", text)


def shows_whole(screen: str, message: str) -> bool:
    """``message`` is on the screen word for word (wrapped lines read as one)."""
    pattern = r"\s+".join(re.escape(w) for w in message.split())
    return re.search(pattern, screen) is not None


# -- 1. prompts and messages are never cut; the answer keys are always on screen -----------


def test_1_the_void_confirmation_shows_its_reason_and_its_keys_at_80_columns() -> None:
    model = scenes.preflop(role="director", turn=False)
    command, summary = parse_command("void 1 cards exposed in the deal by a tired dealer")
    ui = UiState()
    ui.pending = PendingCommand(command=command, summary=summary)
    screen = terminal(model, ui)
    assert shows_whole(screen, f"{summary}? y sends, n cancels"), screen


def test_1_a_confirmation_too_long_for_its_lines_is_shortened_at_a_word_and_keeps_its_keys() -> None:
    model = scenes.preflop(turn=False)
    ui = UiState()
    ui.confirm = Confirm(what="quit", summary="Quit " + "really " * 120)
    screen = terminal(model, ui)
    assert "y yes, n no" in screen
    assert "…" in screen and "reall…" not in screen


def test_1_the_raise_box_hint_and_a_refused_amount_are_whole_above_the_box() -> None:
    model = scenes.preflop()
    ui = UiState()
    ui.open_input(InputMode.RAISE, "abc")
    hint = "min 500 · Enter sends · Tab: min, half pot, pot, all in · Esc cancels"
    ui.notice = Notice(text=hint, until=NOW + 10)
    screen = terminal(model, ui)
    assert shows_whole(screen, hint), screen
    ui.notice = Notice(text="'abc' is not an amount: type whole chips, e.g. 500", tone=Tone.ERROR, until=NOW + 10)
    screen = terminal(model, ui)
    assert shows_whole(screen, "'abc' is not an amount: type whole chips, e.g. 500"), screen
    assert screen.rstrip().split("\n")[-1].startswith("Raise to (500-10,000)")


def test_1_an_announcement_on_the_bottom_line_wraps_instead_of_being_cut() -> None:
    model = scenes.connected()
    model.apply(scenes.lobby("registering", n=3), NOW)
    text = "Dinner is served in the back room: the tournament pauses at the end of level 4 for thirty minutes"
    model.apply(m.Announcement(by="director", text=text, reason=None), NOW)
    assert shows_whole(terminal(model, UiState()), text)


# -- 5. errors give the advice that fits --------------------------------------------------


def test_5_a_wrong_director_secret_is_not_called_a_password() -> None:
    args = argparse.Namespace(director="nope", name=None, password=None)
    text = cli.refusal_text(E.WRONG_PASSWORD, "wrong director secret", args)
    assert "director secret" in text.split(".")[0] and "--director" in text
    assert "--password" not in text and "Wrong password" not in text


def test_5_an_unreachable_address_is_not_a_refusal_and_shows_no_table_keys() -> None:
    model = ClientModel()
    model.set_connecting()
    model.set_refused("cannot connect to nosuchhost.invalid:7777: check the address (Name or service not known)")
    screen = terminal(model, UiState())
    assert "Cannot reach the server" in screen and "refused" not in screen
    assert "s sit out" not in screen and "t chat" not in screen
    assert screen.rstrip().split("\n")[-1].strip() == "q quits"
    assert model.connection is ConnectionState.REFUSED


# -- 3. my turn and my clock show over every overlay -------------------------------------


def test_3_my_turn_its_keys_and_its_clock_show_under_every_overlay() -> None:
    for overlay in Overlay:
        model = scenes.preflop()
        model.apply(m.History(hands=()), NOW)
        ui = UiState()
        ui.overlay = overlay
        for width, height in ((80, 24), (100, 30)):
            screen = terminal(model, ui, width, height)
            assert "Your turn" in screen, (overlay, screen)
            assert "c call 300" in screen and "f fold" in screen, (overlay, screen)
            assert re.search(r"Clock .* 0:2\d", screen), (overlay, screen)


def test_3_the_keys_still_act_under_an_overlay() -> None:
    model = scenes.preflop()
    ui = UiState()
    ui.overlay = Overlay.HISTORY
    sent = press(model, "c", actions=FakeActions(ui=ui))
    assert [x for x in sent.sent if isinstance(x, m.Act)] == [m.Act(table=1, hand_no=17, action="call")]


# -- 4. a dead server is said at once and the clocks stop --------------------------------


async def test_4_a_server_that_dies_is_said_at_once_and_the_clocks_stop(
    autojump_clock: trio.testing.MockClock,
) -> None:
    hello = attrs.evolve(HELLO, versions=(1, 2))
    async with fake_server() as (port, peers):
        session = ClientSession("127.0.0.1", port, name="alice", backoff_initial=5.0, backoff_max=5.0)
        ui = UiState()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.run)
            peer = await peers.receive()
            await peer.send(hello)
            await peer.receive()
            peer.version = 2
            await peer.send(attrs.evolve(welcome(), version=2))
            snapshot = attrs.evolve(heads_up_snapshot(), to_act=2)
            await peer.send(snapshot)
            await peer.send(m.Turn(table=1, hand_no=7, seat=2, player_id=3, deadline_ms=46_000, time_bank_ms=60_000))
            with trio.fail_after(5):
                while session.model.table is None or session.model.table.clock is None:
                    await session.wait_changed()
            start = trio.current_time()
            screen = terminal(session.model, ui, now=start)
            assert "bob to act · clock" in screen and "0:46" in screen, screen
            await peer.close()  # what the kernel does for a server killed with kill -9
            with trio.fail_after(2):
                while session.model.connection is ConnectionState.CONNECTED:
                    await session.wait_changed()
            dropped = trio.current_time()
            assert dropped - start < 2
            screen = terminal(session.model, ui, now=dropped)
            assert "connection lost, reconnecting…" in screen, screen
            # Seconds later (the first retry not yet made) the clock still shows what it
            # showed when the connection went, and says it is stopped.
            later = terminal(session.model, ui, now=dropped + 4)
            assert "connection lost, reconnecting…" in later
            assert "0:46" in later and "stopped" in later, later
            nursery.cancel_scope.cancel()


# -- 2. the director's console: the command line, the lobby, the tabs --------------------


def test_2_the_command_line_keeps_what_is_typed_and_a_long_error_wraps_above_it() -> None:
    model = scenes.preflop(role="director", turn=False)
    ui = UiState()
    ui.open_input(InputMode.DIRECTOR, "frobnicate now")
    try:
        parse_command("frobnicate now")
    except DirectorInputError as exc:
        ui.notice = Notice(text=str(exc), tone=Tone.ERROR, until=NOW + 10)
    screen = terminal(model, ui)
    assert screen.rstrip().split("\n")[-1] == "director> frobnicate now"
    assert shows_whole(screen, ui.notice.text if ui.notice else "-"), screen
    assert "reveal, help" in flowing(screen)


def many_players(n: int, role: str = "director") -> ClientModel:
    model = scenes.preflop(role=role, turn=False)
    lobby = model.lobby
    assert lobby is not None
    players = tuple(attrs.evolve(lobby.players[i % 6], player_id=i + 1, name=f"p{i + 1}") for i in range(n))
    model.apply(attrs.evolve(lobby, players=players), NOW)
    return model


def test_2_the_lobby_scrolls_to_its_last_player_at_80x24_and_says_how_to_close_it() -> None:
    model = many_players(30)
    ui = UiState()
    screen = terminal(model, attrs.evolve(ui, overlay=Overlay.LOBBY))
    assert "#30 p30" not in screen and "Up/Down" in screen and "Esc or l closes" in screen
    actions = FakeActions(ui=ui)
    press(model, "l", *["\x1b[B"] * 40, actions=actions)
    assert ui.overlay is Overlay.LOBBY
    screen = terminal(model, ui)
    assert "#30 p30" in screen and "#1 p1 " not in screen, screen
    press(model, *["\x1b[A"] * 40, actions=actions)
    assert "#1 p1 " in terminal(model, ui)


def test_2_the_lobby_heads_its_columns_over_its_columns() -> None:
    model = many_players(6)
    ui = UiState(overlay=Overlay.LOBBY)
    lines = terminal(model, ui).split("\n")
    head = next(line for line in lines if "chips" in line and "name" in line)
    row = next(line for line in lines if "#2 p2" in line)
    assert head.index("name") == row.index("p2")
    assert head.index("chips") + len("chips") == row.index("10,000") + len("10,000")
    assert head.index("seat") == row.index("T1/1")


def test_2_the_panel_tabs_are_whole_words_at_80x24() -> None:
    model = scenes.preflop(role="director", turn=False)
    for ascii in (False, True):
        ui = UiState(ascii=ascii)
        top = terminal(model, ui).split("\n")[2]
        tabs = top.split("|" if ascii else "│", 1)[1]
        assert "Calls 0" in tabs and "Log" in tabs and "Chat" in tabs, tabs
        assert not re.search(r"\b(Lo|Ch|St|Ca0)\b", tabs), tabs


# -- 6. smaller ---------------------------------------------------------------------------


def test_6_the_active_tab_is_marked_in_ascii_mode() -> None:
    model = scenes.preflop(turn=False)
    ui = UiState(ascii=True, panel=Panel.CHAT)
    top = terminal(model, ui).split("\n")[2]
    assert "[Chat]" in top and "[Log]" not in top


def test_6_after_a_fold_my_cards_are_not_named_as_a_hand_still_played() -> None:
    model = scenes.flop_check()
    assert "Pair of kings" in terminal(model, UiState())
    model.apply(m.Action(table=1, hand_no=18, seat=0, action="fold", amount=0, to=0, all_in=False,
                         automatic=False), NOW)
    screen = terminal(model, UiState())
    assert "Pair of kings" not in screen and "Folded" in screen


def test_6_k_on_my_own_turn_says_what_to_press_instead() -> None:
    sent = press(scenes.flop_check(), "k")
    assert sent.sent == []
    assert sent.ui.notice is not None and "your turn now" in sent.ui.notice.text
    assert "c checks" in sent.ui.notice.text


def test_6_a_queued_check_fold_says_it_fired_instead_of_still_saying_queued() -> None:
    model = scenes.preflop(turn=False)
    actions = FakeActions()
    press(model, "k", actions=actions)
    assert actions.ui.pre_action == "check_fold"
    assert actions.ui.notice is not None and actions.ui.notice.text == "check/fold queued for your turn"
    turn = scenes.your_turn(scenes.FACING_RAISE)
    model.apply(turn, NOW + 1)
    note_server_message(model, actions, turn, NOW + 1)
    assert [x for x in actions.sent if isinstance(x, m.Act)] == [m.Act(table=1, hand_no=17, action="fold")]
    assert actions.ui.notice is not None and actions.ui.notice.text == "your queued check/fold folded"
    assert "queued for your turn" not in terminal(model, actions.ui)


def test_6_a_check_fold_notice_goes_with_the_hand_it_was_queued_for() -> None:
    model = scenes.preflop(turn=False)
    actions = FakeActions()
    press(model, "k", actions=actions)
    ended = m.HandEnded(table=1, hand_no=17, stacks=(), carried_out=0)
    model.apply(ended, NOW + 1)
    note_server_message(model, actions, ended, NOW + 1)
    assert actions.ui.notice is None and actions.ui.pre_action is None


def test_6_a_busted_players_seat_and_shown_cards_stay_until_the_next_hand() -> None:
    model = scenes.showdown()
    model.apply(m.PlayerStatus(player_id=1, name="alice", table=1, seat=0, status="eliminated"), NOW)
    screen = terminal(model, UiState(), 100, 30)
    assert "alice" in screen.split("\n", 2)[2] and "busted" in screen
    assert "A♠ K♥" in screen  # what she showed is still on her seat
    assert "You are out of the tournament" in screen
    model.apply(m.HandStarted(table=1, hand_no=31, button=1, small_blind_seat=1, big_blind_seat=1,
                              small_blind=50, big_blind=100, carried_in=0,
                              stacks=(m.SeatStack(seat=1, stack=12_000),)), NOW)
    assert model.table is not None and 0 not in model.table.seats


def test_6_a_break_shows_in_the_middle_of_the_table() -> None:
    model = scenes.preflop(turn=False)
    assert model.lobby is not None
    model.apply(attrs.evolve(model.lobby, state="paused", break_after_level=1, break_seconds_left=115), NOW)
    model.apply(m.HandEnded(table=1, hand_no=17, stacks=(), carried_out=0), NOW)
    assert "Break: Level 2 starts in 1:55" in terminal(model, UiState(), 120, 40, now=NOW)
    # At 80 columns the felt is narrow: the line wraps between words, on the felt.
    lines = terminal(model, UiState(), now=NOW).split("\n")
    at = next(i for i, line in enumerate(lines) if "Break: Level 2 starts" in line)
    assert "in 1:55" in lines[at + 1] and lines[at + 1].index("in 1:55") < lines[at].index("│")


def test_6_the_quit_prompt_says_what_happens_to_the_seat_and_the_hand() -> None:
    sent = press(scenes.preflop(), "q")
    assert sent.ui.confirm is not None
    summary = sent.ui.confirm.summary
    assert summary == ("You are in a hand: it plays on without you (the server checks, or folds, when your "
                       "clock runs out) and your seat is kept; start hickory again to come back. Quit now")
    assert shows_whole(terminal(scenes.preflop(), sent.ui), f"{summary}? y yes, n no")


def rules(**kw: object) -> m.Rules:
    values: dict[str, object] = dict(
        rules_version=1, ruleset="hickory", seats_per_table=6, level_unit="minutes", level_length=20,
        action_seconds=30, time_bank_seconds=60, reconnect_grace_seconds=60, deadline=None,
        odd_chip="to the first seat left of the button", breaks=(), changes=(),
    )
    values.update(kw)
    return m.Rules(**values)  # type: ignore[arg-type]


def test_6_the_rules_view_shows_the_blind_schedule_with_the_level_in_play() -> None:
    model = scenes.preflop(turn=False)
    assert model.lobby is not None
    schedule = tuple(m.ScheduleLevel(small_blind=25 * 2**i, big_blind=50 * 2**i, minutes=20) for i in range(8))
    model.apply(attrs.evolve(model.lobby, rules=rules(), schedule=schedule), NOW)
    screen = flowing(terminal(model, UiState(overlay=Overlay.RULES)))
    assert "Blinds" in screen
    assert "1: 25/50 20 min" in screen and "3: 100/200 20 min (now)" in screen
    assert "8: 3,200/6,400 20 min" in screen


def test_6_chat_shows_no_bidi_controls_or_zero_width_characters() -> None:
    model = scenes.preflop(turn=False)
    sneaky = "gg \u202eevil\u202c wp\u200b\u2066x\u2069 \u200dend\x1b[2J"
    model.apply(m.ChatMessage(scope="table", table=1, player_id=2, name="bob", role="player", text=sneaky), NOW)
    ui = UiState(panel=Panel.CHAT)
    screen = terminal(model, ui, 100, 30)
    assert "bob: gg evil wpx end [2J" in screen
    for bad in ("\u202e", "\u202c", "\u200b", "\u2066", "\u2069", "\u200d", "\x1b"):
        assert bad not in screen


def test_1_the_rules_view_wraps_a_long_change_and_its_reason_instead_of_cutting_them() -> None:
    model = scenes.preflop(turn=False)
    assert model.lobby is not None
    what = "starting stack 10,000 chips for every late entry from the next level on, as announced"
    why = "the late arrivals asked for the same stack as everyone who came on time, and it is fair"
    change = m.RuleChange(rules_version=2, at="2026-11-30T21:00:00Z", what=what, reason=why)
    model.apply(attrs.evolve(model.lobby, rules=rules(rules_version=2, changes=(change,))), NOW)
    screen = terminal(model, UiState(overlay=Overlay.RULES))
    assert shows_whole(screen, what) and shows_whole(screen, f"reason: {why}"), screen


def test_4_a_server_gone_silent_is_said_within_2_s_and_its_clocks_stop() -> None:
    # A stopped server (or a network gone quiet) closes nothing: the terminal client pings
    # every second, so two seconds without a line is a silent server.
    model = scenes.preflop(turn=False)
    t = model.table
    assert t is not None
    model.apply(m.Turn(table=1, hand_no=17, seat=3, player_id=4, deadline_ms=46_000, time_bank_ms=60_000), NOW)
    ui = UiState(last_heard=NOW)
    assert "not answering" not in terminal(model, ui, now=NOW + 1.5)
    silent = terminal(model, ui, now=NOW + 2.5)
    assert "the server is not answering…" in silent and "stopped: no answer" in silent, silent
    assert "0:44" in silent  # stopped two seconds after the last line
    assert "0:44" in terminal(model, ui, now=NOW + 8)
    ui.last_heard = NOW + 8.2  # it speaks again: the clocks run on
    again = terminal(model, ui, now=NOW + 8.5)
    assert "not answering" not in again and "0:38" in again, again
    # Given up after a silence, the clocks stay where the silence stopped them.
    model.set_reconnecting("nothing heard from the server for 10 s")
    ui.last_heard = NOW
    down = terminal(model, ui, now=NOW + 10)
    assert "connection lost, reconnecting…" in down and "0:44" in down, down


def test_4_the_terminal_client_pings_every_second_and_gives_up_after_ten_silent_seconds() -> None:
    assert cli.LIVENESS_PING_SECONDS <= 1.0 and cli.LIVENESS_IDLE_SECONDS <= 10.0
    source = inspect.getsource(cli.Client._sessions)
    assert "ping_interval=LIVENESS_PING_SECONDS" in source and "idle_timeout=LIVENESS_IDLE_SECONDS" in source


def test_3_the_bell_rings_once_for_a_turn_not_again_when_the_server_sends_it_again() -> None:
    model = scenes.preflop()
    ui = UiState()
    turn = scenes.your_turn(scenes.FACING_RAISE)
    assert turn_bell(model, ui, turn)
    model.apply(turn, NOW + 1)  # the same turn again (after a lost line)
    assert not turn_bell(model, ui, turn)
    assert not turn_bell(model, ui, m.Turn(table=1, hand_no=17, seat=0, player_id=1, deadline_ms=0,
                                           time_bank_ms=60_000))
    model.apply(m.Action(table=1, hand_no=17, seat=0, action="call", amount=300, to=300, all_in=False,
                         automatic=False), NOW + 2)
    model.apply(m.Board(table=1, hand_no=17, street="flop", cards=("2c", "7d", "9h"), board=("2c", "7d", "9h")), NOW + 3)
    assert turn_bell(model, ui, scenes.your_turn(scenes.CHECK_OR_BET))  # the next decision rings
