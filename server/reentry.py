"""Re-entry (issue 27 part 2): the offer to a player who is out, and their request.

The tournament decides who may enter again (``Tournament.why_no_reentry``: during late
registration, up to the director's entries per player and level). The offer goes to the
player the moment they are out (``news.plan_tournament_news``); their client keeps it
until they answer or the offer closes (a refusal says why). The request (``seat_requests.reenter``) is a logged
input (``reenter``, replayed by ``recovery.py``) applied before it is stored, like a
registration; the player then sits down as a late entry. This module imports no fan-out,
so the fan-out can send the offer.
"""

from __future__ import annotations

import protocol.messages as m
from server.house import House


def offer(h: House, player_id: str) -> m.ReentryOffer | None:
    """What a player who is out is offered now, or None when they may not re-enter."""
    t = h.tournament
    if t.why_no_reentry(player_id) is not None:
        return None
    s = t.settings
    return m.ReentryOffer(stack=s.starting_stack, entry=t.entries_of(player_id) + 1,
                          max_entries=s.max_entries, until_level=s.reentry_until)
