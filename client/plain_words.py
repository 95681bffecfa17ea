"""The plain mode's sentences: each server message, once the model has taken it, in words.

``hickory --plain`` (``client/plain.py``) is for screen readers and plain pipes, so what it
prints must read well aloud: one line per event, whole words, no symbols or columns.
Cards are named ("ace of spades"), amounts are grouped the way people say them
("9,200"), and the player is "you". ``sentences(model, msg, said)`` is pure: it reads the
``ClientModel`` after ``msg`` was applied (so "Pot 900" is the pot after the action) and
``said``, the log lines the model wrote for that message, which are used as they are for
the messages this module has no sentence of its own for (announcements, moves, level
changes, the deck check's verdicts).
"""

from __future__ import annotations

from collections.abc import Sequence

from client.model import ClientModel, PendingTurn
from client.model.log import chips
from client.model.table import TableModel
from poker.actions import LegalActions
from protocol import messages as m

__all__ = [
    "card_words",
    "cards_words",
    "options_words",
    "said_line",
    "sentences",
    "standings_words",
    "table_words",
    "turn_words",
]

RANK_WORDS = {
    "A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine",
    "8": "eight", "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two",
}
SUIT_WORDS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
STREET_WORDS = {"preflop": "before the flop", "flop": "on the flop", "turn": "on the turn",
                "river": "on the river"}


def card_words(card: str) -> str:
    """``"As"`` -> ``"ace of spades"``."""
    return f"{RANK_WORDS[card[0]]} of {SUIT_WORDS[card[1]]}"


def listed(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``last`` may be "or": then ``a, b, or c``)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    joint = ", or " if last == "or" and len(items) > 2 else f" {last} "
    return ", ".join(items[:-1]) + joint + items[-1]


def cards_words(cards: Sequence[str]) -> str:
    """``("As", "Kh")`` -> ``"ace of spades and king of hearts"``."""
    return listed([card_words(c) for c in cards])


def seconds_words(seconds: float) -> str:
    n = max(0, int(seconds + 0.5))
    return "1 second" if n == 1 else f"{n} seconds"


def sentence(text: str) -> str:
    """A line as a sentence: a full stop at the end unless it already ends one."""
    text = text.strip()
    return text if not text or text[-1] in ".!?:" else text + "."


_MODEL_WORDS = ("you ", "board", "server", "director", "table ", "level ", "hand #", "deck check",
                "every deck")


def said_line(line: str) -> str:
    """One of the model's log lines as a plain sentence: "-- level 2: blinds 100/200" reads
    "Level 2: blinds 100 and 200.". A line that starts with a player's name keeps the name
    as it is written."""
    text = line.removeprefix("-- ").strip()
    if text.lower().startswith(_MODEL_WORDS):
        text = text[0].upper() + text[1:]
    text = text.replace("hand #", "hand ").replace("Hand #", "Hand ")
    return sentence(_blinds_in_words(text))


def _blinds_in_words(text: str) -> str:
    """"blinds 100/200" reads badly aloud ("100 slash 200"): "blinds 100 and 200"."""
    words = text.split(" ")
    for i, word in enumerate(words):
        if i and words[i - 1].startswith("blinds") and "/" in word:
            small, _, big = word.partition("/")
            tail = ""
            if big and not big[-1].isdigit():
                big, tail = big[:-1], big[-1]
            words[i] = f"{small} and {big}{tail}"
    return " ".join(words)


# -- who, in words ---------------------------------------------------------------------------


def _is_me(model: ClientModel, t: TableModel, seat: int) -> bool:
    return model.me.role == "player" and t.your_seat == seat


def _who(model: ClientModel, t: TableModel, seat: int) -> str:
    return "You" if _is_me(model, t, seat) else t.name_of(seat)


def _verb(model: ClientModel, t: TableModel, seat: int, you: str, them: str) -> str:
    return f"{_who(model, t, seat)} {you if _is_me(model, t, seat) else them}"


