"""The figures players and trackers keep, computed from hand records (the engine's events).

Each figure is a count over chances (``Ratio``): how often a player did a thing out of the
hands in which they could have. The definitions, with their edge cases, are in
docs/statistics.md; each one is a small function of one hand below (``_hand_figures``),
so a figure is tested on hands built by hand (tests/engine/test_stats.py).

Input is any sequence of hands, each its events and who sat where (seat -> player name);
the server passes its stored hands, the client the hands it saw. Hole cards are not
needed, so a spectator's or a player's view gives the same figures as the full record.
Pure: nothing here reads a clock or does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

from .actions import ActionKind
from .events import (
    ActionTaken,
    BoardDealt,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    PotAwarded,
    Street,
)

__all__ = ["PlayerStats", "Ratio", "compute_stats", "FIGURES"]

_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE)


@attrs.frozen
class Ratio:
    """``made`` out of ``chances``; ``percent`` is None with no chance at all."""

    made: int = 0
    chances: int = 0

    @property
    def percent(self) -> float | None:
        return 100.0 * self.made / self.chances if self.chances else None

    def __add__(self, other: Ratio) -> Ratio:
        return Ratio(self.made + other.made, self.chances + other.chances)

    def text(self) -> str:
        """``23%`` (rounded), or ``-`` with no chance."""
        p = self.percent
        return "-" if p is None else f"{p:.0f}%"


@attrs.frozen(kw_only=True)
class PlayerStats:
    """One player's figures over the hands given."""

    name: str
    hands: int = 0
    vpip: Ratio = Ratio()
    pfr: Ratio = Ratio()
    three_bet: Ratio = Ratio()
    fold_to_three_bet: Ratio = Ratio()
    bets_raises: int = 0  # after the flop
    calls: int = 0  # after the flop
    saw_flop: int = 0
    showdown: Ratio = Ratio()  # went to showdown, of the flops seen
    won_showdown: Ratio = Ratio()  # won chips, of the showdowns gone to
    biggest_pot: int = 0  # the most chips collected in one hand
    biggest_pot_hand: int | None = None

    @property
    def aggression(self) -> float | None:
        """(bets + raises) / calls after the flop; None without a call (and without a bet)."""
        if self.calls == 0:
            return None
        return self.bets_raises / self.calls

    def aggression_text(self) -> str:
        if self.calls == 0:
            return "-" if self.bets_raises == 0 else "inf"
        return f"{self.bets_raises / self.calls:.1f}"

    def cells(self) -> list[str]:
        """The figures as a view shows them, in ``FIGURES`` order: ``23%``, ``1.5``, ``-``."""
        pot = f"{self.biggest_pot:,}" + (
            f" (#{self.biggest_pot_hand})" if self.biggest_pot_hand is not None else "")
        return [str(self.hands), self.vpip.text(), self.pfr.text(), self.three_bet.text(),
                self.fold_to_three_bet.text(), self.aggression_text(), self.showdown.text(),
                self.won_showdown.text(), pot if self.biggest_pot else "-"]

    def row(self) -> dict[str, object]:
        """Every figure, as a flat row (for CSV, JSON and tables): counts and percentages."""
        out: dict[str, object] = {"name": self.name, "hands": self.hands}
        for key in ("vpip", "pfr", "three_bet", "fold_to_three_bet", "showdown", "won_showdown"):
            r: Ratio = getattr(self, key)
            p = r.percent
            out[key] = None if p is None else round(p, 1)
            out[f"{key}_made"] = r.made
            out[f"{key}_chances"] = r.chances
        agg = self.aggression
        out["aggression"] = None if agg is None else round(agg, 2)
        out["postflop_bets_raises"] = self.bets_raises
        out["postflop_calls"] = self.calls
        out["saw_flop"] = self.saw_flop
        out["biggest_pot"] = self.biggest_pot
        out["biggest_pot_hand"] = self.biggest_pot_hand
        return out


FIGURES: tuple[tuple[str, str], ...] = (
    ("hands", "Hands"), ("vpip", "VPIP"), ("pfr", "PFR"), ("three_bet", "3-bet"),
    ("fold_to_three_bet", "Fold to 3-bet"), ("aggression", "AF"), ("showdown", "WTSD"),
    ("won_showdown", "W$SD"), ("biggest_pot", "Biggest pot"),
)
"""The figures in the order views show them, with their short names."""


