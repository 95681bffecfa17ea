"""The help overlay (?): a player's keys, a spectator's, or a director's commands."""

from __future__ import annotations

import textwrap

from client.model import ClientModel
from client.tui.canvas import Canvas, Lines
from client.tui.state import UiState

HELP = [
    ("When it is your turn", ""),
    ("f", "fold (only when there is a bet to fold to)"),
    ("c", "check, or call the amount shown"),
    ("r", "bet or raise: type the total to raise to, Enter sends"),
    ("1 2 3 4", "raise box at min / half pot / pot / all in (pot after calling)"),
    ("  in box", "Tab cycles the quick sizes; Esc cancels"),
    ("m", "all in (asks first unless it is your only way on)"),
    ("  before it", "k check/fold, K call any: queued; dropped if the bet changes"),
    ("Any time", ""),
    ("s", "sit out (at once) / I'm back (from the next hand)"),
    ("t", "chat; /lobby TEXT for all, /director TEXT calls the director"),
    ("h", "my last hands (Left/Right to browse; Enter replays one street by street)"),
    ("i", "statistics of the players at this table (VPIP, PFR, 3-bet...)"),
    ("Tab", "side panel: log, chat, standings"),
    ("l", "lobby: every player and table"),
    ("u", "rules in force: clocks, levels, breaks, the director's changes"),
    ("[  ]", "watch the previous / next table"),
    ("?", "this help; Esc closes"),
    ("q  Ctrl-C", "quit; your seat is kept (q asks during a hand)"),
]


def help_rows(model: ClientModel, ui: UiState) -> list[tuple[str, str]]:
    """The help overlay's rows for this role: a player's keys, or a director's commands."""
    if model.me.role == "director":
        from client.tui.director import COMMAND_HELP, COMMAND_MEANING

        topic = ui.help_topic
        if topic in COMMAND_HELP:
            return [
                (f"Director command {topic}", ""),
                ("usage", COMMAND_HELP[topic]),
                ("what", COMMAND_MEANING[topic]),
                ("", ""),
                ("REASON", "every command ends with one: it is announced and logged"),
                ("PLAYER", "by name, or #id for a name with a space (l shows ids)"),
            ]
        rows = [("Director commands", "type : then one; Tab completes; help COMMAND explains one")]
        rows += [(op, COMMAND_HELP[op]) for op in COMMAND_HELP]
        rows.append(("Keys", "[ ] tables · t chat · l lobby · u rules · Tab panel · q quit"))
        return rows
    rows = list(HELP)
    if model.me.role == "spectator":
        rows = [r for r in rows if r[0] not in ("f", "c", "r", "1 2 3 4", "  in box", "m", "  before it", "s")]
        rows = [r for r in rows if r[0] != "When it is your turn"]
    else:
        rows = [r for r in rows if r[0] != "[  ]"]  # players stay at their own table
    if ui.practice:
        rows = [(k, "quit: this ends the practice tournament (asks first)") if k == "q  Ctrl-C" else (k, t)
                for k, t in rows]
    return rows


def render_help(model: ClientModel, ui: UiState, width: int, height: int) -> Lines:
    """The rows, a text too long for the width wrapped under itself (never cut)."""
    c = Canvas(width, height)
    left = max(1, (width - 78) // 2)
    lines: list[tuple[str, int, str, str]] = []  # (key, column of the text, text, key style)
    for k, text in help_rows(model, ui):
        if not text or k in ("Director commands", "Keys") or k.startswith("Director command "):
            at = left + len(k) + 2
        else:
            at = left + 14
        chunks = textwrap.wrap(text, max(10, width - at - 1), break_on_hyphens=False) or [""]
        lines += [(k if i == 0 else "", at, chunk, "class:help.section bold" if at != left + 14 else "class:key")
                  for i, chunk in enumerate(chunks)]
    # The title gives its line to the rows when they need it (the header says "? help").
    top = 1 if len(lines) <= height - 2 else 0
    if top:
        c.center(0, [("class:title bold", "Help")])
    for i, (k, at, text, style) in enumerate(lines[: height - 1 - top]):
        if style == "class:key":
            c.text(top + i, left + 2, f"{k:<11}", style)
        else:
            c.text(top + i, left, k, style)
        c.text(top + i, at, text, "class:help", width - at - 1)
    c.center(height - 1, [("class:dim", "Esc or ? closes")])
    return c.lines()
