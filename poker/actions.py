"""What a player can do, and the one error type for what they may not.

``LegalActions`` is the single source of truth: the engine validates against it, the
server puts it in the "your turn" message, bots choose from it and the client draws its
keys from it. Amounts are "raise to" totals for the current betting round.
"""

from __future__ import annotations

import enum

import attrs

from poker.makers import maker


class Ruleset(enum.StrEnum):
    """How big a raise must be (interpretation section 4)."""

    HICKORY = "hickory"  # every raise adds at least the big blind (the rulebook as written)
    STANDARD = "standard"  # a raise adds at least the largest increment this round, >= big blind


class ActionKind(enum.StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"


ACTION_KINDS: dict[str, ActionKind] = {k.value: k for k in ActionKind}
"""The kinds by name: a dict lookup, where ``ActionKind(name)`` goes through
``EnumType.__call__`` (about a microsecond on CPython 3.11; the server does it twice per action)."""


class IllegalAction(Exception):
    """An action the rules do not allow now, with text a player can act on.

    ``code`` is the protocol's error code (``not_your_turn``, ``illegal_action``,
    ``hand_over``) so the server can map it without parsing the text; ``field`` is what
    was wrong, the ``action`` or its ``amount`` (the error's path names it).
    """

    def __init__(self, message: str, *, code: str = "illegal_action", field: str = "action") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


@attrs.frozen(kw_only=True, weakref_slot=False)
class Action:
    """A player's decision. ``amount`` is the raise-to total, only for bet and raise."""

    kind: ActionKind
    amount: int | None = None

    # The actions without an amount are the same value every time, and frozen: one each,
    # shared (a bot asks for one a decision).
    @classmethod
    def fold(cls) -> Action:
        return _FOLD if cls is Action else cls(kind=ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return _CHECK if cls is Action else cls(kind=ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return _CALL if cls is Action else cls(kind=ActionKind.CALL)

    @classmethod
    def bet(cls, to: int) -> Action:
        return make_action(ActionKind.BET, to) if cls is Action else cls(kind=ActionKind.BET, amount=to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return make_action(ActionKind.RAISE, to) if cls is Action else cls(kind=ActionKind.RAISE, amount=to)

    @classmethod
    def all_in(cls) -> Action:
        return _ALL_IN if cls is Action else cls(kind=ActionKind.ALL_IN)


_FOLD = Action(kind=ActionKind.FOLD)
_CHECK = Action(kind=ActionKind.CHECK)
_CALL = Action(kind=ActionKind.CALL)
_ALL_IN = Action(kind=ActionKind.ALL_IN)

# Action(kind, amount) through ``poker.makers``: the server builds one per decision from
# the player's message and again from its logged payload (the one input path).
make_action = maker(Action)


@attrs.frozen(kw_only=True, weakref_slot=False)
class LegalActions:
    """Everything the player to act may do, with the amounts.

    - ``call`` is the chips a call puts in (may be less than owed when it is all-in), or
      None when there is nothing to call (then ``check`` is True).
    - ``min_raise_to``/``max_raise_to``: the range for a bet or raise-to total, or None
      when the player may not bet or raise. ``max_raise_to`` is always the all-in total; if
      the stack cannot reach a full raise, ``min_raise_to == max_raise_to`` (all-in only).
    - ``fold`` is False when checking is free: folding then is refused, never what a
      player meant.
    """

    seat: int
    fold: bool
    check: bool
    call: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    to_call: int  # what the player owes, before capping at the stack
    current_bet: int  # the bet to match this round
    stack: int  # chips behind
    bet: int  # chips already in front this round

    @property
    def is_bet(self) -> bool:
        """A raise-to here is an opening bet (no bet to match this round)."""
        return self.current_bet == 0

    def timeout_action(self) -> Action:
        """What the server does for a player whose clock ran out: check if free, else fold."""
        return Action.check() if self.check else Action.fold()

    def all_in_action(self) -> Action:
        """The all-in in terms of the other actions: a raise to the stack, or a call."""
        if self.max_raise_to is not None:
            return Action.bet(self.max_raise_to) if self.is_bet else Action.raise_to(self.max_raise_to)
        return Action.call() if self.call is not None else Action.check()

    def describe(self) -> str:
        parts = []
        if self.fold:
            parts.append("fold")
        if self.check:
            parts.append("check")
        if self.call is not None:
            parts.append(f"call {self.call}")
        if self.min_raise_to is not None and self.max_raise_to is not None:
            word = "bet" if self.is_bet else "raise to"
            if self.min_raise_to == self.max_raise_to:
                parts.append(f"{word} {self.max_raise_to} (all-in)")
            else:
                parts.append(f"{word} {self.min_raise_to}..{self.max_raise_to}")
        return ", ".join(parts)
