"""An annotated transcript of one complete real hand, as two players and a spectator saw it.

``python -m tools.transcript`` prints it as Markdown; ``tools.docgen`` puts it into
docs/protocol.md. Nothing here is made up: a real ``Server`` runs in-process on a TCP
port, two plain TCP clients join and play one scripted heads-up hand to the end of the
tournament, a third connection watches, and every line each connection sent (→) and
received (←) is printed as it crossed the socket. Only the session token is masked.

Deterministic by construction, so the docs test can compare the committed transcript
with a fresh run: the server's seeds for the deck and the seating come from a fixed seed
and the players' seeds are fixed too (``seed_of``), the run uses Trio's
``MockClock`` (times are virtual and fixed), and the script waits for each reply before
it sends the next line. The one thing the server does on its own clock (push the lobby
when it changed, at most twice a second) only happens while every task is idle; the
script makes those moments happen at fixed points (``settle``) so the pushes land at the
same place in every run.
"""

from __future__ import annotations

import hashlib
import json
import random
import textwrap
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
        if isinstance(msg, m.DeckCommit):
            # A player adds a seed to every draw at once (docs/fairness.md); a fixed one
            # here, so the transcript is the same in every run (a real client's is random).
            await self.send({"type": "client_seed", "draw": msg.draw, "table": msg.table,
                             "number": msg.number, "commit": msg.commit, "seed": seed_of(self.name, msg)})
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


def seed_of(name: str, commit: m.DeckCommit) -> str:
    """The transcript's stand-in for a client's random seed: fixed, 16 bytes as hex."""
    return hashlib.sha256(f"{name} {commit.draw} {commit.table} {commit.number}".encode()).hexdigest()[:32]


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
    server.deck_rng = random.Random(seed)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.run)

        alice = await Wire.connect("Alice", port)
        await alice.until(m.Hello)
        await alice.send({"type": "join", "version": 2, "name": "Alice"})
        await alice.until(m.Lobby)
        await settle()
        bob = await Wire.connect("Bob", port)
        await bob.until(m.Hello)
        await bob.send({"type": "join", "version": 2, "name": "Bob"})
        await bob.until(m.Lobby)

        # Two have joined: on its next tick the server commits to the seat draw; both
        # answer with a seed (Wire.recv), it seats them, then commits to the first hand's
        # deck, both answer again, and it deals.
        for wire in (alice, bob):
            await wire.until(m.DeckCommit)
        seat_of: dict[str, int] = {}
        for wire in (alice, bob):
            snap = await wire.until(m.TableSnapshot)
            assert snap.your_seat is not None
            seat_of[wire.name] = wire.seat = snap.your_seat
        for wire in (alice, bob):
            await wire.until(m.DeckCommit)
        started: m.HandStarted | None = None
        for wire in (alice, bob):
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
            await _act(by_role[who], fields)
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


async def _act(wire: Wire, fields: dict[str, Any]) -> None:
    """Act on the wire's open turn (waiting for it), then wait for the server's answer."""
    turn = _last_turn(wire)
    if turn is None:
        turn = await wire.until(m.YourTurn)
    request_id = fields.get("id")
    act: dict[str, Any] = {"type": "act"}
    if request_id is not None:
        act["id"] = request_id
    act["hand_no"] = turn.hand_no
    act.update((k, v) for k, v in fields.items() if k != "id")
    await wire.send(act)
    if request_id is not None:
        await wire.until(m.Ack | m.Error, lambda x: x.id == request_id)  # type: ignore[arg-type]
    else:
        await wire.until(m.Action, lambda a: a.seat == turn.seat)


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
    """Record the transcript (a fresh Trio run on a virtual clock)."""
    return trio.run(record, seed, clock=trio.testing.MockClock(autojump_threshold=0))


# =====================================================================================
# The annotations: short comments, written from the messages themselves
# =====================================================================================


@attrs.define
class _Reader:
    """What one connection has seen so far, to write the next comment."""

    wire: Wire
    rec: Recording
    role: str
    seen: set[str] = attrs.Factory(set)
    street: str = "preflop"
    turn: m.YourTurn | None = None
    last_act: dict[str, Any] | None = None
    handshake_done: bool = False

    def name(self, seat: int) -> str:
        return f"{self.rec.seats[seat]} (seat {seat})"

    def first(self, kind: str) -> bool:
        new = kind not in self.seen
        self.seen.add(kind)
        return new


