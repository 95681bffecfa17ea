"""The director's commands: each turned into a logged payload, applied, stored, announced.

``apply_director`` (``server.tournament.inputs``, pure) is the one path from a payload to
the tournament, for a live command and for its replay after a restart (``recovery.py``),
so both always agree; it refuses a bad payload or argument before anything changes, so
nothing refused is ever logged.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import protocol.errors as E
import protocol.messages as m
from protocol.errors import ProtocolError
from server.clients import Client
from server.coordinator import start_tournament
from server.dealing import send_reveal
from server.fanout import announce_all
from server.house import House, TableVoid
from server.news import tournament_events
from server.tables import wake_idle_tables
from server.tournament.inputs import apply_director
from server.tournament.tournament import Phase


async def director_command(h: House, client: Client, msg: m.DirectorCommand) -> None:
    if client.role != "director":
        raise ProtocolError(E.UNAUTHORIZED, "director commands need the director's secret")
    await run_command(h, msg.command)
    if msg.id is not None:
        client.send_nowait(m.Ack(id=msg.id))


def _player(h: House, player_id: int) -> str:
    if str(player_id) not in h.players:
        raise ProtocolError(E.NOT_FOUND, f"there is no player {player_id}")
    return str(player_id)


def _deadline(h: House, cmd: m.SetDeadlineCommand) -> dict[str, Any]:
    wall = _deadline_wall(cmd)
    return {"deadline": None if wall is None else h.now() + (wall - h.wall_clock()).total_seconds()}


def _deadline_wall(cmd: m.SetDeadlineCommand) -> dt.datetime | None:
    try:
        return None if cmd.deadline is None else dt.datetime.fromisoformat(cmd.deadline.replace("Z", "+00:00"))
    except ValueError as exc:  # 2026-02-30 passes the pattern but is no date
        raise ProtocolError(E.INVALID_FIELD, f"the deadline {cmd.deadline} is not a real time ({exc})",
                            "director_command.command.deadline") from None


def _options(h: House, cmd: m.SetOptionsCommand) -> dict[str, Any]:
    opts: dict[str, Any] = {
        "action_clock": cmd.action_seconds, "time_bank": cmd.time_bank_seconds,
        "reconnect_grace": cmd.reconnect_grace_seconds, "level_minutes": cmd.level_minutes,
        "hands_per_level": cmd.hands_per_level, "ruleset": cmd.ruleset,
        "big_blind_ante": cmd.big_blind_ante,
        "max_entries": cmd.max_entries, "reentry_until": cmd.reentry_until_level,
        "tv_table": cmd.tv_table, "tv_delay": cmd.tv_delay_seconds,
    }
    return {"options": {k: v for k, v in opts.items() if v is not None}}


# A command's arguments as its logged payload (``op``, ``now``, ``reason`` and ``wall`` are
# added to each); the operation it names is applied by ``inputs.OPS``, the one table of
# director operations (a test checks every command's type is in both).
PAYLOADS: dict[type[m.Command], Callable[[House, Any], dict[str, Any]]] = {
    m.StartCommand: lambda h, c: {},
    m.PauseCommand: lambda h, c: {} if c.table is None else {"table": c.table},
    m.ResumeCommand: lambda h, c: {} if c.table is None else {"table": c.table},
    m.SetLevelCommand: lambda h, c: {"level": c.index + 1},
    # A level with an ante is logged as three numbers (issue 27), one without as two.
    m.SetScheduleCommand: lambda h, c: {"schedule": [[lv.small_blind, lv.big_blind, *([lv.ante] if lv.ante else [])]
                                                     for lv in c.levels]},
    m.SetOptionsCommand: _options,
    m.SetDeadlineCommand: _deadline,
    m.MovePlayerCommand: lambda h, c: {"player_id": _player(h, c.player_id), "table": c.table, "seat": c.seat},
    m.RemovePlayerCommand: lambda h, c: {"player_id": _player(h, c.player_id)},
    # The stack to set, worked out when it applies.
    m.AdjustChipsCommand: lambda h, c: {"player_id": _player(h, c.player_id), "chips": c.chips},
    m.AnnounceCommand: lambda h, c: {"text": c.text},
    m.SetBreakCommand: lambda h, c: {"after_level": c.after_level, "minutes": c.minutes},
    m.LateRegistrationCommand: lambda h, c: {"until_level": c.until_level},
    m.RuleCommand: lambda h, c: {"call_id": c.call_id, "table": c.table, "decision": c.decision},
    m.AwardCommand: lambda h, c: {"title": c.title, "player_id": _player(h, c.player_id)},
    m.VoidHandCommand: lambda h, c: {"table": c.table},
}


async def run_command(h: House, cmd: m.Command) -> None:
    t = h.tournament
    if isinstance(cmd, m.StartCommand) and t.phase is Phase.REGISTERING:
        await start_tournament(h)
        return
    if isinstance(cmd, m.RevealCommand):
        if not t.finished:
            raise ProtocolError(E.INVALID_STATE, "the server seeds are revealed only once the tournament is "
                                "over: during play a seed would show folded hands and the undealt board")
        send_reveal(h, h.clients)
        return
    payload: dict[str, Any] = {"op": type(cmd).TYPE, "now": h.now(), "reason": cmd.reason,
                               "wall": h.wall_clock().isoformat(timespec="seconds"),  # for people
                               **PAYLOADS[type(cmd)](h, cmd)}
    if isinstance(cmd, m.VoidHandCommand):
        await _void_hand(h, cmd, payload)
        return
    if isinstance(cmd, m.SetOptionsCommand) and cmd.chat is not None and not payload["options"]:
        await _set_chat(h, cmd.chat, cmd.reason)
        return
    events = apply_director(t, payload)
    h.note_rule_times(payload["wall"])
    records = h.journal.input("director", payload) + h.journal.audit(events)
    if isinstance(cmd, m.SetDeadlineCommand):  # accepted: now the lobby shows it
        h.deadline_wall = _deadline_wall(cmd)
        records += h.journal.meta("deadline_wall", "" if h.deadline_wall is None else h.deadline_wall.isoformat())
    await h.journal.commit(records)
    tournament_events(h, events)
    wake_idle_tables(h)
    if isinstance(cmd, m.SetOptionsCommand) and cmd.chat is not None:  # the options were accepted
        await _set_chat(h, cmd.chat, cmd.reason)


async def _set_chat(h: House, on: bool, reason: str) -> None:
    """Player chat on or off: not a tournament rule (the log replays without it), a
    setting kept beside the log so a restart keeps it."""
    await h.journal.commit(h.journal.meta("chat", "on" if on else "off"))
    h.chat_enabled = on
    announce_all(h, f"Player chat is {'on' if on else 'off'}.", by="director", reason=reason)


async def _void_hand(h: House, cmd: m.VoidHandCommand, payload: dict[str, Any]) -> None:
    """The table's own task calls the hand off (it alone changes a hand in progress)."""
    table = h.tournament.table(cmd.table)
    runner = h.runners.get(cmd.table)
    if runner is None or table.hand is None or table.hand.is_over:
        raise ProtocolError(E.INVALID_STATE, f"table {cmd.table} has no hand in progress to void")
    if not runner.post_nowait(TableVoid(payload=payload)):
        raise ProtocolError(E.RATE_LIMITED, f"table {cmd.table} is busy; try again")
