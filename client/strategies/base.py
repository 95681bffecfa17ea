"""What a bot knows when it is its turn, and what a bot is.

A ``Situation`` holds everything a player may know from its seat: its own cards, the
board, the chips, the positions, the actions seen so far, and ``legal`` (the engine's
``LegalActions``, the one source of truth for what may be done). Strategies are pure:
``decide(situation) -> Action``, no I/O, no clock unless one is injected, and randomness
only from the ``random.Random`` they were built with. That is what lets the same bot play
in-process (``situation_from_view`` on an engine view) and over the network (the client
library builds the same ``Situation`` from protocol messages).
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Iterable
from typing import ClassVar

import attrs

from poker.actions import Action, ActionKind, LegalActions
from poker.cards import Card
from poker.events import ActionTaken, Event, Street
from poker.views import HandView

__all__ = [
    "Clock",
    "Opponent",
    "SeenAction",
    "Situation",
    "Strategy",
    "bet_or_raise",
    "opponent",
    "situation_from_view",
]

Clock = Callable[[], float]
_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE)
_VOLUNTARY = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)


@attrs.frozen(kw_only=True)
class SeenAction:
    """One action taken this hand, as every seat saw it. ``to`` is the bet this round after it."""

    seat: int
    street: Street
    kind: ActionKind
    amount: int
    to: int
    all_in: bool


@attrs.frozen(kw_only=True)
class Opponent:
    """A player still in the hand (not folded), other than me.

    ``preflop_raises``/``postflop_raises`` count bets and raises (an all-in that raised
    counts); ``voluntary`` is whether they put chips in before the flop by choice (a call or
    raise, not a blind); ``acted`` whether they have acted on this street.
    """

    seat: int
    stack: int  # chips behind
    bet: int  # chips in front this street
    committed: int  # chips put in this hand
    all_in: bool
    preflop_raises: int = 0
    postflop_raises: int = 0
    voluntary: bool = False
    acted: bool = False


@attrs.frozen(kw_only=True)
class Situation:
    """The decision in front of one seat. Amounts are chips; bets are "raise to" totals."""

    hand_no: int
    seat: int
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    street: Street
    pot: int  # every pot plus all bets in front (mine included) plus carried chips
    stack: int  # my chips behind
    bet: int  # my chips in front this street
    current_bet: int  # the bet to match this street
    small_blind: int
    big_blind: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    seats: tuple[int, ...]  # everyone dealt in, in post-flop order: left of the button first
    opponents: tuple[Opponent, ...]  # still in the hand, in post-flop order
    actions: tuple[SeenAction, ...]  # this hand so far, oldest first; empty if unknown
    legal: LegalActions

    @property
    def to_call(self) -> int:
        return self.legal.to_call

    @property
    def opponent_count(self) -> int:
        return len(self.opponents)

    @property
    def opponent_stacks(self) -> tuple[int, ...]:
        return tuple(o.stack for o in self.opponents)

    @property
    def effective_stack(self) -> int:
        """The most I can win or lose from here: my chips against the deepest opponent's."""
        deepest = max((o.stack + o.bet for o in self.opponents), default=0)
        return min(self.stack + self.bet, deepest)

    @property
    def effective_stack_bb(self) -> float:
        return self.effective_stack / self.big_blind

    @property
    def pot_odds(self) -> float:
        """The share of the final pot a call costs: the equity a call needs to break even."""
        call = self.legal.call or 0
        return call / (self.pot + call) if call else 0.0

    @property
    def acting_order(self) -> tuple[int, ...]:
        """The seats dealt in, in this street's order (before the flop: left of the big blind first)."""
        if self.street is not Street.PREFLOP:
            return self.seats
        i = self.seats.index(self.big_blind_seat) + 1
        return self.seats[i:] + self.seats[:i]

    @property
    def players_behind(self) -> int:
        """Opponents who still can act after me on this street (not all-in)."""
        order = self.acting_order
        mine = order.index(self.seat)
        later = set(order[mine + 1 :])
        return sum(1 for o in self.opponents if o.seat in later and not o.all_in)

    @property
    def in_position(self) -> bool:
        """No opponent still able to bet acts after me after the flop."""
        mine = self.seats.index(self.seat)
        return not any(
            self.seats.index(o.seat) > mine and not o.all_in for o in self.opponents
        )

    @property
    def preflop_raises(self) -> int:
        """Bets and raises before the flop, the big blind not counted."""
        if self.actions:
            return sum(
                1 for a in self.actions if a.street is Street.PREFLOP and a.kind in _AGGRESSIVE
            )
        # Without the history, a bet above the big blind means at least one raise.
        if self.street is Street.PREFLOP:
            return int(self.current_bet > self.big_blind)
        return 0

    @property
    def acted_this_street(self) -> tuple[int, ...]:
        """Seats that have acted on this street, in order of their first action."""
        seen: list[int] = []
        for a in self.actions:
            if a.street is self.street and a.seat not in seen:
                seen.append(a.seat)
        return tuple(seen)

    @property
    def i_raised_preflop(self) -> bool:
        """Whether I made the last bet or raise before the flop (the preflop aggressor)."""
        last = [a for a in self.actions if a.street is Street.PREFLOP and a.kind in _AGGRESSIVE]
        return bool(last) and last[-1].seat == self.seat


