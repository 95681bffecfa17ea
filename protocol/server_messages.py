"""Messages the server sends to clients (server -> client), tagged by ``"type"``."""

from typing import ClassVar, Literal

import attrs

from protocol.fields import (
    ActionKind,
    Card,
    ErrorCode,
    Message,
    Name,
    Nonce,
    Role,
    Scope,
    ServerText,
    Street,
    Timestamp,
    Title,
    Token,
)
from protocol.parts import (
    HandRecord,
    Legal,
    Level,
    LobbyPlayer,
    LobbyTable,
    Place,
    Pot,
    ScheduleLevel,
    SeatStack,
    SeatView,
    Trophy,
    Winner,
)

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
        late_until_level: after the start, late registration is open through this level
            (numbered from 1), else null (version 2)
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
    late_until_level: int | None = attrs.field(default=None, metadata={"since": 2})
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
        call_id: the call's number in the director's queue; a rule command answers it
            (version 2)
        hand_no: the hand being played at the player's table when the call was made, or
            null (version 2)
    """

    TYPE: ClassVar[str] = "director_called"
    player_id: int
    name: Name
    table: int | None
    seat: int | None
    message: Message
    call_id: int | None = attrs.field(default=None, metadata={"since": 2})
    hand_no: int | None = attrs.field(default=None, metadata={"since": 2})
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
        trophies: the winner and runner-up by the rules, then the director's trophies
            (version 2)
    """

    TYPE: ClassVar[str] = "tournament_finished"
    name: Title
    places: tuple[Place, ...]
    trophies: tuple[Trophy, ...] = attrs.field(default=(), metadata={"since": 2})
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Ruling:
    """The director's ruling (version 2), to the table it concerns (or everyone) and to
    directors. A version-1 connection gets it as an announcement.

    Attributes:
        call_id: the player's call it answers, or null
        table: the table it concerns, or null for everyone
        decision: the ruling
    """

    TYPE: ClassVar[str] = "ruling"
    SINCE: ClassVar[int] = 2
    call_id: int | None
    table: int | None
    decision: Message
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
    | Ruling
)

