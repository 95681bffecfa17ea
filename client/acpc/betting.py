"""ACPC's no-limit betting rules, as protocol.md (version 2.0.0) states them.

The bridge keeps one ``Betting`` per hand beside the Hickory hand: it is the game the
ACPC bot believes it is playing, so every betting string the bridge sends is one the
bot's own parser accepts. The rules, from the specification:

- Calling is always valid; folding only when the player would have to add chips to call.
- A raise is to a total for the whole hand; it is valid if it adds at least one chip, the
  player's stack covers it, and either it puts the player all in or it reaches the
  round's minimum raise-to. That minimum starts at the bet plus the big blind; after each
  raise to T over a bet B it becomes T + (T - B) if that is more. This is the ACPC
  dealer's own rule (its ``minNoLimitRaiseTo``); the specification's words ("by at least
  every other raise") say more than it does after a short all-in raise: B=400 raised all
  in to 650 leaves the minimum at 900, not 950.
- An active player has neither folded nor gone all in. The next player to act is the next
  active one around the table; the first of each round is set by the game definition.
- A round ends when every active player has called since the last raise (the raiser
  counts). The hand ends when one player is left, or when a round ends with fewer than
  two active players (then the remaining board is dealt to a showdown: the betting string
  shows the rounds that had no betting as empty), or after the last round.

Raising also needs another active player to call it (ACPC's dealer refuses a bet from
the last active player; Hickory does too).
"""

from __future__ import annotations

from typing import Literal

import attrs

from client.acpc.gamedef import ROUNDS, GameDef

__all__ = ["AcpcAction", "Betting"]


@attrs.frozen
class AcpcAction:
    """``f``, ``c`` or ``r<size>``; ``size`` is the raise-to total for the whole hand."""

    kind: Literal["f", "c", "r"]
    size: int | None = None

    def __attrs_post_init__(self) -> None:
        if self.kind not in ("f", "c", "r") or (self.kind == "r") != (self.size is not None):
            raise ValueError(f"not an ACPC action: {self.kind!r} {self.size!r}")

    def text(self) -> str:
        return f"r{self.size}" if self.kind == "r" else self.kind

    @classmethod
    def parse(cls, text: str) -> AcpcAction | None:
        """``f``, ``c`` or ``r<digits>``; None for anything else."""
        if text in ("f", "c"):
            return cls(text)  # type: ignore[arg-type]
        if len(text) > 1 and text[0] == "r" and text[1:].isascii() and text[1:].isdigit():
            return cls("r", int(text[1:]))
        return None


FOLD = AcpcAction("f")
CALL = AcpcAction("c")


class Betting:
    """The betting of one ACPC hand, action by action. See the module docstring."""

    def __init__(self, game: GameDef) -> None:
        self.game = game
        n = game.players
        self.spent = list(game.blinds)
        self.folded = [False] * n
        self.max_spent = max(game.blinds)
        self.min_raise_to = self.max_spent + game.big_blind  # the ACPC dealer's minNoLimitRaiseTo
        self.round = 0
        self.actions: list[list[tuple[int, AcpcAction]]] = [[]]
        self.finished = False
        self.showdown = False
        if self.acting_count() == 0:
            # Every player is all in from the blinds: nobody bets; straight to a showdown.
            self._finish(showdown=True)

    def copy(self) -> Betting:
        """An independent copy (to try an action without taking it)."""
        other = Betting.__new__(Betting)
        other.__dict__.update(self.__dict__)
        other.spent = list(self.spent)
        other.folded = list(self.folded)
        other.actions = [list(r) for r in self.actions]
        return other

    # -- queries -------------------------------------------------------------------------

    def active(self, p: int) -> bool:
        return not self.folded[p] and self.spent[p] < self.game.stacks[p]

    def acting_count(self) -> int:
        return sum(1 for p in range(self.game.players) if self.active(p))

    def to_act(self) -> int | None:
        """The position to act, or None when the hand is over."""
        if self.finished:
            return None
        n = self.game.players
        done = self.actions[self.round]
        start = done[-1][0] + 1 if done else self.game.first_player[self.round]
        for step in range(n):
            p = (start + step) % n
            if self.active(p):
                return p
        return None

    def can_fold(self, p: int) -> bool:
        return self.spent[p] < self.max_spent

    def raise_range(self, p: int) -> tuple[int, int] | None:
        """The smallest and largest raise-to totals for ``p``, or None if p may not raise."""
        stack = self.game.stacks[p]
        if stack <= self.max_spent or self.acting_count() < 2:
            return None
        lo = self.min_raise_to
        return (lo if lo < stack else stack), stack

    def is_valid(self, action: AcpcAction) -> bool:
        """Whether the player to act may take ``action`` now."""
        p = self.to_act()
        if p is None:
            return False
        if action.kind == "c":
            return True
        if action.kind == "f":
            return self.can_fold(p)
        rng = self.raise_range(p)
        return rng is not None and action.size is not None and rng[0] <= action.size <= rng[1]

    def string(self) -> str:
        """The betting string: each round's actions, rounds separated by ``/``."""
        return "/".join("".join(a.text() for _, a in r) for r in self.actions)

    # -- playing -------------------------------------------------------------------------

    def apply(self, action: AcpcAction) -> int:
        """The player to act takes ``action`` (ValueError if invalid); returns the position."""
        p = self.to_act()
        if p is None or not self.is_valid(action):
            raise ValueError(f"{action.text()} is not valid after {self.string()!r}")
        if action.kind == "f":
            self.folded[p] = True
        elif action.kind == "c":
            self.spent[p] = min(self.max_spent, self.game.stacks[p])
        else:
            assert action.size is not None
            self.min_raise_to = max(self.min_raise_to, 2 * action.size - self.max_spent)
            self.max_spent = self.spent[p] = action.size
        self.actions[self.round].append((p, action))
        self._after_action()
        return p

    def _called(self) -> int:
        """Active players who called since the last raise of this round, the raiser included."""
        count = 0
        for p, a in reversed(self.actions[self.round]):
            if a.kind == "f":
                continue
            if self.active(p):
                count += 1
            if a.kind == "r":
                break
        return count

    def _after_action(self) -> None:
        if sum(self.folded) + 1 >= self.game.players:
            self._finish(showdown=False)
            return
        acting = self.acting_count()
        if self._called() < acting:
            return
        if acting > 1 and self.round + 1 < ROUNDS:
            self.round += 1
            self.actions.append([])
            self.min_raise_to = self.max_spent + self.game.big_blind
        else:
            self._finish(showdown=True)

    def _finish(self, *, showdown: bool) -> None:
        self.finished = True
        self.showdown = showdown
        if showdown:
            while len(self.actions) < ROUNDS:
                self.actions.append([])
            self.round = ROUNDS - 1
