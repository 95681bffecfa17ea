"""Messages a client sends to the server (client -> server), tagged by ``"type"``."""

from typing import ClassVar

import attrs

from protocol.commands import (
    Command,
)
from protocol.fields import (
    ActionKind,
    ClientSeedHex,
    Digest,
    DrawKind,
    Message,
    Name,
    Nonce,
    Reason,
    RuleError,
    Scope,
    Secret,
    TableNo,
    Token,
)

# =====================================================================================
# Client -> server
# =====================================================================================


@attrs.frozen(kw_only=True)
class Join:
    """Handshake as a new player: register under a name and get a session token.

    Attributes:
        name: 1-24 characters; normalised (NFKC, spaces), then refused if it holds
            invisible characters or the house's names, or is taken ignoring case,
            spacing and look-alike letters (see protocol.names)
        password: the tournament password, if the server has one
        token: a session token the client chose (version 2), sent again with the same
            name if the welcome never arrived: the server then resumes that player instead
            of refusing the name as taken. Without it the server makes the token.
    """

    TYPE: ClassVar[str] = "join"
    SINCE: ClassVar[int] = 1
    id: int | None = None
    version: int
    name: Name
    password: Secret | None = None
    token: Token | None = attrs.field(default=None, metadata={"since": 2})


@attrs.frozen(kw_only=True)
class Resume:
    """Handshake as a returning player: take back the seat the token belongs to.

    Works straight into a running hand; the server answers with welcome, then a
    table_snapshot with your cards and, if it is your turn, your_turn.

    Attributes:
        token: the token from your join's welcome
    """

    TYPE: ClassVar[str] = "resume"
    SINCE: ClassVar[int] = 1
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
    SINCE: ClassVar[int] = 1
    id: int | None = None
    version: int
    table: TableNo | None = None


@attrs.frozen(kw_only=True)
class DirectorLogin:
    """Handshake as the tournament director.

    Attributes:
        secret: the director secret configured on the server
    """

    TYPE: ClassVar[str] = "director"
    SINCE: ClassVar[int] = 1
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
    SINCE: ClassVar[int] = 1
    id: int | None = None
    table: TableNo | None = None
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
    """Sit out, at once: from your next decision (in this hand too) the server checks
    for you when checking is free and folds otherwise; your blinds are still posted."""

    TYPE: ClassVar[str] = "sit_out"
    SINCE: ClassVar[int] = 1
    id: int | None = None


@attrs.frozen(kw_only=True)
class Reenter:
    """Enter again, once out, for a new starting stack (since version 3), while the
    director allows re-entry (``reentry_offer`` says so). The server seats you as a late
    entry: a table_snapshot follows; or an error says why not ("re-entry closed at the
    end of level 4")."""

    TYPE: ClassVar[str] = "reenter"
    SINCE: ClassVar[int] = 3
    id: int | None = None


@attrs.frozen(kw_only=True)
class ImBack:
    """Come back from sitting out; you play from the next hand (the hand in play goes on
    being played for you). player_status back says so when that hand ends."""

    TYPE: ClassVar[str] = "im_back"
    SINCE: ClassVar[int] = 1
    id: int | None = None


@attrs.frozen(kw_only=True)
class Chat:
    """Say something at your table or in the lobby.

    Attributes:
        scope: table (your table) or lobby (everyone)
        text: 1-500 characters, no control characters
    """

    TYPE: ClassVar[str] = "chat"
    SINCE: ClassVar[int] = 1
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
    SINCE: ClassVar[int] = 1
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
    SINCE: ClassVar[int] = 1
    id: int | None = None
    command: Command


@attrs.frozen(kw_only=True)
class LobbyRequest:
    """Ask for the lobby (answered by lobby)."""

    TYPE: ClassVar[str] = "lobby_request"
    SINCE: ClassVar[int] = 1
    id: int | None = None


@attrs.frozen(kw_only=True)
class SnapshotRequest:
    """Ask for a table snapshot (answered by table_snapshot).

    Attributes:
        table: the table, or null for your own (players) / the one you watch (spectators,
            the director, and players who are out, who may watch any table)
    """

    TYPE: ClassVar[str] = "snapshot_request"
    SINCE: ClassVar[int] = 1
    id: int | None = None
    table: TableNo | None = None


@attrs.frozen(kw_only=True)
class HistoryRequest:
    """Ask for finished hands (answered by history).

    Give hand_no for one hand, or last for the most recent hands (default 1; the server
    caps it). Players get their own cards in every hand they were dealt into. A hand_no
    that is not in the history (not finished, or no such hand) gets not_found.

    Attributes:
        table: the table, or null for your own
        hand_no: one hand by number
        last: how many of the most recent hands
    """

    TYPE: ClassVar[str] = "history_request"
    SINCE: ClassVar[int] = 1
    id: int | None = None
    table: TableNo | None = None
    hand_no: int | None = None
    last: int | None = None

    def __attrs_post_init__(self) -> None:
        if self.hand_no is not None and self.last is not None:
            raise RuleError("last", "give hand_no or last, not both")


@attrs.frozen(kw_only=True)
class StandingsRequest:
    """Ask for the standings (answered by standings)."""

    TYPE: ClassVar[str] = "standings_request"
    SINCE: ClassVar[int] = 1
    id: int | None = None


@attrs.frozen(kw_only=True)
class Ping:
    """Keepalive from the client; the server answers pong with the same nonce.

    Attributes:
        nonce: any short string, echoed
    """

    TYPE: ClassVar[str] = "ping"
    SINCE: ClassVar[int] = 1
    id: int | None = None
    nonce: Nonce | None = None


@attrs.frozen(kw_only=True)
class Pong:
    """The client's answer to the server's ping.

    Attributes:
        nonce: the nonce of the ping answered
    """

    TYPE: ClassVar[str] = "pong"
    SINCE: ClassVar[int] = 1
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
    SINCE: ClassVar[int] = 1
    id: int | None = None
    reason: Reason | None = None


@attrs.frozen(kw_only=True)
class ClientSeed:
    """Your seed for a draw, in answer to deck_commit (protocol version 2).

    Send fresh random bytes (16 to 32; e.g. ``secrets.token_hex(32)``) as soon as the
    deck_commit arrives, never before: the server has fixed its own seed by then, so it
    cannot choose a deck against yours. A seed that comes after the window, or from a
    player not seated at that table (out and watching it), is ignored, with no error (an
    ack if it had an id): seeds_received shows whether yours counted. Sending none is fine.

    Attributes:
        draw: deck or seating, from the deck_commit
        table: from the deck_commit
        number: from the deck_commit
        commit: the commitment you answer, from the deck_commit
        seed: your seed, 32 to 64 lowercase hex digits
    """

    TYPE: ClassVar[str] = "client_seed"
    SINCE: ClassVar[int] = 2
    id: int | None = None
    draw: DrawKind
    table: int
    number: int
    commit: Digest
    seed: ClientSeedHex


ClientMessage = (
    Join
    | Resume
    | Spectate
    | DirectorLogin
    | Act
    | SitOut
    | ImBack
    | Reenter
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
    | ClientSeed
)
Handshake = Join | Resume | Spectate | DirectorLogin
"""The client messages that open a session; each names the protocol version."""


