"""Requests that only read: the lobby, the standings, a table's snapshot, hand history.

History reads the database on a worker thread (a reader connection of its own), so a
long history never stalls a table.
"""

from __future__ import annotations

import json

import trio

import protocol.errors as E
import protocol.messages as m
from protocol.errors import ProtocolError
from server.clients import Client
from server.house import House
from server.records import event_from_json, hand_record
from server.snapshots import lobby_message, snapshot_for, standings_message

HISTORY_MAX = 20


async def lobby(h: House, client: Client, msg: m.LobbyRequest) -> None:
    client.send(lobby_message(h, msg.id))


async def standings(h: House, client: Client, msg: m.StandingsRequest) -> None:
    client.send(standings_message(h, msg.id))


async def snapshot(h: House, client: Client, msg: m.SnapshotRequest) -> None:
    await h.journal.settled()
    table_id = msg.table or h.client_table(client)
    if table_id is None or table_id not in h.tournament.tables:
        raise ProtocolError(E.NOT_FOUND, "no such table" if table_id else "you are not at a table")
    seated = client.player_id is not None and h.locate(client.player_id) is not None
    if seated and table_id != h.client_table(client):
        raise ProtocolError(E.UNAUTHORIZED, "players can see only their own table")
    if not seated:  # spectators, the director, and players who are out: they watch it now
        client.watching = table_id
        h.viewers.add(client)
    client.send(snapshot_for(h, client, table_id, msg.id))


async def history(h: House, client: Client, msg: m.HistoryRequest) -> None:
    reply = await _history(h, client, msg)
    if msg.hand_no is not None and not reply.hands:
        kept = "" if h.store is not None else " (this server keeps no history: it runs without a database)"
        raise ProtocolError(E.NOT_FOUND, f"there is no finished hand #{msg.hand_no} in the history{kept}")
    client.send(reply)


async def _history(h: House, client: Client, msg: m.HistoryRequest) -> m.History:
    if h.store is None:
        return m.History(id=msg.id, hands=())
    table_id = msg.table if msg.table is not None else h.client_table(client)
    last = min(msg.last or 1, HISTORY_MAX)
    store = h.store

    def query() -> list[tuple[int, int, int, str, list[str]]]:
        conn = store.reader()
        try:
            if msg.hand_no is not None:
                rows = conn.execute(
                    "SELECT hand_no, table_id, level, seats FROM hands WHERE hand_no=? AND status='finished'",
                    (msg.hand_no,)).fetchall()
            elif table_id is not None:
                rows = conn.execute(
                    "SELECT hand_no, table_id, level, seats FROM hands WHERE table_id=? AND status='finished' "
                    "ORDER BY hand_no DESC LIMIT ?", (table_id, last)).fetchall()
            else:
                rows = conn.execute(
                    "SELECT hand_no, table_id, level, seats FROM hands WHERE status='finished' "
                    "ORDER BY hand_no DESC LIMIT ?", (last,)).fetchall()
            out = []
            for hand_no, tid, level, seats in rows:
                evs = [r[0] for r in conn.execute(
                    "SELECT event FROM hand_events WHERE hand_no=? ORDER BY idx", (hand_no,))]
                out.append((hand_no, tid, level, seats, evs))
            return out
        finally:
            conn.close()

    rows = await trio.to_thread.run_sync(query)
    hands = []
    for hand_no, tid, level, seats, evs in sorted(rows):
        players = {int(s): (p[0], p[1]) for s, p in json.loads(seats).items()}
        hands.append(hand_record(table=tid, hand_no=hand_no, level=level - 1,  # stored from 1
                                 events=[event_from_json(e) for e in evs],
                                 players=players, viewer=client.player_id))
    return m.History(id=msg.id, hands=tuple(hands))
