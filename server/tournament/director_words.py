"""The director's operations in words, as players and the audit read them: a blind
schedule, an option, a deadline, a rule change's version."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def blinds_text(levels: Sequence[tuple[int, int]], antes: Sequence[int] = ()) -> str:
    """"100/200, 150/300", or with antes "100/200/200, 150/300/300"."""
    if antes:
        return ", ".join(f"{sb}/{bb}/{a}" for (sb, bb), a in zip(levels, antes, strict=True))
    return ", ".join(f"{sb}/{bb}" for sb, bb in levels)


def versioned(version: int, text: str) -> str:
    """A rule change as announced: "Rules v4: action clock 30 s from the next hand"."""
    return f"Rules v{version}: {text}"


def option_words(name: str, value: object) -> str:
    """One option in words, as players read it: "action clock 30 s", "levels of 15 min"."""
    def num(x: Any) -> str:
        """30.0 reads "30", 7.5 "7.5", a million minutes "1000000" (not "1e+06")."""
        return str(int(x)) if x == int(x) else str(x)

    if name == "ruleset":
        return f"ruleset {value}"  # a Ruleset is a StrEnum: its text is its value
    if name == "level_minutes":
        return f"levels of {num(value)} min"
    if name == "hands_per_level":
        return f"levels of {value} hands per table"
    if name == "big_blind_ante":
        return "big-blind ante on" if value else "big-blind ante off"
    if name == "max_entries":
        return "no re-entry" if value == 1 else f"up to {value} entries per player (re-entry)"
    if name == "tv_table":
        return "no TV table" if value is None else (
            f"TV table {value} (its spectators see every hand's hole cards once the hand is over)")
    if name == "tv_delay":
        return "the TV table's cards as each hand ends" if not value else (
            f"the TV table's cards {num(value)} s after each hand ends")
    if name == "reentry_until":
        return "re-entry while late registration is open" if value is None else f"re-entry through level {value}"
    words = {"action_clock": "action clock", "time_bank": "time bank", "reconnect_grace": "reconnect grace"}
    return f"{words[name]} {num(value)} s"


def deadline_summary(now: float, deadline: float | None) -> str:
    """The announcement of a new deadline, in words: "The deadline is now in 2 h 17 min".

    The core's clock is not a wall clock, so it says how far away the deadline is; each
    client shows the deadline itself in its own local time, from the lobby's ``deadline``.
    """
    if deadline is None:
        return "No deadline"
    left = max(0, round((deadline - now) / 60))
    hours, minutes = divmod(left, 60)
    if hours and minutes:
        return f"The deadline is now in {hours} h {minutes:02d} min"
    if hours:
        return f"The deadline is now in {hours} h"
    return f"The deadline is now in {minutes} min"
