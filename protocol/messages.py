"""Protocol v1: every message a client and the server exchange, as frozen attrs classes.

Each message is one JSON object on one line. Its ``"type"`` field is the class's ``TYPE``;
the other keys are the class's fields, in the order written here. The codec
(``protocol.codec``) turns lines into these classes and back; the JSON Schema
(``protocol.schema``) and the docs are generated from them, so the docstrings below are
the reference a third-party client author reads.

Conventions, the same in every message:

* Integers are whole JSON numbers from 0 to 2^53 - 1 (chips, seats, ids, milliseconds).
  ``5.0``, ``"5"``, ``true`` and negative numbers are refused where an integer belongs.
* Chip amounts are whole chips. ``to`` / ``*_to`` amounts are a player's total bet in the
  current betting round ("raise to"); ``amount`` is chips moved by that one action.
* Seats are numbered from 1 to max_seats at each table; tables are numbered from 1.
* Cards are two-character strings: rank ``23456789TJQKA`` then suit ``cdhs`` (``"As"``,
  ``"Td"``). A card a connection may not see is never sent to it: not in snapshots,
  events, errors or history.
* Requests from the client may carry an ``id`` (an integer the client chooses); the
  server's reply to that request (``welcome``, ``ack``, ``error``, ``pong``, ``lobby``,
  ``table_snapshot``, ``history``, ``standings``) carries the same ``id``.
* Every line the server sends carries ``seq``: 1 for ``hello``, then +1 per line on that
  connection. A gap means a lost line; ask for a ``snapshot_request`` to resynchronise.
* Durations say their unit in their name (``*_ms``, ``*_seconds``, ``minutes``,
  ``level_minutes``) or in a companion field (``next_level_unit``); wall-clock times are
  ISO 8601 strings with a UTC offset (``2025-03-01T22:00:00Z``).

Versioning policy: within a protocol version nothing changes shape. A new field, a new
message type, a new value of a closed set (an action, a status, a command) or a change of
meaning makes a new version. Both sides refuse unknown fields and unknown types
(``unknown_field``, ``unknown_type``), so a mismatch shows at once instead of being
silently misread. A server speaking several versions sends each connection only what its
negotiated version defines. New error codes may appear within a version (see
``protocol.errors``).
"""

import re
from typing import Annotated, ClassVar, Literal, get_args

import attrs

PROTOCOL_NAME = "hickory"
SUPPORTED_VERSIONS: tuple[int, ...] = (1,)
MAX_INT = 2**53 - 1


@attrs.frozen
class Text:
    """Constraints on a string field: length in characters, a regex, no control characters.

    Used as ``Annotated[str, Text(...)]``; the codec enforces it when decoding and the
    schema generator writes it as ``minLength`` / ``maxLength`` / ``pattern``.
    """

    min: int = 0
    max: int | None = None
    pattern: str | None = None
    control_ok: bool = False

    def problem(self, value: str) -> str | None:
        """What is wrong with ``value`` for this field, or None if it is fine."""
        if len(value) < self.min:
            if self.min == 1:
                return "must not be empty"
            return f"too short, expected at least {self.min} characters"
        if self.max is not None and len(value) > self.max:
            return f"too long, expected at most {self.max} characters"
        if not self.control_ok and (found := CONTROL.search(value)):
            return f"control character U+{ord(found.group()):04X} not allowed"
        if self.pattern is not None and not re.fullmatch(self.pattern, value):
            shown = repr(value) if len(value) <= 40 else repr(value[:37]) + "..."
            return f"invalid value {shown}, expected {self.pattern}"
        return None


CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""C0 and C1 control characters and DEL: refused in text fields unless ``control_ok``."""


Card = Annotated[str, Text(2, 2, pattern="^[2-9TJQKA][cdhs]$")]
CARDS = frozenset(rank + suit for rank in "23456789TJQKA" for suit in "cdhs")
"""The 52 card strings: exactly the values Card accepts."""
Name = Annotated[str, Text(1, 24)]
Title = Annotated[str, Text(1, 80)]
Token = Annotated[str, Text(8, 128, pattern="^[A-Za-z0-9_.~-]+$")]
Secret = Annotated[str, Text(1, 128)]
Nonce = Annotated[str, Text(0, 64)]
Reason = Annotated[str, Text(1, 200)]
Message = Annotated[str, Text(1, 500)]
ErrorCode = Annotated[str, Text(1, 40, pattern="^[a-z][a-z0-9_]*$")]
Timestamp = Annotated[
    str,
    Text(
        20,
        35,
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$",
    ),
]
ServerText = Annotated[str, Text(0, 2000, control_ok=True)]

ActionKind = Literal["fold", "check", "call", "bet", "raise", "all_in"]
Street = Literal["preflop", "flop", "turn", "river"]
Role = Literal["player", "spectator", "director"]
Scope = Literal["table", "lobby"]

FIELD_DOCS: dict[str, str] = {
    "id": "request id chosen by the client, echoed by the server's reply; null if none",
    "seq": "per-connection sequence number of this server line: 1 for hello, then +1",
    "version": "the protocol version the client chooses from hello.versions",
    "table": "table number (from 1)",
    "hand_no": "hand number, increasing over the whole tournament",
    "seat": "seat number at the table (from 1)",
    "player_id": "the player's id, fixed for the whole tournament",
    "name": "the player's display name",
    "reason": "why the director did this; shown in the announcement and the log",
    "small_blind": "small blind in chips",
    "big_blind": "big blind in chips",
    "stack": "chips in front of the player",
    "cards": "cards, e.g. [\"As\", \"Kd\"]",
    "board": "all community cards so far",
    "all_in": "true if the player has no chips left behind",
}
"""Descriptions of fields that mean the same in every message that has them."""


class RuleError(ValueError):
    """A message whose fields are each fine but do not fit together (raised on build)."""

    def __init__(self, field: str, message: str, *, missing: bool = False) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.missing = missing


# =====================================================================================
# Parts (nested objects, no "type")
# =====================================================================================


@attrs.frozen(kw_only=True)
class Level:
    """A blind level: its position in the schedule and its blinds.

    Attributes:
        index: position in the schedule, from 0
    """

    index: int
    small_blind: int
    big_blind: int


@attrs.frozen(kw_only=True)
class ScheduleLevel:
    """One level of the blind schedule. A level lasts ``minutes`` or ``hands``, not both.

    Attributes:
        minutes: length of the level in minutes (null if counted in hands)
        hands: length of the level in hands per table (null if counted in minutes)
    """

    small_blind: int
    big_blind: int
    minutes: int | None = None
    hands: int | None = None


@attrs.frozen(kw_only=True)
class LobbyPlayer:
    """One entrant as the lobby shows them.

    Attributes:
        chips: total chips (0 once eliminated)
        table: table number, null if not seated
        seat: seat number, null if not seated
        status: waiting (registered, not seated yet), playing, sitting_out, disconnected
            or eliminated
    """

    player_id: int
    name: Name
    chips: int
    table: int | None
    seat: int | None
    status: Literal["waiting", "playing", "sitting_out", "disconnected", "eliminated"]


@attrs.frozen(kw_only=True)
class LobbyTable:
    """A table in play and who sits there.

    Attributes:
        players: player ids seated at this table
    """

    table: int
    players: tuple[int, ...]


@attrs.frozen(kw_only=True)
class SeatView:
    """One occupied seat as this connection may see it.

    Attributes:
        bet: chips put in during the current betting round
        folded: has folded this hand
        sitting_out: is sitting out (blinds are posted and hands folded for them)
        connected: has a live connection
        cards: hole cards if this connection may see them (its own, or shown at showdown),
            else null. A seat that has not folded in a running hand holds two cards.
    """

    seat: int
    player_id: int
    name: Name
    stack: int
    bet: int
    folded: bool
    all_in: bool
    sitting_out: bool
    connected: bool
    cards: tuple[Card, ...] | None


@attrs.frozen(kw_only=True)
class Pot:
    """A pot and the seats that can win it (main pot first, then side pots).

    Attributes:
        amount: chips in this pot
        eligible: seats that can win this pot
    """

    amount: int
    eligible: tuple[int, ...]


@attrs.frozen(kw_only=True)
class SeatStack:
    """A seat's stack at a moment named by the enclosing message."""

    seat: int
    stack: int


@attrs.frozen(kw_only=True)
class Winner:
    """A seat's share of one pot.

    Attributes:
        amount: chips this seat wins from the pot
    """

    seat: int
    amount: int


