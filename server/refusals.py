"""Why an action is not this connection's to make: one pure answer for the reader and the table.

A connection's reader refuses at once what is plainly not the sender's to do, so a flood
never reaches the table (``seat_requests.act``); the table's task asks the same question
again when it takes the action, since the hand may have moved on meanwhile
(``tables.TableRunner``). Both ask ``why_not_yours``, so the answer and its words are the
same wherever it is given.
"""

from __future__ import annotations

import attrs

import protocol.errors as E
import protocol.messages as m
from poker.hand import Hand
from server.house import Turn


@attrs.frozen
class Refusal:
    code: str
    message: str
    path: str | None = None


def why_not_yours(msg: m.Act, player_id: str, table_id: int, hand: Hand | None, turn: Turn | None,
                  *, sitting_out: bool = False) -> Refusal | None:
    """``None`` when ``player_id`` may make ``msg`` at ``table_id`` now; else why not.

    ``sitting_out``: the player is sitting out, so the hand is acted for them without a
    turn, and an action for the hand in play is how they say they are back (the table
    takes it in, then refuses it as not their turn)."""
    in_play = hand is not None and not hand.is_over
    if hand is not None and msg.hand_no != hand.hand_no:
        return Refusal(E.STALE_HAND, f"that action is for hand #{msg.hand_no}; hand #{hand.hand_no} "
                       + ("is being played" if in_play else "was the last one here"), "act.hand_no")
    if msg.table is not None and msg.table != table_id:
        return Refusal(E.STALE_HAND, f"that action is for table {msg.table}; you sit at table {table_id}",
                       "act.table")
    if not in_play:
        return Refusal(E.NOT_YOUR_TURN, "no hand is being played at your table")
    if sitting_out:
        return None
    if turn is None or turn.player_id != player_id:
        return Refusal(E.NOT_YOUR_TURN, "not your turn" + (f": seat {turn.seat} is to act" if turn else ""))
    return None
