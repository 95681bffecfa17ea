"""Frozen records of everything that changes in the tournament.

Every operation returns these, in order; the server persists them and sends each to the
players it concerns. They are plain values (no references into the live state), like the
engine's hand events, which stay separate: a hand's own events come from ``Hand.act``.
"""

from __future__ import annotations

import enum

import attrs

from poker.makers import maker

from .standings import Standing


class MoveReason(enum.StrEnum):
    BALANCE = "balance"  # section 7: the next big blind of the largest table
    BREAK = "break"  # the player's table broke
    DIRECTOR = "director"


class FinishReason(enum.StrEnum):
    WINNER = "winner"  # one player holds every chip
    DEADLINE = "deadline"


@attrs.frozen(kw_only=True)
class PlayerRegistered:
    player_id: str
    name: str
    registered: int  # players registered so far


@attrs.frozen(kw_only=True)
class PlayerReentered:
    """A player who was out entered again for a new starting stack (issue 27): their
    ``entry`` (2 for the first re-entry) is seated like a late entry."""

    player_id: str
    name: str
    entry: int
    stack: int


@attrs.frozen(kw_only=True)
class TournamentStarted:
    at: float
    players: int
    tables: int
    seats_per_table: int
    starting_stack: int
    level: int  # the level number people see (1 for the first)
    small_blind: int
    big_blind: int


@attrs.frozen(kw_only=True)
class PlayerSeated:
    """A player takes a seat: at the start, or on arriving at a table that was in a hand."""

    player_id: str
    table_id: int
    seat: int
    stack: int


@attrs.frozen(kw_only=True)
class PlayerMoved:
    """A player leaves one seat for another. ``on_the_way``: the new table is in a hand, so the
    player is on the way (counted there, chips kept) and sits when that hand ends
    (a ``PlayerSeated`` follows). Either way they play from the next hand dealt there."""

    player_id: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    stack: int
    reason: MoveReason
    on_the_way: bool


@attrs.frozen(kw_only=True)
class TableBroken:
    """A table broke; its players are spread over the ``PlayerMoved`` events right after it.

    ``carry``: chips carried from a split at this table; they go to the next hand at
    ``carry_to``, the table that received the first player moved (interpretation 5).
    """

    table_id: int
    players: tuple[str, ...]
    carry: int
    carry_to: int | None
    tables_left: int


@attrs.frozen(kw_only=True)
class FinalTable:
    table_id: int
    players: tuple[str, ...]


@attrs.frozen(kw_only=True)
class LevelChanged:
    """A new level is on; each table deals its next hand with these blinds."""

    level: int  # the level number people see (1 for the first)
    small_blind: int
    big_blind: int
    by_director: bool = False


@attrs.frozen(kw_only=True)
class ClockPaused:
    at: float
    level: int
    remaining: float | None  # seconds left in the level (None: levels by hands)


@attrs.frozen(kw_only=True)
class ClockResumed:
    at: float
    level: int


@attrs.frozen(kw_only=True)
class RulesChanged:
    """Options the director changed; they apply from the next hand dealt at each table.
    ``version``: the rules version they make (``Tournament.rules_version``)."""

    changes: tuple[tuple[str, str], ...]  # (option, new value as text)
    version: int = 0


@attrs.frozen(kw_only=True)
class RuleChange:
    """One versioned rule change, as the lobby lists it: version ``version`` of the rules
    came in at ``at`` with ``what`` (in words), for the director's ``reason``."""

    version: int
    at: float
    what: str
    reason: str


@attrs.frozen(kw_only=True)
class BreakStarted:
    """The level clock moved on from ``after_level`` and a break was scheduled there: no new
    hand starts (``tables_in_hand`` finish theirs) until ``until``, when ``next_level`` begins
    from its start. ``held``: the director had paused the clock already; it stays paused
    after the break."""

    at: float
    after_level: int
    minutes: int
    until: float
    next_level: int
    tables_in_hand: tuple[int, ...]
    held: bool = False


