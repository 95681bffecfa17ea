"""One hand of No-Limit Texas Hold'em as a state machine.

Like h11 and pokerkit: the ``Hand`` holds state, ``legal_actions()`` is the query,
``act()`` verifies, mutates and returns frozen event records. It reads no clock and draws
no random numbers: the deck arrives already shuffled, so a hand is fully determined by its
inputs and its actions (which is what lets the server store and resume it exactly).

Seats are table seat numbers; "to the left" is the next higher seat number, wrapping.
Every rule here is cited from the rulebook or ``shared/rules/interpretation.md``; choices
that neither settles are in ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from .actions import Action, ActionKind, IllegalAction, LegalActions, Ruleset
from .cards import Card
from .evaluator import evaluate, strength7
from .events import (
    ActionTaken,
    AntePosted,
    BetsGathered,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    Street,
    UncalledBetReturned,
)
from .makers import maker
from .pots import Pot, build_pots, make_pot, split

_NEXT_STREET = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}
_BOARD_CARDS = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}
_CARD_VALUES = frozenset(range(52))
_ALL_IN = ActionKind.ALL_IN
_FOLD = ActionKind.FOLD
_NO_AMOUNT = frozenset((ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL))

# A hand's name is fixed by its strength (the category and the deciding ranks), so each is
# worked out once: a showdown then costs one fast strength per hand, not a full evaluate().
# At most 7,462 entries (the distinct five-card hand values).
_NAME_BY_STRENGTH: dict[int, str] = {}

# The records this module builds on every decision, positionally (poker/makers.py).
_legal_actions = maker(LegalActions)
_action_taken = maker(ActionTaken)
_blind_posted = maker(BlindPosted)
_hole_cards_dealt = maker(HoleCardsDealt)
_board_dealt = maker(BoardDealt)
_bets_gathered = maker(BetsGathered)
_hand_shown = maker(HandShown)
_pot_awarded = maker(PotAwarded)
_hand_started = maker(HandStarted)
_uncalled_bet_returned = maker(UncalledBetReturned)
_hand_ended = maker(HandEnded)


@attrs.define(kw_only=True)
class _Player:
    seat: int
    stack: int  # chips behind
    bet: int = 0  # chips in front this betting round
    committed: int = 0  # chips put in this hand (all rounds)
    folded: bool = False
    hole: tuple[Card, ...] = ()
    # The bet level as this player left it when they last acted this round (the bet they
    # called, checked or raised to), or None if they have not acted this round. Decides
    # whether a short all-in reopened the betting to them.
    faced: int | None = None
    shown: bool = False

    @property
    def all_in(self) -> bool:
        return self.stack == 0 and not self.folded

    @property
    def can_act(self) -> bool:
        return not self.folded and self.stack > 0


@attrs.frozen(kw_only=True, weakref_slot=False)
class HandResult:
    stacks: tuple[tuple[int, int], ...]
    carried_out: int
    showdown: bool
    starting_stacks: tuple[tuple[int, int], ...]


_player = maker(_Player)
_hand_result = maker(HandResult)


class Hand:
    """A hand from the blinds to the last pot awarded.

    ``seats`` are ``(seat, stack)`` for every player dealt in (stack > 0), any order.
    ``deck`` is the shuffled deck; it is consumed from the front: hole cards one at a time
    from the left of the button, then a burn before each of the flop, turn and river.
    ``ante`` is a big-blind ante (TDA RP-11, off when 0): the big blind posts it for the
    table before the blind; it is dead money in the main pot, not part of any bet.
    """

    def __init__(
        self,
        *,
        hand_no: int,
        seats: Sequence[tuple[int, int]],
        button: int,
        small_blind: int,
        big_blind: int,
        deck: Sequence[Card],
        carried_in: int = 0,
        ruleset: Ruleset = Ruleset.HICKORY,
        ante: int = 0,
    ) -> None:
        if len(seats) < 2:
            raise ValueError("a hand needs at least two players")
        ordered = sorted(seats)
        last = None
        for s, stack in ordered:
            if stack <= 0:
                raise ValueError("every player dealt in must have chips")
            if s == last:
                raise ValueError("two players in one seat")
            last = s
        if not 0 < small_blind <= big_blind:
            raise ValueError("blinds must satisfy 0 < small blind <= big blind")
        if ante < 0:
            raise ValueError("an ante is 0 (none) or more")
        self.hand_no = hand_no
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.ruleset = ruleset
        self.carried_in = carried_in
        self.ante = ante
        # The ante as posted (a short big blind may pay less): dead money in the main pot.
        self.dead = 0
        self._deck = list(deck)
        self._next_card = 0  # the deck is read from the front; this is where it is up to
        # (seat, stack, bet, committed, folded, hole, faced, shown)
        self._players = [_player(s, st, 0, 0, False, (), None, False) for s, st in ordered]
        self._live = len(self._players)  # players not folded
        self._by_seat = {p.seat: p for p in self._players}
        self._position = {p.seat: i for i, p in enumerate(self._players)}
        self._legal: LegalActions | None = None  # cached answer for the player to act
        # The two largest bet + stack among the live players (value, player, runner-up),
        # for _reach_of_others; None until asked. A bet moves chips from the stack, so
        # only a fold or a new betting round changes it (both reset it).
        self._reach: tuple[int, _Player | None, int] | None = None
        if button not in self._by_seat:
            raise ValueError(f"the button seat {button} has no player in this hand")
        self.button = button
        self.starting_stacks = tuple((p.seat, p.stack) for p in self._players)
        n = len(self._players)
        b = self._position[button]
        if n == 2:  # heads-up: the button posts the small blind (interpretation 2)
            self.small_blind_seat = button
            self.big_blind_seat = self._players[(b + 1) % n].seat
        else:
            self.small_blind_seat = self._players[(b + 1) % n].seat
            self.big_blind_seat = self._players[(b + 2) % n].seat
        self.street = Street.PREFLOP
        self.board: list[Card] = []
        self.current_bet = 0
        # The size of the last full bet or raise this round (standard ruleset's minimum).
        self._last_increment = big_blind
        self.to_act: int | None = None
        self.events: list[Event] = []
        self.result: HandResult | None = None
        self.pots_awarded: list[PotAwarded] = []
        self.carried_out = 0
        self._start()

    # -- queries ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self._players)

    def stack(self, seat: int) -> int:
        return self._by_seat[seat].stack

    def bet(self, seat: int) -> int:
        return self._by_seat[seat].bet

    def committed(self, seat: int) -> int:
        return self._by_seat[seat].committed

    def folded(self, seat: int) -> bool:
        return self._by_seat[seat].folded

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        return self._by_seat[seat].hole

    def shown(self, seat: int) -> bool:
        return self._by_seat[seat].shown

    def pots(self) -> list[Pot]:
        """The pots as they stand, bets in front included, carried chips in the main pot."""
        # The usual case, no one all-in for less: every live player has put in the same,
        # so there is one pot of everything and all live players are in it (what
        # build_pots gives for it, without sorting levels).
        level = -1
        for p in self._players:
            if not p.folded:
                if level < 0:
                    level = p.committed
                elif p.committed != level:
                    break
        else:
            if level > 0:
                return [
                    make_pot(
                        sum(p.committed for p in self._players) + self.carried_in + self.dead,
                        tuple(p.seat for p in self._players if not p.folded),
                    )
                ]
        live = {p.seat for p in self._players if not p.folded}
        return build_pots(
            {p.seat: p.committed for p in self._players}, live, self.carried_in, dead=self.dead
        )

    def total_chips(self) -> int:
        """Stacks + everything in the middle + carry: constant through a hand."""
        if self.result is not None:
            return sum(st for _, st in self.result.stacks) + self.result.carried_out
        total = self.carried_in + self.dead
        for p in self._players:  # a loop, not a generator: the tournament checks after every hand
            total += p.stack + p.committed
        return total

    def min_raise_increment(self) -> int:
        if self.ruleset is Ruleset.HICKORY:
            return self.big_blind
        last = self._last_increment
        return last if last > self.big_blind else self.big_blind

    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do; None when no one is to act."""
        if self.to_act is None:
            return None
        if self._legal is not None:
            return self._legal
        p = self._by_seat[self.to_act]
        current = self.current_bet
        stack = p.stack
        # Never more than the others can match: with a short all-in big blind and nobody
        # else able to cover the full blind, the rest would only come straight back.
        reach = self._reach_of_others(p)
        bet = p.bet
        to_call = (current if current < reach else reach) - bet
        call = (to_call if to_call < stack else stack) if to_call > 0 else None
        min_to: int | None = None
        max_to: int | None = None
        all_in_to = bet + stack
        # Raising needs someone else who could put in more than the current bet (nobody
        # left to bet against otherwise: all are all-in, or could only call all-in for
        # less; reach > current is _can_be_called), and a short all-in raise does not
        # reopen the betting to a player who has already acted and faces less than a full
        # raise since (interpretation 4).
        if all_in_to > current and reach > current and (
            p.faced is None or current - p.faced >= self.min_raise_increment()
        ):
            max_to = all_in_to
            full = self.big_blind if current == 0 else current + self.min_raise_increment()
            min_to = full if full < all_in_to else all_in_to
        # (field order: seat, fold, check, call, min_raise_to, max_raise_to, to_call,
        # current_bet, stack, bet)
        legal = self._legal = _legal_actions(
            p.seat, to_call > 0, to_call == 0, call, min_to, max_to,
            to_call if to_call > 0 else 0, current, stack, bet,
        )
        return legal

    def _reach_of_others(self, p: _Player) -> int:
        """The most any other live player has in front or could put in this round."""
        r = self._reach
        if r is None:
            top = second = 0
            who: _Player | None = None
            for q in self._players:
                if not q.folded:
                    reach = q.bet + q.stack
                    if reach > top:
                        top, second, who = reach, top, q
                    elif reach > second:
                        second = reach
            r = self._reach = (top, who, second)
        return r[2] if p is r[1] else r[0]

    def _can_be_called(self, p: _Player) -> bool:
        """Whether some other live player could put in more than the current bet."""
        level = self.current_bet
        for q in self._players:
            if q.stack + q.bet > level and q is not p and not q.folded:
                return True
        return False

    # -- operations ------------------------------------------------------------------

    def act(self, seat: int, action: Action, *, automatic: bool = False) -> list[Event]:
        """Apply one player's action and everything it sets off; return the new events."""
        if self.result is not None:
            raise IllegalAction(f"hand #{self.hand_no} is over", code="hand_over")
        if seat != self.to_act:
            raise IllegalAction(
                f"not your turn: seat {self.to_act} is to act", code="not_your_turn"
            )
        legal = self._legal if self._legal is not None else self.legal_actions()
        assert legal is not None
        p = self._by_seat[seat]
        kind = action.kind
        if kind is _ALL_IN:
            if legal.max_raise_to is not None:
                kind, target = (ActionKind.BET if legal.is_bet else ActionKind.RAISE), legal.max_raise_to
            elif legal.call is not None and legal.call == p.stack:
                kind, target = ActionKind.CALL, p.bet + legal.call  # calling is all-in
            elif legal.call is not None:
                raise IllegalAction(
                    f"you cannot go all-in: raising is closed to you; call {legal.call} or fold"
                )
            else:
                raise IllegalAction("nothing to go all-in for: you can only check")
        else:
            target = self._validate(legal, action)
            if kind is ActionKind.BET and not legal.is_bet:
                kind = ActionKind.RAISE  # the big blind's option: a raise of the blind
        events = self.events
        mark = len(events)
        self._legal = None
        put_in = target - p.bet
        stack = p.stack = p.stack - put_in
        p.bet = target
        p.committed += put_in
        current = self.current_bet
        if target > current:
            increment = target - current
            if increment >= self.min_raise_increment():
                self._last_increment = increment
            self.current_bet = current = target
        # Measured after a raise, so a raiser faces only what is added on top of it.
        p.faced = current
        folded = kind is _FOLD
        if folded:
            p.folded = True
            self._live -= 1
            self._reach = None
        events.append(
            # seat, street, action, amount, to, all_in, automatic
            _action_taken(seat, self.street, kind, put_in, target, stack == 0 and not folded, automatic)
        )
        self._advance(after=self._position[seat])
        return events[mark:]

    def _validate(self, legal: LegalActions, action: Action) -> int:
        """The bet total this action makes, or IllegalAction with what is allowed."""
        p = self._by_seat[legal.seat]
        kind = action.kind
        if action.amount is not None and kind in _NO_AMOUNT:
            raise IllegalAction(f"{kind} takes no amount", field="amount")
        if kind is ActionKind.FOLD:
            if not legal.fold:
                raise IllegalAction("folding is refused when you can check for free; check instead")
            return p.bet
        if kind is ActionKind.CHECK:
            if not legal.check:
                raise IllegalAction(f"cannot check facing a bet: call {legal.call}, raise or fold")
            return p.bet
        if kind is ActionKind.CALL:
            if legal.call is None:
                raise IllegalAction("nothing to call: check or bet")
            return p.bet + legal.call
        # BET or RAISE. A bet is what a player with nothing to call makes, so it is also
        # the big blind's raise when the action comes back unraised (legal.call is None
        # there too); the action is then recorded as the raise it is.
        word = "bet" if legal.is_bet else "raise to"
        if kind is ActionKind.BET and legal.call is not None:
            raise IllegalAction(f"there is a bet of {self.current_bet} to you: {legal.describe()}")
        if kind is ActionKind.RAISE and legal.is_bet:
            raise IllegalAction(f"there is no bet to raise: {legal.describe()}")
        to = action.amount
        if to is None or isinstance(to, bool) or not isinstance(to, int):
            raise IllegalAction(f"{kind} needs a whole-chip amount (the total to {word})", field="amount")
        if legal.min_raise_to is None or legal.max_raise_to is None:
            if p.bet + p.stack <= self.current_bet:
                raise IllegalAction(
                    f"you cannot raise: your {p.stack} chips do not cover the call; call all-in or fold"
                )
            if not self._can_be_called(p):
                raise IllegalAction(
                    "you cannot raise: no other player has chips to call a raise; call or fold"
                )
            raise IllegalAction(
                "you cannot raise: a short all-in did not reopen the betting to you; call or fold"
            )
        if to > legal.max_raise_to:
            raise IllegalAction(
                f"{word} {to} is more than you have: the most is {legal.max_raise_to} (all-in)",
                field="amount",
            )
        if to < legal.min_raise_to:
            if legal.is_bet:
                raise IllegalAction(
                    f"bet {to} is below the minimum bet of {legal.min_raise_to} (big blind {self.big_blind})",
                    field="amount",
                )
            raise IllegalAction(
                f"raise to {to} is below the minimum raise to {legal.min_raise_to} "
                f"(big blind {self.big_blind})"
                + ("" if legal.min_raise_to < legal.max_raise_to else "; all-in is the only raise"),
                field="amount",
            )
        return to  # (when all-in is the only raise, min == max: the checks above leave only it)

    def show(self, seat: int) -> list[Event]:
        """A winner without a showdown may choose to show (interpretation 5)."""
        if self.result is None:
            raise IllegalAction("cards can be shown only when the hand is over")
        p = self._by_seat[seat]
        if p.folded:
            raise IllegalAction("folded hands are never shown")
        if p.shown:
            return []
        p.shown = True
        ev = HandShown(seat=seat, cards=p.hole, hand_name=self._hand_name(p))
        self.events.append(ev)
        return [ev]

    # -- the machine -----------------------------------------------------------------

    def _start(self) -> None:
        self.events.append(
            _hand_started(
                self.hand_no, self.button, self.small_blind_seat, self.big_blind_seat,
                self.small_blind, self.big_blind, self.starting_stacks, self.carried_in, self.ante,
            )
        )
        if self.ante:
            # The ante first, then what is left of the blind (TDA RP-11).
            p = self._by_seat[self.big_blind_seat]
            posted = min(self.ante, p.stack)
            p.stack -= posted
            self.dead = posted
            self.events.append(AntePosted(seat=p.seat, amount=posted, all_in=p.stack == 0))
        for seat, blind, amount in (
            (self.small_blind_seat, "small", self.small_blind),
            (self.big_blind_seat, "big", self.big_blind),
        ):
            p = self._by_seat[seat]
            posted = min(amount, p.stack)  # a short blind is all-in (interpretation 2)
            p.stack -= posted
            p.bet = posted
            p.committed = posted
            self.events.append(_blind_posted(seat, blind, posted, p.stack == 0))
        # The bet to match is the full big blind even when the big blind is short (TDA).
        self.current_bet = self.big_blind
        n = len(self._players)
        b = self._position[self.button] + 1
        order = self._players[b:] + self._players[:b]
        # One card at a time from the left of the button: the first round takes deck[0:n],
        # the second deck[n:2n], so player i gets deck[i] and deck[n + i].
        deck = self._deck
        for i, p in enumerate(order):
            p.hole = (deck[i], deck[n + i])
            self.events.append(_hole_cards_dealt(p.seat, p.hole))
        self._next_card = 2 * n
        self._advance(after=self._position[self.big_blind_seat])

    def _advance(self, *, after: int) -> None:
        """Find the next player to act, or close the round and move the hand on."""
        if self._live == 1:
            self.to_act = None
            self._return_uncalled()
            self._settle(showdown=False)
            return
        # Each player from the left of ``after``: the first who still has to act (a bet
        # to match that someone could still match, or not yet acted this round while
        # someone else can act too). This runs after every action.
        players = self._players
        n = len(players)
        current = self.current_bet
        others_can_act: bool | None = None
        for step in range(1, n + 1):
            p = players[(after + step) % n]
            if p.folded or p.stack == 0:
                continue
            if p.bet < current:
                if p.bet < self._reach_of_others(p):  # else: nothing anyone can match
                    self.to_act = p.seat
                    return
                continue
            if p.faced is not None:
                continue
            if others_can_act is None:
                # p can act, so someone else can too when at least two can.
                others_can_act = sum(1 for q in players if not q.folded and q.stack > 0) >= 2
            if others_can_act:
                self.to_act = p.seat
                return
        self.to_act = None
        self._return_uncalled()
        self._next_street()

    def _return_uncalled(self) -> None:
        # The highest bet (first such player in seat order) and the next highest bet.
        top = second = -1
        p = self._players[0]
        for q in self._players:
            bet = q.bet
            if bet > top:
                top, second, p = bet, top, q
            elif bet > second:
                second = bet
        if second < 0:
            second = 0
        if top > second:
            back = top - second
            p.bet -= back
            p.committed -= back
            p.stack += back
            self.events.append(_uncalled_bet_returned(p.seat, back))

    def _next_street(self) -> None:
        self.events.append(_bets_gathered(
            tuple((pot.amount, pot.eligible) for pot in self.pots()), self.carried_in
        ))
        for p in self._players:
            p.bet = 0
            p.faced = None
        self._reach = None
        self.current_bet = 0
        self._last_increment = self.big_blind
        can_act = [p for p in self._players if not p.folded and p.stack > 0]
        if len(can_act) < 2 and self.street is not Street.RIVER:
            # All-in: the hands still in are shown before the rest of the board is dealt.
            self._show_all()
        while self.street is not Street.RIVER:
            self.street = _NEXT_STREET[self.street]
            start = self._next_card + 1  # burn one
            end = start + _BOARD_CARDS[self.street]
            new = tuple(self._deck[start:end])
            self._next_card = end
            self.board.extend(new)
            self.events.append(_board_dealt(self.street, new, tuple(self.board)))
            if len(can_act) >= 2:
                # Flop, turn, river: the first player still in left of the button acts first.
                self._advance(after=self._position[self.button])
                if self.to_act is not None or self.result is not None:
                    return
        self._settle(showdown=True)  # (which sets the street to SHOWDOWN)

    def _hand_name(self, p: _Player) -> str | None:
        if len(self.board) < 3:
            return None
        return evaluate(p.hole + tuple(self.board)).name

    def _showdown_values(self, live: list[_Player]) -> tuple[dict[int, int], dict[int, str]]:
        """Each live hand's strength and name, for the showdown."""
        board = tuple(self.board)
        strengths: dict[int, int] = {}
        names: dict[int, str] = {}
        cards = board + tuple(c for p in live for c in p.hole)
        if (
            len(board) == 5
            and len(set(cards)) == len(cards)
            and _CARD_VALUES.issuperset(cards)
            and all(type(c) is int for c in cards)
        ):
            for p in live:
                value = strength7(p.hole + board)
                strengths[p.seat] = value
                name = _NAME_BY_STRENGTH.get(value)
                if name is None:
                    name = _NAME_BY_STRENGTH[value] = evaluate(p.hole + board).name
                names[p.seat] = name
            return strengths, names
        # Cards that are not seven distinct cards each: evaluate() says what is wrong.
        for p in live:
            full = evaluate(p.hole + board)
            strengths[p.seat] = full.strength
            names[p.seat] = full.name
        return strengths, names

    def _show_all(self, names: dict[int, str] | None = None) -> None:
        """Show every hand still in, from the left of the button; ``names`` once the board
        is complete (None: shown before the rest of the board is dealt)."""
        n = len(self._players)
        start = self._position[self.button] + 1
        for i in range(n):
            p = self._players[(start + i) % n]
            if not p.folded and not p.shown:
                p.shown = True
                name = names[p.seat] if names is not None else None
                self.events.append(_hand_shown(p.seat, p.hole, name))

    def _settle(self, *, showdown: bool) -> None:
        self.street = Street.SHOWDOWN
        for p in self._players:
            p.bet = 0
        pots = self.pots()
        live = [p for p in self._players if not p.folded]
        strengths: dict[int, int] = {}
        names: dict[int, str] = {}
        if showdown:
            strengths, names = self._showdown_values(live)
            self._show_all(names)
        carried = 0
        for index, pot in enumerate(pots):
            if showdown and len(pot.eligible) > 1:
                best = max(strengths[s] for s in pot.eligible)
                winners = [s for s in pot.eligible if strengths[s] == best]
                hand_name: str | None = names[winners[0]]
            else:
                winners = list(pot.eligible)
                hand_name = names.get(winners[0]) if showdown else None
            share, remainder = split(pot.amount, len(winners))
            for s in winners:
                self._by_seat[s].stack += share
            carried += remainder
            # index, amount, eligible, winners, hand_name, remainder
            award = _pot_awarded(
                index, pot.amount, pot.eligible, tuple((s, share) for s in winners), hand_name, remainder
            )
            self.pots_awarded.append(award)
            self.events.append(award)
        for p in self._players:
            p.committed = 0
        self.carried_in = 0
        self.dead = 0
        self.carried_out = carried
        stacks = tuple((p.seat, p.stack) for p in self._players)
        self.result = _hand_result(stacks, carried, showdown, self.starting_stacks)
        self.events.append(_hand_ended(stacks, carried, showdown))
