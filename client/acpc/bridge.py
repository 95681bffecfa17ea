"""The ACPC bridge: a Hickory player on one side, an ACPC dealer port on the other.

``Bridge`` joins a Hickory tournament like any client (``ClientSession``) and feeds every
server message to the pure ``AcpcSeat`` (``client/acpc/matchstate.py``), which says what
the bot is to see and when; this module only moves lines and runs processes:

- **One connection** (the default): the bridge listens on ``acpc_host:acpc_port``; the
  bot connects, says ``VERSION:2.0.0`` and stays connected for the whole tournament. A
  new connection replaces the old one (a restarted bot gets the current hand's states
  again); with no bot connected, the seat's turns run out like anyone's.
- **A bot per hand** (``bot_cmd``): for each hand the seat is dealt into, the bridge
  writes that hand's game file (exact stacks and blinds), opens a fresh port, runs the
  command with ``{game}``, ``{host}`` and ``{port}`` filled in, plays the hand with the
  connection the program opens, then closes it; a program still running a few seconds
  after its hand ends is killed.

A bot that disconnects, never answers or sends garbage only loses its own decisions:
Hickory's action clock acts for it (and then sits it out, as for any player; the bridge
says "I'm back" when its bot connects again or answers). Unreadable replies are taken as
a check or a call, raises outside the legal range are clamped, and both are logged, as
the ACPC dealer does. Nothing the bot does can raise out of the bridge.
"""

from __future__ import annotations

import logging
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import attrs
import trio

from client.acpc.gamedef import GameDef
from client.acpc.matchstate import AcpcSeat, EndHand, Line, Note, Out, PlayedFor, SelfAct, StartHand
from client.model import ConnectionState
from client.session import ClientSession, SessionClosed, SessionRefused
from poker.actions import Action
from protocol import messages as m
from protocol.errors import ProtocolError
from protocol.framing import LineBuffer

__all__ = ["Bridge", "BotLink"]

log = logging.getLogger("hickory.acpc")

MAX_LINE = 65536
"""The longest line read from a bot (a MATCHSTATE line is a few hundred bytes)."""


