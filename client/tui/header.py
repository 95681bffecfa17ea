"""The header: the tournament's name and who I am, then the live figures.

The figures (level and blinds, time to the next level, table and hand, players left, my
place by chips, the average stack, my stack in big blinds) drop the least needed first
when the line is short.
"""

from __future__ import annotations

from client.model import ClientModel
from client.model.log import chips
from client.tui.canvas import Canvas, Lines
from client.tui.clocks import break_text, clock_text


def level_text(model: ClientModel, now: float) -> str:
    lobby = model.lobby
    if lobby is None:
        return ""
    if lobby.level is None:
        if lobby.schedule:
            first = lobby.schedule[0]
            return f"starts at {chips(first.small_blind)}/{chips(first.big_blind)}" + ante_words(first.ante)
        return ""
    lv = lobby.level
    text = f"Level {lv.index + 1} {chips(lv.small_blind)}/{chips(lv.big_blind)}" + ante_words(lv.ante)
    left = next_level_left(model, now)
    on_break = break_text(model, now)
    if on_break is not None:
        return f"{text} · {on_break}"
    if model.finished is not None or lobby.state == "finished":
        return text  # no next level once it is over
    if left is not None:
        text += f" · next {left}"
    if lobby.state == "paused":
        text += " · PAUSED"
    return text


def ante_words(ante: int | None) -> str:
    """" ante 200" when the level has a big-blind ante (version 3), else nothing."""
    return f" ante {chips(ante)}" if ante else ""


def next_level_left(model: ClientModel, now: float) -> str | None:
    lobby = model.lobby
    if lobby is None or lobby.next_level_in is None:
        return None
    if lobby.next_level_unit == "hands":
        n = lobby.next_level_in
        return f"in {n} hand" + ("" if n == 1 else "s")
    left = float(lobby.next_level_in)
    received = model.lobby_received_at
    if received is not None and lobby.state == "running":
        left -= now - received
    return clock_text(left)


HEADER_HEIGHT = 2
"""The header: the title and who I am, then the live figures of the tournament."""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def figures(model: ClientModel, now: float) -> list[tuple[str, int]]:
    """The live figures, each with a priority (the lowest goes first when short of room):
    level, blinds and time to the next level; table and hand; players left; my place by
    chips; the average stack; my stack in big blinds."""
    parts: list[tuple[str, int]] = [(level_text(model, now), 9)]
    t = model.table
    if t is not None:
        parts.append((f"Table {t.table}" + (f" · Hand #{t.hand_no}" if t.hand_no is not None else ""), 6))
    left = model.players_left
    lobby = model.lobby
    if left is not None and lobby is not None and lobby.state != "registering":
        parts.append((f"{left} left", 8))
        place = model.chip_place
        if place is not None:
            parts.append((f"you {ordinal(place)}", 7))
        avg = model.average_stack
        if avg is not None:
            parts.append((f"avg {chips(avg)}", 4))
    me = model.my_seat
    bb = t.big_blind if t is not None else 0
    if me is not None and bb:
        parts.append((f"{me.stack / bb:.1f} BB" if me.stack < 10 * bb else f"{me.stack // bb} BB", 5))
    return [(text, prio) for text, prio in parts if text]


def render_header(model: ClientModel, width: int, now: float) -> Lines:
    """Two lines: the tournament's name and who I am; then the live figures.

    Nothing is cut at 80 columns: a title longer than its room is shortened with "~"
    only after the figures moved to their own line; the figures drop the least needed
    first (the average, then my stack in big blinds) when even that line is short.
    """
    name = model.tournament or (model.lobby.name if model.lobby else None) or "Hickory"
    role = model.me.role
    who = {"spectator": "watching", "director": "DIRECTOR"}.get(role or "", model.me.name or "")
    # Every deck checked once the seeds are revealed (docs/fairness.md).
    checked = model.decks.status if model.decks is not None else None
    deck = None if checked is None else "deck \u2713" if checked == "verified" else "DECK CHECK FAILED (see log)"
    right = " · ".join(x for x in (who, deck, "? help") if x) + " "
    room = max(0, width - len(right) - 2)
    left = " " + (name if len(name) <= room else name[: max(0, room - 1)] + "~")
    top = Canvas(width, 1, "class:header")
    top.text(0, 0, left, "class:header bold")
    top.text(0, max(len(left) + 1, width - len(right)), right, "class:header")
    parts = figures(model, now)

    def joined() -> str:
        return " " + " · ".join(p for p, _ in parts)

    line = joined()
    while len(line) > width and len(parts) > 1:
        parts.remove(min(parts, key=lambda p: p[1]))
        line = joined()
    second = Canvas(width, 1, "class:header.figures")
    second.text(0, 0, line, "class:header.figures")
    return [top.lines()[0], second.lines()[0]]
