"""The replayer (Enter in the history view): one hand, step by step, Left and Right to move.

Each step is the table as it was (``client.model.replay``): the board, the pot, every
seat's stack and bet in front, who folded or is all in, and the cards as this client may
see them: a player's own all along, everyone's shown hands at the showdown. Spectators and
the director replay the hands of the table they watch the same way.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.model import ClientModel
from client.model.log import chips
from client.model.replay import Frame, replay_frames
from client.tui.canvas import Canvas, Lines
from client.tui.cards import small_cards
from client.tui.state import UiState
from protocol import messages as m


def frame_lines(record: m.HandRecord, frame: Frame, step: int, steps: int, ascii: bool) -> Lines:
    out: Lines = [[("class:title bold",
                    f"Replay · hand #{record.hand_no} · table {record.table} · blinds "
                    f"{chips(record.small_blind)}/{chips(record.big_blind)} · step {step + 1} of {steps}: "
                    f"{frame.title}")]]
    board: StyleAndTextTuples = [("class:street", "Board: ")]
    board += list(small_cards(frame.board, ascii)) if frame.board else [("class:dim", "none yet")]
    out.append(board + [("", f"    Pot: {chips(frame.pot)}")])
    out.append([])
    width = max([6, *(len(s.name) for s in frame.seats)])
    out.append([("class:dim", f"Seat  {'Player':<{width}}      {'Stack':>9}  {'Bet':>7}  Cards")])
    for s in frame.seats:
        tag = " (B)" if s.button else "    "
        row: StyleAndTextTuples = [("class:log.win" if s.won else ("class:dim" if s.folded else ""),
                                      f"{s.seat:>4}  {s.name:<{width}}{tag}  {chips(s.stack):>9}  "
                                      f"{chips(s.bet) if s.bet else '':>7}  ")]
        if s.cards:
            row += list(small_cards(s.cards, ascii))
        if s.folded:
            row.append(("class:dim", " folded"))
        elif s.all_in:
            row.append(("", " all in"))
        if s.won:
            row.append(("class:log.win", f" wins {chips(s.won)}"))
        out.append(row)
    out.append([])
    out += [[("class:log", line)] for line in frame.lines]
    return out


def render_replay(model: ClientModel, ui: UiState, width: int, height: int) -> Lines:
    c = Canvas(width, height)
    hist = model.history
    if hist is None or not hist.hands or ui.replay_step is None:
        c.center(height // 2, [("class:dim", "no hand to replay")])
        return c.lines()
    record = hist.hands[ui.history_hand(len(hist.hands))]
    frames = replay_frames(record)
    step = max(0, min(ui.replay_step, len(frames) - 1))
    lines = frame_lines(record, frames[step], step, len(frames), ui.ascii)
    for i, line in enumerate(lines[: height - 1]):
        c.write(i, 1, line, width - 2)
    c.center(height - 1, [("class:dim", "Left/Right step through the hand · Enter or Esc back to the hand")])
    return c.lines()
