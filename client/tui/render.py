"""The whole screen from the client model: which screen the state calls for, and how the
table screen's parts sit side by side.

``render_screen(model, ui, width, height, now)`` returns exactly ``height`` lines of at most
``width`` columns, so the Application only has to show them (and a terminal resize only
has to call it again with the new size). Nothing here, nor in the modules it draws with,
reads a clock, the network or the terminal: ``now`` is passed in (seconds on the clock the
session stamps messages with), so the tests render any state at any size and assert on
the text.

Screen at 80x24, seated at a table (the module drawing each part in brackets)::

    header: tournament, level and blinds, time to the next level, table and hand  [header]
    table: seats around the board and pots [table] | side panel: log / chat / standings
                                                     [side_panel, standings]
    my cards, drawn large | my hand's name | action keys with amounts  [bottom]
    clock bar: the action clock, then the time bank  [clocks]
    (the bottom line, notices or the text box, is drawn by the layout)  [status_line]

Before a seat, between tables or out: [lobby]. Overlays: help [help], my last hands
[history], the lobby [lobby], the standings [standings]. Connecting, refused, closed and
the reconnecting banner are drawn here.
"""

from __future__ import annotations

import textwrap

from client.model import ClientModel, ConnectionState
from client.tui.bottom import BOTTOM_HEIGHT, render_bottom, turn_strip
from client.tui.canvas import Canvas, Lines, fragments_width
from client.tui.clocks import break_left, clock_text
from client.tui.header import render_header
from client.tui.help import render_help
from client.tui.history import render_history
from client.tui.liveness import SILENT_SECONDS, screen_time, server_silent
from client.tui.lobby import render_lobby
from client.tui.replayer import render_replay
from client.tui.rules import render_rules
from client.tui.side_panel import render_side_panel
from client.tui.standings import render_standings
from client.tui.state import Overlay, UiState
from client.tui.stats_view import render_stats
from client.tui.table import render_table

MIN_WIDTH = 50
MIN_HEIGHT = 18
"""Below this (the screen above the bottom line) the table cannot be drawn legibly."""
MIN_SIDE = 24
MAX_SIDE = 40


