"""The standings: places, names and chips, as the side panel's tab and as a whole screen."""

from __future__ import annotations

from client.model import ClientModel
from client.model.log import chips
from client.tui.canvas import Canvas, Lines


def standings_lines(model: ClientModel, width: int) -> Lines:
    places = model.standings
    if not places and model.lobby is not None:
        ranked = sorted(model.lobby.players, key=lambda p: -p.chips)
        rows = [(i + 1, p.player_id, p.name, p.chips, p.status == "eliminated") for i, p in enumerate(ranked)]
    else:
        # A player who re-entered has a line per entry (version 3): say which is which.
        rows = [(p.place, p.player_id, p.name + (f" (entry {p.entry})" if (p.entries or 1) > 1 else ""),
                 p.chips, p.eliminated_in_hand is not None) for p in places]
    if not rows:
        return [[("class:dim", "(no standings yet)")]]
    out: Lines = []
    name_w = max(4, width - 4 - 10)
    for place, pid, name, amount, out_ in rows:
        style = "class:standing.me" if pid == model.me.player_id else "class:standing"
        if out_:
            style += " class:dim"
        nm = name if len(name) <= name_w else name[: name_w - 1] + "~"
        amt = "out" if out_ else chips(amount)
        out.append([(style, f"{place:>2}. {nm:<{name_w}}{amt:>{width - 4 - name_w}}")])
    return out


def render_standings(model: ClientModel, width: int, height: int) -> Lines:
    """The standings overlay: the whole table of places, centred."""
    c = Canvas(width, height)
    c.center(0, [("class:title bold", "Standings" + (" (final)" if model.standings_final else ""))])
    for i, line in enumerate(standings_lines(model, min(width - 2, 50))[: height - 2]):
        c.write(1 + i, max(1, (width - 50) // 2), line)
    c.center(height - 1, [("class:dim", "Esc closes")])
    return c.lines()
