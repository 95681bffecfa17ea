"""The director's commands: the ``command`` of a ``director_command``, tagged by ``"op"``."""

from typing import ClassVar, Literal

import attrs

from protocol.fields import (
    Message,
    Reason,
    RuleError,
    SeatNo,
    TableNo,
    Timestamp,
    Title,
)
from protocol.parts import (
    ScheduleLevel,
)

# =====================================================================================
# Director commands (the "command" of a director_command, tagged by "op")
# =====================================================================================


@attrs.frozen(kw_only=True)
class StartCommand:
    """Close registration, seat everyone and deal the first hands."""

    TYPE: ClassVar[str] = "start"
    SINCE: ClassVar[int] = 1
    reason: Reason


@attrs.frozen(kw_only=True)
class PauseCommand:
    """Pause the tournament: each table stops when its current hand ends; clocks stop.
    With ``table``, only that table stops (the clock runs on).

    Attributes:
        table: the one table to pause, or null for the whole tournament (version 2)
    """

    TYPE: ClassVar[str] = "pause"
    SINCE: ClassVar[int] = 1
    reason: Reason
    table: int | None = attrs.field(default=None, metadata={"since": 2})


@attrs.frozen(kw_only=True)
class ResumeCommand:
    """Resume a paused tournament, or with ``table`` a paused table.

    Attributes:
        table: the one table to resume, or null for the whole tournament (version 2)
    """

    TYPE: ClassVar[str] = "resume"
    SINCE: ClassVar[int] = 1
    reason: Reason
    table: int | None = attrs.field(default=None, metadata={"since": 2})


@attrs.frozen(kw_only=True)
class VoidHandCommand:
    """Call off the hand in progress at a table (version 2): every bet goes back to its
    player, the carried odd chips wait for the next hand, the button does not move.

    Attributes:
        table: the table whose hand is void
    """

    TYPE: ClassVar[str] = "void_hand"
    SINCE: ClassVar[int] = 2
    table: int
    reason: Reason


@attrs.frozen(kw_only=True)
class SetLevelCommand:
    """Jump to a blind level; it applies from each table's next hand.

    Attributes:
        index: level index in the schedule, from 0
    """

    TYPE: ClassVar[str] = "set_level"
    SINCE: ClassVar[int] = 1
    index: int
    reason: Reason


@attrs.frozen(kw_only=True)
class SetScheduleCommand:
    """Replace the blind schedule; the current level index is kept.

    Attributes:
        levels: the new schedule, first level first
    """

    TYPE: ClassVar[str] = "set_schedule"
    SINCE: ClassVar[int] = 1
    levels: tuple[ScheduleLevel, ...]
    reason: Reason


@attrs.frozen(kw_only=True)
class SetOptionsCommand:
    """Change tournament options; a null option stays as it is.

    Attributes:
        action_seconds: the action clock per decision
        time_bank_seconds: each player's time bank, used after the action clock
        reconnect_grace_seconds: how long the server waits for a dropped connection
            before it announces the player as disconnected
        chat: whether player chat is allowed
        ruleset: the minimum-raise rule: hickory (every raise adds at least the big
            blind) or standard (at least the largest raise this round)
        level_minutes: switch to levels by time, of this many minutes
        hands_per_level: switch to levels by hands, of this many hands per table
        big_blind_ante: turn the big-blind ante on (each level's ante is the one in the
            schedule, else its big blind) or off (since v3)
        max_entries: the entries a player may make, the first included: 2 or more allows
            re-entry during late registration, 1 ends it (since v3)
        reentry_until_level: re-entry is open through this level; 0 while late
            registration is open (since v3)
        tv_table: make this table the TV table (its spectators see every hand's hole
            cards once it is over); 0: no TV table (since v3)
        tv_delay_seconds: how long after each hand ends the TV table's spectators see
            its cards; 0: as it ends (since v3)
    """

    TYPE: ClassVar[str] = "set_options"
    SINCE: ClassVar[int] = 1
    action_seconds: int | None = None
    time_bank_seconds: int | None = None
    reconnect_grace_seconds: int | None = None
    chat: bool | None = None
    ruleset: Literal["hickory", "standard"] | None = None
    level_minutes: int | None = None
    hands_per_level: int | None = None
    big_blind_ante: bool | None = attrs.field(default=None, metadata={"since": 3})
    max_entries: int | None = attrs.field(default=None, metadata={"since": 3})
    reentry_until_level: int | None = attrs.field(default=None, metadata={"since": 3})
    tv_table: int | None = attrs.field(default=None, metadata={"since": 3})
    tv_delay_seconds: int | None = attrs.field(default=None, metadata={"since": 3})
    reason: Reason

    def __attrs_post_init__(self) -> None:
        if self.level_minutes is not None and self.hands_per_level is not None:
            raise RuleError("hands_per_level", "give level_minutes or hands_per_level, not both")


