"""Chat at a table or in the lobby: rate-limited per connection, stored, off at the director's word."""

from __future__ import annotations

import trio

import protocol.errors as E
import protocol.messages as m
from protocol.errors import ProtocolError
from server.clients import Client
from server.fanout import broadcast, table_clients
from server.house import House

WINDOW = 10.0  # seconds over which ``chat_per_10s`` counts


async def chat(h: House, client: Client, msg: m.Chat) -> None:
    if not h.chat_enabled and client.role != "director":
        raise ProtocolError(E.INVALID_STATE, "the director has turned player chat off")
    now = trio.current_time()
    while client.chat_times and client.chat_times[0] < now - WINDOW:
        client.chat_times.popleft()
    if len(client.chat_times) >= h.config.chat_per_10s:
        raise ProtocolError(E.RATE_LIMITED, f"at most {h.config.chat_per_10s} chat messages per 10 seconds")
    client.chat_times.append(now)
    name = h.players[client.player_id].name if client.player_id else (client.role or "?")
    table_id = h.client_table(client) if msg.scope == "table" else None
    out = m.ChatMessage(scope=msg.scope, table=table_id,
                        player_id=int(client.player_id) if client.player_id else None,
                        name=name, role=client.role, text=msg.text)  # type: ignore[arg-type]
    if msg.scope == "table":
        if table_id is None:
            raise ProtocolError(E.NOT_SEATED, "you are not at a table; use scope lobby")
        broadcast(h, out, table_clients(h, table_id))
    else:
        broadcast(h, out)
    h.journal.submit(h.journal.chat(msg.scope, client.player_id, msg.text))
    if msg.id is not None:
        client.send_nowait(m.Ack(id=msg.id))
