"""Who a connection is: join, resume, spectate, director login; session tokens; drops.

A player's seat belongs to the session token, not to a connection: a new connection with
the token takes the seat over (the old one is told why and closed), and a dropped one
keeps the seat while its clock runs.
"""

from __future__ import annotations

import hmac
import logging
import secrets

import trio

import protocol.errors as E
import protocol.messages as m
from protocol.errors import ProtocolError
from server.clients import Client, PlayerState, token_hash
from server.director_key import matches
from server.fanout import director_called, player_status, send_your_turn, tournament_events, watch
from server.house import House
from server.snapshots import lobby_message, send_result_if_over, shared_lobby, snapshot_for
from server.store import Record
from server.tournament.events import FloorCalled
from server.tournament.tournament import Phase

log = logging.getLogger("hickory.server")


async def handshake(h: House, client: Client, msg: m.Handshake) -> None:
    """The first request of a connection: the version is checked by the caller."""
    client.version = msg.version
    if isinstance(msg, m.Join):
        await _join(h, client, msg)
    elif isinstance(msg, m.Resume):
        await _resume(h, client, msg)
    elif isinstance(msg, m.Spectate):
        await _spectate(h, client, msg)
    else:
        await _director_login(h, client, msg)


async def _join(h: House, client: Client, msg: m.Join) -> None:
    t = h.tournament
    if h.config.password is not None and not hmac.compare_digest(
        (msg.password or "").encode(), h.config.password.encode()
    ):
        raise ProtocolError(E.WRONG_PASSWORD, "wrong password for this tournament")
    taken = h.by_name.get(msg.name.casefold())
    if taken is not None and msg.token is not None and \
            hmac.compare_digest(h.players[taken].token_hash, token_hash(msg.token)):
        # The same client again: its join was stored but the welcome was lost (a crash, a
        # cut line). It proves itself with the token it chose, and resumes its seat.
        await _resume(h, client, m.Resume(id=msg.id, version=msg.version, token=msg.token))
        return
    if not t.registration_open():  # before the name: a new name would not help
        late = "" if t.late_until is None else f" (late registration closed at the end of level {t.late_until})"
        raise ProtocolError(E.INVALID_STATE, f"registration is closed: the tournament has started{late}")
    if taken is not None:
        raise ProtocolError(
            E.NAME_TAKEN,
            f"the name {msg.name!r} is taken; pick another, or resume with your session token",
        )
    if len(h.players) >= h.config.max_players:
        raise ProtocolError(E.SERVER_FULL, "the tournament is full")
    token = msg.token if msg.token is not None else secrets.token_urlsafe(24)
    h.joins_in_flight += 1  # the start waits until this player has the lobby (welcome, lobby, snapshot)
    try:
        player_id = await register(h, msg.name, token)
        ps = h.players[player_id]
        _attach(client, ps)
        loc = h.locate(player_id)  # a late entry has a seat already
        client.send(m.Welcome(id=msg.id, version=msg.version, role="player", player_id=int(player_id),
                              name=ps.name, token=token, table=loc.table_id if loc else None,
                              seat=loc.seat if loc else None))
        lobby = await shared_lobby(h)  # one build for all the joins of this moment
        client.send_body(lobby.body(client.version))
    finally:
        h.joins_in_flight -= 1
    loc = h.locate(player_id)  # where the player is now (a move may have come meanwhile)
    if loc is not None and loc.table_id in t.tables:
        client.send(snapshot_for(h, client, loc.table_id))
    h.lobby_dirty = True


async def _resume(h: House, client: Client, msg: m.Resume) -> None:
    t = h.tournament
    await h.journal.settled()  # then no await until the snapshot is sent
    player_id = by_token(h, msg.token)
    if player_id is None:
        raise ProtocolError(E.BAD_TOKEN, "unknown session token; join with a new name instead")
    ps = h.players[player_id]
    old = ps.client
    # Taking over from a live connection: the seat never went away, so nobody is told.
    replaced = old is not None and old is not client
    if old is not None and replaced:
        old.send(m.ServerGoodbye(reason="replaced by a new connection with your token", code="replaced"))
        old.player_id = None
        old.role = ""
        h.clients.discard(old)
        h.viewers.discard(old)
        # Close after the goodbye is out (a bare close lets the handler cancel the
        # writer first, and the old client never learns why it was cut off).
        if h.nursery is not None:
            h.nursery.start_soon(old.conn.flush_and_close, "replaced by a new connection")
        else:
            old.conn.close("replaced by a new connection")
    _attach(client, ps)
    loc = h.locate(player_id)
    client.send(m.Welcome(id=msg.id, version=msg.version, role="player", player_id=int(player_id),
                          name=ps.name, token=None, table=loc.table_id if loc else None,
                          seat=loc.seat if loc else None))
    client.send(lobby_message(h))
    for text in h.restart_notices:
        client.send(m.Announcement(text=text, by="server", reason=None))
    if loc is None and t.phase is not Phase.REGISTERING and not t.finished:
        watch(h, client, ps.last_table)  # out of the tournament: they watch on
        if client.watching is not None:
            client.send(snapshot_for(h, client, client.watching))
    if loc is not None and loc.table_id in t.tables:
        if not replaced:
            player_status(h, player_id, "reconnected")
        client.send(snapshot_for(h, client, loc.table_id))
        runner = h.runners.get(loc.table_id)
        hand = t.table(loc.table_id).hand
        if runner is not None and runner.turn is not None and runner.turn.player_id == player_id \
                and hand is not None and not hand.is_over:
            send_your_turn(h, loc.table_id, hand, runner.turn)
    send_result_if_over(h, client)
    log.info("%s resumed on %r", ps.name, client.conn)


