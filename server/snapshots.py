"""Whole pictures built for one client: the lobby, a table's snapshot, the standings.

A snapshot is what a client starts from (on arrival, after a move, after a gap in
``seq``); events then keep it current. Each is built from the engine's views, never from
the hand itself, so a picture cannot show a card its receiver may not see.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import trio

import protocol.messages as m
from poker.events import HandStarted as HandStartedEvent
from poker.views import view_for
from protocol.codec import encode, sendable
from server import outbound
from server.clients import Client
from server.fairness import reveal_messages, speaks_fairness
from server.house import House
from server.tournament.floor import trophies
from server.tournament.standings import Standing
from server.tournament.tournament import Location, Phase


def carried_chips(h: House) -> int:
    """Odd chips at the tables in no player's chips: the lobby and the standings count a
    player in a hand with the stack they started it with, so a hand's carried-in chips
    count here until the hand is ended."""
    total = 0
    for table in h.tournament.tables.values():
        total += table.carry
        first = table.hand.events[0] if table.hand is not None else None
        if isinstance(first, HandStartedEvent):
            total += first.carried_in
    return total


ODD_CHIP_RULE = "carried pot by pot into the next hand at the table (docs/rules.md)"
"""The rulebook's odd-chip rule, fixed for every tournament (the rules part shows it)."""
RULE_CHANGES_SHOWN = 10


def _rule_wall(h: House, version: int) -> str:
    h.note_rule_times(None)  # a change made by no director command (none so far): its time now
    return h.rule_walls[version - 2]


def rules_part(h: House) -> m.Rules:
    """The rules in force, with their version and the latest changes (protocol v2)."""
    t = h.tournament
    s = t.settings
    return m.Rules(
        rules_version=t.rules_version, ruleset=s.ruleset.value,
        seats_per_table=s.seats_per_table,
        level_unit="hands" if s.by_hands else "minutes",
        level_length=s.hands_per_level if s.hands_per_level is not None else max(1, round(s.level_minutes)),
        action_seconds=round(s.action_clock), time_bank_seconds=round(s.time_bank),
        reconnect_grace_seconds=round(s.reconnect_grace),
        deadline=None if h.deadline_wall is None else h.deadline_wall.isoformat(timespec="seconds"),
        odd_chip=ODD_CHIP_RULE,
        breaks=tuple(m.ScheduledBreak(after_level=n, minutes=minutes, taken=n in t.breaks_taken)
                     for n, minutes in s.breaks),
        changes=tuple(m.RuleChange(rules_version=c.version, at=_rule_wall(h, c.version), what=c.what[:2000],
                                   reason=c.reason)
                      for c in t.rule_changes[-RULE_CHANGES_SHOWN:]),
        big_blind_ante=s.big_blind_ante,
        max_entries=s.max_entries, reentry_until_level=s.reentry_until,
        tv_table=s.tv_table, tv_delay_seconds=round(s.tv_delay),
    )


def lobby_message(h: House, request_id: int | None = None) -> m.Lobby:
    t = h.tournament
    now = h.now()
    level = None
    next_in = None
    unit = "hands" if t.settings.by_hands else "seconds"
    if t.phase is not Phase.REGISTERING:
        info = t.level_info(now)
        level = m.Level(index=info.level - 1, small_blind=info.small_blind, big_blind=info.big_blind,
                        ante=info.ante)
        left = info.hands_left if info.hands_left is not None else info.seconds_left
        next_in = None if left is None else max(0, int(math.ceil(left)))
    players = []
    started = t.phase is not Phase.REGISTERING
    still_in = set(t.players_in()) if started else set()
    # One pass over the tables, not t.location / t.stack_of per player (each scans
    # every table), nor t.standings() (ranks by chips in quadratic time): a
    # 1,000-player lobby took ~0.3 s and stalled every table meanwhile.
    seated = {p.player_id: (Location(table_id=tid, seat=seat, on_the_way=False), p.stack)
              for tid in t.table_ids() for seat, p in t.table(tid).seats.items()}
    starting = t.settings.starting_stack
    known = h.lobby_entries
    for player_id in t.registered:
        ps = h.players[player_id]
        eliminated = started and player_id not in still_in
        loc, stack = seated.get(player_id, (None, 0))
        if loc is None and started and not eliminated:
            loc = t.location(player_id)  # on the way to a table (rare)
            stack = t.stack_of(player_id) if loc is not None else 0
        if eliminated:
            status = "eliminated"
        elif loc is None:
            status = "waiting"
        elif ps.client is None and not ps.is_bot:
            status = "disconnected"
        elif ps.sitting_out:
            status = "sitting_out"
        else:
            status = "playing"
        chips = stack if loc is not None else (0 if started else starting)
        table_no, seat_no = (loc.table_id, loc.seat) if loc else (None, None)
        # Most entries are as they were last time: reuse them (a 1,000-player lobby is
        # rebuilt on every change).
        shown = (ps.name, chips, table_no, seat_no, status)
        entry = known.get(player_id)
        if entry is None or entry[0] != shown:
            entry = known[player_id] = (shown, m.LobbyPlayer(
                player_id=int(player_id), name=ps.name, chips=chips, table=table_no, seat=seat_no,
                status=status,  # type: ignore[arg-type]
            ))
        players.append(entry[1])
    tables = [
        m.LobbyTable(table=tid, players=tuple(int(p.player_id) for _, p in sorted(table.seats.items())),
                     hand_no=table.hand.hand_no if table.hand is not None else table.last_hand_no)
        for tid in t.table_ids() for table in (t.table(tid),)
    ]
    schedule = tuple(m.ScheduleLevel(small_blind=sb, big_blind=bb,
                                     minutes=None if t.settings.by_hands else int(t.settings.level_minutes),
                                     hands=t.settings.hands_per_level, ante=t.settings.ante(i))
                     for i, (sb, bb) in enumerate(t.settings.schedule))
    return m.Lobby(
        id=request_id, name=t.settings.name, state=t.state,  # type: ignore[arg-type]
        level=level, next_level_in=next_in, next_level_unit=unit,  # type: ignore[arg-type]
        schedule=schedule, players=tuple(players), tables=tuple(tables),
        deadline=None if h.deadline_wall is None else h.deadline_wall.isoformat(timespec="seconds"),
        late_until_level=t.late_until if started and t.registration_open() else None,
        carried=carried_chips(h), start_players=h.config.start_at,
        rules=rules_part(h), **break_fields(h, now),
        entries=t.entries_made() if started else len(t.registered),
    )


