"""Where the session's connection stands and who this connection is.

Pure data the session sets (``ConnectionState``) and the server's ``welcome`` fills in
(``Identity``); the state that holds them is ``client.model.state.ModelState``.
"""

from __future__ import annotations

import enum

import attrs

from protocol import messages as m


class ConnectionState(enum.StrEnum):
    """Where the session's connection stands; ``refused`` and ``closed`` are final."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    REFUSED = "refused"
    CLOSED = "closed"


@attrs.define(kw_only=True)
class Identity:
    """Who this connection is, from ``welcome`` (the token only arrives in a join's welcome)."""

    role: m.Role | None = None
    player_id: int | None = None
    name: str | None = None
    token: str | None = None
    version: int | None = None
    table: int | None = None
    seat: int | None = None
