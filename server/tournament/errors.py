"""The tournament layer's one exception type."""

from __future__ import annotations


class TournamentError(Exception):
    """An operation the tournament cannot do now, with text the director or server can act on.

    ``table 3 is in a hand: seating changes wait for it to end``.
    """
