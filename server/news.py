"""The tournament's news (moves, eliminations, breaks, announcements, the end) to who it
concerns: planned, then carried out.

``plan_tournament_news`` reads the house and the batch of events and returns the steps, in
order: which message goes to which connections, and what the house is to change (a
player's table hint, who watches what, a table to wake, the lobby changed, the end). It
sends nothing and changes nothing, so a test reads a plan without a connection.
``carry_out`` does the steps in their order; ``tournament_events`` is the two together,
after the house's watchers have heard the news.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

import protocol.messages as m
from server.clients import Client
from server.fairness import reveal_messages
from server.fanout import broadcast, players_at, send_snapshot
from server.house import WAKE, House
from server.reentry import offer
from server.snapshots import final_result, snapshot_for, standings_message
from server.tournament import events as tev
from server.watching import Watching, followed_table, watch_table, watched_when_out

log = logging.getLogger("hickory.server")


# -- the steps of a plan --------------------------------------------------------------------

@attrs.frozen
class Broadcast:
    """One message, encoded once per version, to these connections (those without a role
    yet are skipped), or to the whole room (None: through the herald when it is large)."""

    msg: m.ServerMessage
    to: tuple[Client, ...] | None


@attrs.frozen
class Send:
    """A message built for one connection: its snapshot, the standings, an offer."""

    to: Client
    msg: m.ServerMessage


@attrs.frozen
class OwnSnapshots:
    """Each of these players gets a snapshot of the table they sit at: at once, or paced
    by the caller (the start seats everyone in one batch)."""

    player_ids: tuple[str, ...]


@attrs.frozen
class SeenAt:
    """The player was just seated or moved there (``House.seen_at``, the hint ``locate``
    tries first)."""

    player_id: str
    table_id: int


@attrs.frozen
class OutAt:
    """The player went out at this table (``PlayerState.last_table``: they watch it when
    they come back)."""

    player_id: str
    table_id: int | None


@attrs.frozen
class Watch:
    """The connection watches this table from now on (``watching.watch_table``)."""

    client: Client
    table_id: int | None


@attrs.frozen
class WakeTable:
    """The table's task looks at its table again (it broke: the task ends)."""

    table_id: int


@attrs.frozen
class LobbyChanged:
    """What the lobby and the standings show changed (one per event, as ever)."""


@attrs.frozen
class Finished:
    """The tournament is over: the server's run may end."""

    reason: str


Step = Broadcast | Send | OwnSnapshots | SeenAt | OutAt | Watch | WakeTable | LobbyChanged | Finished


# -- the planner ----------------------------------------------------------------------------

def plan_tournament_news(h: House, events: Sequence[object]) -> list[Step]:
    """The steps that tell the tournament's news to who it concerns, in the order they are
    to be done.

    It reads the house as it is after the tournament took the events in: the tournament
    (tables, seats, players on their way, table ids, standings, whether it is over), the
    players (names, connections, bots, re-entry offers), the connections' roles and
    versions, ``House.viewers`` and each one's ``watching``, which tables have a task (and
    their turn clocks, for the snapshots), the fair deck's reveal, and the Trio clock (the
    snapshots' clocks). It changes nothing but ``locate``'s hint cache (the same answers
    either way). The watching changes it plans (a player out watches their table; the
    watchers of a broken table follow most of its players) are seen by the later steps of
    the same plan, as they were when each change was made in turn.

    Each moved or newly seated player then gets a snapshot of their table
    (``OwnSnapshots``), after the snapshots of the tables where a seat changed."""
    return _Plan(h, events).steps


