"""What the room's screen shows, as plain JSON-ready dicts built from the tournament.

Pure, like the tournament it reads: no trio, no socket, no clock read (``now`` is the
tournament time, passed in), so a test builds a tournament, calls these and reads the
dicts. Three pictures, one per feed of the web page (``feeds.py``):

- ``clock_state``: the big screen: level or BREAK (a scheduled break counts down to the
  end of the break), blinds, the countdown, the next level and the next break,
  players left, average stack, chips in play, the latest table moves, the director's
  announcements, PAUSED, late registration, and the final standings and trophies once it
  is over;
- ``standings_state``: every player by place;
- ``tables_state``: each table's seats, stacks and hand number.

The screen is public, so these never carry a card: per-table stacks come from the
spectator's view of a hand (``view_for(hand, None)``), of which only numbers are copied.
Tokens and the director's secret live in the House, which these functions are not given.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

from poker.views import view_for
from server.tournament.events import DirectorAction, FinalTable, PlayerMoved, TableBroken
from server.tournament.floor import trophies
from server.tournament.tournament import Phase, Tournament

STATE_VERSION = 1  # the page checks it: a page left open across an upgrade reloads itself
MOVES_KEPT = 6  # table moves on the screen, newest first
ANNOUNCEMENTS_KEPT = 3  # director's announcements on the screen, newest first
FINAL_PLACES_SHOWN = 9  # places on the big screen at the end (the standings view has all)

Json = dict[str, Any]
Presence = Callable[[str], str]  # player id -> playing, sitting_out or away


@attrs.frozen(kw_only=True)
class RoomNote:
    """One line of table news for the room: a move, a table breaking, the final table."""

    at: float  # tournament time when it happened
    kind: str  # move, table_broken, final_table
    data: Json


class RoomNews:
    """The latest table news, kept for the screen (tournament events are gone once sent).

    Fed by the server's watcher hook with the tournament's events as they happen; news
    from before a restart is not kept (the tournament keeps no record of balancing moves),
    so ``resumed`` (the tournament had started when the clock began listening) lets the
    screen say so rather than "no moves yet".
    """

    def __init__(self, keep: int = MOVES_KEPT, *, resumed: bool = False) -> None:
        self.notes: deque[RoomNote] = deque(maxlen=keep)
        self.hands: dict[int, int] = {}  # table -> the number of its latest hand
        self.resumed = resumed

    def hand(self, table_id: int, hand_no: int) -> None:
        """A table plays hand ``hand_no``: the tables view shows it between hands too."""
        self.hands[table_id] = hand_no

    def take(self, t: Tournament, now: float, events: Iterable[object]) -> None:
        for e in events:
            if isinstance(e, PlayerMoved):
                self.notes.append(RoomNote(at=now, kind="move", data={
                    "name": t.name_of(e.player_id), "from_table": e.from_table,
                    "from_seat": e.from_seat, "to_table": e.to_table, "to_seat": e.to_seat,
                    "reason": e.reason.value,
                }))
            elif isinstance(e, TableBroken):
                self.notes.append(RoomNote(at=now, kind="table_broken", data={
                    "table": e.table_id, "players": len(e.players), "tables_left": e.tables_left,
                }))
            elif isinstance(e, FinalTable):
                self.notes.append(RoomNote(at=now, kind="final_table", data={
                    "table": e.table_id, "players": len(e.players),
                }))


@attrs.frozen(kw_only=True)
class RoomContext:
    """What the server knows besides the tournament: its start rule, the deadline as a
    local time, and whether the game is halted because the database cannot be written."""

    starts: str | None = None  # "at 20:00", "when 12 have joined"
    deadline: str | None = None  # "23:45": no new hand starts after it
    halted: bool = False


def _ago(now: float, at: float) -> int:
    return max(0, int(now - at))


def _latest_announcements(t: Tournament, now: float) -> list[Json]:
    """The director's announcements to everyone, newest first (from the audit log, so they
    survive a restart); announcements to some players only are never shown."""
    out: list[Json] = []
    for record in reversed(t.audit_log):
        if record.action == "announce" and not record.concerns:
            out.append({"text": record.summary, "ago": _ago(now, record.at)})
            if len(out) == ANNOUNCEMENTS_KEPT:
                break
    return out


def _pause_record(t: Tournament) -> DirectorAction | None:
    """The director's pause in force (its reason and when), if the clock is paused."""
    for record in reversed(t.audit_log):
        if record.action == "resume":
            return None
        if record.action == "pause":
            return record
    return None


