"""The plain mode's typed commands: a line of text to what the full client's keys would send.

``Typist`` is the typed side of ``hickory --plain`` (``client/plain.py``), pure so it is
tested without a terminal or a network: ``typed(line, model, now)`` turns a command
("call", "raise 800", "r 800", "fold", "all in", "k") into a ``Reply`` (the lines to print,
the messages to send, the act for the pending turn, whether to quit), and ``heard(msg,
model, now)`` does what a server message asks of the typed side: play a queued pre-action
when the turn comes (or drop it when the bet changed), say the turn and its options, give
the turn back after a refused action.

The one source of truth for what may be typed is the turn's ``legal`` (the server's
``your_turn``, as ``model.turn.legal``): an amount outside it is refused here, in words a
person can act on ("raise 250 is below the minimum raise to 400"), and nothing is sent.
The confirmations and pre-actions are the full client's (``client/tui/keys.py``): all in
asks first unless it is the only way on, quitting during a hand asks first (both off with
``--no-confirm``), check/fold and call any wait for the turn and are dropped when the bet
changes.
"""

from __future__ import annotations

import attrs

from client.model import ClientModel, ConnectionState, PendingTurn, action_to_act
from client.model.log import chips
from client.model.sizing import all_in_is_the_only_way_on, quick_sizes, whole_chips
from client.plain_words import (
    cards_and_board,
    options_words,
    pot_words,
    standings_words,
    table_words,
    turn_words,
)
from poker.actions import Action, LegalActions
from protocol import messages as m

__all__ = ["HELP", "Question", "Reply", "Typist", "parse_amount", "raise_sizes"]

HELP = (
    "Commands. On your turn: fold or f; check or x; call or c (c checks when nothing is to "
    "call); raise 800 or r 800, also bet 800 or b 800, the total you raise to, or r min, "
    "r half, r pot, r max; all in or m. Before your turn: k queues check or fold, ca queues "
    "call any; the same again clears it. yes or no answers a question. Any time: Enter "
    "alone or o says your turn again; cards; pot; table; standings; say TEXT chats to the "
    "table; lobby TEXT to everyone; director TEXT calls the director; sit out; back; quit "
    "or q."
)

WORDS_FOR_SIZES = ("min", "half", "pot", "max")


@attrs.define(kw_only=True)
class Reply:
    """What one typed line or one server message asks of the plain client."""

    lines: list[str] = attrs.Factory(list)
    send: list[m.ClientMessage] = attrs.Factory(list)
    act: m.Act | None = None  # answers the pending turn: marked answered once sent
    quit: bool = False


@attrs.frozen(kw_only=True)
class Question:
    """A step that cannot be undone, waiting for yes or no: "all_in" or "quit"."""

    what: str
    text: str
    hand_no: int | None = None


def raise_sizes(legal: LegalActions, pot_total: int) -> dict[str, int]:
    """min, half, pot and max, each a legal raise-to total: the full client's quick sizes."""
    return {w: amount for w, (_, amount) in zip(WORDS_FOR_SIZES, quick_sizes(legal, pot_total), strict=True)}


def parse_amount(text: str, legal: LegalActions, pot_total: int) -> int:
    """A raise-to total typed as 1200, 1,200, 1.2k or min, half, pot, max (also all);
    ValueError saying what to type instead when it is not one, or not legal now."""
    lo, hi = legal.min_raise_to, legal.max_raise_to
    noun = "bet" if legal.is_bet else "raise"
    if lo is None or hi is None:
        raise ValueError(f"you cannot {noun} now")
    if lo == hi:
        raise ValueError(f"your chips only allow all in, {chips(hi)}: type all in")
    raw = text.strip().lower().replace(",", "").replace("_", "").replace(" ", "")
    if not raw:
        raise ValueError(f"{noun} to how much? From {chips(lo)} to {chips(hi)}, for example r {lo}")
    sizes = raise_sizes(legal, pot_total)
    named = {"min": "min", "half": "half", "pot": "pot", "max": "max", "all": "max", "allin": "max"}
    if raw in named:
        return sizes[named[raw]]
    amount = whole_chips(raw, text, f"for example r {lo}")
    least = "bet of" if legal.is_bet else "raise to"
    if amount < lo:
        raise ValueError(f"{noun} {chips(amount)} is below the minimum {least} {chips(lo)}")
    if amount > hi:
        raise ValueError(f"{noun} {chips(amount)} is more than you have: all in is {chips(hi)}")
    return amount