class _Plan:
    def __init__(self, h: House, events: Sequence[object]) -> None:
        self.h = h
        self.t = h.tournament
        self.steps: list[Step] = []
        self.watching = Watching(h)
        self.resnap: set[str] = set()  # players to send a snapshot of where they end up
        self.reseated: set[int] = set()  # a seat changed outside a hand: everyone there gets it anew
        self.arrived: set[int] = set()  # a player moved to it: version 1 and 2 connections get it anew
        self.out: list[str] = []  # players out in this batch: told their place once all are placed
        self.broken: dict[int, Counter[int]] = {}  # a table broken -> the tables its players went to
        # At the start everyone is seated at once and gets their own snapshot, paced
        # (``OwnSnapshots``); later a seat taken is news to the whole table.
        self.starting = any(isinstance(e, tev.TournamentStarted) for e in events)
        for e in events:
            planner = _BY_EVENT.get(type(e))
            if planner is not None:
                planner(self, e)
            self.steps.append(LobbyChanged())
        self.resolve()

    def audience(self, table_id: int) -> list[Client]:
        """``fanout.table_clients`` as the plan has it: its players, then its watchers."""
        return players_at(self.h, table_id) + self.watching.watchers_of(table_id)

    def watch(self, client: Client, table_id: int | None) -> None:
        self.watching.watch(client, table_id)
        self.steps.append(Watch(client, table_id))

    def send(self, msg: m.ServerMessage, to: Iterable[Client] | None) -> None:
        self.steps.append(Broadcast(msg, None if to is None else tuple(to)))

    # -- one method per kind of event ---------------------------------------------------

    def moved(self, e: tev.PlayerMoved) -> None:
        ps = self.h.players[e.player_id]
        msg = m.PlayerMoved(player_id=int(e.player_id), name=ps.name, from_table=e.from_table,
                            from_seat=e.from_seat, table=e.to_table, seat=e.to_seat, stack=e.stack)
        targets = set(self.audience(e.from_table)) | set(self.audience(e.to_table))
        if ps.client is not None:
            targets.add(ps.client)
        self.send(msg, targets)
        self.resnap.add(e.player_id)
        self.steps.append(SeenAt(e.player_id, e.to_table))
        if e.from_table == e.to_table:
            self.reseated.add(e.to_table)
        else:  # versions 1 and 2 are not told the stack the player brings
            self.arrived.add(e.to_table)
        if e.from_table in self.broken:
            self.broken[e.from_table][e.to_table] += 1

    def seated(self, e: tev.PlayerSeated) -> None:
        self.resnap.add(e.player_id)
        self.steps.append(SeenAt(e.player_id, e.table_id))
        if not self.starting:  # a late entrant, or an arrival sitting down: the table sees them
            self.reseated.add(e.table_id)

    def registered(self, e: tev.PlayerRegistered) -> None:
        loc = self.h.locate(e.player_id)
        if loc is not None:  # a late entrant, seated (or on the way: the table is in a hand)
            self.reseated.add(loc.table_id)

    def corrected(self, e: tev.ChipsCorrected) -> None:
        for player_id in (e.player_id, e.counterpart):
            loc = self.h.locate(player_id) if player_id is not None else None
            if loc is not None:  # a stack changed outside a hand: the table sees it
                self.reseated.add(loc.table_id)

    def eliminated(self, e: tev.PlayerEliminated) -> None:
        ps = self.h.players[e.player_id]
        status = "removed" if e.removed else "eliminated"
        self.send(m.PlayerStatus(player_id=int(e.player_id), name=ps.name, table=e.table_id,
                                 seat=None, status=status), None)  # type: ignore[arg-type]
        self.steps.append(OutAt(e.player_id, e.table_id))
        if ps.client is not None:
            self.watch(ps.client, watched_when_out(self.t, e.table_id, breaking=True))
        self.out.append(e.player_id)

    def table_broken(self, e: tev.TableBroken) -> None:
        if e.table_id in self.h.runners:
            self.steps.append(WakeTable(e.table_id))
        self.broken[e.table_id] = Counter()
        self.send(m.TableBroken(table=e.table_id, tables=tuple(self.t.table_ids())),
                  self.watching.watchers_of(e.table_id))

    def director_action(self, e: tev.DirectorAction) -> None:
        if e.action not in ("announce", "rule"):  # these are sent by their own events
            self.send(m.Announcement(text=e.summary, by="director", reason=e.reason), None)

    def break_news(self, e: tev.BreakStarted | tev.BreakEnded) -> None:
        text = break_text(e)
        if text is not None:
            self.send(m.Announcement(text=text, by="server", reason=None), None)

    def ruling(self, e: tev.RulingMade) -> None:
        """To the table the ruling concerns (everyone without one) and every director; a
        version-1 connection, which has no ruling message, reads it as an announcement."""
        h = self.h
        to = self.audience(e.table_id) if e.table_id is not None else list(h.clients)
        to += [c for c in h.clients if c.role == "director" and c not in to]
        about = f" (call #{e.call_id})" if e.call_id is not None else ""
        self.send(m.Ruling(call_id=e.call_id, table=e.table_id, decision=e.decision),
                  [c for c in to if c.version >= 2])
        self.send(m.Announcement(text=f"Ruling{about}: {e.decision}", by="director", reason=None),
                  [c for c in to if c.version < 2])

    def hand_voided(self, e: tev.HandVoided) -> None:
        for c in self.audience(e.table_id):  # the hand is gone: the table as it is now
            self.steps.append(Send(c, snapshot_for(self.h, c, e.table_id)))

    def announcement(self, e: tev.Announcement) -> None:
        players = self.h.players
        to = None if not e.to else [c for p in e.to if (c := players[p].client) is not None]
        self.send(m.Announcement(text=e.text, by="director" if e.from_director else "server",
                                 reason=e.reason), to)

    def floor_called(self, e: tev.FloorCalled) -> None:
        self.send(director_called(self.h, e), [c for c in self.h.clients if c.role == "director"])

    def finished(self, e: tev.TournamentFinished) -> None:
        # The server seeds (docs/fairness.md): no card can be hidden any more.
        for reveal in reveal_messages(self.h.fair):
            self.send(reveal, None)
        self.send(final_result(self.h, e.standings), None)
        self.steps.append(Finished(str(e.reason)))

    # -- once the whole batch is known ----------------------------------------------------

    def resolve(self) -> None:
        """Moves are resolved after the whole batch: a table may break right after it
        received a player, so only the final seat counts."""
        h, t, steps = self.h, self.t, self.steps
        for table_id in self.reseated:
            if table_id in t.tables:
                for c in self.audience(table_id):
                    steps.append(Send(c, snapshot_for(h, c, table_id)))
        for table_id in self.arrived - self.reseated:
            if table_id in t.tables:
                for c in self.audience(table_id):
                    if c.version < 3 and c.player_id not in self.resnap:
                        steps.append(Send(c, snapshot_for(h, c, table_id)))
        pending = [p for p in self.resnap if (loc := h.locate(p)) is None or loc.table_id not in self.reseated]
        if pending:
            steps.append(OwnSnapshots(tuple(pending)))
        # Who watched a broken table follows most of its players (version 2 was told why).
        for table_id, went in self.broken.items():
            follow = followed_table(went, t.table_ids())
            for c in self.watching.watchers_of(table_id):
                self.watch(c, follow)
                if follow is not None:
                    steps.append(Send(c, snapshot_for(h, c, follow)))
        if self.out and not t.finished:
            standings = standings_message(h)
            for player_id in self.out:
                client = h.players[player_id].client
                if client is not None:
                    steps.append(Send(client, standings))
            for player_id in self.out:  # re-entry, where the director allows it (issue 27)
                ps = h.players.get(player_id)
                if ps is None or ps.client is None or ps.is_bot:
                    continue
                msg = offer(h, player_id)
                if msg is not None:
                    steps.append(Send(ps.client, msg))


