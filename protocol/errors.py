"""The one exception of the protocol layer, and the stable error codes.

A bad line, a wrong field or a refused request all become a ``ProtocolError`` with a
``code`` from the list below, a human ``message`` and, where a field is to blame, a
``path`` like ``act.amount``. The server turns it into an ``error`` message; a client
author can switch on ``code`` and show ``message`` to a person.

The codes are part of protocol v1: a code's meaning never changes within a version. New
codes may be added; a client must treat an unknown code like ``internal`` (show the
message, carry on).
"""

from __future__ import annotations

# --- framing and JSON (the line itself is bad) -------------------------------------------
BAD_JSON = "bad_json"
BAD_UTF8 = "bad_utf8"
LINE_TOO_LONG = "line_too_long"
NOT_AN_OBJECT = "not_an_object"
# --- message shape (valid JSON, wrong message) -------------------------------------------
MISSING_TYPE = "missing_type"
UNKNOWN_TYPE = "unknown_type"
INVALID_FIELD = "invalid_field"
MISSING_FIELD = "missing_field"
UNKNOWN_FIELD = "unknown_field"
# --- session ------------------------------------------------------------------------------
UNSUPPORTED_VERSION = "unsupported_version"
HANDSHAKE_REQUIRED = "handshake_required"
ALREADY_JOINED = "already_joined"
UNAUTHORIZED = "unauthorized"
BAD_TOKEN = "bad_token"
NAME_TAKEN = "name_taken"
SERVER_FULL = "server_full"
WRONG_PASSWORD = "wrong_password"
# --- game ---------------------------------------------------------------------------------
NOT_YOUR_TURN = "not_your_turn"
ILLEGAL_ACTION = "illegal_action"
STALE_HAND = "stale_hand"
NOT_SEATED = "not_seated"
NOT_FOUND = "not_found"
INVALID_STATE = "invalid_state"
TOURNAMENT_OVER = "tournament_over"
# --- connection health --------------------------------------------------------------------
RATE_LIMITED = "rate_limited"
TOO_MANY_ERRORS = "too_many_errors"
TIMEOUT = "timeout"
INTERNAL = "internal"

ERROR_CODES: dict[str, str] = {
    BAD_JSON: "the line is not one valid JSON value (also: NaN/Infinity, numbers out of "
    "range, integers over 30 digits, duplicate keys, nesting over 32 levels, lone "
    "surrogates, a byte order mark, an empty line)",
    BAD_UTF8: "the line is not valid UTF-8",
    LINE_TOO_LONG: "the line is longer than the server's maximum line length; the "
    "connection is closed",
    NOT_AN_OBJECT: "the line is valid JSON but not a JSON object",
    MISSING_TYPE: "the object has no \"type\" field",
    UNKNOWN_TYPE: "\"type\" names no message this side accepts",
    INVALID_FIELD: "a field has the wrong JSON type or a value out of range; see path",
    MISSING_FIELD: "a required field is absent; see path",
    UNKNOWN_FIELD: "the message has a field protocol v1 does not define; see path",
    UNSUPPORTED_VERSION: "no common protocol version; the message lists the server's versions",
    HANDSHAKE_REQUIRED: "send join, resume, spectate or director before anything else",
    ALREADY_JOINED: "this connection has already completed the handshake",
    UNAUTHORIZED: "your role may not do this (e.g. a spectator acting, a player directing)",
    BAD_TOKEN: "the session token is unknown or no longer valid",
    NAME_TAKEN: "another player already uses that name",
    SERVER_FULL: "no connection (or spectator) room is free now; temporary: try again later, "
    "with backoff",
    WRONG_PASSWORD: "the tournament password or director secret is wrong",
    NOT_YOUR_TURN: "it is not your turn to act",
    ILLEGAL_ACTION: "the action or amount is not legal now; the message says what is",
    STALE_HAND: "the request names a hand that is no longer being played",
    NOT_SEATED: "you have no seat at that table",
    NOT_FOUND: "the table, hand or player named in the request does not exist",
    INVALID_STATE: "the request cannot be done in the tournament's current state",
    TOURNAMENT_OVER: "the tournament has finished",
    RATE_LIMITED: "too many requests (or registrations, or wrong passwords); the message says "
    "when to try again",
    TOO_MANY_ERRORS: "too many bad requests; the connection is closed",
    TIMEOUT: "a started line was not finished in time, or the client was silent too long; "
    "the connection is closed",
    INTERNAL: "the server failed; the request may or may not have been applied",
}
"""Every error code with its one-line meaning (rendered into docs/protocol.md)."""

FATAL_CODES: frozenset[str] = frozenset({LINE_TOO_LONG, TOO_MANY_ERRORS, TIMEOUT})
"""Codes after which the server sends the error and closes the connection."""


class ProtocolError(Exception):
    """A line or request that the protocol refuses, with a stable ``code``.

    ``path`` names the offending field (``act.amount``); ``id`` is the request id when the
    bad line carried a readable one, so the error reply can echo it.
    """

    code: str
    message: str
    path: str | None
    id: int | None

    def __init__(
        self, code: str, message: str, path: str | None = None, *, id: int | None = None
    ) -> None:
        # Only ``.args`` sees these (str, repr and pickle use the attributes below).
        super().__init__(code, message, path)  # pragma: no mutate - nothing reads .args
        self.code = code
        self.message = message
        self.path = path
        self.id = id

    @property
    def fatal(self) -> bool:
        """True if the server closes the connection after reporting this error."""
        return self.code in FATAL_CODES

    def __str__(self) -> str:
        if self.path:
            return f"{self.message} @ {self.path}"
        return self.message

    def __repr__(self) -> str:
        return f"ProtocolError({self.code!r}, {str(self)!r})"
