"""A finished hand in the PokerStars hand-history text that trackers import.

PokerTracker, Hold'em Manager and hand2note read PokerStars' own text files and little
else, and their parsers are strict about small details (the header's bracketed ET time,
``Seat #N is the button``, ``(N in chips)``, the ``***`` section markers, amounts without
separators). So this writes those line shapes exactly, from ``Hand.events`` alone plus a
``HandInfo`` and the tournament's number; nothing here reads a clock.

What a copy shows: ``viewer`` is the seat whose copy it is (their hole cards, even in a
hand they folded: a tracker needs them, and PokerStars writes them); other players'
cards only where they were shown. ``reveal_all`` writes a ``Dealt to`` line for every
player, the host's full record after the event (a tracker takes the first ``Dealt to``
as the file's owner, so that file is for the record, not for a player's tracker).

Where Hickory and PokerStars differ (docs/hand-histories.md):
- Hickory shows every hand still in at a showdown, so there is no ``mucks`` line; hands
  shown before an all-in board is dealt are written in the ``SHOW DOWN`` section with the
  hand they made on the full board, as PokerStars does.
- Odd chips that cannot be split stay in the pot for the next hand (interpretation 5).
  PokerStars has no line for that: the chips carried in are part of the main pot and of
  ``Total pot`` (so the ``collected`` lines add up to the pots), and chips carried out are
  simply not collected by anyone (so ``Total pot`` is more than the ``collected`` lines by
  them). ``carried_chips`` gives both for a reader that wants to check.
- A hand shown by choice after it ended is written as ``NAME: shows [..]`` before the
  summary.

Postings, in the order PokerStars writes them: the ante (``AntePosted``: Hickory's
big-blind ante, posted by the big blind for the table), then the small blind, then the big
blind; all in one place (``_POST_WORDS``, ``_posting_lines``). A blind of nothing (the
big blind went all in on the ante) is not written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from .actions import ActionKind
from .cards import Card, card_str
from .evaluator import Category, evaluate
from .events import (
    ActionTaken,
    AntePosted,
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
from .history import HandInfo, HistoryError

__all__ = [
    "carried_chips",
    "eastern_time",
    "hand_description",
    "hand_id",
    "ordinal",
    "roman",
    "to_pokerstars",
]

HAND_NUMBERS = 1_000_000
"""Hand ids are ``tournament number * HAND_NUMBERS + hand number``: unique across nights
(a tracker merges hands with equal ids) while the hand number stays readable at the end."""

_POST_ORDER = {"ante": 0, "small": 1, "big": 2}
_POST_WORDS = {"ante": "posts the ante", "small": "posts small blind", "big": "posts big blind"}

_STREET_TITLE = {Street.FLOP: "FLOP", Street.TURN: "TURN", Street.RIVER: "RIVER"}
_FOLDED_ON = {
    Street.PREFLOP: "before Flop", Street.FLOP: "on the Flop", Street.TURN: "on the Turn",
    Street.RIVER: "on the River",
}

_RANK = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
         "Queen", "King", "Ace")
_RANKS = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
          "Jacks", "Queens", "Kings", "Aces")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def hand_id(tournament_no: int, hand_no: int) -> int:
    """The ``PokerStars Hand #`` of a hand: see ``HAND_NUMBERS``."""
    return tournament_no * HAND_NUMBERS + hand_no


def roman(n: int) -> str:
    """A level number as PokerStars writes it (``Level XIV``)."""
    if n <= 0:
        return str(n)
    out = []
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                           (4, "IV"), (1, "I")):
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def _nth_sunday(year: int, month: int, nth: int) -> dt.date:
    first = dt.date(year, month, 1)
    return first + dt.timedelta(days=(6 - first.weekday()) % 7 + 7 * (nth - 1))