_BY_EVENT: dict[type, Callable[[_Plan, Any], None]] = {
    tev.PlayerMoved: _Plan.moved,
    tev.PlayerSeated: _Plan.seated,
    tev.PlayerRegistered: _Plan.registered,
    tev.ChipsCorrected: _Plan.corrected,
    tev.PlayerEliminated: _Plan.eliminated,
    tev.TableBroken: _Plan.table_broken,
    tev.DirectorAction: _Plan.director_action,
    tev.BreakStarted: _Plan.break_news,
    tev.BreakEnded: _Plan.break_news,
    tev.RulingMade: _Plan.ruling,
    tev.HandVoided: _Plan.hand_voided,
    tev.Announcement: _Plan.announcement,
    tev.FloorCalled: _Plan.floor_called,
    tev.TournamentFinished: _Plan.finished,
}


# -- the words and messages of the news -----------------------------------------------------

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


def director_called(h: House, e: tev.FloorCalled) -> m.DirectorCalled:
    return m.DirectorCalled(player_id=int(e.player_id), name=h.players[e.player_id].name,
                            table=e.table_id, seat=e.seat, message=e.message,
                            call_id=e.call_id, hand_no=e.hand_no)


# -- carrying a plan out --------------------------------------------------------------------

def carry_out(h: House, steps: Iterable[Step], *, defer_snapshots: list[str] | None = None) -> None:
    """Do the steps in their order. ``OwnSnapshots`` are sent at once, or with
    ``defer_snapshots`` their players are added there instead, for ``send_snapshots``."""
    for step in steps:
        match step:
            case Broadcast(msg=msg, to=to):
                broadcast(h, msg, to)
            case Send(to=client, msg=msg):
                client.send_nowait(msg)
            case OwnSnapshots(player_ids=player_ids):
                if defer_snapshots is not None:
                    defer_snapshots.extend(player_ids)
                else:
                    for player_id in player_ids:
                        send_snapshot(h, player_id)
            case SeenAt(player_id=player_id, table_id=table_id):
                h.seen_at(player_id, table_id)
            case OutAt(player_id=player_id, table_id=table_id):
                h.players[player_id].last_table = table_id
            case Watch(client=client, table_id=table_id):
                watch_table(h, client, table_id)
            case WakeTable(table_id=table_id):
                runner = h.runners.get(table_id)
                if runner is not None:
                    runner.post_nowait(WAKE)
            case LobbyChanged():
                h.lobby_dirty = True
            case Finished(reason=reason):
                log.info("tournament finished: %s", reason)
                h.finished.set()


def tournament_events(h: House, events: Iterable[object], *,
                      defer_snapshots: list[str] | None = None) -> None:
    """The tournament's news to who it concerns: the house's watchers hear it first, then
    it is planned and carried out. With ``defer_snapshots`` the players owed a snapshot of
    their table are added there, for ``fanout.send_snapshots`` (the start paces them)."""
    batch = list(events)
    for w in h.watchers:
        w.tournament_events(batch)
    carry_out(h, plan_tournament_news(h, batch), defer_snapshots=defer_snapshots)
