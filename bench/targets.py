"""How every benchmark states a target: one line, a ratio against a peer measured in the
same run, and "met" or "NOT met", with the load average at that moment.

``make bench`` collects these lines (they all start with ``TARGET``) into one summary at
the end, so the verdicts of a whole run can be read in one place and grepped.
"""

from __future__ import annotations

import os


def load_average() -> str:
    """The one-minute load average and the CPU count: on a shared machine every figure
    depends on them, so each verdict carries them."""
    return f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"


def verdict(name: str, ratio: float, *, at_least: float | None = None, at_most: float | None = None,
            against: str, detail: str = "") -> bool:
    """Print ``TARGET name: ratio against peer (target ...): met|NOT met`` and return whether
    it was met. Exactly one of ``at_least`` / ``at_most`` is the target."""
    if (at_least is None) == (at_most is None):
        raise ValueError("a target is either at_least or at_most")
    met = ratio >= at_least if at_least is not None else ratio <= at_most  # type: ignore[operator]
    bound = f">= {at_least:g}" if at_least is not None else f"<= {at_most:g}"
    extra = f"; {detail}" if detail else ""
    print(f"TARGET {name}: {ratio:.3g} against {against} (target {bound}): "
          f"{'met' if met else 'NOT met'} ({load_average()}{extra})", flush=True)
    return met
