"""The lobby: before the start, between tables, after I am out, and as an overlay (l).

Where the tournament stands, one line per table, every entrant (id, name, chips,
table/seat, status), then the latest chat and announcements.
"""

from __future__ import annotations

import datetime as dt

from client.model import ClientModel
from client.model.log import chips
from client.tui.canvas import Canvas, Lines
from client.tui.header import level_text
from client.tui.side_panel import chat_lines, wrap_tail_styled
from client.tui.state import Overlay, UiState
from protocol import messages as m


def local_time(stamp: str) -> str:
    """An ISO 8601 time from the server as local wall-clock time: "Sat 23:59"."""
    try:
        when = dt.datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return stamp
    return when.strftime("%a %H:%M")


LOBBY_COL = 44
"""Columns of one player in the lobby: id, name, chips, table/seat and the whole status."""

STATUS_WORDS = {
    "waiting": "waiting",
    "playing": "",
    "sitting_out": "sitting out",
    "disconnected": "disconnected",
    "eliminated": "eliminated",
}


def lobby_player_line(p: m.LobbyPlayer) -> str:
    """One entrant: "#3 carol 10,000 T1/3 sitting out" (the id addresses any name)."""
    where = f"T{p.table}/{p.seat}" if p.table is not None else ""
    name = p.name if len(p.name) <= 12 else p.name[:11] + "~"
    return _columns(f"#{p.player_id}", name, chips(p.chips), where, STATUS_WORDS[p.status])


def _columns(pid: str, name: str, amount: str, where: str, status: str) -> str:
    return f"{pid:>4} {name:<12} {amount:>7} {where:<6} {status}".rstrip()


LOBBY_HEADER = _columns("id", "name", "chips", "seat", "status")
"""The players' column heads, in the same columns as ``lobby_player_line``."""


def table_lines(lobby: m.Lobby) -> list[str]:
    """One line per table: players, average stack, the hand in play (protocol v2)."""
    chips_of = {p.player_id: p.chips for p in lobby.players}
    out = []
    for t in lobby.tables:
        n = len(t.players)
        avg = sum(chips_of.get(pid, 0) for pid in t.players) // n if n else 0
        text = f"Table {t.table}: {n} player" + ("" if n == 1 else "s") + f" · avg {chips(avg)}"
        if t.hand_no is not None:
            text += f" · hand #{t.hand_no}"
        out.append(text)
    return out


def my_lobby_status(model: ClientModel) -> str | None:
    if model.lobby is None or model.me.player_id is None:
        return None
    for p in model.lobby.players:
        if p.player_id == model.me.player_id:
            return p.status
    return None


def lobby_state_text(model: ClientModel) -> str:
    """Where the tournament stands, and what I am waiting for if anything."""
    lobby = model.lobby
    assert lobby is not None
    joined = sum(1 for p in lobby.players)
    if lobby.state == "registering":
        if lobby.start_players:
            return f"Registration open: {joined} of {lobby.start_players} joined, starts when all are in"
        return f"Registration open: {joined} joined, the director starts the tournament"
    if lobby.state == "paused" and lobby.break_after_level is not None:
        return f"On a break after level {lobby.break_after_level}: play resumes at level {lobby.break_after_level + 1}"
    if lobby.state == "paused":
        return "Paused by the director"
    if lobby.state == "finished":
        return "Finished"
    mine = my_lobby_status(model)
    if model.me.role == "player" and mine == "waiting":
        return "Running: waiting for your seat"
    if model.me.role == "player" and mine == "eliminated":
        return "Running: you are out of the tournament"
    return "Running"


def render_lobby(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    c = Canvas(width, height)
    lobby = model.lobby
    row = 1
    title = (lobby.name if lobby else model.tournament) or "Hickory"
    c.center(row, [("class:title bold", title)])
    row += 2
    if lobby is None:
        c.center(row, [("class:dim", "waiting for the lobby...")])
        return c.lines()
    state = lobby_state_text(model)
    c.center(row, [("class:lobby.state bold", state[:width])])
    row += 1
    facts = [level_text(model, now)]
    if lobby.deadline:
        facts.append(f"ends by {local_time(lobby.deadline)}")
    facts.append(f"{len(lobby.players)} registered")
    c.center(row, [("class:info", " · ".join(f for f in facts if f)[:width])])
    row += 2
    if model.finished is not None or model.my_place is not None:
        place = model.my_place
        if place is not None:
            c.center(row, [("class:title bold", f"You finished in place {place}")])
            row += 2
    # One line per table, then the players (id, name, chips, where, status); chat below.
    said = chat_lines(model)[-4:] + [("class:announcement", f"* {a}") for a in list(model.announcements)[-2:]]
    chat_h = min(len(said), 4)
    for line in table_lines(lobby)[: max(0, (height - row) // 3)]:
        c.text(row, 1, line, "class:lobby.table", width - 2)
        row += 1
    if lobby.tables:
        row += 1
    players = list(lobby.players)
    c.text(row, 1, f"Players ({len(players)})", "class:title", width - 2)
    row += 1
    col_w = LOBBY_COL
    ncols = max(1, min(3, width // col_w))
    left = max(0, (width - ncols * col_w) // 2)
    head_row = row
    row += 1
    avail = max(1, height - row - 1 - (chat_h + 1 if chat_h else 0))
    per_page = avail * ncols
    # Up/Down scroll a line (a row of every column), as far as the last player.
    last = max(0, -(-(len(players) - per_page) // ncols))
    ui.lobby_scroll = max(0, min(ui.lobby_scroll, last))
    first = ui.lobby_scroll * ncols
    shown = players[first : first + per_page]
    for k in range(max(1, -(-len(shown) // avail))):  # a head over each column in use
        c.text(head_row, left + k * col_w, LOBBY_HEADER, "class:dim", col_w - 1)
    for i, p in enumerate(shown):
        r, k = row + i % avail, i // avail
        style = "class:standing.me" if p.player_id == model.me.player_id else "class:lobby.player"
        if p.status == "eliminated":
            style += " class:dim"
        c.text(r, left + k * col_w, lobby_player_line(p), style, col_w - 1)
    closes = "Esc or l closes" if ui.overlay is Overlay.LOBBY else ""
    if len(shown) < len(players):
        hint = f"players {first + 1}-{first + len(shown)} of {len(players)} · Up/Down PgUp/PgDn scroll"
        c.center(row + avail, [("class:dim", " · ".join(x for x in (hint, closes) if x))])
    elif closes:
        c.center(height - 1 if not chat_h else row + avail, [("class:dim", closes)])
    if chat_h:
        top = height - chat_h
        c.text(top - 1, 1, "Chat and announcements", "class:title")
        for i, (style, text) in enumerate(wrap_tail_styled(said, width - 2, chat_h)):
            c.text(top + i, 1, text, style)
    return c.lines()