def _legal(legal: m.Legal, street: str) -> str:
    options = []
    if legal.fold:
        options.append("fold")
    if legal.check:
        options.append("check")
    if legal.call is not None:
        options.append(f"call {legal.call}")
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is not None and hi is not None:
        verb = "bet" if legal.check and street != "preflop" else "raise to"
        options.append(f"go all in for {hi}" if lo == hi else f"{verb} {lo} to {hi}")
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


def _action(a: m.Action, who: str) -> str:
    done = {
        "fold": "folds",
        "check": "checks",
        "call": f"calls {a.amount}",
        "bet": f"bets {a.to}",
        "raise": f"raises to {a.to} ({a.amount} more chips)",
        "all_in": f"goes all in to {a.to}",
    }[a.action]
    if a.all_in and a.action != "all_in":
        done += ", all in"
    return f"{who} {done}"


def _sent_note(r: _Reader, obj: dict[str, Any]) -> str | None:
    me = r.wire.name
    kind = obj["type"]
    if kind == "join":
        return (f"{me} answers with join: the protocol version she picks from "
                "hello.versions and her name. Client lines carry no seq; an id is "
                "optional (none here).") if me == "Alice" else (
                f"{me} joins the same way.")
    if kind == "spectate":
        return ("The spectator arrives in the middle of the hand, picks version 1 and "
                "asks to watch table 1. A version 1 connection is sent none of the messages "
                "or fields of version 2 (the fair deck's, turn, the kickers at the "
                "showdown).")
    if kind == "client_seed":
        if obj["draw"] == "seating":
            return (f"{me} answers at once with a seed of her own for that draw: 16 to 32 "
                    "random bytes as hex (fixed in this transcript), with the commitment it "
                    "answers.") if me == "Alice" else f"{me} sends his seed too."
        return f"{me} adds a seed to this deck too." if r.first("seed-deck") else None
    if kind == "act":
        r.last_act = obj
        turn = r.turn
        amount = obj.get("amount")
        if turn is not None and amount is not None and turn.legal.min_raise_to is not None \
                and amount < turn.legal.min_raise_to:
            return (f"{me} tries to {obj['action']} to {amount}, below legal.min_raise_to "
                    f"({turn.legal.min_raise_to}), with request id {obj['id']}.")
        text = f"{me} acts: {obj['action']}" + (f" to {amount}" if amount is not None else "")
        text += f" in hand {obj['hand_no']}."
        if obj["action"] == "all_in":
            text += " all_in needs no amount: it bets, raises or calls with every chip."
        if "id" in obj:
            text += f" With id {obj['id']}, the server will also acknowledge it."
        elif r.first("act-plain"):
            text += (" No id: the action event is the only answer. hand_no says which hand "
                     "the act is for; an act for an old hand is refused (stale_hand).")
        return text
    if kind == "chat":
        return (f"{me} says gg. Scope lobby reaches every connection; scope table, only "
                "the table (and she has no table any more).")
    if kind == "goodbye":
        return (f"{me} leaves. The server answers a goodbye by closing the connection, "
                "without a reply line.")
    return None


