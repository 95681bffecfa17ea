"""Main and side pots, and splitting them.

A player is eligible only for the part of the pot they contributed to (rulebook, ALL IN).
Pots are built from each player's total contribution this hand: every distinct all-in
level cuts a side pot. Chips carried from an earlier hand's split join the main pot.
An odd chip that cannot be split stays in the pot for the next hand (rulebook, THE
SHOWDOWN): ``split`` returns it as the remainder rather than giving it to anyone.
A big-blind ante is dead money (TDA RP-11): it belongs to no player's contribution, so
every live player may win it, the big blind included when the ante was all they had.
"""

from __future__ import annotations

from collections.abc import Mapping, Set

import attrs

from .makers import maker


@attrs.frozen(kw_only=True, weakref_slot=False)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # seats that may win it, in seat order


make_pot = maker(Pot)
"""``Pot(amount, eligible)`` positionally (``poker.makers``): the engine makes pots at every
street's end and settle."""


def build_pots(
    committed: Mapping[int, int], live: Set[int], carried_in: int = 0, *, dead: int = 0
) -> list[Pot]:
    """Pots from each seat's chips in this hand; ``live`` are the seats not folded.

    Folded players' chips stay in the pots they reached but make them eligible for none.
    Each level is what some live player put in, so the next pot leaves that player out:
    every pot has fewer players than the one before (no two pots to merge).

    A hand never leaves chips above every live player's contribution (the unmatched part
    of a bet is returned first), but for any other caller such a slice goes to the live
    players who put in the most, and chips in with no live contribution at all to every
    live player: no chip is ever orphaned (``tests/engine/test_pots.py``).

    ``dead`` (the ante) joins the main pot, which every live player is in; when a live
    player put nothing in beyond it (a big blind all-in on the ante), it is a pot of its
    own before the others, for all the live players (as pokerkit builds it).
    """
    levels = sorted({c for s, c in committed.items() if s in live and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in committed.values())
        eligible = tuple(sorted(s for s in live if committed.get(s, 0) >= level))
        pots.append(make_pot(amount, eligible))
        previous = level
    if dead:
        if pots and len(pots[0].eligible) == len(live):
            pots[0] = make_pot(pots[0].amount + dead, pots[0].eligible)
        else:
            pots.insert(0, make_pot(dead, tuple(sorted(live))))
    leftover = sum(max(0, c - previous) for c in committed.values())
    if leftover:
        if pots:
            pots[-1] = make_pot(pots[-1].amount + leftover, pots[-1].eligible)
        else:
            pots.append(make_pot(leftover, tuple(sorted(live))))
    if carried_in:
        if pots:
            pots[0] = make_pot(pots[0].amount + carried_in, pots[0].eligible)
        else:
            pots.append(make_pot(carried_in, tuple(sorted(live))))
    return pots


def split(amount: int, winners: int) -> tuple[int, int]:
    """Each winner's equal share, and the remainder that stays for the next hand."""
    return amount // winners, amount % winners
