"""The rules in force (u): the lobby's ``rules`` (protocol v2) as a screen.

Ruleset, seats, levels, clocks, deadline, the odd-chip rule, the scheduled breaks and the
break in progress, then the latest rule changes with the director's reasons: what a player
needs to know "what are we playing now, and since when".
"""

from __future__ import annotations

from client.model import ClientModel
from client.model.log import chips
from client.tui.canvas import Canvas, Lines
from client.tui.clocks import break_left, clock_text
from client.tui.lobby import local_time
from client.tui.wrapping import wrap_words
from protocol import messages as m

RULESETS = {
    "hickory": "hickory: every raise adds at least the big blind",
    "standard": "standard: a raise adds at least the largest raise this round",
}


def rules_rows(rules: m.Rules, lobby: m.Lobby, model: ClientModel, now: float) -> list[tuple[str, str]]:
    """``(label, text)`` rows of the rules in force; a label "" continues the row above."""
    unit = "minutes" if rules.level_unit == "minutes" else "hands per table in play"
    rows = [
        ("Ruleset", RULESETS.get(rules.ruleset, rules.ruleset)),
        ("Seats", f"{rules.seats_per_table} per table (fixed for the night)"),
        ("Levels", f"{rules.level_length} {unit} each"),
        ("Clocks", f"action clock {rules.action_seconds} s, then a time bank of {rules.time_bank_seconds} s"),
        ("Reconnect", f"a dropped player is announced after {rules.reconnect_grace_seconds} s (the seat is kept)"),
        ("Deadline", f"no new hand after {local_time(rules.deadline)}" if rules.deadline else "none: play to the last chip"),
        ("Odd chip", rules.odd_chip),
    ]
    if rules.big_blind_ante:
        rows.append(("Ante", "a big-blind ante: the big blind posts it for the table before the blind "
                             "(dead money, not part of the bet); levels read small blind/big blind/ante"))
    rows.append(("Blinds", schedule_text(lobby)))
    if lobby.late_until_level is not None:
        rows.append(("Late entry", f"open until the end of level {lobby.late_until_level}"))
    if rules.breaks:
        shown = [f"after level {b.after_level}: {b.minutes} min" + (" (taken)" if b.taken else "")
                 for b in rules.breaks]
        rows.append(("Breaks", " · ".join(shown)))
    else:
        rows.append(("Breaks", "none scheduled"))
    left = break_left(model, now)
    if left is not None and lobby.break_after_level is not None:
        rows.append(("Break now", f"{clock_text(left)} left; play resumes at level {lobby.break_after_level + 1}"))
    return rows


def schedule_text(lobby: m.Lobby) -> str:
    """The blind schedule level by level, the level in play marked: "1: 25/50 20 min ·
    2: 50/100 20 min (now) · ..."."""
    if not lobby.schedule:
        return "not given by the server"
    now_index = lobby.level.index if lobby.level is not None else None
    parts = []
    for i, lv in enumerate(lobby.schedule):
        length = f" {lv.minutes} min" if lv.minutes else f" {lv.hands} hands" if lv.hands else ""
        mark = " (now)" if i == now_index else ""
        # No-break spaces: a level is never split across two lines.
        ante = f"/{chips(lv.ante)}" if lv.ante else ""  # small blind/big blind/ante (v3)
        level = f"{i + 1}: {chips(lv.small_blind)}/{chips(lv.big_blind)}{ante}{length}{mark}"
        parts.append(level.replace(" ", "\u00a0"))
    return " · ".join(parts)


def render_rules(model: ClientModel, width: int, height: int, now: float) -> Lines:
    c = Canvas(width, height)
    lobby = model.lobby
    rules = lobby.rules if lobby is not None else None
    title = "Rules in force" + (f" (version {rules.rules_version})" if rules is not None else "")
    c.center(0, [("class:title bold", title)])
    if lobby is None or rules is None:
        c.center(2, [("class:dim", "the server has not said its rules (it speaks protocol version 1)")])
        c.center(height - 1, [("class:dim", "Esc or u closes")])
        return c.lines()
    left = max(1, (width - 78) // 2)
    row = 2
    for label, text in rules_rows(rules, lobby, model, now):
        # A long row (the schedule, a reason) wraps under itself, never cut.
        for i, piece in enumerate(wrap_words(text, max(10, width - left - 13))):
            if row >= height - 2:
                break
            c.text(row, left, f"{label if i == 0 else '':<11}", "class:key")
            c.text(row, left + 12, piece, "class:help", width - left - 13)
            row += 1
    row += 1
    changes = list(rules.changes)
    if row < height - 2:
        c.text(row, left, "Changes tonight" if changes else "No rule changes yet", "class:help.section bold")
        row += 1
    # The newest changes that fit, each whole: what changed, then why, wrapped.
    text_w = max(10, width - left - 13)
    blocks = [
        [("class:help", piece) for piece in wrap_words(ch.what, text_w)]
        + [("class:dim", piece) for piece in wrap_words(f"reason: {ch.reason}", text_w)]
        for ch in changes
    ]
    room = max(0, height - 1 - row)
    first = len(changes)
    while first > 0 and len(blocks[first - 1]) <= room:
        room -= len(blocks[first - 1])
        first -= 1
    for ch, block in zip(changes[first:], blocks[first:], strict=True):
        c.text(row, left + 2, f"v{ch.rules_version} {local_time(ch.at)[-5:]}", "class:key")
        for style, piece in block:
            c.text(row, left + 12, piece, style, text_w)
            row += 1
    c.center(height - 1, [("class:dim", "Esc or u closes")])
    return c.lines()