def _next_break(t: Tournament, seconds_left: float | None) -> Json:
    """The next scheduled break not yet taken: after which level, how long, and (levels by
    time) the seconds of play until it."""
    if t.phase is Phase.FINISHED:
        return {"next_break": None, "next_break_seconds": None}
    for after, minutes in t.settings.breaks:
        if after >= t.level and after not in t.breaks_taken:
            seconds = None
            if seconds_left is not None:
                seconds = round(seconds_left + (after - t.level) * t.settings.level_seconds, 1)
            return {"next_break": {"after_level": after, "minutes": minutes}, "next_break_seconds": seconds}
    return {"next_break": None, "next_break_seconds": None}


def _blinds(sb: int, bb: int, ante: int = 0) -> Json:
    """The blinds, and the big-blind ante (0: none; issue 27)."""
    return {"small_blind": sb, "big_blind": bb, "ante": ante}


def clock_state(t: Tournament, now: float, *, news: RoomNews | None = None,
                context: RoomContext = RoomContext()) -> Json:
    """The big screen's picture at tournament time ``now``."""
    s = t.settings
    info = t.level_info(now)
    phase = t.state  # registering, running, paused, finished
    pause = _pause_record(t) if t.paused else None
    paused_reason = pause.reason if pause is not None else None
    if context.halted and phase == "running":
        phase, paused_reason = "paused", "a technical problem: the director is on it"
    # A scheduled break (BREAK and its countdown), or a pause the director calls a break.
    brk = t.on_break if phase == "paused" else None
    if brk is not None:
        paused_reason = f"break after level {brk.after_level}: play resumes at level {brk.after_level + 1}"
    on_break = phase == "paused" and paused_reason is not None and "break" in paused_reason.lower()
    break_left = t.break_left(now) if brk is not None else None
    started = t.phase is not Phase.REGISTERING
    registered = len(t.registered)
    left = len(t.players_in()) if started else registered
    chips = t.chips_in_play() if started else registered * s.starting_stack
    average = float(s.starting_stack) if not started else (chips / left if left else 0.0)
    state: Json = {
        "v": STATE_VERSION,
        "name": s.name,
        "phase": phase,
        "paused_reason": paused_reason,
        "on_break": on_break,
        "level": {
            "number": info.level, **_blinds(info.small_blind, info.big_blind, info.ante),
            "by_hands": s.by_hands,
            "seconds_left": None if info.seconds_left is None else round(info.seconds_left, 1),
            "level_seconds": None if s.by_hands else s.level_seconds,
            "hands_left": info.hands_left,
            "hands_per_level": s.hands_per_level,
            "running": phase == "running",
        },
        "next_level": {"number": info.level + 1,
                       **_blinds(info.next_small_blind, info.next_big_blind, info.next_ante)},
        "break_seconds_left": None if break_left is None else round(break_left, 1),
        "break_seconds": None if brk is None else round(brk.until - brk.began, 1),
        # How long the director's pause has lasted (a "dinner break" has no end to count to).
        "paused_seconds": None if pause is None or brk is not None else round(_ago(now, pause.at), 1),
        # Tournament seconds played so far (pauses and breaks not counted).
        "elapsed_seconds": round(t.clock.elapsed(now), 1) if started else None,
        "held_tables": sorted(t.held_tables),
        **_next_break(t, info.seconds_left),
        # Entries: the players registered and their re-entries (issue 27).
        "players": {"left": left, "registered": registered,
                    "entries": t.entries_made() if started else registered},
        "tables": len(t.tables),
        "average_stack": round(average),
        "average_bb": round(average / info.big_blind, 1) if info.big_blind else None,
        "chips_in_play": chips,
        "hands": t.hands_dealt,
        "starts": context.starts if not started else None,
        # Late entries taken through this level (the director opened late registration).
        "late_until": t.late_until if started and t.registration_open() else None,
        "deadline": context.deadline,
        "deadline_passed": t.deadline_passed,
        "moves_before_restart_lost": news is not None and news.resumed,
        "moves": [] if news is None else [
            {"kind": n.kind, "ago": _ago(now, n.at), **n.data} for n in reversed(news.notes)
        ],
        "announcements": _latest_announcements(t, now),
        "final": None,
    }
    if t.result is not None:
        r = t.result
        state["final"] = {
            "reason": r.reason.value,
            "winner": t.name_of(r.winner) if r.winner is not None else None,
            "hands": r.hands,
            "places": [
                {"place": p.place, "name": p.name, "chips": p.chips, "out": p.eliminated}
                for p in r.standings[:FINAL_PLACES_SHOWN]
            ],
            "more": max(0, len(r.standings) - FINAL_PLACES_SHOWN),
            # Winner and runner-up by the standings, then the director's own titles.
            "trophies": [{"title": tr.title, "name": t.name_of(tr.player_id), "by_rule": tr.by_rule}
                         for tr in trophies(r.standings, t.floor.awarded)],
        }
    return state