def eastern_time(moment: dt.datetime) -> dt.datetime:
    """``moment`` (aware) on the US Eastern clock, which PokerStars prints in brackets.

    The US rule since 2007 by hand (daylight time from 2:00 on the second Sunday of March
    to 2:00 on the first Sunday of November), so no time-zone database is needed.
    """
    utc = moment.astimezone(dt.UTC).replace(tzinfo=None)
    year = utc.year
    start = dt.datetime.combine(_nth_sunday(year, 3, 2), dt.time(7))  # 2:00 EST in UTC
    end = dt.datetime.combine(_nth_sunday(year, 11, 1), dt.time(6))  # 2:00 EDT in UTC
    offset = -4 if start <= utc < end else -5
    return utc + dt.timedelta(hours=offset)


def _stamp(t: dt.datetime) -> str:
    return f"{t.year:04d}/{t.month:02d}/{t.day:02d} {t.hour}:{t.minute:02d}:{t.second:02d}"


def _header_time(info: HandInfo) -> str:
    """``2026/12/04 21:05:09 CET [2026/12/04 15:05:09 ET]``: local time and zone, then ET.

    A zone without a letters-only abbreviation (an offset such as ``+01``) is written in
    UTC, since parsers read the zone as capital letters; a naive time is taken as UTC.
    """
    started = info.started_at or dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    if started.tzinfo is None:
        started = started.replace(tzinfo=dt.UTC)
    zone = info.time_zone or started.tzname() or "UTC"
    if not (zone.isascii() and zone.isalpha() and zone.isupper()):
        started, zone = started.astimezone(dt.UTC), "UTC"
    return f"{_stamp(started)} {zone} [{_stamp(eastern_time(started))} ET]"


def hand_description(cards: Sequence[Card]) -> str:
    """The made hand in PokerStars' words: ``a pair of Queens``, ``two pair, Kings and
    Sevens``, ``a straight, Five to Nine``, ``a full house, Kings full of Sevens``."""
    value = evaluate(cards)
    r = [c >> 2 for c in value.best_five]
    cat = value.category
    if cat is Category.STRAIGHT_FLUSH:
        if r[0] == 12:
            return "a Royal Flush"
        return f"a straight flush, {_RANK[r[4]]} to {_RANK[r[0]]}"
    if cat is Category.FOUR_OF_A_KIND:
        return f"four of a kind, {_RANKS[r[0]]}"
    if cat is Category.FULL_HOUSE:
        return f"a full house, {_RANKS[r[0]]} full of {_RANKS[r[3]]}"
    if cat is Category.FLUSH:
        return f"a flush, {_RANK[r[0]]} high"
    if cat is Category.STRAIGHT:
        return f"a straight, {_RANK[r[4]]} to {_RANK[r[0]]}"
    if cat is Category.THREE_OF_A_KIND:
        return f"three of a kind, {_RANKS[r[0]]}"
    if cat is Category.TWO_PAIR:
        return f"two pair, {_RANKS[r[0]]} and {_RANKS[r[2]]}"
    if cat is Category.PAIR:
        return f"a pair of {_RANKS[r[0]]}"
    return f"high card {_RANK[r[0]]}"


def carried_chips(events: Sequence[Event]) -> tuple[int, int]:
    """(chips carried into the hand, chips carried out of it): what PokerStars has no line
    for, so a reader checking the pots against the ``collected`` lines can allow for it."""
    start = next(e for e in events if isinstance(e, HandStarted))
    end = next(e for e in events if isinstance(e, HandEnded))
    return start.carried_in, end.carried_out


def _cards(cards: Sequence[Card]) -> str:
    return "[" + " ".join(card_str(c) for c in cards) + "]"


def _pot_names(pots: Sequence[PotAwarded]) -> dict[int, str]:
    """``pot`` alone; else ``main pot`` and ``side pot`` (one) or ``side pot-1``, ``-2``..."""
    indexes = sorted(p.index for p in pots)
    if len(indexes) <= 1:
        return {i: "pot" for i in indexes}
    sides = len(indexes) - 1
    return {i: "main pot" if k == 0 else ("side pot" if sides == 1 else f"side pot-{k}")
            for k, i in enumerate(indexes)}


