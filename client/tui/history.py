"""The history overlay (h): one of my last hands told in words, Left/Right to browse."""

from __future__ import annotations

import textwrap

from client.model import ClientModel
from client.model.log import chips
from client.tui.canvas import Canvas, Lines
from client.tui.cards import small_cards
from client.tui.state import UiState
from protocol import messages as m


def history_lines(record: m.HandRecord, ascii: bool, width: int = 78) -> Lines:
    """One finished hand in words, as a player would tell it."""
    names = {p.seat: p.name for p in record.players}

    def nm(seat: int) -> str:
        return names.get(seat, f"seat {seat}")

    out: Lines = []
    out.append(
        [
            (
                "class:title bold",
                f"Hand #{record.hand_no} · table {record.table} · "
                f"blinds {chips(record.small_blind)}/{chips(record.big_blind)}"
                + (f" · ante {chips(record.ante)}" if record.ante else ""),
            )
        ]
    )
    out.append([("", f"Button: {nm(record.button)}" + (f" · {record.carried_in} carried in" if record.carried_in else ""))])
    players = "Players: " + ", ".join(f"{p.name} {chips(p.stack)}" for p in record.players)
    out += [[("", line)] for line in textwrap.wrap(players, width, subsequent_indent="  ", break_on_hyphens=False)]
    if record.your_cards:
        out.append([("", "You held "), *small_cards(record.your_cards, ascii)])
    if record.ante:
        big = next((b.seat for b in record.blinds if b.blind == "big"), None)
        who = nm(big) if big is not None else "The big blind"
        out.append([("class:log", f"{who} posts the ante {chips(record.ante)} for the table")])
    for b in record.blinds:
        out.append([("class:log", f"{nm(b.seat)} posts the {b.blind} blind {chips(b.amount)}")])
    street = None
    board_at = {"flop": 3, "turn": 4, "river": 5}
    for a in record.actions:
        if a.street != street:
            street = a.street
            if street in board_at:
                out.append(
                    [("class:street", f"{street.capitalize()}: "), *small_cards(record.board[: board_at[street]], ascii)]
                )
        out.append([("class:log", describe_record_action(nm(a.seat), a))])
    if record.board and (street is None or board_at.get(str(street), 0) < len(record.board)):
        out.append([("class:street", "Board: "), *small_cards(record.board, ascii)])
    for sh in record.shown:
        out.append([("", f"{nm(sh.seat)} shows "), *small_cards(sh.cards, ascii), ("", f" ({sh.hand_name})")])
    for res in record.results:
        label = "the pot" if res.pot == 0 else f"side pot {res.pot}"
        for w in res.winners:
            out.append([("class:log.win", f"{nm(w.seat)} wins {chips(w.amount)} from {label}")])
        if res.remainder_carried:
            out.append([("class:pot.carried", f"{res.remainder_carried} odd chip(s) carried to the next hand")])
    return out


def describe_record_action(name: str, a: m.HandAction) -> str:
    words = {
        "fold": f"{name} folds",
        "check": f"{name} checks",
        "call": f"{name} calls {chips(a.amount)}",
        "bet": f"{name} bets {chips(a.to)}",
        "raise": f"{name} raises to {chips(a.to)}",
        "all_in": f"{name} goes all in for {chips(a.to)}",
    }
    text = words[a.action]
    if a.all_in and a.action != "all_in":
        text += " and is all in"
    if a.automatic:
        text += " (automatic)"
    return text


def render_history(model: ClientModel, ui: UiState, width: int, height: int) -> Lines:
    c = Canvas(width, height)
    hist = model.history
    if hist is None:
        c.center(height // 2, [("class:dim", "asking the server for your last hands...")])
        return c.lines()
    if not hist.hands:
        c.center(height // 2, [("class:dim", "no finished hands yet")])
        return c.lines()
    n = len(hist.hands)
    idx = ui.history_hand(n)
    lines = history_lines(hist.hands[idx], ui.ascii, width - 2)
    room = height - 1
    top = max(0, min(ui.history_scroll, len(lines) - room))
    for i, line in enumerate(lines[top : top + room]):
        c.write(i, 1, line, width - 2)
    hint = f"hand {idx + 1} of {n} · Left/Right hands · Enter replays"
    if len(lines) > room:
        hint += f" · Up/Down scroll ({top + 1}-{min(len(lines), top + room)} of {len(lines)})"
    c.center(height - 1, [("class:dim", hint + " · Esc closes")])
    return c.lines()
