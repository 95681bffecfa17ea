"""The player's own hand histories, written by the terminal client as it plays.

Each hand this player is dealt into is appended, when it ends, to a PokerStars text file
(``hands/HOST_PORT_NAME.txt`` in the config directory, owner-only), which a tracker
(PokerTracker, Hold'em Manager, hand2note) imports as it is written. The hand is rebuilt
from the live table messages into the engine's own events (``client.model.seen``) and
written by ``poker.pokerstars``, the same writer ``hickory-server history --format
pokerstars`` uses, so the two files agree line for line on every hand the player saw
whole (tests/client/test_handlog.py).

What a client cannot know: the tournament's number on the host, so it makes its own
(``YYMMDDHHMM`` of the join that started this tournament, kept in the file so a resume
goes on with it); a hand joined in the middle (after a reconnect) is skipped, since its
start is missing; a card shown by choice after the hand ended comes after the file was
written and is left out.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable
from pathlib import Path

from client.model import ClientModel
from client.model.seen import HandRecorder
from poker.events import HoleCardsDealt
from poker.history import HistoryError
from poker.pokerstars import to_pokerstars
from protocol import messages as m

_TOURNAMENT = re.compile(r"^PokerStars Hand #\d+: Tournament #(\d+),", re.MULTILINE)


def default_hands_path(config_dir: Path, host: str, port: int, name: str) -> Path:
    """Where the terminal client writes a player's hands for one server."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{host}_{port}_{name}")
    return config_dir / "hands" / f"{safe}.txt"


def last_tournament_number(path: Path) -> int | None:
    """The tournament number of the last hand in an existing file, if any."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    found = _TOURNAMENT.findall(text)
    return int(found[-1]) if found else None


class HandLog:
    """Appends each finished hand of this player to ``path`` as PokerStars text."""

    def __init__(self, path: Path, *, tournament_no: int,
                 clock: Callable[[], dt.datetime] = lambda: dt.datetime.now().astimezone()) -> None:
        self.path = path
        self.tournament_no = tournament_no
        self.clock = clock
        self.recorder = HandRecorder()
        self.written = 0
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))

    @classmethod
    def open(cls, path: Path, *, fresh: bool,
             clock: Callable[[], dt.datetime] = lambda: dt.datetime.now().astimezone()) -> HandLog:
        """A join (``fresh``) starts a new tournament number; a resume goes on with the one
        in the file."""
        number = None if fresh else last_tournament_number(path)
        if number is None:
            number = int(clock().strftime("%y%m%d%H%M"))
        return cls(path, tournament_no=number, clock=clock)

    def received(self, msg: m.ServerMessage, model: ClientModel) -> None:
        events = self.recorder.received(msg, model.table, model.lobby, self.clock())
        me = self.recorder.my_seat
        if events is None or me is None or not any(isinstance(e, HoleCardsDealt) for e in events):
            return
        try:
            text = to_pokerstars(events, self.recorder.info(), tournament_no=self.tournament_no, viewer=me)
        except (HistoryError, KeyError, ValueError):
            return
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(("\n\n" if self.written or f.tell() else "") + text)
        except OSError:
            return  # a full disk must not stop the game; the server keeps every hand
        self.written += 1


def open_hand_log(config_dir: Path, host: str, port: int, name: str, *, fresh: bool,
                  say: Callable[[str], object]) -> HandLog | None:
    """The terminal client's hand log for this server and name, or None (said why) if the
    file cannot be kept: playing goes on without it."""
    path = default_hands_path(config_dir, host, port, name)
    try:
        return HandLog.open(path, fresh=fresh)
    except OSError as exc:
        say(f"cannot keep your hand histories in {path}: {exc}")
        return None