def pot_words(t: TableModel) -> str:
    """"Pot 900", with the side pots once there are any ("Pot 1,500: main 900, side 600")."""
    total = t.pot_total
    live = [p.amount for p in t.pots if p.amount > 0]
    if len(live) > 1 and sum(s.bet for s in t.seats.values()) == 0:
        sides = ", ".join(f"side {chips(a)}" for a in live[1:])
        return f"Pot {chips(total)}: main {chips(live[0])}, {sides}"
    return f"Pot {chips(total)}"


# -- the turn ------------------------------------------------------------------------------


def options_words(legal: LegalActions) -> str:
    """What may be done, from the server's legal actions: "fold, call 400, or raise from 800
    to 9,200"."""
    out: list[str] = []
    if legal.fold:
        out.append("fold")
    if legal.check:
        out.append("check")
    if legal.call is not None:
        out.append(f"call {chips(legal.call)}" + (", all in" if legal.call >= legal.stack else ""))
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is not None and hi is not None:
        if lo == hi:
            out.append(f"go all in for {chips(hi)}")
        else:
            word = "bet" if legal.is_bet else "raise"
            out.append(f"{word} from {chips(lo)} to {chips(hi)}")
    return listed(out, "or")


def time_words(turn: PendingTurn, now: float) -> str:
    """"25 seconds", "25 seconds, then 30 in your time bank", "time bank: 12 seconds"."""
    deadline, bank = turn.deadline, turn.bank_deadline
    if deadline is None or bank is None:
        clock, rest = turn.msg.deadline_ms / 1000, turn.msg.time_bank_ms / 1000
    else:
        clock, rest = deadline - now, min(turn.msg.time_bank_ms / 1000, bank - now)
    if clock > 0.5:
        text = seconds_words(clock)
        if rest >= 1:
            text += f", then {int(rest + 0.5)} in your time bank"
        return text
    return f"time bank: {seconds_words(max(0.0, bank - now if bank is not None else rest))}"


def turn_words(turn: PendingTurn, now: float) -> str:
    """"Your turn: fold, call 400, or raise from 800 to 9,200. 25 seconds."."""
    clock = time_words(turn, now)
    return f"Your turn: {options_words(turn.legal)}. {clock[0].upper()}{clock[1:]}."


def table_words(model: ClientModel) -> str:
    """The table as one sentence: who sits where with how much, and the hand in play."""
    t = model.table
    if t is None:
        return "You are at no table now."
    people = []
    for seat in sorted(t.seats):
        s = t.seats[seat]
        who = "you" if _is_me(model, t, seat) else s.name
        notes = []
        if t.button == seat:
            notes.append("button")
        if s.folded and s.in_hand and t.street is not None:
            notes.append("folded")
        if s.all_in:
            notes.append("all in")
        if s.bet:
            notes.append(f"bet {chips(s.bet)}")
        if s.sitting_out:
            notes.append("sitting out")
        if not s.connected:
            notes.append("disconnected")
        note = f" ({', '.join(notes)})" if notes else ""
        people.append(f"{who} {chips(s.stack)}{note}")
    text = f"Table {t.table}: {listed(people)}"
    if t.street is not None and t.hand_no is not None:
        text += f". Hand {t.hand_no}, {STREET_WORDS.get(t.street.value, t.street.value)}. {pot_words(t)}"
    return sentence(text)


def cards_and_board(model: ClientModel) -> str:
    """My cards and the board, for the ``cards`` command."""
    t = model.table
    parts = []
    if t is not None and t.street is None:
        last = f": your last cards were {cards_words(t.your_cards)}" if t.your_cards else ""
        return f"No hand is being played{last}."
    if t is not None and t.your_cards and model.my_seat is not None and model.my_seat.in_hand:
        mine = cards_words(t.your_cards)
        parts.append(f"Your cards: {mine}" + (", folded" if model.my_seat.folded else ""))
    elif model.me.role == "player":
        parts.append("You have no cards in this hand")
    if t is not None and t.street is not None:
        parts.append(f"Board: {cards_words(t.board)}" if t.board else "No board yet")
    return ". ".join(parts) + "."


