"""The table moved forward by the server's messages: the snapshot, the hand's events, turns.

``TableUpdates`` rebuilds the table from every ``table_snapshot`` and then applies the
hand events to it, writing the hand log as it goes. Anything the events cannot tell (a
player who moved in from another table) is repaired by the next ``pots``, ``hand_ended``
or snapshot; a hand's end passes the new chip counts to the standings.
"""

from __future__ import annotations

import attrs

from client.model.lobby import LobbyUpdates
from client.model.log import chips, describe_action
from client.model.table import TableModel, TurnClock, Won, engine_cards
from client.model.turn import PendingTurn, legal_from_protocol
from client.strategies.base import SeenAction
from poker.actions import ActionKind
from poker.evaluator import evaluate
from poker.events import Street
from protocol import messages as m


class TableUpdates(LobbyUpdates):
    """The table part of ``ClientModel``."""

    def _snapshot(self, msg: m.TableSnapshot, now: float | None) -> None:
        old = self.table
        if old is not None and old.table != msg.table and self.me.role in ("spectator", "director"):
            # A watcher switched tables: the log is the new table's from here.
            self.log.clear()
        if old is not None and old.table != msg.table:
            self._say(f"-- table {msg.table}" + (f", hand #{msg.hand_no}" if msg.hand_no else ""))
        self.table = TableModel.from_snapshot(msg)
        if msg.to_act is not None and msg.deadline_ms is not None:
            self.table.clock = TurnClock(
                seat=msg.to_act, deadline_ms=msg.deadline_ms,
                time_bank_ms=msg.time_bank_ms or 0, received_at=now,
            )
        self.needs_resync = False
        self.resync_requested = False
        if self.me.role == "player":
            self.me.table = msg.table
            self.me.seat = msg.your_seat
        turn = self.turn
        if turn is not None and (msg.to_act != msg.your_seat or msg.hand_no != turn.hand_no):
            self.turn = None

    def _hand_started(self, msg: m.HandStarted, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        t.hand_no = msg.hand_no
        t.street = Street.PREFLOP
        t.button = msg.button
        t.small_blind, t.big_blind = msg.small_blind, msg.big_blind
        t.small_blind_seat, t.big_blind_seat = msg.small_blind_seat, msg.big_blind_seat
        t.board = ()
        t.pots = []
        t.carried = msg.carried_in
        # A big-blind ante is out of the big blind's stack already and in the pot (v3).
        t.ante = msg.ante or 0
        t.collected = msg.carried_in + t.ante
        t.to_act = None
        t.clock = None
        t.winners = {}
        t.your_cards = None
        t.actions = []
        stacks = {s.seat: s.stack for s in msg.stacks}
        t.dealt = tuple(sorted(stacks))
        for gone in [s.seat for s in t.seats.values() if s.last == "busted" and s.seat not in stacks]:
            del t.seats[gone]  # eliminated in the last hand, shown until now
        for seat in t.seats.values():
            seat.in_hand = seat.seat in stacks
            if seat.in_hand:
                seat.stack = stacks[seat.seat]
            seat.bet = seat.committed = 0
            seat.folded = not seat.in_hand
            seat.all_in = False
            seat.cards = None
            seat.shown = seat.last = None
            seat.showed = False
        if self.turn is not None and self.turn.hand_no != msg.hand_no:
            self.turn = None
        self._say(
            f"-- hand #{msg.hand_no} at table {msg.table}: blinds {chips(msg.small_blind)}/"
            f"{chips(msg.big_blind)}, {t.name_of(msg.button)} has the button"
        )
        if t.ante and msg.big_blind_seat is not None:
            tail = " and is all in" if stacks.get(msg.big_blind_seat) == 0 else ""
            self._say(f"{t.name_of(msg.big_blind_seat)} posts the ante {chips(t.ante)} for the table{tail}")

    def _blind_posted(self, msg: m.BlindPosted, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        s = t.seats.get(msg.seat)
        if s is not None:
            s.put_in(msg.amount, to=s.bet + msg.amount, all_in=msg.all_in)
            s.last = f"{msg.blind} blind"
        tail = " and is all in" if msg.all_in else ""
        self._say(f"{t.name_of(msg.seat)} posts the {msg.blind} blind {chips(msg.amount)}{tail}")

    def _hole_cards(self, msg: m.HoleCards, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        t.your_cards = msg.cards
        t.your_seat = msg.seat
        s = t.seats.get(msg.seat)
        if s is not None:
            s.cards = msg.cards
        self._say(f"you are dealt {' '.join(msg.cards)}")

    def _action(self, msg: m.Action, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        s = t.seats.get(msg.seat)
        if s is not None:
            s.put_in(msg.amount, to=msg.to, all_in=msg.all_in)
            if msg.action == "fold":
                s.folded = True
            s.last = msg.action.replace("_", " ")
        street = t.street if t.street is not None else Street.PREFLOP
        t.actions.append(
            SeenAction(
                seat=msg.seat, street=street, kind=ActionKind(msg.action),
                amount=msg.amount, to=msg.to, all_in=msg.all_in,
            )
        )
        t.to_act = None
        t.clock = None
        if msg.seat == t.your_seat:
            self.turn = None
        self._say(describe_action(t.name_of(msg.seat), msg))

    def _board(self, msg: m.Board, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        self._collect(t)
        t.board = msg.board
        t.street = Street(msg.street)
        self._say(f"board: {' '.join(msg.board)}")

    def _collect(self, t: TableModel) -> None:
        """A betting round is over: the bets go into the pots, and the part of the biggest
        bet that nobody matched goes back to its owner (the engine's rule; the protocol has
        no message for it, so the model applies it itself, the moment the round ends)."""
        betting = sorted((s for s in t.seats.values() if s.bet > 0), key=lambda s: -s.bet)
        if betting:
            top = betting[0]
            back = top.bet - (betting[1].bet if len(betting) > 1 else 0)
            if back > 0:
                top.bet -= back
                top.stack += back
                top.committed -= back
                top.all_in = False
            t.collected += sum(s.bet for s in betting)
        for s in t.seats.values():
            s.bet = 0
            if s.last != "fold" and not s.all_in:
                s.last = None

    def _pots(self, msg: m.Pots, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        self._collect(t)
        # The chip count is the model's own (collected); the message gives the split into
        # side pots. One that does not add up to the same (the server sent the state of a
        # later moment) is not used for the split either.
        if sum(p.amount for p in msg.pots) == t.collected:
            t.pots = list(msg.pots)
        t.carried = msg.carried

    def _showdown(self, msg: m.Showdown, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        self._collect(t)
        s = t.seats.get(msg.seat)
        if s is not None:
            s.cards = msg.cards
            s.showed = True
            s.shown = msg.hand_name or None
        shown = msg.hand_detail or msg.hand_name
        name = f" ({shown})" if shown else ""
        self._say(f"{t.name_of(msg.seat)} shows {' '.join(msg.cards)}{name}")

    def _tv_cards(self, msg: m.TvCards, now: float | None) -> None:
        """The TV table's hole cards of a hand that is over (issue 27; spectators only):
        shown on the seats while that hand is still on the table, and in the log."""
        t = self._table_for(msg.table)
        if t is None:
            return
        for dealt in msg.hands:
            s = t.seats.get(dealt.seat)
            if s is not None and t.hand_no == msg.hand_no and s.cards is None:
                s.cards = dealt.cards
            self._say(f"TV: {t.name_of(dealt.seat)} had {' '.join(dealt.cards)} (hand #{msg.hand_no})")

    def _pot_awarded(self, msg: m.PotAwarded, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        self._collect(t)
        if 0 <= msg.pot < len(t.pots):
            t.pots[msg.pot] = attrs.evolve(t.pots[msg.pot], amount=0)
        t.collected = max(0, t.collected - msg.amount)
        which = "" if msg.pot == 0 else f" from side pot {msg.pot}"
        for w in msg.winners:
            s = t.seats.get(w.seat)
            if s is not None:
                s.stack += w.amount
            shown = msg.hand_detail
            if shown is None and s is not None and s.showed and s.cards and len(t.board) == 5:
                # The kickers, from the cards shown (a version 1 server names no kickers;
                # a hand shown all in before the board was out is named now).
                shown = s.shown = evaluate(engine_cards(s.cards + t.board)).detail
            shown = shown or msg.hand_name or (s.shown if s is not None else None)
            how = f" with {shown}" if shown else ""
            before = t.winners.get(w.seat)
            t.winners[w.seat] = Won(
                amount=w.amount + (before.amount if before else 0),
                hand=shown or (before.hand if before else None),
            )
            self._say(f"{t.name_of(w.seat)} wins {chips(w.amount)}{which}{how}")
        if msg.remainder_carried:
            odd = "odd chip" if msg.remainder_carried == 1 else "odd chips"
            self._say(f"{msg.remainder_carried} {odd} carried to the next hand")

    def _hand_ended(self, msg: m.HandEnded, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        for st in msg.stacks:
            s = t.seats.get(st.seat)
            if s is not None:
                s.stack = st.stack
        for s in t.seats.values():
            s.bet = 0
            s.all_in = False
            s.last = None
        t.street = None
        t.to_act = None
        t.clock = None
        t.pots = []
        t.carried = msg.carried_out
        t.collected = 0
        if self.turn is not None and self.turn.hand_no == msg.hand_no:
            self.turn = None
        self._update_chips({s.player_id: s.stack for s in t.seats.values()})

    def _your_turn(self, msg: m.YourTurn, now: float | None) -> None:
        t = self._table_for(msg.table)
        stack = bet = None
        if t is not None:
            t.to_act = msg.seat
            t.your_seat = msg.seat
            s = t.seats.get(msg.seat)
            if s is not None:
                stack, bet = s.stack, s.bet
        legal = legal_from_protocol(
            msg.legal, seat=msg.seat, stack=stack, bet=bet,
            current_bet=t.current_bet if t is not None else None,
        )
        self.turn = PendingTurn(msg=msg, legal=legal, received_at=now)
        if t is not None:
            t.clock = TurnClock(
                seat=msg.seat, deadline_ms=msg.deadline_ms, time_bank_ms=msg.time_bank_ms,
                received_at=now,
            )

    def _turn(self, msg: m.Turn, now: float | None) -> None:
        self.turn_messages = True
        t = self._table_for(msg.table)
        if t is None:
            return
        t.to_act = msg.seat
        t.clock = TurnClock(
            seat=msg.seat, deadline_ms=msg.deadline_ms, time_bank_ms=msg.time_bank_ms,
            received_at=now,
        )

    def _bet_returned(self, msg: m.BetReturned, now: float | None) -> None:
        t = self._table_for(msg.table)
        if t is None:
            return
        s = t.seats.get(msg.seat)
        if s is not None:
            from_bet = min(msg.amount, s.bet)
            s.bet -= from_bet
            s.committed -= msg.amount
            s.stack += msg.amount
            s.all_in = False
            t.collected = max(0, t.collected - (msg.amount - from_bet))
        self._say(f"{chips(msg.amount)} returned to {t.name_of(msg.seat)} (uncalled)")

    def _table_broken(self, msg: m.TableBroken, now: float | None) -> None:
        others = ", ".join(str(x) for x in msg.tables) or "none"
        self._say(f"table {msg.table} is broken up; tables in play: {others}")
        if self.table is not None and self.table.table == msg.table:
            self.table = None
