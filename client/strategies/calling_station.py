"""``calling-station``: checks when it is free and calls every bet; never folds, never raises.

The classic loose-passive opponent: it pays off every value bet and never bluffs, so a bot
that bets its good hands and folds its bad ones beats it, and one that bluffs loses to it.
"""

from __future__ import annotations

from poker.actions import Action

from .base import Situation, Strategy


class CallingStation(Strategy):
    name = "calling-station"

    def decide(self, situation: Situation) -> Action:
        legal = situation.legal
        if legal.check:
            return Action.check()
        # Facing a bet there is always a call (all-in for less when the stack is short).
        assert legal.call is not None, f"no call and no check: {legal.describe()}"
        return Action.call()