class BotLink:
    """One TCP connection to an ACPC bot: the version handshake, lines out, replies in."""

    def __init__(self, stream: trio.SocketStream, on_line: Callable[[BotLink, str], Awaitable[None]],
                 transcript: Callable[[str], None] | None = None) -> None:
        self.stream = stream
        self.on_line = on_line
        self.transcript = transcript
        self._pending: list[bytes] = []
        self.send_ch, self._receive_ch = trio.open_memory_channel[str](1000)
        self.closed = trio.Event()
        self.versioned = trio.Event()
        self._drained = trio.Event()  # the writer has sent everything queued before the close

    def send(self, line: str) -> None:
        """Queue a line for the bot; a bot that stopped reading is dropped."""
        try:
            self.send_ch.send_nowait(line)
        except trio.WouldBlock:
            log.warning("the bot is not reading its lines: closing its connection")
            self.close()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass

    def close(self) -> None:
        self.send_ch.close()
        self.closed.set()

    async def run(self, version_timeout: float) -> None:
        """Read and write until either side closes (never raises for the bot's faults)."""
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._writer, nursery.cancel_scope)
                nursery.start_soon(self._wait_closed, nursery.cancel_scope)
                await self._reader(version_timeout)
                nursery.cancel_scope.cancel()
        finally:
            self.closed.set()
            await trio.aclose_forcefully(self.stream)

    async def _wait_closed(self, scope: trio.CancelScope) -> None:
        await self.closed.wait()
        # Let the writer put what is queued on the wire (the final state) first: until it
        # has sent it, not until it has taken it (cancelled in its send, a program that
        # connected after its hand had ended saw nothing of it).
        with trio.move_on_after(2):
            await self._drained.wait()
        scope.cancel()

    async def _writer(self, scope: trio.CancelScope) -> None:
        async with self._receive_ch:
            async for line in self._receive_ch:
                chunks = [line]
                while True:
                    try:
                        chunks.append(self._receive_ch.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                if self.transcript is not None:
                    for c in chunks:
                        self.transcript(f"S-> {c}")
                try:
                    with trio.fail_after(30):
                        await self.stream.send_all("".join(c + "\r\n" for c in chunks).encode())
                except (trio.BrokenResourceError, trio.ClosedResourceError, trio.TooSlowError, OSError):
                    log.info("the bot's connection broke while sending")
                    scope.cancel()
                    return
        self._drained.set()  # the channel was closed and everything in it is sent

    async def _reader(self, version_timeout: float) -> None:
        buffer = LineBuffer(MAX_LINE)
        with trio.move_on_after(version_timeout) as waiting:
            first = await self._read_line(buffer)
        if waiting.cancelled_caught or first is None:
            log.warning("the bot did not say VERSION:2.0.0 within %g s: closing its connection", version_timeout)
            return
        if not first.startswith("VERSION:2."):
            log.warning("the bot's first line is not VERSION:2.x.y (%r): closing its connection", first[:80])
            return
        self.versioned.set()
        while True:
            line = await self._read_line(buffer)
            if line is None:
                return
            await self.on_line(self, line)

    async def _read_line(self, buffer: LineBuffer) -> str | None:
        while True:
            if self._pending:
                raw = self._pending.pop(0)
                text = raw.decode("utf-8", errors="replace")
                if self.transcript is not None:
                    self.transcript(f"<-C {text}")
                return text
            try:
                data = await self.stream.receive_some(MAX_LINE)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                return None
            if not data:
                return None
            try:
                self._pending.extend(buffer.feed(bytes(data)))
            except ProtocolError:
                log.warning("the bot sent a line over %d bytes: closing its connection", MAX_LINE)
                return None


@attrs.frozen
class SatOut:
    """The server sat the bridge's seat out (carried with the core's items, in order)."""


@attrs.define(eq=False)
class HandBot:
    """One hand's program (``bot_cmd``): that hand's lines, kept so a program that
    connects late still sees its whole hand (and only its hand), and its connection."""

    hand_no: int
    lines: list[str] = attrs.Factory(list)
    link: BotLink | None = None
    connected: bool = False  # its program connected and said its version
    done: trio.Event = attrs.Factory(trio.Event)


class Bridge:
    """Play one Hickory seat with an ACPC bot. See the module docstring.

    ``notes`` keeps every adjustment and fallback as ``(hand_no or None, text)`` (they
    are logged too); ``lines`` counts the lines sent to bots, ``replies`` the replies
    taken. ``acpc_port`` is the port bots connect to in one-connection mode, once
    ``ready`` is set.
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        password: str | None = None,
        token_file: str | Path | None = None,
        acpc_host: str = "127.0.0.1",
        acpc_port: int = 0,
        bot_cmd: str | None = None,
        game_file: str | Path | None = None,
        game_dir: str | Path | None = None,
        bot_output: str | Path | None = None,
        transcript: str | Path | None = None,
        bot_game: GameDef | None = None,
        version_timeout: float = 10.0,
        connect_timeout: float = 30.0,
        exit_grace: float = 3.0,
        **session_options: object,
    ) -> None:
        self.name = name
        self.acpc_host = acpc_host
        self.acpc_port = acpc_port
        self.bot_cmd = bot_cmd
        self.game_file = Path(game_file) if game_file is not None else None
        self._game_dir = Path(game_dir) if game_dir is not None else None
        self.bot_output = Path(bot_output) if bot_output is not None else None
        self.transcript_path = Path(transcript) if transcript is not None else None
        self.version_timeout = version_timeout
        self.connect_timeout = connect_timeout
        self.exit_grace = exit_grace
        self.token_file = Path(token_file) if token_file is not None else None
        token = None
        if self.token_file is not None and self.token_file.exists():
            token = self.token_file.read_text().strip() or None
        session_options.setdefault("skip_types", frozenset({"lobby"}))
        self.session = ClientSession(
            host, port, name=None if token else name, password=password, token=token,
            on_message=self._on_message, **session_options,  # type: ignore[arg-type]
        )
        self.core = AcpcSeat(bot_game)
        self.bot_game = bot_game
        self.shown = 0  # hands the bot was shown
        self.played_for: list[tuple[int, str]] = []  # hands its game file cannot express: (hand, why)
        self.ready = trio.Event()
        self.link: BotLink | None = None
        self.notes: list[tuple[int | None, str]] = []
        self.lines = 0
        self.replies = 0
        self.hand_lines: list[str] = []
        self.sitting_out = False
        self.place: int | None = None
        self.refused: str | None = None
        self._out_send, self._out_receive = trio.open_memory_channel[Out | SatOut](10_000)
        self._last_hand: HandBot | None = None  # the last hand whose program has been given its end
        self._hands: dict[int, HandBot] = {}
        self._current: HandBot | None = None
        self._hand_tasks = 0
        self._hand_tasks_done = trio.Event()
        self._dispatched = trio.Event()
        self._nursery: trio.Nursery | None = None
        self._own_dir: Path | None = None  # the temporary folder of the hands' game files, if ours

    # -- Hickory side ----------------------------------------------------------------------

    def _on_message(self, msg: m.ServerMessage, now: float) -> None:
        me = self.session.model.me.player_id
        outs: list[Out | SatOut] = []
        if isinstance(msg, m.PlayerStatus) and msg.player_id == me:
            if msg.status == "sitting_out":
                self.sitting_out = True
                outs.append(SatOut())  # in order with the hands' ends (see _carry_out)
            elif msg.status == "back":
                self.sitting_out = False
        try:
            outs += self.core.apply(msg)
        except Exception:  # a bug must not take the seat down: the bridge plays on without a view
            log.exception("the ACPC translation failed on %s: no ACPC view of this hand", msg.TYPE)
            self.core.view = None
            self.core.awaiting = None
        for out in outs:
            try:
                self._out_send.send_nowait(out)
            except trio.WouldBlock:
                log.error("the bridge is %d items behind: dropping %r", 10_000, out)

    async def _dispatch(self) -> None:
        """Carry out the core's ``Out`` items in order."""
        async with self._out_receive:
            async for out in self._out_receive:
                await self._carry_out(out)
        self._dispatched.set()

    async def _carry_out(self, out: Out | SatOut) -> None:
        """One ``Out`` item from the core (or the seat's sitting out, in the same order)."""
        if isinstance(out, SatOut):
            last = self._last_hand
            if self.bot_cmd is not None and self._current is None and last is not None and last.connected:
                # The clock's action ended the hand, and the server said "sitting out" only
                # after the hand's end: the next hand's program is a fresh one all the same.
                self._back(f"hand #{last.hand_no} is over: a fresh program plays the next")
        elif isinstance(out, Line):
            self.hand_lines.append(out.text)
            self.lines += 1
            link = self.link if self.bot_cmd is None else self._current.link if self._current else None
            if self._current is not None:
                self._current.lines.append(out.text)
            if link is not None:
                link.send(out.text)
        elif isinstance(out, PlayedFor):
            self.played_for.append((out.hand_no, out.why))
            self._note(out.hand_no, f"hand #{out.hand_no}: played for the bot, which does not see it "
                                    f"(its game file cannot express it: {out.why})")
        elif isinstance(out, StartHand):
            self.shown += 1
            self.hand_lines = []
            await self._start_hand(out.hand_no, out.game)
        elif isinstance(out, EndHand):
            hand = self._hands.pop(out.hand_no, None)
            if hand is not None:
                hand.done.set()
                self._last_hand = hand
                if hand.connected and self.sitting_out:
                    # Its program was playing and lost the seat to the clock (it hung or
                    # died): the next hand has a fresh program, which deserves its turns.
                    self._back(f"hand #{out.hand_no} is over: a fresh program plays the next")
            if hand is self._current:
                self._current = None
        elif isinstance(out, SelfAct):
            self._note(out.hand_no, out.reason + (": checking or calling" if out.call else ": checking or folding"),
                       level=logging.INFO if out.expected else logging.WARNING)
            await self._self_act(out.call)
        elif isinstance(out, Note):
            self._note(out.hand_no, out.text, level=logging.INFO)

    def _back(self, why: str) -> None:
        """Say "I'm back" for the seat (the server takes it between hands at once, during a
        hand from the next one)."""
        log.info("%s: %s: I'm back", self.name, why)
        self.session.send_nowait(m.ImBack())

    def _note(self, hand_no: int | None, text: str, level: int = logging.WARNING) -> None:
        self.notes.append((hand_no, text))
        log.log(level, "%s: %s", self.name, text)

    async def _self_act(self, call: bool) -> None:
        turn = self.session.model.turn
        if turn is None or turn.acted:
            return
        legal = turn.legal
        if call:
            action = Action.check() if legal.check else Action.call()
        else:
            action = legal.timeout_action()
        await self.session.act(action)

    # -- ACPC side -------------------------------------------------------------------------

    async def _bot_line(self, link: BotLink, text: str) -> None:
        mine = self.link if self.bot_cmd is None else self._current.link if self._current else None
        if link is not mine:  # replaced, or a program whose hand is over
            return
        if self.sitting_out:
            self._back("the bot answered")
        if text.startswith(("#", ";")) or text.startswith("VERSION:"):
            return
        turn = self.session.model.turn
        view = self.core.view
        legal = None
        if turn is not None and not turn.acted and view is not None and turn.hand_no == view.hand_no:
            legal = turn.legal
        action, notes = self.core.reply(text, legal)
        for n in notes:
            self._note(view.hand_no if view is not None else None, n,
                       level=logging.DEBUG if action is None else logging.WARNING)
        if action is not None:
            self.replies += 1
            if await self.session.act(action) is None:
                self._note(None, "the reply could not be sent to the server (disconnected)")

    def _transcript(self) -> Callable[[str], None] | None:
        path = self.transcript_path
        if path is None:
            return None

        def write(text: str) -> None:
            with path.open("a") as f:
                f.write(text + "\n")

        return write

    async def _serve_link(self, stream: trio.SocketStream, hand: HandBot | None = None) -> None:
        """Run one bot connection; it becomes the bridge's bot (or ``hand``'s program) once
        it says its version."""
        link = BotLink(stream, self._bot_line, self._transcript())

        async def adopt() -> None:
            await link.versioned.wait()
            if hand is not None:
                hand.link = link
                hand.connected = True
                if self.sitting_out:  # a program that made it: the seat plays from the next hand
                    self._back(f"hand #{hand.hand_no}: the bot connected")
                for line in hand.lines:
                    link.send(line)
                if hand.done.is_set():  # its hand ended before it connected: the final state, then close
                    link.close()
                return
            old, self.link = self.link, link
            if old is not None:
                log.info("%s: a new bot connection replaces the old one", self.name)
                old.close()
            if self.sitting_out:
                self._back("the bot connected")
            if self.core.view is not None:
                for line in self.hand_lines:
                    link.send(line)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(adopt)
            await link.run(self.version_timeout)
            nursery.cancel_scope.cancel()
        if hand is not None:
            hand.link = None
        elif self.link is link:
            self.link = None
            log.info("%s: the bot disconnected", self.name)

    async def _accept(self, listeners: list[trio.SocketListener]) -> None:
        assert self._nursery is not None
        async with trio.open_nursery() as nursery:
            for listener in listeners:
                nursery.start_soon(self._accept_on, listener)

    async def _accept_on(self, listener: trio.SocketListener) -> None:
        assert self._nursery is not None
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as exc:  # out of file descriptors, say: try again shortly
                    log.warning("accepting a bot connection failed: %s", exc)
                    await trio.sleep(0.5)
                    continue
                self._nursery.start_soon(self._serve_link, stream)

    # -- a bot per hand ----------------------------------------------------------------------

    def _write_game(self, path: Path, game: GameDef) -> None:
        path.write_text(game.text())

    async def _start_hand(self, hand_no: int, game: GameDef) -> None:
        if self.game_file is not None:
            self._write_game(self.game_file, game)
        if self.bot_cmd is None:
            return
        assert self._nursery is not None
        hand = self._current = self._hands[hand_no] = HandBot(hand_no)
        listeners = await trio.open_tcp_listeners(0, host=self.acpc_host)
        self._hand_tasks += 1
        self._hand_tasks_done = trio.Event()
        await self._nursery.start(self._hand_bot, hand_no, game, listeners[0], hand)

    async def _hand_bot(self, hand_no: int, game: GameDef, listener: trio.SocketListener,
                        hand: HandBot, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """One hand's bot: write the game, run the program, play over its connection.

        The program is given its connection even when its hand ended before it connected
        (a hand all in from the blinds ends at once): it sees the whole hand, as ACPC
        dealers show every hand, and exits."""
        assert self.bot_cmd is not None
        if self._game_dir is None:  # made once, removed when the bridge stops (run)
            self._game_dir = self._own_dir = Path(tempfile.mkdtemp(prefix="hickory-acpc-"))
        path = self._game_dir / f"hand-{hand_no}.game"
        self._write_game(path, game)
        port = listener.socket.getsockname()[1]
        argv = [a.format(game=path, host=self.acpc_host, port=port) for a in shlex.split(self.bot_cmd)]
        task_status.started()
        output = self.bot_output.open("ab") if self.bot_output is not None else None
        proc: trio.Process | None = None
        try:
            try:
                proc = await trio.lowlevel.open_process(
                    argv, stdin=subprocess.DEVNULL, stdout=output, stderr=output
                )
            except OSError as exc:
                self._note(hand_no, f"hand #{hand_no}: cannot run the bot ({' '.join(argv)}): {exc}")
                return
            stream = None
            with trio.move_on_after(self.connect_timeout):
                async with listener:
                    stream = await listener.accept()
            if stream is None:
                self._note(hand_no, f"hand #{hand_no}: the bot did not connect within {self.connect_timeout:g} s")
                return
            with trio.CancelScope() as bound:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._serve_link, stream, hand)
                    await hand.done.wait()
                    if hand.link is not None:
                        hand.link.close()  # one not yet adopted closes itself once it is
                    bound.deadline = trio.current_time() + self.version_timeout + self.exit_grace + 2
        finally:
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(listener)
                if proc is not None:
                    with trio.move_on_after(self.exit_grace):
                        await proc.wait()
                    if proc.returncode is None:
                        self._note(hand_no, f"hand #{hand_no}: the bot was still running {self.exit_grace:g} s after its hand: killed")
                        proc.kill()
                        await proc.wait()
                if output is not None:
                    output.close()
                path.unlink(missing_ok=True)
                self._hand_tasks -= 1
                if not self._hand_tasks:
                    self._hand_tasks_done.set()

    # -- running ----------------------------------------------------------------------------

    def _save_token(self) -> None:
        token = self.session.model.me.token
        if self.token_file is not None and token is not None:
            if not self.token_file.exists() or self.token_file.read_text().strip() != token:
                self.token_file.write_text(token + "\n")

    async def run(self) -> int | None:
        """Play until the tournament is over; the final place (None if refused or closed)."""
        try:
            return await self._run()
        finally:
            if self._own_dir is not None:  # every hand's program has ended: nothing uses it
                shutil.rmtree(self._own_dir, ignore_errors=True)
                self._game_dir = self._own_dir = None

    async def _run(self) -> int | None:
        s = self.session
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            await nursery.start(s.run)
            if self.bot_cmd is None:
                listeners = await trio.open_tcp_listeners(self.acpc_port, host=self.acpc_host)
                self.acpc_port = listeners[0].socket.getsockname()[1]
                nursery.start_soon(self._accept, listeners)
            nursery.start_soon(self._dispatch)
            self.ready.set()
            try:
                await s.wait_ready()
                while s.model.finished is None and not s.ended:
                    seen = s.model.changes
                    self._save_token()
                    await s.wait_changed(seen)
                self._save_token()
            except SessionRefused as exc:
                self.refused = exc.reason
            except SessionClosed:
                pass
            finally:
                with trio.CancelScope(shield=True):
                    # The last hand's final state first, then the bot's connection.
                    self._out_send.close()
                    with trio.move_on_after(2):
                        await self._dispatched.wait()
                    for hand in self._hands.values():
                        hand.done.set()
                    if self._hand_tasks:  # the last hands' programs see their hands to the end
                        with trio.move_on_after(self.connect_timeout + self.version_timeout + self.exit_grace + 2):
                            await self._hand_tasks_done.wait()
                    if self.link is not None:
                        self.link.close()
                        with trio.move_on_after(2):
                            await self.link.closed.wait()
                    with trio.move_on_after(2):
                        await s.close()
                nursery.cancel_scope.cancel()
        if s.model.connection is ConnectionState.REFUSED and self.refused is None:
            self.refused = s.model.connection_reason
        self.place = s.model.my_place
        return self.place

