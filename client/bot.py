"""Bots over the network: a strategy plays through a ``ClientSession``.

``Bot`` connects (joining under a name, or resuming with a token kept in ``token_file``),
and whenever a ``your_turn`` arrives for it builds the ``Situation`` from the session's
model (``client.model.situation_from_model``, the same view a person has), asks its
strategy and sends the ``act``. The runner owns the clock: it hands the strategy
``time.perf_counter`` and a time budget of at most a quarter of the action clock left, so
a bot never times out (strategies themselves never read the time). If the server refuses
an action (it should not: the legal actions come from the server) the bot falls back to
checking or folding, what the clock would do anyway. If the server sits the bot out (its
clock ran out, say while its connection was down), it sends ``im_back`` at once.

``run_bot(host, port, name, strategy_name)`` plays until the tournament is over and
returns the final place (None if the session was refused or closed first).
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path

import trio

from client.deckcheck import DeckLog
from client.deckfile import recording_log
from client.model import ClientModel, ConnectionState, situation_from_model
from client.session import ClientSession, SessionClosed, SessionRefused
from client.strategies import Strategy, make_strategy
from poker.actions import Action
from protocol import errors as E
from protocol import messages as m

__all__ = ["Bot", "run_bot"]

log = logging.getLogger("hickory.bot")

SKIP = frozenset({"lobby"})
"""Server messages a bot does not decode (``Bot(..., skip_types=frozenset())`` keeps them)."""

CLOCK_SHARE = 0.25
"""The share of the action clock left that a decision may use (think delay included)."""


class Bot:
    """One bot: a strategy, a session, and what it has seen (for the load tool).

    ``latencies`` holds, per action, the seconds from sending ``act`` to the first server
    message about it (our ``action`` event, or an ``error``), on the Trio clock.
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        strategy: str | Strategy,
        *,
        seed: int | None = None,
        token_file: str | Path | None = None,
        password: str | None = None,
        think: float = 0.0,
        time_budget: float = 2.0,
        stop_when_finished: bool = True,
        clock: Callable[[], float] = time.perf_counter,
        on_message: Callable[[m.ServerMessage, float], None] | None = None,
        deck_record: str | Path | None = None,
        keep_decks: bool = False,
        **session_options: object,
    ) -> None:
        self.name = name
        self.rng = random.Random(seed)
        # The bot's seeds for the server's draws: from its own seeded RNG when it has a
        # seed (repeatable runs, tests), else from the OS CSPRNG (the session's default).
        if seed is not None:
            seed_rng = random.Random(f"{seed}/deck-seeds")
            session_options.setdefault("seed_source", lambda: seed_rng.randbytes(32))
        self.token_file = Path(token_file) if token_file is not None else None
        # Keeping the deck record (docs/fairness.md) costs memory per hand: only on request.
        # A bot coming back with its token goes on with its record; a new one starts afresh.
        self.decks: DeckLog | None = None
        if deck_record is not None or keep_decks:
            path = Path(deck_record) if deck_record is not None else None
            self.decks = recording_log(path, fresh=self._read_token() is None)
        if isinstance(strategy, str):
            strategy = make_strategy(strategy, random.Random(self.rng.getrandbits(64)))
        self.strategy = strategy
        self.strategy.clock = clock
        self.time_budget = time_budget
        self.think = think
        self.stop_when_finished = stop_when_finished
        self._on_message = on_message
        token = self._read_token()
        given = session_options.pop("model", None)
        self._given_model = given if isinstance(given, ClientModel) else None
        self._saved_token = token  # what the token file holds, so it is written only on change
        self._back_sent: int | None = None  # the connection an im_back was sent on, this sit-out
        session_options.setdefault("skip_types", SKIP)
        self.session = ClientSession(
            host, port, name=name, password=password, token=token,
            on_message=self._seen, model=self._new_model(), **session_options,  # type: ignore[arg-type]
        )
        self._choose_token()
        self.place: int | None = None
        self.refused: str | None = None
        self.decisions = 0
        self.fallbacks = 0
        self.comebacks = 0  # im_back sent after being sat out
        self.hands_started: set[tuple[int, int]] = set()
        self.latencies: list[float] = []
        self._acted_at: float | None = None
        self._acted_seat: int | None = None
        self._host, self._port, self._password = host, port, password
        self._session_options = session_options

    @property
    def model(self) -> ClientModel:
        return self.session.model

    def _new_model(self) -> ClientModel:
        """The model a session feeds: one given (tests), else a new one; either way with
        the bot's deck record when it keeps one."""
        model = self._given_model if self._given_model is not None else ClientModel()
        if self.decks is not None and model.decks is None:
            model.decks = self.decks
        return model

    # -- token ------------------------------------------------------------------------------

    def _read_token(self) -> str | None:
        if self.token_file is None or not self.token_file.exists():
            return None
        token = self.token_file.read_text().strip()
        return token or None

    def _choose_token(self) -> None:
        """A bot that keeps its token in a file and has none yet chooses it now and writes
        it down before it joins (protocol version 2 lets the client choose): a server killed
        right after storing the join then finds the bot resuming with that token on its
        restart, instead of refusing it as "name taken" (or "registration is closed" after
        the start) while its seat stays empty for the whole tournament."""
        if self.token_file is None or self.session.model.me.token is not None:
            return
        token = secrets.token_urlsafe(24)
        partial = self.token_file.with_name(self.token_file.name + ".new")
        partial.write_text(token + "\n")
        partial.replace(self.token_file)  # whole or not at all, even if killed right here
        self._saved_token = token
        self.session.chosen_token = token

    def _save_token(self) -> None:
        """Write the session's token to ``token_file`` once it is known (and again only if
        it changes): called on every update, so it must not touch the disk each time."""
        token = self.session.model.me.token
        if self.token_file is not None and token is not None and token != self._saved_token:
            self.token_file.write_text(token + "\n")
            self._saved_token = token

    # -- events -----------------------------------------------------------------------------

    def _seen(self, msg: m.ServerMessage, now: float) -> None:
        if isinstance(msg, m.HandStarted):
            self.hands_started.add((msg.table, msg.hand_no))
        elif self._acted_at is not None and (
            isinstance(msg, m.Error)
            or isinstance(msg, m.Action) and msg.seat == self._acted_seat
        ):
            self.latencies.append(now - self._acted_at)
            self._acted_at = None
        if self._on_message is not None:
            self._on_message(msg, now)

    # -- playing ----------------------------------------------------------------------------

    def decide(self) -> Action:
        """The strategy's action for the pending turn (check or fold if it cannot decide)."""
        model = self.session.model
        turn = model.turn
        assert turn is not None
        left = turn.msg.deadline_ms / 1000
        self.strategy.time_budget = max(0.01, min(self.time_budget, CLOCK_SHARE * left))
        try:
            situation = situation_from_model(model)
        except ValueError as exc:
            log.warning("%s: cannot build the situation (%s): checking or folding", self.name, exc)
            self.fallbacks += 1
            return turn.legal.timeout_action()
        self.decisions += 1
        return self.strategy.decide(situation)

    async def _play_turn(self) -> None:
        model = self.session.model
        turn = model.turn
        if turn is None or turn.acted:
            return
        if self.think > 0:
            left = turn.msg.deadline_ms / 1000
            await trio.sleep(min(self.think * self.rng.uniform(0.5, 1.5), CLOCK_SHARE * left))
            if model.turn is not turn:
                return  # the turn went away while thinking (hand over, reconnect)
        action = self.decide()
        self._acted_seat = turn.msg.seat
        self._acted_at = trio.current_time()
        if await self.session.act(action) is None:
            self._acted_at = None

    def _come_back(self) -> None:
        """Sat out (a timeout, a dropped connection): say ``im_back`` at once. A bot never
        sits out on purpose, and the server would otherwise check or fold for it for the
        rest of the tournament. Sent once per sit-out and connection (until the server
        says the bot is back, or the connection is replaced)."""
        me = self.session.model.my_seat
        if me is None or not self.session.connected:
            return
        if not me.sitting_out:
            self._back_sent = None
            return
        if self._back_sent == self.session.stats.connects:
            return
        if self.session.send_nowait(m.ImBack()):
            self._back_sent = self.session.stats.connects
            self.comebacks += 1
            log.info("%s: sat out by the server; sent im_back", self.name)

    async def _fallback(self) -> None:
        """The server refused our action: do what the clock would do."""
        turn = self.session.model.turn
        if turn is None:
            return
        self.fallbacks += 1
        turn.acted = False
        action = turn.legal.timeout_action()
        self._acted_at = trio.current_time()
        await self.session.act(action)

    def _over(self) -> bool:
        model = self.session.model
        if model.connection in (ConnectionState.REFUSED, ConnectionState.CLOSED):
            return True
        return self.stop_when_finished and model.finished is not None

    async def run(self) -> int | None:
        """Play until the end; the final place, or None if refused or closed before it."""
        used_token = self.session.model.me.token is not None
        place = await self._run_session()
        if used_token and self.token_file is not None and self.refused is not None and (
            self.session.model.last_error is not None
            and self.session.model.last_error.code == E.BAD_TOKEN
        ):
            # A token left over from another tournament: join afresh under the name.
            log.warning("%s: the token in %s was refused; joining as new", self.name, self.token_file)
            self.token_file.unlink(missing_ok=True)
            self._saved_token = None
            self.refused = None
            self.session = ClientSession(
                self._host, self._port, name=self.name, password=self._password,
                on_message=self._seen, model=self._new_model(), **self._session_options,  # type: ignore[arg-type]
            )
            self._choose_token()
            place = await self._run_session()
        return place

    async def _run_session(self) -> int | None:
        s = self.session
        async with trio.open_nursery() as nursery:
            await nursery.start(s.run)
            try:
                await s.wait_ready()
                errors_seen = s.stats.errors
                while not self._over():
                    seen = s.model.changes
                    self._save_token()
                    if s.stats.errors != errors_seen:
                        errors_seen = s.stats.errors
                        err = s.model.last_error
                        turn = s.model.turn
                        if err is not None and err.code == E.ILLEGAL_ACTION and turn is not None:
                            log.warning("%s: action refused: %s", self.name, err.message)
                            await self._fallback()
                    self._come_back()
                    await self._play_turn()
                    if s.model.changes == seen:
                        await s.wait_changed(seen)
            except SessionRefused as exc:
                self.refused = exc.reason
            except SessionClosed:
                pass
            finally:
                with trio.CancelScope(shield=True):
                    with trio.move_on_after(2):
                        await s.close()
                nursery.cancel_scope.cancel()
        if s.model.connection is ConnectionState.REFUSED and self.refused is None:
            self.refused = s.model.connection_reason
        self.place = s.model.my_place
        return self.place


async def run_bot(
    host: str,
    port: int,
    name: str,
    strategy_name: str | Strategy,
    *,
    seed: int | None = None,
    token_file: str | Path | None = None,
    stop_when_finished: bool = True,
    password: str | None = None,
    think: float = 0.0,
) -> int | None:
    """Play one bot until the tournament is over; its final place (None if refused).

    ``strategy_name``: a built-in strategy's name, or a ``Strategy`` object of your own.
    ``token_file``: where the session token is kept, so a restarted bot resumes its seat.
    """
    bot = Bot(
        host, port, name, strategy_name, seed=seed, token_file=token_file,
        password=password, think=think, stop_when_finished=stop_when_finished,
    )
    place = await bot.run()
    if bot.refused is not None:
        log.warning("%s: refused: %s", name, bot.refused)
    return place