def _posting_lines(events: Sequence[Event], name: dict[int, str]) -> list[str]:
    posts = [("ante", e.seat, e.amount, e.all_in) for e in events if isinstance(e, AntePosted)]
    posts += [(e.blind, e.seat, e.amount, e.all_in) for e in events if isinstance(e, BlindPosted)]
    ordered = sorted((p for p in posts if p[2] > 0), key=lambda p: _POST_ORDER.get(p[0], 3))
    return [f"{name[seat]}: {_POST_WORDS[kind]} {amount}" + (" and is all-in" if all_in else "")
            for kind, seat, amount, all_in in ordered]


def _action_line(e: ActionTaken, facing: int, who: str) -> str:
    if e.action is ActionKind.FOLD:
        text = f"{who}: folds"
    elif e.action is ActionKind.CHECK:
        text = f"{who}: checks"
    elif e.action is ActionKind.CALL:
        text = f"{who}: calls {e.amount}"
    elif e.action is ActionKind.BET:
        text = f"{who}: bets {e.to}"
    elif e.action is ActionKind.RAISE:
        text = f"{who}: raises {e.to - facing} to {e.to}"
    else:  # ALL_IN never reaches the events (act() records what it amounted to)
        raise HistoryError(f"unexpected action in the events: {e.action}")
    return text + (" and is all-in" if e.all_in else "")


