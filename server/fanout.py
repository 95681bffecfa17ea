"""What goes out to many: broadcasts to a table, to everyone, and the tournament's news.

A message is encoded once and stamped per connection. Hole cards go only to the seat that
holds them (``events.visible_to``); everything else at a table goes to its players and to
the spectators and directors watching it.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Sequence

import trio

import protocol.errors as E
import protocol.messages as m
from poker import events as ev
from poker.cards import Card
from poker.hand import Hand
from poker.views import HandView, view_for
from protocol.codec import encode, sendable
from server import herald, outbound
from server.clients import Client
from server.fairness import reveal_messages
from server.house import WAKE, House, Turn
from server.reentry import send_offers
from server.snapshots import final_result, snapshot_for, standings_message
from server.tournament import events as tev

log = logging.getLogger("hickory.server")


def table_clients(h: House, table_id: int) -> list[Client]:
    """Everyone who hears what happens at a table: its players (those on their way to it
    too: their snapshot shows the hand in play), then its watchers."""
    out = []
    t = h.tournament
    table = t.tables.get(table_id)
    if table is not None:
        for p in table.seats.values():
            c = h.players[p.player_id].client
            if c is not None:
                out.append(c)
        for player_id, _ in t.arrivals(table_id):
            c = h.players[player_id].client
            if c is not None:
                out.append(c)
    out += [c for c in h.viewers if c.watching == table_id]
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


def send_your_turn(h: House, table_id: int, hand: Hand, turn: Turn) -> None:
    """The legal actions and the time left, to the player to act (if connected)."""
    ps = h.players[turn.player_id]
    if ps.client is None:
        return
    legal = hand.legal_actions()
    assert legal is not None
    left, bank = turn.left_ms(trio.current_time())
    ps.client.send_nowait(m.YourTurn(
        table=table_id, hand_no=hand.hand_no, seat=turn.seat, legal=outbound.legal(legal),
        deadline_ms=left, time_bank_ms=bank,
    ))


def send_turn(h: House, table_id: int, hand: Hand, turn: Turn) -> None:
    """Whose turn it is and their clocks, to everyone at the table (version 2 only): when
    the turn starts, and again when the action clock has run out and the bank starts."""
    left, bank = turn.left_ms(trio.current_time())
    broadcast(h, m.Turn(table=table_id, hand_no=hand.hand_no, seat=turn.seat,
                        player_id=int(turn.player_id), deadline_ms=left, time_bank_ms=bank),
              table_clients(h, table_id))


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


def tournament_events(h: House, events: Iterable[object], *,
                      defer_snapshots: list[str] | None = None) -> None:
    """The tournament's news (moves, eliminations, announcements, the end) to who it concerns.

    Each moved or newly seated player then gets a snapshot of their table; with
    ``defer_snapshots`` their ids are added there instead, for ``send_snapshots``."""
    t = h.tournament
    batch = list(events)
    for w in h.watchers:
        w.tournament_events(batch)
    resnap: set[str] = set()  # players to send a snapshot of where they end up
    reseated: set[int] = set()  # tables where a seat changed outside a hand: everyone there gets it anew
    arrived: set[int] = set()  # tables a player moved to: version 1 and 2 connections get it anew
    out: list[str] = []  # players out in this batch: told their place once all are placed
    broken: dict[int, Counter[int]] = {}  # a table broken -> the tables its players went to
    # At the start everyone is seated at once and gets their own snapshot, paced
    # (``defer_snapshots``); later a seat taken is news to the whole table.
    starting = any(isinstance(e, tev.TournamentStarted) for e in batch)
    for e in batch:
        if isinstance(e, tev.PlayerMoved):
            ps = h.players[e.player_id]
            msg = m.PlayerMoved(player_id=int(e.player_id), name=ps.name, from_table=e.from_table,
                                from_seat=e.from_seat, table=e.to_table, seat=e.to_seat, stack=e.stack)
            targets = set(table_clients(h, e.from_table)) | set(table_clients(h, e.to_table))
            if ps.client is not None:
                targets.add(ps.client)
            broadcast(h, msg, targets)
            resnap.add(e.player_id)
            h.seen_at(e.player_id, e.to_table)
            if e.from_table == e.to_table:
                reseated.add(e.to_table)
            else:  # versions 1 and 2 are not told the stack the player brings
                arrived.add(e.to_table)
            if e.from_table in broken:
                broken[e.from_table][e.to_table] += 1
        elif isinstance(e, tev.PlayerSeated):
            resnap.add(e.player_id)
            h.seen_at(e.player_id, e.table_id)
            if not starting:  # a late entrant, or an arrival sitting down: the table sees them
                reseated.add(e.table_id)
        elif isinstance(e, tev.PlayerRegistered):
            loc = h.locate(e.player_id)
            if loc is not None:  # a late entrant, seated (or on the way: the table is in a hand)
                reseated.add(loc.table_id)
        elif isinstance(e, tev.ChipsCorrected):
            for player_id in (e.player_id, e.counterpart):
                loc = h.locate(player_id) if player_id is not None else None
                if loc is not None:  # a stack changed outside a hand: the table sees it
                    reseated.add(loc.table_id)
        elif isinstance(e, tev.PlayerEliminated):
            ps = h.players[e.player_id]
            status = "removed" if e.removed else "eliminated"
            broadcast(h, m.PlayerStatus(player_id=int(e.player_id), name=ps.name, table=e.table_id,
                                        seat=None, status=status))  # type: ignore[arg-type]
            ps.last_table = e.table_id
            if ps.client is not None:
                watch(h, ps.client, e.table_id, breaking=True)
            out.append(e.player_id)
        elif isinstance(e, tev.TableBroken):
            runner = h.runners.get(e.table_id)
            if runner is not None:
                runner.post_nowait(WAKE)
            broken[e.table_id] = Counter()
            broadcast(h, m.TableBroken(table=e.table_id, tables=tuple(t.table_ids())),
                      [c for c in h.viewers if c.watching == e.table_id])
        elif isinstance(e, tev.DirectorAction):
            if e.action not in ("announce", "rule"):  # these are sent by their own events
                announce_all(h, e.summary, by="director", reason=e.reason)
        elif isinstance(e, (tev.BreakStarted, tev.BreakEnded)):
            text = break_text(e)
            if text is not None:
                announce_all(h, text, by="server")
        elif isinstance(e, tev.RulingMade):
            send_ruling(h, e)
        elif isinstance(e, tev.HandVoided):
            for watcher in table_clients(h, e.table_id):  # the hand is gone: the table as it is now
                watcher.send_nowait(snapshot_for(h, watcher, e.table_id))
        elif isinstance(e, tev.Announcement):
            recipients = None if not e.to else [
                c for p in e.to if (c := h.players[p].client) is not None
            ]
            broadcast(h, m.Announcement(text=e.text, by="director" if e.from_director else "server",
                                        reason=e.reason), recipients)
        elif isinstance(e, tev.FloorCalled):
            ps = h.players[e.player_id]
            broadcast(h, director_called(h, e), [c for c in h.clients if c.role == "director"])
        elif isinstance(e, tev.TournamentFinished):
            # The server seeds (docs/fairness.md): no card can be hidden any more.
            for reveal in reveal_messages(h.fair):
                broadcast(h, reveal)
            broadcast(h, final_result(h, e.standings))
            log.info("tournament finished: %s", e.reason)
            h.finished.set()
        h.lobby_dirty = True
    # Moves are resolved after the whole batch: a table may break right after it
    # received a player, so only the final seat counts.
    for table_id in reseated:
        if table_id in t.tables:
            for c in table_clients(h, table_id):
                c.send_nowait(snapshot_for(h, c, table_id))
    for table_id in arrived - reseated:
        if table_id in t.tables:
            for c in table_clients(h, table_id):
                if c.version < 3 and c.player_id not in resnap:
                    c.send_nowait(snapshot_for(h, c, table_id))
    pending = [p for p in resnap if (loc := h.locate(p)) is None or loc.table_id not in reseated]
    if defer_snapshots is not None:
        defer_snapshots.extend(pending)
    else:
        for player_id in pending:
            send_snapshot(h, player_id)
    # Who watched a broken table follows most of its players (version 2 was told why).
    for table_id, went in broken.items():
        follow = next((tid for tid, _ in went.most_common() if tid in t.tables), None)
        if follow is None and t.tables:
            follow = t.table_ids()[0]
        for c in [c for c in h.viewers if c.watching == table_id]:
            c.watching = follow
            if follow is not None:
                c.send_nowait(snapshot_for(h, c, follow))
    if out and not t.finished:
        standings = standings_message(h)
        for player_id in out:
            c = h.players[player_id].client
            if c is not None:
                c.send_nowait(standings)
        send_offers(h, out)  # re-entry, where the director allows it (issue 27)


def break_text(e: tev.BreakStarted | tev.BreakEnded) -> str | None:
    """A break's start or end in words, for everyone; None for a break the director ended
    early (their resume is announced with its reason)."""
    if isinstance(e, tev.BreakStarted):
        busy = " (hands in play finish first)" if e.tables_in_hand else ""
        return (f"Break: {e.minutes} minutes after level {e.after_level}; play resumes at level "
                f"{e.next_level}{busy}.")
    if e.early:
        return None
    if not e.resumed:
        return (f"The break after level {e.after_level} is over; the clock stays paused by the director "
                f"(level {e.level} next).")
    return f"The break is over: level {e.level} ({e.small_blind:,}/{e.big_blind:,}) starts now."


def watch(h: House, client: Client, table_id: int | None, *, breaking: bool = False) -> None:
    """A player who is out watches on: their connection gets a table's events (their last
    table's, or the first in play) until it asks for another table's snapshot.
    ``breaking``: the table may be breaking in the batch of events being sent, which then
    moves its watchers on (``tournament_events``)."""
    t = h.tournament
    if table_id is None or (table_id not in t.tables and not breaking):
        ids = t.table_ids()
        table_id = ids[0] if ids else None
    client.watching = table_id
    h.viewers.add(client)


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




def director_called(h: House, e: tev.FloorCalled) -> m.DirectorCalled:
    return m.DirectorCalled(player_id=int(e.player_id), name=h.players[e.player_id].name,
                            table=e.table_id, seat=e.seat, message=e.message,
                            call_id=e.call_id, hand_no=e.hand_no)


def send_ruling(h: House, e: tev.RulingMade) -> None:
    """To the table the ruling concerns (everyone without one) and every director; a
    version-1 connection, which has no ruling message, reads it as an announcement."""
    to = table_clients(h, e.table_id) if e.table_id is not None else list(h.clients)
    to += [c for c in h.clients if c.role == "director" and c not in to]
    ruling = m.Ruling(call_id=e.call_id, table=e.table_id, decision=e.decision)
    about = f" (call #{e.call_id})" if e.call_id is not None else ""
    note = m.Announcement(text=f"Ruling{about}: {e.decision}", by="director", reason=None)
    broadcast(h, ruling, [c for c in to if c.version >= 2])
    broadcast(h, note, [c for c in to if c.version < 2])


def wake_tables(h: House) -> None:
    """Every table waiting between hands re-checks whether it may deal (a level, a move, a
    pause changed). A table in a hand ignores wakes and checks again when its hand ends,
    so it is not woken: a hand's end used to wake every table's task, work proportional to
    the tables at each of their hands' ends (quadratic in tables per round of hands)."""
    for runner in h.runners.values():
        if runner.idle:
            runner.post_nowait(WAKE)
