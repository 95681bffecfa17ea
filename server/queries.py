"""Requests that only read: the lobby, the standings, a table's snapshot, hand history.

History reads the database on a worker thread (a reader connection of its own), so a
long history never stalls a table. Each kind of request has a budget per connection
(``spend``); the lobby and the standings are encoded once per change and reused.
"""

from __future__ import annotations

import json

import attrs
import trio

import protocol.errors as E
import protocol.messages as m
from protocol.codec import encode, sendable
from protocol.errors import ProtocolError
from protocol.framing import MAX_SERVER_LINE
from server.clients import Client
from server.house import House
from server.ratelimit import TokenBucket, seconds_text
from server.records import event_from_json, hand_record
from server.snapshots import lobby_picture, send_picture, snapshot_for, standings_picture
from server.watching import watch_table

HISTORY_MAX = 20
BURST = 5
"""Requests of one kind a connection may make at once; then at its ``*_per_minute`` pace."""


def spend(h: House, client: Client, kind: str) -> None:
    """One request of ``kind`` from ``client``, or ``rate_limited`` saying when to ask again.

    Each connection has a budget per kind (``lobby_per_minute`` and the like in the
    config, ``BURST`` at once): honest clients ask for these a few times a minute, and
    a connection asking back to back must not take the server's time from the tables.
    """
    bucket = client.buckets.get(kind)
    per_minute = getattr(h.config, f"{kind}_per_minute")
    if bucket is None:
        bucket = client.buckets[kind] = TokenBucket(rate=per_minute / 60.0, burst=min(BURST, max(1.0, per_minute)))
    wait = bucket.take(trio.current_time())
    if wait > 0:
        what = kind.replace("_", " ")
        raise ProtocolError(E.RATE_LIMITED, f"too many {what} requests (at most {per_minute:g} a minute); "
                                            f"try again in {seconds_text(wait)}")


async def lobby(h: House, client: Client, msg: m.LobbyRequest) -> None:
    spend(h, client, "lobby")
    send_picture(client, lobby_picture(h), msg.id)


async def standings(h: House, client: Client, msg: m.StandingsRequest) -> None:
    spend(h, client, "standings")
    send_picture(client, standings_picture(h), msg.id)


async def snapshot(h: House, client: Client, msg: m.SnapshotRequest) -> None:
    spend(h, client, "snapshot")
    await h.journal.settled()
    table_id = msg.table or h.client_table(client)
    if table_id is None or table_id not in h.tournament.tables:
        raise ProtocolError(E.NOT_FOUND, "no such table" if table_id else "you are not at a table")
    seated = client.player_id is not None and h.locate(client.player_id) is not None
    if seated and table_id != h.client_table(client):
        raise ProtocolError(E.UNAUTHORIZED, "players can see only their own table")
    if not seated and client.role != "director" and table_id != client.watching and not h.table_has_room(table_id):
        raise ProtocolError(E.SERVER_FULL, f"table {table_id} has all the spectators it takes "
                                           f"({h.config.max_spectators_per_table}); watch another")
    if not seated:  # spectators, the director, and players who are out: they watch it now
        watch_table(h, client, table_id)
    client.send_nowait(snapshot_for(h, client, table_id, msg.id))


async def history(h: House, client: Client, msg: m.HistoryRequest) -> None:
    spend(h, client, "history")
    reply = await _history(h, client, msg)
    if msg.hand_no is not None and not reply.hands:
        kept = "" if h.store is not None else " (this server keeps no history: it runs without a database)"
        raise ProtocolError(E.NOT_FOUND, f"there is no finished hand #{msg.hand_no} in the history{kept}")
    if not sendable(reply, client.version):
        return
    body = encode(reply, client.version)
    # Never a line over the maximum: fewer hands (the oldest go first), each whole.
    while len(body) > MAX_SERVER_LINE - 32 and reply.hands:
        reply = attrs.evolve(reply, hands=reply.hands[1:])
        body = encode(reply, client.version)
    client.send_body(body)


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