def to_pokerstars(
    events: Sequence[Event],
    info: HandInfo,
    *,
    tournament_no: int,
    viewer: int | None = None,
    reveal_all: bool = False,
    finishes: Mapping[int, int] | None = None,
) -> str:
    """The hand as one PokerStars hand history (lines ending in a newline, no blank line:
    the caller separates hands with one). ``finishes`` (seat -> place) are the players
    who finished the tournament in this hand: ``NAME finished the tournament in 4th
    place``, and ``NAME wins the tournament`` for the winner."""
    start = next((e for e in events if isinstance(e, HandStarted)), None)
    end = next((e for e in events if isinstance(e, HandEnded)), None)
    if start is None:
        raise HistoryError("these events have no HandStarted: not a hand")
    if end is None:
        raise HistoryError(f"hand #{start.hand_no} is not over: no history until it ends")
    seats = [s for s, _ in start.stacks]
    name = {s: info.name(s) for s in seats}
    shown_cards = {e.seat: e.cards for e in events if isinstance(e, HandShown)}
    shown_seats = set(shown_cards)
    holes = {e.seat: e.cards for e in events if isinstance(e, HoleCardsDealt)}
    board: tuple[Card, ...] = ()
    for e in events:
        if isinstance(e, BoardDealt):
            board = e.board
    pots = [e for e in events if isinstance(e, PotAwarded) and e.amount > 0]
    pot_name = _pot_names(pots)

    size = info.seat_count or max(seats)
    lines = [
        f"PokerStars Hand #{hand_id(tournament_no, start.hand_no)}: Tournament #{tournament_no}, "
        f"Freeroll Hold'em No Limit - Level {roman(info.level)} ({start.small_blind}/{start.big_blind}) "
        f"- {_header_time(info)}",
        f"Table '{tournament_no} {info.table_id}' {size}-max Seat #{start.button} is the button",
    ]
    lines += [f"Seat {s}: {name[s]} ({stack} in chips)" for s, stack in start.stacks]
    lines += _posting_lines(events, name)
    lines.append("*** HOLE CARDS ***")
    b = seats.index(start.button)
    deal_order = seats[b + 1:] + seats[: b + 1]
    dealt_to = deal_order if reveal_all else [s for s in deal_order if s == viewer]
    lines += [f"Dealt to {name[s]} {_cards(holes[s])}" for s in dealt_to if s in holes]

    # What each seat did, for the summary: the street it folded on, whether it put chips in
    # of its own accord before the flop (PokerStars' "(didn't bet)"), what it won.
    folded_on: dict[int, Street] = {}
    put_in = {p.seat for p in events if isinstance(p, BlindPosted) and p.amount > 0}
    won = dict.fromkeys(seats, 0)
    facing = start.big_blind  # the bet to match: the full big blind even when it is short
    street = Street.PREFLOP
    showdown: list[HandShown] = []
    after_hand: list[HandShown] = []
    ended = False
    for e in events:
        if isinstance(e, ActionTaken):
            if e.street is not street:
                street, facing = e.street, 0
            lines.append(_action_line(e, facing, name[e.seat]))
            facing = max(facing, e.to)
            if e.action is ActionKind.FOLD:
                folded_on[e.seat] = e.street
            elif e.amount > 0:
                put_in.add(e.seat)
        elif isinstance(e, UncalledBetReturned):
            lines.append(f"Uncalled bet ({e.amount}) returned to {name[e.seat]}")
        elif isinstance(e, BoardDealt):
            before = e.board[: len(e.board) - len(e.cards)]
            shown_board = (_cards(before) + " " if before else "") + _cards(e.cards)
            lines.append(f"*** {_STREET_TITLE[e.street]} *** {shown_board}")
        elif isinstance(e, HandShown):
            (after_hand if ended else showdown).append(e)
        elif isinstance(e, PotAwarded):
            if showdown:
                lines.append("*** SHOW DOWN ***")
                lines += [f"{name[s.seat]}: shows {_cards(s.cards)} ({hand_description(s.cards + board)})"
                          for s in showdown]
                showdown = []
            if e.amount == 0:
                continue
            for seat, share in e.winners:
                won[seat] += share
        elif isinstance(e, HandEnded):
            ended = True
    # Side pots first, the last one first, then the main pot: as PokerStars does.
    for pot in sorted(pots, key=lambda p: -p.index):
        lines += [f"{name[seat]} collected {share} from {pot_name[pot.index]}"
                  for seat, share in pot.winners if share > 0]
    if not end.showdown:
        lines += [f"{name[s]}: doesn't show hand" for s in seats if won[s] and s not in shown_seats]
    lines += [f"{name[s.seat]}: shows {_cards(s.cards)}" for s in after_hand]
    for seat, place in sorted((finishes or {}).items(), key=lambda f: -f[1]):
        lines.append(f"{name[seat]} wins the tournament" if place == 1
                     else f"{name[seat]} finished the tournament in {ordinal(place)} place")

    lines.append("*** SUMMARY ***")
    total = sum(p.amount for p in pots)
    if len(pots) > 1:
        parts = " ".join(
            f"{pot_name[p.index].capitalize()} {p.amount}." for p in sorted(pots, key=lambda p: p.index))
        lines.append(f"Total pot {total} {parts} | Rake 0")
    else:
        lines.append(f"Total pot {total} | Rake 0")
    if board:
        lines.append(f"Board {_cards(board)}")
    at_showdown = {s.seat for s in events if isinstance(s, HandShown)} if end.showdown else set()
    for s in seats:
        tags = ""
        if s == start.button:
            tags += " (button)"
        if s == start.small_blind_seat and any(
                isinstance(p, BlindPosted) and p.seat == s and p.blind == "small" for p in events):
            tags += " (small blind)"
        if s == start.big_blind_seat:
            tags += " (big blind)"
        if s in folded_on:
            where = _FOLDED_ON[folded_on[s]]
            quiet = folded_on[s] is Street.PREFLOP and s not in put_in
            outcome = f"folded {where}" + (" (didn't bet)" if quiet else "")
        elif s in at_showdown:
            desc = hand_description(shown_cards[s] + board)
            result = f"and won ({won[s]})" if won[s] else "and lost"
            outcome = f"showed {_cards(shown_cards[s])} {result} with {desc}"
        elif won[s]:
            outcome = f"collected ({won[s]})"
        else:
            outcome = "folded before Flop (didn't bet)"  # dealt in, never in the pot
        lines.append(f"Seat {s}: {name[s]}{tags} {outcome}")
    return "\n".join(lines) + "\n"