class Strategy(abc.ABC):
    """A bot's brain: one decision at a time, within ``time_budget`` seconds.

    ``rng`` is the only source of randomness. ``clock`` (seconds, monotonic) is only for
    the safety cap on thinking time; strategies must work, deterministically, without one.
    """

    name: ClassVar[str]

    def __init__(
        self, rng: random.Random, *, time_budget: float = 1.0, clock: Clock | None = None
    ) -> None:
        if time_budget <= 0:
            raise ValueError(f"time budget must be positive, got {time_budget}")
        self.rng = rng
        self.time_budget = time_budget
        self.clock = clock

    @abc.abstractmethod
    def decide(self, situation: Situation) -> Action:
        """A legal action for ``situation.legal``."""


def bet_or_raise(legal: LegalActions, to: int) -> Action:
    """A bet or raise to ``to``, clamped into the legal range; a call or check if none is allowed."""
    if legal.min_raise_to is None or legal.max_raise_to is None:
        return Action.call() if legal.call is not None else Action.check()
    to = max(legal.min_raise_to, min(legal.max_raise_to, to))
    return Action.bet(to) if legal.is_bet else Action.raise_to(to)


def _seen_actions(history: Iterable[Event]) -> tuple[SeenAction, ...]:
    return tuple(
        SeenAction(seat=e.seat, street=e.street, kind=e.action, amount=e.amount, to=e.to, all_in=e.all_in)
        for e in history
        if isinstance(e, ActionTaken)
    )


def opponent(
    seat: int,
    *,
    stack: int,
    bet: int,
    committed: int,
    all_in: bool,
    actions: tuple[SeenAction, ...],
    street: Street,
    current_bet: int,
    big_blind: int,
) -> Opponent:
    """The ``Opponent`` record for ``seat``, its raises and whether it acted read from ``actions``.

    With no actions seen this hand (joined mid-hand), who raised is guessed from the bets in
    front: the player whose bet is the one to match made the last raise.
    """
    if actions:
        mine = [a for a in actions if a.seat == seat]
        pre = sum(1 for a in mine if a.street is Street.PREFLOP and a.kind in _AGGRESSIVE)
        post = sum(1 for a in mine if a.street is not Street.PREFLOP and a.kind in _AGGRESSIVE)
        voluntary = any(a.street is Street.PREFLOP and a.kind in _VOLUNTARY for a in mine)
        acted = any(a.street is street for a in mine)
    else:
        raised = bet == current_bet and (bet > big_blind if street is Street.PREFLOP else bet > 0)
        pre = int(raised and street is Street.PREFLOP)
        post = int(raised and street is not Street.PREFLOP)
        voluntary = pre > 0 or street is not Street.PREFLOP
        acted = raised
    return Opponent(
        seat=seat, stack=stack, bet=bet, committed=committed, all_in=all_in,
        preflop_raises=pre, postflop_raises=post, voluntary=voluntary, acted=acted,
    )


def situation_from_view(view: HandView, history: Iterable[Event] = ()) -> Situation:
    """The ``Situation`` for the viewer of ``view``, who must be the player to act.

    ``history`` is the hand's events as the viewer saw them (only the ``ActionTaken``
    ones are read); without it, who raised is guessed from the bets in front.
    """
    if view.viewer is None or view.legal is None:
        raise ValueError("a situation is for the player to act: the view has no legal actions")
    me = view.seat(view.viewer)
    if me.cards is None:
        raise ValueError(f"seat {view.viewer} sees no hole cards of its own")
    actions = _seen_actions(history)
    dealt = sorted(s.seat for s in view.seats)
    i = dealt.index(view.button) + 1
    order = tuple(dealt[i:] + dealt[:i])
    current_bet = view.legal.current_bet
    opponents = []
    for seat in order:
        s = view.seat(seat)
        if seat == view.viewer or s.folded:
            continue
        opponents.append(
            opponent(
                seat, stack=s.stack, bet=s.bet, committed=s.committed, all_in=s.all_in,
                actions=actions, street=view.street, current_bet=current_bet,
                big_blind=view.big_blind,
            )
        )
    return Situation(
        hand_no=view.hand_no,
        seat=view.viewer,
        hole=me.cards,
        board=view.board,
        street=view.street,
        pot=sum(p.amount for p in view.pots),
        stack=me.stack,
        bet=me.bet,
        current_bet=current_bet,
        small_blind=view.small_blind,
        big_blind=view.big_blind,
        button=view.button,
        small_blind_seat=view.small_blind_seat,
        big_blind_seat=view.big_blind_seat,
        seats=order,
        opponents=tuple(opponents),
        actions=actions,
        legal=view.legal,
    )
