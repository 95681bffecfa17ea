"""Messages the server sends to clients (server -> client), tagged by ``"type"``."""

from typing import ClassVar, Literal

import attrs

from protocol.fields import (
    ActionKind,
    Card,
    Digest,
    DrawKind,
    ErrorCode,
    Message,
    Name,
    Nonce,
    Role,
    Scope,
    SeatNo,
    ServerText,
    Street,
    TableNo,
    Timestamp,
    Title,
    Token,
    TournamentId,
    since,
)
from protocol.parts import (
    DealtCards,
    HandRecord,
    Legal,
    Level,
    LobbyPlayer,
    LobbyTable,
    Place,
    Pot,
    RevealedDraw,
    Rules,
    ScheduleLevel,
    SeatStack,
    SeatView,
    SeedEntry,
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
    SINCE: ClassVar[int] = 1
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
    SINCE: ClassVar[int] = 1
    id: int | None = None
    version: int
    role: Role
    player_id: int | None
    name: Name | None
    token: Token | None
    table: TableNo | None
    seat: SeatNo | None
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
    SINCE: ClassVar[int] = 1
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
    SINCE: ClassVar[int] = 1
    id: int | None = None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class ServerPing:
    """Keepalive from the server; answer pong with the same nonce.

    Attributes:
        nonce: echo it in your pong
    """

    TYPE: ClassVar[str] = "ping"
    SINCE: ClassVar[int] = 1
    nonce: Nonce | None = None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class ServerPong:
    """The server's answer to the client's ping.

    Attributes:
        nonce: the nonce of the ping answered
    """

    TYPE: ClassVar[str] = "pong"
    SINCE: ClassVar[int] = 1
    id: int | None = None
    nonce: Nonce | None = None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class ServerGoodbye:
    """The server closes the connection after this line.

    Attributes:
        reason: why, for a person (e.g. "server shutting down; resume with your token")
        code: why, for a program (since v2): "replaced" when another connection resumed
            your seat with your token (do not reconnect by yourself: the other one would
            be replaced in turn), "shutdown" when the server stops; null otherwise
    """

    TYPE: ClassVar[str] = "goodbye"
    SINCE: ClassVar[int] = 1
    reason: ServerText
    code: ErrorCode | None = attrs.field(default=None, metadata=since(2))
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
        carried: odd chips carried at the tables into their next hand, in no player's
            chips: the chips in play are the players' chips plus these (since v2)
        start_players: the tournament starts by itself once this many players have
            joined; null if the director starts it (since v2)
        rules: the rules in force, with their version and the latest changes; null
            before the tournament is set up (since v2)
        break_after_level: during a break, the level it follows; else null. The state
            is paused during a break (since v2)
        break_until: during a break, when play resumes; else null (since v2)
        break_seconds_left: during a break, the seconds until play resumes; else null
            (since v2)
        entries: every entry so far, the players registered and their re-entries
            (since v3)
    """

    TYPE: ClassVar[str] = "lobby"
    SINCE: ClassVar[int] = 1
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
    carried: int = attrs.field(default=0, metadata=since(2))
    start_players: int | None = attrs.field(default=None, metadata=since(2))
    rules: Rules | None = attrs.field(default=None, metadata=since(2))
    break_after_level: int | None = attrs.field(default=None, metadata=since(2))
    break_until: Timestamp | None = attrs.field(default=None, metadata=since(2))
    break_seconds_left: int | None = attrs.field(default=None, metadata=since(2))
    entries: int | None = attrs.field(default=None, metadata=since(3))
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
        deadline_ms: milliseconds left on the acting seat's action clock, null if no one
            is to act (since v2)
        time_bank_ms: milliseconds of the acting seat's time bank, used after the action
            clock; null if no one is to act (since v2)
        small_blind_seat: the seat that posted the small blind of the hand in play (the
            button heads-up), null between hands (since v3)
        big_blind_seat: the seat that posted the big blind of the hand in play, null
            between hands (since v3)
        ante: the big-blind ante: in a hand in play what the big blind posted (in the
            pots already), between hands the level's; 0 for none (since v3)
    """

    TYPE: ClassVar[str] = "table_snapshot"
    SINCE: ClassVar[int] = 1
    id: int | None = None
    table: TableNo
    max_seats: int
    hand_no: int | None
    street: Street | None
    button: SeatNo | None
    small_blind: int
    big_blind: int
    seats: tuple[SeatView, ...]
    board: tuple[Card, ...]
    pots: tuple[Pot, ...]
    carried: int
    to_act: SeatNo | None
    your_seat: SeatNo | None
    your_cards: tuple[Card, ...] | None
    deadline_ms: int | None = attrs.field(default=None, metadata=since(2))
    time_bank_ms: int | None = attrs.field(default=None, metadata=since(2))
    small_blind_seat: SeatNo | None = attrs.field(default=None, metadata=since(3))
    big_blind_seat: SeatNo | None = attrs.field(default=None, metadata=since(3))
    ante: int | None = attrs.field(default=None, metadata=since(3))
    seq: int | None = None


@attrs.frozen(kw_only=True)
class HandStarted:
    """A new hand: button, blinds and the stacks it starts with.

    Attributes:
        button: the button's seat
        small_blind_seat: seat posting the small blind (the button heads-up)
        big_blind_seat: seat posting the big blind
        carried_in: odd chips carried in from the previous hand; they join the main pot
        stacks: every dealt-in seat's stack before the blinds (after the big-blind ante,
            when there is one: every version's sums stay right)
        ante: the big-blind ante the big blind posted before the blind, already out of
            its stack above; dead money in the main pot, not part of its bet. 0: none
            (since v3)
    """

    TYPE: ClassVar[str] = "hand_started"
    SINCE: ClassVar[int] = 1
    table: TableNo
    hand_no: int
    button: SeatNo
    small_blind_seat: SeatNo
    big_blind_seat: SeatNo
    small_blind: int
    big_blind: int
    carried_in: int
    stacks: tuple[SeatStack, ...]
    ante: int | None = attrs.field(default=None, metadata=since(3))
    seq: int | None = None


@attrs.frozen(kw_only=True)
class BlindPosted:
    """A blind was posted.

    Attributes:
        blind: small or big
        amount: chips posted (less than the blind if it put the player all in)
    """

    TYPE: ClassVar[str] = "blind_posted"
    SINCE: ClassVar[int] = 1
    table: TableNo
    hand_no: int
    seat: SeatNo
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
    SINCE: ClassVar[int] = 1
    table: TableNo
    hand_no: int
    seat: SeatNo
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
    SINCE: ClassVar[int] = 1
    table: TableNo
    hand_no: int
    seat: SeatNo
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
    SINCE: ClassVar[int] = 1
    table: TableNo
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
    SINCE: ClassVar[int] = 1
    table: TableNo
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
        best_five: the five cards that play, made part first then kickers high to low;
            null when hand_name is (since v2)
        hand_detail: the hand with the kickers that play, e.g. "Three of a kind, queens,
            kickers king and seven"; null when hand_name is (since v2)
    """

    TYPE: ClassVar[str] = "showdown"
    SINCE: ClassVar[int] = 1
    table: TableNo
    hand_no: int
    seat: SeatNo
    cards: tuple[Card, ...]
    hand_name: ServerText | None
    best_five: tuple[Card, ...] | None = attrs.field(default=None, metadata=since(2))
    hand_detail: ServerText | None = attrs.field(default=None, metadata=since(2))
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
        best_five: the winning five cards, made part first then kickers; null when won
            without a showdown (since v2)
        hand_detail: the winning hand with its kickers, e.g. "Pair of aces, kickers king,
            nine and four"; null when won without a showdown (since v2)
    """

    TYPE: ClassVar[str] = "pot_awarded"
    SINCE: ClassVar[int] = 1
    table: TableNo
    hand_no: int
    pot: int
    amount: int
    winners: tuple[Winner, ...]
    hand_name: ServerText | None = None
    remainder_carried: int
    best_five: tuple[Card, ...] | None = attrs.field(default=None, metadata=since(2))
    hand_detail: ServerText | None = attrs.field(default=None, metadata=since(2))
    seq: int | None = None


@attrs.frozen(kw_only=True)
class HandEnded:
    """The hand is over.

    Attributes:
        stacks: every dealt-in seat's stack after the hand
        carried_out: odd chips carried into the next hand
    """

    TYPE: ClassVar[str] = "hand_ended"
    SINCE: ClassVar[int] = 1
    table: TableNo
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
    SINCE: ClassVar[int] = 1
    table: TableNo
    hand_no: int
    seat: SeatNo
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
    SINCE: ClassVar[int] = 1
    player_id: int
    name: Name
    table: TableNo | None
    seat: SeatNo | None
    status: Literal["sitting_out", "back", "disconnected", "reconnected", "eliminated", "removed"]
    seq: int | None = None


@attrs.frozen(kw_only=True)
class PlayerMoved:
    """A player moved to another table (balancing or the director), or to another seat
    at the same table (the director; from_table is then table, and everyone at the table
    gets its table_snapshot after this).

    Attributes:
        from_table: the table they left
        from_seat: the seat they left
        table: the table they now sit at
        seat: the seat they now sit in
        stack: the chips they bring (since v3). A version 1 or 2 connection at the
            receiving table gets that table's table_snapshot after this instead
    """

    TYPE: ClassVar[str] = "player_moved"
    SINCE: ClassVar[int] = 1
    player_id: int
    name: Name
    from_table: TableNo
    from_seat: SeatNo
    table: TableNo
    seat: SeatNo
    stack: int | None = attrs.field(default=None, metadata=since(3))
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
    SINCE: ClassVar[int] = 1
    scope: Scope
    table: TableNo | None
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
    SINCE: ClassVar[int] = 1
    player_id: int
    name: Name
    table: TableNo | None
    seat: SeatNo | None
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
    SINCE: ClassVar[int] = 1
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
    SINCE: ClassVar[int] = 1
    id: int | None = None
    hands: tuple[HandRecord, ...]
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Standings:
    """The standings, leader first: on request, and to a player the moment they are out
    (their finishing place is in it).

    Attributes:
        places: one line per entrant, by place
        final: true once the tournament is over
        carried: odd chips carried at the tables into their next hand, in no player's
            chips (since v2)
    """

    TYPE: ClassVar[str] = "standings"
    SINCE: ClassVar[int] = 1
    id: int | None = None
    places: tuple[Place, ...]
    final: bool
    carried: int = attrs.field(default=0, metadata=since(2))
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
    SINCE: ClassVar[int] = 1
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


@attrs.frozen(kw_only=True)
class Turn:
    """Whose turn it is, to everyone at the table: players and spectators (since v2).

    Sent each time a seat is given the turn, just before that player's own your_turn, and
    again when the acting player's action clock runs out and the time bank starts (then
    deadline_ms is 0; not sent when the bank is empty). A seat that is sitting out gets
    no turn: the server acts for it at once. A client counts the clocks down from the
    moment it receives this line.

    Attributes:
        seat: the seat to act
        player_id: the player to act
        deadline_ms: milliseconds left on the action clock when this was sent
        time_bank_ms: milliseconds of the player's time bank, used after the action clock
    """

    TYPE: ClassVar[str] = "turn"
    SINCE: ClassVar[int] = 2
    table: TableNo
    hand_no: int
    seat: SeatNo
    player_id: int
    deadline_ms: int
    time_bank_ms: int
    seq: int | None = None


@attrs.frozen(kw_only=True)
class BetReturned:
    """An uncalled bet (or the uncalled part of it) went back to its player (since v2).

    Sent before the pots and the awards, when the last bet or raise of the hand was not
    called in full. The chips leave the pot: the player's stack grows by ``amount``.

    Attributes:
        seat: the seat the chips go back to
        amount: chips returned
    """

    TYPE: ClassVar[str] = "bet_returned"
    SINCE: ClassVar[int] = 2
    table: TableNo
    hand_no: int
    seat: SeatNo
    amount: int
    seq: int | None = None


@attrs.frozen(kw_only=True)
class TableBroken:
    """The table you watch was broken up to balance the others (since v2).

    Sent to spectators and directors watching it (and players who are out, watching on);
    its players each get a player_moved and a table_snapshot of their new table. The
    watcher then gets the table_snapshot of the table most of them went to, and watches
    that one (a version 1 watcher gets the snapshot alone).

    Attributes:
        table: the table that closed
        tables: the tables still in play
    """

    TYPE: ClassVar[str] = "table_broken"
    SINCE: ClassVar[int] = 2
    table: TableNo
    tables: tuple[TableNo, ...]
    seq: int | None = None


@attrs.frozen(kw_only=True)
class DeckCommit:
    """The server's commitment to its seed for the next draw (protocol version 2).

    Sent to a table's players and watchers before each hand, and to every player before
    the seat draw. A player's client answers with ``client_seed`` at once; the server
    waits at most ``window_ms`` for the seeds, then lists them in ``seeds_received`` and
    draws. After the tournament, ``reveal`` gives the server seed, and the commitment,
    the seed list and the cards seen can be checked (docs/fairness.md). The same draw
    may be committed again with the same value after a restart.

    Attributes:
        draw: deck (the next hand at ``table``) or seating (the seat draw)
        tournament: the tournament's id in the scheme
        table: the table (0 for the seat draw)
        number: which hand at that table this deck is for (1 for its first hand); 0 for
            the seat draw
        commit: SHA-256 of the draw and the server's seed (64 hex digits)
        window_ms: how long the server waits for seeds, in milliseconds
    """

    TYPE: ClassVar[str] = "deck_commit"
    SINCE: ClassVar[int] = 2
    draw: DrawKind
    tournament: TournamentId
    table: int
    number: int
    commit: Digest
    window_ms: int
    seq: int | None = None


@attrs.frozen(kw_only=True)
class SeedsReceived:
    """The seeds the server will draw with, sent before the draw (protocol version 2).

    Check that yours is there: a seed that came too late is listed as null.

    Attributes:
        draw: deck or seating, as in the deck_commit
        table: the table (0 for the seat draw)
        number: as in the deck_commit
        commit: the commitment these seeds answer
        hand_no: the hand this deck is dealt to (null for the seat draw); its hand_started
            follows
        seeds: one entry per player dealt in, in seat order (for the seat draw: every
            entrant, in the order they registered)
    """

    TYPE: ClassVar[str] = "seeds_received"
    SINCE: ClassVar[int] = 2
    draw: DrawKind
    table: int
    number: int
    commit: Digest
    hand_no: int | None
    seeds: tuple[SeedEntry, ...]
    seq: int | None = None


@attrs.frozen(kw_only=True)
class Reveal:
    """The server seeds of the tournament's draws, once it is over (protocol version 2).

    Sent to every connection after tournament_finished (in several lines when there are
    many draws; ``final`` marks the last), to connections made after the end, and again
    when the director asks. Never during play: a seed shows every card of its hand,
    folded hands and the undealt board included.

    Attributes:
        tournament: the tournament's id in the scheme
        draws: revealed draws, in the order they were dealt
        chain: the hash chain over the hands played, as it ends (docs/fairness.md):
            the host's verify prints the same value
        final: true on the last reveal line
    """

    TYPE: ClassVar[str] = "reveal"
    SINCE: ClassVar[int] = 2
    tournament: TournamentId
    draws: tuple[RevealedDraw, ...]
    chain: Digest
    final: bool
    seq: int | None = None


@attrs.frozen(kw_only=True)
class ReentryOffer:
    """You are out, and may enter again now (since version 3; the director allows
    re-entry during late registration): send ``reenter`` to take a new starting stack.

    Attributes:
        stack: the chips a re-entry gets (the starting stack)
        entry: the number this entry would be (2 for the first re-entry)
        max_entries: the entries a player may make, the first included
        until_level: re-entry is open through this level; null while late registration
            is open
    """

    TYPE: ClassVar[str] = "reentry_offer"
    SINCE: ClassVar[int] = 3
    stack: int
    entry: int
    max_entries: int
    until_level: int | None
    seq: int | None = None


@attrs.frozen(kw_only=True)
class TvCards:
    """The TV table (since version 3): every dealt player's hole cards of a hand that is
    over, to the spectators watching that table, ``rules.tv_delay_seconds`` after the
    hand ended (never while it is played). Players, the director and the spectators of
    other tables never get it.

    Attributes:
        hand_no: the hand, already ended (its hand_ended came first)
        hands: each dealt seat's two cards, folded hands included
    """

    TYPE: ClassVar[str] = "tv_cards"
    SINCE: ClassVar[int] = 3
    table: TableNo
    hand_no: int
    hands: tuple[DealtCards, ...]
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
    | Turn
    | BetReturned
    | TableBroken
    | DeckCommit
    | SeedsReceived
    | Reveal
    | ReentryOffer
    | TvCards
)

