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
from poker import events as ev
from poker.actions import Action, ActionKind, IllegalAction
from poker.hand import Hand
from server.clients import Client
from server.dealing import draw_deck, hand_dealt
from server.fanout import (
    broadcast_hand_events,
    reply_error,
    send_turn,
    send_your_turn,
    set_sitting_out,
    tournament_events,
    wake_tables,
)
from server.house import House, TableCommand, Turn
from server.journal import wall_clock
from server.store import Record
from server.tournament.inputs import apply_director

log = logging.getLogger("hickory.server")

INBOX_SIZE = 1024


class TableRunner:
    """The one task that plays hands at one table."""

    def __init__(self, house: House, table_id: int) -> None:
        self.house = house
        self.table_id = table_id
        self.send, self.inbox = trio.open_memory_channel[TableCommand](INBOX_SIZE)
        self.turn: Turn | None = None
        self.last_hand_end = -math.inf
        self.away_until: float | None = None  # when everyone is sitting out: next deal
        self.returning: set[str] = set()  # sitting out, back from the next hand (im_back in a hand)
        self.idle = False  # waiting between hands for a change (only then does a wake matter)
        self.queued: dict[Client, int] = {}  # commands in the inbox per connection (fair shares)

    def post_nowait(self, cmd: TableCommand) -> bool:
        try:
            self.send.send_nowait(cmd)
        except trio.WouldBlock:
            return False
        if cmd.client is not None:
            self.queued[cmd.client] = self.queued.get(cmd.client, 0) + 1
        return True

    def queued_for(self, client: Client) -> int:
        return self.queued.get(client, 0)

    async def receive(self) -> TableCommand:
        """The next command; it no longer counts against its connection's share."""
        cmd = await self.inbox.receive()
        if cmd.client is not None:
            left = self.queued.pop(cmd.client, 0) - 1
            if left > 0:
                self.queued[cmd.client] = left
        return cmd

    async def run(self) -> None:
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
        if cmd.kind == "act" and cmd.client is not None:
            reply_error(cmd.client, E.NOT_YOUR_TURN, "no hand is being played at your table", cmd.msg.id)
        elif cmd.kind in ("sit_out", "im_back") and cmd.player_id is not None:
            await set_sitting_out(h, cmd.player_id, cmd.kind == "sit_out")
        elif cmd.kind == "void":
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
        deck = drawn.deck
        now = drawn.now  # the time it was found free to deal: the deal cannot be refused now
        carry_before = t.table(table_id).carry
        hand = t.begin_hand(table_id, now, deck=deck)
        table = t.table(table_id)
        seats = {s: [p.player_id, h.players[p.player_id].name] for s, p in table.seats.items()}
        records = drawn.records + h.journal.input(
            "begin_hand", {"now": now, "deck": deck, "carry": carry_before, "draw": drawn.payload()}, table_id)
        if h.store is not None:
            records.append(Record(
                sql="INSERT OR REPLACE INTO hands (hand_no, table_id, level, started_at, status, seats) "
                    "VALUES (?, ?, ?, ?, 'playing', ?)",
                params=(hand.hand_no, table_id, t.hand_level(table_id), wall_clock(), json.dumps(seats)),
            ))
            records += h.journal.hand_events(hand, hand.events)
        await h.journal.commit(records)
        hand_dealt(h, table_id, drawn, hand.hand_no)
        h.fair.events_stored(table_id, records)  # the hand's record, for the hash chain
        broadcast_hand_events(h, table_id, hand, hand.events)

    async def end_hand(self) -> None:
        h = self.house
        t = h.tournament
        hand = t.table(self.table_id).hand
        assert hand is not None and hand.result is not None
        now = h.now()
        events = t.end_hand(self.table_id, now)
        summary = {"stacks": hand.result.stacks, "carried_out": hand.result.carried_out}
        chain = h.fair.chain_hand(self.table_id, hand.events, json.loads(json.dumps(summary)),
                                  stored=h.store is not None)
        records = h.journal.input("end_hand", {"now": now} if chain is None else {"now": now, "chain": chain},
                                  self.table_id)
        if h.store is not None:
            records.append(Record(sql="UPDATE hands SET status='finished', summary=? WHERE hand_no=?",
                                  params=(json.dumps(summary), hand.hand_no)))
        records += h.journal.audit(events)
        await h.journal.commit(records)
        tournament_events(h, events)
        await self.bring_back()
        wake_tables(h)
        for w in h.watchers:
            w.hand_ended(self.table_id)

    async def play(self, hand: Hand) -> None:
        h = self.house
        table = h.tournament.table(self.table_id)
        while not hand.is_over and table.hand is hand:  # a voided hand leaves the table
            legal = hand.legal_actions()
            assert legal is not None
            seat = legal.seat
            player_id = h.tournament.table(self.table_id).seats[seat].player_id
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
                send_your_turn(h, self.table_id, hand, turn)
            acted = await self.wait_for_action(hand, turn, turn.started + turn.clock)
            if not acted and turn.bank > 0 and table.hand is hand:
                send_turn(h, self.table_id, hand, turn)  # the action clock ran out: the bank runs
                acted = await self.wait_for_action(hand, turn, turn.deadline())
            if not acted:
                # Clock and bank ran out: check if free, else fold; then sitting out.
                ps.bank = 0.0
                self.turn = None
                await self.apply(hand, seat, legal.timeout_action(), automatic=True)
                await set_sitting_out(h, player_id, True)

    async def wait_for_action(self, hand: Hand, turn: Turn, until: float) -> bool:
        """Handle commands until the player to act has acted (True) or ``until`` (False).
        Only the wait for a command has the deadline: an action that came in time is
        stored and sent whole, even if its commit ends after the deadline."""
        while True:
            with trio.move_on_at(until) as waited:
                cmd = await self.receive()
            if waited.cancelled_caught:
                return False
            if await self.handle_in_hand(hand, turn, cmd):
                return True

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
        if cmd.kind == "im_back" and cmd.player_id is not None:
            self.back_next_hand(cmd.player_id)
            return False
        if cmd.kind == "sit_out" and cmd.player_id is not None:
            self.returning.discard(cmd.player_id)
            await set_sitting_out(h, cmd.player_id, True)
            if cmd.player_id == turn.player_id:
                self.turn = None
                legal = hand.legal_actions()
                assert legal is not None
                await self.apply(hand, turn.seat, legal.timeout_action(), automatic=True)
                return True
            return False
        if cmd.kind == "void":
            await self.void(hand, cmd.msg)
            return True
        if cmd.kind != "act" or cmd.client is None:
            return False
        msg: m.Act = cmd.msg
        client = cmd.client
        taken_at = trio.current_time()
        if cmd.player_id is not None and msg.hand_no == hand.hand_no:
            # A sitting-out player is acted for without a turn, so trying to act is how
            # "they act" ends the sit-out: back from the next hand, as with im_back. (Not
            # an action for another hand: stale ones, a flood's, bring nobody back.)
            self.back_next_hand(cmd.player_id)
        if cmd.player_id != turn.player_id:
            reply_error(client, E.NOT_YOUR_TURN, f"not your turn: seat {turn.seat} is to act", msg.id)
            return False
        if msg.hand_no != hand.hand_no or (msg.table is not None and msg.table != self.table_id):
            wrong = "act.hand_no" if msg.hand_no != hand.hand_no else "act.table"
            reply_error(client, E.STALE_HAND,
                        f"that action is for hand #{msg.hand_no}; hand #{hand.hand_no} is being played", msg.id,
                        path=wrong)
            return False
        action = Action(kind=ActionKind(msg.action), amount=msg.amount)
        try:
            new = hand.act(turn.seat, action)
        except IllegalAction as exc:
            code = exc.code if exc.code != "hand_over" else E.STALE_HAND
            path = f"act.{exc.field}" if code == E.ILLEGAL_ACTION else None
            reply_error(client, code, exc.message, msg.id, path=path)
            return False
        used = trio.current_time() - turn.started
        ps = h.players[turn.player_id]
        if used > turn.clock:
            ps.bank = max(0.0, turn.bank - (used - turn.clock))
        self.turn = None
        await self.commit_and_broadcast(hand, turn.seat, action, False, new)
        if h.metrics is not None:
            h.metrics.action_broadcast(client.conn, client.read_at, taken_at)
        if ps.sitting_out:
            await set_sitting_out(h, turn.player_id, False)  # any action means "I'm back"
        if msg.id is not None:
            client.send_nowait(m.Ack(id=msg.id))
        return True

    async def void(self, hand: Hand, payload: dict[str, Any]) -> None:
        """The director calls the hand off: logged as the director's input at this point of
        the hand (replay voids it at the same point), then every seat gets the table anew."""
        h = self.house
        payload = {**payload, "now": h.now()}
        events = apply_director(h.tournament, payload)  # the path its replay takes
        records = h.journal.input("director", payload) + h.journal.audit(events)
        if h.store is not None:
            records.append(Record(sql="UPDATE hands SET status='voided' WHERE hand_no=?", params=(hand.hand_no,)))
        await h.journal.commit(records)
        self.turn = None
        tournament_events(h, events)
        await self.bring_back()
        wake_tables(h)

    async def apply(self, hand: Hand, seat: int, action: Action, *, automatic: bool) -> None:
        await self.commit_and_broadcast(hand, seat, action, automatic, hand.act(seat, action, automatic=automatic))

    async def commit_and_broadcast(
        self, hand: Hand, seat: int, action: Action, automatic: bool, new: list[ev.Event]
    ) -> None:
        """Store an applied action and its consequences, then broadcast them."""
        h = self.house
        player_id = h.tournament.table(self.table_id).seats[seat].player_id
        records = [
            *h.journal.input("act", {
                "seat": seat, "kind": action.kind.value, "amount": action.amount,
                "automatic": automatic, "now": h.now(), "bank": h.players[player_id].bank,
            }, self.table_id),
            *h.journal.hand_events(hand, new),
        ]
        await h.journal.commit(records)
        h.fair.events_stored(self.table_id, records)
        broadcast_hand_events(h, self.table_id, hand, new)


def start_tables(h: House) -> None:
    """A task for every table that has none (at the start, and after a restart)."""
    assert h.nursery is not None
    for table_id in h.tournament.table_ids():
        if table_id not in h.runners:
            runner = TableRunner(h, table_id)
            h.runners[table_id] = runner
            h.nursery.start_soon(_run_table, h, runner)


async def _run_table(h: House, runner: TableRunner) -> None:
    try:
        await runner.run()
    finally:
        h.runners.pop(runner.table_id, None)
