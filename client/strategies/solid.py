"""``solid``: a tight-aggressive player that bets its equity and folds by pot odds.

Before the flop it opens a range that widens with position (fewer players left to act),
raises 2.5-3 big blinds (plus one per limper), and with 12 big blinds or less plays
push-or-fold. Facing a raise, or at any point after the flop, it estimates its equity by
Monte Carlo against the hands the opponents likely hold (``equity.Range``: raisers hold
stronger hands, post-flop bettors hit the board) and then:

- with no bet to face, bets about two thirds of the pot when it is ahead of the field,
  and sometimes continuation-bets half the pot heads-up on the flop as the preflop raiser;
- facing a bet, raises when well ahead, calls when its equity beats the pot odds (with a
  margin on earlier streets, where more betting is to come), and folds otherwise.

Any bet that would leave less than about half the pot behind becomes an all-in, so short
stacks commit rather than dribble. Thinking is bounded by an iteration count (the default,
deterministic) and, when a clock is given, by half the time budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from poker.actions import Action
from poker.events import Street

from .base import Clock, Opponent, Situation, Strategy, bet_or_raise
from .equity import Range, estimate_equity, preflop_percentile

# The share of starting hands opened with, by the number of players still to act behind.
_OPEN_RANGE = {0: 0.12, 1: 0.40, 2: 0.38, 3: 0.27, 4: 0.20, 5: 0.16}
_OPEN_RANGE_EARLY = 0.12
_HEADS_UP_BUTTON = 0.60
_SHORT_BB = 12  # at or below this many big blinds: push or fold
# Equity against the field needed to bet for value (no bet to face) and to raise (facing
# one), by number of opponents; multi-way pots need less since the fair share is smaller.
_VALUE = {1: 0.60, 2: 0.46}
_VALUE_MANY = 0.38
_RAISE = {1: 0.74, 2: 0.60}
_RAISE_MANY = 0.50
_PREFLOP_RAISE = {1: 0.58, 2: 0.45}
_PREFLOP_RAISE_MANY = 0.36
# Extra equity a call needs on top of the pot odds: more streets to come, more to lose.
_CALL_MARGIN = {Street.PREFLOP: 0.04, Street.FLOP: 0.05, Street.TURN: 0.03, Street.RIVER: 0.0}
_CBET_FREQUENCY = 0.5


def likely_range(o: Opponent, s: Situation) -> Range:
    """What ``o`` likely holds, from what they did this hand."""
    if o.preflop_raises >= 3:
        top = 0.04
    elif o.preflop_raises == 2:
        top = 0.08
    elif o.preflop_raises == 1:
        top = 0.22
    elif o.voluntary:
        top = 0.40 if s.preflop_raises else 0.60  # called a raise / limped
    else:
        top = 1.0  # a blind that checked, or has not acted yet
    return Range(top=top, aggression=o.postflop_raises)


def _by_count(table: dict[int, float], many: float, n: int) -> float:
    return table.get(n, many)


class Solid(Strategy):
    name = "solid"

    def __init__(
        self,
        rng: random.Random,
        *,
        time_budget: float = 1.0,
        clock: Clock | None = None,
        iterations: int = 400,
    ) -> None:
        super().__init__(rng, time_budget=time_budget, clock=clock)
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        self.iterations = iterations

    def decide(self, situation: Situation) -> Action:
        if situation.street is Street.PREFLOP:
            return self._preflop(situation)
        return self._postflop(situation)

    # -- thinking -------------------------------------------------------------------------

    def _out_of_time(self) -> Callable[[], bool] | None:
        clock = self.clock
        if clock is None:
            return None
        deadline = clock() + self.time_budget / 2
        return lambda: clock() > deadline

    def equity(self, s: Situation, opponents: tuple[Opponent, ...]) -> float:
        ranges = [likely_range(o, s) for o in opponents]
        return estimate_equity(
            s.hole, s.board, ranges, iterations=self.iterations, rng=self.rng,
            out_of_time=self._out_of_time(),
        )

    # -- before the flop ----------------------------------------------------------------

    def _preflop(self, s: Situation) -> Action:
        legal = s.legal
        if s.preflop_raises == 0:
            return self._unopened(s)
        # Facing a raise: weigh the players who have put chips in by choice.
        involved = tuple(o for o in s.opponents if o.voluntary or o.preflop_raises)
        eq = self.equity(s, involved or s.opponents)
        n = len(involved) or 1
        committing = (legal.call or 0) >= 0.4 * (s.stack + s.bet) or s.effective_stack_bb <= _SHORT_BB
        if eq >= _by_count(_PREFLOP_RAISE, _PREFLOP_RAISE_MANY, n) and legal.max_raise_to is not None:
            if committing or s.preflop_raises >= 3:
                return legal.all_in_action()
            callers = sum(o.bet for o in involved if o.bet < s.current_bet)
            multiple = 3.0 if s.in_position else 3.5
            return self._sized(s, round(s.current_bet * multiple) + callers)
        margin = 0.0 if committing or self._all_in_pot(s) else _CALL_MARGIN[Street.PREFLOP]
        if legal.call is not None and eq >= s.pot_odds + margin:
            return Action.call()
        return self._give_up(s)

    def _unopened(self, s: Situation) -> Action:
        legal = s.legal
        bb = s.big_blind
        p = preflop_percentile(s.hole[0], s.hole[1])
        behind = s.players_behind
        limpers = sum(1 for o in s.opponents if o.voluntary)
        if len(s.seats) == 2 and behind == 1:
            wanted = _HEADS_UP_BUTTON
        else:
            wanted = _OPEN_RANGE.get(behind, _OPEN_RANGE_EARLY)
        if limpers:
            wanted *= 0.6
        if s.effective_stack_bb <= _SHORT_BB:
            push = min(0.85, wanted * (1.2 + (_SHORT_BB - s.effective_stack_bb) / 8))
            if p <= push and legal.max_raise_to is not None:
                return legal.all_in_action()
            return self._give_up(s)
        if p <= wanted and legal.max_raise_to is not None:
            late = behind <= 3 and s.seat != s.small_blind_seat
            multiple = 2.5 if late or len(s.seats) == 2 else 3.0
            return self._sized(s, round(bb * multiple) + limpers * bb)
        return self._give_up(s)

    # -- after the flop -----------------------------------------------------------------

    def _postflop(self, s: Situation) -> Action:
        legal = s.legal
        n = s.opponent_count
        eq = self.equity(s, s.opponents)
        can_raise = legal.max_raise_to is not None
        if legal.check:
            if can_raise and eq >= _by_count(_VALUE, _VALUE_MANY, n):
                fraction = 0.75 if eq >= 0.8 else 0.66
                return self._sized(s, s.bet + round(fraction * s.pot))
            if (
                can_raise and s.street is Street.FLOP and n == 1 and s.i_raised_preflop
                and eq >= 0.35 and self.rng.random() < _CBET_FREQUENCY
            ):
                return self._sized(s, s.bet + round(0.5 * s.pot))
            return Action.check()
        call = legal.call or 0
        if can_raise and eq >= _by_count(_RAISE, _RAISE_MANY, n):
            # Raise by three quarters of the pot after calling.
            return self._sized(s, s.current_bet + round(0.75 * (s.pot + call)))
        margin = 0.0 if self._all_in_pot(s) else _CALL_MARGIN[s.street]
        if eq >= s.pot_odds + margin:
            return Action.call()
        return Action.fold()

    # -- sizing -----------------------------------------------------------------------------

    def _sized(self, s: Situation, to: int) -> Action:
        """Bet or raise to ``to``, or all-in when that would leave too little behind to matter."""
        legal = s.legal
        if legal.max_raise_to is None:
            return Action.call() if legal.call is not None else Action.check()
        # Never bet more than the deepest opponent can match.
        cover = max((o.stack + o.bet for o in s.opponents if not o.all_in), default=0)
        to = min(to, max(cover, legal.min_raise_to or to))
        put_in = to - s.bet
        behind = s.stack - put_in
        pot_if_called = s.pot + put_in + max(0, to - s.current_bet)
        if behind < 0.5 * pot_if_called:
            return legal.all_in_action()
        return bet_or_raise(legal, to)

    @staticmethod
    def _all_in_pot(s: Situation) -> bool:
        """No more betting after a call: I would be all-in or nobody else can bet."""
        legal = s.legal
        return (legal.call or 0) >= legal.stack or all(o.all_in for o in s.opponents)

    @staticmethod
    def _give_up(s: Situation) -> Action:
        return Action.check() if s.legal.check else Action.fold()
