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
from protocol import names
from protocol.errors import ProtocolError
from server.clients import Client, PlayerState, token_hash
from server.director_key import matches
from server.fanout import player_status, send_your_turn
from server.house import House
from server.news import director_called, tournament_events
from server.ratelimit import seconds_text
from server.snapshots import (
    lobby_picture,
    send_picture,
    send_result_if_over,
    shared_lobby,
    snapshot_for,
)
from server.tournament.events import FloorCalled
from server.tournament.tournament import Phase
from server.watching import forget, watch, watch_table

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
    if client.role:
        h.pending.pop(client, None)  # no longer the first to make room for a newcomer


async def _join(h: House, client: Client, msg: m.Join) -> None:
    t = h.tournament
    try:
        name: str | None = names.normalize(msg.name)
        refused: str | None = None
    except names.NameRefused as exc:
        name, refused = None, exc.message
    taken = h.by_name.get(names.key(name)) if name is not None else None
    if taken is not None and msg.token is not None and \
            hmac.compare_digest(h.players[taken].token_hash, token_hash(msg.token)):
        # The same client again: its join was stored but the welcome was lost (a crash, a
        # cut line). It proves itself with the token it chose, and resumes its seat.
        await _resume(h, client, m.Resume(id=msg.id, version=msg.version, token=msg.token))
        return
    # The state before the password: after the start, or when full, a password is never
    # checked, so guessing it then tells nothing.
    if not t.registration_open():  # before the name: a new name would not help
        late = "" if t.late_until is None else f" (late registration closed at the end of level {t.late_until})"
        raise ProtocolError(E.INVALID_STATE, f"registration is closed: the tournament has started{late}")
    if len(h.players) >= h.config.max_players:
        raise ProtocolError(E.INVALID_STATE, f"the tournament is full: {h.config.max_players} players have joined")
    if h.config.password is not None:
        _may_guess(h, client)
        if not hmac.compare_digest((msg.password or "").encode(), h.config.password.encode()):
            _failed(h, client, "wrong password")
            raise ProtocolError(E.WRONG_PASSWORD, "wrong password for this tournament")
        h.doorman.succeeded(client.host, trio.current_time())
    if name is None:
        raise ProtocolError(E.INVALID_FIELD, refused or "not a name", "join.name")
    if taken is not None:
        raise ProtocolError(
            E.NAME_TAKEN,
            f"the name {name!r} is taken (names are compared ignoring case, spaces, punctuation "
            "and look-alike letters); pick another, or resume with your session token",
        )
    wait, why = h.doorman.join_wait(client.host, trio.current_time())
    if wait > 0:
        raise ProtocolError(E.RATE_LIMITED, f"{why}; try again in {seconds_text(wait)}")
    token = msg.token if msg.token is not None else secrets.token_urlsafe(24)
    h.joins_in_flight += 1  # the start waits until this player has the lobby (welcome, lobby, snapshot)
    try:
        player_id = await register(h, name, token)
        ps = h.players[player_id]
        _attach(h, client, ps)
        loc = h.locate(player_id)  # a late entry has a seat already
        client.send_nowait(m.Welcome(id=msg.id, version=msg.version, role="player", player_id=int(player_id),
                              name=ps.name, token=token, table=loc.table_id if loc else None,
                              seat=loc.seat if loc else None))
        lobby = await shared_lobby(h)  # one build for all the joins of this moment
        client.send_body(lobby.body(client.version))
    finally:
        h.joins_in_flight -= 1
    loc = h.locate(player_id)  # where the player is now (a move may have come meanwhile)
    if loc is not None and loc.table_id in t.tables:
        client.send_nowait(snapshot_for(h, client, loc.table_id))
    h.lobby_dirty = True


async def _resume(h: House, client: Client, msg: m.Resume) -> None:
    t = h.tournament
    _may_guess(h, client)
    await h.journal.settled()  # then no await until the snapshot is sent
    player_id = by_token(h, msg.token)
    if player_id is None:
        _failed(h, client, "unknown session token")
        raise ProtocolError(E.BAD_TOKEN, "unknown session token; join with a new name instead")
    h.doorman.succeeded(client.host, trio.current_time())
    ps = h.players[player_id]
    old = ps.client
    # Taking over from a live connection: the seat never went away, so nobody is told.
    replaced = old is not None and old is not client
    if old is not None and replaced:
        old.send_nowait(m.ServerGoodbye(reason="replaced by a new connection with your token", code="replaced"))
        old.player_id = None
        old.role = ""
        h.clients.discard(old)
        forget(h, old)
        # Close after the goodbye is out (a bare close lets the handler cancel the
        # writer first, and the old client never learns why it was cut off).
        if h.nursery is not None:
            h.nursery.start_soon(old.conn.flush_and_close, "replaced by a new connection")
        else:
            old.conn.close("replaced by a new connection")
    _attach(h, client, ps)
    loc = h.locate(player_id)
    client.send_nowait(m.Welcome(id=msg.id, version=msg.version, role="player", player_id=int(player_id),
                          name=ps.name, token=None, table=loc.table_id if loc else None,
                          seat=loc.seat if loc else None))
    send_picture(client, lobby_picture(h))
    for text in h.restart_notices:
        client.send_nowait(m.Announcement(text=text, by="server", reason=None))
    if loc is None and t.phase is not Phase.REGISTERING and not t.finished:
        watch(h, client, ps.last_table)  # out of the tournament: they watch on
        if client.watching is not None:
            client.send_nowait(snapshot_for(h, client, client.watching))
    if loc is not None and loc.table_id in t.tables:
        if not replaced:
            player_status(h, player_id, "reconnected")
        client.send_nowait(snapshot_for(h, client, loc.table_id))
        runner = h.runners.get(loc.table_id)
        hand = t.table(loc.table_id).hand
        if runner is not None and runner.turn is not None and runner.turn.player_id == player_id \
                and hand is not None and not hand.is_over:
            send_your_turn(h, loc.table_id, hand, runner.turn)
    send_result_if_over(h, client)
    log.info("%s resumed on %r", ps.name, client.conn)


