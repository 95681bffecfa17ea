"""Pure functions from the client model to styled lines: everything the player sees.

``render_screen(model, ui, width, height, now)`` returns exactly ``height`` lines of at most
``width`` columns, so the Application only has to show them (and a terminal resize only
has to call it again with the new size). Nothing here reads a clock, the network or the
terminal: ``now`` is passed in (seconds on the clock the session stamps messages with), so
the tests render any state at any size and assert on the text.

Screen at 80x24, seated at a table::

    header: tournament, level and blinds, time to the next level, table and hand
    table (seats around the board and pots)            | side panel: log / chat / standings
    my cards, drawn large | my hand's name | action keys with amounts
    clock bar: the action clock, then the time bank
    (the bottom line, notices or the text box, is drawn by the layout)
"""

from __future__ import annotations

import datetime as dt
import textwrap
from collections.abc import Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.model import ClientModel, ConnectionState, PendingTurn, TableModel
from client.tui.canvas import Canvas, fragments_width
from client.tui.cards import big_cards, card_back, small_card, small_cards
from client.tui.state import InputMode, Overlay, Panel, Tone, UiState
from poker.cards import RANK_NAMES, RANK_PLURALS, RANKS, parse_card
from poker.evaluator import evaluate
from protocol import messages as m

Lines = list[StyleAndTextTuples]

BOTTOM_HEIGHT = 5
"""Rows under the table: four for my cards and the action keys, one for the clock bar."""

MIN_WIDTH = 50
MIN_HEIGHT = 18
"""Below this (the screen above the bottom line) the table cannot be drawn legibly."""
MIN_SIDE = 24
MAX_SIDE = 40


def chips(n: int) -> str:
    return f"{n:,}"