@attrs.define
class _Tally:
    hands: int = 0
    vpip: Ratio = Ratio()
    pfr: Ratio = Ratio()
    three_bet: Ratio = Ratio()
    fold_to_three_bet: Ratio = Ratio()
    bets_raises: int = 0
    calls: int = 0
    saw_flop: int = 0
    showdown: Ratio = Ratio()
    won_showdown: Ratio = Ratio()
    biggest_pot: int = 0
    biggest_pot_hand: int | None = None


def _preflop(events: Sequence[Event], seat: int) -> tuple[Ratio, Ratio, Ratio, Ratio]:
    """(VPIP, PFR, 3-bet, fold to 3-bet) chances and deeds of ``seat`` in one hand.

    Raises are counted before the flop, the big blind being the first bet: the first
    raise is the open (a 2-bet), the next a 3-bet. A player has a VPIP and PFR chance when
    they act at all before the flop (a walk, or all-in on the blind, is no chance); a
    3-bet chance when they act facing exactly one raise; a fold-to-3-bet chance when they
    made the open raise and act again facing the 3-bet.
    """
    raises = 0
    opener: int | None = None
    acted = voluntary = raised = False
    three = three_chance = False
    fold3 = fold3_chance = False
    for e in events:
        if not isinstance(e, ActionTaken) or e.street is not Street.PREFLOP:
            continue
        if e.seat == seat:
            if not acted:
                acted = True
            if raises == 1 and not three_chance and opener != seat:
                three_chance = True
                three = e.action is ActionKind.RAISE
            if raises == 2 and opener == seat and not fold3_chance:
                fold3_chance = True
                fold3 = e.action is ActionKind.FOLD
            if e.action in (ActionKind.CALL, ActionKind.RAISE, ActionKind.BET):
                voluntary = True
            if e.action in _AGGRESSIVE:
                raised = True
        if e.action in _AGGRESSIVE:
            raises += 1
            if raises == 1:
                opener = e.seat
    chance = int(acted)
    return (Ratio(int(voluntary), chance), Ratio(int(raised), chance),
            Ratio(int(three), int(three_chance)), Ratio(int(fold3), int(fold3_chance)))


def _hand_figures(events: Sequence[Event], seat: int, t: _Tally, hand_no: int) -> None:
    vpip, pfr, three, fold3 = _preflop(events, seat)
    t.hands += 1
    t.vpip += vpip
    t.pfr += pfr
    t.three_bet += three
    t.fold_to_three_bet += fold3
    folded_on: Street | None = None
    for e in events:
        if isinstance(e, ActionTaken) and e.seat == seat:
            if e.action is ActionKind.FOLD:
                folded_on = e.street
            elif e.street is not Street.PREFLOP:
                if e.action in _AGGRESSIVE:
                    t.bets_raises += 1
                elif e.action is ActionKind.CALL:
                    t.calls += 1
    flop = any(isinstance(e, BoardDealt) and e.street is Street.FLOP for e in events)
    saw_flop = flop and folded_on is not Street.PREFLOP
    end = next((e for e in events if isinstance(e, HandEnded)), None)
    showed = end is not None and end.showdown and folded_on is None and any(
        isinstance(e, HandShown) and e.seat == seat for e in events)
    collected = sum(share for e in events if isinstance(e, PotAwarded) for s, share in e.winners if s == seat)
    if saw_flop:
        t.saw_flop += 1
        t.showdown += Ratio(int(showed), 1)
    if showed:
        t.won_showdown += Ratio(int(collected > 0), 1)
    if collected > t.biggest_pot:
        t.biggest_pot, t.biggest_pot_hand = collected, hand_no


def compute_stats(hands: Iterable[tuple[Sequence[Event], Mapping[int, str]]]) -> dict[str, PlayerStats]:
    """Every player's figures over ``hands`` (each: its events, and seat -> name), by name,
    in the order players first appear. Unfinished hands are skipped."""
    tallies: dict[str, _Tally] = {}
    for events, names in hands:
        start = next((e for e in events if isinstance(e, HandStarted)), None)
        if start is None or not any(isinstance(e, HandEnded) for e in events):
            continue
        for seat, _ in start.stacks:
            name = names.get(seat) or f"seat {seat}"
            _hand_figures(events, seat, tallies.setdefault(name, _Tally()), start.hand_no)
    return {name: PlayerStats(name=name, **attrs.asdict(t, recurse=False)) for name, t in tallies.items()}