async def _spectate(h: House, client: Client, msg: m.Spectate) -> None:
    t = h.tournament
    watchers = len(h.viewers)
    if watchers >= h.spectator_room():
        raise ProtocolError(
            E.SERVER_FULL,
            f"no room for another spectator ({watchers} are watching; the other connections are "
            "kept for the players); try again later",
        )
    ids = t.table_ids()
    watching = msg.table if msg.table in t.tables else (ids[0] if ids else None)
    if watching is not None and not h.table_has_room(watching):
        if msg.table is not None:
            raise ProtocolError(E.SERVER_FULL, f"table {watching} has all the spectators it takes "
                                               f"({h.config.max_spectators_per_table}); watch another, or the lobby")
        watching = None  # no table asked for: the lobby
    await h.journal.settled()
    client.role = "spectator"
    watch_table(h, client, watching)
    client.send_nowait(m.Welcome(id=msg.id, version=msg.version, role="spectator", player_id=None, name=None,
                          token=None, table=client.watching, seat=None))
    send_picture(client, lobby_picture(h))
    if client.watching is not None:
        client.send_nowait(snapshot_for(h, client, client.watching))
    send_result_if_over(h, client)


async def _director_login(h: House, client: Client, msg: m.DirectorLogin) -> None:
    _may_guess(h, client)
    if not matches(msg.secret, h.director_secret_hash):
        _failed(h, client, "wrong director secret")
        raise ProtocolError(E.WRONG_PASSWORD, "wrong director secret")
    h.doorman.succeeded(client.host, trio.current_time())
    log.info("director logged in from %s", client.conn.peer)
    client.role = "director"
    ids = h.tournament.table_ids()
    watch_table(h, client, ids[0] if ids else None)
    client.send_nowait(m.Welcome(id=msg.id, version=msg.version, role="director", player_id=None, name=None,
                          token=None, table=client.watching, seat=None))
    send_picture(client, lobby_picture(h))
    for call in h.tournament.floor.open.values():  # the queue of calls waiting for a ruling
        client.send_nowait(director_called(h, FloorCalled(
            at=call.at, player_id=call.player_id, table_id=call.table_id, seat=call.seat,
            message=call.message, call_id=call.call_id, hand_no=call.hand_no)))
    send_result_if_over(h, client)


def _may_guess(h: House, client: Client) -> None:
    """Before a password, secret or token is checked: refused while the address (or the
    whole server) has had too many wrong ones, without looking at what was sent."""
    wait, why = h.doorman.guess_wait(client.host, trio.current_time())
    if wait > 0:
        raise ProtocolError(E.RATE_LIMITED, f"{why}; try again in {seconds_text(wait)}")


def _failed(h: House, client: Client, what: str) -> None:
    """A wrong password, secret or token: logged with the address, and counted."""
    locked = h.doorman.failed(client.host, trio.current_time())
    log.warning("%s from %s", what, client.conn.peer)
    if locked:
        a = h.doorman.at(client.host, trio.current_time())
        log.warning("%s is locked out of passwords, secrets and tokens for %s after repeated failures",
                    client.host, seconds_text(a.locked_until - trio.current_time()))


def _attach(h: House, client: Client, ps: PlayerState) -> None:
    client.role = "player"
    client.player_id = ps.player_id
    ps.client = client
    release_address_count(h, client)  # a seated player's connection is kept for them


def release_address_count(h: House, client: Client) -> None:
    """The connection no longer counts against its address's room (it became a player's,
    or it closed)."""
    if client.counted_at_address:
        client.counted_at_address = False
        h.doorman.at(client.host, trio.current_time()).guests -= 1


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
    h.by_name[names.key(name)] = player_id
    h.lobby_dirty = True
    h.by_token_hash[digest] = player_id
    records = h.journal.input("register", {"player_id": player_id, "name": name})
    records += h.journal.player_registered(player_id, name, digest, len(h.players))
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
