"""One task per table: it deals, waits for the player to act, runs the clocks, stores, sends.

Player actions, sit-outs and wake-ups reach a table through its inbox channel; the task
applies them to the engine, has the journal commit the result, and only then broadcasts
(store, then send). Nothing else changes a hand.
"""

from __future__ import annotations

import json
import logging
import math
from typing import Any

import trio

import protocol.errors as E
import protocol.messages as m
from poker.actions import ACTION_KINDS, Action, IllegalAction, make_action
from poker.hand import Hand
from server import inputs
from server.alarm import Alarm
from server.clients import Client
from server.dealing import draw_deck, hand_dealt
from server.fanout import (
    broadcast_hand_events,
    player_status,
    reply_error,
    send_turn,
    send_your_turn,
)
from server.house import (
    WAKE,
    House,
    TableAct,
    TableCommand,
    TableImBack,
    TableSitOut,
    TableVoid,
    Turn,
)
from server.inbox import Inbox
from server.inputs import Logged, apply_logged
from server.news import tournament_events
from server.refusals import why_not_yours
from server.rows import Record

log = logging.getLogger("hickory.server")

INBOX_SIZE = 1024


def sender(cmd: TableCommand) -> Client | None:
    """The connection a command came from, if any (its inbox share counts it)."""
    return cmd.client if isinstance(cmd, (TableAct, TableSitOut, TableImBack)) else None