def _received_note(r: _Reader, msg: m.ServerMessage) -> str | None:
    me = r.wire.name
    spectator = r.role == "spectator"
    if isinstance(msg, m.Hello):
        return ("The server speaks first: its protocol, the versions it speaks, its "
                "software, the tournament and the longest line it accepts (in bytes). "
                "seq numbers every line the server sends on this connection, from 1.")
    if isinstance(msg, m.Welcome):
        if spectator:
            return ("Welcome: role spectator, watching table 1; no player id, no token. "
                    "Then the lobby and a snapshot of the table.")
        return (f"Welcome: {me} is player {msg.player_id}. The token (masked here) is "
                "sent this once: keep it, and resume with it after a dropped connection. "
                "No table or seat yet: registration is still open. id is null because "
                "the join had none.")
    if isinstance(msg, m.Lobby):
        seated = sum(p.table is not None for p in msg.players)
        if msg.state == "registering":
            if r.first("lobby-registering"):
                return (f"The lobby: registering, {len(msg.players)} player(s) waiting, "
                        "the blind schedule (levels by hands here, so next_level_unit is "
                        "hands), no tables yet.")
            return ("The lobby again, pushed because the tournament changed (her own "
                    "registration). Pushes are coalesced, at most about two a second, so "
                    "one may repeat what the client already knows.")
        if spectator:
            return None
        assert msg.level is not None
        return (f"The lobby, pushed: the tournament runs. Level {msg.level.index} "
                f"(blinds {msg.level.small_blind}/{msg.level.big_blind}), next level in "
                f"{msg.next_level_in} {msg.next_level_unit}; {seated} players seated at "
                f"{len(msg.tables)} table(s).")
    if isinstance(msg, m.DeckCommit):
        if msg.draw == "seating":
            return ("Two have joined (start_at is 2): before the seat draw the server "
                    "commits to a secret seed of its own (commit is SHA-256 of the draw and "
                    f"that seed) and waits up to {msg.window_ms} ms for the players' seeds. "
                    "The draw is then made from all of them, so nobody alone chose it "
                    "(docs/fairness.md).")
        return (f"The commitment for table {msg.table}'s hand number {msg.number}, before "
                "its deck is drawn.")
    if isinstance(msg, m.SeedsReceived):
        if msg.draw == "seating":
            return ("The seeds the server got in time, by player in registration order: "
                    "check yours is there. The seats are drawn from the server's seed and "
                    "these.")
        return (f"The seeds for this deck, in seat order, and the hand it is dealt to "
                f"(hand_no {msg.hand_no}). The deck is now fixed: its first cards follow.")
    if isinstance(msg, m.Reveal):
        return ("The tournament is over, so no card can be hidden any more: the server "
                "reveals the seed behind every commitment. The client can now check every "
                "deck against the cards it saw. chain is the last link of the hash chain "
                "over the hands stored in the database (this server keeps none, so it is "
                "the chain's starting value).")
    if isinstance(msg, m.TableSnapshot):
        if spectator:
            hidden = all(s.cards is None for s in msg.seats)
            assert hidden
            return (f"The hand in progress as a spectator sees it: every cards is null. "
                    f"{r.name(msg.to_act or 0)} is to act. pots count the bets in front: "
                    "until the big blind is called, its unmatched part is a last pot that "
                    "only its owner can win.")
        return (f"The tournament has started and {me} "
                f"is seated: table {msg.table}, seat {msg.your_seat} of {msg.max_seats}. "
                "A snapshot replaces whatever the client knew about a table. No hand yet "
                "(hand_no null).")
    if isinstance(msg, m.HandStarted):
        button = r.name(msg.button)
        return (f"Hand {msg.hand_no}: the button is {button}; heads-up the button posts "
                "the small blind and acts first before the flop. stacks are before the "
                "blinds.")
    if isinstance(msg, m.BlindPosted):
        if msg.blind == "small":
            return "The blinds, posted automatically."
        return None
    if isinstance(msg, m.HoleCards):
        return (f"{me}'s hole cards, sent to this connection alone: nobody else sees them "
                "unless they are shown at showdown.")
    if isinstance(msg, m.YourTurn):
        r.turn = msg
        text = f"{me}'s turn: {_legal(msg.legal, r.street)}."
        if r.first("your_turn"):
            text += (" legal comes from the engine's own query, the one that validates "
                     f"the act. {msg.deadline_ms // 1000} s on the action clock "
                     f"(deadline_ms), then {msg.time_bank_ms // 1000} s of time bank; if "
                     "both run out the server checks if it is free, else folds, and sits "
                     "the player out.")
            if msg.legal.stack is not None:
                text += (" stack and all_in_to (version 2): the chips behind, and the to "
                         "total of going all in.")
        return text
    if isinstance(msg, m.Error):
        return (f"Refused: {msg.code}, echoing request id {msg.id}; path names the field at "
                "fault. Nothing changed: the turn goes on, with no new your_turn, and the "
                "clock keeps running.")
    if isinstance(msg, m.Ack):
        return f"ack for request {msg.id}, after the action it confirms."
    if isinstance(msg, m.Action):
        who = r.name(msg.seat)
        mine = r.last_act is not None and msg.seat == r.wire.seat
        text = _action(msg, who) + "."
        if mine:
            r.last_act = None
            if r.first("own-action"):
                text += (" A player's own action comes back as an action event too: "
                         "that is the confirmation.")
        elif spectator:
            if not r.first("spectator-actions"):
                return None
            text += (" From here the spectator gets every event the players get, except "
                     "hole_cards.")
        elif msg.all_in and not mine and r.first("all-in-seen"):
            text += " amount is what the action put in; to is the bet after it."
        return text
    if isinstance(msg, m.Pots):
        if spectator:
            return None
        total = sum(p.amount for p in msg.pots)
        return f"The betting round is over: the pot is {total}."
    if isinstance(msg, m.Board):
        r.street = msg.street
        text = f"The {msg.street}: cards is what was dealt now, board is all of it."
        return text if r.first("board") else f"The {msg.street}."
    if isinstance(msg, m.Showdown):
        if r.first("showdown"):
            text = ("Showdown: every hand still in is shown to everyone, listed from the "
                    "first player left of the button, each with the hand it makes.")
            if msg.best_five is not None:
                text += (" Version 2 adds best_five, the five cards that play, and "
                         "hand_detail, the hand with its kickers (pot_awarded too).")
            return text
        return None
    if isinstance(msg, m.PotAwarded):
        winners = ", ".join(r.name(w.seat) for w in msg.winners)
        return (f"The pot of {msg.amount} goes to {winners} with {msg.hand_name}; no odd "
                "chip to carry (remainder_carried 0).")
    if isinstance(msg, m.HandEnded):
        return ("The hand is over: stacks after it, and carried_out, the odd chips kept "
                "for the next hand at this table.")
    if isinstance(msg, m.PlayerStatus):
        return f"{msg.name} has no chips left: eliminated. Everyone is told."
    if isinstance(msg, m.TournamentFinished):
        return ("One player has every chip: the tournament is over, with the final "
                "places. The connection stays open (chat, history, standings) until the "
                "server says goodbye.")
    if isinstance(msg, m.ChatMessage):
        return f"The chat reaches everyone{', the speaker too' if msg.name == me else ''}."
    if isinstance(msg, m.ServerGoodbye):
        text = ("The server is shutting down (the operator pressed ctrl-C): goodbye, then "
                "it closes the connection. In a tournament still running, a player would "
                "resume with the token once the server is back.")
        if msg.code is not None:
            text += f" Version 2 gives the reason as a code too: {msg.code}."
        return text
    if isinstance(msg, m.Turn):
        if r.first("turn"):
            then = " Then, to the player to act, their own your_turn." if not spectator else ""
            return (f"Whose turn it is, to everyone at the table (version 2): "
                    f"{r.name(msg.seat)}, with the action clock and the time bank left in "
                    "ms; again when the action clock runs out and the bank starts." + then)
        return None
    return None


