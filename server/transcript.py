"""An annotated transcript of one complete real hand, as two players and a spectator saw it.

``python -m server.transcript`` prints it as Markdown; ``server.docgen`` puts it into
docs/protocol.md. Nothing here is made up: a real ``Server`` runs in-process on a TCP
port, two plain TCP clients join and play one scripted heads-up hand to the end of the
tournament, a third connection watches, and every line each connection sent (→) and
received (←) is printed as it crossed the socket. Only the session token is masked.

Deterministic by construction, so the docs test can compare the committed transcript
with a fresh run: the deck and the seating come from a fixed seed, the run uses Trio's
``MockClock`` (times are virtual and fixed), and the script waits for each reply before
it sends the next line. The one thing the server does on its own clock (push the lobby
when it changed, at most twice a second) only happens while every task is idle; the
script makes those moments happen at fixed points (``settle``) so the pushes land at the
same place in every run.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import trio
import trio.testing

import protocol.messages as m
from protocol.codec import decode_server
from protocol.framing import LineBuffer
from server.app import Server
from server.config import ServerConfig

SEED = 7
"""Seeds the deck and the seating; chosen for a hand that goes to showdown, no split."""
TOKEN_MASK = "MASKED-SESSION-TOKEN-0000000000"
"""Stands in for the session token (a real token is random, and a secret)."""
CONFIG = ServerConfig(
    port=0,
    db=None,
    name="Friday Night Hickory",
    start_at=2,
    no_deadline=True,
    hand_pause=0.0,
    starting_stack=1000,
    schedule=((10, 20), (15, 30), (25, 50)),
    hands_per_level=10,
    seats=6,
    action_clock=30.0,
    time_bank=60.0,
    director_secret="transcript",
)
"""A two-player sit-and-go: starts when two have joined, one table of six seats."""

SENT = "→"
RECEIVED = "←"
T = TypeVar("T")


@attrs.define
class Line:
    """One line as it crossed the socket (without its newline)."""

    direction: str  # SENT or RECEIVED
    text: str
    msg: Any = None  # the decoded server message, for lines received


@attrs.define(eq=False)
class Wire:
    """A recorded TCP connection speaking JSON lines, like any third-party client."""

    name: str
    stream: trio.SocketStream
    lines: list[Line] = attrs.Factory(list)
    buf: LineBuffer = attrs.Factory(lambda: LineBuffer(1 << 22))
    pending: list[bytes] = attrs.Factory(list)
    eof: bool = False
    seat: int | None = None  # a player's seat, once seated

    @classmethod
    async def connect(cls, name: str, port: int) -> Wire:
        return cls(name, await trio.open_tcp_stream("127.0.0.1", port))

    async def send(self, obj: dict[str, Any]) -> None:
        text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
        self.lines.append(Line(SENT, text))
        await self.stream.send_all(text.encode() + b"\n")

    async def recv(self) -> m.ServerMessage:
        while not self.pending:
            data = await self.stream.receive_some(65536)
            if not data:
                self.eof = True
                raise EOFError(f"{self.name}: the server closed the connection")
            self.pending.extend(self.buf.feed(data))
        raw = self.pending.pop(0)
        msg = decode_server(raw)
        text = raw.decode()
        if isinstance(msg, m.Welcome) and msg.token is not None:
            text = text.replace(json.dumps(msg.token), json.dumps(TOKEN_MASK))
        self.lines.append(Line(RECEIVED, text, msg))
        return msg

    async def until(self, kind: type[T], pred: Callable[[T], bool] | None = None) -> T:
        """Read up to and including the next message of ``kind`` (matching ``pred``)."""
        while True:
            msg = await self.recv()
            if isinstance(msg, kind) and (pred is None or pred(msg)):
                return msg

    async def to_eof(self) -> None:
        while not self.eof:
            try:
                await self.recv()
            except EOFError:
                pass


async def settle() -> None:
    """Let the virtual clock run while nobody sends: the server's timed lobby push goes
    out now, at a fixed point of the script, instead of whenever the run happens to idle.
    (A quarter past a half second: never at the same instant as the server's own ticks.)"""
    await trio.sleep(0.75)


# The hand, heads-up: the button posts the small blind and acts first before the flop,
# the big blind first after it. (who, the act's fields); an "id" asks for an ack.
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("button", {"id": 1, "action": "raise", "amount": 30}),  # below the minimum: refused
    ("button", {"id": 2, "action": "raise", "amount": 60}),
    ("big", {"action": "call"}),
    ("big", {"action": "check"}),
    ("button", {"action": "bet", "amount": 100}),
    ("big", {"action": "call"}),
    ("big", {"action": "check"}),
    ("button", {"action": "check"}),
    ("big", {"action": "all_in"}),
    ("button", {"action": "call"}),
]