def render_screen(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    """The screen above the bottom line, exactly ``height`` lines of ``width`` columns."""
    silent = server_silent(model, ui, now)
    now = screen_time(model, ui, now)
    if width <= 0 or height <= 0:
        return [[] for _ in range(max(0, height))]
    header = render_header(model, width, now)[: max(1, height - 1)]
    body_h = height - len(header)
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        lines = [("class:error", "The terminal is too small"),
                 ("", f"make it at least {MIN_WIDTH}x{MIN_HEIGHT + 1}"), ("class:dim", "q quits")]
        return [*header, *render_message_box(lines, width, body_h)]
    conn = model.connection
    if conn in (ConnectionState.CONNECTING, ConnectionState.REFUSED, ConnectionState.CLOSED) and (
        model.table is None or conn is not ConnectionState.CLOSED
    ):
        if conn is ConnectionState.CONNECTING and model.me.role is None:
            return [*header, *render_message_box(connecting_lines(model, ui), width, body_h)]
        if conn is not ConnectionState.CONNECTING:
            return [*header, *render_message_box(refused_lines(model, ui), width, body_h)]
    if ui.overlay is not None:
        # My turn and my clock stay in sight under every overlay.
        strip = turn_strip(model, ui, width, now) if body_h > 8 else []
        if ui.overlay is Overlay.HELP and strip:
            # The help needs every line: the strip takes the place of its "Esc closes".
            body = render_overlay(model, ui, width, body_h, now)[:-1] + strip
        else:
            body = render_overlay(model, ui, width, body_h - len(strip), now) + strip
    elif model.table is None:
        body = render_lobby(model, ui, width, body_h, now)
    else:
        body = render_table_screen(model, ui, width, body_h, now)
    if conn is ConnectionState.RECONNECTING or (conn is ConnectionState.CONNECTING and model.me.role is not None):
        body = banner_over(body, width, reconnecting_lines(model, ui, width))
    elif silent:
        body = banner_over(body, width, silent_lines(ui, width))
    return [*header, *body]


def connecting_lines(model: ClientModel, ui: UiState) -> list[tuple[str, str]]:
    where = f" to {ui.server_label}" if ui.server_label else ""
    return [
        ("class:title", f"Hickory: connecting{where}..."),
        ("", ""),
        ("class:dim", "q quits"),
    ]


def refused_lines(model: ClientModel, ui: UiState) -> list[tuple[str, str]]:
    reason = model.connection_reason or model.goodbye or "the connection closed"
    if model.connection is ConnectionState.REFUSED and reason.startswith("cannot connect"):
        title = "Cannot reach the server"  # nothing answered: no server refused anything
    elif model.connection is ConnectionState.REFUSED:
        title = "The server refused this client"
    else:
        title = "Disconnected"
    out: list[tuple[str, str]] = [("class:error bold", title), ("", "")]
    out += [("", line) for line in textwrap.wrap(reason, 60, break_on_hyphens=False) or [reason]]
    out += [("", ""), ("class:dim", "q quits")]
    return out


RECONNECTING_TITLE = "connection lost, reconnecting\u2026"
"""The banner's first line, at once when the connection drops (the clocks stop with it)."""


def reconnecting_lines(model: ClientModel, ui: UiState, width: int) -> list[tuple[str, str]]:
    reason = model.connection_reason or "connection lost"
    room = max(20, min(70, width - 6))
    title = RECONNECTING_TITLE.replace("\u2026", "...") if ui.ascii else RECONNECTING_TITLE
    out = [("class:banner bold", title)]
    out += [("class:banner", line) for line in textwrap.wrap(reason, room, break_on_hyphens=False)[:3]]
    out += [("class:banner", line) for line in textwrap.wrap(
        "the clocks shown are stopped; your seat is kept, and if your clock runs out "
        "the server checks or folds for you", room)]
    return out


SILENT_TITLE = "the server is not answering\u2026"


def silent_lines(ui: UiState, width: int) -> list[tuple[str, str]]:
    room = max(20, min(70, width - 6))
    title = SILENT_TITLE.replace("\u2026", "...") if ui.ascii else SILENT_TITLE
    out = [("class:banner bold", title)]
    out += [("class:banner", line) for line in textwrap.wrap(
        f"nothing heard for more than {SILENT_SECONDS:g} s: the clocks shown are stopped; "
        "if it stays silent the client connects again by itself", room)]
    return out


def render_message_box(lines: list[tuple[str, str]], width: int, height: int) -> Lines:
    c = Canvas(width, height)
    top = max(0, (height - len(lines)) // 2)
    for i, (style, text) in enumerate(lines):
        c.center(top + i, [(style, text[:width])])
    return c.lines()


def banner_over(body: Lines, width: int, lines: list[tuple[str, str]]) -> Lines:
    """Dim the body and put a framed banner in its middle (the reconnecting state)."""
    height = len(body)
    dimmed: Lines = [[("class:stale " + f[0], f[1]) for f in line] for line in body]
    inner = min(width - 4, max(fragments_width([ln]) for ln in lines) + 4)
    top = max(0, (height - len(lines) - 2) // 2)
    left = max(0, (width - inner - 4) // 2)
    box: list[tuple[str, str]] = [("class:banner", "+" + "-" * inner + "+")]
    for style, text in lines:
        box.append((style, "|" + text[:inner].center(inner) + "|"))
    box.append(("class:banner", "+" + "-" * inner + "+"))
    for i, (style, text) in enumerate(box):
        row = top + i
        if not 0 <= row < height:
            continue
        c = Canvas(width, 1)
        c.text(0, left, f" {text} ", style)
        dimmed[row] = c.lines()[0]
    return dimmed


def side_width(width: int) -> int:
    """Columns of the side panel (0 when the terminal is too narrow for one)."""
    if width < 64:
        return 0
    return max(MIN_SIDE, min(MAX_SIDE, width // 3))


def render_table_screen(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    t = model.table
    assert t is not None
    bottom_h = BOTTOM_HEIGHT if height >= 12 else 0
    main_h = height - bottom_h
    side_w = side_width(width)
    table_w = width - side_w - (1 if side_w else 0)
    table_lines = render_table(t, ui.ascii, table_w, main_h, model.me.role == "spectator",
                               pause_note(model, now))
    if side_w:
        side_lines = render_side_panel(model, ui, side_w, main_h)
        main = [
            [*tl, ("class:frame", "\u2502" if not ui.ascii else "|"), *sl]
            for tl, sl in zip(table_lines, side_lines, strict=True)
        ]
    else:
        main = table_lines
    if bottom_h:
        main += render_bottom(model, ui, width, bottom_h, now)
    return main


def pause_note(model: ClientModel, now: float) -> str | None:
    """What the felt says while no hand starts: a break ("Break: level 3 starts in 1:55")
    or the director's pause."""
    lobby = model.lobby
    if lobby is None or lobby.state != "paused":
        return None
    left = break_left(model, now)
    if left is not None and lobby.break_after_level is not None:
        return f"Break: Level {lobby.break_after_level + 1} starts in {clock_text(left)}"
    return "Paused by the director"


def render_overlay(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    if ui.overlay is Overlay.HELP:
        return render_help(model, ui, width, height)
    if ui.overlay is Overlay.HISTORY:
        if ui.replay_step is not None:
            return render_replay(model, ui, width, height)
        return render_history(model, ui, width, height)
    if ui.overlay is Overlay.STATS:
        return render_stats(model, width, height)
    if ui.overlay is Overlay.LOBBY:
        return render_lobby(model, ui, width, height, now)
    if ui.overlay is Overlay.RULES:
        return render_rules(model, width, height, now)
    return render_standings(model, width, height)
