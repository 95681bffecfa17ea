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

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from poker.actions import ACTION_KINDS, make_action
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

@attrs.frozen
class DirectorOp:
    """One director operation: the payload fields it needs besides ``op``, ``now`` and
    ``reason``, and how it is applied (``Director``'s method for it)."""

    fields: tuple[str, ...]
    apply: Callable[[Director, float, Mapping[str, Any], str], Events]


def _pause_or_resume(paused: bool) -> Callable[[Director, float, Mapping[str, Any], str], Events]:
    """A pause or resume of the clock, or of one table when the payload names one."""
    def apply(d: Director, now: float, p: Mapping[str, Any], reason: str) -> Events:
        if p.get("table") is not None:
            return d.pause_table(now, p["table"], paused=paused, reason=reason)
        return d.pause(now, reason=reason) if paused else d.resume(now, reason=reason)
    return apply


def _set_options(d: Director, now: float, p: Mapping[str, Any], reason: str) -> Events:
    options = p["options"]
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise TournamentError(f"set_options needs a mapping of options, not {options!r}")
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise TournamentError(f"unknown option {', '.join(unknown)} (known: {', '.join(OPTIONS)})")
    return d.change_rules(now, reason=reason, **options)


def _adjust_chips(d: Director, now: float, p: Mapping[str, Any], reason: str) -> Events:
    """The stack to set (older logs carry the difference, ``delta``, and replay as they were)."""
    if "delta" in p and "chips" not in p:
        return d.correct_chips(now, p["player_id"], p["delta"], reason=reason)
    _need(p, "the director operation adjust_chips", "chips")
    return d.set_stack(now, p["player_id"], p["chips"], reason=reason)


# The one table of director operations, by the ``op`` the log and the protocol's command
# ``type`` share. Optional fields: ``seat`` (move_player), ``to`` (announce), ``table`` (pause
# and resume of one table; a ruling's table), ``call_id`` (a ruling on a player's call).
OPS: dict[str, DirectorOp] = {
    "start": DirectorOp((), lambda d, now, p, r: d.start(now, reason=r)),
    "pause": DirectorOp((), _pause_or_resume(True)),
    "resume": DirectorOp((), _pause_or_resume(False)),
    "set_level": DirectorOp(("level",), lambda d, now, p, r: d.set_level(now, p["level"], reason=r)),
    "set_schedule": DirectorOp(("schedule",), lambda d, now, p, r: d.change_schedule(now, p["schedule"], reason=r)),
    "set_options": DirectorOp(("options",), _set_options),
    "set_deadline": DirectorOp(("deadline",), lambda d, now, p, r: d.set_deadline(now, p["deadline"], reason=r)),
    "move_player": DirectorOp(("player_id", "table"), lambda d, now, p, r: d.move_player(
        now, p["player_id"], p["table"], p.get("seat"), reason=r)),
    "remove_player": DirectorOp(("player_id",), lambda d, now, p, r: d.remove_player(now, p["player_id"], reason=r)),
    "adjust_chips": DirectorOp(("player_id",), _adjust_chips),
    "transfer_chips": DirectorOp(("from_player", "to_player", "amount"), lambda d, now, p, r: d.transfer_chips(
        now, p["from_player"], p["to_player"], p["amount"], reason=r)),
    "announce": DirectorOp(("text",), lambda d, now, p, r: d.announce(now, p["text"], to=p.get("to", ()), reason=r)),
    "late_registration": DirectorOp(("until_level",), lambda d, now, p, r: d.late_registration(
        now, p["until_level"], reason=r)),
    "rule": DirectorOp(("decision",), lambda d, now, p, r: d.rule(
        now, p["decision"], call_id=p.get("call_id"), table_id=p.get("table"), reason=r)),
    "award": DirectorOp(("title", "player_id"), lambda d, now, p, r: d.award(now, p["title"], p["player_id"], reason=r)),
    "void_hand": DirectorOp(("table",), lambda d, now, p, r: d.void_hand(now, p["table"], reason=r)),
    "set_break": DirectorOp(("after_level", "minutes"), lambda d, now, p, r: d.set_break(
        now, p["after_level"], p["minutes"], reason=r)),
}
DIRECTOR_OPS = tuple(OPS)


def _need(p: Mapping[str, Any], what: str, *names: str) -> None:
    for name in names:  # (a loop that builds nothing when all are there: once per action)
        if name not in p:
            missing = [n for n in names if n not in p]
            raise TournamentError(f"{what} has no {', '.join(missing)}")


def apply_director(t: Tournament, p: Mapping[str, Any]) -> Events:
    """Apply one logged director operation: the one path for live commands and replay."""
    if not isinstance(p, Mapping):
        raise TournamentError(f"a director operation is a mapping, not {p!r}")
    op = OPS.get(p["op"]) if isinstance(p.get("op"), str) else None
    if op is None:
        raise TournamentError(f"unknown director operation {p.get('op')!r} (known: {', '.join(DIRECTOR_OPS)})")
    _need(p, f"the director operation {p['op']}", "now", "reason", *op.fields)
    return op.apply(Director(t), p["now"], p, p["reason"])


def apply_act(t: Tournament, table_id: int, p: Mapping[str, Any]) -> list[Event]:
    """A logged action at ``table_id``'s hand in progress: the hand's new events
    (``IllegalAction`` if refused, before anything changes)."""
    _need(p, "an action", "seat", "kind", "amount", "automatic")
    hand = t.table(table_id).hand
    if hand is None or hand.is_over:
        raise TournamentError(f"table {table_id} has no hand in progress for this action")
    try:
        kind = ACTION_KINDS[p["kind"]]
    except (KeyError, TypeError):
        raise TournamentError(f"unknown action {p['kind']!r}") from None
    return hand.act(p["seat"], make_action(kind, p["amount"]), automatic=bool(p["automatic"]))


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
        return t.begin_hand(table_id, p["now"], deck=p["deck"])[1]
    if kind == "act":
        apply_act(t, table_id, p)
        return []
    if kind == "end_hand":
        _need(p, "a hand's end", "now")
        return t.end_hand(table_id, p["now"])
    raise TournamentError(f"unknown input {kind!r}")
