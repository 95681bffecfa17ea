"""``hickory --plain``: the game as lines of words, for screen readers and plain pipes.

No cursor movement and no screen: every event is one line printed in words
(``Bob raises to 600. Pot 900.`` then ``Your turn: fold, call 400, or raise from 800 to
9,200. 25 seconds.``), and the player types commands (``call``, ``raise 800``, ``r 800``,
``fold``; ``help`` lists them). It is another view on the same ``ClientModel`` and
``ClientSession`` the full-screen client uses (connection, reconnect, resume with the
saved token, the deck record), with pure parts of its own: ``client/plain_words.py`` says
each message in words, ``client/plain_commands.py`` turns typed lines into what the full
client's keys would send, with the same confirmations and pre-actions. Ten seconds before
the action clock (and then the time bank) runs out it says so, once.

Only Trio, so it works through a pipe as well as in a terminal: standard input is read as
a Trio stream (``FdStream`` on a duplicate of fd 0) when it is a pipe or a file; a
terminal's stdin shares its file description with stdout, and non-blocking mode there
would make ``print`` fail, so a terminal is read by a worker thread instead. Output is
plain UTF-8 lines, flushed one by one.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path
from typing import Protocol

import trio

from client.deckcheck import DeckLog
from client.deckfile import default_record_path, recording_log
from client.model import ClientModel, ConnectionState, PendingTurn
from client.plain_commands import Reply, Typist
from client.plain_words import sentence, sentences
from client.session import ClientSession
from protocol import errors as E
from protocol import messages as m

__all__ = ["HeardModel", "PlainClient", "WARN_SECONDS", "main_plain", "stdin_lines"]

WARN_SECONDS = 10.0
"""The warning comes this long before the action clock, then the time bank, runs out."""


class Tokens(Protocol):
    """Where session tokens are kept between runs (``client.cli.TokenStore``)."""

    def get(self, server: str, name: str) -> str | None: ...

    def put(self, server: str, name: str, token: str | None) -> None: ...


class HeardModel(ClientModel):
    """A ``ClientModel`` that also keeps the log lines written since the last message, so
    the plain client can say the model's own words for messages it has no sentence for."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []

    def _say(self, line: str) -> None:
        super()._say(line)
        self.said.append(line)


Write = Callable[[str], None]
Refusal = Callable[[str | None, str], str]


