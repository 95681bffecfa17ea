"""The tournament's inputs as the server logs them, and the one way each is applied.

The server logs every input it gives the tournament as ``(kind, table_id, payload)`` with a
JSON payload (``server/store.py``), and a restart replays the log through a fresh
``Tournament`` with ``apply_input`` (``server/recovery.py``). A live director command goes
through ``apply_director`` here too (``server/directing.py``), so it and its replay cannot
differ; the other inputs are the tournament's own calls, made live with the arguments
logged. Kinds:

- ``register`` ``{player_id, name}``; ``reenter`` ``{player_id}`` (issue 27); ``start``
  ``{now, deadline}``; ``call_floor`` ``{now, player_id, message}``;
- ``begin_hand`` ``{now, deck}`` (the deck as dealt), ``act`` ``{seat, kind, amount,
  automatic}``, ``end_hand`` ``{now}`` (with the table), ``tick`` ``{now}``;
- ``director`` ``{op, now, reason, ...}``: one director operation (``apply_director``);
  ``adjust_chips`` carries the stack to set (``chips``; logs written before it did carry
  the difference, ``delta``, and replay as they were).

A payload that is not what its kind needs (a missing field, an unknown operation or
option) raises ``TournamentError`` naming what is wrong, before anything changes, like
every operation the director's rules refuse; an action the hand refuses raises the
engine's ``IllegalAction``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from poker.actions import Action, ActionKind
from poker.events import Event

from .director import Director
from .errors import TournamentError
from .events import TournamentEvent
from .tournament import Tournament

Events = list[TournamentEvent]

# The options a logged ``set_options`` may change: ``Director.change_rules``'s keywords.
OPTIONS = (
    "ruleset", "action_clock", "time_bank", "level_minutes", "hands_per_level", "reconnect_grace",
    "big_blind_ante", "max_entries", "reentry_until", "tv_table", "tv_delay",
)

# The fields each director operation needs besides op, now and reason. Optional ones:
# ``seat`` (move_player), ``to`` (announce), ``table`` (pause and resume of one table; a
# ruling's table), ``call_id`` (a ruling on a player's call).
_FIELDS: dict[str, tuple[str, ...]] = {
    "start": (), "pause": (), "resume": (),
    "set_level": ("level",), "set_schedule": ("schedule",), "set_options": ("options",),
    "set_deadline": ("deadline",), "move_player": ("player_id", "table"),
    "remove_player": ("player_id",), "adjust_chips": ("player_id",),
    "transfer_chips": ("from_player", "to_player", "amount"), "announce": ("text",),
    "late_registration": ("until_level",), "rule": ("decision",), "award": ("title", "player_id"),
    "void_hand": ("table",), "set_break": ("after_level", "minutes"),
}
DIRECTOR_OPS = tuple(_FIELDS)


def _need(p: Mapping[str, Any], what: str, *names: str) -> None:
    missing = [n for n in names if n not in p]
    if missing:
        raise TournamentError(f"{what} has no {', '.join(missing)}")


def apply_director(t: Tournament, p: Mapping[str, Any]) -> Events:
    """Apply one logged director operation: the one path for live commands and replay."""
    if not isinstance(p, Mapping):
        raise TournamentError(f"a director operation is a mapping, not {p!r}")
    op = p.get("op")
    if not isinstance(op, str) or op not in _FIELDS:
        raise TournamentError(f"unknown director operation {op!r} (known: {', '.join(DIRECTOR_OPS)})")
    _need(p, f"the director operation {op}", "now", "reason", *_FIELDS[op])
    d = Director(t)
    now, reason = p["now"], p["reason"]
    if op == "start":
        return d.start(now, reason=reason)
    if op in ("pause", "resume") and p.get("table") is not None:  # one table, not the clock
        return d.pause_table(now, p["table"], paused=op == "pause", reason=reason)
    if op == "pause":
        return d.pause(now, reason=reason)
    if op == "resume":
        return d.resume(now, reason=reason)
    if op == "late_registration":
        return d.late_registration(now, p["until_level"], reason=reason)
    if op == "rule":
        return d.rule(now, p["decision"], call_id=p.get("call_id"), table_id=p.get("table"), reason=reason)
    if op == "award":
        return d.award(now, p["title"], p["player_id"], reason=reason)
    if op == "void_hand":
        return d.void_hand(now, p["table"], reason=reason)
    if op == "set_level":
        return d.set_level(now, p["level"], reason=reason)
    if op == "set_schedule":
        return d.change_schedule(now, p["schedule"], reason=reason)
    if op == "set_options":
        options = p["options"]
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise TournamentError(f"set_options needs a mapping of options, not {options!r}")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise TournamentError(f"unknown option {', '.join(unknown)} (known: {', '.join(OPTIONS)})")
        return d.change_rules(now, reason=reason, **options)
    if op == "set_break":
        return d.set_break(now, p["after_level"], p["minutes"], reason=reason)
    if op == "set_deadline":
        return d.set_deadline(now, p["deadline"], reason=reason)
    if op == "move_player":
        return d.move_player(now, p["player_id"], p["table"], p.get("seat"), reason=reason)
    if op == "remove_player":
        return d.remove_player(now, p["player_id"], reason=reason)
    if op == "adjust_chips":  # the stack to set (older logs: the difference, ``delta``)
        if "delta" in p and "chips" not in p:
            return d.correct_chips(now, p["player_id"], p["delta"], reason=reason)
        _need(p, "the director operation adjust_chips", "chips")
        return d.set_stack(now, p["player_id"], p["chips"], reason=reason)
    if op == "transfer_chips":
        return d.transfer_chips(now, p["from_player"], p["to_player"], p["amount"], reason=reason)
    assert op == "announce"
    return d.announce(now, p["text"], to=p.get("to", ()), reason=reason)


def apply_act(t: Tournament, table_id: int, p: Mapping[str, Any]) -> list[Event]:
    """A logged action at ``table_id``'s hand in progress: the hand's new events
    (``IllegalAction`` if refused, before anything changes)."""
    _need(p, "an action", "seat", "kind", "amount", "automatic")
    hand = t.table(table_id).hand
    if hand is None or hand.is_over:
        raise TournamentError(f"table {table_id} has no hand in progress for this action")
    try:
        kind = ActionKind(p["kind"])
    except (ValueError, TypeError):
        raise TournamentError(f"unknown action {p['kind']!r}") from None
    return hand.act(p["seat"], Action(kind=kind, amount=p["amount"]), automatic=bool(p["automatic"]))


def apply_input(t: Tournament, kind: str, table_id: int | None, p: Mapping[str, Any]) -> Events:
    """Apply one logged input of the tournament (``status`` and other server-only kinds are
    the server's own: refused here)."""
    if not isinstance(p, Mapping):
        raise TournamentError(f"a logged input is a mapping, not {p!r}")
    if kind == "director":
        return apply_director(t, p)
    if kind == "register":
        _need(p, "a registration", "player_id", "name")
        return t.register(p["player_id"], p["name"])
    if kind == "reenter":
        _need(p, "a re-entry", "player_id")
        return t.reenter(p["player_id"])
    if kind == "start":
        _need(p, "the start", "now")
        before = t.settings
        t.settings = attrs.evolve(before, deadline=p.get("deadline"))  # validated like any option
        try:
            return t.start(p["now"])
        except TournamentError:
            t.settings = before  # refused: nothing changed
            raise
    if kind == "tick":
        _need(p, "a tick", "now")
        return t.tick(p["now"])
    if kind == "call_floor":
        _need(p, "a call to the floor", "now", "player_id", "message")
        return t.call_floor(p["now"], p["player_id"], p["message"])
    if table_id is None:
        raise TournamentError(f"a {kind} input needs a table")
    if kind == "begin_hand":
        _need(p, "a deal", "now", "deck")
        t.begin_hand(table_id, p["now"], deck=p["deck"])
        return []
    if kind == "act":
        apply_act(t, table_id, p)
        return []
    if kind == "end_hand":
        _need(p, "a hand's end", "now")
        return t.end_hand(table_id, p["now"])
    raise TournamentError(f"unknown input {kind!r}")
