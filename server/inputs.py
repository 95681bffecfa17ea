"""The server's logged inputs: each built once, and applied by one function, live and in replay.

A table's task builds the input it logs for a deal, an action, the end of a hand and a
player's status here, and applies it with ``apply_logged``: the function the replay after
a restart applies the same log entry with (``recovery.replay_log``). So live play and
replay agree by construction; a test replays the log of generated nights and compares the
state after every input (``tests/seams/test_replay.py``).

The tournament's part of an input is ``server.tournament.inputs.apply_input`` (pure); the
server's part is what it keeps with the players (``PlayerState``): the time bank an action
leaves, and sitting out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from poker import events as ev
from poker.actions import Action
from poker.makers import maker
from server.clients import PlayerState
from server.tournament.errors import TournamentError
from server.tournament.events import TournamentEvent
from server.tournament.inputs import apply_act, apply_input
from server.tournament.tournament import Tournament


@attrs.frozen
class Logged:
    """One input as the log keeps it: ``(kind, table_id, payload)``, payload JSON-ready."""

    kind: str
    table_id: int | None
    payload: dict[str, Any]


@attrs.frozen
class Applied:
    """What applying an input made: the tournament's news and a hand's new events."""

    news: list[TournamentEvent] = attrs.field(factory=list)
    hand_events: list[ev.Event] = attrs.field(factory=list)


# Logged(kind, table_id, payload) and Applied(news, hand_events) through ``poker.makers``:
# one of each per action.
_logged = maker(Logged)
_applied = maker(Applied)


def deal(table_id: int, *, now: float, deck: list[int], carry: int, draw: dict[str, Any]) -> Logged:
    """A deal: the deck as dealt, the table's carried chips before it (so a hand voided at
    replay gives them back), and the fair-deck round that drew the deck."""
    return Logged("begin_hand", table_id, {"now": now, "deck": deck, "carry": carry, "draw": draw})


def act(table_id: int, seat: int, action: Action, *, automatic: bool, now: float, bank: float) -> Logged:
    """An action, with the acting player's time bank after it (what the replay restores)."""
    return _logged("act", table_id, {"seat": seat, "kind": action.kind.value, "amount": action.amount,
                                     "automatic": automatic, "now": now, "bank": bank})


def end(table_id: int, *, now: float, chain: str | None) -> Logged:
    """The end of a hand; ``chain`` is the fair-deck hash chain's link for it, if kept."""
    return Logged("end_hand", table_id, {"now": now} if chain is None else {"now": now, "chain": chain})


def status(player_id: str, *, sitting_out: bool, bank: float) -> Logged:
    """A player sits out or comes back (the server's own input: the tournament never sees it)."""
    return Logged("status", None, {"player_id": player_id, "sitting_out": sitting_out, "bank": bank})


def apply_logged(t: Tournament, players: Mapping[str, PlayerState], inp: Logged) -> Applied:
    """Apply one logged input to the tournament and the players: the one path for live play
    and replay. Refused before anything changes: ``TournamentError`` (a payload that is not
    what its kind needs, an operation the rules refuse) or the engine's ``IllegalAction``."""
    kind, table_id, p = inp.kind, inp.table_id, inp.payload
    if kind == "status":
        if "player_id" not in p or "sitting_out" not in p:
            raise TournamentError("a status has no player_id or sitting_out")
        ps = players.get(p["player_id"])
        if ps is not None:
            ps.sitting_out = bool(p["sitting_out"])
            ps.bank = p.get("bank", ps.bank)
        return Applied()
    if kind == "act":
        if table_id is None:
            raise TournamentError("an action needs a table")
        new = apply_act(t, table_id, p)
        ps = players.get(t.tables[table_id].seats[p["seat"]].player_id)  # (the act found it)
        if ps is not None:
            ps.bank = p.get("bank", ps.bank)
        return _applied([], new)
    return Applied(news=apply_input(t, kind, table_id, p))
