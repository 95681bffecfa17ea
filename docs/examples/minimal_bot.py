#!/usr/bin/env python3
"""A complete Hickory poker bot using only the Python standard library.

    python minimal_bot.py --host 127.0.0.1 --port 7777 --name Calvin

It joins the tournament, checks when it can and calls when it must, answers the server's
keepalive pings, comes back with its session token if the connection drops, and when the
tournament is over prints its place and exits.

The protocol (docs/protocol.md) in the five lines this bot needs: every message is one
JSON object on one line, in both directions, with a "type". The server speaks first
("hello", listing its protocol versions); the client answers "join" with a version and a
name and gets "welcome" with its player id and a session token. From then on the server
sends the game as it happens; "your_turn" carries the hand number and what is legal, and
the client answers "act" with that hand number and an action. Amounts are whole chips.
Before each deal the server commits to its deck seed ("deck_commit"); the bot answers with
a random seed of its own, so no one alone decides the deck (docs/fairness.md).
"""

from __future__ import annotations

import argparse
import json
import secrets
import socket
import sys
import time

VERSION = 2  # the protocol version this bot speaks


class Connection:
    """One TCP connection: JSON lines out, JSON lines in."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=120)
        self.lines = self.sock.makefile("rb")

    def send(self, **message: object) -> None:
        self.sock.sendall(json.dumps(message).encode() + b"\n")

    def receive(self) -> dict:
        line = self.lines.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        return json.loads(line)

    def close(self) -> None:
        self.sock.close()


def decide(legal: dict) -> str:
    """Check when it is free, call when facing a bet (fold only if calling is impossible)."""
    if legal["check"]:
        return "check"
    if legal["call"] is not None:
        return "call"
    return "fold"


def handshake(conn: Connection, name: str, token: str | None) -> dict:
    """Read hello, then join (first time) or resume (after a drop); return the welcome."""
    hello = conn.receive()
    if hello["type"] != "hello" or VERSION not in hello["versions"]:
        raise SystemExit(f"not a Hickory server speaking version {VERSION}: {hello}")
    if token is None:
        conn.send(type="join", version=VERSION, name=name)
    else:
        conn.send(type="resume", version=VERSION, token=token)
    reply = conn.receive()
    if reply["type"] == "error":
        raise SystemExit(f"refused: {reply['message']} ({reply['code']})")
    return reply


def play(conn: Connection, me: int) -> dict | None:
    """Play until the tournament ends; return our place, or None if the line dropped."""
    while True:
        try:
            msg = conn.receive()
        except (ConnectionError, OSError):
            return None
        kind = msg["type"]
        if kind == "your_turn":
            conn.send(type="act", hand_no=msg["hand_no"], action=decide(msg["legal"]))
        elif kind == "ping":
            conn.send(type="pong", nonce=msg.get("nonce"))
        elif kind == "deck_commit":  # add our own randomness to the deck
            conn.send(type="client_seed", draw=msg["draw"], table=msg["table"], number=msg["number"],
                      commit=msg["commit"], seed=secrets.token_hex(32))
        elif kind == "error":
            print(f"server says: {msg['message']} ({msg['code']})", file=sys.stderr)
        elif kind == "player_status" and msg["player_id"] == me and msg["status"] == "sitting_out":
            conn.send(type="im_back")  # timed out somehow: back from the next hand
        elif kind == "tournament_finished":
            return next(p for p in msg["places"] if p["player_id"] == me)
        elif kind == "goodbye":
            print(f"server says goodbye: {msg['reason']}", file=sys.stderr)
            return None


def main() -> int:
    parser = argparse.ArgumentParser(description="A check/call Hickory bot (standard library only).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7777)
    parser.add_argument("--name", default="minimal-bot")
    parser.add_argument("--retries", type=int, default=5, help="reconnect attempts after a drop")
    args = parser.parse_args()

    token: str | None = None
    me: int | None = None
    for attempt in range(args.retries + 1):
        try:
            conn = Connection(args.host, args.port)
            welcome = handshake(conn, args.name, token)
        except OSError as exc:
            print(f"cannot connect ({exc}); retrying", file=sys.stderr)
            time.sleep(min(2**attempt, 10))
            continue
        token = token or welcome["token"]  # sent once, in the reply to join: keep it
        me = welcome["player_id"]
        place = play(conn, me)
        if place is not None:
            try:
                conn.send(type="goodbye", reason="the tournament is over")
            except OSError:
                pass
        conn.close()
        if place is not None:
            print(f"{args.name} finished in place {place['place']} with {place['chips']} chips")
            return 0
        time.sleep(min(2**attempt, 10))
    print(f"{args.name}: gave up after {args.retries} reconnects", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
