"""The tournament director's operations (interpretation 9), each audited.

Every operation needs a reason, returns a ``DirectorAction`` record first (also kept in
``Tournament.audit_log``, and announced to the players it concerns: everyone when
``concerns`` is empty) followed by the events of its effect.

Operations that touch a player in a hand (move, remove, correct a chip count) cannot change
that hand: the record says ``pending`` and the effect applies when the player's table ends
its hand (re-checked then: a player who busted in that hand is not removed or corrected,
and an announcement says so). Everything else applies at once; changes to the level, the
schedule and the rules reach the tables from their next hand, since a hand keeps the blinds
and settings it was dealt with.

Every input is checked against the rules before anything changes, and refused with a
``TournamentError`` a director can act on ("level 99 does not exist: the schedule has 15
levels"): a refused operation leaves the tournament exactly as it was (no audit record, no
random number drawn), which is what lets the server log an operation only once it applied,
and lets the replay of a log set aside an operation the rules no longer allow (issue 12).
The limits: every chip amount at most ``MAX_CHIPS`` (``poker.limits``), the options within
the bounds in ``settings.py``, reasons up to ``MAX_REASON`` characters, announcements up to
``MAX_ANNOUNCEMENT``, deadlines not in the past, levels that exist.

Chips never appear or vanish: a correction moves chips between two players, or between a
player and the "director adjustment" account (``Tournament.adjustment``, the chips taken
out of play; negative when the director has added chips), so ``total_chips()`` always
equals the chips issued.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from poker.actions import Ruleset
from poker.limits import MAX_CHIPS

from . import clock
from .director_limits import (
    DEADLINE_GRACE,
    MAX_ANNOUNCEMENT,
    MAX_TITLE,
    need,
    need_chips_left,
    need_in,
    need_table_number,
)
from .director_words import blinds_text, deadline_summary, option_words, versioned
from .errors import TournamentError
from .events import (
    Announcement,
    ChipsCorrected,
    DirectorAction,
    LevelChanged,
    MoveReason,
    RuleChange,
    RulesChanged,
    RulingMade,
    TournamentEvent,
    TrophyAwarded,
)
from .settings import BREAK_MINUTES, Settings, is_number, is_whole, split_levels
from .tournament import Tournament

Events = list[TournamentEvent]

class Director:
    def __init__(self, tournament: Tournament) -> None:
        self._t = tournament

    # -- the clock -------------------------------------------------------------------

    def start(self, now: float, *, reason: str) -> Events:
        need(self._t, now, reason)
        effects = self._t.start(now)
        return [self._record(now, "start", reason, "The tournament starts"), *effects]

    def pause(self, now: float, *, reason: str) -> Events:
        need(self._t, now, reason, "running")
        brk = self._t.on_break
        if brk is not None:
            raise TournamentError(
                f"the tournament is on a break after level {brk.after_level} (no hand starts until it "
                f"ends): `resume` ends it early, `set_break {brk.after_level} MINUTES` changes its length"
            )
        if self._t.paused:
            raise TournamentError("the clock is already paused")
        effects = clock.pause(self._t, now)
        summary = "The clock is paused: hands in progress finish, no new hand starts"
        return [self._record(now, "pause", reason, summary), *effects]

    def resume(self, now: float, *, reason: str) -> Events:
        need(self._t, now, reason, "running")
        t = self._t
        if t.on_break is not None:
            after = t.on_break.after_level
            effects = clock.end_break(t, now, early=True)
            summary = f"The break after level {after} ends early: play resumes at level {t.level}"
            return [self._record(now, "resume", reason, summary), *effects]
        if not t.paused:
            raise TournamentError("the clock is not paused")
        effects = clock.resume(t, now)
        return [self._record(now, "resume", reason, "The clock resumes"), *effects]

    def set_level(self, now: float, level: int, *, reason: str) -> Events:
        """Jump to ``level`` (numbered from 1); it starts from its beginning, and each
        table deals its next hand at it. The levels that exist are the schedule's, and past
        it any up to the level on now (the blinds double after the last)."""
        need(self._t, now, reason, "not finished")
        if not is_whole(level) or level < 1:
            raise TournamentError(f"levels are numbered from 1, not {level!r}")
        t = self._t
        levels = len(t.settings.schedule)
        reached = t.level
        if level > max(levels, reached):
            raise TournamentError(
                f"level {level} does not exist: the schedule has {levels} levels"
                + (f" and the level on now is {reached}" if reached > levels else "")
                + " (change the schedule to add levels)"
            )
        t.clock.set_level(level - 1, now)
        sb, bb = t.blinds
        effects: Events = [LevelChanged(level=level, small_blind=sb, big_blind=bb, by_director=True)]
        summary = f"Level {level} ({sb}/{bb}) from the next hand at each table"
        return [self._record(now, "set_level", reason, summary), *effects]

    def change_schedule(
        self, now: float, schedule: Iterable[Iterable[int]], *, reason: str
    ) -> Events:
        need(self._t, now, reason, "not finished")
        t = self._t
        before = t.blinds
        # Levels of three numbers carry a big-blind ante each, and writing antes into the
        # schedule turns the ante on; a schedule of pairs names none (the ante, when on,
        # is then the big blind).
        pairs, antes = split_levels(schedule)
        settings = attrs.evolve(  # validated: TournamentError
            t.settings, schedule=pairs, antes=antes,
            big_blind_ante=t.settings.big_blind_ante or bool(antes),
        )
        if t.clock.index > settings.last_level:
            raise TournamentError(
                f"with this schedule the blinds of level {t.level}, the level on now, would be above "
                f"{MAX_CHIPS} chips: set an earlier level first, or give a schedule with higher blinds"
            )
        t.settings = settings
        written = blinds_text(settings.schedule, settings.antes)
        summary = f"new blind schedule from the next hand: {written}"
        version = self._new_version(now, summary, reason)
        effects: Events = [RulesChanged(changes=(("schedule", written),), version=version)]
        if t.blinds != before:
            sb, bb = t.blinds
            effects.append(LevelChanged(level=t.level, small_blind=sb, big_blind=bb, by_director=True))
        return [self._record(now, "change_schedule", reason, versioned(version, summary)), *effects]

    def change_rules(
        self,
        now: float,
        *,
        reason: str,
        ruleset: Ruleset | str | None = None,
        action_clock: float | None = None,
        time_bank: float | None = None,
        level_minutes: float | None = None,
        hands_per_level: int | None = None,
        reconnect_grace: float | None = None,
        big_blind_ante: bool | None = None,
        max_entries: int | None = None,
        reentry_until: int | None = None,
        tv_table: int | None = None,
        tv_delay: float | None = None,
    ) -> Events:
        """Change options that apply from the next hand (the ruleset, the action clock, the
        time bank, the big-blind ante) and how levels are measured: ``level_minutes``
        switches to levels by time, ``hands_per_level`` to levels by hands (then the current
        level counts from now). Re-entry (issue 27): ``max_entries`` per player, the first
        included (1: none), through level ``reentry_until`` (0: as long as late
        registration is open). The TV table (issue 27): ``tv_table`` (0: none) and its
        ``tv_delay`` in seconds after each hand ends.
        """
        need(self._t, now, reason, "not finished")
        if level_minutes is not None and hands_per_level is not None:
            raise TournamentError("levels run by minutes or by hands, not both: give one")
        t = self._t
        changes: dict[str, object] = {}
        if ruleset is not None:
            changes["ruleset"] = ruleset  # the Settings converter names the known ones
        for name, value in (
            ("action_clock", action_clock), ("time_bank", time_bank),
            ("reconnect_grace", reconnect_grace), ("big_blind_ante", big_blind_ante),
            ("max_entries", max_entries),
        ):
            if value is not None:
                changes[name] = value
        if reentry_until is not None:
            changes["reentry_until"] = None if reentry_until == 0 else reentry_until
        if tv_table is not None:
            if tv_table and t.tables and is_whole(tv_table) and tv_table not in t.tables:
                raise TournamentError(f"there is no table {tv_table} to make the TV table "
                                      f"(tables: {', '.join(str(i) for i in t.table_ids())})")
            changes["tv_table"] = None if tv_table == 0 else tv_table
        if tv_delay is not None:
            changes["tv_delay"] = tv_delay
        if level_minutes is not None:
            changes["level_minutes"] = level_minutes
            changes["hands_per_level"] = None
        if hands_per_level is not None:
            changes["hands_per_level"] = hands_per_level
        if not changes:
            raise TournamentError("no rule to change was given")
        old: Settings = t.settings
        new = attrs.evolve(old, **changes)  # type: ignore[arg-type]  # validated: TournamentError
        t.settings = new
        if new.by_hands != old.by_hands:
            t.clock.restart_level(now)
        shown = tuple(
            (name, str(getattr(new, name))) for name in changes if getattr(new, name) != getattr(old, name)
        )
        said = [name for name in changes if not (name == "hands_per_level" and new.hands_per_level is None)]
        text = ", ".join(option_words(name, getattr(new, name)) for name in said) + " from the next hand"
        version = self._new_version(now, text, reason)
        effects: Events = [RulesChanged(changes=shown, version=version)]
        record = self._record(now, "change_rules", reason, versioned(version, text))
        effects += clock.advance(t, now)  # a shorter level may be over already
        return [record, *effects]

    def set_deadline(self, now: float, deadline: float | None, *, reason: str) -> Events:
        """Set or clear the deadline (in the time base of ``now``). A deadline already
        passed can be put back while the last hands are still being played. A new deadline
        may not be in the past: ``now`` itself ends the tournament after the hands in play,
        and so does a deadline less than ``DEADLINE_GRACE`` seconds ago (the time now as a
        person types it, to the minute, is already a little in the past when it arrives)."""
        need(self._t, now, reason, "not finished")
        if deadline is not None:
            if not is_number(deadline):
                raise TournamentError(f"the deadline is a time or none, not {deadline!r}")
            if deadline < now - DEADLINE_GRACE:
                raise TournamentError(
                    f"that deadline is {now - deadline:,.0f} seconds in the past: give a later one "
                    "(the time now ends the tournament after the hands in play)"
                )
            deadline = max(deadline, now)
        t = self._t
        t.settings = attrs.evolve(t.settings, deadline=deadline)
        if deadline is None or deadline > now:  # put back (or never passed)
            t.deadline_passed = False
        summary = deadline_summary(now, deadline)
        version = self._new_version(now, summary, reason)
        effects: Events = [RulesChanged(changes=(("deadline", str(deadline)),), version=version)]
        record = self._record(now, "set_deadline", reason, versioned(version, summary))
        effects += clock.advance(t, now)
        return [record, *effects]

    # -- players ---------------------------------------------------------------------

    def move_player(
        self, now: float, player_id: str, table_id: int, seat: int | None = None, *, reason: str
    ) -> Events:
        """Move a player to a table (and seat, else an empty one at random). Balancing
        still applies afterwards."""
        need(self._t, now, reason, "running")
        t = self._t
        need_in(self._t, player_id)
        if not is_whole(table_id):
            raise TournamentError(f"a table is a number, not {table_id!r}")
        table = t.table(table_id)
        loc = t.location(player_id)
        assert loc is not None
        if seat is not None:
            if not is_whole(seat):
                raise TournamentError(f"a seat is a number from 1 to {table.seat_count}, not {seat!r}")
            if not 1 <= seat <= table.seat_count:
                raise TournamentError(f"seat {seat} does not exist (seats 1 to {table.seat_count})")
            if seat not in t.seating.free_seats(table_id):
                raise TournamentError(f"seat {seat} at table {table_id} is taken")
        elif loc.table_id == table_id:
            raise TournamentError(
                f"{t.who(player_id)} is already at table {table_id}: name a seat to change seats"
            )
        elif not t.seating.free_seats(table_id):
            raise TournamentError(f"table {table_id} has no empty seat")
        where = f"table {table_id}" + (f" seat {seat}" if seat is not None else "")
        summary = f"{t.name_of(player_id)} moves to {where}"

        def apply() -> Events:
            if t.entrant(player_id).out:
                return [self._not_applied(now, player_id, f"the move to {where}")]
            if table_id not in t.tables:
                return [self._not_applied(now, player_id, f"the move to {where} (the table broke)")]
            if not t.seating.free_seats(table_id):  # filled while the player's hand was played
                return [self._not_applied(now, player_id, f"the move to {where} (no empty seat left)")]
            chosen = seat if seat is not None and seat in t.seating.free_seats(table_id) else None
            return [t.seating.move(player_id, table_id, chosen, MoveReason.DIRECTOR)]

        return self._now_or_later(now, "move_player", reason, summary, (player_id,), apply)

    def remove_player(self, now: float, player_id: str, *, reason: str) -> Events:
        """Disqualify a player: their chips leave play through the adjustment account and
        they are placed as if eliminated at that moment (after their hand, if in one)."""
        need(self._t, now, reason, "running")
        t = self._t
        need_in(self._t, player_id)
        summary = f"{t.name_of(player_id)} is removed from the tournament"

        def apply() -> Events:
            if t.entrant(player_id).out:
                return [self._not_applied(now, player_id, "the removal")]
            return t.remove(player_id)

        return self._now_or_later(now, "remove_player", reason, summary, (player_id,), apply)

    def correct_chips(self, now: float, player_id: str, delta: int, *, reason: str) -> Events:
        """Add (or take, when negative) chips to a player's stack through the adjustment
        account. A correction may not leave the player without chips: remove them instead."""
        need(self._t, now, reason, "running")
        t = self._t
        need_in(self._t, player_id)
        if not is_whole(delta) or delta == 0:
            raise TournamentError(f"a chip correction is a whole number of chips other than 0, not {delta!r}")
        need_chips_left(self._t, player_id, delta)
        if delta > 0 and t.chips_in_play() + delta > MAX_CHIPS:
            raise TournamentError(
                f"{delta} more chips would put {t.chips_in_play() + delta} chips in play, above the "
                f"limit of {MAX_CHIPS}"
            )
        sign = "+" if delta > 0 else ""
        summary = f"Chip count of {t.name_of(player_id)} corrected by {sign}{delta}"

        def apply() -> Events:
            if t.entrant(player_id).out or t.stack_of(player_id) + delta < 1:
                return [self._not_applied(now, player_id, f"the chip correction {sign}{delta}")]
            stack = t.seating.add_chips(player_id, delta)
            t.adjustment -= delta
            return [ChipsCorrected(player_id=player_id, delta=delta, stack=stack, counterpart=None,
                                   adjustment=t.adjustment)]

        return self._now_or_later(now, "correct_chips", reason, summary, (player_id,), apply)

    def set_stack(self, now: float, player_id: str, chips: int, *, reason: str) -> Events:
        """Set a player's stack to ``chips`` (the protocol's ``adjust_chips``): the
        difference goes through the adjustment account. For a player in a hand it is worked
        out when the hand ends, from the stack the hand left, so the player ends with
        exactly ``chips`` whatever the hand did; the same number twice changes nothing."""
        need(self._t, now, reason, "running")
        t = self._t
        need_in(self._t, player_id)
        if not is_whole(chips) or chips < 1:
            raise TournamentError(
                f"a stack is a whole number of chips above 0, not {chips!r}: to take every chip, "
                "remove the player instead"
            )
        if t.chips_in_play() - t.stack_of(player_id) + chips > MAX_CHIPS:
            raise TournamentError(f"a stack of {chips} would put more chips in play than the limit of {MAX_CHIPS}")
        summary = f"Chip count of {t.name_of(player_id)} set to {chips}"

        def apply() -> Events:
            delta = chips - t.stack_of(player_id)
            if t.entrant(player_id).out or t.chips_in_play() + delta > MAX_CHIPS:
                return [self._not_applied(now, player_id, f"the chip count of {chips}")]
            if delta == 0:
                return []
            stack = t.seating.add_chips(player_id, delta)
            t.adjustment -= delta
            return [ChipsCorrected(player_id=player_id, delta=delta, stack=stack, counterpart=None,
                                   adjustment=t.adjustment)]

        return self._now_or_later(now, "set_stack", reason, summary, (player_id,), apply)

    def transfer_chips(
        self, now: float, from_player: str, to_player: str, amount: int, *, reason: str
    ) -> Events:
        """Move chips from one player's stack to another's (a pot pushed to the wrong player)."""
        need(self._t, now, reason, "running")
        t = self._t
        if from_player == to_player:
            raise TournamentError("a chip transfer needs two different players")
        need_in(self._t, from_player)
        need_in(self._t, to_player)
        if not is_whole(amount) or amount < 1:
            raise TournamentError(f"a chip transfer is a whole number of chips above 0, not {amount!r}")
        need_chips_left(self._t, from_player, -amount)
        summary = f"{amount} chips move from {t.name_of(from_player)} to {t.name_of(to_player)}"

        def apply() -> Events:
            if any(t.entrant(p).out for p in (from_player, to_player)) or t.stack_of(from_player) - amount < 1:
                return [self._not_applied(now, from_player, f"the transfer of {amount} chips")]
            a = t.seating.add_chips(from_player, -amount)
            b = t.seating.add_chips(to_player, amount)
            return [
                ChipsCorrected(player_id=from_player, delta=-amount, stack=a, counterpart=to_player,
                               adjustment=t.adjustment),
                ChipsCorrected(player_id=to_player, delta=amount, stack=b, counterpart=from_player,
                               adjustment=t.adjustment),
            ]

        return self._now_or_later(
            now, "transfer_chips", reason, summary, (from_player, to_player), apply
        )

    def announce(
        self, now: float, text: str, *, to: Sequence[str] = (), reason: str = "announcement"
    ) -> Events:
        """Send a message to everyone (``to`` empty) or to some players."""
        need(self._t, now, reason)
        if not isinstance(text, str) or not text.strip():
            raise TournamentError("an announcement needs a text")
        if len(text.strip()) > MAX_ANNOUNCEMENT:
            raise TournamentError(
                f"an announcement is at most {MAX_ANNOUNCEMENT} characters, not {len(text.strip())}"
            )
        if isinstance(to, str) or not isinstance(to, Sequence) or not all(isinstance(p, str) for p in to):
            raise TournamentError(f"an announcement goes to a list of players, not {to!r}")
        for pid in to:
            self._t.entrant(pid)
        record = self._record(now, "announce", reason, text.strip(), tuple(to))
        return [record, Announcement(at=now, text=text.strip(), to=tuple(to), reason=reason)]

    def late_registration(self, now: float, until_level: int | None, *, reason: str) -> Events:
        """Take late entries (with the starting stack) through level ``until_level``, as
        people number levels; None closes late registration."""
        need(self._t, now, reason, "running")
        t = self._t
        if until_level is not None:
            if not is_whole(until_level):
                raise TournamentError(f"late registration runs to a level (a number) or is closed, not {until_level!r}")
            last = len(t.settings.schedule)
            if not t.level <= until_level <= last:
                raise TournamentError(
                    f"late registration must run to a level from {t.level} (the level on now) to {last} "
                    f"(the last of the schedule), not {until_level}")
        t.late_until = until_level
        text = ("Late registration is closed" if until_level is None else
                f"Late registration is open until the end of level {until_level}, with "
                f"{t.settings.starting_stack:,} chips")
        version = self._new_version(now, text, reason)
        return [self._record(now, "late_registration", reason, versioned(version, text))]

    def set_break(self, now: float, after_level: int, minutes: int, *, reason: str) -> Events:
        """Schedule a break of ``minutes`` after level ``after_level`` (numbered from 1), or
        with 0 minutes remove it. When the level clock moves on from that level by itself
        (by time or by hands) no new hand starts (hands in progress finish) until the
        break has run; then the next level starts from its beginning. Setting the break in
        progress changes its length (counted from when it began). A level the director
        jumps past with ``set_level`` has no break."""
        need(self._t, now, reason, "not finished")
        t = self._t
        if not is_whole(after_level) or after_level < 1:
            raise TournamentError(f"levels are numbered from 1: no break after level {after_level!r}")
        levels = len(t.settings.schedule)
        top = max(levels, t.level)
        if after_level > top:
            raise TournamentError(
                f"level {after_level} does not exist: the schedule has {levels} levels"
                + (f" and the level on now is {t.level}" if t.level > levels else "")
                + " (change the schedule to add levels)"
            )
        if after_level > t.settings.last_level:
            raise TournamentError(
                f"level {after_level} is the last level (its blinds cannot double again): no break can follow it"
            )
        low, high = BREAK_MINUTES
        if not is_whole(minutes) or not (minutes == 0 or low <= minutes <= high):
            raise TournamentError(f"a break lasts {low} to {high} minutes (0 removes it), not {minutes!r}")
        brk = t.on_break
        in_progress = brk is not None and brk.after_level == after_level
        if in_progress and minutes == 0:
            raise TournamentError(
                f"the break after level {after_level} is in progress: `resume` ends it now"
            )
        if not in_progress:
            if after_level < t.level:
                raise TournamentError(
                    f"level {after_level} is over (the level on now is {t.level}): a break goes after "
                    f"level {t.level} or a later one"
                )
            if after_level in t.breaks_taken:
                raise TournamentError(f"the break after level {after_level} was taken already")
        current = t.settings.break_after(after_level)
        if minutes == 0 and current is None:
            raise TournamentError(f"there is no break after level {after_level} to remove")
        if minutes == current:
            raise TournamentError(f"the break after level {after_level} is {minutes} minutes already")
        kept = tuple(b for b in t.settings.breaks if b[0] != after_level)
        t.settings = attrs.evolve(t.settings, breaks=kept + (((after_level, minutes),) if minutes else ()))
        if in_progress:
            assert brk is not None
            t.on_break = attrs.evolve(brk, until=brk.began + minutes * 60.0)
            text = f"the break after level {after_level} now lasts {minutes} minutes"
        elif minutes:
            text = f"a break of {minutes} minutes after level {after_level}"
        else:
            text = f"no break after level {after_level}"
        version = self._new_version(now, text, reason)
        effects: Events = [RulesChanged(changes=(("break", f"{after_level}:{minutes}"),), version=version)]
        record = self._record(now, "set_break", reason, versioned(version, text))
        if in_progress and now >= t.on_break.until:  # type: ignore[union-attr]  # shortened: over
            effects += clock.end_break(t, now, early=False)
        return [record, *effects]

    def void_hand(self, now: float, table_id: int, *, reason: str) -> Events:
        """Call off the hand in progress at a table: every bet goes back, the button stays."""
        need(self._t, now, reason, "running")
        t = self._t
        need_table_number(table_id)
        hand = t.table(table_id).hand
        if hand is None or hand.is_over:
            raise TournamentError(f"table {table_id} has no hand in progress to void")
        record = self._record(now, "void_hand", reason,
                              f"Hand #{hand.hand_no} at table {table_id} is void: every bet goes back")
        return [record, *t.void_hand(table_id, now)]

    def pause_table(self, now: float, table_id: int, *, paused: bool, reason: str) -> Events:
        """Hold one table (its hand in progress finishes; it deals no new hand) or release it."""
        need(self._t, now, reason, "running")
        t = self._t
        need_table_number(table_id)
        if not isinstance(paused, bool):
            raise TournamentError(f"a table is paused or not (true or false), not {paused!r}")
        t.table(table_id)
        if paused == (table_id in t.held_tables):
            raise TournamentError(f"table {table_id} is {'already' if paused else 'not'} paused")
        (t.held_tables.add if paused else t.held_tables.discard)(table_id)
        text = (f"Table {table_id} is paused: its hand in progress finishes, no new hand starts" if paused
                else f"Table {table_id} plays on")
        return [self._record(now, "pause_table" if paused else "resume_table", reason, text)]

    # -- the floor -------------------------------------------------------------------

    def rule(self, now: float, decision: str, *, call_id: int | None = None,
             table_id: int | None = None, reason: str) -> Events:
        """A ruling: closes a player's call (``call_id``) or stands alone (for a table, or
        for everyone); announced to that table and kept in the audit."""
        need(self._t, now, reason)
        if not isinstance(decision, str) or len(decision.strip()) > MAX_ANNOUNCEMENT:
            raise TournamentError(f"a ruling is a text of at most {MAX_ANNOUNCEMENT} characters")
        if call_id is not None and not is_whole(call_id):
            raise TournamentError(f"a call is named by its number, not {call_id!r}")
        if table_id is not None:
            need_table_number(table_id)
        if table_id is not None and table_id not in self._t.tables:
            raise TournamentError(f"there is no table {table_id} in play")
        ruling = self._t.floor.rule(at=now, call_id=call_id, table_id=table_id, decision=decision)
        about = f"call #{call_id}" if call_id is not None else (
            f"table {ruling.table_id}" if ruling.table_id is not None else "everyone")
        record = self._record(now, "rule", reason, f"Ruling ({about}): {ruling.decision}")
        return [record, RulingMade(at=now, call_id=call_id, table_id=ruling.table_id,
                                   decision=ruling.decision)]

    def award(self, now: float, title: str, player_id: str, *, reason: str) -> Events:
        """Name a trophy ("best bluff"); shown with the final results and in every export."""
        need(self._t, now, reason)
        if not isinstance(title, str) or not 0 < len(title.strip()) <= MAX_TITLE:
            raise TournamentError(f"a trophy needs a title of 1 to {MAX_TITLE} characters, not {title!r}")
        if not isinstance(player_id, str):
            raise TournamentError(f"no player {player_id!r} is registered")
        self._t.entrant(player_id)
        trophy = self._t.floor.award(title=title, player_id=player_id)
        record = self._record(now, "award", reason,
                              f"Trophy {trophy.title!r}: {self._t.name_of(player_id)}", (player_id,))
        return [record, TrophyAwarded(at=now, title=trophy.title, player_id=player_id)]

    # -- helpers ---------------------------------------------------------------------

    def _new_version(self, now: float, what: str, reason: str) -> int:
        """A rule change was accepted: the next rules version, kept with what and why."""
        t = self._t
        t.rules_version += 1
        t.rule_changes.append(RuleChange(version=t.rules_version, at=now, what=what, reason=reason.strip()))
        return t.rules_version

    def _record(
        self, now: float, action: str, reason: str, summary: str,
        concerns: tuple[str, ...] = (), pending: bool = False,
    ) -> DirectorAction:
        log = self._t.audit_log
        record = DirectorAction(
            seq=len(log) + 1, at=now, action=action, reason=reason.strip(), summary=summary,
            concerns=concerns, pending=pending,
        )
        log.append(record)
        return record

    def _now_or_later(
        self, now: float, action: str, reason: str, summary: str,
        players: tuple[str, ...], apply: Callable[[], Events],
    ) -> Events:
        t = self._t
        if any(t.in_a_hand(p) or t.pending_for(p) for p in players):
            t.defer(players, apply)
            summary += " after the current hand"
            return [self._record(now, action, reason, summary, players, pending=True)]
        record = self._record(now, action, reason, summary, players)
        return [record, *apply(), *t.settle(now)]

    def _not_applied(self, now: float, player_id: str, what: str) -> Announcement:
        e = self._t.entrant(player_id)
        text = f"The director's {what} for {e.name} was not applied: it no longer fits their chips or seat"
        if e.out:
            text = f"The director's {what} for {e.name} was not applied: eliminated first (place {e.place})"
        return Announcement(at=now, text=text, to=(player_id,))