@attrs.frozen(kw_only=True)
class SetDeadlineCommand:
    """Set or clear the time the tournament should end by.

    Attributes:
        deadline: ISO 8601 time, or null to clear it
    """

    TYPE: ClassVar[str] = "set_deadline"
    SINCE: ClassVar[int] = 1
    deadline: Timestamp | None
    reason: Reason


@attrs.frozen(kw_only=True)
class MovePlayerCommand:
    """Move a player to another table (at the end of their current hand).

    Attributes:
        table: the destination table
        seat: the destination seat, or null for any free seat
    """

    TYPE: ClassVar[str] = "move_player"
    SINCE: ClassVar[int] = 1
    player_id: int
    table: TableNo
    seat: SeatNo | None = None
    reason: Reason


@attrs.frozen(kw_only=True)
class RemovePlayerCommand:
    """Remove a player from the tournament (their chips leave play)."""

    TYPE: ClassVar[str] = "remove_player"
    SINCE: ClassVar[int] = 1
    player_id: int
    reason: Reason


@attrs.frozen(kw_only=True)
class AdjustChipsCommand:
    """Set a player's stack (applied between hands).

    Attributes:
        chips: the new stack, not a difference, so repeating the command is harmless
    """

    TYPE: ClassVar[str] = "adjust_chips"
    SINCE: ClassVar[int] = 1
    player_id: int
    chips: int
    reason: Reason


@attrs.frozen(kw_only=True)
class AnnounceCommand:
    """Send an announcement to everyone.

    Attributes:
        text: the announcement
    """

    TYPE: ClassVar[str] = "announce"
    SINCE: ClassVar[int] = 1
    text: Message
    reason: Reason


@attrs.frozen(kw_only=True)
class RuleCommand:
    """A ruling (version 2): closes a player's call to the floor, or stands alone for a
    table or for everyone. Announced to that table and kept in the audit.

    Attributes:
        call_id: the call it answers (from director_called), or null
        table: the table it concerns when it answers no call, or null for everyone
        decision: the ruling, as the players will read it
    """

    TYPE: ClassVar[str] = "rule"
    SINCE: ClassVar[int] = 2
    call_id: int | None = None
    table: int | None = None
    decision: Message
    reason: Reason


@attrs.frozen(kw_only=True)
class AwardCommand:
    """Name a trophy (version 2): shown with the final results and in every export.

    Attributes:
        title: the trophy, e.g. "best bluff"
        player_id: who gets it
    """

    TYPE: ClassVar[str] = "award"
    SINCE: ClassVar[int] = 2
    title: Title
    player_id: int
    reason: Reason


@attrs.frozen(kw_only=True)
class LateRegistrationCommand:
    """Open late registration (version 2): new players may join after the start, with the
    starting stack, through the end of ``until_level``; null closes it.

    Attributes:
        until_level: the last level (numbered from 1, as people say it) during which late
            entries are taken, or null to close late registration
    """

    TYPE: ClassVar[str] = "late_registration"
    SINCE: ClassVar[int] = 2
    until_level: int | None
    reason: Reason


@attrs.frozen(kw_only=True)
class SetBreakCommand:
    """Schedule a break (version 2): when the level clock moves on from ``after_level``
    by itself, hands in play finish and no new hand starts for ``minutes``; then the next
    level starts from its beginning. ``resume`` ends a break early. For the break in
    progress it changes its length. A rule change: announced with a new rules version.

    Attributes:
        after_level: the level the break follows, numbered from 1 as people say it
        minutes: how long the break lasts, 1 to 120; 0 removes the break
    """

    TYPE: ClassVar[str] = "set_break"
    SINCE: ClassVar[int] = 2
    after_level: int
    minutes: int
    reason: Reason


@attrs.frozen(kw_only=True)
class RevealCommand:
    """Send the revealed server seeds (``reveal``) again to everyone connected; only
    once the tournament is over (protocol version 2)."""

    TYPE: ClassVar[str] = "reveal"
    SINCE: ClassVar[int] = 2
    reason: Reason


Command = (
    StartCommand
    | PauseCommand
    | ResumeCommand
    | SetLevelCommand
    | SetScheduleCommand
    | SetOptionsCommand
    | SetDeadlineCommand
    | MovePlayerCommand
    | RemovePlayerCommand
    | AdjustChipsCommand
    | AnnounceCommand
    | RuleCommand
    | AwardCommand
    | LateRegistrationCommand
    | VoidHandCommand
    | SetBreakCommand
    | RevealCommand
)
COMMAND_TAG = "op"


