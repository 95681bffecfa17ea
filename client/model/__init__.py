"""What a client knows, kept up to date by feeding it the server's messages.

``ClientModel.apply(msg)`` takes one decoded server message (``protocol.messages``) and
updates the state a client shows or decides from: who I am, the lobby, the table I sit at
or watch, my cards, my pending turn, a readable hand log, chat, announcements, standings
and the connection. It is pure (no trio, no socket, no clock): the session passes the
time a message arrived when it matters (``now``, seconds on any monotonic clock), so the
terminal client, the bots and the tests all drive the same object the same way.

The table is rebuilt from every ``table_snapshot`` and then moved forward by the hand
events. Anything the events cannot tell (a bet returned uncalled, a player who moved in
from another table) is repaired by the next ``pots``, ``hand_ended`` or snapshot. A gap in
the server's ``seq`` numbers sets ``needs_resync``; the session then asks for a snapshot.

``legal_from_protocol`` and ``situation_from_model`` turn the model into the engine's
``LegalActions`` and the strategies' ``Situation``, so a bot decides from exactly what a
person at the terminal would see; ``action_to_act`` turns an engine ``Action`` back into
the protocol's ``act``.

The parts, each with one job (imports go down this list, never up):

- ``log``: chip amounts, the hand log's wording, chat lines
- ``connection``: where the connection stands (``ConnectionState``), who I am (``Identity``)
- ``table``: the table and its seats, clocks and winners (pure data)
- ``turn``: my pending turn; ``legal_from_protocol`` and ``action_to_act``
- ``state``: ``ModelState``, every field, the session's connection calls, sequence numbers
- ``lobby``: the lobby and the standings kept current
- ``table_updates``: the snapshot and the hand's events applied to the table
- ``people``: player statuses and moves, chat, calls and announcements
- ``client_model``: ``ClientModel``, which dispatches each message class to its handler
- ``situation``: ``situation_from_model``, the strategies' view of my turn

This package re-exports the public names, so callers import them from ``client.model``.
"""

from __future__ import annotations

from client.model.client_model import ClientModel
from client.model.connection import ConnectionState, Identity
from client.model.log import ChatLine
from client.model.situation import situation_from_model
from client.model.table import SeatModel, TableModel, TurnClock, Won
from client.model.turn import PendingTurn, action_to_act, legal_from_protocol

__all__ = [
    "ChatLine",
    "ClientModel",
    "ConnectionState",
    "Identity",
    "PendingTurn",
    "SeatModel",
    "TableModel",
    "TurnClock",
    "Won",
    "action_to_act",
    "legal_from_protocol",
    "situation_from_model",
]
