"""Raise sizes from the legal actions: the quick sizes and when all in is the only way on.

One home for what the full client's raise box and keys and the plain line mode both offer,
so the two never disagree about what "pot" means.
"""

from __future__ import annotations

from poker.actions import LegalActions

QUICK_LABELS = ("min", "half pot", "pot", "all in")
"""The quick sizes, in the order of keys 1 to 4: each key always means the same size."""


def quick_sizes(legal: LegalActions, pot_total: int) -> list[tuple[str, int]]:
    """The quick sizes: min, half pot, pot, all in (each a legal raise-to).

    The poker rule: a pot-sized raise is a call, then a raise by the pot as it stands
    after that call, so it goes to the bet to match plus (pot + my call); half pot raises
    by half of that. ``pot_total`` is every chip in the middle and in front now. Sizes
    outside the legal range are moved to its nearest end. All four are always listed,
    also when two come out equal, so key 3 is the pot whatever the amounts.
    """
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is None or hi is None:
        return []
    after_call = pot_total + legal.to_call
    sizes = (lo, legal.current_bet + after_call // 2, legal.current_bet + after_call, hi)
    return [(label, max(lo, min(hi, amount))) for label, amount in zip(QUICK_LABELS, sizes, strict=True)]


def all_in_is_the_only_way_on(legal: LegalActions) -> bool:
    """Nothing but folding or all in is left: no check, no call short of the stack, no
    bet or raise short of all in. Then going all in needs no confirmation."""
    if legal.check:
        return False
    if legal.call is not None and legal.call < legal.stack:
        return False
    return legal.min_raise_to is None or legal.min_raise_to == legal.max_raise_to


def whole_chips(raw: str, typed: str, example: str) -> int:
    """A number of chips typed as ``1200`` or ``1.2k`` (``raw``: lower case, separators
    taken out; ``typed``: as typed, for the message), or ValueError naming ``example``."""
    mult = 1
    if raw.endswith("k"):
        mult, raw = 1000, raw[:-1]
    try:
        value = float(raw) * mult if "." in raw else int(raw) * mult
    except ValueError:
        raise ValueError(f"{typed.strip()!r} is not an amount: type whole chips, {example}") from None
    if value != int(value) or value < 0:
        raise ValueError(f"{typed.strip()!r} is not a whole number of chips")
    return int(value)
