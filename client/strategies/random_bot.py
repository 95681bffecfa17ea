"""``random``: any legal action, for tests and for filling seats that should not think."""

from __future__ import annotations

from poker.actions import Action
from poker.policy import random_action

from .base import Situation, Strategy


class RandomBot(Strategy):
    """Draws from the legal actions with the engine's random policy (folds, calls, raises, all-ins)."""

    name = "random"

    def decide(self, situation: Situation) -> Action:
        return random_action(situation.legal, self.rng)