@attrs.frozen(kw_only=True)
class Legal:
    """The legal actions now, from the engine's own query (the same one that validates).

    Attributes:
        fold: folding is allowed
        check: checking is allowed
        call: chips you would add to call, or null if there is nothing to call. If it is
            all your chips, calling puts you all in.
        min_raise_to: smallest legal bet/raise *to* total, or null if you cannot bet or
            raise. If your stack is short of a full raise this equals max_raise_to.
        max_raise_to: largest legal bet/raise *to* total (your all-in), or null
    """

    fold: bool
    check: bool
    call: int | None
    min_raise_to: int | None
    max_raise_to: int | None


@attrs.frozen(kw_only=True)
class Place:
    """A line of the standings.

    Attributes:
        place: 1 is the leader (or winner); eliminated players keep the place they
            finished in
        chips: chips now (0 if eliminated)
        eliminated_in_hand: hand number of the elimination, null if still playing
    """

    place: int
    player_id: int
    name: Name
    chips: int
    eliminated_in_hand: int | None


@attrs.frozen(kw_only=True)
class HandPlayer:
    """A player dealt into a recorded hand.

    Attributes:
        stack: chips at the start of the hand, before blinds
    """

    seat: int
    player_id: int
    name: Name
    stack: int


@attrs.frozen(kw_only=True)
class BlindPost:
    """A blind posted in a recorded hand.

    Attributes:
        blind: which blind
        amount: chips posted (less than the blind if it put the player all in)
    """

    seat: int
    blind: Literal["small", "big"]
    amount: int
    all_in: bool


@attrs.frozen(kw_only=True)
class HandAction:
    """One action in a recorded hand.

    Attributes:
        street: betting round of the action
        action: what the player did
        amount: chips put in by this action
        to: the player's total bet in this betting round after the action
        automatic: the server acted for the player (clock ran out, sitting out,
            disconnected)
    """

    street: Street
    seat: int
    action: ActionKind
    amount: int
    to: int
    all_in: bool
    automatic: bool


@attrs.frozen(kw_only=True)
class ShownHand:
    """Cards shown at showdown in a recorded hand.

    Attributes:
        hand_name: the hand they make, e.g. "Two pair, aces and kings"; null if the hand
            ended before it was complete
    """

    seat: int
    cards: tuple[Card, ...]
    hand_name: ServerText | None


@attrs.frozen(kw_only=True)
class PotResult:
    """How one pot of a recorded hand was split.

    Attributes:
        pot: pot index, 0 for the main pot
        amount: chips in the pot
        winners: who won what
        hand_name: the winning hand, e.g. "Flush, ace high"; null when won without a
            showdown
        remainder_carried: odd chips that could not be split evenly and are carried
            into the next hand
    """

    pot: int
    amount: int
    winners: tuple[Winner, ...]
    hand_name: ServerText | None = None
    remainder_carried: int


@attrs.frozen(kw_only=True)
class HandRecord:
    """A finished hand as the requester may see it.

    Your own hole cards are included even if you folded; other players' cards only if
    they were shown at showdown.

    Attributes:
        level: blind level index
        button: seat of the button
        carried_in: odd chips carried in from the previous hand
        players: who was dealt in, with starting stacks
        blinds: blinds posted
        actions: every action in order, automatic ones marked
        shown: hands shown at showdown
        your_seat: the requester's seat in this hand, null if not dealt in
        your_cards: the requester's hole cards, null if not dealt in
        results: how each pot was split
        carried_out: odd chips carried into the next hand
        stacks: stacks at the end of the hand
    """

    table: int
    hand_no: int
    level: int
    button: int
    small_blind: int
    big_blind: int
    carried_in: int
    players: tuple[HandPlayer, ...]
    blinds: tuple[BlindPost, ...]
    actions: tuple[HandAction, ...]
    board: tuple[Card, ...]
    shown: tuple[ShownHand, ...]
    your_seat: int | None
    your_cards: tuple[Card, ...] | None
    results: tuple[PotResult, ...]
    carried_out: int
    stacks: tuple[SeatStack, ...]


# =====================================================================================
# Director commands (the "command" of a director_command, tagged by "op")
# =====================================================================================


@attrs.frozen(kw_only=True)
class StartCommand:
    """Close registration, seat everyone and deal the first hands."""

    TYPE: ClassVar[str] = "start"
    reason: Reason


