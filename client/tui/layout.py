"""The Application's layout: one control drawing the screen from the model, and a bottom line.

``ScreenControl`` asks ``render.render_screen`` for exactly the size prompt_toolkit gives
it, so a resized terminal is simply drawn again at its new size. The bottom line is the
text box while one is open (raise amount, chat, director command), else the status line
(a notice, a confirmation to answer, or the key hints).
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
from client.tui.render import render_screen
from client.tui.state import UiState
from client.tui.status_line import input_prompt, render_status, typing_notice

Clock = Callable[[], float]


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
    # While typing, a notice (an amount refused, a command not understood) shows to the right.
    beside = Window(
        FormattedTextControl(lambda: typing_notice(ui, clock())),
        height=1,
        dont_extend_width=True,
    )
    status = Window(
        FormattedTextControl(lambda: render_status(model, ui, 10_000, clock())),
        height=1,
        style="class:status",
    )
    root = HSplit(
        [
            screen,
            ConditionalContainer(VSplit([prompt, box, beside]), filter=typing),
            ConditionalContainer(status, filter=~typing),
        ]
    )
    return Layout(root, focused_element=screen)


def focus_screen(app: Application[object]) -> None:
    """Give the focus back to the screen (after a text box closes)."""
    for w in app.layout.find_all_windows():
        if isinstance(w.content, ScreenControl):
            app.layout.focus(w)
            return
