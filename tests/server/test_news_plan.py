"""The tournament's news, planned without a connection (``server/news.py``).

A house with a real tournament (no server, no socket, no Trio run): the director's
operations make the events, ``plan_tournament_news`` says who gets what, and the tests
read the plan. Every connection's wire here records lines, so a test can see that the
planner sent nothing and that carrying the plan out did.
"""

from __future__ import annotations

from typing import Any, cast

import protocol.messages as m
from server.clients import Client, PlayerState
from server.connection import Connection
from server.house import House
from server.news import (
    Broadcast,
    LobbyChanged,
    OutAt,
    OwnSnapshots,
    Send,
    Step,
    WakeTable,
    Watch,
    carry_out,
    plan_tournament_news,
)
from server.tournament import events as tev
from server.tournament.inputs import apply_director
from tests.server.harness import config


class Wire:
    """A connection's far end: the lines it was sent."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []

    def send_nowait(self, line: bytes) -> None:
        self.lines.append(line)


def house(players: int, seats: int) -> House:
    """``players`` registered and seated (no hand dealt yet), none connected."""
    h = House(config(seats=seats), seed=1)
    for i in range(1, players + 1):
        player_id = str(i)
        h.tournament.register(player_id, f"p{i}")
        h.players[player_id] = PlayerState(player_id=player_id, name=f"p{i}", token_hash=f"h{i}", bank=30.0)
    h.tournament.start(0.0)
    return h


def connect(h: House, player_id: str | None = None, *, version: int = 3, watching: int | None = None) -> Client:
    """A player's connection, or (no player) a spectator watching ``watching``."""
    c = Client(conn=cast(Connection, Wire()), role="player" if player_id else "spectator",
               player_id=player_id, version=version, watching=watching)
    h.clients.add(c)
    if player_id is not None:
        h.players[player_id].client = c
    else:
        h.viewers.add(c)
    return c


def lines(c: Client) -> list[bytes]:
    return cast(Wire, c.conn).lines


def director(h: House, op: str, **fields: Any) -> list[object]:
    return list(apply_director(h.tournament, {"op": op, "now": 0.0, "reason": "test", **fields}))


def seated_at(h: House, table_id: int) -> list[str]:
    return sorted(p.player_id for p in h.tournament.tables[table_id].seats.values())


def snapshots_of(plan: list[Step], table_id: int) -> list[Client]:
    return [s.to for s in plan if isinstance(s, Send) and isinstance(s.msg, m.TableSnapshot)
            and s.msg.table == table_id]


def broadcasts(plan: list[Step], kind: type) -> list[Broadcast]:
    return [s for s in plan if isinstance(s, Broadcast) and isinstance(s.msg, kind)]


def test_a_broken_tables_watchers_follow_most_of_its_players_not_the_first_table() -> None:
    h = house(12, seats=5)  # three tables of four
    everyone = {pid: connect(h, pid) for pid in h.players}
    director(h, "remove_player", player_id=seated_at(h, 2)[0])
    spectator = connect(h, watching=3)
    leaving = seated_at(h, 3)[0]
    events = director(h, "remove_player", player_id=leaving)  # ten left: table 3 breaks
    went = [e.to_table for e in events if isinstance(e, tev.PlayerMoved)]
    assert sorted(went) == [1, 2, 2]  # most of its players went to table 2, not the first

    plan = plan_tournament_news(h, events)

    out = everyone[leaving]  # removed at table 3: they watch it, then follow it
    assert Watch(out, 3) in plan
    (broken,) = broadcasts(plan, m.TableBroken)
    assert set(broken.to or ()) == {spectator, out}
    assert plan.index(Watch(out, 3)) < plan.index(broken)
    assert Watch(spectator, 2) in plan and Watch(out, 2) in plan
    assert spectator in snapshots_of(plan, 2) and out in snapshots_of(plan, 2)
    assert spectator not in snapshots_of(plan, 1)
    assert WakeTable(3) not in plan  # no task ran the table here

    assert spectator.watching == 3 and out not in h.viewers  # planning changed nothing
    assert all(not lines(c) for c in h.clients)
    carry_out(h, plan)
    assert spectator.watching == 2 and out.watching == 2 and out in h.viewers
    assert lines(spectator) and lines(out)


def test_a_player_out_watches_their_table_and_is_told_their_place() -> None:
    h = house(12, seats=5)
    player_id = seated_at(h, 2)[0]
    c = connect(h, player_id)
    events = director(h, "remove_player", player_id=player_id)  # no table breaks

    plan = plan_tournament_news(h, events)

    (status,) = broadcasts(plan, m.PlayerStatus)
    assert status.to is None and status.msg == m.PlayerStatus(
        player_id=int(player_id), name=f"p{player_id}", table=2, seat=None, status="removed")
    assert plan.index(status) < plan.index(OutAt(player_id, 2)) < plan.index(Watch(c, 2))
    standings = [s for s in plan if isinstance(s, Send) and isinstance(s.msg, m.Standings)]
    assert [s.to for s in standings] == [c]
    assert plan.count(LobbyChanged()) == len(events)

    assert c.watching is None and c not in h.viewers and h.players[player_id].last_table is None
    carry_out(h, plan)
    assert c.watching == 2 and c in h.viewers and h.players[player_id].last_table == 2


def test_a_late_entrant_gets_their_table_anew_for_everyone_there() -> None:
    h = house(6, seats=4)  # two tables of three
    director(h, "late_registration", until_level=3)
    events = list(h.tournament.register("7", "p7"))
    h.players["7"] = PlayerState(player_id="7", name="p7", token_hash="h7", bank=30.0)
    loc = h.locate("7")
    assert loc is not None
    there = {pid: connect(h, pid, version=1 + int(pid) % 3) for pid in [*seated_at(h, loc.table_id)]}
    spectator = connect(h, watching=loc.table_id)
    elsewhere = connect(h, seated_at(h, 3 - loc.table_id)[0])

    plan = plan_tournament_news(h, events)

    assert set(snapshots_of(plan, loc.table_id)) == {*there.values(), spectator}
    assert len(snapshots_of(plan, loc.table_id)) == len(there) + 1
    assert elsewhere not in snapshots_of(plan, 3 - loc.table_id)
    assert not [s for s in plan if isinstance(s, OwnSnapshots)]  # their table's snapshot is theirs


def test_players_at_the_table_a_player_moved_to_get_it_anew_on_versions_1_and_2() -> None:
    h = house(9, seats=5)  # tables of five and four
    big, small = sorted(h.tournament.tables, key=lambda tid: -len(seated_at(h, tid)))
    mover = seated_at(h, big)[0]
    old = {pid: connect(h, pid, version=v) for pid, v in zip(seated_at(h, small), (1, 2, 3, 3), strict=True)}
    moving = connect(h, mover, version=1)
    events = director(h, "move_player", player_id=mover, table=small)  # five and four again
    assert [(e.from_table, e.to_table) for e in events if isinstance(e, tev.PlayerMoved)] == [(big, small)]

    plan = plan_tournament_news(h, events)

    (moved,) = broadcasts(plan, m.PlayerMoved)
    assert set(moved.to or ()) == {*old.values(), moving}
    assert set(snapshots_of(plan, small)) == {c for c in old.values() if c.version < 3}
    assert OwnSnapshots((mover,)) in plan
    deferred: list[str] = []
    carry_out(h, plan, defer_snapshots=deferred)
    assert deferred == [mover]
    assert all(lines(c) for c in old.values())