@attrs.frozen
class Recording:
    """Everything the three connections sent and received, and who sat where."""

    players: tuple[Wire, Wire]
    spectator: Wire
    seats: dict[int, str]  # seat -> name
    button: int


async def record(seed: int = SEED) -> Recording:
    """Run the server and the script; return the recorded connections."""
    server = Server(CONFIG, seed=seed)
    server.deck_rng = random.Random(seed)  # type: ignore[assignment]
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.run)

        alice = await Wire.connect("Alice", port)
        await alice.until(m.Hello)
        await alice.send({"type": "join", "version": 1, "name": "Alice"})
        await alice.until(m.Lobby)
        await settle()
        bob = await Wire.connect("Bob", port)
        await bob.until(m.Hello)
        await bob.send({"type": "join", "version": 1, "name": "Bob"})
        await bob.until(m.Lobby)

        # Two have joined: the server starts the tournament on its next tick, seats both
        # and deals the first hand.
        seat_of: dict[str, int] = {}
        started: m.HandStarted | None = None
        for wire in (alice, bob):
            snap = await wire.until(m.TableSnapshot)
            assert snap.your_seat is not None
            seat_of[wire.name] = wire.seat = snap.your_seat
            started = await wire.until(m.HandStarted)
            await wire.until(m.HoleCards)
        assert started is not None
        by_role = {
            ("button" if seat_of[w.name] == started.button else "big"): w for w in (alice, bob)
        }

        # A spectator arrives while the button thinks about the first decision.
        await by_role["button"].until(m.YourTurn)
        spectator = await Wire.connect("Spectator", port)
        await spectator.until(m.Hello)
        await spectator.send({"type": "spectate", "version": 1, "table": 1})
        await spectator.until(m.TableSnapshot)
        await settle()

        for who, fields in SCRIPT:
            wire = by_role[who]
            turn = _last_turn(wire) or await wire.until(m.YourTurn)
            act = {"type": "act", **({"id": fields["id"]} if "id" in fields else {}),
                   "hand_no": turn.hand_no,
                   **{k: v for k, v in fields.items() if k != "id"}}
            await wire.send(act)
            if "id" in fields:
                await wire.until((m.Ack, m.Error), lambda x: x.id == fields["id"])  # type: ignore[arg-type]
            else:
                await wire.until(m.Action, lambda a: a.seat == turn.seat)
            # wait for the next decision (or the end) before anyone sends again
        for wire in (alice, bob, spectator):
            await wire.until(m.TournamentFinished)

        # The loser says "gg" to everyone and leaves; then the server shuts down.
        finished = _last(alice, m.TournamentFinished)
        loser_id = finished.places[-1].player_id
        loser = next(w for w in (alice, bob) if _welcome(w).player_id == loser_id)
        await loser.send({"type": "chat", "scope": "lobby", "text": "gg, well played"})
        for wire in (alice, bob, spectator):
            await wire.until(m.ChatMessage)
        await loser.send({"type": "goodbye", "reason": "off to bed"})
        await loser.to_eof()
        await server.shutdown("the server is shutting down")
        for wire in (alice, bob, spectator):
            await wire.to_eof()
        nursery.cancel_scope.cancel()
    seats = {seat: name for name, seat in seat_of.items()}
    return Recording(players=(alice, bob), spectator=spectator, seats=seats,
                     button=started.button)


def _last(wire: Wire, kind: type[T]) -> T:
    for line in reversed(wire.lines):
        if isinstance(line.msg, kind):
            return line.msg
    raise LookupError(kind)


def _welcome(wire: Wire) -> m.Welcome:
    return _last(wire, m.Welcome)


def _last_turn(wire: Wire) -> m.YourTurn | None:
    """The your_turn received and not acted on yet (a refused act leaves it open)."""
    for line in reversed(wire.lines):
        if isinstance(line.msg, m.YourTurn):
            return line.msg
        if isinstance(line.msg, m.Action) and line.msg.seat == wire.seat:
            return None
    return None


def run(seed: int = SEED) -> Recording:
    return trio.run(record, seed, clock=trio.testing.MockClock(autojump_threshold=0))


def main() -> None:
    rec = run()
    for wire in (*rec.players, rec.spectator):
        print(f"## {wire.name}")
        for line in wire.lines:
            print(line.direction, line.text)


if __name__ == "__main__":
    main()
