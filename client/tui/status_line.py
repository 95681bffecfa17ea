"""The lines under the screen, drawn by the layout: a confirmation, a notice, the latest
announcement or the key hints; and, while a text box is open, its prompt and the notice
above it.

Nothing here is cut to one line: a message wraps onto as many lines as it needs (up to
what the screen can spare, ``max_lines``), and a confirmation always ends with the keys
that answer it (``client.tui.wrapping``).
"""

from __future__ import annotations

from client.model import ClientModel, ConnectionState
from client.model.log import chips
from client.tui.canvas import Lines
from client.tui.state import InputMode, Tone, UiState
from client.tui.wrapping import fit_lines

HINTS_PLAYER = "s sit out · t chat · h history · Tab panel · ? help · q quit"
HINTS_SPECTATOR = "[ ] table · t chat · l lobby · Tab panel · ? help · q quit"
HINTS_DIRECTOR = ": command · [ ] table · t chat · l lobby · Tab panel · ? help · q quit"
HINTS_DOWN = "q quits"
"""While there is no session (connecting the first time, refused, closed) only q works."""

CONFIRM_KEYS = "y sends, n cancels"
STEP_KEYS = "y yes, n no"


def render_status(model: ClientModel, ui: UiState, width: int, now: float, max_lines: int = 3) -> Lines:
    """The lines under the screen (at least one): a pending confirmation, a notice, the
    latest announcement, or the key hints, wrapped to ``width``."""
    if ui.pending is not None:
        return _styled("class:confirm bold", fit_lines(f"{ui.pending.summary}?", width, max_lines,
                                                     CONFIRM_KEYS, ui.ascii))
    if ui.confirm is not None:
        return _styled("class:confirm bold", fit_lines(f"{ui.confirm.summary}?", width, max_lines,
                                                     STEP_KEYS, ui.ascii))
    notice = ui.notice
    over = model.connection is ConnectionState.REFUSED  # its reason is on the screen
    if notice is not None and (notice.until is None or now < notice.until) and not over:
        style = "class:error bold" if notice.tone is Tone.ERROR else "class:notice"
        return _styled(style, fit_lines(notice.text, width, max_lines, ascii=ui.ascii))
    if model.connection is ConnectionState.CONNECTED and model.announcements and model.table is None:
        return _styled("class:announcement", fit_lines(model.announcements[-1], width, max_lines, ascii=ui.ascii))
    return _styled("class:hints", fit_lines(hints_for(model), width, max_lines, ascii=ui.ascii))


def hints_for(model: ClientModel) -> str:
    """The key hints for this role and state (only q when there is no session)."""
    if model.connection in (ConnectionState.REFUSED, ConnectionState.CLOSED):
        return HINTS_DOWN
    if model.connection is ConnectionState.CONNECTING and model.me.role is None:
        return HINTS_DOWN
    role = model.me.role
    hints = HINTS_DIRECTOR if role == "director" else HINTS_SPECTATOR if role == "spectator" else HINTS_PLAYER
    me = model.my_seat
    if me is not None and me.sitting_out:
        hints = hints.replace("s sit out", "s I'm back")
    return hints


def typing_notice(ui: UiState, width: int, now: float, max_lines: int = 3) -> Lines:
    """The notice shown above the open text box (what was wrong with what was typed, the
    raise box's keys), wrapped; no lines when there is none."""
    notice = ui.notice
    if notice is None or (notice.until is not None and now >= notice.until):
        return []
    style = "class:error bold" if notice.tone is Tone.ERROR else "class:notice"
    return _styled(style, fit_lines(notice.text, width, max_lines, ascii=ui.ascii))


def _styled(style: str, lines: list[str]) -> Lines:
    return [[(style, line)] for line in lines]


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