class TableRunner:
    """The one task that plays hands at one table."""

    def __init__(self, house: House, table_id: int) -> None:
        self.house = house
        self.table_id = table_id
        self.inbox = Inbox[TableCommand](INBOX_SIZE)
        self.turn: Turn | None = None
        self.last_hand_end = -math.inf
        self.away_until: float | None = None  # when everyone is sitting out: next deal
        self.returning: set[str] = set()  # sitting out, back from the next hand (im_back in a hand)
        self.idle = False  # waiting between hands for a change (only then does a wake matter)
        self.queued: dict[Client, int] = {}  # commands in the inbox per connection (fair shares)
        self.alarm_at = math.inf  # when the turn waited on runs out (``turn_clock`` wakes the task)
        self.alarm = Alarm()  # ``turn_clock``'s sleep

    def post_nowait(self, cmd: TableCommand) -> bool:
        if not self.inbox.post(cmd):
            return False
        client = sender(cmd)
        if client is not None:
            self.queued[client] = self.queued.get(client, 0) + 1
        return True

    def queued_for(self, client: Client) -> int:
        return self.queued.get(client, 0)

    async def receive(self) -> TableCommand:
        """The next command; it no longer counts against its connection's share."""
        cmd = await self.inbox.take()
        client = sender(cmd)
        if client is not None:
            left = self.queued.pop(client, 0) - 1
            if left > 0:
                self.queued[client] = left
        return cmd

    async def run(self) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self.turn_clock)
            try:
                await self.deal_hands()
            finally:
                nursery.cancel_scope.cancel()

    async def turn_clock(self) -> None:
        """Wake the table's task when the turn it waits on runs out of time: a wake in its
        inbox at ``alarm_at``, so the task waits for a command with no cancel scope
        (``alarm.py``). A new turn's deadline usually comes after the last one's: the
        clock wakes about once per action clock."""
        while True:
            await self.alarm.sleep_until(self.alarm_at)
            if trio.current_time() >= self.alarm_at:
                self.alarm_at = math.inf
                self.inbox.post(WAKE)  # if full, the task sees the time before its next command

    async def deal_hands(self) -> None:
        h = self.house
        t = h.tournament
        while not t.finished and self.table_id in t.tables:
            table = t.table(self.table_id)
            if table.hand is not None and not table.hand.is_over:
                await self.play(table.hand)  # a hand restored after a restart
                continue
            if table.hand is not None and table.hand.is_over:
                await self.end_hand()
                self.last_hand_end = trio.current_time()
                await trio.lowlevel.checkpoint()  # the next deal in a step of its own
                continue
            now = h.now()
            if not t.can_deal(self.table_id, now):
                await self.wait_for_change(1.0)
                continue
            if self.everyone_away():
                # Nobody here is playing: deal at a human pace (one hand per action clock),
                # not as fast as the CPU can fold hands; at once when someone is back.
                if self.away_until is None:
                    self.away_until = trio.current_time() + t.settings.action_clock
                if trio.current_time() < self.away_until:
                    await self.wait_for_change(self.away_until - trio.current_time())
                    continue
            self.away_until = None
            pause_left = self.last_hand_end + h.config.hand_pause - trio.current_time()
            if pause_left > 0:
                await self.wait_for_change(pause_left)
                continue
            await self.begin_hand()
            await trio.lowlevel.checkpoint()

    def everyone_away(self) -> bool:
        seats = self.house.tournament.table(self.table_id).seats.values()
        return all(self.house.players[p.player_id].sitting_out for p in seats if p.stack > 0)

    async def wait_for_change(self, timeout: float) -> None:
        self.idle = True
        try:
            with trio.move_on_after(timeout) as waited:
                cmd = await self.receive()
        finally:
            self.idle = False
        if not waited.cancelled_caught:  # handled outside the wait: a commit is never cut short
            await self.handle_idle(cmd)

    async def handle_idle(self, cmd: TableCommand) -> None:
        """Commands that arrive between hands."""
        h = self.house
        # An action that arrives between hands is late for the last one: it does not bring
        # a sitting-out player back (``im_back`` does, or acting on the next hand).
        if isinstance(cmd, TableAct):
            refused = why_not_yours(cmd.msg, cmd.player_id, self.table_id, h.tournament.table(self.table_id).hand,
                                    None)
            assert refused is not None  # no hand is in play between hands
            reply_error(cmd.client, refused.code, refused.message, cmd.msg.id, path=refused.path)
        elif isinstance(cmd, (TableSitOut, TableImBack)):
            await set_sitting_out(h, cmd.player_id, isinstance(cmd, TableSitOut))
        elif isinstance(cmd, TableVoid):
            log.info("table %d: nothing to void, the hand had ended", self.table_id)

    # -- a hand -----------------------------------------------------------------------------

    async def begin_hand(self) -> None:
        h = self.house
        t = h.tournament
        table_id = self.table_id
        # Commit, collect the players' seeds, derive the deck (docs/fairness.md).
        drawn = await draw_deck(h, table_id)
        if drawn is None:
            return  # the table may no longer deal: the same commitment serves its next deal
        # ``drawn.now``: the time it was found free to deal: the deal cannot be refused now.
        dealt = inputs.deal(table_id, now=drawn.now, deck=drawn.deck, carry=t.table(table_id).carry,
                            draw=drawn.payload())
        news = apply_logged(t, h.players, dealt).news
        table = t.table(table_id)
        hand = table.hand
        assert hand is not None
        seats = {s: [p.player_id, h.players[p.player_id].name] for s, p in table.seats.items()}
        records = drawn.records + self.logged(dealt)
        records += h.journal.hand_started(hand.hand_no, table_id, t.hand_level(table_id), seats)
        records += h.journal.hand_events(hand, hand.events)
        await h.journal.commit(records)
        hand_dealt(h, table_id, drawn, hand.hand_no)
        h.fair.events_stored(table_id, records)  # the hand's record, for the hash chain
        broadcast_hand_events(h, table_id, hand, hand.events)
        tournament_events(h, news)

    async def end_hand(self) -> None:
        h = self.house
        t = h.tournament
        hand = t.table(self.table_id).hand
        assert hand is not None and hand.result is not None
        summary = {"stacks": hand.result.stacks, "carried_out": hand.result.carried_out}
        chain = h.fair.chain_hand(self.table_id, hand.events, json.loads(json.dumps(summary)),
                                  stored=h.store is not None)
        ended = inputs.end(self.table_id, now=h.now(), chain=chain)
        events = apply_logged(t, h.players, ended).news
        records = self.logged(ended) + h.journal.hand_finished(hand.hand_no, summary)
        records += h.journal.audit(events)
        await h.journal.commit(records)
        tournament_events(h, events)
        await self.bring_back()
        wake_idle_tables(h)
        for w in h.watchers:
            w.hand_ended(self.table_id)

    async def play(self, hand: Hand) -> None:
        h = self.house
        table = h.tournament.table(self.table_id)
        while not hand.is_over and table.hand is hand:  # a voided hand leaves the table
            legal = hand.legal_actions()
            assert legal is not None
            seat = legal.seat
            player_id = table.seats[seat].player_id
            ps = h.players[player_id]
            if ps.sitting_out:
                await self.apply(hand, seat, legal.timeout_action(), automatic=True)
                continue
            settings = h.tournament.hand_settings(self.table_id)
            turn = self.turn
            if turn is None or turn.seat != seat or turn.player_id != player_id:
                turn = Turn(seat=seat, player_id=player_id, started=trio.current_time(),
                            clock=settings.action_clock, bank=ps.bank)
                self.turn = turn
                send_turn(h, self.table_id, hand, turn)
                send_your_turn(h, self.table_id, hand, turn, legal)
            acted = await self.wait_for_action(hand, turn, turn.started + turn.clock)
            if not acted and turn.bank > 0 and table.hand is hand:
                send_turn(h, self.table_id, hand, turn)  # the action clock ran out: the bank runs
                acted = await self.wait_for_action(hand, turn, turn.deadline())
            if not acted:
                # Clock and bank ran out: check if free, else fold; then sitting out.
                await self.apply(hand, seat, legal.timeout_action(), automatic=True, bank=0.0)
                await set_sitting_out(h, player_id, True)

    async def wait_for_action(self, hand: Hand, turn: Turn, until: float) -> bool:
        """Handle commands until the player to act has acted (True) or ``until`` (False).
        Only the wait for a command has the deadline: an action that came in time is
        stored and sent whole, even if its commit ends after the deadline; once it has
        passed, no command still in the inbox is taken (``turn_clock`` posts a wake at
        the deadline, so the wait never outlasts it)."""
        self.alarm_at = until
        self.alarm.bring_forward(until)
        try:
            while trio.current_time() < until:
                if await self.handle_in_hand(hand, turn, await self.receive()):
                    return True
            return False
        finally:
            self.alarm_at = math.inf

    def back_next_hand(self, player_id: str) -> None:
        """A player sitting out says they are back during a hand: they play from the next
        hand (this one goes on being acted for them), and are told so when it ends."""
        if self.house.players[player_id].sitting_out:
            self.returning.add(player_id)

    async def bring_back(self) -> None:
        """The hand is over: the players who said they are back are back."""
        h = self.house
        for player_id in sorted(self.returning):
            if h.locate(player_id) is not None:  # not out in the hand
                await set_sitting_out(h, player_id, False)
        self.returning.clear()

    async def handle_in_hand(self, hand: Hand, turn: Turn, cmd: TableCommand) -> bool:
        """Handle one command during a hand; True when the player to act has acted.
        ``sit_out`` takes effect at once; ``im_back`` (or any act) from the next hand."""
        h = self.house
        if isinstance(cmd, TableImBack):
            self.back_next_hand(cmd.player_id)
            return False
        if isinstance(cmd, TableSitOut):
            self.returning.discard(cmd.player_id)
            await set_sitting_out(h, cmd.player_id, True)
            if cmd.player_id == turn.player_id:
                legal = hand.legal_actions()
                assert legal is not None
                await self.apply(hand, turn.seat, legal.timeout_action(), automatic=True)
                return True
            return False
        if isinstance(cmd, TableVoid):
            await self.void(hand, cmd.payload)
            return True
        if not isinstance(cmd, TableAct):
            return False
        msg, client = cmd.msg, cmd.client
        taken_at = trio.current_time()
        if msg.hand_no == hand.hand_no:
            # A sitting-out player is acted for without a turn, so trying to act is how
            # "they act" ends the sit-out: back from the next hand, as with im_back. (Not
            # an action for another hand: stale ones, a flood's, bring nobody back.)
            self.back_next_hand(cmd.player_id)
        refused = why_not_yours(msg, cmd.player_id, self.table_id, hand, turn)
        if refused is not None:
            reply_error(client, refused.code, refused.message, msg.id, path=refused.path)
            return False
        used = taken_at - turn.started
        bank = max(0.0, turn.bank - (used - turn.clock)) if used > turn.clock else h.players[turn.player_id].bank
        try:
            await self.apply(hand, turn.seat, make_action(ACTION_KINDS[msg.action], msg.amount),
                             automatic=False, bank=bank)
        except IllegalAction as exc:
            code = exc.code if exc.code != "hand_over" else E.STALE_HAND
            path = f"act.{exc.field}" if code == E.ILLEGAL_ACTION else None
            reply_error(client, code, exc.message, msg.id, path=path)
            return False
        if h.metrics is not None:
            h.metrics.action_broadcast(client.conn, client.read_at, taken_at)
        if h.players[turn.player_id].sitting_out:
            await set_sitting_out(h, turn.player_id, False)  # any action means "I'm back"
        if msg.id is not None:
            client.send_nowait(m.Ack(id=msg.id))
        return True

    async def void(self, hand: Hand, payload: dict[str, Any]) -> None:
        """The director calls the hand off: logged as the director's input at this point of
        the hand (replay voids it at the same point), then every seat gets the table anew."""
        h = self.house
        voided = Logged("director", None, {**payload, "now": h.now()})
        events = apply_logged(h.tournament, h.players, voided).news  # the path its replay takes
        records = self.logged(voided) + h.journal.audit(events) + h.journal.hand_voided(hand.hand_no)
        await h.journal.commit(records)
        self.turn = None
        tournament_events(h, events)
        await self.bring_back()
        wake_idle_tables(h)

    async def apply(self, hand: Hand, seat: int, action: Action, *, automatic: bool,
                    bank: float | None = None) -> None:
        """Apply an action through the one input path, store it and its consequences, then
        broadcast them. ``bank``: the acting player's time bank after it (unchanged if
        None). Refused before anything changes: ``IllegalAction``."""
        h = self.house
        player_id = h.tournament.table(self.table_id).seats[seat].player_id
        acted = inputs.act(self.table_id, seat, action, automatic=automatic, now=h.now(),
                           bank=h.players[player_id].bank if bank is None else bank)
        new = apply_logged(h.tournament, h.players, acted).hand_events
        self.turn = None
        records = [*self.logged(acted), *h.journal.hand_events(hand, new)]
        await h.journal.commit(records)
        h.fair.events_stored(self.table_id, records)
        broadcast_hand_events(h, self.table_id, hand, new)

    def logged(self, entry: Logged) -> list[Record]:
        """The log's row for an input this table applied (replay applies it the same way)."""
        return self.house.journal.input(entry.kind, entry.payload, entry.table_id)