def break_fields(h: House, now: float) -> dict[str, Any]:
    """The lobby's break fields: the level it follows, when play resumes, seconds left."""
    t = h.tournament
    left = t.break_left(now)
    if left is None or t.on_break is None:
        return {}
    until = h.wall_clock() + dt.timedelta(seconds=left)
    return {"break_after_level": t.on_break.after_level, "break_until": until.isoformat(timespec="seconds"),
            "break_seconds_left": max(0, int(math.ceil(left)))}


SHARE_FROM = 64  # registered players from which joins wait a moment to share one lobby
SHARE_WINDOW = 0.01  # that moment (seconds)


class LobbyShare:
    """One lobby built for every join of the same moment (``shared_lobby``), encoded once
    per protocol version."""

    def __init__(self) -> None:
        self.done = trio.Event()
        self.lobby: m.Lobby | None = None
        self.bodies: dict[int, bytes] = {}

    def body(self, version: int) -> bytes:
        assert self.lobby is not None
        if version not in self.bodies:
            self.bodies[version] = encode(self.lobby, version)
        return self.bodies[version]


async def shared_lobby(h: House) -> LobbyShare:
    """The lobby, shared by every caller of the same scheduler pass (``.body(version)``).

    Each join used to build and encode the whole lobby for its own reply: work
    proportional to everyone registered, so a thousand joins cost a million lobby entries
    and the allocations kept the garbage collector busy (reader steps of 30-80 ms at a
    thousand players). The first caller waits one checkpoint, so the other joins handled
    in the same pass register too, then builds once for all of them: each still gets a
    lobby that lists everyone registered before it, itself included. From ``SHARE_FROM``
    players on (when a build costs a millisecond or more) it waits ``SHARE_WINDOW`` for the
    joins arriving meanwhile, so a burst of joins costs a build per window, not per join.
    """
    share: LobbyShare | None = h.lobby_share
    if share is None:
        share = h.lobby_share = LobbyShare()
        try:
            if len(h.players) >= SHARE_FROM:
                await trio.sleep(SHARE_WINDOW)
            else:
                await trio.lowlevel.cancel_shielded_checkpoint()
        finally:
            h.lobby_share = None
            share.lobby = lobby_message(h)
            share.done.set()
    else:
        await share.done.wait()
    return share


@attrs.define(eq=False)
class Picture:
    """A message as it stands now (``id`` null), and its encodings per protocol version,
    made when first asked for: the lobby and the standings are encoded once per change,
    whoever asks and however often."""

    key: object
    msg: m.ServerMessage
    bodies: dict[int, bytes | None] = attrs.Factory(dict)

    def body(self, version: int, request_id: int | None = None) -> bytes | None:
        """The line for a connection of ``version`` (None if that version lacks the
        message), as the reply to request ``request_id``."""
        if version not in self.bodies:
            self.bodies[version] = encode(self.msg, version) if sendable(self.msg, version) else None
        body = self.bodies[version]
        return body if body is None or request_id is None else _with_id(body, request_id)