def clock_text(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


# =====================================================================================
# The whole screen
# =====================================================================================


def render_screen(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    """The screen above the bottom line, exactly ``height`` lines of ``width`` columns."""
    if width <= 0 or height <= 0:
        return [[] for _ in range(max(0, height))]
    header = render_header(model, width, now)[: max(1, height - 1)]
    body_h = height - len(header)
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        lines = [("class:error", "The terminal is too small"),
                 ("", f"make it at least {MIN_WIDTH}x{MIN_HEIGHT + 1}"), ("class:dim", "q quits")]
        return [*header, *render_message_box(lines, width, body_h)]
    conn = model.connection
    if conn in (ConnectionState.CONNECTING, ConnectionState.REFUSED, ConnectionState.CLOSED) and (
        model.table is None or conn is not ConnectionState.CLOSED
    ):
        if conn is ConnectionState.CONNECTING and model.me.role is None:
            return [*header, *render_message_box(connecting_lines(model, ui), width, body_h)]
        if conn is not ConnectionState.CONNECTING:
            return [*header, *render_message_box(refused_lines(model, ui), width, body_h)]
    if ui.overlay is not None:
        body = render_overlay(model, ui, width, body_h, now)
    elif model.table is None:
        body = render_lobby(model, ui, width, body_h, now)
    else:
        body = render_table_screen(model, ui, width, body_h, now)
    if conn is ConnectionState.RECONNECTING:
        body = banner_over(body, width, reconnecting_lines(model, width))
    return [*header, *body]


def connecting_lines(model: ClientModel, ui: UiState) -> list[tuple[str, str]]:
    where = f" to {ui.server_label}" if ui.server_label else ""
    return [
        ("class:title", f"Hickory: connecting{where}..."),
        ("", ""),
        ("class:dim", "q quits"),
    ]


def refused_lines(model: ClientModel, ui: UiState) -> list[tuple[str, str]]:
    if model.connection is ConnectionState.REFUSED:
        title = "The server refused this client"
    else:
        title = "Disconnected"
    reason = model.connection_reason or model.goodbye or "the connection closed"
    out: list[tuple[str, str]] = [("class:error bold", title), ("", "")]
    out += [("", line) for line in textwrap.wrap(reason, 60) or [reason]]
    out += [("", ""), ("class:dim", "q quits")]
    return out


def reconnecting_lines(model: ClientModel, width: int) -> list[tuple[str, str]]:
    reason = model.connection_reason or "connection lost"
    room = max(20, min(70, width - 6))
    out = [("class:banner bold", "reconnecting...")]
    out += [("class:banner", line) for line in textwrap.wrap(reason, room)[:3]]
    out += [("class:banner", line) for line in textwrap.wrap(
        "your seat is kept; if your clock runs out the server checks or folds for you", room)]
    return out


def render_message_box(lines: list[tuple[str, str]], width: int, height: int) -> Lines:
    c = Canvas(width, height)
    top = max(0, (height - len(lines)) // 2)
    for i, (style, text) in enumerate(lines):
        c.center(top + i, [(style, text[:width])])
    return c.lines()


def banner_over(body: Lines, width: int, lines: list[tuple[str, str]]) -> Lines:
    """Dim the body and put a framed banner in its middle (the reconnecting state)."""
    height = len(body)
    dimmed: Lines = [[("class:stale " + f[0], f[1]) for f in line] for line in body]
    inner = min(width - 4, max(fragments_width([ln]) for ln in lines) + 4)
    top = max(0, (height - len(lines) - 2) // 2)
    left = max(0, (width - inner - 4) // 2)
    box: list[tuple[str, str]] = [("class:banner", "+" + "-" * inner + "+")]
    for style, text in lines:
        box.append((style, "|" + text[:inner].center(inner) + "|"))
    box.append(("class:banner", "+" + "-" * inner + "+"))
    for i, (style, text) in enumerate(box):
        row = top + i
        if not 0 <= row < height:
            continue
        c = Canvas(width, 1)
        c.text(0, left, f" {text} ", style)
        dimmed[row] = c.lines()[0]
    return dimmed


# =====================================================================================
# Header: tournament, level, clock, table
# =====================================================================================


def level_text(model: ClientModel, now: float) -> str:
    lobby = model.lobby
    if lobby is None:
        return ""
    if lobby.level is None:
        if lobby.schedule:
            first = lobby.schedule[0]
            return f"starts at {chips(first.small_blind)}/{chips(first.big_blind)}"
        return ""
    lv = lobby.level
    text = f"Level {lv.index + 1} {chips(lv.small_blind)}/{chips(lv.big_blind)}"
    left = next_level_left(model, now)
    if left is not None:
        text += f" · next {left}"
    if lobby.state == "paused":
        text += " · PAUSED"
    return text


def next_level_left(model: ClientModel, now: float) -> str | None:
    lobby = model.lobby
    if lobby is None or lobby.next_level_in is None:
        return None
    if lobby.next_level_unit == "hands":
        n = lobby.next_level_in
        return f"in {n} hand" + ("" if n == 1 else "s")
    left = float(lobby.next_level_in)
    received = model.lobby_received_at
    if received is not None and lobby.state == "running":
        left -= now - received
    return clock_text(left)


HEADER_HEIGHT = 2
"""The header: the title and who I am, then the live figures of the tournament."""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def figures(model: ClientModel, now: float) -> list[tuple[str, int]]:
    """The live figures, each with a priority (the lowest goes first when short of room):
    level, blinds and time to the next level; table and hand; players left; my place by
    chips; the average stack; my stack in big blinds."""
    parts: list[tuple[str, int]] = [(level_text(model, now), 9)]
    t = model.table
    if t is not None:
        parts.append((f"Table {t.table}" + (f" · Hand #{t.hand_no}" if t.hand_no is not None else ""), 6))
    left = model.players_left
    lobby = model.lobby
    if left is not None and lobby is not None and lobby.state != "registering":
        parts.append((f"{left} left", 8))
        place = model.chip_place
        if place is not None:
            parts.append((f"you {ordinal(place)}", 7))
        avg = model.average_stack
        if avg is not None:
            parts.append((f"avg {chips(avg)}", 4))
    me = model.my_seat
    bb = t.big_blind if t is not None else 0
    if me is not None and bb:
        parts.append((f"{me.stack / bb:.1f} BB" if me.stack < 10 * bb else f"{me.stack // bb} BB", 5))
    return [(text, prio) for text, prio in parts if text]


def render_header(model: ClientModel, width: int, now: float) -> Lines:
    """Two lines: the tournament's name and who I am; then the live figures.

    Nothing is cut at 80 columns: a title longer than its room is shortened with "~"
    only after the figures moved to their own line; the figures drop the least needed
    first (the average, then my stack in big blinds) when even that line is short.
    """
    name = model.tournament or (model.lobby.name if model.lobby else None) or "Hickory"
    role = model.me.role
    who = {"spectator": "watching", "director": "DIRECTOR"}.get(role or "", model.me.name or "")
    # Every deck checked once the seeds are revealed (docs/fairness.md).
    checked = model.decks.status if model.decks is not None else None
    deck = None if checked is None else "deck \u2713" if checked == "verified" else "DECK CHECK FAILED (see log)"
    right = " · ".join(x for x in (who, deck, "? help") if x) + " "
    room = max(0, width - len(right) - 2)
    left = " " + (name if len(name) <= room else name[: max(0, room - 1)] + "~")
    top = Canvas(width, 1, "class:header")
    top.text(0, 0, left, "class:header bold")
    top.text(0, max(len(left) + 1, width - len(right)), right, "class:header")
    parts = figures(model, now)

    def joined() -> str:
        return " " + " · ".join(p for p, _ in parts)

    line = joined()
    while len(line) > width and len(parts) > 1:
        parts.remove(min(parts, key=lambda p: p[1]))
        line = joined()
    second = Canvas(width, 1, "class:header.figures")
    second.text(0, 0, line, "class:header.figures")
    return [top.lines()[0], second.lines()[0]]


# =====================================================================================
# The table screen
# =====================================================================================


def side_width(width: int) -> int:
    """Columns of the side panel (0 when the terminal is too narrow for one)."""
    if width < 64:
        return 0
    return max(MIN_SIDE, min(MAX_SIDE, width // 3))


def render_table_screen(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    t = model.table
    assert t is not None
    bottom_h = BOTTOM_HEIGHT if height >= 12 else 0
    main_h = height - bottom_h
    side_w = side_width(width)
    table_w = width - side_w - (1 if side_w else 0)
    table_lines = render_table(t, ui.ascii, table_w, main_h, model.me.role == "spectator")
    if side_w:
        side_lines = render_side_panel(model, ui, side_w, main_h)
        main = [
            [*tl, ("class:frame", "\u2502" if not ui.ascii else "|"), *sl]
            for tl, sl in zip(table_lines, side_lines, strict=True)
        ]
    else:
        main = table_lines
    if bottom_h:
        main += render_bottom(model, ui, width, bottom_h, now)
    return main


def seat_slots(width: int, height: int, box_w: int) -> list[tuple[int, int]]:
    """Ten seat positions (row, col) clockwise from the bottom middle, as seen on screen.

    Three along the bottom, two up the left side, three along the top, two down the right:
    the seat at the bottom middle is mine (or the lowest seat for a spectator).
    """
    cols = [
        max(0, min(width - box_w, round(width * f - box_w / 2))) for f in (1 / 6, 1 / 2, 5 / 6)
    ]
    top, bottom = 0, max(0, height - 3)
    gap = max(0, (height - 12) // 3)
    r1 = min(3 + gap, max(0, bottom - 3))
    r2 = max(r1 + 3, bottom - 3 - gap) if height >= 12 else r1
    left, right = 0, max(0, width - box_w)
    return [
        (bottom, cols[1]),
        (bottom, cols[0]),
        (r2, left),
        (r1, left),
        (top, cols[0]),
        (top, cols[1]),
        (top, cols[2]),
        (r1, right),
        (r2, right),
        (bottom, cols[2]),
    ]


def slot_order(max_seats: int) -> list[int]:
    """Which of the ten slots each of ``max_seats`` seats takes, spread evenly."""
    n = max(1, min(10, max_seats))
    return [round(i * 10 / n) % 10 for i in range(n)]


def seat_numbers(t: TableModel) -> list[int]:
    """The table's seat numbers in order, 1 to max_seats as the protocol says. Any occupied
    seat outside the range is added so nobody is ever left off the screen."""
    numbers = set(range(1, t.max_seats + 1)) | set(t.seats)
    return sorted(numbers)[:10] if len(numbers) > 10 else sorted(numbers)


def render_table(t: TableModel, ascii: bool, width: int, height: int, spectator: bool) -> Lines:
    c = Canvas(width, height)
    box_w = max(10, min(18, (width - 4) // 3 - 1))
    slots = seat_slots(width, height, box_w)
    numbers = seat_numbers(t)
    order = slot_order(len(numbers))
    bottom = numbers.index(t.your_seat) if t.your_seat in numbers else 0
    for i, seat in enumerate(numbers):
        slot = slots[order[(i - bottom) % len(numbers)]]
        draw_seat(c, t, seat, slot[0], slot[1], box_w, ascii)
    # The felt in the middle: street, board, pots.
    left = box_w + 1
    right = width - box_w - 1
    if right - left < 16:
        left, right = 0, width
    mid_top = 3
    mid_bottom = max(mid_top, height - 3)
    rows = mid_bottom - mid_top
    centre = render_centre(t, ascii, right - left, rows)
    start = mid_top + max(0, (rows - len(centre)) // 2)
    for i, line in enumerate(centre):
        c.center(start + i, line, left, right)
    return c.lines()


def seat_lines(t: TableModel, seat: int, box_w: int, ascii: bool) -> tuple[Lines, str]:
    """The three lines of one seat's box, and the box's style."""
    s = t.seats.get(seat)
    if s is None:
        return [[("class:seat.empty", "(empty)")], [], []], "class:seat.empty"
    me = seat == t.your_seat
    to_act = t.to_act == seat and t.street is not None
    marker = ("> " if ascii else "\u25b6 ") if to_act else ""
    tags = []
    if seat == t.button:
        tags.append(("class:button", "D"))
    if t.street is not None:
        if seat == t.small_blind_seat:
            tags.append(("class:blind", "SB"))
        if seat == t.big_blind_seat:
            tags.append(("class:blind", "BB"))
    tag_w = sum(len(x[1]) + 1 for x in tags)
    name_room = max(3, box_w - len(marker) - tag_w)
    name = s.name if len(s.name) <= name_room else s.name[: name_room - 1] + "~"
    line1: StyleAndTextTuples = [("class:seat.marker", marker), ("class:seat.name bold", name)]
    pad = box_w - len(marker) - len(name) - tag_w
    if tags:
        line1.append(("", " " * max(1, pad)))
        for i, tag in enumerate(tags):
            if i:
                line1.append(("", " "))
            line1.append(tag)
    stack = "all in" if s.all_in and s.stack == 0 else chips(s.stack)
    line2: StyleAndTextTuples = [("class:seat.stack", stack)]
    status = []
    if s.sitting_out:
        status.append("sitting out")
    if not s.connected:
        status.append("offline")
    if status:
        words = " ".join(status)
        if len(stack) + 1 + len(words) > box_w:
            words = words.replace("sitting out", "out")
        line2.append(("", " "))
        line2.append(("class:seat.status", words))
    line3: StyleAndTextTuples = []
    folded = s.folded and t.street is not None and s.in_hand
    if s.cards and (not me or t.street is None or s.shown):
        line3 += small_cards(s.cards, ascii)
    elif folded:
        line3.append(("class:seat.folded", "folded"))
    elif s.in_hand and t.street is not None and not me:
        line3 += card_back(ascii) + [("", " ")] + card_back(ascii)
    if s.bet:
        if line3:
            line3.append(("", " "))
        line3.append(("class:seat.bet", f"bet {chips(s.bet)}"))
    elif s.last and s.last not in ("fold",) and not s.cards and t.street is not None:
        if line3:
            line3.append(("", " "))
        line3.append(("class:seat.last", s.last))
    if s.shown and fragments_width(line3) + len(s.shown) + 1 <= box_w:
        line3 += [("", " "), ("class:seat.shown", s.shown)]
    won = t.winners.get(seat) if t.street is None else None
    if won is not None:
        line2 += [("", " "), ("class:seat.won bold", f"+{chips(won.amount)}")]
    style = "class:seat"
    if me:
        style += " class:seat.me"
    if won is not None:
        style = "class:seat.winner"
    if to_act:
        style = "class:seat.toact"
    elif folded or s.sitting_out or not s.connected:
        style += " class:seat.inactive"
    return [line1, line2, line3], style


def draw_seat(c: Canvas, t: TableModel, seat: int, row: int, col: int, box_w: int, ascii: bool) -> None:
    lines, style = seat_lines(t, seat, box_w, ascii)
    if seat not in t.seats:
        c.write(row + 1, col, [("class:seat.empty", f"seat {seat}".center(box_w))], box_w)
        return
    c.fill(row, col, box_w, 3, style)
    for i, line in enumerate(lines):
        c.write(row + i, col, [(style + " " + f[0], f[1]) for f in line], box_w)


STREET_NAMES = {
    "preflop": "Preflop",
    "flop": "Flop",
    "turn": "Turn",
    "river": "River",
    "showdown": "Showdown",
}


def render_centre(t: TableModel, ascii: bool, width: int, rows: int) -> Lines:
    """Street, board and pots, each line to be centred on the felt."""
    out: Lines = []
    if t.street is not None:
        out.append([("class:street", STREET_NAMES.get(str(t.street), str(t.street)))])
    elif t.hand_no is not None:
        out.append([("class:street", f"Hand #{t.hand_no} is over")])
        hands = []
        for seat, won in sorted(t.winners.items(), key=lambda kv: -kv[1].amount)[:2]:
            out.append([("class:winner bold", f"{t.name_of(seat)} wins {chips(won.amount)}"[:width])])
            if won.hand and won.hand not in hands:
                hands.append(won.hand)
        for hand in hands[:1]:
            for piece in textwrap.wrap(hand, max(10, width))[:2]:
                out.append([("class:winner", piece)])
    else:
        out.append([("class:street", "Waiting for the first hand")])
    board: StyleAndTextTuples = []
    for i in range(5):
        if i:
            board.append(("", " "))
        if i < len(t.board):
            card = t.board[i]
            board += [("class:card.face " + f[0], f[1]) for f in small_card(card, ascii)]
        else:
            board.append(("class:card.empty", "__" if ascii else "\u00b7\u00b7"))
    out.append(board)
    out.append([])
    out += pot_lines(t, width)
    if len(out) > rows:
        out = out[: max(0, rows)]
    return out


def pot_lines(t: TableModel, width: int) -> Lines:
    """Main pot, each side pot on its own line (who can win it), carried chips, total."""
    lines: Lines = []
    pots = [p for p in t.pots if p.amount]
    if sum(p.amount for p in pots) > t.collected:
        # A snapshot taken mid-round counts the bets in front in its pots; how they will
        # split is only known when the round closes, so show what is gathered so far.
        pots = [m.Pot(amount=t.collected, eligible=())] if t.collected else []
    for i, pot in enumerate(pots):
        label = "Pot" if i == 0 else f"Side pot {i}"
        text = f"{label} {chips(pot.amount)}"
        if i > 0 or len(pots) > 1:
            names = ", ".join(t.name_of(s) for s in pot.eligible)
            if names and len(text) + len(names) + 3 <= width:
                text += f" ({names})"
        lines.append([("class:pot", text)])
    if t.carried:
        odd = "chip" if t.carried == 1 else "chips"
        text = f"+{t.carried} odd {odd} carried in"
        if len(text) > width:
            text = f"+{t.carried} {odd} carried in"
        lines.append([("class:pot.carried", text)])
    total = t.pot_total
    if total and (len(pots) != 1 or any(s.bet for s in t.seats.values())):
        lines.append([("class:pot.total", f"Total {chips(total)}")])
    return lines


# -- my cards, the action keys and the clock --------------------------------------------


def hand_name(cards: Sequence[str] | None, board: Sequence[str]) -> str | None:
    """What my cards make with the board so far ("Pair of kings"); preflop, what they are."""
    if not cards or len(cards) != 2:
        return None
    if len(board) >= 3:
        try:
            return evaluate([parse_card(c) for c in (*cards, *board)]).name
        except ValueError:
            return None
    r1, r2 = (RANKS.index(c[0]) for c in cards)
    if r1 == r2:
        return f"Pocket {RANK_PLURALS[r1]}"
    hi, lo = max(r1, r2), min(r1, r2)
    suited = " suited" if cards[0][1] == cards[1][1] else ""
    return f"{RANK_NAMES[hi].capitalize()}-{RANK_NAMES[lo]}{suited}"


def my_lobby_status(model: ClientModel) -> str | None:
    if model.lobby is None or model.me.player_id is None:
        return None
    for p in model.lobby.players:
        if p.player_id == model.me.player_id:
            return p.status
    return None


def is_my_turn(model: ClientModel) -> bool:
    """It is my turn and I have not answered it yet: the only time action keys work."""
    turn = model.turn
    return (
        turn is not None
        and not turn.acted
        and model.connection is ConnectionState.CONNECTED
        and model.me.role == "player"
    )


def action_keys(turn: PendingTurn, width: int = 1000) -> StyleAndTextTuples:
    """The keys I may press now, each with its amount, from the server's legal actions.

    Shortened (the raise range left out) when the full line does not fit in ``width``.
    """
    full = _action_keys(turn, compact=False)
    return full if fragments_width(full) <= width else _action_keys(turn, compact=True)


def _action_keys(turn: PendingTurn, compact: bool) -> StyleAndTextTuples:
    legal = turn.legal
    out: StyleAndTextTuples = []

    def key(k: str, label: str) -> None:
        if out:
            out.append(("", "  "))
        out.append(("class:key", k))
        out.append(("class:keylabel", " " + label))

    if legal.fold:
        key("f", "fold")
    if legal.check:
        key("c", "check")
    elif legal.call is not None:
        all_in = legal.call >= legal.stack
        key("c", f"call {chips(legal.call)}" + (" (all in)" if all_in else ""))
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        word = "bet" if legal.is_bet else "raise"
        if legal.min_raise_to < legal.max_raise_to:
            if compact:
                key("r", f"{word} {chips(legal.min_raise_to)}+")
            else:
                key("r", f"{word} {chips(legal.min_raise_to)}-{chips(legal.max_raise_to)}")
    amount = all_in_amount(turn)
    if amount is not None:
        key("m", "all in" if compact else f"all in {chips(amount)}")
    return out


def all_in_amount(turn: PendingTurn) -> int | None:
    """My all-in total if the server lets me go all in now (a raise to it, or a call of it)."""
    legal = turn.legal
    if legal.max_raise_to is not None:
        return legal.max_raise_to
    if legal.call is not None and legal.call >= legal.stack:
        return legal.bet + legal.call
    return None


def clock_bar(turn: PendingTurn, width: int, now: float, ascii: bool) -> StyleAndTextTuples:
    """The action clock counting down, then the time bank."""
    msg = turn.msg
    deadline, bank = turn.deadline, turn.bank_deadline
    if deadline is None or bank is None:
        return [("class:clock", f"clock {clock_text(msg.deadline_ms / 1000)}")]
    full, empty = ("#", "-") if ascii else ("\u2588", "\u2591")
    if now < deadline:
        label, left, total, style = "Clock", deadline - now, msg.deadline_ms / 1000, "class:clock"
    else:
        label, left, total, style = (
            "Time bank", bank - now, max(0.001, msg.time_bank_ms / 1000), "class:clock.bank",
        )
    left = max(0.0, left)
    tail = f" {clock_text(left)}"
    bar_w = max(0, width - len(label) - len(tail) - 1)
    filled = round(bar_w * min(1.0, left / total)) if total > 0 else 0
    if left < 5:
        style = "class:clock.urgent"
    return [
        (style + " bold", label + " "),
        (style, full * filled),
        ("class:clock.empty", empty * (bar_w - filled)),
        (style + " bold", tail),
    ]


def other_clock(t: TableModel, who: str, width: int, now: float, ascii: bool) -> StyleAndTextTuples:
    """Whose turn it is and, when the server said (``turn``, protocol v2), their clock."""
    clock = t.clock
    if clock is None or clock.seat != t.to_act:
        return [("class:dim", f" {who} to act")]
    which, left = clock.left(now)
    label = f" {who} to act · " + ("clock" if which == "clock" else "time bank")
    tail = f" {clock_text(left)}"
    total = clock.deadline_ms / 1000 if which == "clock" else max(0.001, clock.time_bank_ms / 1000)
    full, empty = ("#", "-") if ascii else ("\u2588", "\u2591")
    bar_w = max(0, min(30, width - len(label) - len(tail) - 2))
    filled = round(bar_w * min(1.0, left / total)) if total > 0 else 0
    style = "class:clock.bank" if which == "bank" else "class:clock"
    return [
        ("class:dim", label + " "),
        (style, full * filled),
        ("class:clock.empty", empty * (bar_w - filled)),
        (style + " bold", tail),
    ]


def pre_action_text(ui: UiState) -> str | None:
    """The pre-action queued for my next turn, as the bottom line says it."""
    if ui.pre_action == "check_fold":
        return "Queued: check/fold (k again clears)"
    if ui.pre_action == "call_any":
        return "Queued: call any (K again clears)"
    return None


def render_bottom(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    t = model.table
    assert t is not None
    c = Canvas(width, height)
    cards = t.your_cards
    col = 1
    out = model.me.role == "player" and t.me is None and my_lobby_status(model) == "eliminated"
    if out:
        cards = None
    if cards:
        for i, line in enumerate(big_cards(cards, ui.ascii)):
            c.write(i, col, line)
        col += fragments_width(big_cards(cards, ui.ascii)[0]) + 2
    elif model.me.role == "spectator":
        c.text(1, 1, "Watching: hole cards show when they are shown", "class:dim")
        col = width
    elif model.me.role == "player":
        me = t.me
        text = "No cards this hand" if t.street is not None else "Waiting for the next hand"
        if me is not None and me.sitting_out:
            text = "You are sitting out: press s when you are back"
        if out:
            place = model.my_place
            text = "You are out of the tournament" + (f" in place {place}" if place else "")
            text += ": watch on, or q to leave"
        c.text(1, 1, text, "class:dim")
        col = width
    room = width - col
    name = hand_name(cards, t.board)
    if name and room > 4:
        c.text(0, col, name, "class:handname bold", room)
    me = t.me
    if me is not None and room > 4:
        info = "All in" if me.all_in and me.stack == 0 else f"Stack {chips(me.stack)}"
        if me.bet:
            info += f" · bet {chips(me.bet)}"
        if t.street is not None:
            info += f" · pot {chips(t.pot_total)}"
        if me.sitting_out:
            info += " · sitting out (s: I'm back)"
        c.text(1, col, info, "class:info", room)
    turn = model.turn
    if turn is not None and is_my_turn(model):
        at = col if room > 30 else 1
        c.write(2, at, action_keys(turn, width - at), width - at)
        if ui.input_mode is not InputMode.RAISE:
            c.text(3, col if room > 30 else 1, "Your turn", "class:yourturn bold")
        c.write(height - 1, 0, clock_bar(turn, width, now, ui.ascii))
    elif t.to_act is not None and t.street is not None:
        who = t.name_of(t.to_act)
        c.write(height - 1, 0, other_clock(t, who, width, now, ui.ascii))
        if turn is not None and turn.acted:
            c.text(3, col, "Sent; waiting for the server", "class:dim", room)
        elif pre := pre_action_text(ui):
            c.text(3, col if room > 30 else 1, pre, "class:notice", width - 1)
    elif model.me.role == "director":
        c.text(height - 1, 1, "Director: press : for a command", "class:dim")
    return c.lines()


# =====================================================================================
# Side panel: hand log, chat, standings
# =====================================================================================


def wrap_tail(lines: Sequence[str], width: int, height: int, indent: str = "  ") -> list[str]:
    """The last ``height`` screen lines of ``lines`` wrapped to ``width`` (newest at the bottom)."""
    out: list[str] = []
    for line in reversed(lines):
        wrapped = textwrap.wrap(line, width, subsequent_indent=indent) or [""]
        out[:0] = wrapped
        if len(out) >= height:
            break
    return out[-height:] if height > 0 else []


def render_side_panel(model: ClientModel, ui: UiState, width: int, height: int) -> Lines:
    c = Canvas(width, height)
    inner = width - 1
    tabs: StyleAndTextTuples = []
    for p in Panel:
        label = {"log": "Log", "chat": "Chat", "standings": "Standings"}[p.value]
        tabs.append(("class:tab.active" if p is ui.panel else "class:tab", f" {label} "))
    c.write(0, 0, tabs)
    body_h = height - 1
    if ui.panel is Panel.LOG:
        chat_h = min(6, body_h // 3) if model.chat else 0
        log_h = body_h - chat_h
        for i, line in enumerate(wrap_tail(list(model.log), inner, log_h)):
            c.text(1 + i, 1, line, log_style(line), inner)
        if chat_h:
            c.text(1 + log_h, 0, "-" * width, "class:frame")
            for i, line in enumerate(wrap_tail(chat_texts(model), inner, chat_h - 1)):
                c.text(2 + log_h + i, 1, line, "class:chat", inner)
    elif ui.panel is Panel.CHAT:
        said = chat_texts(model) or ["(no chat yet: press t to talk)"]
        for i, text in enumerate(wrap_tail(said, inner, body_h)):
            c.text(1 + i, 1, text, "class:chat", inner)
    else:
        for i, frags in enumerate(standings_lines(model, inner)[:body_h]):
            c.write(1 + i, 1, frags, inner)
    return c.lines()


def log_style(line: str) -> str:
    if line.startswith("--"):
        return "class:log.hand"
    if line.startswith(("director:", "server:")):
        return "class:announcement"
    if " wins " in line:
        return "class:log.win"
    return "class:log"


def chat_texts(model: ClientModel) -> list[str]:
    out = []
    for ch in model.chat:
        who = ch.name if ch.role == "player" else f"{ch.name} ({ch.role})"
        where = "" if ch.scope == "table" else "[lobby] "
        out.append(f"{where}{who}: {ch.text}")
    return out


def standings_lines(model: ClientModel, width: int) -> Lines:
    places = model.standings
    if not places and model.lobby is not None:
        ranked = sorted(model.lobby.players, key=lambda p: -p.chips)
        rows = [(i + 1, p.player_id, p.name, p.chips, p.status == "eliminated") for i, p in enumerate(ranked)]
    else:
        rows = [(p.place, p.player_id, p.name, p.chips, p.eliminated_in_hand is not None) for p in places]
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


# =====================================================================================
# Lobby (before the start, and between tables)
# =====================================================================================


def local_time(stamp: str) -> str:
    """An ISO 8601 time from the server as local wall-clock time: "Sat 23:59"."""
    try:
        when = dt.datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return stamp
    return when.strftime("%a %H:%M")


LOBBY_COL = 44
"""Columns of one player in the lobby: id, name, chips, table/seat and the whole status."""

STATUS_WORDS = {
    "waiting": "waiting",
    "playing": "",
    "sitting_out": "sitting out",
    "disconnected": "disconnected",
    "eliminated": "eliminated",
}


def lobby_player_line(p: m.LobbyPlayer) -> str:
    """One entrant: "#3 carol 10,000 T1/3 sitting out" (the id addresses any name)."""
    where = f"T{p.table}/{p.seat}" if p.table is not None else ""
    name = p.name if len(p.name) <= 12 else p.name[:11] + "~"
    return f"{'#' + str(p.player_id):>4} {name:<12} {chips(p.chips):>7} {where:<6}{STATUS_WORDS[p.status]}"


def table_lines(lobby: m.Lobby) -> list[str]:
    """One line per table: players, average stack, the hand in play (protocol v2)."""
    chips_of = {p.player_id: p.chips for p in lobby.players}
    out = []
    for t in lobby.tables:
        n = len(t.players)
        avg = sum(chips_of.get(pid, 0) for pid in t.players) // n if n else 0
        text = f"Table {t.table}: {n} player" + ("" if n == 1 else "s") + f" · avg {chips(avg)}"
        if t.hand_no is not None:
            text += f" · hand #{t.hand_no}"
        out.append(text)
    return out


def lobby_state_text(model: ClientModel) -> str:
    """Where the tournament stands, and what I am waiting for if anything."""
    lobby = model.lobby
    assert lobby is not None
    joined = sum(1 for p in lobby.players)
    if lobby.state == "registering":
        if lobby.start_players:
            return f"Registration open: {joined} of {lobby.start_players} joined, starts when all are in"
        return f"Registration open: {joined} joined, the director starts the tournament"
    if lobby.state == "paused":
        return "Paused by the director"
    if lobby.state == "finished":
        return "Finished"
    mine = my_lobby_status(model)
    if model.me.role == "player" and mine == "waiting":
        return "Running: waiting for your seat"
    if model.me.role == "player" and mine == "eliminated":
        return "Running: you are out of the tournament"
    return "Running"


def render_lobby(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    c = Canvas(width, height)
    lobby = model.lobby
    row = 1
    title = (lobby.name if lobby else model.tournament) or "Hickory"
    c.center(row, [("class:title bold", title)])
    row += 2
    if lobby is None:
        c.center(row, [("class:dim", "waiting for the lobby...")])
        return c.lines()
    state = lobby_state_text(model)
    c.center(row, [("class:lobby.state bold", state[:width])])
    row += 1
    facts = [level_text(model, now)]
    if lobby.deadline:
        facts.append(f"ends by {local_time(lobby.deadline)}")
    facts.append(f"{len(lobby.players)} registered")
    c.center(row, [("class:info", " · ".join(f for f in facts if f)[:width])])
    row += 2
    if model.finished is not None or model.my_place is not None:
        place = model.my_place
        if place is not None:
            c.center(row, [("class:title bold", f"You finished in place {place}")])
            row += 2
    # One line per table, then the players (id, name, chips, where, status); chat below.
    said = chat_texts(model)[-4:] + [f"* {a}" for a in list(model.announcements)[-2:]]
    chat_h = min(len(said), 4)
    for line in table_lines(lobby)[: max(0, (height - row) // 3)]:
        c.text(row, 1, line, "class:lobby.table", width - 2)
        row += 1
    if lobby.tables:
        row += 1
    c.text(row, 1, f"Players ({len(lobby.players)}): id name chips table/seat", "class:title", width - 2)
    row += 1
    col_w = LOBBY_COL
    ncols = max(1, min(3, width // col_w))
    avail = height - row - 1 - (chat_h + 1 if chat_h else 0)
    players = list(lobby.players)
    for i, p in enumerate(players[: max(0, avail) * ncols]):
        r, k = row + i % max(1, avail), i // max(1, avail)
        style = "class:standing.me" if p.player_id == model.me.player_id else "class:lobby.player"
        if p.status == "eliminated":
            style += " class:dim"
        x = k * col_w + max(0, (width - ncols * col_w) // 2)
        c.text(r, x, lobby_player_line(p), style, col_w - 1)
    if len(players) > avail * ncols and avail > 0:
        c.center(row + avail, [("class:dim", f"... and {len(players) - avail * ncols} more")])
    if chat_h:
        top = height - chat_h
        c.text(top - 1, 1, "Chat and announcements", "class:title")
        for i, text in enumerate(wrap_tail(said, width - 2, chat_h)):
            c.text(top + i, 1, text, "class:announcement" if text.startswith("* ") else "class:chat")
    return c.lines()


# =====================================================================================
# Overlays: help, history, standings, lobby
# =====================================================================================

HELP = [
    ("When it is your turn", ""),
    ("f", "fold (only when there is a bet to fold to)"),
    ("c", "check, or call the amount shown"),
    ("r", "bet or raise: type the total to raise to, Enter sends"),
    ("1 2 3 4", "raise box at min / half pot / pot / all in (pot: after your call)"),
    ("  in the box", "Tab cycles the quick sizes; Esc cancels"),
    ("m", "all in (asks first unless it is your only way on)"),
    ("  before it", "k check/fold, K call any: queued until your turn, dropped if the bet changes"),
    ("Any time", ""),
    ("s", "sit out from the next hand / I'm back"),
    ("t", "chat; /lobby TEXT for all, /director TEXT calls the director"),
    ("h", "my last hands (Left/Right to browse)"),
    ("Tab", "side panel: log, chat, standings"),
    ("l", "lobby: every player and table"),
    ("[  ]", "watch the previous / next table (spectator, director)"),
    (":", "director command line (director only)"),
    ("?", "this help; Esc closes"),
    ("q  Ctrl-C", "quit (your seat is kept: restart to come back; q asks during a hand)"),
]


def render_overlay(model: ClientModel, ui: UiState, width: int, height: int, now: float) -> Lines:
    if ui.overlay is Overlay.HELP:
        return render_help(model, ui, width, height)
    if ui.overlay is Overlay.HISTORY:
        return render_history(model, ui, width, height)
    if ui.overlay is Overlay.LOBBY:
        return render_lobby(model, ui, width, height, now)
    c = Canvas(width, height)
    c.center(0, [("class:title bold", "Standings" + (" (final)" if model.standings_final else ""))])
    for i, line in enumerate(standings_lines(model, min(width - 2, 50))[: height - 2]):
        c.write(1 + i, max(1, (width - 50) // 2), line)
    c.center(height - 1, [("class:dim", "Esc closes")])
    return c.lines()


def help_rows(model: ClientModel, ui: UiState) -> list[tuple[str, str]]:
    """The help overlay's rows for this role: a player's keys, or a director's commands."""
    if model.me.role == "director":
        from client.tui.director import COMMAND_HELP, COMMAND_MEANING

        topic = ui.help_topic
        if topic in COMMAND_HELP:
            return [
                (f"Director command {topic}", ""),
                ("usage", COMMAND_HELP[topic]),
                ("what", COMMAND_MEANING[topic]),
                ("", ""),
                ("Every command", "needs a reason at the end: it is announced and logged"),
                ("players", "by name, or #id for a name with a space (l shows ids)"),
            ]
        rows = [("Director commands", "type : then one of these; Tab completes")]
        rows += [(op, COMMAND_HELP[op]) for op in COMMAND_HELP]
        rows.append(("help", "help COMMAND: what one command does"))
        rows.append(("Keys", ""))
        rows.append((": [ ]", "command line · previous / next table"))
        rows.append(("t l h Tab", "chat · lobby · history · side panel · q quit"))
        return rows
    rows = list(HELP)
    if model.me.role == "spectator":
        rows = [r for r in rows if r[0] not in ("f", "c", "r", "1 2 3 4", "  in the box", "m", "  before it", "s")]
        rows = [r for r in rows if r[0] != "When it is your turn"]
    if ui.practice:
        rows = [(k, "quit: this ends the practice tournament (asks first)") if k == "q  Ctrl-C" else (k, t)
                for k, t in rows]
    return rows


def render_help(model: ClientModel, ui: UiState, width: int, height: int) -> Lines:
    c = Canvas(width, height)
    c.center(0, [("class:title bold", "Help")])
    left = max(1, (width - 78) // 2)
    rows = help_rows(model, ui)
    for i, (k, text) in enumerate(rows[: height - 2]):
        if not text:
            c.text(1 + i, left, k, "class:help.section bold")
        elif k in ("Director commands", "Keys") or k.startswith("Director command "):
            c.text(1 + i, left, k, "class:help.section bold")
            c.text(1 + i, left + len(k) + 2, text, "class:help", width - left - len(k) - 3)
        else:
            c.text(1 + i, left + 2, f"{k:<11}", "class:key")
            c.text(1 + i, left + 14, text, "class:help", width - left - 15)
    c.center(height - 1, [("class:dim", "Esc or ? closes")])
    return c.lines()


def history_lines(record: m.HandRecord, ascii: bool, width: int = 78) -> Lines:
    """One finished hand in words, as a player would tell it."""
    names = {p.seat: p.name for p in record.players}

    def nm(seat: int) -> str:
        return names.get(seat, f"seat {seat}")

    out: Lines = []
    out.append(
        [
            (
                "class:title bold",
                f"Hand #{record.hand_no} · table {record.table} · "
                f"blinds {chips(record.small_blind)}/{chips(record.big_blind)}",
            )
        ]
    )
    out.append([("", f"Button: {nm(record.button)}" + (f" · {record.carried_in} carried in" if record.carried_in else ""))])
    players = "Players: " + ", ".join(f"{p.name} {chips(p.stack)}" for p in record.players)
    out += [[("", line)] for line in textwrap.wrap(players, width, subsequent_indent="  ")]
    if record.your_cards:
        out.append([("", "You held "), *small_cards(record.your_cards, ascii)])
    for b in record.blinds:
        out.append([("class:log", f"{nm(b.seat)} posts the {b.blind} blind {chips(b.amount)}")])
    street = None
    board_at = {"flop": 3, "turn": 4, "river": 5}
    for a in record.actions:
        if a.street != street:
            street = a.street
            if street in board_at:
                out.append(
                    [("class:street", f"{street.capitalize()}: "), *small_cards(record.board[: board_at[street]], ascii)]
                )
        out.append([("class:log", describe_record_action(nm(a.seat), a))])
    if record.board and (street is None or board_at.get(str(street), 0) < len(record.board)):
        out.append([("class:street", "Board: "), *small_cards(record.board, ascii)])
    for sh in record.shown:
        out.append([("", f"{nm(sh.seat)} shows "), *small_cards(sh.cards, ascii), ("", f" ({sh.hand_name})")])
    for res in record.results:
        label = "the pot" if res.pot == 0 else f"side pot {res.pot}"
        for w in res.winners:
            out.append([("class:log.win", f"{nm(w.seat)} wins {chips(w.amount)} from {label}")])
        if res.remainder_carried:
            out.append([("class:pot.carried", f"{res.remainder_carried} odd chip(s) carried to the next hand")])
    return out


def describe_record_action(name: str, a: m.HandAction) -> str:
    words = {
        "fold": f"{name} folds",
        "check": f"{name} checks",
        "call": f"{name} calls {chips(a.amount)}",
        "bet": f"{name} bets {chips(a.to)}",
        "raise": f"{name} raises to {chips(a.to)}",
        "all_in": f"{name} goes all in for {chips(a.to)}",
    }
    text = words[a.action]
    if a.all_in and a.action != "all_in":
        text += " and is all in"
    if a.automatic:
        text += " (automatic)"
    return text


def render_history(model: ClientModel, ui: UiState, width: int, height: int) -> Lines:
    c = Canvas(width, height)
    hist = model.history
    if hist is None:
        c.center(height // 2, [("class:dim", "asking the server for your last hands...")])
        return c.lines()
    if not hist.hands:
        c.center(height // 2, [("class:dim", "no finished hands yet")])
        return c.lines()
    n = len(hist.hands)
    idx = ui.history_hand(n)
    lines = history_lines(hist.hands[idx], ui.ascii, width - 2)
    room = height - 1
    top = max(0, min(ui.history_scroll, len(lines) - room))
    for i, line in enumerate(lines[top : top + room]):
        c.write(i, 1, line, width - 2)
    hint = f"hand {idx + 1} of {n} · Left/Right hands"
    if len(lines) > room:
        hint += f" · Up/Down scroll ({top + 1}-{min(len(lines), top + room)} of {len(lines)})"
    c.center(height - 1, [("class:dim", hint + " · Esc closes")])
    return c.lines()


# =====================================================================================
# The bottom line (drawn by the layout when no text box is open)
# =====================================================================================

HINTS_PLAYER = "s sit out · t chat · h history · Tab panel · ? help · q quit"
HINTS_SPECTATOR = "[ ] table · t chat · l lobby · Tab panel · ? help · q quit"
HINTS_DIRECTOR = ": command · [ ] table · t chat · l lobby · Tab panel · ? help · q quit"


def render_status(model: ClientModel, ui: UiState, width: int, now: float) -> StyleAndTextTuples:
    """The last line: a pending confirmation, a notice, the latest announcement, or key hints."""
    if ui.pending is not None:
        text = f"{ui.pending.summary}? y sends, n cancels"
        return [("class:confirm bold", text[:width])]
    if ui.confirm is not None:
        text = f"{ui.confirm.summary}? y yes, n no"
        return [("class:confirm bold", text[:width])]
    notice = ui.notice
    if notice is not None and (notice.until is None or now < notice.until):
        style = "class:error bold" if notice.tone is Tone.ERROR else "class:notice"
        return [(style, notice.text[:width])]
    if model.connection is ConnectionState.CONNECTED and model.announcements and model.table is None:
        return [("class:announcement", model.announcements[-1][:width])]
    role = model.me.role
    hints = HINTS_DIRECTOR if role == "director" else HINTS_SPECTATOR if role == "spectator" else HINTS_PLAYER
    me = model.my_seat
    if me is not None and me.sitting_out:
        hints = hints.replace("s sit out", "s I'm back")
    return [("class:hints", hints[:width])]


def typing_notice(ui: UiState, now: float) -> StyleAndTextTuples:
    """The notice shown beside the text box (what was wrong with what was typed)."""
    notice = ui.notice
    if notice is None or (notice.until is not None and now >= notice.until):
        return []
    style = "class:error bold" if notice.tone is Tone.ERROR else "class:notice"
    return [(style, " " + notice.text + " ")]


def input_prompt(ui: UiState, model: ClientModel) -> str:
    if ui.input_mode is InputMode.RAISE:
        turn = model.turn
        if turn is not None:
            legal = turn.legal
            word = "Bet" if legal.is_bet else "Raise to"
            size = f" [{ui.quick_label}]" if ui.quick_label else ""
            return f"{word} ({chips(legal.min_raise_to or 0)}-{chips(legal.max_raise_to or 0)}){size}: "
        return "Raise to: "
    if ui.input_mode is InputMode.CHAT:
        return "Say: "
    return "director> "
