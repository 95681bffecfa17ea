"""What a seated player asks of their table: act, sit out, come back, call the floor.

Actions are not checked here: they go to the table's task, which alone knows the hand
(``tables.py``). A full inbox refuses the request instead of blocking the reader.
"""

from __future__ import annotations

import protocol.errors as E
import protocol.messages as m
from protocol.errors import ProtocolError
from server.clients import Client
from server.fanout import set_sitting_out, tournament_events
from server.house import House, TableCommand


async def act(h: House, client: Client, msg: m.Act) -> None:
    if client.player_id is None:
        raise ProtocolError(E.UNAUTHORIZED, "spectators and the director do not act")
    if h.tournament.finished:
        raise ProtocolError(E.TOURNAMENT_OVER, "the tournament is over")
    loc = h.locate(client.player_id)  # the table they sit at, not one they watch
    runner = h.runners.get(loc.table_id) if loc is not None else None
    if runner is None:
        raise ProtocolError(E.NOT_SEATED, "you are not seated at a table in play")
    if not runner.post(TableCommand(kind="act", player_id=client.player_id, msg=msg, client=client)):
        raise ProtocolError(E.RATE_LIMITED, "too many requests queued at your table")


async def sit_out_or_back(h: House, client: Client, msg: m.SitOut | m.ImBack) -> None:
    kind = "sit_out" if isinstance(msg, m.SitOut) else "im_back"
    if client.player_id is None:
        raise ProtocolError(E.UNAUTHORIZED, "only players sit out and come back")
    loc = h.locate(client.player_id)
    runner = h.runners.get(loc.table_id) if loc is not None else None
    if runner is None or not runner.post(TableCommand(kind=kind, player_id=client.player_id)):
        set_sitting_out(h, client.player_id, kind == "sit_out")
    if msg.id is not None:
        client.send(m.Ack(id=msg.id))


async def call_director(h: House, client: Client, msg: m.CallDirector) -> None:
    if client.player_id is None:
        raise ProtocolError(E.UNAUTHORIZED, "only players call the director")
    now = h.now()
    events = h.tournament.call_floor(now, client.player_id, msg.message)
    # The call waits in the director's queue: stored, so a restart keeps it open.
    await h.journal.commit(h.journal.input("call_floor", {
        "now": now, "player_id": client.player_id, "message": msg.message}))
    tournament_events(h, events)
    if msg.id is not None:
        client.send(m.Ack(id=msg.id))
