"""The rows under the table: my cards drawn large, my hand's name, my stack, the action
keys with their amounts, and the clock bar (mine on my turn, else whoever is to act)."""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.model import ClientModel, ConnectionState, PendingTurn
from client.model.log import chips
from client.tui.canvas import Canvas, Lines, fragments_width
from client.tui.cards import big_cards
from client.tui.clocks import clock_bar, other_clock
from client.tui.liveness import stopped_by_silence
from client.tui.lobby import my_lobby_status
from client.tui.state import InputMode, UiState
from poker.cards import RANK_NAMES, RANK_PLURALS, RANKS, parse_card
from poker.evaluator import evaluate

BOTTOM_HEIGHT = 5
"""Rows under the table: four for my cards and the action keys, one for the clock bar."""


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
    me = t.me
    out = model.me.role == "player" and (
        my_lobby_status(model) == "eliminated" or (me is not None and me.last == "busted"))
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
    folded = me is not None and me.folded and t.street is not None
    # Folded, the cards make nothing: naming their hand would say they still play.
    name = "Folded" if folded and cards else hand_name(cards, t.board)
    if name and room > 4:
        c.text(0, col, name, "class:dim" if folded else "class:handname bold", room)
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
        end = c.write(height - 1, 0, other_clock(t, who, width, now, ui.ascii))
        if model.connection is not ConnectionState.CONNECTED:
            c.text(height - 1, end, " stopped: reconnecting", "class:clock.urgent")
        elif stopped_by_silence(ui, now):
            c.text(height - 1, end, " stopped: no answer", "class:clock.urgent")
        if turn is not None and turn.acted:
            c.text(3, col, "Sent; waiting for the server", "class:dim", room)
        elif pre := pre_action_text(ui):
            c.text(3, col if room > 30 else 1, pre, "class:notice", width - 1)
    elif model.me.role == "director":
        c.text(height - 1, 1, "Director: press : for a command", "class:dim")
    return c.lines()


def turn_strip(model: ClientModel, ui: UiState, width: int, now: float) -> Lines:
    """The line drawn under any overlay while it is my turn: "Your turn", the keys (they
    work under the overlay) and my clock, so nobody times out reading the log."""
    turn = model.turn
    if turn is None or not is_my_turn(model):
        return []
    c = Canvas(width, 1)
    col = c.text(0, 1, "Your turn ", "class:yourturn bold")
    clock_w = max(12, min(30, width // 3))
    keys = action_keys(turn, max(0, width - col - clock_w - 2))
    col = c.write(0, col, keys, width - col)
    room = width - col - 2
    if room >= 11:
        c.write(0, col + 2, clock_bar(turn, room, now, ui.ascii))
    return c.lines()
