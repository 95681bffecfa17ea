"""My pending turn, and the turn in the engine's words and back.

``legal_from_protocol`` turns a ``your_turn``'s ``legal`` into the engine's
``LegalActions`` (what the keys and the bots decide from); ``action_to_act`` turns an
engine ``Action`` back into the protocol's ``act``.
"""

from __future__ import annotations

from typing import Literal

import attrs

from poker.actions import Action, ActionKind, LegalActions
from protocol import messages as m


@attrs.define(kw_only=True)
class PendingTurn:
    """A ``your_turn`` not yet answered by an action of mine.

    ``received_at`` is the caller's clock reading when it arrived (None if not given);
    ``deadline`` and ``bank_deadline`` are on that same clock. ``acted`` is set by the
    session once it has sent an ``act`` for this turn.
    """

    msg: m.YourTurn
    legal: LegalActions
    received_at: float | None = None
    acted: bool = False

    @property
    def hand_no(self) -> int:
        return self.msg.hand_no

    @property
    def deadline(self) -> float | None:
        """When the action clock runs out (the time bank follows)."""
        if self.received_at is None:
            return None
        return self.received_at + self.msg.deadline_ms / 1000

    @property
    def bank_deadline(self) -> float | None:
        """When the action clock and the time bank are both spent."""
        if self.received_at is None:
            return None
        return self.received_at + (self.msg.deadline_ms + self.msg.time_bank_ms) / 1000


def legal_from_protocol(
    legal: m.Legal,
    *,
    seat: int,
    stack: int | None = None,
    bet: int | None = None,
    current_bet: int | None = None,
) -> LegalActions:
    """The engine's ``LegalActions`` for a ``your_turn``'s ``legal``.

    ``stack`` and ``bet`` are mine (chips behind, chips in front this round) and
    ``current_bet`` the bet to match, as the model knows them. The protocol's numbers win
    where they determine these: checking means my bet is the bet to match, a call short of
    my stack means the bet to match is my bet plus the call, and ``max_raise_to`` is always
    my bet plus my stack. So whether a raise-to is a ``bet`` or a ``raise`` (the engine
    refuses the wrong word) comes out right even if the model missed something.
    """
    if legal.max_raise_to is not None:
        if bet is None:
            bet = 0 if stack is None else max(0, legal.max_raise_to - stack)
        stack = legal.max_raise_to - bet
    bet = bet or 0
    if stack is None:
        stack = legal.call or 0
    if legal.check:
        current = bet
        to_call = 0
    elif legal.call is not None and legal.call < stack:
        current = bet + legal.call
        to_call = legal.call
    else:
        # Calling is all in (or nothing is known): the bet to match is at least that much.
        owed = legal.call or 0
        current = max(bet + owed, current_bet or 0)
        to_call = current - bet
    return LegalActions(
        seat=seat,
        fold=legal.fold,
        check=legal.check,
        call=legal.call,
        min_raise_to=legal.min_raise_to,
        max_raise_to=legal.max_raise_to,
        to_call=to_call,
        current_bet=current,
        stack=stack,
        bet=bet,
    )


_ACT_KINDS: dict[ActionKind, Literal["fold", "check", "call", "bet", "raise", "all_in"]] = {
    ActionKind.FOLD: "fold",
    ActionKind.CHECK: "check",
    ActionKind.CALL: "call",
    ActionKind.BET: "bet",
    ActionKind.RAISE: "raise",
    ActionKind.ALL_IN: "all_in",
}


def action_to_act(action: Action, hand_no: int, table: int | None = None, *, id: int | None = None) -> m.Act:
    """The protocol's ``act`` for an engine ``Action`` (amount only for bet and raise)."""
    kind = _ACT_KINDS[action.kind]
    amount = action.amount if kind in ("bet", "raise") else None
    return m.Act(id=id, table=table, hand_no=hand_no, action=kind, amount=amount)
