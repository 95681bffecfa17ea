"""What a seated player asks of their table: act, sit out, come back, call the floor.

Actions are checked by the table's task, which alone knows the hand (``tables.py``). The
table's inbox is shared by everyone at it, so each connection gets a fair share of it: an
action for another hand, between hands, or from a player who is plainly not the one to act
is refused here, at once, without reaching the table; and a connection may have at most
``queued_per_connection`` requests waiting in the inbox (an honest client has one).
Whatever one connection floods in then costs only that connection: the others' actions
never wait behind it or get refused.
"""

from __future__ import annotations

import protocol.errors as E
import protocol.messages as m
from protocol.errors import ProtocolError
from server.clients import Client
from server.house import House, TableCommand, TableHandle, TableImBack, TableSitOut, make_table_act
from server.inputs import Logged, apply_logged
from server.news import tournament_events
from server.queries import spend
from server.refusals import why_not_yours
from server.tables import set_sitting_out, wake_idle_tables
from server.watching import stop_watching


def _runner(h: House, client: Client) -> TableHandle | None:
    """The task of the table the player sits at (not one they watch)."""
    loc = h.locate(client.player_id) if client.player_id is not None else None
    return h.runners.get(loc.table_id) if loc is not None else None


def _post(h: House, client: Client, runner: TableHandle, cmd: TableCommand) -> None:
    limit = h.config.queued_per_connection
    if runner.queued_for(client) >= limit or not runner.post_nowait(cmd):
        raise ProtocolError(E.RATE_LIMITED, f"you already have {runner.queued_for(client)} requests "
                                            "waiting at your table; wait for their replies")


async def act(h: House, client: Client, msg: m.Act) -> None:
    if client.player_id is None:
        raise ProtocolError(E.UNAUTHORIZED, "spectators and the director do not act")
    if h.tournament.finished:
        raise ProtocolError(E.TOURNAMENT_OVER, "the tournament is over")
    runner = _runner(h, client)
    if runner is None:
        raise ProtocolError(E.NOT_SEATED, "you are not seated at a table in play")
    table = h.tournament.tables.get(runner.table_id)
    if table is not None:  # (a table broken while the player was on the way: its task ends, as ever)
        # Refused here, by the reader, what the table would refuse anyway: it never sees it.
        refused = why_not_yours(msg, client.player_id, runner.table_id, table.hand, runner.turn,
                                sitting_out=h.players[client.player_id].sitting_out)
        if refused is not None:
            raise ProtocolError(refused.code, refused.message, refused.path)
    _post(h, client, runner, make_table_act(msg, client.player_id, client))


async def reenter(h: House, client: Client, msg: m.Reenter) -> None:
    """A player who is out enters again (issue 27, ``server/reentry.py``): refused with the
    tournament's reason, or applied, stored, then announced; the seat's snapshot follows."""
    if client.role != "player" or client.player_id is None:
        raise ProtocolError(E.UNAUTHORIZED, "only a player who is out may re-enter")
    player_id = client.player_id
    t = h.tournament
    reason = t.why_no_reentry(player_id)
    if reason is not None:
        raise ProtocolError(E.INVALID_STATE, reason)
    entry = Logged("reenter", None, {"player_id": player_id})
    events = apply_logged(t, h.players, entry).news
    stop_watching(h, client)  # back at a table: no longer watching the one they left
    h.lobby_dirty = True
    await h.journal.commit(h.journal.input(entry.kind, entry.payload))
    tournament_events(h, events)
    wake_idle_tables(h)
    if msg.id is not None:
        client.send_nowait(m.Ack(id=msg.id))


async def sit_out_or_back(h: House, client: Client, msg: m.SitOut | m.ImBack) -> None:
    kind = "sit_out" if isinstance(msg, m.SitOut) else "im_back"
    if client.player_id is None:
        raise ProtocolError(E.UNAUTHORIZED, "only players sit out and come back")
    if kind == "sit_out":
        # Sitting out changes what the table shows (told to everyone there, stored): it has a
        # budget. Saying "I'm back" again changes nothing, so only the read budget and the
        # inbox share bound it (clients say it again freely).
        spend(h, client, "status")
    runner = _runner(h, client)
    if runner is None:
        await set_sitting_out(h, client.player_id, kind == "sit_out")
    else:
        command = TableSitOut if kind == "sit_out" else TableImBack
        _post(h, client, runner, command(player_id=client.player_id, client=client))
    if msg.id is not None:
        client.send_nowait(m.Ack(id=msg.id))


async def call_director(h: House, client: Client, msg: m.CallDirector) -> None:
    if client.player_id is None:
        raise ProtocolError(E.UNAUTHORIZED, "only players call the director")
    spend(h, client, "status")
    call = Logged("call_floor", None, {"now": h.now(), "player_id": client.player_id, "message": msg.message})
    events = apply_logged(h.tournament, h.players, call).news
    # The call waits in the director's queue: stored, so a restart keeps it open.
    await h.journal.commit(h.journal.input(call.kind, call.payload))
    tournament_events(h, events)
    if msg.id is not None:
        client.send_nowait(m.Ack(id=msg.id))
