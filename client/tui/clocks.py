"""The clocks as drawn: minutes and seconds, my action clock then time bank, another's clock.

Pure: the time is passed in (``now``, on the clock the session stamps messages with).
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.model import ClientModel, PendingTurn, TableModel


def clock_text(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def break_left(model: ClientModel, now: float) -> float | None:
    """Seconds left of the break in progress, counted down since the lobby came; None
    when there is no break (or the server does not say: protocol v1)."""
    lobby = model.lobby
    if lobby is None or lobby.break_seconds_left is None or lobby.state != "paused":
        return None
    left = float(lobby.break_seconds_left)
    if model.lobby_received_at is not None:
        left -= now - model.lobby_received_at
    return max(0.0, left)


def break_text(model: ClientModel, now: float) -> str | None:
    """"Break: 7:12 left", or None when there is no break."""
    left = break_left(model, now)
    return None if left is None else f"Break: {clock_text(left)} left"


def clock_bar(turn: PendingTurn, width: int, now: float, ascii: bool) -> StyleAndTextTuples:
    """The action clock counting down, then the time bank."""
    msg = turn.msg
    deadline, bank = turn.deadline, turn.bank_deadline
    if deadline is None or bank is None:
        return [("class:clock", f"clock {clock_text(msg.deadline_ms / 1000)}")]
    full, empty = ("#", "-") if ascii else ("\u2588", "\u2591")
    if now < deadline:
        label, left, total, style = "Clock", deadline - now, msg.deadline_ms / 1000, "class:clock"
    else:
        label, left, total, style = (
            "Time bank", bank - now, max(0.001, msg.time_bank_ms / 1000), "class:clock.bank",
        )
    left = max(0.0, left)
    tail = f" {clock_text(left)}"
    bar_w = max(0, width - len(label) - len(tail) - 1)
    filled = round(bar_w * min(1.0, left / total)) if total > 0 else 0
    if left < 5:
        style = "class:clock.urgent"
    return [
        (style + " bold", label + " "),
        (style, full * filled),
        ("class:clock.empty", empty * (bar_w - filled)),
        (style + " bold", tail),
    ]


def other_clock(t: TableModel, who: str, width: int, now: float, ascii: bool) -> StyleAndTextTuples:
    """Whose turn it is and, when the server said (``turn``, protocol v2), their clock."""
    clock = t.clock
    if clock is None or clock.seat != t.to_act:
        return [("class:dim", f" {who} to act")]
    which, left = clock.left(now)
    label = f" {who} to act · " + ("clock" if which == "clock" else "time bank")
    tail = f" {clock_text(left)}"
    total = clock.deadline_ms / 1000 if which == "clock" else max(0.001, clock.time_bank_ms / 1000)
    full, empty = ("#", "-") if ascii else ("\u2588", "\u2591")
    bar_w = max(0, min(30, width - len(label) - len(tail) - 2))
    filled = round(bar_w * min(1.0, left / total)) if total > 0 else 0
    style = "class:clock.bank" if which == "bank" else "class:clock"
    return [
        ("class:dim", label + " "),
        (style, full * filled),
        ("class:clock.empty", empty * (bar_w - filled)),
        (style + " bold", tail),
    ]