def annotated(wire: Wire, rec: Recording, role: str) -> list[tuple[str | None, list[Line]]]:
    """The connection's lines in groups, each with the comment that introduces it."""
    reader = _Reader(wire=wire, rec=rec, role=role)
    groups: list[tuple[str | None, list[Line]]] = []
    for line in wire.lines:
        if line.direction == SENT:
            note = _sent_note(reader, json.loads(line.text))
        else:
            note = _received_note(reader, line.msg)
        if note is None and groups:
            groups[-1][1].append(line)
        else:
            groups.append((note, [line]))
    return groups


WRAP = 88


def _comment(text: str) -> list[str]:
    out: list[str] = []
    line = "#"
    for word in text.split():
        if len(line) + 1 + len(word) > WRAP and line != "#":
            out.append(line)
            line = "#"
        line += " " + word
    out.append(line)
    return out


def markdown(rec: Recording) -> str:
    """The transcript as Markdown: a short setting, then one block per connection."""
    c = CONFIG
    assert c.schedule is not None
    small, big_blind = c.schedule[0]
    button = rec.seats[rec.button]
    big = next(name for seat, name in rec.seats.items() if seat != rec.button)
    seat_list = ", ".join(f"{name} in seat {seat}" for seat, name in sorted(rec.seats.items()))
    intro = (
        f"A real run of `python -m tools.transcript` (seed {SEED}): a server with "
        f"{c.starting_stack} chips each, blinds {small}/{big_blind}, starting when "
        f"{c.start_at} players have joined; Alice joins, then Bob. The seating puts "
        f"{seat_list}; {button} has the button. The hand: {button} raises (after one "
        f"refused try), {big} calls; on the flop {big} checks, {button} bets, {big} "
        f"calls; both check the turn; on the river {big} moves all in and {button} calls. "
        "A spectator comes in while the first decision is pending. Every line is exactly "
        "as it crossed the socket (only the session token is masked): → is a line the "
        "connection sent, ← one it received, and # lines are comments."
    )
    out = [textwrap.fill(intro, WRAP), ""]
    wires = [(w, "player") for w in rec.players] + [(rec.spectator, "spectator")]
    for wire, role in wires:
        where = f", seat {wire.seat}" if wire.seat is not None else ""
        out.append(f"### {wire.name} ({role}{where})")
        out.append("")
        out.append("```text")
        for note, lines in annotated(wire, rec, role):
            if note:
                out.extend(_comment(note))
            out.extend(f"{line.direction} {line.text}" for line in lines)
        out.append("```")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def main() -> None:
    import sys

    sys.stdout.write(markdown(run()))


if __name__ == "__main__":
    main()
