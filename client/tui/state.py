"""The terminal's own state: what is open on screen, what is being typed, the last notice.

The client model (``client.model.ClientModel``) holds what the server said; this holds what
only the terminal knows: which overlay is up, which side panel shows, the text box being
typed into and what it is for, a director command waiting for its confirmation, and the
last notice for the player ("raise to 250 is below the minimum raise to 400"). The render
functions read both; the key bindings change this one and send protocol messages through
an ``Actions`` object, which keeps them testable without a network.
"""

from __future__ import annotations

import enum
from typing import Protocol

import attrs
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document

from protocol import messages as m


class Overlay(enum.StrEnum):
    """A screen shown over the table until Esc (or its key again)."""

    HELP = "help"
    HISTORY = "history"
    STANDINGS = "standings"
    LOBBY = "lobby"
    RULES = "rules"
    STATS = "stats"


class Panel(enum.StrEnum):
    """What the side panel next to the table shows (Tab cycles)."""

    LOG = "log"
    CHAT = "chat"
    STANDINGS = "standings"
    CALLS = "calls"  # the director's open floor calls (directors only)


class InputMode(enum.StrEnum):
    """What the one-line text box at the bottom is for."""

    RAISE = "raise"
    CHAT = "chat"
    DIRECTOR = "director"


class Tone(enum.StrEnum):
    INFO = "info"
    ERROR = "error"


@attrs.define(kw_only=True)
class Notice:
    text: str
    tone: Tone = Tone.INFO
    until: float | None = None  # on the render clock; None: until replaced


@attrs.define(kw_only=True)
class PendingCommand:
    """A director command typed and parsed, waiting for y/n."""

    command: m.Command
    summary: str


@attrs.define(kw_only=True)
class Confirm:
    """A player's step that cannot be undone (quit during a hand, all in), waiting for y/n.

    ``what`` names it for the key handler ("quit", "all_in"); ``hand_no`` is the hand it
    was asked in: an all in confirmed after that hand is over is not sent.
    """

    what: str
    summary: str
    hand_no: int | None = None


@attrs.define(kw_only=True)
class UiState:
    ascii: bool = False
    overlay: Overlay | None = None
    panel: Panel = Panel.LOG
    input_mode: InputMode | None = None
    buffer: Buffer = attrs.Factory(lambda: Buffer(multiline=False, name="input"))
    notice: Notice | None = None
    pending: PendingCommand | None = None
    confirm: Confirm | None = None  # a player's quit or all in waiting for y/n
    confirm_quit: bool = True  # ask before quitting during a hand (--no-confirm turns off)
    confirm_all_in: bool = True  # ask before an all in that is not the only way on
    practice: bool = False  # under make play: quitting ends the practice tournament
    pre_action: str | None = None  # "check_fold" or "call_any", queued for my next turn
    pre_action_bet: int = 0  # the bet to match when it was queued: a change clears it
    help_topic: str | None = None  # the director command the help overlay explains
    quick_label: str | None = None  # the quick size the raise box holds ("pot"), if any
    history_index: int = -1  # which hand of model.history the overlay shows; -1: the last
    history_scroll: int = 0  # first line of that hand shown
    replay_step: int | None = None  # replaying that hand (Enter): the step shown, else None
    quick_index: int = 0  # which quick size Tab picked last in the raise box
    prefilled: bool = False  # the box holds a suggested amount: the first digit typed replaces it
    server_label: str = ""  # "host:port", for the connecting and refused screens
    frozen_at: float | None = None  # when the connection went down: the clocks stop there
    last_heard: float | None = None  # when the server's last line came (None: not tracked)
    rung_for: tuple[int, int, str, int] | None = None  # the decision the bell last rang for
    lobby_scroll: int = 0  # first row of players the lobby shows

    def history_hand(self, count: int) -> int:
        """Which of ``count`` hands the history overlay shows: ``history_index`` if it is
        one of them, else the last."""
        return self.history_index if 0 <= self.history_index < count else count - 1

    def say(self, text: str, tone: Tone = Tone.INFO, until: float | None = None) -> None:
        self.notice = Notice(text=text, tone=tone, until=until)

    def open_input(self, mode: InputMode, text: str = "", prefilled: bool = False) -> None:
        self.input_mode = mode
        self.prefilled = prefilled
        self.quick_label = None
        self.buffer.set_document(Document(text, len(text)), bypass_readonly=True)

    def close_input(self) -> None:
        self.input_mode = None
        self.prefilled = False
        self.quick_label = None
        self.buffer.reset()


class Actions(Protocol):
    """What the key bindings may do besides changing ``ui``: send a message, or quit."""

    ui: UiState

    def send(self, msg: m.ClientMessage) -> bool: ...

    def quit(self) -> None: ...

    def now(self) -> float: ...