# -- each message ---------------------------------------------------------------------------


def action_words(model: ClientModel, t: TableModel, msg: m.Action) -> str:
    """"Bob raises to 600", "You call 400 and are all in"."""
    seat, kind = msg.seat, msg.action
    if kind == "fold":
        text = _verb(model, t, seat, "fold", "folds")
    elif kind == "check":
        text = _verb(model, t, seat, "check", "checks")
    elif kind == "call":
        text = _verb(model, t, seat, "call", "calls") + f" {chips(msg.amount)}"
    elif kind == "bet":
        text = _verb(model, t, seat, "bet", "bets") + f" {chips(msg.to)}"
    elif kind == "raise":
        text = _verb(model, t, seat, "raise", "raises") + f" to {chips(msg.to)}"
    else:
        text = _verb(model, t, seat, "go", "goes") + f" all in for {chips(msg.to)}"
    if msg.all_in and kind != "all_in":
        text += " and " + ("are" if _is_me(model, t, seat) else "is") + " all in"
    if msg.automatic:
        text += ", played by the server (the clock ran out or the seat is sitting out)"
    return text


def _mine(model: ClientModel, table: int) -> TableModel | None:
    t = model.table
    return t if t is not None and t.table == table else None


def sentences(model: ClientModel, msg: m.ServerMessage, said: Sequence[str]) -> list[str]:
    """What to say for ``msg``, read from the model after it was applied; ``said`` is what
    the model wrote to its log for it."""
    if isinstance(msg, m.Welcome):
        return [welcome_words(model, msg)]
    if isinstance(msg, m.TableSnapshot):
        return snapshot_words(model, msg)
    if isinstance(msg, m.ChatMessage):
        return [chat_words(model, msg)]
    if isinstance(msg, m.Standings | m.Lobby):
        return [said_line(x) for x in said]
    if isinstance(msg, m.PlayerStatus) and msg.player_id == model.me.player_id and model.me.role == "player":
        return [_my_status(model, msg)]
    table = getattr(msg, "table", None)
    hand_message = isinstance(msg, _TABLE_MESSAGES)
    if hand_message:
        t = _mine(model, table) if isinstance(table, int) else None
        if t is None:
            return []
        return _table_sentences(model, t, msg)
    return [said_line(x) for x in said]


_TABLE_MESSAGES = (
    m.HandStarted, m.BlindPosted, m.HoleCards, m.Action, m.Board, m.Pots, m.Showdown,
    m.PotAwarded, m.HandEnded, m.Turn, m.BetReturned, m.YourTurn,
)


