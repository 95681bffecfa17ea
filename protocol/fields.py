"""What every message is built from: constrained text and number types, the closed sets
of values, the descriptions shared by fields of the same name, and ``RuleError``.

The conventions these encode are in ``protocol.messages``; the codec enforces them.
"""

import re
from typing import Annotated, Literal

import attrs

PROTOCOL_NAME = "hickory"
SUPPORTED_VERSIONS: tuple[int, ...] = (1, 2, 3)
LATEST_VERSION = SUPPORTED_VERSIONS[-1]
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


@attrs.frozen
class Least:
    """A lower bound on an integer field above the protocol's usual 0.

    Used as ``Annotated[int, Least(1)]`` for table and seat numbers, which start at 1: the
    codec refuses a smaller value when decoding and the schema writes ``minimum``.
    """

    min: int


def since(version: int) -> dict[str, int]:
    """Field metadata for a field new in ``version``: ``attrs.field(..., metadata=since(2))``.

    The encoder leaves the field out for a connection on an older version, and the decoder
    refuses it from one.
    """
    return {"since": version}


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
        # [0-9], not \d: Python's \d also takes other scripts' digits ("٢٠٢٥"), the schema's does not
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})$",
    ),
]
ServerText = Annotated[str, Text(0, 2000, control_ok=True)]
TableNo = Annotated[int, Least(1)]
"""A table number: tables are numbered from 1."""
SeatNo = Annotated[int, Least(1)]
"""A seat number: seats are numbered from 1 to the table's max_seats."""
Digest = Annotated[str, Text(64, 64, pattern="^[0-9a-f]{64}$")]
"""A SHA-256 value or a 32-byte seed, as 64 lowercase hex digits."""
ClientSeedHex = Annotated[str, Text(32, 64, pattern="^([0-9a-f]{2}){16,32}$")]
"""A player's seed for a draw: 16 to 32 random bytes as lowercase hex."""
TournamentId = Annotated[str, Text(1, 64, pattern="^[0-9a-z]+$")]
"""The tournament's id in the fair-deck scheme: random, fixed when it was created."""

ActionKind = Literal["fold", "check", "call", "bet", "raise", "all_in"]
Street = Literal["preflop", "flop", "turn", "river"]
Role = Literal["player", "spectator", "director"]
Scope = Literal["table", "lobby"]
DrawKind = Literal["deck", "seating"]

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