def all_in_total(legal: LegalActions) -> int | None:
    """My all-in total if going all in is possible now (a raise to it, or a call of it)."""
    if legal.max_raise_to is not None:
        return legal.max_raise_to
    if legal.call is not None and legal.call >= legal.stack:
        return legal.bet + legal.call
    return None


_ALIASES = {
    "f": "fold", "fold": "fold",
    "x": "check", "check": "check",
    "c": "c", "call": "call",
    "r": "raise", "raise": "raise", "b": "raise", "bet": "raise",
    "m": "allin", "allin": "allin", "shove": "allin", "all-in": "allin", "all_in": "allin",
    "k": "checkfold", "cf": "checkfold", "checkfold": "checkfold", "check/fold": "checkfold",
    "ca": "callany", "callany": "callany",
    "y": "yes", "yes": "yes", "n": "no", "no": "no",
    "o": "turn", "turn": "turn", "options": "turn", "": "turn",
    "cards": "cards", "board": "cards", "pot": "pot", "table": "table", "t": "table",
    "standings": "standings", "say": "say", "lobby": "lobby", "director": "director",
    "sitout": "sitout", "back": "back", "imback": "back",
    "help": "help", "h": "help", "?": "help", "q": "quit", "quit": "quit", "exit": "quit",
}
_TWO_WORDS = {("all", "in"): "allin", ("check", "fold"): "checkfold", ("call", "any"): "callany",
              ("sit", "out"): "sitout", ("i'm", "back"): "back", ("im", "back"): "back"}


def _command(line: str) -> tuple[str | None, str]:
    """(the command, the rest of the line) from what was typed; None if not a command."""
    words = line.strip().split(None, 2)
    if len(words) >= 2 and (words[0].lower(), words[1].lower()) in _TWO_WORDS:
        rest = line.strip().split(None, 2)[2] if len(words) > 2 else ""
        return _TWO_WORDS[(words[0].lower(), words[1].lower())], rest
    first = words[0].lower() if words else ""
    rest = line.strip()[len(words[0]):].strip() if words else ""
    if first not in _ALIASES and first[:1] in ("r", "b") and first[1:].replace(",", "").isdigit():
        return "raise", first[1:]  # "r800" as "r 800"
    return _ALIASES.get(first), rest


