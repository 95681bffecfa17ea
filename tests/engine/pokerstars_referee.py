"""Reads PokerStars hand histories with an independent parser (pokerdf, from the package
registry) and checks every hand against Hickory's own record of it.

pokerdf is what an analyst's pipeline uses on real PokerStars files: one row per player
per hand, read by its own regular expressions. Where its reading is narrower than the
format (it does not record folds and checks as actions, only the verb and the first
number of a bet, call or raise; seats and ``N-max`` of one digit only), the expectation
below is narrowed the same way and says so; everything else it reads must agree exactly:
the hand's and tournament's numbers, table, level and blinds, every seat, name and
starting stack, the blinds posted and the positions, each street's bets, calls and raises
(a raise by its increment, ``raises 800 to 1200``), who went all-in on which street, the
board street by street, the owner's cards and every card shown, each player's result,
what they collected and what came back to them uncalled, the total pot and its split into
main and side pots, and the hand names at the showdown.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from pokerdf.core.read_and_convert import apply_regex

from poker.actions import ActionKind
from poker.cards import card_str
from poker.events import (
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
from poker.history import HandInfo
from poker.pokerstars import hand_description, hand_id, roman

_STAGE = {Street.PREFLOP: "PreflopAction", Street.FLOP: "FlopAction", Street.TURN: "TurnAction",
          Street.RIVER: "RiverAction"}
_ALL_IN = {Street.PREFLOP: "PreflopAllIn", Street.FLOP: "FlopAllIn", Street.TURN: "TurnAllIn",
           Street.RIVER: "RiverAllIn"}


@attrs.frozen(kw_only=True)
class Expected:
    """One hand as Hickory recorded it, and whose copy the file is."""

    events: Sequence[Event]
    info: HandInfo
    viewer: int | None = None
    reveal_all: bool = False
    finishes: Mapping[int, int] = attrs.field(factory=dict)  # seat -> place, for who finished here


def _none(v: Any) -> Any:
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


def _cards(cards: Sequence[int]) -> tuple[str, ...]:
    return tuple(card_str(c) for c in cards)


def expected_rows(x: Expected, tournament_no: int, file_owner: str | None = None) -> dict[str, dict[str, Any]]:
    """What pokerdf must read for each player of the hand, by name. pokerdf takes the
    file's owner from its first hand (``file_owner``) and each hand's owner's cards from
    its first ``Dealt to`` line."""
    ev = x.events
    start = next(e for e in ev if isinstance(e, HandStarted))
    end = next(e for e in ev if isinstance(e, HandEnded))
    seats = [s for s, _ in start.stacks]
    name = {s: x.info.name(s) for s in seats}
    holes = {e.seat: e.cards for e in ev if isinstance(e, HoleCardsDealt)}
    boards = {e.street: _cards(e.board) for e in ev if isinstance(e, BoardDealt)}
    pots = [e for e in ev if isinstance(e, PotAwarded) and e.amount > 0]
    total = sum(p.amount for p in pots)
    breakdown = tuple(float(p.amount) for p in sorted(pots, key=lambda p: p.index)) if len(pots) > 1 \
        else (float(total),)
    won = dict.fromkeys(seats, 0)
    for p in pots:
        for s, share in p.winners:
            won[s] += share
    b = seats.index(start.button)
    deal_order = seats[b + 1:] + seats[: b + 1]
    owner = next(s for s in deal_order if x.reveal_all or s == x.viewer)
    ended_at = len(ev)
    for i, e in enumerate(ev):
        if isinstance(e, HandEnded):
            ended_at = i
    shown = {e.seat: e.cards for e in ev if isinstance(e, HandShown)}
    at_showdown = {e.seat for e in ev[:ended_at] if isinstance(e, HandShown)} if end.showdown else set()
    after_hand = [e.seat for e in ev[ended_at:] if isinstance(e, HandShown)]
    last_street = max((e.street for e in ev if isinstance(e, BoardDealt)),
                      key=list(Street).index, default=Street.PREFLOP)
    posted = {e.seat: float(e.amount) for e in ev if isinstance(e, BlindPosted) and e.amount > 0}
    antes = {e.seat: float(e.amount) for e in ev if isinstance(e, AntePosted) and e.amount > 0}
    # pokerdf's "ante all-in": any all-in post line by the player, read only in a hand with an ante line.
    all_in_posts = {e.seat for e in ev if isinstance(e, (AntePosted, BlindPosted)) and e.all_in and e.amount > 0}

    rows: dict[str, dict[str, Any]] = {}
    for s, stack in start.stacks:
        actions: dict[Street, list[tuple[str, str]]] = {st: [] for st in _STAGE}
        all_in = dict.fromkeys(_STAGE, False)
        facing, street = start.big_blind, Street.PREFLOP
        folded = False
        returned = 0
        for e in ev:
            if isinstance(e, ActionTaken):
                if e.street is not street:
                    street, facing = e.street, 0
                if e.seat == s:
                    # pokerdf: folds and checks have no number after them, so it keeps none.
                    if e.action is ActionKind.CALL:
                        actions[e.street].append(("calls", str(e.amount)))
                    elif e.action is ActionKind.BET:
                        actions[e.street].append(("bets", str(e.to)))
                    elif e.action is ActionKind.RAISE:
                        actions[e.street].append(("raises", str(e.to - facing)))
                    all_in[e.street] |= e.all_in
                    folded |= e.action is ActionKind.FOLD
                facing = max(facing, e.to)
            elif isinstance(e, UncalledBetReturned) and e.seat == s:
                returned += e.amount
        if not end.showdown:
            # A show by choice after the hand lands in the last street's section, where
            # pokerdf's action pattern reads "NAME: shows [" as a verb without a number.
            actions[last_street] += [("shows", "")] * after_hand.count(s)
        if folded:
            result = "folded"
        elif s in at_showdown:
            result = "won at showdown" if won[s] else "lost at showdown"
        elif won[s]:
            result = "won without showdown"
        else:
            result = "folded"
        position = "button" if s == start.button else (
            "small blind" if s == start.small_blind_seat and s in posted and posted[s] else
            "big blind" if s == start.big_blind_seat else None)
        rows[name[s]] = {
            "HandID": str(hand_id(tournament_no, start.hand_no)),
            "TournID": str(tournament_no),
            "TableID": str(x.info.table_id),
            "Level": roman(x.info.level),
            "Blinds": [float(start.small_blind), float(start.big_blind)],
            "Playing": len(seats),
            **({"TableSize": x.info.seat_count} if x.info.seat_count and x.info.seat_count < 10 else {}),
            "Owner": file_owner or name[owner],
            "OwnersHand": _cards(holes[owner]),
            "Seat": s,
            "Stack": float(stack),
            "PostedBlind": posted.get(s),
            "PostedAnte": antes.get(s),
            "Ante": next(iter(antes.values()), None),
            "AnteAllIn": bool(antes) and s in all_in_posts,
            "Position": position,
            **{_STAGE[st]: [("", "")] if not a else a for st, a in actions.items()},
            **{_ALL_IN[st]: v for st, v in all_in.items()},
            "BoardFlop": boards.get(Street.FLOP, ()),
            "BoardTurn": boards.get(Street.TURN, ()),
            "BoardRiver": boards.get(Street.RIVER, ()),
            "RevealedCards": _cards(shown[s]) if s in shown else (None, None),
            "CardCombination": hand_description(holes[s] + tuple(
                c for e in ev if isinstance(e, BoardDealt) for c in e.cards)) if s in at_showdown else None,
            "Result": result,
            "Balance": float(won[s]) if won[s] else None,
            "UncalledReturned": float(returned) if returned else None,
            "TotalPotLog": float(total),
            "PotBreakdown": breakdown,
            "FinalRank": x.finishes.get(s, -1),
        }
    return rows


def _normal(key: str, value: Any) -> Any:
    value = _none(value)
    if key in ("PreflopAction", "FlopAction", "TurnAction", "RiverAction"):
        return [tuple(a) for a in value]
    if key in ("BoardFlop", "BoardTurn", "BoardRiver", "OwnersHand", "RevealedCards", "PotBreakdown"):
        return tuple(value)
    if key == "Blinds":
        return list(value)
    if key == "Result":
        return str(value.value if hasattr(value, "value") else value)
    return value


def check_file(text: str, expected: Sequence[Expected], tournament_no: int) -> int:
    """Parse ``text`` with pokerdf and compare every hand with ``expected`` (in file order);
    returns how many player rows agreed. Raises AssertionError naming the first difference."""
    df = apply_regex(text)
    want: list[tuple[str, dict[str, Any]]] = []
    file_owner: str | None = None
    for x in expected:
        rows = expected_rows(x, tournament_no, file_owner)
        file_owner = file_owner or next(iter(rows.values()))["Owner"]
        want.extend(rows.items())
    assert len(df) == len(want), f"pokerdf read {len(df)} player rows, the record has {len(want)}"
    checked = 0
    for (name, row), (_, got) in zip(want, df.iterrows(), strict=True):
        assert got["Player"] == name, (row["HandID"], got["Player"], name)
        for key, value in row.items():
            have = _normal(key, got[key])
            assert have == value, (
                f"hand {row['HandID']}, {name}: pokerdf read {key} = {have!r}, the record says {value!r}")
        checked += 1
    return checked
