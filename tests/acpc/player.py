"""An ACPC player for the tests, written from the protocol specification.

It connects to a dealer port, says ``VERSION:2.0.0``, and answers every MATCHSTATE line
in which it is to act with a random action: folds, calls, raises of every kind of size
(the minimum, odd sizes, below the minimum, above its stack, zero) and, if asked to,
garbage and replies to an old state. It checks every line it receives against the
specification (``tests/acpc/spec.py``) under the game it is told: a game file (the
``--bot-cmd`` mode, one hand per run) or a callback from the test that knows each hand's
game from the Hickory side.

Run as a program it is a standard ACPC bot: ``python -m tests.acpc.player GAME HOST PORT
[--seed N] [--log FILE] [--behaviour hang|garbage|quit|stuck] [--delay S] [--once FILE] [--calls-only]``; the log
is one JSON object per line with what it received and sent.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.acpc.spec import Game, Replay, SpecError, parse_game, parse_matchstate, replay


def random_action(r: Replay, p: int, stack: int, rng: random.Random) -> str:
    """A random action for position ``p`` (what a careless bot might send): folds, calls
    and raises of every size, valid or not, all-in now and then."""
    roll = rng.random()
    if roll < 0.12:
        return "f"
    if roll < 0.75:
        return "c"
    lo = r.min_raise(p)
    kind = rng.random()
    if lo is None or kind < 0.15:
        size = r.high + rng.randint(1, 9)  # below the minimum (odd), or a raise that cannot be
    elif kind < 0.22:
        size = stack + rng.randint(1, 500)  # more than the stack
    elif kind < 0.27:
        size = 0
    elif kind < 0.30:
        size = stack  # all in
    elif kind < 0.6:
        size = lo
    elif kind < 0.8:
        size = lo + rng.randint(1, 97)  # odd sizes
    else:
        size = rng.randint(lo, max(lo, stack))
    return f"r{size}"


@dataclass
class Player:
    """The player's decisions and what it saw, without any I/O.

    ``game_for(hand)`` gives the game of a hand (None: not known, no checks). Lines that
    break the specification are kept in ``violations``; the test asserts there are none.
    """

    rng: random.Random
    game_for: Callable[[int], Game | None]
    garbage: float = 0.0  # share of replies that are garbage
    calls_only: bool = False  # always check or call (a patient bot, for long tournaments)
    stale: float = 0.0  # share of replies sent to an older state first
    received: dict[int, list[str]] = field(default_factory=dict)
    replies: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    previous: str | None = None

    def receive(self, line: str) -> list[str]:
        """Lines to send back for one line from the dealer."""
        if line.startswith(("#", ";")):
            return []
        try:
            state = parse_matchstate(line)
        except SpecError as exc:
            self.violations.append(str(exc))
            return []
        self.received.setdefault(state.hand, []).append(line)
        game = self.game_for(state.hand)
        if game is None:
            return []
        try:
            r = replay(game, state)
        except SpecError as exc:
            self.violations.append(f"hand {state.hand}: {exc}: {line}")
            return []
        if r.actor() != state.position:
            self.previous = line
            return []
        action = "c" if self.calls_only else random_action(r, state.position, game.stacks[state.position], self.rng)
        out = []
        if self.previous is not None and self.rng.random() < self.stale:
            out.append(f"{self.previous}:c")
        if self.rng.random() < self.garbage:
            out.append(self.rng.choice(["hello", "MATCHSTATE", f"{line}:x", f"{line}:r", f"{line}:rr5", ""]))
        else:
            out.append(f"{line}:{action}")
        self.replies.setdefault(state.hand, []).append((line, out[-1]))
        self.previous = line
        return out


# -- the program (one hand per run, as the bridge's --bot-cmd starts it) -----------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="A random ACPC player (tests)")
    ap.add_argument("game")
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--log")
    ap.add_argument("--behaviour", choices=["play", "hang", "garbage", "quit", "stuck"], default="play")
    ap.add_argument("--once", metavar="FILE",
                    help="misbehave only in the first run to find FILE missing (it makes it); later runs play")
    ap.add_argument("--delay", type=float, default=0.0,
                    help="wait this long before connecting (a bot loading its strategy); with --once, only the first run")
    ap.add_argument("--facing-bet", action="store_true",
                    help="misbehave (hang or quit) only at a decision that faces a bet, where the clock folds; "
                    "with --once, the first run to reach one")
    ap.add_argument("--calls-only", action="store_true",
                    help="always check or call: never all in, so a tournament cannot end in a hand or two")
    args = ap.parse_args(argv)
    if args.once is not None and not args.facing_bet:
        try:
            open(args.once, "x").close()
        except FileExistsError:
            args.behaviour = "play"
            args.delay = 0.0
    elif args.once is not None and os.path.exists(args.once):
        args.behaviour = "play"
    time.sleep(args.delay)
    with open(args.game) as f:
        game = parse_game(f.read())
    player = Player(random.Random(args.seed), lambda hand: game, garbage=1.0 if args.behaviour == "garbage" else 0.0,
                    calls_only=args.calls_only)
    sock = socket.create_connection((args.host, args.port), timeout=60)
    sock.sendall(b"VERSION:2.0.0\r\n")
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    if log is not None:
        log.write(json.dumps({"pid": os.getpid(), "game": [game.stacks, game.blinds, game.first]}) + "\n")
    buffer = b""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            buffer += data
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                line = raw.decode().rstrip("\r")
                out = player.receive(line)
                if out and args.facing_bet and args.behaviour in ("hang", "quit"):
                    state = parse_matchstate(line)
                    r = replay(game, state)
                    misbehave = r.spent[state.position] < r.high
                    if misbehave and args.once is not None:
                        try:
                            open(args.once, "x").close()
                        except FileExistsError:
                            misbehave = False  # another run did already
                    now = args.behaviour if misbehave else "play"
                else:
                    now = args.behaviour
                if now == "quit" and out:
                    return 0  # walks away at its first decision
                if now == "hang" and out:
                    out = []  # never answers
                if now == "stuck" and out:
                    time.sleep(3600)  # never answers, never notices the end of the hand
                for o in out:
                    sock.sendall(o.encode() + b"\r\n")
                if log is not None:
                    log.write(json.dumps({"pid": os.getpid(), "received": line, "sent": out}) + "\n")
                    log.flush()
    finally:
        sock.close()
        if log is not None:
            log.write(json.dumps({"violations": player.violations}) + "\n")
            log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