async def set_sitting_out(h: House, player_id: str, value: bool) -> None:
    """Sit a player out or bring them back: applied and stored as a logged status (replay
    applies it the same way), then told to their table. Store, then send: no client hears
    of a status a restart would not know."""
    ps = h.players.get(player_id)
    if ps is None or ps.sitting_out == value:
        return
    entry = inputs.status(player_id, sitting_out=value, bank=ps.bank)
    apply_logged(h.tournament, h.players, entry)
    await h.journal.commit(h.journal.input(entry.kind, entry.payload))
    player_status(h, player_id, "sitting_out" if value else "back")


def start_tables(h: House) -> None:
    """A task for every table that has none (at the start, and after a restart)."""
    assert h.nursery is not None
    for table_id in h.tournament.table_ids():
        if table_id not in h.runners:
            runner = TableRunner(h, table_id)
            h.runners[table_id] = runner
            h.nursery.start_soon(_run_table, h, runner)


def wake_idle_tables(h: House) -> None:
    """Every table waiting between hands re-checks whether it may deal (a level, a move, a
    pause changed). A table in a hand ignores wakes and checks again when its hand ends,
    so it is not woken: a hand's end used to wake every table's task, work proportional to
    the tables at each of their hands' ends (quadratic in tables per round of hands)."""
    for runner in h.runners.values():
        if runner.idle:
            runner.post_nowait(WAKE)


async def _run_table(h: House, runner: TableRunner) -> None:
    try:
        await runner.run()
    finally:
        h.runners.pop(runner.table_id, None)
