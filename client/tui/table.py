"""The table: the seats around the felt, and the street, board and pots in its middle."""

from __future__ import annotations

import textwrap

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.model import TableModel
from client.model.log import chips
from client.tui.canvas import Canvas, Lines, fragments_width
from client.tui.cards import card_back, small_card, small_cards
from client.tui.wrapping import wrap_words
from protocol import messages as m


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


def render_table(
    t: TableModel, ascii: bool, width: int, height: int, spectator: bool, note: str | None = None
) -> Lines:
    """The table; ``note`` (a break: "Level 2 starts in 1:55") heads the felt's middle."""
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
    if note:
        head: Lines = [[("class:notice bold", piece)] for piece in wrap_words(note, right - left)]
        centre = head + centre
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
    if s.last == "busted":
        status.append("busted")
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
            for piece in textwrap.wrap(hand, max(10, width), break_on_hyphens=False)[:2]:
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
