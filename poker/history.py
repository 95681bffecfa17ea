"""Hand histories: a finished hand's events as PHH (for tools and replay) and as text (for people).

Both are written from ``Hand.events`` alone, plus what the hand does not know about itself
(table, level, names, when it was dealt) in a ``HandInfo``; nothing here reads a clock.

PHH is the Poker Hand History standard (TOML; pokerkit reads it). Its players are
positions, not seats: ``p1`` is the small blind and the last player is the button; heads-up
pokerkit applies ``blinds_or_straddles`` reversed, so there ``p1`` is the big blind and
``p2`` the button (small blind) while the field stays ``[SB, BB]``. What PHH cannot say
goes into custom ``_`` fields (the chips carried in and out of the hand, the ruleset) or
``# comments`` on an action (automatic actions, and a card shown by choice after the hand).

A check with no choice: when everyone else before the flop is all-in for less than the
big blind or has folded, the engine rightly asks the big blind nothing (nobody is left to
bet against), but pokerkit's state still waits for the big blind's check. The export writes
that check, marked automatic like a timeout (``# automatic (no choice: ...)``), so every
export replays action by action in pokerkit's state API (``_no_choice_checks``).

One thing PHH cannot say: when the big blind is short, our bet to match stays the full
big blind (interpretation 2), while pokerkit's is the largest blind actually posted, so
pokerkit replays a call in such a hand as a smaller call. Those hands are written as they
are (with the no-choice check where pokerkit waits for one); ``tests/engine/test_referee.py``
counts the ones pokerkit cannot replay, and docs/rules.md gives the figures.

A big-blind ante is written as PHH's ``antes`` with the ante at the big blind's place
(the same place as the big blind in ``blinds_or_straddles``, heads-up too: pokerkit
reverses both lists alike), for pokerkit's state to replay with ante trimming off (the
ante is dead money in the main pot, not part of the big blind's bet).

Hidden information: a full history (``reveal_all=True``, the default for PHH) holds every
hole card and is for the server's own records and game recall only. Anything sent to a
person must be built with ``reveal_all=False`` and their ``viewer`` seat: then a hole card
appears only if it was the viewer's own or was shown.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping, Sequence

import attrs

from .actions import ActionKind, Ruleset
from .cards import Card, cards_str
from .events import (
    ActionTaken,
    AntePosted,
    BetsGathered,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    Street,
    UncalledBetReturned,
)

__all__ = ["HandInfo", "HistoryError", "phh_order", "to_phh", "to_text", "toml_dumps"]


class HistoryError(ValueError):
    """Events that do not make a finished hand (no start, or no end)."""


@attrs.frozen(kw_only=True)
class HandInfo:
    """What a hand's events do not say: where and when it was played, and by whom.

    ``level`` is the level number people see (1 for the first level). ``started_at`` is
    passed in by the caller (the engine reads no clock); naive or aware, it is written as
    given, with ``time_zone`` if one is named.
    """

    table_id: int
    level: int
    players: Mapping[int, str] = attrs.field(factory=dict)  # seat -> name
    seat_count: int | None = None
    ruleset: Ruleset = Ruleset.HICKORY
    event: str | None = None
    started_at: datetime.datetime | None = None
    time_zone: str | None = None

    def name(self, seat: int) -> str:
        return self.players.get(seat) or f"seat {seat}"


# -- reading the events --------------------------------------------------------------------


def _start_and_end(events: Sequence[Event]) -> tuple[HandStarted, HandEnded]:
    start = next((e for e in events if isinstance(e, HandStarted)), None)
    end = next((e for e in events if isinstance(e, HandEnded)), None)
    if start is None:
        raise HistoryError("these events have no HandStarted: not a hand")
    if end is None:
        raise HistoryError(f"hand #{start.hand_no} is not over: no history until it ends")
    return start, end


def phh_order(start: HandStarted) -> list[int]:
    """Seats in PHH player order: from the left of the button round to the button.

    That makes ``p1`` the small blind with three or more players, and heads-up (where the
    button posts the small blind) ``p1`` the big blind and ``p2`` the button.
    """
    seats = [s for s, _ in start.stacks]
    b = seats.index(start.button)
    return seats[b + 1 :] + seats[: b + 1]


def _visible_holes(
    events: Sequence[Event], viewer: int | None, reveal_all: bool
) -> dict[int, tuple[Card, ...]]:
    """The hole cards this history may print, by seat."""
    shown = {e.seat for e in events if isinstance(e, HandShown)}
    return {
        e.seat: e.cards
        for e in events
        if isinstance(e, HoleCardsDealt) and (reveal_all or e.seat == viewer or e.seat in shown)
    }


# -- PHH -----------------------------------------------------------------------------------


def to_phh(
    events: Sequence[Event],
    info: HandInfo,
    *,
    viewer: int | None = None,
    reveal_all: bool = True,
) -> str:
    """The hand as PHH (TOML text). Hole cards not revealed are written ``????``."""
    start, end = _start_and_end(events)
    order = phh_order(start)
    index = {seat: i + 1 for i, seat in enumerate(order)}
    n = len(order)
    starting = dict(start.stacks)
    finishing = dict(end.stacks)
    holes = _visible_holes(events, viewer, reveal_all)

    actions: list[str] = []
    ended = False
    checks = _no_choice_checks(events, start, order)
    for i, e in enumerate(events):
        for seat in checks.get(i, ()):
            actions.append(f"p{index[seat]} cc # automatic (no choice: nobody left to bet against)")
        if isinstance(e, HoleCardsDealt):
            cards = cards_str(holes[e.seat]) if e.seat in holes else "??" * len(e.cards)
            actions.append(f"d dh p{index[e.seat]} {cards}")
        elif isinstance(e, ActionTaken):
            actions.append(_phh_action(index[e.seat], e))
        elif isinstance(e, BoardDealt):
            actions.append(f"d db {cards_str(e.cards)}")
        elif isinstance(e, HandShown):
            if ended:
                # pokerkit has no operation for showing after the hand: keep it as a comment.
                actions.append(f"# p{index[e.seat]} shows {cards_str(e.cards)} after the hand")
            else:
                actions.append(f"p{index[e.seat]} sm {cards_str(e.cards)}")
        elif isinstance(e, HandEnded):
            ended = True

    antes = [0] * n
    if start.ante:
        antes[1] = start.ante  # the big blind's place (p2; heads-up p1, reversed by pokerkit)
    doc: dict[str, TomlValue] = {"variant": "NT", "antes": antes}
    doc["blinds_or_straddles"] = [start.small_blind, start.big_blind] + [0] * (n - 2)
    doc["min_bet"] = start.big_blind
    doc["starting_stacks"] = [starting[s] for s in order]
    doc["actions"] = actions
    if info.event is not None:
        doc["event"] = info.event
    doc["hand"] = start.hand_no
    doc["level"] = info.level
    doc["table"] = info.table_id
    if info.seat_count is not None:
        doc["seat_count"] = info.seat_count
    doc["seats"] = order
    doc["players"] = [info.name(s) for s in order]
    doc["finishing_stacks"] = [finishing[s] for s in order]
    if info.started_at is not None:
        t = info.started_at
        doc["time"] = t.time().replace(tzinfo=None)
        doc["day"] = t.day
        doc["month"] = t.month
        doc["year"] = t.year
    if info.time_zone is not None:
        doc["time_zone"] = info.time_zone
    doc["_carried_in"] = start.carried_in
    doc["_carried_out"] = end.carried_out
    doc["_ruleset"] = str(info.ruleset)
    return toml_dumps(doc)


def _no_choice_checks(events: Sequence[Event], start: HandStarted, order: Sequence[int]) -> dict[int, list[int]]:
    """The checks pokerkit waits for before the flop that the engine did not ask for, as
    ``{index in events: [seats]}``: write them before that event.

    pokerkit's betting round (``State._begin_betting``): the players to act are everyone
    with chips, starting left of the big blind, less those who cannot lose anything more
    (no other player with chips behind: its "effective stack" is 0); a lone player with
    nothing to call is not asked. A bet or raise puts everyone else with chips back in the
    queue; each action takes the actor out. When our engine closes the round while that
    queue still holds a player with nothing to call, that player's check is the no-choice
    action. pokerkit's bets are the blinds as posted (a short big blind included), as here.
    """
    blinds = {e.blind: e for e in events if isinstance(e, BlindPosted)}
    if "big" not in blinds:
        return {}
    stacks = dict(start.stacks)
    for a in events:
        if isinstance(a, AntePosted):
            stacks[a.seat] -= a.amount  # dead money: no part of the bet
    bets = dict.fromkeys(order, 0)
    for b in blinds.values():
        bets[b.seat] += b.amount
        stacks[b.seat] -= b.amount
    live = set(order)

    def effective(seat: int) -> int:
        totals = sorted(bets[s] + stacks[s] for s in order if s in live)
        return min(stacks[seat], max(0, totals[-2] - bets[seat])) if len(totals) > 1 else 0

    top = max(bets.values())
    opener = (next(i for i, s in enumerate(order) if bets[s] == top) + 1) % len(order)
    rotated = list(order[opener:]) + list(order[:opener])
    queue = [s for s in rotated if stacks[s] > 0 and effective(s) > 0]
    if len(queue) == 1 and bets[queue[0]] >= top:
        queue = []
    for i, e in enumerate(events):
        if isinstance(e, ActionTaken):
            if e.street is not Street.PREFLOP:
                return {}
            if e.seat in queue:
                queue.remove(e.seat)
            stacks[e.seat] -= e.amount
            bets[e.seat] += e.amount
            if e.action is ActionKind.FOLD:
                live.discard(e.seat)
            if bets[e.seat] > top:  # a bet or raise: everyone else with chips acts again
                top = bets[e.seat]
                k = order.index(e.seat)
                after = list(order[k + 1:]) + list(order[:k])
                queue = [s for s in after if s in live and stacks[s] > 0]
            if len(live) <= 1:
                return {}
        elif isinstance(e, (BetsGathered, BoardDealt, HandShown, UncalledBetReturned, PotAwarded, HandEnded)):
            owed = [s for s in queue if s in live and stacks[s] > 0 and bets[s] >= top]
            return {i: owed} if owed and owed == queue else {}
    return {}


def _phh_action(player: int, e: ActionTaken) -> str:
    if e.action is ActionKind.FOLD:
        text = f"p{player} f"
    elif e.action in (ActionKind.CHECK, ActionKind.CALL):
        text = f"p{player} cc"
    elif e.action in (ActionKind.BET, ActionKind.RAISE):
        text = f"p{player} cbr {e.to}"
    else:  # ALL_IN never reaches the events (act() records what it amounted to)
        raise HistoryError(f"unexpected action in the events: {e.action}")
    if e.automatic:
        text += " # automatic (timeout)"
    return text


# -- a small TOML writer -------------------------------------------------------------------

TomlScalar = str | int | bool | datetime.time
TomlValue = TomlScalar | Sequence[TomlScalar]

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_string(s: str) -> str:
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_scalar(v: TomlScalar) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, datetime.time):
        if v.tzinfo is not None:
            raise TypeError("TOML has no time of day with a zone; pass the zone separately")
        return v.isoformat()
    raise TypeError(f"cannot write {type(v).__name__} as TOML here")


def _toml_key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _toml_string(k)


def toml_dumps(doc: Mapping[str, TomlValue]) -> str:
    """Top-level keys with scalars or flat arrays: all a PHH file needs.

    Short arrays go on one line; an array of strings longer than a line (``actions``)
    gets one element per line, which keeps a history readable and diffable.
    """
    lines = []
    for key, value in doc.items():
        if isinstance(value, str) or not isinstance(value, Sequence):
            lines.append(f"{_toml_key(key)} = {_toml_scalar(value)}")
            continue
        items = [_toml_scalar(v) for v in value]
        one_line = f"{_toml_key(key)} = [{', '.join(items)}]"
        if len(one_line) <= 100 or not any(isinstance(v, str) for v in value):
            lines.append(one_line)
        else:
            lines.append(f"{_toml_key(key)} = [")
            lines.extend(f"  {item}," for item in items)
            lines.append("]")
    return "\n".join(lines) + "\n"


# -- readable text ---------------------------------------------------------------------------

_ACTION_WORDS = {
    ActionKind.FOLD: "folds",
    ActionKind.CHECK: "checks",
    ActionKind.CALL: "calls",
    ActionKind.BET: "bets",
    ActionKind.RAISE: "raises to",
}


def _chips(n: int) -> str:
    return f"{n:,}"


def _cards(cards: Iterable[Card]) -> str:
    return "[" + " ".join(cards_str((c,)) for c in cards) + "]"


def _pot_name(index: int, pot_count: int) -> str:
    if index == 0:
        return "the main pot" if pot_count > 1 else "the pot"
    return f"side pot {index}" if pot_count > 2 else "the side pot"


def _from_pot(index: int, pot_count: int) -> str:
    """Where chips were won: unsaid when there was only the one pot."""
    return f" from {_pot_name(index, pot_count)}" if pot_count > 1 else ""


def to_text(
    events: Sequence[Event],
    info: HandInfo,
    *,
    viewer: int | None = None,
    reveal_all: bool = False,
) -> str:
    """The hand as lines a person reads, in the order things happened.

    By default it shows what a spectator may see after the hand: hole cards only if they
    were shown. Pass ``viewer`` for a player's own copy, ``reveal_all`` for the full record.
    """
    start, _ = _start_and_end(events)
    name = info.name
    pot_count = sum(1 for e in events if isinstance(e, PotAwarded))

    head = (
        f"Hand #{start.hand_no} at table {info.table_id}, level {info.level} "
        f"({_chips(start.small_blind)}/{_chips(start.big_blind)}"
        + (f", big-blind ante {_chips(start.ante)}" if start.ante else "")
        + f"), {info.ruleset} rules"
    )
    if info.event:
        head = f"{info.event}: {head}"
    if info.started_at is not None:
        # The wall-clock time and the zone's name, once: "2026-11-30 06:10:05 UTC"
        # (an ISO offset beside the name said the zone twice).
        head += f", {info.started_at.strftime('%Y-%m-%d %H:%M:%S')}"
        zone = info.time_zone or (info.started_at.tzname() if info.started_at.tzinfo else None)
        if zone:
            head += f" {zone}"
    lines = [head]
    for seat, stack in start.stacks:
        tag = " (button)" if seat == start.button else ""
        lines.append(f"Seat {seat}: {name(seat)}, {_chips(stack)} in chips{tag}")
    if start.carried_in:
        lines.append(f"{_chips(start.carried_in)} carried in from the last hand joins the pot")

    # Flags only read as truth values (None would do the same): not mutated.
    ended = False  # pragma: no mutate
    dealt_line_done = False  # pragma: no mutate
    showdown_line_done = False  # pragma: no mutate
    for e in events:
        if isinstance(e, AntePosted):
            line = f"{name(e.seat)} posts the ante {_chips(e.amount)} for the table"
            lines.append(line + (" and is all-in" if e.all_in else ""))
        elif isinstance(e, BlindPosted):
            line = f"{name(e.seat)} posts the {e.blind} blind {_chips(e.amount)}"
            lines.append(line + (" and is all-in" if e.all_in else ""))
        elif isinstance(e, HoleCardsDealt):
            if not dealt_line_done:
                lines.append("*** Hole cards ***")
                dealt_line_done = True
            # Shown cards appear where they were shown; here only the viewer's own.
            if reveal_all or e.seat == viewer:
                lines.append(f"Dealt to {name(e.seat)} {_cards(e.cards)}")
        elif isinstance(e, ActionTaken):
            word = _ACTION_WORDS[e.action]  # (ALL_IN never reaches the events)
            if e.action is ActionKind.CALL:
                line = f"{name(e.seat)} {word} {_chips(e.amount)}"
            elif e.action in (ActionKind.BET, ActionKind.RAISE):
                line = f"{name(e.seat)} {word} {_chips(e.to)}"
            else:
                line = f"{name(e.seat)} {word}"
            if e.all_in:
                line += " and is all-in"
            if e.automatic:
                line += " (automatic: time ran out)"
            lines.append(line)
        elif isinstance(e, UncalledBetReturned):
            lines.append(f"Uncalled bet of {_chips(e.amount)} returned to {name(e.seat)}")
        elif isinstance(e, BoardDealt):
            title = e.street.value.capitalize()
            before = e.board[: len(e.board) - len(e.cards)]
            board = (_cards(before) + " " if before else "") + _cards(e.cards)
            lines.append(f"*** {title} *** {board}")
        elif isinstance(e, HandShown):
            if not ended and not showdown_line_done:
                lines.append("*** Showdown ***")
                showdown_line_done = True
            what = f" ({e.hand_name})" if e.hand_name else ""
            when = " after the hand" if ended else ""
            lines.append(f"{name(e.seat)} shows {_cards(e.cards)}{what}{when}")
        elif isinstance(e, PotAwarded):
            pot = _pot_name(e.index, pot_count)
            with_hand = f" with {e.hand_name}" if e.hand_name else ""
            if len(e.winners) == 1:
                seat, won = e.winners[0]
                source = _from_pot(e.index, pot_count)
                lines.append(f"{name(seat)} wins {_chips(won)}{source}{with_hand}")
            else:
                who = ", ".join(name(s) for s, _ in e.winners[:-1]) + f" and {name(e.winners[-1][0])}"
                share = e.winners[0][1]
                lines.append(
                    f"{who} split {pot} of {_chips(e.amount)}{with_hand}: {_chips(share)} each"
                )
            if e.remainder:
                chips = "odd chip stays" if e.remainder == 1 else "odd chips stay"
                lines.append(f"{_chips(e.remainder)} {chips} in {pot} for the next hand")
        elif isinstance(e, HandEnded):
            ended = True
            lines.append("*** Summary ***")
            starting = dict(start.stacks)
            for seat, stack in e.stacks:
                diff = stack - starting[seat]
                sign = "+" if diff > 0 else ""
                lines.append(
                    f"{name(seat)}: {_chips(starting[seat])} -> {_chips(stack)} ({sign}{_chips(diff)})"
                )
            if e.carried_out:
                lines.append(f"Carried to the next hand: {_chips(e.carried_out)}")
    return "\n".join(lines) + "\n"