def _table_sentences(model: ClientModel, t: TableModel, msg: m.ServerMessage) -> list[str]:
    if isinstance(msg, m.HandStarted):
        button = "You have" if _is_me(model, t, msg.button) else f"{t.name_of(msg.button)} has"
        return [f"Hand {msg.hand_no} at table {msg.table}. Blinds {chips(msg.small_blind)} and "
                f"{chips(msg.big_blind)}. {button} the button."]
    if isinstance(msg, m.BlindPosted):
        text = _verb(model, t, msg.seat, "post", "posts") + f" the {msg.blind} blind, {chips(msg.amount)}"
        if msg.all_in:
            text += " and " + ("are" if _is_me(model, t, msg.seat) else "is") + " all in"
        return [sentence(text)]
    if isinstance(msg, m.HoleCards):
        return [f"Your cards: {cards_words(msg.cards)}."]
    if isinstance(msg, m.Action):
        pot = f" {pot_words(t)}." if msg.amount else ""  # a check or a fold leaves it as it was
        return [f"{action_words(model, t, msg)}.{pot}"]
    if isinstance(msg, m.Board):
        return [f"{msg.street.capitalize()}: {cards_words(msg.cards)}. {pot_words(t)}."]
    if isinstance(msg, m.Showdown):
        shown = msg.hand_detail or msg.hand_name
        what = f": {shown[0].lower()}{shown[1:]}" if shown else ""
        return [_verb(model, t, msg.seat, "show", "shows") + f" {cards_words(msg.cards)}{what}."]
    if isinstance(msg, m.PotAwarded):
        out = []
        which = "" if msg.pot == 0 else f" from side pot {msg.pot}"
        for w in msg.winners:
            s = t.seats.get(w.seat)
            shown = msg.hand_detail or (s.shown if s is not None and s.showed else None) or msg.hand_name
            how = f" with {shown[0].lower()}{shown[1:]}" if shown else ""
            out.append(_verb(model, t, w.seat, "win", "wins") + f" {chips(w.amount)}{which}{how}.")
        if msg.remainder_carried:
            odd = "odd chip" if msg.remainder_carried == 1 else "odd chips"
            out.append(f"{msg.remainder_carried} {odd} carried to the next hand.")
        return out
    if isinstance(msg, m.BetReturned):
        to = "you" if _is_me(model, t, msg.seat) else t.name_of(msg.seat)
        return [f"{chips(msg.amount)} returned to {to}, uncalled."]
    if isinstance(msg, m.HandEnded):
        me = t.me if model.me.role == "player" else None
        tail = f" You have {chips(me.stack)}." if me is not None else ""
        return [f"Hand {msg.hand_no} is over.{tail}"]
    if isinstance(msg, m.Pots):
        live = [p.amount for p in msg.pots if p.amount > 0]
        if len(live) > 1:
            return [f"{pot_words(t)}."]
        return []
    # your_turn: the typist says it (a queued pre-action may answer it first); turn: whose
    # turn it is, every time, would double the lines (Enter alone says it when wanted).
    return []


def standings_words(model: ClientModel) -> str:
    """The standings as one sentence, leader first: "Standings: 1 Alice 3,000; 2 you 2,500"."""
    if not model.standings:
        return "No standings yet."
    me = model.me.player_id
    parts = []
    for p in model.standings:
        who = "you" if p.player_id == me else p.name
        out = " (out)" if p.eliminated_in_hand is not None else ""
        parts.append(f"{p.place} {who} {chips(p.chips)}{out}")
    return "Standings: " + "; ".join(parts) + "."


def _my_status(model: ClientModel, msg: m.PlayerStatus) -> str:
    """My own status change, said to me: "You are out of the tournament, in place 4."."""
    if msg.status in ("eliminated", "removed"):
        place = model.my_place
        where = f", in place {place}" if place is not None else ""
        if msg.status == "removed":
            return f"The director removed you from the tournament{where}."
        return f"You are out of the tournament{where}."
    return {
        "sitting_out": "You are sitting out: the server checks or folds for you. Type back to play again.",
        "back": "You are back in play.",
        "disconnected": "The server lost your connection.",
        "reconnected": "The server has your connection again.",
    }[msg.status]


def welcome_words(model: ClientModel, msg: m.Welcome) -> str:
    name = model.tournament or "the tournament"
    if msg.role == "spectator":
        return f"Watching {name}. Type help for the commands."
    where = (f" You sit at table {msg.table}, seat {msg.seat}." if msg.table is not None
             else " Waiting for the tournament to start.")
    return f"Welcome to {name}, {msg.name}.{where} Type help for the commands."


def snapshot_words(model: ClientModel, msg: m.TableSnapshot) -> list[str]:
    out = [table_words(model)]
    t = model.table
    if t is not None and t.street is not None and t.your_cards and model.me.role == "player":
        out.append(f"Your cards: {cards_words(t.your_cards)}.")
    if t is not None and t.board and t.street is not None:
        out.append(f"Board: {cards_words(t.board)}.")
    return out


def chat_words(model: ClientModel, msg: m.ChatMessage) -> str:
    who = msg.name if msg.role == "player" else f"The {msg.role}"
    where = "In the lobby, " if msg.scope == "lobby" else ""
    if where:
        who = who[0].lower() + who[1:] if msg.role != "player" else who
    return f"{where}{who} says: {msg.text}"
