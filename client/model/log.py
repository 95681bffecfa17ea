"""The words a client keeps: chip amounts, the hand log's lines, chat lines.

Kept apart from the state so the log's wording is in one place (the terminal shows these
lines as they are; the bots' logs and the tests read the same ones).
"""

from __future__ import annotations

import attrs

from protocol import messages as m

LOG_LINES = 1000
"""Lines of hand log, chat and announcements kept (oldest dropped first)."""


def chips(n: int) -> str:
    """A chip amount as people read it: ``1,200``."""
    return f"{n:,}"

@attrs.frozen(kw_only=True)
class ChatLine:
    scope: m.Scope
    table: int | None
    player_id: int | None
    name: str
    role: m.Role
    text: str

    def __str__(self) -> str:
        where = f"table {self.table}" if self.scope == "table" else "lobby"
        # The role, not the name, says who is not a player: names cannot hold brackets.
        who = f"{self.name}:" if self.role == "player" else f"[{self.role.upper()}]"
        return f"[{where}] {who} {self.text}"


def ruling_where(msg: m.Ruling) -> str:
    """What a ruling answers, for its log line: " on call 3 at table 2", " at table 2", ""."""
    call = f" on call {msg.call_id}" if msg.call_id is not None else ""
    table = f" at table {msg.table}" if msg.table is not None else ""
    return call + table


def call_line(msg: m.DirectorCalled) -> str:
    """An open floor call as the director's list shows it."""
    where = ", ".join(x for x in (
        f"table {msg.table}" if msg.table is not None else "",
        f"seat {msg.seat}" if msg.seat is not None else "",
        f"hand #{msg.hand_no}" if msg.hand_no is not None else "",
    ) if x)
    number = f"#{msg.call_id} " if msg.call_id is not None else ""
    return f"{number}{msg.name}" + (f" ({where})" if where else "") + f": {msg.message}"


def describe_action(name: str, msg: m.Action) -> str:
    """One action as a log line: "bob raises to 600", "carol calls 200 and is all in"."""
    kind = msg.action
    if kind == "fold":
        text = f"{name} folds"
    elif kind == "check":
        text = f"{name} checks"
    elif kind == "call":
        text = f"{name} calls {chips(msg.amount)}"
    elif kind == "bet":
        text = f"{name} bets {chips(msg.to)}"
    elif kind == "raise":
        text = f"{name} raises to {chips(msg.to)}"
    else:
        text = f"{name} goes all in for {chips(msg.to)}"
    if msg.all_in and kind != "all_in":
        text += " and is all in"
    if msg.automatic:
        text += " (automatic)"
    return text
