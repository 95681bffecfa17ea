"""The statistics overlay (i): every player at this table, over the hands this client saw.

The hands are those seen whole at this table (``model.seen``, the engine's events rebuilt
from the live messages), so a player, a spectator and the director each see the figures
of what they watched; ``poker.stats`` computes them (docs/statistics.md).
"""

from __future__ import annotations

from client.model import ClientModel
from client.tui.canvas import Canvas, Lines
from poker.stats import FIGURES, PlayerStats, compute_stats
from protocol.names import printable


def table_stats(model: ClientModel) -> tuple[list[PlayerStats], int]:
    """(the figures of the players at this table, how many hands they come from)."""
    table = model.table
    if table is None:
        return [], 0
    hands = [h for h in model.seen.hands if h.info.table_id == table.table]
    figures = compute_stats((h.events, h.info.players) for h in hands)
    here = [seat.name for _, seat in sorted(table.seats.items())]
    return [figures[n] for n in here if n in figures], len(hands)


def stats_lines(players: list[PlayerStats], hands: int, table: int | None) -> Lines:
    titles = [title for _, title in FIGURES]
    rows = [p.cells() for p in players]
    names = [printable(p.name) for p in players]
    width = max([6, *(len(n) for n in names)])
    widths = [max([len(t), *(len(r[i]) for r in rows)]) for i, t in enumerate(titles)]
    out: Lines = [[("class:title bold", f"Statistics · table {table} · from the {hands} hands you saw here")], []]
    out.append([("class:dim", f"{'Player':<{width}}  " + "  ".join(t.rjust(w) for t, w in zip(titles, widths, strict=True)))])
    for name, row in zip(names, rows, strict=True):
        out.append([("", f"{name:<{width}}  " + "  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))])
    out.append([])
    for text in ("VPIP, PFR: of the hands with a decision before the flop. 3-bet: of the times facing one raise.",
                 "AF: bets and raises over calls after the flop. WTSD: showdowns of the flops seen. W$SD: won",
                 "of the showdowns. Biggest pot: the most collected in one hand (hand number)."):
        out.append([("class:dim", text)])
    return out


def render_stats(model: ClientModel, width: int, height: int) -> Lines:
    c = Canvas(width, height)
    players, hands = table_stats(model)
    if not players:
        c.center(height // 2, [("class:dim", "no hand seen whole at this table yet")])
        return c.lines()
    lines = stats_lines(players, hands, model.table.table if model.table is not None else None)
    for i, line in enumerate(lines[: height - 1]):
        c.write(i, 1, line, width - 2)
    c.center(height - 1, [("class:dim", "i or Esc closes")])
    return c.lines()
