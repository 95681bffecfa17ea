"""The night's results as a host shares them: CSV for a spreadsheet, an HTML page to print or post.

Both read the same data as ``hickory-server standings`` (``reports.standings_data``): the
places, and the trophies (winner and runner-up by the rules at the end, then the
director's). Names are escaped, never trusted: they come from players.
"""

from __future__ import annotations

import csv
import html
import io
from typing import Any


def results_csv(data: dict[str, Any]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["place", "player_id", "name", "chips", "eliminated_in_hand", "trophies"])
    won: dict[str, list[str]] = {}
    for t in data["trophies"]:
        won.setdefault(t["player_id"], []).append(t["title"])
    for p in data["places"]:
        w.writerow([
            "" if p["place"] is None else p["place"], p["player_id"], _cell(p["name"]),
            0 if p["eliminated"] else p["chips"], p.get("eliminated_in_hand") or "",
            "; ".join(_cell(x) for x in won.get(p["player_id"], [])),
        ])
    return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet runs a cell starting with = + - @ as a formula: a name must not."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def results_html(data: dict[str, Any]) -> str:
    e = html.escape
    rows = []
    for p in data["places"]:
        chips = "" if p["eliminated"] else f"{p['chips']:,}"
        out = f"hand #{p['eliminated_in_hand']}" if p.get("eliminated_in_hand") else ""
        rows.append(f"<tr><td>{'' if p['place'] is None else p['place']}</td><td>{e(p['name'])}</td>"
                    f"<td class=n>{chips}</td><td>{out}</td></tr>")
    trophies = "".join(f"<li><b>{e(t['title'])}</b>: {e(t['name'])}</li>" for t in data["trophies"])
    state = "Final results" if data["state"] == "finished" else f"Standings ({e(data['state'])})"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{e(data['name'])}: {state}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border-bottom: 1px solid #ccc; padding: .3rem .6rem; text-align: left; }}
td.n {{ text-align: right; font-variant-numeric: tabular-nums; }}
</style></head><body>
<h1>{e(data['name'])}</h1>
<h2>{state}</h2>
{f'<h3>Trophies</h3><ul>{trophies}</ul>' if trophies else ''}
<table><thead><tr><th>Place</th><th>Player</th><th>Chips</th><th>Out in</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
<p>{data['players']} players, {data['hands_dealt']} hands.</p>
</body></html>
"""
