"""The side panel beside the table: the hand log, chat, or the standings (Tab switches)."""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.model import ClientModel
from client.model.log import call_line
from client.tui.canvas import Canvas, Lines, fragments_width
from client.tui.standings import standings_lines
from client.tui.state import Panel, UiState


def wrap_tail(lines: Sequence[str], width: int, height: int, indent: str = "  ") -> list[str]:
    """The last ``height`` screen lines of ``lines`` wrapped to ``width`` (newest at the bottom)."""
    out: list[str] = []
    for line in reversed(lines):
        wrapped = textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [""]
        out[:0] = wrapped
        if len(out) >= height:
            break
    return out[-height:] if height > 0 else []


def render_side_panel(model: ClientModel, ui: UiState, width: int, height: int) -> Lines:
    c = Canvas(width, height)
    inner = width - 1
    c.write(0, 0, tab_row(model, ui, width))
    body_h = height - 1
    if ui.panel is Panel.LOG:
        chat_h = min(6, body_h // 3) if model.chat else 0
        log_h = body_h - chat_h
        for i, line in enumerate(wrap_tail(list(model.log), inner, log_h)):
            c.text(1 + i, 1, line, log_style(line), inner)
        if chat_h:
            c.text(1 + log_h, 0, "-" * width, "class:frame")
            for i, (style, line) in enumerate(wrap_tail_styled(chat_lines(model), inner, chat_h - 1)):
                c.text(2 + log_h + i, 1, line, style, inner)
    elif ui.panel is Panel.CALLS:
        calls = [call_line(c) for c in model.open_calls.values()] or [
            "(no open calls: a player's call to the floor shows here; rule CALL DECISION answers it)"]
        for i, line in enumerate(wrap_tail(calls, inner, body_h)):
            c.text(1 + i, 1, line, "class:log", inner)
    elif ui.panel is Panel.CHAT:
        said = chat_lines(model) or [("class:chat", "(no chat yet: press t to talk)")]
        for i, (style, text) in enumerate(wrap_tail_styled(said, inner, body_h)):
            c.text(1 + i, 1, text, style, inner)
    else:
        for i, frags in enumerate(standings_lines(model, inner)[:body_h]):
            c.write(1 + i, 1, frags, inner)
    return c.lines()


def panels_for(model: ClientModel) -> list[Panel]:
    """The side panel's tabs, in Tab order: the director also has the open floor calls."""
    return [p for p in Panel if p is not Panel.CALLS or model.me.role == "director"]


STANDINGS_WORDS = ("Standings", "Places", "Ranks")
"""The standings tab's name, the shorter ones for a narrow panel."""


def tab_row(model: ClientModel, ui: UiState, width: int) -> StyleAndTextTuples:
    """The tabs, the active one in reverse (and in brackets in ASCII mode, where a
    terminal may show no reverse video), every label a whole word that fits ``width``.

    Tried in turn: each label padded with a space either side; then one space between
    labels; then a shorter word for the standings. The open calls' count always shows: a
    director must see a call waiting."""
    calls = len(model.open_calls)
    panels = panels_for(model)
    row: StyleAndTextTuples = []
    for word in STANDINGS_WORDS:
        labels = {Panel.LOG: "Log", Panel.CHAT: "Chat", Panel.STANDINGS: word, Panel.CALLS: f"Calls {calls}"}
        for padded in (True, False):
            row = []
            for i, p in enumerate(panels):
                active = p is ui.panel
                label = f"[{labels[p]}]" if active and ui.ascii else labels[p]
                if padded and not (active and ui.ascii):
                    label = f" {label} "
                elif not padded and i:
                    row.append(("class:tab", " "))
                row.append(("class:tab.active" if active else "class:tab", label))
            if fragments_width(row) <= width:
                return row
    return row


def log_style(line: str) -> str:
    if line.startswith("--"):
        return "class:log.hand"
    if line.startswith(("director:", "server:")):
        return "class:announcement"
    if " wins " in line:
        return "class:log.win"
    return "class:log"


def shown_text(text: str) -> str:
    """Chat text safe to draw: bidi controls and zero-width characters (Unicode format
    characters) are dropped, so a message cannot reorder or hide what the screen shows
    around it; other control characters and line breaks become spaces. Names already
    refuse all of these (the server's name rules)."""
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cf":
            continue
        out.append(" " if cat in ("Cc", "Zl", "Zp") else ch)
    return "".join(out)


def chat_lines(model: ClientModel) -> list[tuple[str, str]]:
    """The chat as (style, text) lines. Who spoke is shown from the message's ``role``,
    never from a name: the director's lines start ``[DIRECTOR]`` in their own style, a
    spectator's ``[spectator]``; a player's start with their name, and no name may hold
    a bracket (the server's name rules), so no player can write a line that looks like
    the director's."""
    out = []
    for ch in model.chat:
        where = "" if ch.scope == "table" else "[lobby] "
        text = shown_text(ch.text)
        if ch.role == "director":
            out.append(("class:chat.director", f"{where}[DIRECTOR] {text}"))
        elif ch.role == "spectator":
            out.append(("class:chat", f"{where}[spectator] {text}"))
        else:
            out.append(("class:chat", f"{where}{shown_text(ch.name)}: {text}"))
    return out


def wrap_tail_styled(lines: Sequence[tuple[str, str]], width: int, height: int) -> list[tuple[str, str]]:
    """``wrap_tail`` for (style, text) lines: each screen line keeps its line's style."""
    out: list[tuple[str, str]] = []
    for style, line in reversed(lines):
        wrapped = textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False) or [""]
        out[:0] = [(style, piece) for piece in wrapped]
        if len(out) >= height:
            break
    return out[-height:] if height > 0 else []
