"""A join stored by a server that died before its welcome went out (#12 defect 2): the client
chose its token (protocol v2), sends the same join again, and gets its seat back."""

from __future__ import annotations

from pathlib import Path

import protocol.messages as m
from client.session import ClientSession
from server.app import open_server
from tests.server.harness import fast_config, running
from tests.server.rawclient import RawClient

TOKEN = "chosen-by-the-client-0123456789"


async def join(port: int, name: str, *, token: str | None, version: int = 2) -> m.ServerMessage:
    c = await RawClient.connect(port)
    try:
        await c.recv_until(m.Hello)
        await c.send(m.Join(version=version, name=name, token=token))
        return await c.recv()
    finally:
        await c.aclose()


async def test_the_same_join_after_a_lost_welcome_resumes_the_seat(tmp_path: Path) -> None:
    cfg = fast_config(3, db=tmp_path / "lost.db")
    server = open_server(cfg)
    try:
        async with running(cfg, server=server) as (_, port):
            c = await RawClient.connect(port)
            await c.recv_until(m.Hello)
            await c.send(m.Join(version=2, name="ann", token=TOKEN))
            await c.aclose()  # the welcome is never read: as if the server died before sending it
            first = await join(port, "bob", token=None)
            assert isinstance(first, m.Welcome)
    finally:
        assert server.store is not None
        server.store.close()
    again = open_server(cfg)  # the restarted server knows ann from the stored join
    try:
        async with running(cfg, server=again) as (_, port):
            welcome = await join(port, "ann", token=TOKEN)
            assert isinstance(welcome, m.Welcome) and welcome.name == "ann" and welcome.player_id == 1
            impostor = await join(port, "ANN", token="someone-else-entirely-000")
            assert isinstance(impostor, m.Error) and impostor.code == "name_taken"
            old_client = await join(port, "ann", token=None, version=1)
            assert isinstance(old_client, m.Error) and old_client.code == "name_taken"
    finally:
        assert again.store is not None
        again.store.close()


def test_the_client_offers_the_same_token_on_every_try() -> None:
    s = ClientSession("127.0.0.1", 1, name="ann")
    first = s._handshake_message(2)
    second = s._handshake_message(2)
    assert isinstance(first, m.Join) and isinstance(second, m.Join)
    assert first.token is not None and first.token == second.token
    v1 = s._handshake_message(1)
    assert isinstance(v1, m.Join) and v1.token is None