@attrs.frozen(kw_only=True)
class PauseCommand:
    """Pause the tournament: each table stops when its current hand ends; clocks stop."""

    TYPE: ClassVar[str] = "pause"
    reason: Reason


@attrs.frozen(kw_only=True)
class ResumeCommand:
    """Resume a paused tournament."""

    TYPE: ClassVar[str] = "resume"
    reason: Reason


@attrs.frozen(kw_only=True)
class SetLevelCommand:
    """Jump to a blind level; it applies from each table's next hand.

    Attributes:
        index: level index in the schedule, from 0
    """

    TYPE: ClassVar[str] = "set_level"
    index: int
    reason: Reason


@attrs.frozen(kw_only=True)
class SetScheduleCommand:
    """Replace the blind schedule; the current level index is kept.

    Attributes:
        levels: the new schedule, first level first
    """

    TYPE: ClassVar[str] = "set_schedule"
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
    """

    TYPE: ClassVar[str] = "set_options"
    action_seconds: int | None = None
    time_bank_seconds: int | None = None
    reconnect_grace_seconds: int | None = None
    chat: bool | None = None
    ruleset: Literal["hickory", "standard"] | None = None
    level_minutes: int | None = None
    hands_per_level: int | None = None
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
    player_id: int
    table: int
    seat: int | None = None
    reason: Reason


@attrs.frozen(kw_only=True)
class RemovePlayerCommand:
    """Remove a player from the tournament (their chips leave play)."""

    TYPE: ClassVar[str] = "remove_player"
    player_id: int
    reason: Reason


@attrs.frozen(kw_only=True)
class AdjustChipsCommand:
    """Set a player's stack (applied between hands).

    Attributes:
        chips: the new stack, not a difference, so repeating the command is harmless
    """

    TYPE: ClassVar[str] = "adjust_chips"
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
    text: Message
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
)
COMMAND_TAG = "op"


# =====================================================================================
# Client -> server
# =====================================================================================


@attrs.frozen(kw_only=True)
class Join:
    """Handshake as a new player: register under a name and get a session token.

    Attributes:
        name: 1-24 characters, no control characters; must not be taken
        password: the tournament password, if the server has one
    """

    TYPE: ClassVar[str] = "join"
    id: int | None = None
    version: int
    name: Name
    password: Secret | None = None


@attrs.frozen(kw_only=True)
class Resume:
    """Handshake as a returning player: take back the seat the token belongs to.

    Works straight into a running hand; the server answers with welcome, then a
    table_snapshot with your cards and, if it is your turn, your_turn.

    Attributes:
        token: the token from your join's welcome
    """

    TYPE: ClassVar[str] = "resume"
    id: int | None = None
    version: int
    token: Token


@attrs.frozen(kw_only=True)
class Spectate:
    """Handshake as a spectator: see tables, never hole cards before they are shown.

    Attributes:
        table: the table to watch, or null for the lobby only
    """

    TYPE: ClassVar[str] = "spectate"
    id: int | None = None
    version: int
    table: int | None = None


@attrs.frozen(kw_only=True)
class DirectorLogin:
    """Handshake as the tournament director.

    Attributes:
        secret: the director secret configured on the server
    """

    TYPE: ClassVar[str] = "director"
    id: int | None = None
    version: int
    secret: Secret


@attrs.frozen(kw_only=True)
class Act:
    """Act on your turn.

    The server checks the action against the same legal-actions query that produced
    your_turn; a refused action gets an error (not_your_turn, stale_hand,
    illegal_action) and your turn goes on.

    Attributes:
        table: your table (optional; checked if given)
        hand_no: the hand you are acting in; an old hand number is refused (stale_hand)
        action: fold, check, call, bet, raise or all_in
        amount: for bet and raise only (required there): the total you bet or raise *to*
            in this betting round, between legal.min_raise_to and legal.max_raise_to
    """

    TYPE: ClassVar[str] = "act"
    id: int | None = None
    table: int | None = None
    hand_no: int
    action: ActionKind
    amount: int | None = None

    def __attrs_post_init__(self) -> None:
        if self.action in ("bet", "raise"):
            if self.amount is None:
                raise RuleError(
                    "amount", f"amount is required for {self.action}", missing=True
                )
        elif self.amount is not None:
            raise RuleError("amount", f"amount is only given with bet or raise, not {self.action}")


@attrs.frozen(kw_only=True)
class SitOut:
    """Sit out from the next hand: your blinds are posted and your hands folded."""

    TYPE: ClassVar[str] = "sit_out"
    id: int | None = None


@attrs.frozen(kw_only=True)
class ImBack:
    """Come back from sitting out; you play from the next hand."""

    TYPE: ClassVar[str] = "im_back"
    id: int | None = None


@attrs.frozen(kw_only=True)
class Chat:
    """Say something at your table or in the lobby.

    Attributes:
        scope: table (your table) or lobby (everyone)
        text: 1-500 characters, no control characters
    """

    TYPE: ClassVar[str] = "chat"
    id: int | None = None
    scope: Scope
    text: Message


@attrs.frozen(kw_only=True)
class CallDirector:
    """Ask the tournament director to come to your table.

    Attributes:
        message: what the director should know
    """

    TYPE: ClassVar[str] = "call_director"
    id: int | None = None
    message: Message


@attrs.frozen(kw_only=True)
class DirectorCommand:
    """A director's command (director role only); done commands are announced.

    Attributes:
        command: the command, an object whose "op" names it (start, pause, resume,
            set_level, set_schedule, set_options, set_deadline, move_player,
            remove_player, adjust_chips, announce); every command needs a reason
    """

    TYPE: ClassVar[str] = "director_command"
    id: int | None = None
    command: Command


@attrs.frozen(kw_only=True)
class LobbyRequest:
    """Ask for the lobby (answered by lobby)."""

    TYPE: ClassVar[str] = "lobby_request"
    id: int | None = None


@attrs.frozen(kw_only=True)
class SnapshotRequest:
    """Ask for a table snapshot (answered by table_snapshot).

    Attributes:
        table: the table, or null for your own (players) / the one you watch (spectators)
    """

    TYPE: ClassVar[str] = "snapshot_request"
    id: int | None = None
    table: int | None = None


@attrs.frozen(kw_only=True)
class HistoryRequest:
    """Ask for finished hands (answered by history).

    Give hand_no for one hand, or last for the most recent hands (default 1; the server
    caps it). Players get their own cards in every hand they were dealt into.

    Attributes:
        table: the table, or null for your own
        hand_no: one hand by number
        last: how many of the most recent hands
    """

    TYPE: ClassVar[str] = "history_request"
    id: int | None = None
    table: int | None = None
    hand_no: int | None = None
    last: int | None = None

    def __attrs_post_init__(self) -> None:
        if self.hand_no is not None and self.last is not None:
            raise RuleError("last", "give hand_no or last, not both")


@attrs.frozen(kw_only=True)
class StandingsRequest:
    """Ask for the standings (answered by standings)."""

    TYPE: ClassVar[str] = "standings_request"
    id: int | None = None


@attrs.frozen(kw_only=True)
class Ping:
    """Keepalive from the client; the server answers pong with the same nonce.

    Attributes:
        nonce: any short string, echoed
    """

    TYPE: ClassVar[str] = "ping"
    id: int | None = None
    nonce: Nonce | None = None


@attrs.frozen(kw_only=True)
class Pong:
    """The client's answer to the server's ping.

    Attributes:
        nonce: the nonce of the ping answered
    """

    TYPE: ClassVar[str] = "pong"
    id: int | None = None
    nonce: Nonce | None = None


@attrs.frozen(kw_only=True)
class Goodbye:
    """The client leaves; the server closes the connection. A player keeps the seat
    (and its token) until eliminated: leaving is not folding out of the tournament.

    Attributes:
        reason: why, for the log
    """

    TYPE: ClassVar[str] = "goodbye"
    id: int | None = None
    reason: Reason | None = None


ClientMessage = (
    Join
    | Resume
    | Spectate
    | DirectorLogin
    | Act
    | SitOut
    | ImBack
    | Chat
    | CallDirector
    | DirectorCommand
    | LobbyRequest
    | SnapshotRequest
    | HistoryRequest
    | StandingsRequest
    | Ping
    | Pong
    | Goodbye
)
Handshake = Join | Resume | Spectate | DirectorLogin
"""The client messages that open a session; each names the protocol version."""


# =====================================================================================
# Server -> client
# =====================================================================================


@attrs.frozen(kw_only=True)
class Hello:
    """The server's first line: who it is and which protocol versions it speaks.

    Attributes:
        protocol: always "hickory"
        versions: protocol versions the server speaks; answer with one of them
        server: the server software and its version, e.g. "hickory-server 0.1.0"
        tournament: the tournament's name
        max_line: longest line the server accepts, in bytes without the newline
    """

    TYPE: ClassVar[str] = "hello"
    protocol: str
    versions: tuple[int, ...]
    server: ServerText
    tournament: Title
    max_line: int
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Welcome:
    """Handshake accepted.

    Attributes:
        version: the protocol version in use from now on
        role: player, spectator or director
        player_id: your player id (players), else null
        name: your name (players), else null
        token: session token, only in the reply to join: keep it to resume the same
            seat after a disconnect; it is never sent again
        table: your table (players once seated, spectators watching), else null
        seat: your seat (players once seated), else null
    """

    TYPE: ClassVar[str] = "welcome"
    id: int | None = None
    version: int
    role: Role
    player_id: int | None
    name: Name | None
    token: Token | None
    table: int | None
    seat: int | None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Error:
    """A request or line was refused.

    Attributes:
        code: stable error code (see the list of error codes)
        message: what went wrong, for a person
        path: the field at fault, e.g. "act.amount", or null
        fatal: the server closes the connection after this line
    """

    TYPE: ClassVar[str] = "error"
    id: int | None = None
    code: ErrorCode
    message: ServerText
    path: ServerText | None = None
    fatal: bool = False
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Ack:
    """A request with an id that has no other reply was done."""

    TYPE: ClassVar[str] = "ack"
    id: int | None = None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class ServerPing:
    """Keepalive from the server; answer pong with the same nonce.

    Attributes:
        nonce: echo it in your pong
    """

    TYPE: ClassVar[str] = "ping"
    nonce: Nonce | None = None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class ServerPong:
    """The server's answer to the client's ping.

    Attributes:
        nonce: the nonce of the ping answered
    """

    TYPE: ClassVar[str] = "pong"
    id: int | None = None
    nonce: Nonce | None = None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class ServerGoodbye:
    """The server closes the connection after this line.

    Attributes:
        reason: why, for a person (e.g. "server shutting down; resume with your token")
    """

    TYPE: ClassVar[str] = "goodbye"
    reason: ServerText
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Lobby:
    """The tournament as a whole: sent after the handshake, on change, and on request.

    Attributes:
        name: the tournament's name
        state: registering, running, paused or finished
        level: the current blind level, null before the start
        next_level_in: how long until the next level, in next_level_unit; null if there
            is no next level or the clock is stopped
        next_level_unit: seconds or hands
        schedule: the blind schedule
        players: every entrant
        tables: tables in play
        deadline: the time the tournament should end by, or null
    """

    TYPE: ClassVar[str] = "lobby"
    id: int | None = None
    name: Title
    state: Literal["registering", "running", "paused", "finished"]
    level: Level | None
    next_level_in: int | None
    next_level_unit: Literal["seconds", "hands"]
    schedule: tuple[ScheduleLevel, ...]
    players: tuple[LobbyPlayer, ...]
    tables: tuple[LobbyTable, ...]
    deadline: Timestamp | None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class TableSnapshot:
    """Everything about one table as this connection may see it.

    Sent after the handshake, on resume, after a table move, and on request. It replaces
    whatever the client knew about the table.

    Attributes:
        max_seats: seats at the table (seat numbers go from 1 to max_seats)
        hand_no: the hand in play or last played, null before the first hand
        street: betting round in play, null between hands
        button: the button's seat, null before the first hand
        seats: occupied seats
        board: community cards
        pots: pots, main pot first, counting every chip put in this hand (bets in front
            included) and, in the main pot, the chips carried in
        carried: odd chips carried into this hand from the previous one (already counted
            in the main pot)
        to_act: seat whose turn it is, or null
        your_seat: your seat at this table, null for spectators
        your_cards: your hole cards, null if you have none
    """

    TYPE: ClassVar[str] = "table_snapshot"
    id: int | None = None
    table: int
    max_seats: int
    hand_no: int | None
    street: Street | None
    button: int | None
    small_blind: int
    big_blind: int
    seats: tuple[SeatView, ...]
    board: tuple[Card, ...]
    pots: tuple[Pot, ...]
    carried: int
    to_act: int | None
    your_seat: int | None
    your_cards: tuple[Card, ...] | None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class HandStarted:
    """A new hand: button, blinds and the stacks it starts with.

    Attributes:
        button: the button's seat
        small_blind_seat: seat posting the small blind (the button heads-up)
        big_blind_seat: seat posting the big blind
        carried_in: odd chips carried in from the previous hand; they join the main pot
        stacks: every dealt-in seat's stack before the blinds
    """

    TYPE: ClassVar[str] = "hand_started"
    table: int
    hand_no: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    small_blind: int
    big_blind: int
    carried_in: int
    stacks: tuple[SeatStack, ...]
    seq: int | None = None


@attrs.frozen(kw_only=True)
class BlindPosted:
    """A blind was posted.

    Attributes:
        blind: small or big
        amount: chips posted (less than the blind if it put the player all in)
    """

    TYPE: ClassVar[str] = "blind_posted"
    table: int
    hand_no: int
    seat: int
    blind: Literal["small", "big"]
    amount: int
    all_in: bool
    seq: int | None = None


@attrs.frozen(kw_only=True)
class HoleCards:
    """Your hole cards (sent to you alone).

    Attributes:
        seat: your seat
        cards: your two cards
    """

    TYPE: ClassVar[str] = "hole_cards"
    table: int
    hand_no: int
    seat: int
    cards: tuple[Card, ...]
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Action:
    """A player acted.

    Attributes:
        seat: who acted
        action: fold, check, call, bet, raise or all_in
        amount: chips put in by this action
        to: the player's total bet in this betting round after the action
        all_in: the action left the player with no chips
        automatic: the server acted for the player (clock ran out, sitting out,
            disconnected); an automatic action checks when checking is free
    """

    TYPE: ClassVar[str] = "action"
    table: int
    hand_no: int
    seat: int
    action: ActionKind
    amount: int
    to: int
    all_in: bool
    automatic: bool
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Board:
    """Community cards were dealt.

    Attributes:
        street: flop, turn or river
        cards: the cards dealt now
        board: all community cards so far
    """

    TYPE: ClassVar[str] = "board"
    table: int
    hand_no: int
    street: Literal["flop", "turn", "river"]
    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Pots:
    """The pots after a betting round closed.

    Attributes:
        pots: main pot first, then side pots; carried chips are in the main pot
        carried: odd chips carried in from the previous hand (counted in the main pot)
    """

    TYPE: ClassVar[str] = "pots"
    table: int
    hand_no: int
    pots: tuple[Pot, ...]
    carried: int
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Showdown:
    """A player showed their cards.

    Attributes:
        cards: the cards shown
        hand_name: the hand they make, e.g. "Flush, ace high"; null when shown in an
            all-in before the board is complete
    """

    TYPE: ClassVar[str] = "showdown"
    table: int
    hand_no: int
    seat: int
    cards: tuple[Card, ...]
    hand_name: ServerText | None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class PotAwarded:
    """A pot was split among its winners.

    Attributes:
        pot: pot index, 0 for the main pot
        amount: chips in the pot
        winners: who won what
        hand_name: the winning hand, e.g. "Flush, ace high"; null when won without a
            showdown
        remainder_carried: odd chips that could not be split evenly; they are carried
            into the next hand at this table
    """

    TYPE: ClassVar[str] = "pot_awarded"
    table: int
    hand_no: int
    pot: int
    amount: int
    winners: tuple[Winner, ...]
    hand_name: ServerText | None = None
    remainder_carried: int
    seq: int | None = None


@attrs.frozen(kw_only=True)
class HandEnded:
    """The hand is over.

    Attributes:
        stacks: every dealt-in seat's stack after the hand
        carried_out: odd chips carried into the next hand
    """

    TYPE: ClassVar[str] = "hand_ended"
    table: int
    hand_no: int
    stacks: tuple[SeatStack, ...]
    carried_out: int
    seq: int | None = None


@attrs.frozen(kw_only=True)
class YourTurn:
    """It is your turn: what you may do and how long you have.

    If both run out, the server checks for you when checking is free, else folds.

    Attributes:
        seat: your seat
        legal: the legal actions and amounts
        deadline_ms: milliseconds left on the action clock when this was sent
        time_bank_ms: milliseconds of your time bank, used after the action clock
    """

    TYPE: ClassVar[str] = "your_turn"
    table: int
    hand_no: int
    seat: int
    legal: Legal
    deadline_ms: int
    time_bank_ms: int
    seq: int | None = None


@attrs.frozen(kw_only=True)
class PlayerStatus:
    """A player's presence changed.

    Attributes:
        table: their table, or null
        seat: their seat, or null
        status: sitting_out, back, disconnected, reconnected, eliminated or removed
    """

    TYPE: ClassVar[str] = "player_status"
    player_id: int
    name: Name
    table: int | None
    seat: int | None
    status: Literal["sitting_out", "back", "disconnected", "reconnected", "eliminated", "removed"]
    seq: int | None = None


@attrs.frozen(kw_only=True)
class PlayerMoved:
    """A player moved to another table (balancing or the director).

    Attributes:
        from_table: the table they left
        from_seat: the seat they left
        table: the table they now sit at
        seat: the seat they now sit in
    """

    TYPE: ClassVar[str] = "player_moved"
    player_id: int
    name: Name
    from_table: int
    from_seat: int
    table: int
    seat: int
    seq: int | None = None


@attrs.frozen(kw_only=True)
class ChatMessage:
    """Someone said something.

    Attributes:
        scope: table or lobby
        table: the table, for table chat; null for lobby chat
        player_id: the speaker's player id, null for spectators and the director
        name: the speaker's name
        role: the speaker's role
        text: what they said
    """

    TYPE: ClassVar[str] = "chat_message"
    scope: Scope
    table: int | None
    player_id: int | None
    name: Name
    role: Role
    text: Message
    seq: int | None = None


@attrs.frozen(kw_only=True)
class DirectorCalled:
    """A player called the director (sent to directors).

    Attributes:
        table: the player's table, or null
        seat: the player's seat, or null
        message: what the player wrote
    """

    TYPE: ClassVar[str] = "director_called"
    player_id: int
    name: Name
    table: int | None
    seat: int | None
    message: Message
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Announcement:
    """An announcement to everyone, by the director or the server.

    Attributes:
        text: the announcement
        by: who made it ("director" or "server")
        reason: the director's reason for the command announced, or null
    """

    TYPE: ClassVar[str] = "announcement"
    text: ServerText
    by: Name
    reason: ServerText | None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class History:
    """Finished hands, in the order played.

    Attributes:
        hands: the hands, as the requester may see them
    """

    TYPE: ClassVar[str] = "history"
    id: int | None = None
    hands: tuple[HandRecord, ...]
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Standings:
    """The standings, leader first.

    Attributes:
        places: one line per entrant, by place
        final: true once the tournament is over
    """

    TYPE: ClassVar[str] = "standings"
    id: int | None = None
    places: tuple[Place, ...]
    final: bool
    seq: int | None = None


@attrs.frozen(kw_only=True)
class TournamentFinished:
    """The tournament is over; the final result. The connection stays open for chat,
    history and standings until the server says goodbye.

    Attributes:
        name: the tournament's name
        places: final places, winner first
    """

    TYPE: ClassVar[str] = "tournament_finished"
    name: Title
    places: tuple[Place, ...]
    seq: int | None = None


ServerMessage = (
    Hello
    | Welcome
    | Error
    | Ack
    | ServerPing
    | ServerPong
    | ServerGoodbye
    | Lobby
    | TableSnapshot
    | HandStarted
    | BlindPosted
    | HoleCards
    | Action
    | Board
    | Pots
    | Showdown
    | PotAwarded
    | HandEnded
    | YourTurn
    | PlayerStatus
    | PlayerMoved
    | ChatMessage
    | DirectorCalled
    | Announcement
    | History
    | Standings
    | TournamentFinished
)

CLIENT_TYPES: dict[str, type[ClientMessage]] = {c.TYPE: c for c in get_args(ClientMessage)}
"""Client message classes by their "type"."""
SERVER_TYPES: dict[str, type[ServerMessage]] = {c.TYPE: c for c in get_args(ServerMessage)}
"""Server message classes by their "type"."""
COMMAND_TYPES: dict[str, type[Command]] = {c.TYPE: c for c in get_args(Command)}
"""Director command classes by their "op"."""
