"""What goes out to many: broadcasts to a table and to everyone, ``your_turn``, player status.

A message is encoded once and stamped per connection. Hole cards go only to the seat that
holds them (``events.visible_to``); everything else at a table goes to its players and to
the spectators and directors watching it (``watching.py``). The tournament's news is
planned and sent by ``news.py``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

import trio

import protocol.errors as E
import protocol.messages as m
from poker import events as ev
from poker.actions import LegalActions
from poker.cards import Card
from poker.hand import Hand
from poker.views import HandView, view_for
from protocol.codec import encode, sendable
from server import herald, outbound
from server.clients import Client
from server.house import House, Turn
from server.snapshots import snapshot_for
from server.watching import watchers_of

log = logging.getLogger("hickory.server")


def table_clients(h: House, table_id: int) -> list[Client]:
    """Everyone who hears what happens at a table: its players (those on their way to it
    too: their snapshot shows the hand in play), then its watchers."""
    out = players_at(h, table_id)
    if h.viewers:
        out += watchers_of(h, table_id)
    return out


def players_at(h: House, table_id: int) -> list[Client]:
    """The connections of a table's players, then of those on their way to it. Plain
    loops: asked twice per decision (the broadcast, and ``send_turn``)."""
    t = h.tournament
    table = t.tables.get(table_id)
    if table is None:
        return []
    players = h.players
    out: list[Client] = []
    for p in table.seats.values():
        c = players[p.player_id].client
        if c is not None:
            out.append(c)
    if t.seating.incoming:
        for player_id, _ in t.arrivals(table_id):
            c = players[player_id].client
            if c is not None:
                out.append(c)
    return out


def broadcast(h: House, msg: m.ServerMessage, clients: Iterable[Client] | None = None, *,
              bodies: dict[int, bytes | None] | None = None) -> int:
    """Encode once per protocol version, stamp per connection; the bytes sent (for pacing).
    A connection whose version lacks the message does not get it. ``bodies`` keeps the
    encodings across calls (the herald and paced pushes send one message in parts).

    To everyone (``clients`` None): at once in a small room; in a large one the herald sends
    it, a few dozen receivers per loop step (a bust used to queue a line per connection in
    the table's step), and 0 is returned."""
    if clients is None:
        receivers = [c for c in h.clients if c.role]
        if len(receivers) > herald.PER_STEP and h.herald.running:
            h.herald.announce(msg, receivers)
            return 0
        clients = receivers
    if bodies is None:
        bodies = {}
    sent = 0
    for c in clients:
        if not c.role:
            continue
        if c.version not in bodies:
            bodies[c.version] = encode(msg, c.version) if sendable(msg, c.version) else None
        body = bodies[c.version]
        if body is not None:
            c.send_body(body)
            sent += len(body)
    return sent


def reply_error(client: Client, code: str, message: str, request_id: int | None = None,
                path: str | None = None) -> None:
    client.send_nowait(m.Error(id=request_id, code=code, message=message, path=path, fatal=code in E.FATAL_CODES))


def announce_all(h: House, text: str, *, by: str = "director", reason: str | None = None) -> None:
    broadcast(h, m.Announcement(text=text, by=by, reason=reason))


def broadcast_hand_events(h: House, table_id: int, hand: Hand, events: Sequence[ev.Event]) -> None:
    for w in h.watchers:
        w.hand_events(table_id, hand, events)
    clients = table_clients(h, table_id)
    if not clients:
        return
    table = h.tournament.tables.get(table_id)
    # Seated at this table (not on the way to it), for the hole cards: made at the deal, the
    # one event that needs it, not for every action.
    seat_of: dict[Client, int | None] = {}
    public: list[HandView] = []  # the hand as a spectator sees it, made when first needed

    def shown(seat: int) -> tuple[Card, ...] | None:
        if not public:
            public.append(view_for(hand, None))
        return public[0].seat(seat).cards

    for e in events:
        if isinstance(e, ev.PotAwarded) and e.index == 0 and hand.result is not None \
                and not hand.result.showdown:
            # Won by folds: version 2 has the pots of the last round, as after calls.
            awards = [a for a in events if isinstance(a, ev.PotAwarded)]
            broadcast(h, outbound.pots_after_folds(table_id, hand.hand_no, awards, _carried_in(hand)),
                      [c for c in clients if c.version >= 2])
        msg = outbound.hand_event(table_id, hand.hand_no, e, shown, hand.board)
        if msg is None:
            continue
        if isinstance(e, ev.HoleCardsDealt):
            if not seat_of:
                seated = {p.player_id: s for s, p in table.seats.items()} if table else {}
                seat_of = {c: seated.get(c.player_id) if c.player_id else None for c in clients}
            for c in clients:
                if ev.visible_to(e, seat_of[c]):
                    c.send_nowait(msg)
        else:
            broadcast(h, msg, clients)
    if hand.is_over:
        h.lobby_dirty = True


def _carried_in(hand: Hand) -> int:
    """The odd chips the hand started with (the hand zeroes its own count when it settles)."""
    first = hand.events[0]
    return first.carried_in if isinstance(first, ev.HandStarted) else 0


def send_your_turn(h: House, table_id: int, hand: Hand, turn: Turn, legal: LegalActions | None = None) -> None:
    """The legal actions and the time left, to the player to act (if connected).
    ``legal``: the hand's legal actions when the caller has just asked for them."""
    ps = h.players[turn.player_id]
    if ps.client is None:
        return
    if legal is None:
        legal = hand.legal_actions()
        assert legal is not None
    left, bank = turn.left_ms(trio.current_time())
    ps.client.send_nowait(outbound.your_turn(
        table=table_id, hand_no=hand.hand_no, seat=turn.seat, legal=outbound.legal(legal),
        deadline_ms=left, time_bank_ms=bank, seq=None,
    ))


def send_turn(h: House, table_id: int, hand: Hand, turn: Turn) -> None:
    """Whose turn it is and their clocks, to everyone at the table (version 2 only): when
    the turn starts, and again when the action clock has run out and the bank starts.
    Nothing is built when nobody there speaks version 2 (a table of version 1 bots: it
    was a few per cent of the server's time per decision)."""
    clients = [c for c in table_clients(h, table_id) if c.version >= 2]
    if not clients:
        return
    left, bank = turn.left_ms(trio.current_time())
    broadcast(h, m.Turn(table=table_id, hand_no=hand.hand_no, seat=turn.seat,
                        player_id=int(turn.player_id), deadline_ms=left, time_bank_ms=bank),
              clients)


def player_status(h: House, player_id: str, status: str) -> None:
    """A player's status to their table (and the lobby, on its next push)."""
    for w in h.watchers:
        w.player_status(player_id, status)
    loc = h.locate(player_id)
    msg = m.PlayerStatus(
        player_id=int(player_id), name=h.players[player_id].name,
        table=loc.table_id if loc else None, seat=loc.seat if loc else None,
        status=status,  # type: ignore[arg-type]
    )
    if loc is not None:
        broadcast(h, msg, table_clients(h, loc.table_id))
    h.lobby_dirty = True


def send_snapshot(h: House, player_id: str) -> None:
    """A player's table as it is now, if they are connected and seated."""
    ps = h.players[player_id]
    if ps.client is None:
        return
    loc = h.locate(player_id)
    if loc is not None and loc.table_id in h.tournament.tables:
        ps.client.send_nowait(snapshot_for(h, ps.client, loc.table_id))


SNAPSHOTS_PER_STEP = 50


async def send_snapshots(h: House, player_ids: Sequence[str]) -> None:
    """``send_snapshot`` for many players, a few dozen per loop step: at the start a
    thousand snapshots built in one step held every other task for about 80 ms."""
    for i, player_id in enumerate(player_ids):
        if i and i % SNAPSHOTS_PER_STEP == 0:
            await trio.lowlevel.checkpoint()
        send_snapshot(h, player_id)