@attrs.define(kw_only=True)
class Typist:
    """The typed side's own state: a question waiting for yes or no, a queued pre-action."""

    confirm_all_in: bool = True
    confirm_quit: bool = True
    question: Question | None = None
    pre_action: str | None = None  # "check_fold" or "call_any"
    pre_action_bet: int = 0  # the bet to match when it was queued: a change drops it
    want_standings: bool = False  # standings were asked for: say them when they come

    # -- typed lines ------------------------------------------------------------------------

    def typed(self, line: str, model: ClientModel, now: float) -> Reply:
        command, rest = _command(line)
        if command is None:
            word = line.strip().split()[0]
            return Reply(lines=[f"{word!r} is not a command: type help for the list."])
        question, self.question = self.question, None
        if question is not None:
            if command == "yes":
                return self._answer_yes(question, model)
            if command == "no":
                return Reply(lines=["Not sent." if question.what == "all_in" else "Staying."])
            out = self.typed(line, model, now)
            out.lines.insert(0, f"{question.text.split('?')[0]}: cancelled.")
            return out
        if command in ("yes", "no"):
            return Reply(lines=["There is no question to answer."])
        handler = getattr(self, f"_do_{command}")
        reply: Reply = handler(rest, model, now)
        return reply

    def _my_turn(self, model: ClientModel) -> PendingTurn | None:
        turn = model.turn
        if (turn is None or turn.acted or model.connection is not ConnectionState.CONNECTED
                or model.me.role != "player"):
            return None
        return turn

    def _not_my_turn(self, model: ClientModel) -> Reply:
        if model.me.role != "player":
            return Reply(lines=["You are watching: there is nothing to play."])
        if model.connection is not ConnectionState.CONNECTED:
            return Reply(lines=["Not connected: nothing was sent."])
        turn = model.turn
        if turn is not None and turn.acted:
            return Reply(lines=["You have answered this turn: waiting for the server."])
        if self._waiting(model):
            return Reply(lines=["It is not your turn. To queue one: k for check or fold, ca for call any."])
        return Reply(lines=["It is not your turn."])

    def _act(self, turn: PendingTurn, action: Action) -> Reply:
        self.pre_action = None
        return Reply(act=action_to_act(action, turn.hand_no, turn.msg.table))

    def _do_fold(self, rest: str, model: ClientModel, now: float) -> Reply:
        turn = self._my_turn(model)
        if turn is None:
            return self._not_my_turn(model)
        if not turn.legal.fold:
            return Reply(lines=["Checking is free, so folding is not offered: type check."])
        return self._act(turn, Action.fold())

    def _do_check(self, rest: str, model: ClientModel, now: float) -> Reply:
        turn = self._my_turn(model)
        if turn is None:
            return self._not_my_turn(model)
        if not turn.legal.check:
            return Reply(lines=[f"You cannot check: you may {options_words(turn.legal)}."])
        return self._act(turn, Action.check())

    def _do_c(self, rest: str, model: ClientModel, now: float) -> Reply:
        turn = self._my_turn(model)
        if turn is None:
            return self._not_my_turn(model)
        legal = turn.legal
        if legal.check:
            return self._act(turn, Action.check())
        if legal.call is not None:
            return self._act(turn, Action.call())
        return Reply(lines=[f"You cannot check or call: you may {options_words(legal)}."])

    _do_call = _do_c

    def _do_raise(self, rest: str, model: ClientModel, now: float) -> Reply:
        turn = self._my_turn(model)
        if turn is None:
            return self._not_my_turn(model)
        legal = turn.legal
        pot = model.table.pot_total if model.table is not None else 0
        try:
            amount = parse_amount(rest, legal, pot)
        except ValueError as exc:
            text = str(exc)
            return Reply(lines=[f"{text[0].upper()}{text[1:]}. Nothing was sent."])
        action = Action.bet(amount) if legal.is_bet else Action.raise_to(amount)
        return self._act(turn, action)

    def _do_allin(self, rest: str, model: ClientModel, now: float) -> Reply:
        turn = self._my_turn(model)
        if turn is None:
            return self._not_my_turn(model)
        total = all_in_total(turn.legal)
        if total is None:
            return Reply(lines=["Nothing to go all in for: you can only check."])
        if self.confirm_all_in and not all_in_is_the_only_way_on(turn.legal):
            text = f"All in for {chips(total)}? Type yes or no."
            self.question = Question(what="all_in", text=text, hand_no=turn.hand_no)
            return Reply(lines=[text])
        return self._act(turn, Action.all_in())

    def _answer_yes(self, question: Question, model: ClientModel) -> Reply:
        if question.what == "quit":
            return Reply(quit=True)
        turn = self._my_turn(model)
        if turn is None or turn.hand_no != question.hand_no:
            return Reply(lines=["Your turn is over: nothing was sent."])
        return self._act(turn, Action.all_in())

    # -- pre-actions ------------------------------------------------------------------------

    def _waiting(self, model: ClientModel) -> bool:
        t, me = model.table, model.my_seat
        return (
            model.me.role == "player" and t is not None and t.street is not None
            and me is not None and me.in_hand and not me.folded and not me.all_in
            and self._my_turn(model) is None
        )

    def _queue(self, what: str, model: ClientModel) -> Reply:
        words = {"check_fold": "check or fold", "call_any": "call any"}[what]
        turn = self._my_turn(model)
        if turn is not None:
            return Reply(lines=[f"It is your turn now: {options_words(turn.legal)}."])
        if not self._waiting(model):
            return Reply(lines=["You are not in a hand: nothing to queue."])
        if self.pre_action == what:
            self.pre_action = None
            return Reply(lines=[f"Queued {words} cleared."])
        t = model.table
        self.pre_action = what
        self.pre_action_bet = t.current_bet if t is not None else 0
        return Reply(lines=[f"Queued: {words} on your turn. It is dropped if the bet changes."])

    def _do_checkfold(self, rest: str, model: ClientModel, now: float) -> Reply:
        return self._queue("check_fold", model)

    def _do_callany(self, rest: str, model: ClientModel, now: float) -> Reply:
        return self._queue("call_any", model)

    # -- questions about the table -------------------------------------------------------

    def _do_turn(self, rest: str, model: ClientModel, now: float) -> Reply:
        turn = self._my_turn(model)
        if turn is not None:
            return Reply(lines=[turn_words(turn, now)])
        return Reply(lines=[status_words(model, self)])

    def _do_cards(self, rest: str, model: ClientModel, now: float) -> Reply:
        return Reply(lines=[cards_and_board(model)])

    def _do_pot(self, rest: str, model: ClientModel, now: float) -> Reply:
        t = model.table
        if t is None or t.street is None:
            return Reply(lines=["No hand is being played."])
        text = f"{pot_words(t)}."
        turn = self._my_turn(model)
        if turn is not None and turn.legal.to_call:
            text += f" {chips(min(turn.legal.to_call, turn.legal.stack))} for you to call."
        return Reply(lines=[text])

    def _do_table(self, rest: str, model: ClientModel, now: float) -> Reply:
        return Reply(lines=[table_words(model)])

    def _do_standings(self, rest: str, model: ClientModel, now: float) -> Reply:
        if model.finished is not None or model.standings_final:
            return Reply(lines=[standings_words(model)])
        self.want_standings = True
        return Reply(send=[m.StandingsRequest()])

    def _do_help(self, rest: str, model: ClientModel, now: float) -> Reply:
        return Reply(lines=[HELP])

    # -- people ----------------------------------------------------------------------------

    def _do_say(self, rest: str, model: ClientModel, now: float) -> Reply:
        if not rest:
            return Reply(lines=["Say what? Type say and then your words."])
        scope: m.Scope = "table" if model.table is not None and model.me.role == "player" else "lobby"
        return Reply(send=[m.Chat(scope=scope, text=rest[:500])])

    def _do_lobby(self, rest: str, model: ClientModel, now: float) -> Reply:
        if not rest:
            return Reply(lines=["Say what to the lobby? Type lobby and then your words."])
        return Reply(send=[m.Chat(scope="lobby", text=rest[:500])])

    def _do_director(self, rest: str, model: ClientModel, now: float) -> Reply:
        if model.me.role != "player":
            return Reply(lines=["Only a player calls the director."])
        return Reply(send=[m.CallDirector(message=(rest or "please come to my table")[:500])],
                     lines=["The director has been called."])

    def _do_sitout(self, rest: str, model: ClientModel, now: float) -> Reply:
        if model.me.role != "player":
            return Reply(lines=["You are watching: there is no seat to sit out from."])
        return Reply(send=[m.SitOut()], lines=["Sitting out: the server checks or folds for you until you type back."])

    def _do_back(self, rest: str, model: ClientModel, now: float) -> Reply:
        if model.me.role != "player":
            return Reply(lines=["You are watching: there is no seat to come back to."])
        return Reply(send=[m.ImBack()], lines=["Coming back: you play from the next hand."])

    def _do_quit(self, rest: str, model: ClientModel, now: float) -> Reply:
        t, me = model.table, model.my_seat
        in_hand = (model.me.role == "player" and t is not None and t.street is not None
                   and me is not None and me.in_hand and not me.folded)
        if self.confirm_quit and in_hand:
            text = "Quit in the middle of a hand? Type yes or no."
            self.question = Question(what="quit", text=text)
            return Reply(lines=[text])
        return Reply(quit=True)

    # -- server messages ------------------------------------------------------------------

    def heard(self, msg: m.ServerMessage, model: ClientModel, now: float) -> Reply:
        """What the typed side does about ``msg`` (already applied to ``model``)."""
        out = Reply()
        self._pre_action(msg, model, out)
        if isinstance(msg, m.YourTurn) and out.act is None:
            turn = self._my_turn(model)
            if turn is not None:
                out.lines.append(turn_words(turn, now))
        elif isinstance(msg, m.Error):
            turn = model.turn
            if msg.code == "illegal_action" and turn is not None:
                turn.acted = False  # the turn goes on: say its options again
                out.lines.append(f"Refused: {msg.message}. {turn_words(turn, now)}")
            elif msg.code in ("not_your_turn", "stale_hand"):
                out.lines.append(f"Too late: {msg.message}.")
            else:
                out.lines.append(f"The server says: {msg.message}.")
        elif isinstance(msg, m.Standings) and self.want_standings:
            self.want_standings = False
            out.lines.append(standings_words(model))
        if isinstance(msg, m.HandStarted | m.TableSnapshot) and self.question is not None:
            if self.question.what == "all_in":
                self.question = None
        return out

    def _pre_action(self, msg: m.ServerMessage, model: ClientModel, out: Reply) -> None:
        """A queued check/fold or call any is played when my turn comes, unless the bet to
        match changed since it was queued, or the hand ended."""
        what = self.pre_action
        if what is None:
            return
        t = model.table
        if t is None or t.street is None or isinstance(msg, m.HandEnded | m.HandStarted):
            self.pre_action = None
            return
        if isinstance(msg, m.Action) and t.current_bet != self.pre_action_bet:
            self.pre_action = None
            out.lines.append("The bet changed: your queued action is dropped.")
            return
        turn = self._my_turn(model)
        if not isinstance(msg, m.YourTurn) or turn is None:
            return
        legal = turn.legal
        if legal.check:
            action = Action.check()
        elif what == "check_fold":
            action = Action.fold()
        elif legal.call is not None:
            action = Action.call()
        else:
            self.pre_action = None
            return
        words = {"check_fold": "check or fold", "call_any": "call any"}[what]
        out.lines.append(f"Your turn: playing your queued {words}.")
        out.act = self._act(turn, action).act


def status_words(model: ClientModel, typist: Typist) -> str:
    """Where things stand when it is not my turn: who is to act, the pot, what is queued."""
    if model.connection is ConnectionState.RECONNECTING:
        return "Reconnecting to the server."
    t = model.table
    if t is None:
        if model.finished is not None:
            return "The tournament is over."
        return "Waiting for a table."
    if t.street is None:
        return "Waiting for the next hand."
    parts = []
    if t.to_act is not None:
        parts.append(f"{t.name_of(t.to_act)} to act")
    else:
        parts.append("Waiting for the others")
    parts.append(pot_words(t))
    if typist.pre_action is not None:
        parts.append("Queued: " + {"check_fold": "check or fold", "call_any": "call any"}[typist.pre_action])
    return ". ".join(parts) + "."
