"""The director's console does the director's whole night: every command typed as the
help shows it is one the server takes (real server, real TCP, a version 2 director), floor
calls wait in the console's list until a ruling answers them, and the help fits 80x24.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import trio

import protocol.messages as m
from client.model import ClientModel
from client.tui.director import COMMAND_HELP, DirectorInputError, parse_command
from client.tui.help import help_rows
from client.tui.render import render_screen
from client.tui.side_panel import panels_for, render_side_panel
from client.tui.state import Overlay, Panel, UiState
from tests.client import scenes
from tests.server.director import Director
from tests.server.harness import BotResult, check_call, config, joined, play, running


async def _sent(d: Director, line: str, lobby: m.Lobby) -> m.Ack | m.Error:
    command, _ = parse_command(line, lobby)
    return await d.command(command)


async def test_every_console_command_reaches_the_server_as_the_director_meant_it(autojump_clock: object) -> None:
    cfg = config(seats=6, starting_stack=10_000, schedule=((100, 200), (200, 400), (300, 600)),
                 hands_per_level=50, action_clock=30.0, time_bank=10.0)
    with trio.fail_after(600):
        async with running(cfg) as (server, port):
            players = await joined(port, [f"p{i}" for i in range(4)], version=2)
            async with trio.open_nursery() as n:
                d = await Director.login(port, n, version=2)
                await d.ok(m.StartCommand(reason="everyone is here"))
                for i, c in enumerate(players):
                    n.start_soon(play, c, BotResult(name=c.name or ""), check_call, i)
                await d.paused_and_idle([t.table for t in (await d.lobby()).tables])
                lobby = await d.lobby()
                t = server.tournament

                for line in ("pause table=1 a spill at table one", "resume table=1 dry again",
                             "options action=20 ruleset=standard hands=7 quicker", "late 3 friends on their way",
                             "break 2 10 pizza", "award p1 best bluff", "rule table=1 the button stays",
                             "rule all no phones at the table"):
                    reply = await _sent(d, line, lobby)
                    assert isinstance(reply, m.Ack), (line, reply)
                assert t.settings.ruleset.value == "standard" and t.settings.hands_per_level == 7
                assert t.late_until == 3
                assert [(tr.title, tr.player_id) for tr in t.floor.awarded] == [("best bluff", str(players[1].player_id))]
                assert isinstance(await _sent(d, "late off enough", lobby), m.Ack) and t.late_until is None

                # A floor call shows in the console's list and a ruling on it closes it.
                model = ClientModel()
                model.me.role = "director"
                await players[2].send(m.CallDirector(message="he acted out of turn"))
                called = await d.c.next(m.DirectorCalled)
                model.apply(called)
                assert called.call_id is not None and called.call_id in model.open_calls
                reply = await _sent(d, f"rule {called.call_id} the action stands", lobby)
                assert isinstance(reply, m.Ack), reply
                ruling = await players[2].next(m.Ruling, lambda r: r.call_id is not None)
                assert (ruling.call_id, ruling.decision) == (called.call_id, "the action stands")
                model.apply(await d.c.next(m.Ruling, lambda r: r.call_id is not None))
                assert model.open_calls == {} and model.log[-1].startswith(f"director rules on call {called.call_id}")

                # What the server refuses comes back with the reason, as for any command.
                refused = await _sent(d, "void 1 two cards exposed", lobby)
                assert isinstance(refused, m.Error) and "table 1" in refused.message, refused
                refused = await _sent(d, "reveal", lobby)
                assert isinstance(refused, m.Error) and "over" in refused.message, refused
                n.cancel_scope.cancel()


def test_the_console_turns_each_new_command_into_its_protocol_command() -> None:
    assert parse_command("void 2 exposed card")[0] == m.VoidHandCommand(table=2, reason="exposed card")
    assert parse_command("pause table=3 spill")[0] == m.PauseCommand(table=3, reason="spill")
    assert parse_command("pause dinner for 5 minutes")[0] == m.PauseCommand(reason="dinner for 5 minutes")
    assert parse_command("late off closed")[0] == m.LateRegistrationCommand(until_level=None, reason="closed")
    assert parse_command("rule #4 misdeal")[0].call_id == 4  # type: ignore[union-attr]
    assert parse_command("options minutes=15 slower")[0] == m.SetOptionsCommand(level_minutes=15, reason="slower")
    for bad, why in (("rule", "usage"), ("rule x no", "call's number"), ("void", "usage"), ("late 0 x", "from 1"),
                     ("options ruleset=tda x", "ruleset=hickory"), ("options minutes=5 hands=3 x", "not both"),
                     ("award", "usage")):
        with pytest.raises(DirectorInputError, match=why):
            parse_command(bad)


def _screen(model: ClientModel, ui: UiState, width: int = 80, height: int = 23) -> str:
    return "\n".join("".join(t for _, t in line) for line in render_screen(model, ui, width, height, scenes.NOW))


def _roles() -> Iterator[tuple[str, ClientModel]]:
    for role in ("player", "spectator", "director"):
        model = scenes.preflop()
        model.me.role = role  # type: ignore[assignment]
        yield role, model


@pytest.mark.parametrize("topic", [None, *COMMAND_HELP])
def test_the_help_fits_80x24_whole_for_every_role(topic: str | None) -> None:
    for role, model in _roles():
        ui = UiState()
        ui.overlay = Overlay.HELP
        ui.help_topic = topic
        words = re.sub(r"\s+", " ", _screen(model, ui))
        for key, text in help_rows(model, ui):
            flowing = re.sub(r"\s+", " ", text)
            pattern = r"\s*".join(re.escape(w) for w in flowing.split(" "))
            assert re.search(pattern, words), (role, topic, key, text)


def test_the_director_has_a_calls_tab_and_players_do_not() -> None:
    role_panels = {role: panels_for(model) for role, model in _roles()}
    assert Panel.CALLS in role_panels["director"]
    assert Panel.CALLS not in role_panels["player"] and Panel.CALLS not in role_panels["spectator"]
    model = dict(_roles())["director"]
    model.apply(m.DirectorCalled(player_id=3, name="carol", table=2, seat=5, message="misdeal?", call_id=7, hand_no=41))
    ui = UiState()
    ui.panel = Panel.CALLS
    text = "\n".join("".join(t for _, t in line) for line in render_side_panel(model, ui, 40, 10))
    assert "Calls 1" in text and "#7 carol" in text and "hand #41" in text and "misdeal?" in text
    model.apply(m.Ruling(call_id=7, table=2, decision="redeal"))
    text = "\n".join("".join(t for _, t in line) for line in render_side_panel(model, ui, 40, 10))
    assert "Calls 0" in text and "#7" not in text