async def _spectate(h: House, client: Client, msg: m.Spectate) -> None:
    t = h.tournament
    await h.journal.settled()
    client.role = "spectator"
    h.viewers.add(client)
    ids = t.table_ids()
    client.watching = msg.table if msg.table in t.tables else (ids[0] if ids else None)
    client.send(m.Welcome(id=msg.id, version=msg.version, role="spectator", player_id=None, name=None,
                          token=None, table=client.watching, seat=None))
    client.send(lobby_message(h))
    if client.watching is not None:
        client.send(snapshot_for(h, client, client.watching))
    send_result_if_over(h, client)


async def _director_login(h: House, client: Client, msg: m.DirectorLogin) -> None:
    if not matches(msg.secret, h.director_secret_hash):
        await trio.sleep(0.5)  # slow down guessing
        raise ProtocolError(E.WRONG_PASSWORD, "wrong director secret")
    client.role = "director"
    h.viewers.add(client)
    ids = h.tournament.table_ids()
    client.watching = ids[0] if ids else None
    client.send(m.Welcome(id=msg.id, version=msg.version, role="director", player_id=None, name=None,
                          token=None, table=client.watching, seat=None))
    client.send(lobby_message(h))
    for call in h.tournament.floor.open.values():  # the queue of calls waiting for a ruling
        client.send(director_called(h, FloorCalled(
            at=call.at, player_id=call.player_id, table_id=call.table_id, seat=call.seat,
            message=call.message, call_id=call.call_id, hand_no=call.hand_no)))
    send_result_if_over(h, client)


def _attach(client: Client, ps: PlayerState) -> None:
    client.role = "player"
    client.player_id = ps.player_id
    ps.client = client


def by_token(h: House, token: str) -> str | None:
    """The player whose session this token opens.

    Looked up by the token's SHA-256 (a dict, not a scan of every player: a thousand
    players resuming after a restart made a million comparisons); what the lookup's timing
    could reveal is about the hash of a guess, not about any player's token."""
    player_id = h.by_token_hash.get(token_hash(token))
    return player_id


async def register(h: House, name: str, token: str, *, is_bot: bool = False) -> str:
    """A new entrant: registered in the tournament, stored (token hashed), then announced."""
    player_id = str(len(h.players) + 1)
    digest = token_hash(token)
    events = h.tournament.register(player_id, name)
    h.players[player_id] = PlayerState(player_id=player_id, name=name, token_hash=digest,
                                       bank=h.config.time_bank, is_bot=is_bot)
    h.by_name[name.casefold()] = player_id
    h.by_token_hash[digest] = player_id
    records = h.journal.input("register", {"player_id": player_id, "name": name})
    if h.store is not None:
        records.append(Record(
            sql="INSERT INTO players (player_id, name, token_hash, registered_seq) VALUES (?, ?, ?, ?)",
            params=(player_id, name, digest, len(h.players)),
        ))
    await h.journal.commit(records)
    log.info("%s joined as player %s", name, player_id)
    tournament_events(h, events)
    return player_id


def detach(h: House, client: Client) -> None:
    """A connection ended: its player keeps the seat; the drop is announced after the grace."""
    if client.player_id is None:
        return
    ps = h.players.get(client.player_id)
    if ps is not None and ps.client is client:
        ps.client = None
        log.info("%s disconnected (%s)", ps.name, client.conn.close_reason)
        grace = h.tournament.settings.reconnect_grace
        if grace <= 0 or h.nursery is None:
            player_status(h, ps.player_id, "disconnected")
        else:
            # A dropped connection that comes back within the grace is not announced;
            # the player's clock runs either way, so a drop never stalls the table.
            h.nursery.start_soon(_announce_if_still_away, h, ps, grace)


async def _announce_if_still_away(h: House, ps: PlayerState, grace: float) -> None:
    await trio.sleep(grace)
    if ps.client is None:
        player_status(h, ps.player_id, "disconnected")
