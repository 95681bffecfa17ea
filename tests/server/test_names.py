"""Names that deceive, over real TCP and in the host's tools: normalised on join, compared
as they look, the house's names kept for the house, and printed safely."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

import protocol.messages as m
from server import cli, sessions
from server.app import open_server
from server.config import ServerConfig
from tests.server.harness import config, running
from tests.server.rawclient import RawClient


async def join(port: int, name: str) -> m.ServerMessage:
    c = await RawClient.connect(port)
    await c.recv_until(m.Hello)
    await c.send(m.Join(version=1, name=name))
    return await c.recv_until(m.Welcome | m.Error)  # type: ignore[arg-type]


async def test_names_that_look_alike_are_one_name(autojump_clock: object) -> None:
    async with running(config()) as (server, port):
        first = await join(port, "  Alice ")
        assert isinstance(first, m.Welcome) and first.name == "Alice", "stored as shown"
        for twin in ["Alice", "alice", "ALICE ", "Ａｌｉｃｅ", "A l i c e", "Al_ice",
                     "\u0410\u04cf\u0456\u0441\u0435"]:
            reply = await join(port, twin)
            assert isinstance(reply, m.Error) and reply.code == "name_taken", (twin, reply)
        for fake in ["Alice\u200b", "\u200b", "\u0301\u0301", "\u202eecilA", "\u3164"]:
            reply = await join(port, fake)
            assert isinstance(reply, m.Error) and reply.code == "invalid_field", (fake, reply)
            assert reply.path == "join.name" and "invisible" in reply.message or "combining" in reply.message
        assert [ps.name for ps in server.players.values()] == ["Alice"]
        lobby = await RawClient.connect(port)
        await lobby.spectate()
        shown = await lobby.recv_until(m.Lobby)
        assert [p.name for p in shown.players] == ["Alice"]


@pytest.mark.parametrize("name", ["director", "Director (director)", "server", "The System", "spectator",
                                  "[director] Bob", "director: paused"])
async def test_the_house_names_are_kept_for_the_house(autojump_clock: object, name: str) -> None:
    async with running(config()) as (_, port):
        reply = await join(port, name)
        assert isinstance(reply, m.Error) and reply.code == "invalid_field", reply
        assert reply.path == "join.name"


async def test_the_directors_chat_carries_the_director_role_and_no_player_can(autojump_clock: object) -> None:
    async with running(config()) as (_, port):
        player = await RawClient.connect(port)
        await player.join("Direktor")  # as close as the rules allow ("Dir-ector" is refused)
        director = await RawClient.connect(port)
        await director.recv_until(m.Hello)
        await director.send(m.DirectorLogin(version=1, secret="s3cret"))
        await director.recv_until(m.Welcome)
        await player.send(m.Chat(scope="lobby", text="the game is paused"))
        await director.send(m.Chat(scope="lobby", text="the game is paused"))
        said = [await player.recv_until(m.ChatMessage) for _ in range(2)]
    assert {(c.role, c.name) for c in said} == {("player", "Direktor"), ("director", "director")}


async def test_standings_print_names_safely(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A database from before the name rules may hold any name: ``hickory-server
    standings`` prints its invisible and right-to-left characters as codes."""
    db = tmp_path / "old.db"
    server = open_server(ServerConfig(db=db, port=0, host="127.0.0.1"))
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        # Registered as an older server did: no name rules.
        await sessions.register(server, "\u202eecilA", "tok-" + "x" * 20)
        await sessions.register(server, "Bob\u200b", "tok-" + "y" * 20)
        nursery.cancel_scope.cancel()
    assert server.store is not None
    server.store.close()
    assert cli.main(["standings", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\u200b" not in out
    assert "\\u202eecilA" in out and "Bob\\u200b" in out
    assert cli.main(["standings", "--db", str(db), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\\u202eecilA" in out
