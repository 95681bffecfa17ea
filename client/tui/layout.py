"""The Application's layout: one control drawing the screen from the model, and a bottom line.

``ScreenControl`` asks ``render.render_screen`` for exactly the size prompt_toolkit gives
it, so a resized terminal is simply drawn again at its new size. Under it are the lines a
message needs (``MessageControl``: a notice, a confirmation to answer, the key hints,
wrapped, never cut at the edge) and, while one is open, the text box (raise amount, chat,
director command) on a line of its own, so what is typed always has the width.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl, UIContent, UIControl
from prompt_toolkit.layout.dimension import Dimension

from client.model import ClientModel
from client.tui.canvas import Lines
from client.tui.render import MIN_HEIGHT, render_screen
from client.tui.state import UiState
from client.tui.status_line import input_prompt, render_status, typing_notice

Clock = Callable[[], float]

MAX_MESSAGE_LINES = 6
"""The most lines a message under the screen takes (more is shortened, its keys kept)."""


def message_room(total_height: int) -> int:
    """How many lines a message may take in a terminal ``total_height`` rows high: what
    the table can spare above its minimum, at least one, at most ``MAX_MESSAGE_LINES``."""
    return max(1, min(MAX_MESSAGE_LINES, total_height - MIN_HEIGHT))


def message_lines(model: ClientModel, ui: UiState, width: int, total_height: int, now: float) -> Lines:
    """The lines under the screen: while typing, the notice above the text box (maybe
    none), else the status (at least one line)."""
    room = message_room(total_height)
    if ui.input_mode is not None:
        return typing_notice(ui, width, now, max(1, room - 1))
    return render_status(model, ui, width, now, room)


def render_terminal(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    """The whole terminal as the layout draws it (the text box's line shows its prompt
    only): for tests and for anyone checking what fits."""
    under = message_lines(model, ui, width, height, now)
    box: Lines = [[("class:prompt bold", input_prompt(ui, model) + ui.buffer.text)]] if ui.input_mode else []
    screen = render_screen(model, ui, width, max(0, height - len(under) - len(box)), now)
    return [*screen, *under, *box]


class MessageControl(UIControl):
    """The message lines under the screen, as many as the message needs at this width."""

    def __init__(self, model: ClientModel, ui: UiState, clock: Clock) -> None:
        self.model = model
        self.ui = ui
        self.clock = clock

    def _lines(self, width: int, available: int) -> Lines:
        from prompt_toolkit.application.current import get_app_or_none

        app = get_app_or_none()
        total = app.output.get_size().rows if app is not None else available
        return message_lines(self.model, self.ui, width, total, self.clock())

    def preferred_height(
        self, width: int, max_available_height: int, wrap_lines: bool, get_line_prefix: object
    ) -> int:
        return len(self._lines(width, max_available_height))

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self._lines(width, height)

        def get_line(i: int) -> StyleAndTextTuples:
            return lines[i] if 0 <= i < len(lines) else []

        return UIContent(get_line=get_line, line_count=len(lines), show_cursor=False)


class ScreenControl(UIControl):
    """Everything above the bottom line, rendered for the window's exact size."""

    def __init__(self, model: ClientModel, ui: UiState, clock: Clock) -> None:
        self.model = model
        self.ui = ui
        self.clock = clock

    def is_focusable(self) -> bool:
        return True

    def create_content(self, width: int, height: int) -> UIContent:
        lines = render_screen(self.model, self.ui, width, height, self.clock())

        def get_line(i: int) -> StyleAndTextTuples:
            return lines[i] if 0 <= i < len(lines) else []

        return UIContent(get_line=get_line, line_count=len(lines), show_cursor=False)


def create_layout(model: ClientModel, ui: UiState, clock: Clock) -> Layout:
    typing = Condition(lambda: ui.input_mode is not None)
    screen = Window(ScreenControl(model, ui, clock), always_hide_cursor=True)
    prompt = Window(
        FormattedTextControl(lambda: [("class:prompt bold", input_prompt(ui, model))]),
        dont_extend_width=True,
        height=1,
    )
    box = Window(BufferControl(buffer=ui.buffer), height=1, style="class:input",
                 width=Dimension(min=10, weight=1))
    # The message (while typing: what was wrong with what was typed) sits above the box,
    # wrapped onto its own lines, so the box keeps the whole width for the text.
    message = Window(MessageControl(model, ui, clock), style="class:status", dont_extend_height=True)
    root = HSplit(
        [
            screen,
            message,
            ConditionalContainer(VSplit([prompt, box]), filter=typing),
        ]
    )
    return Layout(root, focused_element=screen)


def focus_screen(app: Application[object]) -> None:
    """Give the focus back to the screen (after a text box closes)."""
    for w in app.layout.find_all_windows():
        if isinstance(w.content, ScreenControl):
            app.layout.focus(w)
            return
