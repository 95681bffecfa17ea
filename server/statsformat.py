"""Players' statistics (``poker.stats``) as text, CSV, JSON and an HTML page.

Used by ``hickory-server stats`` and by ``hickory-server standings --stats`` (both in
``server/standings_tool.py``). Names are printed through ``printable`` in text and escaped in
HTML, so a name cannot rearrange a terminal line or inject markup.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence

from poker.stats import FIGURES, PlayerStats
from protocol.names import printable

HEADINGS = {key: title for key, title in FIGURES}
CSV_COLUMNS = (
    "name", "hands", "vpip", "vpip_made", "vpip_chances", "pfr", "pfr_made", "pfr_chances",
    "three_bet", "three_bet_made", "three_bet_chances", "fold_to_three_bet",
    "fold_to_three_bet_made", "fold_to_three_bet_chances", "aggression", "postflop_bets_raises",
    "postflop_calls", "saw_flop", "showdown", "showdown_made", "showdown_chances", "won_showdown",
    "won_showdown_made", "won_showdown_chances", "biggest_pot", "biggest_pot_hand",
)


def cells(p: PlayerStats) -> list[str]:
    """One player's figures as a view shows them, in ``FIGURES`` order."""
    return p.cells()


def stats_text(players: Sequence[PlayerStats]) -> str:
    names = [printable(p.name) for p in players]
    width = max([6, *(len(n) for n in names)])
    titles = [title for _, title in FIGURES]
    rows = [cells(p) for p in players]
    widths = [max(len(t), *(len(r[i]) for r in rows)) if rows else len(t) for i, t in enumerate(titles)]
    lines = [f"{'Player':<{width}}  " + "  ".join(t.rjust(w) for t, w in zip(titles, widths, strict=True))]
    for name, row in zip(names, rows, strict=True):
        lines.append(f"{name:<{width}}  " + "  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))
    lines.append("")
    lines.append("VPIP and PFR: of the hands with a decision before the flop; 3-bet: of the times facing "
                 "one raise; AF: bets and raises over calls after the flop; WTSD: showdowns of the "
                 "flops seen; W$SD: won of the showdowns (docs/statistics.md).")
    return "\n".join(lines) + "\n"


def stats_rows(players: Sequence[PlayerStats]) -> list[dict[str, object]]:
    return [p.row() for p in players]


def stats_json(players: Sequence[PlayerStats]) -> str:
    return json.dumps({"players": stats_rows(players)}, ensure_ascii=False)


def stats_csv(players: Sequence[PlayerStats]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in stats_rows(players):
        writer.writerow({k: "" if row[k] is None else row[k] for k in CSV_COLUMNS})
    return out.getvalue()


def stats_table_html(players: Sequence[PlayerStats]) -> str:
    head = "".join(f"<th>{html.escape(t)}</th>" for _, t in FIGURES)
    body = "".join(
        "<tr><td>" + html.escape(p.name) + "</td>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells(p))
        + "</tr>" for p in players)
    return f'<table class="stats"><thead><tr><th>Player</th>{head}</tr></thead><tbody>{body}</tbody></table>'


def stats_html(players: Sequence[PlayerStats], title: str) -> str:
    t = html.escape(title)
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}: statistics</title>"
            "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
            "td,th{border:1px solid #999;padding:.2em .6em;text-align:right}"
            "td:first-child,th:first-child{text-align:left}</style></head>"
            f"<body><h1>{t}: statistics</h1>{stats_table_html(players)}"
            "<p>VPIP and PFR: of the hands with a decision before the flop; 3-bet: of the times "
            "facing one raise; AF: bets and raises over calls after the flop; WTSD: showdowns of "
            "the flops seen; W$SD: won of the showdowns.</p></body></html>\n")