class PlainClient:
    """One plain-mode client: the session, the typed lines, the clock's warnings.

    ``args`` holds the command line's choices (``name``, ``password``, ``spectate``,
    ``no_confirm``, ``deck_record``); ``write`` prints one line; ``refusal`` words a refusal
    for the player (``client.cli.refusal_text``); ``come_back`` is the command that puts the
    player back in their seat, said when they quit.
    """

    def __init__(
        self,
        args: argparse.Namespace,
        host: str,
        port: int,
        tokens: Tokens,
        write: Write,
        *,
        config: Path | None = None,
        refusal: Refusal | None = None,
        come_back: str | None = None,
        session_options: dict[str, object] | None = None,
    ) -> None:
        self.args = args
        self.host, self.port = host, port
        self.server_key = f"{host}:{port}"
        self.tokens = tokens
        self.write = write
        self.config = config
        self.refusal_words = refusal or (lambda code, message: message)
        self.come_back = come_back
        self.session_options = session_options or {}
        self.model = HeardModel()
        confirm = not getattr(args, "no_confirm", False)
        self.typist = Typist(confirm_all_in=confirm, confirm_quit=confirm)
        self.session: ClientSession | None = None
        self.refusal: str | None = None
        self.quitting = False
        self.output_closed = False
        self._stop = trio.Event()
        self._connection = ConnectionState.CONNECTING
        self._asked: int | None = None
        self.watch: int | None = getattr(args, "spectate", None) or None

    # -- output -------------------------------------------------------------------------------

    def say(self, line: str) -> None:
        if not line or self.output_closed:
            return
        try:
            self.write(line)
        except BrokenPipeError:
            # Whoever read our lines went away (``hickory --plain | head``): nobody hears
            # the game any more, so leave the table (the seat is kept).
            self.output_closed = True
            self.quitting = True
            self._stop.set()

    def apply(self, reply: Reply) -> None:
        """Print what a reply says and send what it sends; an act marks the turn answered."""
        for line in reply.lines:
            self.say(line)
        for msg in reply.send:
            if not self.send(msg):
                self.say("Not connected: nothing was sent.")
        if reply.act is not None:
            turn = self.model.turn
            if self.send(reply.act) and turn is not None:
                turn.acted = True
            else:
                self.say("Not connected: nothing was sent.")
        if reply.quit:
            self.quitting = True
            self._stop.set()

    def send(self, msg: m.ClientMessage) -> bool:
        s = self.session
        return s.send_nowait(msg) if s is not None else False

    # -- the run ------------------------------------------------------------------------------

    async def run(self, lines: AsyncIterator[str], *, interrupt: bool = False) -> int:
        """Play until the player quits, the tournament ends or the session is over; the
        exit status (0, or 1 when the server refused us). With ``interrupt`` Ctrl-C
        (SIGINT) leaves the table as ``quit`` does, without asking (the full client's
        Ctrl-C), and says how to come back."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._sessions_then_stop)
            nursery.start_soon(self._read, lines)
            nursery.start_soon(self._clock)
            if interrupt:
                nursery.start_soon(self._interrupts)
            await self._stop.wait()
            session = self.session
            if session is not None and not session.ended:
                with trio.move_on_after(2):
                    await session.close("the player quit" if self.quitting else "the player left")
            nursery.cancel_scope.cancel()
        return self._farewell()

    def _farewell(self) -> int:
        if self.refusal is not None:
            self.say(sentence(self.refusal))
            return 1
        model = self.model
        if model.finished is not None:
            return 0
        if model.me.role == "player" and model.me.name and self.come_back:
            self.say(f"Your seat is kept. Come back with: {self.come_back}")
        elif model.connection is ConnectionState.CLOSED and not self.quitting:
            reason = model.connection_reason or "the connection closed"
            self.say(sentence(f"Disconnected: {reason}"))
        return 0

    async def _sessions_then_stop(self) -> None:
        try:
            await self._sessions()
        finally:
            self._stop.set()

    async def _sessions(self) -> None:
        """Run the session; a saved token the server no longer knows falls back to a join
        (as the full client does)."""
        args = self.args
        name: str | None = getattr(args, "name", None)
        while True:
            token = self.tokens.get(self.server_key, name) if name is not None else None
            self.model.me.token = token
            if name is not None:
                self._open_deck_record(name, fresh=token is None)
            session = ClientSession(
                self.host, self.port,
                name=name, password=getattr(args, "password", None), token=token,
                spectate=getattr(args, "spectate", None) is not None,
                spectate_table=getattr(args, "spectate", None) or None,
                model=self.model, on_change=self._changed, on_message=self._message,
                first_connect_final=True, **self.session_options,  # type: ignore[arg-type]
            )
            self.session = session
            await session.run()
            err = self.model.last_error
            code = err.code if err is not None else None
            if self.model.connection is ConnectionState.REFUSED:
                if code == E.BAD_TOKEN and token is not None and name is not None:
                    self.tokens.put(self.server_key, name, None)
                    self.model.last_error = None
                    self.say("The saved seat is no longer valid on this server: joining again.")
                    continue
                reason = err.message if err is not None else (self.model.connection_reason or "refused")
                self.refusal = self.refusal_words(code, reason)
            return

    def _open_deck_record(self, name: str, *, fresh: bool) -> None:
        path: Path | None = getattr(self.args, "deck_record", None)
        if path is None and self.config is not None:
            path = default_record_path(self.config, self.host, self.port, name)
        try:
            self.model.decks = recording_log(path, fresh=fresh)
        except (OSError, ValueError) as exc:
            self.model.decks = DeckLog()
            self.say(f"Cannot keep the deck record in {path}: {exc}.")

    # -- what the session tells us --------------------------------------------------------------

    def _changed(self, model: ClientModel) -> None:
        state = model.connection
        if state is self._connection:
            return
        before, self._connection = self._connection, state
        if state is ConnectionState.RECONNECTING and before is not ConnectionState.RECONNECTING:
            why = model.connection_reason or "the connection dropped"
            self.say(sentence(f"Connection lost ({why}). Reconnecting"))
        elif state is ConnectionState.CONNECTED and before is ConnectionState.RECONNECTING:
            self.say("Connected again.")

    def _message(self, msg: m.ServerMessage, now: float) -> None:
        model = self.model
        said, model.said = model.said, []
        if isinstance(msg, m.Welcome) and msg.token is not None and msg.name is not None:
            try:
                self.tokens.put(self.server_key, msg.name, msg.token)
            except OSError as exc:
                self.say(f"Could not save the session token: {exc}.")
        self._watch(msg)
        for line in sentences(model, msg, said):
            self.say(line)
        self.apply(self.typist.heard(msg, model, now))
        if isinstance(msg, m.TournamentFinished):
            self._stop.set()

    def _watch(self, msg: m.ServerMessage) -> None:
        """A spectator watches a table as soon as there is one: the one asked for, else the
        first in play (the full client's rule)."""
        model = self.model
        if model.me.role != "spectator" or model.table is not None:
            return
        if isinstance(msg, m.Welcome):
            if msg.table is not None:
                self.watch = self._asked = msg.table
                self.send(m.SnapshotRequest(table=msg.table))
        elif isinstance(msg, m.Lobby) and msg.tables and model.connection is ConnectionState.CONNECTED:
            tables = [t.table for t in msg.tables]
            want = self.watch if self.watch in tables else tables[0]
            if self._asked != want:
                self._asked = want
                self.send(m.SnapshotRequest(table=want))

    # -- typed lines ------------------------------------------------------------------------------

    async def _read(self, lines: AsyncIterator[str]) -> None:
        async for line in lines:
            self.apply(self.typist.typed(line, self.model, trio.current_time()))
        if self.quitting:
            return
        if self.model.me.role == "player":
            self.say("Input closed: leaving the table.")
            self.quitting = True
            self._stop.set()
        else:
            self.say("Input closed: still watching. Ctrl-C leaves.")

    async def _interrupts(self) -> None:
        with trio.open_signal_receiver(signal.SIGINT) as signals:
            async for _ in signals:
                self.quitting = True
                self._stop.set()
                return

    # -- the clock --------------------------------------------------------------------------------

    async def _clock(self) -> None:
        """Say once, ten seconds before the action clock runs out (and again before the
        time bank runs out, when there is one), how long is left."""
        warned: set[tuple[int, float | None, str]] = set()
        while True:
            session = self.session
            seen = self.model.changes
            turn = self.model.turn
            now = trio.current_time()
            when = now + 5.0  # look again now and then: a new session has a new change event
            if turn is not None and not turn.acted:
                for key, at, line in _warnings(turn):
                    mark = (turn.hand_no, turn.received_at, key)
                    if mark in warned:
                        continue
                    if at <= now:
                        warned.add(mark)
                        if at > now - 1.0:  # not one long past (a turn resumed late)
                            self.say(line)
                        continue
                    when = min(when, at)
                    break
            with trio.move_on_at(when):
                if session is None:
                    await trio.sleep_forever()
                await session.wait_changed(seen)


def _warnings(turn: PendingTurn) -> list[tuple[str, float, str]]:
    """(key, when, what to say) for a turn's warnings, in time order."""
    out: list[tuple[str, float, str]] = []
    deadline, bank_deadline = turn.deadline, turn.bank_deadline
    if deadline is None or bank_deadline is None or turn.received_at is None:
        return out
    bank = turn.msg.time_bank_ms / 1000
    secs = int(WARN_SECONDS)
    if deadline - turn.received_at > WARN_SECONDS:
        tail = f", then {int(bank + 0.5)} in your time bank" if bank >= 1 else ""
        out.append(("clock", deadline - WARN_SECONDS, f"{secs} seconds left{tail}."))
    if bank >= 1:
        out.append(("bank", deadline, f"Your time bank is running: {int(bank + 0.5)} seconds."))
        if bank > WARN_SECONDS:
            out.append(("bank10", bank_deadline - WARN_SECONDS, f"{secs} seconds left in your time bank."))
    return out


# =====================================================================================
# Standard input as lines, for a pipe and for a terminal
# =====================================================================================


async def stdin_lines(fd: int = 0) -> AsyncIterator[str]:
    """The lines typed (or piped) on ``fd``, without their line ends, until end of input."""
    chunks = _pipe_chunks(fd) if not os.isatty(fd) else _terminal_chunks(fd)
    pending = b""
    async for data in chunks:
        pending += data
        *whole, pending = pending.split(b"\n")
        for raw in whole:
            yield raw.decode("utf-8", errors="replace").rstrip("\r")
    if pending:
        yield pending.decode("utf-8", errors="replace").rstrip("\r")


async def _pipe_chunks(fd: int) -> AsyncIterator[bytes]:
    stream = trio.lowlevel.FdStream(os.dup(fd))
    async with stream:
        while True:
            data = await stream.receive_some(65536)
            if not data:
                return
            yield data


async def _terminal_chunks(fd: int) -> AsyncIterator[bytes]:
    # os.read holds no lock of Python's, so a read abandoned at exit blocks nothing.
    while True:
        data = await trio.to_thread.run_sync(os.read, fd, 65536, abandon_on_cancel=True)
        if not data:
            return
        yield data


def _print_line(line: str) -> None:
    try:
        print(line, flush=True)
    except BrokenPipeError:
        # Nothing more can be written; point stdout at /dev/null so the interpreter's own
        # flush at exit does not complain about the closed pipe.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        raise


def main_plain(
    args: argparse.Namespace,
    host: str,
    port: int,
    tokens: Tokens,
    *,
    config: Path | None = None,
    refusal: Refusal | None = None,
    come_back: str | None = None,
    session_options: dict[str, object] | None = None,
) -> int:
    """``hickory --plain``: run the plain client on stdin and stdout; the exit status.
    ``session_options`` go to the ``ClientSession`` as they are (the cli's ``tls``)."""
    client = PlainClient(args, host, port, tokens, _print_line, config=config, refusal=refusal,
                         come_back=come_back, session_options=session_options)
    try:
        return trio.run(partial(client.run, stdin_lines(), interrupt=True))
    except KeyboardInterrupt:
        return 130
    except BaseExceptionGroup as group:
        # A Ctrl-C that arrived before the signal receiver was in place, inside a task.
        if group.subgroup(KeyboardInterrupt) is not None and group.subgroup(
                lambda e: not isinstance(e, KeyboardInterrupt | BaseExceptionGroup)) is None:
            return 130
        raise