def lobby_picture(h: House) -> Picture:
    """The lobby, built once per change and reused until the next (a 1,000-player lobby is
    milliseconds of work to build and encode, so asking for it must not build it each time).

    It is keyed by ``lobby_generation`` (every change the lobby shows bumps it: stacks as
    of the last hand's end, seats, statuses) and by the few fields that move with the clock
    alone (the level and the time to the next).
    """
    t = h.tournament
    clock: object = None
    if t.phase is not Phase.REGISTERING:
        info = t.level_info(h.now())
        left = info.hands_left if info.hands_left is not None else info.seconds_left
        clock = (info.level, None if left is None else max(0, int(math.ceil(left))))
    left = t.break_left(h.now())
    key = (h.lobby_generation, t.state, clock, h.deadline_wall, t.registration_open(), t.rules_version,
           None if left is None else int(math.ceil(left)))
    return _cached(h, "lobby", key, lambda: lobby_message(h))


def standings_picture(h: House) -> Picture:
    """The standings, rebuilt only when something they show changed (ranking every player
    costs more than sending the result)."""
    key = (h.lobby_generation, h.tournament.finished)
    return _cached(h, "standings", key, lambda: standings_message(h))


def _cached(h: House, name: str, key: object, build: Callable[[], m.ServerMessage]) -> Picture:
    hit: Picture | None = h.pictures.get(name)
    if hit is not None and hit.key == key:
        return hit
    picture = h.pictures[name] = Picture(key=key, msg=build())
    return picture


def _with_id(body: bytes, request_id: int) -> bytes:
    """An encoded reply (encoded with ``id`` null) as the reply to request ``request_id``:
    ``id`` is the first field after ``type``, so it is spliced in at once."""
    head = body.index(b',"id":null') if body.startswith(b'{"type":"') else -1
    if head < 0 or head > 40:
        raise ValueError("not an encoded reply with a null id")
    return b'%b,"id":%d%b' % (body[:head], request_id, body[head + 10:])


def send_picture(client: Client, picture: Picture, request_id: int | None = None) -> None:
    body = picture.body(client.version, request_id)
    if body is not None:
        client.send_body(body)


def snapshot_for(h: House, client: Client, table_id: int, request_id: int | None = None) -> m.TableSnapshot:
    """The table as ``client`` may see it. Players on their way to the table (it was in a
    hand when they were moved) are shown in their seats, out of the hand."""
    t = h.tournament
    table = t.table(table_id)
    arriving = dict((seat, pid) for pid, seat in t.arrivals(table_id))
    your_seat = None
    if client.player_id is not None:
        loc = h.locate(client.player_id)
        if loc is not None and loc.table_id == table_id:
            your_seat = loc.seat
    hand = table.hand
    view = view_for(hand, your_seat if hand is not None and your_seat in hand.seats else None) if hand is not None else None

    def info(seat: int) -> tuple[str, str, bool, bool]:
        player_id = table.seats[seat].player_id if seat in table.seats else arriving[seat]
        ps = h.players[player_id]
        return player_id, ps.name, ps.sitting_out, ps.client is not None or ps.is_bot

    seated = {s: p.stack for s, p in table.seats.items()}
    for seat, player_id in arriving.items():
        seated[seat] = t.stack_of(player_id)
    clocks = None
    runner = h.runners.get(table_id)
    turn = runner.turn if runner is not None else None
    if turn is not None and hand is not None and hand.to_act == turn.seat:
        clocks = turn.left_ms(trio.current_time())
    sb, bb = t.blinds
    return outbound.snapshot(
        table=table_id, max_seats=table.seat_count, view=view,
        seated=seated, info=info,
        small_blind=sb, big_blind=bb, carry=table.carry, button=table.button,
        your_seat=your_seat, request_id=request_id, last_hand_no=table.last_hand_no,
        clocks=clocks, ante=t.ante,
    )


def standings_message(h: House, request_id: int | None = None) -> m.Standings:
    t = h.tournament
    return m.Standings(id=request_id, places=outbound.places(t.standings()), final=t.finished,
                       carried=carried_chips(h))


def final_result(h: House, standings: Sequence[Standing]) -> m.TournamentFinished:
    """The final places and the night's trophies."""
    t = h.tournament
    return m.TournamentFinished(
        name=t.settings.name, places=outbound.places(standings),
        trophies=tuple(m.Trophy(title=tr.title, player_id=int(tr.player_id), name=t.name_of(tr.player_id),
                                by_rule=tr.by_rule)
                       for tr in trophies(standings, t.floor.awarded)),
    )


def send_result_if_over(h: House, client: Client) -> None:
    """Late arrivals after the end get the result too (the server stays up for them)."""
    result = h.tournament.result
    if result is not None:
        if speaks_fairness(client):
            for reveal in reveal_messages(h.fair):
                client.send_nowait(reveal)
        client.send_nowait(final_result(h, result.standings))
