"""Who watches which table: spectators, directors, and players who are out.

A connection that is not seated hears one table's events: the one in ``Client.watching``,
while it is in ``House.viewers``. Every change of either is made here: a spectator or the
director arriving, a snapshot request for another table, a player out watching on, a
re-entry taking them back to a seat, a table breaking under its watchers, the first
tables made at the start. The tournament's news plans its changes with ``Watching``, which
sees the changes a batch of news makes before they are made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from server.clients import Client
from server.house import House
from server.tournament.tournament import Tournament


def watchers_of(h: House, table_id: int) -> list[Client]:
    """The spectators, directors and players who are out watching this table."""
    return [c for c in h.viewers if c.watching == table_id]


def watch_table(h: House, client: Client, table_id: int | None) -> None:
    """``client`` watches this table from now on (None: no table, the lobby only)."""
    client.watching = table_id
    h.viewers.add(client)


def watch(h: House, client: Client, table_id: int | None) -> None:
    """A player who is out watches on: their connection gets a table's events (their last
    table's, or the first in play) until it asks for another table's snapshot."""
    watch_table(h, client, watched_when_out(h.tournament, table_id))


def watched_when_out(t: Tournament, table_id: int | None, *, breaking: bool = False) -> int | None:
    """The table a player who is out watches: the one they were at, else the first in
    play. ``breaking``: the news of their going out, whose batch may break that table;
    they watch it even so, and then follow its players (``followed_table``)."""
    if table_id is None or (table_id not in t.tables and not breaking):
        ids = t.table_ids()
        table_id = ids[0] if ids else None
    return table_id


def stop_watching(h: House, client: Client) -> None:
    """Back at a seat (a re-entry): no longer watching the table they left."""
    h.viewers.discard(client)
    client.watching = None


def forget(h: House, client: Client) -> None:
    """The connection is gone (closed, replaced, or closed to make room)."""
    h.viewers.discard(client)


def watch_first_table(h: House, first: int) -> list[Client]:
    """At the start: those who came before there were tables watch the first; they are
    returned, to be sent its snapshot."""
    came_early = [v for v in h.viewers if v.watching is None]
    for viewer in came_early:
        watch_table(h, viewer, first)
    return came_early


def followed_table(went: Counter[int], tables: Sequence[int]) -> int | None:
    """Where the watchers of a broken table go: the table most of its players went to
    (the first such table still in play), else the first table in play (``tables``, in
    order), else none."""
    follow = next((tid for tid, _ in went.most_common() if tid in tables), None)
    if follow is None and tables:
        follow = tables[0]
    return follow


class Watching:
    """Who watches what while a batch of news is planned: the house's viewers with the
    changes the plan has made so far (``watch``), which the house has not seen yet."""

    def __init__(self, h: House) -> None:
        self.house = h
        self.changed: dict[Client, int | None] = {}  # the plan's changes, newest last

    def watch(self, client: Client, table_id: int | None) -> None:
        self.changed[client] = table_id

    def watchers_of(self, table_id: int) -> list[Client]:
        viewers = self.house.viewers
        changed = self.changed
        if not changed:
            return watchers_of(self.house, table_id)
        out = [c for c in viewers if changed.get(c, c.watching) == table_id]
        out += [c for c, tid in changed.items() if tid == table_id and c not in viewers]
        return out