@attrs.frozen(kw_only=True)
class BreakEnded:
    """The break is over: by its time, or ``early`` by the director's resume. ``resumed``:
    the clock runs again (not when the director had paused it before the break)."""

    at: float
    after_level: int
    level: int
    small_blind: int
    big_blind: int
    early: bool
    resumed: bool


@attrs.frozen(kw_only=True)
class DeadlinePassed:
    """No new hand starts; ``tables_in_hand`` finish the hand they are playing."""

    at: float
    tables_in_hand: tuple[int, ...]


@attrs.frozen(kw_only=True)
class PlayerEliminated:
    player_id: str
    name: str
    place: int
    shared: bool  # another player eliminated in the same hand shares this place
    table_id: int | None
    hand_no: int | None  # None when removed between hands
    starting_stack: int  # their stack at the start of the hand (removed: their stack then)
    removed: bool  # disqualified by the director
    players_left: int


@attrs.frozen(kw_only=True)
class ChipsCorrected:
    """A director's chip correction. ``counterpart`` is the player the chips came from or
    went to, or None for the director adjustment account, whose balance follows."""

    player_id: str
    delta: int
    stack: int
    counterpart: str | None
    adjustment: int


@attrs.frozen(kw_only=True)
class DirectorAction:
    """The audit record of one director operation, also announced to ``concerns``
    (everyone when empty). ``pending``: it touches a hand in progress and applies when that
    hand ends."""

    seq: int
    at: float
    action: str
    reason: str
    summary: str
    concerns: tuple[str, ...]
    pending: bool = False


@attrs.frozen(kw_only=True)
class Announcement:
    at: float
    text: str
    to: tuple[str, ...] = ()  # player ids; everyone when empty
    from_director: bool = True
    reason: str | None = None  # the director's reason, shown with the text


@attrs.frozen(kw_only=True)
class FloorCalled:
    """A player called the director ("floor!")."""

    at: float
    player_id: str
    table_id: int | None
    seat: int | None
    message: str
    call_id: int = 0  # the call's number in the director's queue
    hand_no: int | None = None  # the hand being played at the table when the call was made


@attrs.frozen(kw_only=True)
class RulingMade:
    """The director decided: announced to the table (or everyone without one) and audited."""

    at: float
    call_id: int | None
    table_id: int | None
    decision: str


@attrs.frozen(kw_only=True)
class HandVoided:
    """The director called off a hand in progress: every bet went back."""

    at: float
    table_id: int
    hand_no: int


@attrs.frozen(kw_only=True)
class TrophyAwarded:
    at: float
    title: str
    player_id: str


@attrs.frozen(kw_only=True)
class TournamentFinished:
    at: float
    reason: FinishReason
    winner: str | None  # None when the deadline leaves a tie for first
    runner_up: str | None
    standings: tuple[Standing, ...]
    hands: int
    carry_to_winner: int  # carried chips handed to the winner (one player left)
    unclaimed_carry: int  # carried chips that belong to no one (deadline)


TournamentEvent = (
    PlayerRegistered
    | TournamentStarted
    | PlayerReentered
    | PlayerSeated
    | PlayerMoved
    | TableBroken
    | FinalTable
    | LevelChanged
    | ClockPaused
    | ClockResumed
    | RulesChanged
    | BreakStarted
    | BreakEnded
    | DeadlinePassed
    | PlayerEliminated
    | ChipsCorrected
    | DirectorAction
    | Announcement
    | FloorCalled
    | RulingMade
    | HandVoided
    | TrophyAwarded
    | TournamentFinished
)


# Positional constructors without the keyword parsing (``poker.makers``), for the records a
# tournament builds by the hundred: a seat for every player at the start, a move for each
# player of a broken table, an elimination for each bust.
player_registered = maker(PlayerRegistered)
player_seated = maker(PlayerSeated)
player_moved = maker(PlayerMoved)
player_eliminated = maker(PlayerEliminated)
