"""Nothing a director types can break the night (#12): every director command, with
arguments drawn from the edges (huge, zero, unknown players and tables, past and absurd
dates), against a real server process with a database, killed and restarted between
rounds. Every command gets an answer (ack or a coded error), every restart comes up, and
the tournament keeps dealing hands."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import trio

import protocol.messages as m
from protocol.codec import encode
from protocol.errors import ProtocolError
from tests.persistence.harness import ServerProcess
from tests.server.rawclient import RawClient

BIG = 2**53 - 1
ROUNDS = 3


def edge_int(rng: random.Random) -> int:
    return rng.choice([0, 1, 2, 3, 5, 9, 10, 50, 99, 1000, 10**6, 2**31, BIG])


def every_command(rng: random.Random) -> list[m.Command]:
    """Each kind of director command once, in a random order, with arguments a tired or
    careless director might type."""
    reason = rng.choice(["fuzz", "typo", "x" * 200])
    player = rng.choice([1, 2, 3, 4, 99, BIG])
    makers: list[Callable[[], m.Command]] = [
        lambda: m.PauseCommand(reason=reason),
        lambda: m.ResumeCommand(reason=reason),
        lambda: m.SetLevelCommand(index=edge_int(rng), reason=reason),
        lambda: m.SetScheduleCommand(levels=tuple(
            m.ScheduleLevel(small_blind=edge_int(rng), big_blind=edge_int(rng), minutes=None, hands=None)
            for _ in range(rng.choice([1, 2, 3]))), reason=reason),
        lambda: m.SetOptionsCommand(action_seconds=rng.choice([None, 0, 1, 30, BIG]),
                                    time_bank_seconds=rng.choice([None, 0, 60, BIG]),
                                    hands_per_level=rng.choice([None, 1, BIG]),
                                    ruleset=rng.choice([None, "hickory", "standard"]), reason=reason),
        lambda: m.SetDeadlineCommand(deadline=rng.choice([None, "2000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
                                                           "2026-02-30T10:00:00Z", "2026-12-01T10:00:00+14:00"]),
                                     reason=reason),
        lambda: m.MovePlayerCommand(player_id=player, table=rng.choice([1, 2, 9, BIG]),
                                    seat=rng.choice([None, 1, 10, BIG]), reason=reason),
        lambda: m.RemovePlayerCommand(player_id=rng.choice([99, BIG]), reason=reason),  # never a real one
        lambda: m.AdjustChipsCommand(player_id=player, chips=edge_int(rng), reason=reason),
        lambda: m.AnnounceCommand(text=rng.choice(["break soon", "\u202ereversed", "x" * 500]), reason=reason),
        lambda: m.RuleCommand(call_id=rng.choice([None, 1, BIG]), table=rng.choice([None, 1, BIG]),
                              decision="the bet stands", reason=reason),
        lambda: m.AwardCommand(title=rng.choice(["Best bluff", "Iron man"]), player_id=player, reason=reason),
        lambda: m.LateRegistrationCommand(until_level=rng.choice([None, 0, 1, 5, BIG]), reason=reason),
        lambda: m.VoidHandCommand(table=rng.choice([1, 2, BIG]), reason=reason),
        lambda: m.SetBreakCommand(after_level=rng.choice([0, 1, 2, 15, 99, BIG]),
                                  minutes=rng.choice([0, 1, 10, 120, 121, BIG]), reason=reason),
    ]
    rng.shuffle(makers)
    out = []
    for make in makers:
        while True:
            try:
                out.append(make())
                break
            except (ProtocolError, ValueError):  # a combination the message itself refuses
                continue
    return out


async def director(port: int, secret: str) -> RawClient:
    c = await RawClient.connect(port)
    await c.recv_until(m.Hello)
    await c.send(m.DirectorLogin(version=2, secret=secret))
    welcome = await c.recv()
    assert isinstance(welcome, m.Welcome), welcome
    return c


async def answer(d: RawClient, rid: int) -> m.ServerMessage:
    while True:
        msg = await d.recv()
        if isinstance(msg, (m.Ack, m.Error)) and msg.id == rid:
            return msg


async def hands_go_on(port: int) -> None:
    """A spectator sees a new hand start (or the tournament's end)."""
    s = await RawClient.connect(port)
    try:
        await s.recv_until(m.Hello)
        await s.send(m.Spectate(version=1))
        seen: list[str] = []
        while True:
            try:
                msg = await s.recv()
            except EOFError as exc:  # say what came before
                raise AssertionError(f"the server closed the spectator's connection after {seen[-20:]}") from exc
            if isinstance(msg, m.HandStarted | m.TournamentFinished):
                return
            if isinstance(msg, m.ServerPing):
                # Answered, as every client does. Once under the full suite no hand began
                # within 60 s of a round's resume (cause not found; the server logged
                # nothing): the unanswered ping closed this connection at 60 s, before the
                # test's own limit of 120 s could say whether hands went on.
                await s.send(m.Pong(nonce=msg.nonce))
            seen.append(type(msg).__name__ + (f" {msg.code}: {msg.message}" if isinstance(msg, m.Error) else ""))
    finally:
        await s.aclose()


async def test_every_director_command_with_edge_arguments_survives_kill_and_restart(tmp_path: Path) -> None:
    rng = random.Random(2026)
    server = ServerProcess(tmp_path, ["--no-deadline", "--bots", "4", "--bot-strategy", "calling-station",
                                      "--start-at", "4", "--hands-per-level", "50", "--starting-stack", "5000000",
                                      "--director-secret", "fuzz-secret", "--action-clock", "5"])
    sent: list[str] = []
    replies: list[str] = []
    try:
        for _ in range(ROUNDS):
            port = await server.start()
            with trio.fail_after(120):  # real time: generous for a loaded machine, a hang still ends
                await hands_go_on(port)
                d = await director(port, "fuzz-secret")
                commands = every_command(rng)
                for i, cmd in enumerate(commands):
                    sent.append(encode(cmd, m.LATEST_VERSION).decode())
                    await d.send(m.DirectorCommand(id=i + 1, command=cmd))
                    reply = await answer(d, i + 1)
                    replies.append(f"{sent[-1]} -> {type(reply).__name__}: {getattr(reply, 'message', '')}")
                    if isinstance(reply, m.Error):
                        assert reply.code != "internal", (sent[-1], reply)
                        assert not reply.fatal, (sent[-1], reply)
                await d.send(m.DirectorCommand(id=99, command=m.ResumeCommand(reason="play on")))
                await answer(d, 99)
                await hands_go_on(port)
                await d.aclose()
            server.signal()  # kill -9 between rounds
            await server.wait_exit()
        port = await server.start()
        with trio.fail_after(60):
            d = await director(port, "fuzz-secret")
            await d.send(m.DirectorCommand(id=1, command=m.ResumeCommand(reason="end of fuzz")))
            await answer(d, 1)
            await hands_go_on(port)
    except BaseException:
        print("commands and replies:", *replies, sep="\n  ")
        print("last sent:", sent[-1] if sent else None)
        print(server.last_log()[-3000:])
        raise
    finally:
        server.stop()
