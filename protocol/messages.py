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

from typing import get_args

from protocol.client_messages import (
    Act,
    CallDirector,
    Chat,
    ClientMessage,
    DirectorCommand,
    DirectorLogin,
    Goodbye,
    Handshake,
    HistoryRequest,
    ImBack,
    Join,
    LobbyRequest,
    Ping,
    Pong,
    Resume,
    SitOut,
    SnapshotRequest,
    Spectate,
    StandingsRequest,
)
from protocol.commands import (
    COMMAND_TAG,
    AdjustChipsCommand,
    AnnounceCommand,
    AwardCommand,
    Command,
    LateRegistrationCommand,
    MovePlayerCommand,
    PauseCommand,
    RemovePlayerCommand,
    ResumeCommand,
    RuleCommand,
    SetDeadlineCommand,
    SetLevelCommand,
    SetOptionsCommand,
    SetScheduleCommand,
    StartCommand,
    VoidHandCommand,
)
from protocol.fields import (
    CARDS,
    CONTROL,
    FIELD_DOCS,
    MAX_INT,
    PROTOCOL_NAME,
    SUPPORTED_VERSIONS,
    ActionKind,
    Card,
    ErrorCode,
    Message,
    Name,
    Nonce,
    Reason,
    Role,
    RuleError,
    Scope,
    Secret,
    ServerText,
    Street,
    Text,
    Timestamp,
    Title,
    Token,
)
from protocol.parts import (
    BlindPost,
    HandAction,
    HandPlayer,
    HandRecord,
    Legal,
    Level,
    LobbyPlayer,
    LobbyTable,
    Place,
    Pot,
    PotResult,
    ScheduleLevel,
    SeatStack,
    SeatView,
    ShownHand,
    Trophy,
    Winner,
)
from protocol.server_messages import (
    Ack,
    Action,
    Announcement,
    BlindPosted,
    Board,
    ChatMessage,
    DirectorCalled,
    Error,
    HandEnded,
    HandStarted,
    Hello,
    History,
    HoleCards,
    Lobby,
    PlayerMoved,
    PlayerStatus,
    PotAwarded,
    Pots,
    Ruling,
    ServerGoodbye,
    ServerMessage,
    ServerPing,
    ServerPong,
    Showdown,
    Standings,
    TableSnapshot,
    TournamentFinished,
    Welcome,
    YourTurn,
)

__all__ = [
    "Ack",
    "Act",
    "Action",
    "ActionKind",
    "AdjustChipsCommand",
    "AnnounceCommand",
    "Announcement",
    "BlindPost",
    "BlindPosted",
    "Board",
    "CARDS",
    "CLIENT_TYPES",
    "COMMAND_TAG",
    "COMMAND_TYPES",
    "CONTROL",
    "CallDirector",
    "Card",
    "Chat",
    "ChatMessage",
    "ClientMessage",
    "Command",
    "DirectorCalled",
    "DirectorCommand",
    "DirectorLogin",
    "Error",
    "ErrorCode",
    "FIELD_DOCS",
    "Goodbye",
    "HandAction",
    "HandEnded",
    "HandPlayer",
    "HandRecord",
    "HandStarted",
    "Handshake",
    "Hello",
    "History",
    "HistoryRequest",
    "HoleCards",
    "ImBack",
    "Join",
    "Legal",
    "Level",
    "Lobby",
    "LobbyPlayer",
    "LobbyRequest",
    "LobbyTable",
    "MAX_INT",
    "Message",
    "MovePlayerCommand",
    "Name",
    "Nonce",
    "PROTOCOL_NAME",
    "PauseCommand",
    "Ping",
    "Place",
    "PlayerMoved",
    "PlayerStatus",
    "Pong",
    "Pot",
    "PotAwarded",
    "PotResult",
    "Pots",
    "Reason",
    "RemovePlayerCommand",
    "Resume",
    "ResumeCommand",
    "Role",
    "RuleError",
    "SERVER_TYPES",
    "SUPPORTED_VERSIONS",
    "ScheduleLevel",
    "Scope",
    "SeatStack",
    "SeatView",
    "Secret",
    "ServerGoodbye",
    "ServerMessage",
    "ServerPing",
    "ServerPong",
    "ServerText",
    "SetDeadlineCommand",
    "SetLevelCommand",
    "SetOptionsCommand",
    "SetScheduleCommand",
    "Showdown",
    "ShownHand",
    "SitOut",
    "SnapshotRequest",
    "Spectate",
    "Standings",
    "StandingsRequest",
    "StartCommand",
    "Street",
    "TableSnapshot",
    "Text",
    "Timestamp",
    "Title",
    "Token",
    "TournamentFinished",
    "Welcome",
    "Winner",
    "Trophy",
    "Ruling",
    "RuleCommand",
    "AwardCommand",
    "VoidHandCommand",
    "LateRegistrationCommand",
    "YourTurn",
]

CLIENT_TYPES: dict[str, type[ClientMessage]] = {c.TYPE: c for c in get_args(ClientMessage)}
"""Client message classes by their "type"."""
SERVER_TYPES: dict[str, type[ServerMessage]] = {c.TYPE: c for c in get_args(ServerMessage)}
"""Server message classes by their "type"."""
COMMAND_TYPES: dict[str, type[Command]] = {c.TYPE: c for c in get_args(Command)}
"""Director command classes by their "op"."""
