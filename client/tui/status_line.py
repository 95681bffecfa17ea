"""The bottom line, drawn by the layout: a confirmation, a notice, the latest announcement
or the key hints; and, while a text box is open, its prompt and the notice beside it."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.model import ClientModel, ConnectionState
from client.model.log import chips
from client.tui.state import InputMode, Tone, UiState

HINTS_PLAYER = "s sit out · t chat · h history · Tab panel · ? help · q quit"
HINTS_SPECTATOR = "[ ] table · t chat · l lobby · Tab panel · ? help · q quit"
HINTS_DIRECTOR = ": command · [ ] table · t chat · l lobby · Tab panel · ? help · q quit"


def render_status(model: ClientModel, ui: UiState, width: int, now: float) -> StyleAndTextTuples:
    """The last line: a pending confirmation, a notice, the latest announcement, or key hints."""
    if ui.pending is not None:
        text = f"{ui.pending.summary}? y sends, n cancels"
        return [("class:confirm bold", text[:width])]
    if ui.confirm is not None:
        text = f"{ui.confirm.summary}? y yes, n no"
        return [("class:confirm bold", text[:width])]
    notice = ui.notice
    if notice is not None and (notice.until is None or now < notice.until):
        style = "class:error bold" if notice.tone is Tone.ERROR else "class:notice"
        return [(style, notice.text[:width])]
    if model.connection is ConnectionState.CONNECTED and model.announcements and model.table is None:
        return [("class:announcement", model.announcements[-1][:width])]
    role = model.me.role
    hints = HINTS_DIRECTOR if role == "director" else HINTS_SPECTATOR if role == "spectator" else HINTS_PLAYER
    me = model.my_seat
    if me is not None and me.sitting_out:
        hints = hints.replace("s sit out", "s I'm back")
    return [("class:hints", hints[:width])]


def typing_notice(ui: UiState, now: float) -> StyleAndTextTuples:
    """The notice shown beside the text box (what was wrong with what was typed)."""
    notice = ui.notice
    if notice is None or (notice.until is not None and now >= notice.until):
        return []
    style = "class:error bold" if notice.tone is Tone.ERROR else "class:notice"
    return [(style, " " + notice.text + " ")]


def input_prompt(ui: UiState, model: ClientModel) -> str:
    if ui.input_mode is InputMode.RAISE:
        turn = model.turn
        if turn is not None:
            legal = turn.legal
            word = "Bet" if legal.is_bet else "Raise to"
            size = f" [{ui.quick_label}]" if ui.quick_label else ""
            return f"{word} ({chips(legal.min_raise_to or 0)}-{chips(legal.max_raise_to or 0)}){size}: "
        return "Raise to: "
    if ui.input_mode is InputMode.CHAT:
        return "Say: "
    return "director> "