def _seats(t: Tournament) -> Iterator[tuple[str, int, int]]:
    """``(player_id, table, seat)`` of everyone at a table or on the way to one."""
    for tid in t.table_ids():
        for seat, p in t.tables[tid].seats.items():
            yield p.player_id, tid, seat
        for pid, seat in t.arrivals(tid):
            yield pid, tid, seat


def standings_state(t: Tournament, now: float, *, news: RoomNews | None = None,
                    context: RoomContext = RoomContext()) -> Json:
    """Every player by place, with the clock's picture for the header."""
    where = {pid: (tid, seat) for pid, tid, seat in _seats(t)}
    places: list[Json] = []
    for p in (t.result.standings if t.result is not None else t.standings()):
        tid, seat = where.get(p.player_id, (None, None))
        places.append({"place": p.place, "name": p.name, "chips": p.chips, "out": p.eliminated,
                       "table": tid, "seat": seat})
    if t.phase is Phase.REGISTERING:
        places = [{"place": None, "name": t.name_of(pid), "chips": t.settings.starting_stack,
                   "out": False, "table": None, "seat": None} for pid in t.registered]
    return {"clock": clock_state(t, now, news=news, context=context), "standings": places}


def tables_state(t: Tournament, now: float, presence: Presence, *, news: RoomNews | None = None,
                 context: RoomContext = RoomContext()) -> Json:
    """Each table: seats with names, stacks and what they are doing; the hand number; the
    button; the pot. No cards, not even the board."""
    tables: list[Json] = []
    for tid in t.table_ids():
        table = t.tables[tid]
        hand = table.hand
        view = view_for(hand, None) if hand is not None else None
        in_hand = {sv.seat: sv for sv in view.seats} if view is not None else {}
        seats: list[Json] = []
        for seat in range(1, table.seat_count + 1):
            sp = table.seats.get(seat)
            if sp is None:
                continue
            entry: Json = {"seat": seat, "name": t.name_of(sp.player_id), "stack": sp.stack,
                           "bet": 0, "status": presence(sp.player_id), "in_hand": False,
                           "folded": False, "all_in": False, "to_act": False}
            sv = in_hand.get(seat)
            if sv is not None and view is not None:
                entry.update(stack=sv.stack, bet=sv.committed, in_hand=True, folded=sv.folded,
                             all_in=sv.all_in, to_act=view.to_act == seat and not view.over)
            seats.append(entry)
        waiting: list[Json] = [{"seat": seat, "name": t.name_of(pid), "stack": t.stack_of(pid)}
                   for pid, seat in t.arrivals(tid)]
        playing = hand is not None and not hand.is_over
        tables.append({
            "table": tid,
            "seats_total": table.seat_count,
            "hand_no": hand.hand_no if hand is not None else (news.hands.get(tid) if news else None),
            "in_hand": playing,
            "hands_played": t.hands_dealt_at(tid),
            "held": tid in t.held_tables,  # the director holds it: it deals no new hand
            "button": hand.button if hand is not None else table.button,
            "pot": sum(s["bet"] for s in seats) + (view.carried_in if view is not None else 0),
            "chips": sum(s["stack"] + s["bet"] for s in seats) + sum(w["stack"] for w in waiting),
            "seats": seats,
            "waiting": waiting,
        })
    return {"clock": clock_state(t, now, news=news, context=context), "tables": tables}
