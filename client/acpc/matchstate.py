"""Hickory hands as ACPC match states, and ACPC replies as Hickory actions (pure).

``HandView`` follows one Hickory hand from the seat of the ACPC bot and keeps the ACPC
game beside it (``Betting``, under the hand's ``GameDef``). Every Hickory action becomes
one ACPC action by the same player:

- a fold is ``f``, a check or a call is ``c``;
- a bet or raise (or an all-in above the bet) is ``r<T>`` where T is the player's total in
  the pot for the whole hand, blinds and earlier rounds included;
- where ACPC's rules cannot show exactly what happened, the nearest valid ACPC action is
  shown and a note says so. The cases: under Hickory's default ruleset a raise may add as
  little as the big blind, where ACPC wants at least the previous raise: it is shown at
  ACPC's minimum raise (at most the player's stack); a call of the full big blind over a
  short all-in big blind is a ``c`` to what the blind posted (the rest is dead money the
  bot does not see); a player Hickory does not ask to act (nothing to call and nobody
  left to bet against, which ACPC still asks) gets the free ``c`` ACPC expects.

The odd chips carried in from a split pot are never shown (ACPC has no such thing).

``AcpcSeat`` is the bridge's core: Hickory server messages in, ``Out`` items out (lines
to send the bot, hands starting and ending, turns the bridge must answer itself). It
sends the bot only states in which its ACPC turn and its Hickory turn agree: a state in
which ACPC says it is the bot's turn goes out when Hickory's ``your_turn`` has come, and a
state whose betting round has ended waits for the next board cards.

``reply_to_action`` turns the bot's reply into a Hickory action, as the ACPC dealer treats
a reply: a raise outside the legal range is clamped into it, a fold when checking is free
and anything unreadable become a check or a call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from client.acpc.betting import CALL, FOLD, AcpcAction, Betting
from client.acpc.botgame import hand_differences
from client.acpc.gamedef import BOARD_CARDS, GameDef, game_for_hand
from poker.actions import Action, LegalActions
from protocol import messages as m

__all__ = [
    "AcpcSeat",
    "EndHand",
    "HandView",
    "Line",
    "Note",
    "Out",
    "PlayedFor",
    "SelfAct",
    "StartHand",
    "parse_reply",
    "reply_to_action",
]

_STREETS = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}
_BOARD_AT = tuple(sum(BOARD_CARDS[: r + 1]) for r in range(len(BOARD_CARDS)))
"""Board cards out once each round has begun: 0, 3, 4, 5."""

Status = Literal["final", "hold", "bot", "other"]


class HandView:
    """One Hickory hand as the bot in ``seats[position]`` sees it. See the module docstring.

    ``seats[p]`` is the table seat at ACPC position ``p``; ``big_blind`` is the hand's
    full big blind (Hickory's bet to match before the flop even when the blind is short).
    """

    def __init__(
        self,
        *,
        hand_no: int,
        game: GameDef,
        seats: Sequence[int],
        position: int,
        hole: Sequence[str],
        big_blind: int,
    ) -> None:
        self.hand_no = hand_no
        self.game = game
        self.seats = tuple(seats)
        self.position = position
        self.betting = Betting(game)
        n = game.players
        self.holes: list[tuple[str, ...]] = [()] * n
        self.holes[position] = tuple(hole)
        self.board: tuple[str, ...] = ()
        self.committed = list(game.blinds)  # Hickory: chips in for the whole hand
        self.bets = list(game.blinds)  # Hickory: chips in this round
        self.current = big_blind  # Hickory: the bet to match this round
        self.street = 0
        self.ended = False
        self.notes: list[str] = []

    # -- from Hickory --------------------------------------------------------------------

    def pos(self, seat: int) -> int | None:
        return self.seats.index(seat) if seat in self.seats else None

    def action(self, seat: int, kind: str, amount: int, to: int, *, echo: AcpcAction | None = None) -> None:
        """A Hickory ``action``: ``amount`` chips put in, ``to`` the seat's bet this round.

        ``echo``: the bot's own valid reply that this action carries out; it is shown as
        the bot sent it (as the ACPC dealer echoes a valid action), whatever the chips it
        became in Hickory after an earlier adjustment."""
        p = self.pos(seat)
        if p is None:
            self.notes.append(f"an action from seat {seat}, not dealt in: ignored")
            return
        total = self.committed[p] + amount
        raised = kind in ("bet", "raise") or (kind == "all_in" and to > self.current)
        self.committed[p] = total
        self.bets[p] = to
        self.current = max(self.current, to)
        b = self.betting
        if b.finished or b.round > self.street:
            self.notes.append(f"seat {seat}'s {kind} comes after ACPC's betting round ended: not shown")
            return
        self._catch_up(until=p)
        if b.to_act() != p:
            self.notes.append(f"seat {seat}'s {kind} has no place in ACPC's betting here: not shown")
            return
        if kind == "fold":
            acpc = FOLD if b.can_fold(p) else CALL
        elif raised:
            rng = b.raise_range(p)
            if rng is None:
                acpc = CALL
                self.notes.append(f"seat {seat}'s raise to {total} is shown as a call (ACPC allows no raise here)")
            else:
                size = min(max(total, rng[0]), rng[1])
                acpc = AcpcAction("r", size)
                if size != total:
                    self.notes.append(f"seat {seat}'s raise to {total} is shown as r{size} (ACPC's nearest valid raise)")
        elif total > b.max_spent:
            # A call above ACPC's bet: the full big blind over a short all-in blind (or an
            # all-in call for more than that blind). A raise to the total if ACPC allows
            # it, else a call with the rest as dead money.
            rng = b.raise_range(p)
            if rng is not None and rng[0] <= total <= rng[1]:
                acpc = AcpcAction("r", total)
            else:
                acpc = CALL
                self.notes.append(
                    f"seat {seat}'s call to {total} is shown as a call to {b.max_spent}: "
                    f"{total - b.max_spent} dead chips the bot does not see"
                )
        else:
            acpc = CALL
        if acpc == CALL and kind == "fold":
            self.notes.append(f"seat {seat}'s fold is shown as a call (ACPC sees nothing to call)")
        if echo is not None and p == self.position and echo != acpc and b.is_valid(echo):
            self.notes.append(f"seat {seat}'s {kind} (to {total} for the hand) carries out the bot's "
                              f"{echo.text()}: shown as the bot sent it, not as {acpc.text()}")
            acpc = echo
        b.apply(acpc)

    def board_dealt(self, street: str, board: Sequence[str]) -> None:
        """A Hickory ``board``: the betting of the rounds before it is over."""
        r = _STREETS.get(street, 0)
        self.board = tuple(board)
        self.street = max(self.street, r)
        self.bets = [0] * self.game.players
        self.current = 0
        self._catch_up(until=None, round_=r)

    def shown(self, seat: int, cards: Sequence[str]) -> None:
        p = self.pos(seat)
        if p is not None:
            self.holes[p] = tuple(cards)

    def end(self) -> None:
        """Hickory's hand is over: ACPC's is too (free calls for whoever it still waits on)."""
        self._catch_up(until=None, round_=len(BOARD_CARDS))
        self.ended = True

    def _catch_up(self, *, until: int | None, round_: int | None = None) -> None:
        """Give a free ``c`` to each player ACPC waits on and Hickory skipped: until it is
        ``until``'s turn, or until ACPC's betting reaches round ``round_``."""
        b = self.betting
        while not b.finished:
            p = b.to_act()
            if p is None or p == until or (round_ is not None and b.round >= round_):
                return
            if until is not None and round_ is None and self._would_end_round(p):
                return  # a call would close the round Hickory is still betting in
            owed = b.max_spent - b.spent[p]
            what = f"a call of {owed}" if owed > 0 else "a check"
            self.notes.append(f"seat {self.seats[p]} was not asked to act (ACPC asks): shown as {what}")
            b.apply(CALL)

    def _would_end_round(self, p: int) -> bool:
        probe = self.betting.copy()
        probe.apply(CALL)
        return probe.finished or probe.round != self.betting.round

    # -- to ACPC -------------------------------------------------------------------------

    def status(self) -> Status:
        """``final``: the last state; ``hold``: wait for Hickory (board cards, the end of a
        showdown); ``bot``: the bot's turn; ``other``: someone else's turn."""
        b = self.betting
        if b.finished:
            return "final" if (self.ended or not b.showdown) else "hold"
        if len(self.board) < _BOARD_AT[b.round]:
            return "hold"
        return "bot" if b.to_act() == self.position else "other"

    def line(self) -> str:
        """The MATCHSTATE line (without the line ending) for the state as it stands."""
        b = self.betting
        holes = []
        for p in range(self.game.players):
            show = p == self.position or (b.finished and b.showdown and not b.folded[p])
            holes.append("".join(self.holes[p]) if show else "")
        cards = "|".join(holes)
        for r in range(1, b.round + 1):
            cards += "/" + "".join(self.board[_BOARD_AT[r - 1] : _BOARD_AT[r]])
        return f"MATCHSTATE:{self.position}:{self.hand_no}:{b.string()}:{cards}"

    def take_notes(self) -> list[str]:
        notes, self.notes = self.notes, []
        return notes


# =====================================================================================
# Replies
# =====================================================================================


def parse_reply(text: str, state: str) -> AcpcAction | None | Literal["stale"]:
    """The action in a reply to ``state``; ``"stale"`` for a reply to another state;
    None when the reply is not readable (the dealer then calls or checks)."""
    text = text.strip()
    if text.startswith(state + ":"):
        return AcpcAction.parse(text[len(state) + 1 :])
    if text.startswith("MATCHSTATE:") and text.count(":") >= 5:
        return "stale"
    return None


def reply_to_action(
    reply: AcpcAction | None, view: HandView, legal: LegalActions
) -> tuple[Action, str | None]:
    """The Hickory action for the bot's reply, and a note when it was not taken as sent.

    A raise size is the bot's ACPC total for the hand; it is moved by the difference
    between what ACPC and Hickory count the bot as having put in (the same unless an
    adjustment was shown), so the bot's raise adds what it meant to add. A raise to the
    bot's whole ACPC stack is all-in.
    """
    call = Action.check() if legal.check else Action.call()
    what = "a check" if legal.check else "a call"
    if reply is None:
        return call, f"an unreadable reply is taken as {what}"
    if reply.kind == "c":
        return call, None
    if reply.kind == "f":
        if legal.fold:
            return Action.fold(), None
        return call, "a fold when checking is free is taken as a check"
    assert reply.size is not None
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is None or hi is None:
        return call, f"r{reply.size}: raising is not allowed here; taken as {what}"
    p = view.position
    offset = view.betting.spent[p] - view.committed[p]
    before = view.committed[p] - legal.bet  # chips in from earlier rounds
    stack = view.game.stacks[p]
    note = None
    if reply.size >= stack:
        to = hi
        if reply.size > stack:
            note = f"r{reply.size} is more than the stack of {stack}: all in (raise to {hi} this round)"
    else:
        to = reply.size - offset - before
    clamped = min(max(to, lo), hi)
    if clamped != to:
        word = "below the minimum" if to < lo else "above the maximum"
        note = f"r{reply.size} (raise to {to} this round) is {word}: raised to {clamped}"
    action = Action.bet(clamped) if legal.is_bet else Action.raise_to(clamped)
    return action, note


# =====================================================================================
# The seat
# =====================================================================================


@attrs.frozen
class StartHand:
    """A hand the bot plays starts: its game definition (for the game file)."""

    hand_no: int
    game: GameDef


@attrs.frozen
class Line:
    """Send this MATCHSTATE line to the bot; ``turn``: the bot is to answer it."""

    text: str
    turn: bool = False


@attrs.frozen
class EndHand:
    """The hand is over for the bot (its final state has been sent)."""

    hand_no: int


@attrs.frozen
class SelfAct:
    """Hickory asks for an action the bot cannot be asked for: the bridge answers it.
    ``call``: check or call (the bot's ACPC game has no decision here); else check or fold
    (the bridge has no ACPC view of this hand)."""

    call: bool
    reason: str
    hand_no: int | None = None
    expected: bool = False  # a hand played for the bot (already said once): no warning each turn


@attrs.frozen
class PlayedFor:
    """A hand the bot is not shown (its game file cannot express it): the bridge checks or
    folds for the seat at every turn of it. ``why``: how the hand differs from the bot's game."""

    hand_no: int
    why: str


@attrs.frozen
class Note:
    """Something a person may want in the log (a state shown differently from Hickory's)."""

    text: str
    hand_no: int | None = None


Out = StartHand | Line | EndHand | SelfAct | PlayedFor | Note


class AcpcSeat:
    """Hickory messages in, ``Out`` items out, for the one seat the bot plays.

    ``view`` is the hand being played (None between hands, or when the bridge has no
    ACPC view of it: joined or resynchronised in the middle). ``awaiting`` is the line the
    bot is to answer, if any. ``bot_game``: the game file the bot runs with, if it trusts
    one (the one-connection mode): only hands whose game is exactly that are shown; the
    others are played for it (``PlayedFor``).
    """

    def __init__(self, bot_game: GameDef | None = None) -> None:
        self.bot_game = bot_game
        self._played_for: int | None = None  # the hand being played for the bot
        self.view: HandView | None = None
        self.awaiting: str | None = None
        self.sent: str | None = None
        self._started: m.HandStarted | None = None
        self._posted: dict[int, int] = {}  # blinds posted in the hand started, by seat
        self._turn = False  # Hickory's your_turn for the view's hand, not yet answered
        # The bot's last valid reply and the Hickory action sent for it: when that action
        # comes back from the server, the bot's own text is what it sees (``HandView.action``).
        self._echo: tuple[int, AcpcAction, Action] | None = None

    def apply(self, msg: m.ServerMessage) -> list[Out]:
        out: list[Out] = []
        view = self.view
        if isinstance(msg, m.HandStarted):
            if view is not None:
                out += self._abandon("a new hand started before the last one ended")
            self._started = msg
            self._posted = {}
            return out
        if isinstance(msg, m.BlindPosted):
            self._posted[msg.seat] = self._posted.get(msg.seat, 0) + msg.amount
            return out
        if isinstance(msg, m.HoleCards):
            return self._deal(msg)
        if isinstance(msg, m.YourTurn):
            return self._your_turn(msg)
        if isinstance(msg, m.TableSnapshot):
            if view is not None and (msg.hand_no != view.hand_no or msg.street is not None):
                # A snapshot in a hand means events may have been missed (a reconnect or a
                # gap in the sequence): the rest of the hand cannot be trusted.
                return self._abandon("the table was resynchronised in the middle of the hand")
            return out
        if view is None or getattr(msg, "hand_no", None) != view.hand_no:
            return out
        if isinstance(msg, m.Action):
            mine = msg.seat == view.seats[view.position]
            echo = self._echo_of(msg) if mine else None
            view.action(msg.seat, msg.action, msg.amount, msg.to, echo=echo)
            if mine:
                self._turn = False
                self.awaiting = None
                self._echo = None
        elif isinstance(msg, m.Board):
            view.board_dealt(msg.street, msg.board)
        elif isinstance(msg, m.Showdown):
            view.shown(msg.seat, msg.cards)
        elif isinstance(msg, m.HandEnded):
            view.end()
        else:
            return out
        return self._flush(out)

    def _echo_of(self, msg: m.Action) -> AcpcAction | None:
        """The bot's reply that the seat's ``msg`` carries out, if it does: the same kind
        of action (and for a bet or raise the same total) as the one the bridge sent."""
        if self._echo is None or msg.automatic:
            return None
        hand_no, reply, sent = self._echo
        if hand_no != msg.hand_no:
            return None
        raising = msg.action in ("bet", "raise", "all_in") and sent.amount is not None
        if reply.kind == "r":
            return reply if raising and msg.to == sent.amount else None
        if reply.kind == "f":
            return reply if msg.action == "fold" and sent.kind == "fold" else None
        return reply if msg.action in ("check", "call") and sent.kind in ("check", "call") else None

    def _deal(self, msg: m.HoleCards) -> list[Out]:
        started = self._started
        if started is None or started.hand_no != msg.hand_no:
            return [Note(f"hand #{msg.hand_no}: dealt in without its start: no ACPC view of it", msg.hand_no)]
        try:
            game, seats = game_for_hand(
                [(s.seat, s.stack) for s in started.stacks], button=started.button,
                small_blind_seat=started.small_blind_seat, big_blind_seat=started.big_blind_seat,
                small_blind=started.small_blind, big_blind=started.big_blind,
            )
        except ValueError as exc:
            return [Note(f"hand #{msg.hand_no}: no ACPC game for it ({exc})", msg.hand_no)]
        if msg.seat not in seats:
            return [Note(f"hand #{msg.hand_no}: seat {msg.seat} is not dealt in", msg.hand_no)]
        if self.bot_game is not None:
            differences = hand_differences(self.bot_game, game)
            if differences:
                self._played_for = msg.hand_no
                return [PlayedFor(msg.hand_no, "; ".join(differences))]
        self.view = HandView(
            hand_no=msg.hand_no, game=game, seats=seats, position=seats.index(msg.seat),
            hole=msg.cards, big_blind=started.big_blind,
        )
        self.sent = self.awaiting = None
        self._echo = None
        self._turn = False
        out: list[Out] = [StartHand(msg.hand_no, game)]
        for p, seat in enumerate(seats):
            if self._posted.get(seat, 0) != game.blinds[p]:
                out.append(Note(f"hand #{msg.hand_no}: seat {seat} posted {self._posted.get(seat, 0)}, "
                                f"the game definition says {game.blinds[p]}", msg.hand_no))
        if started.carried_in:
            # Not an adjustment of anything the bot sees (so no hand number on it).
            out.append(Note(f"hand #{msg.hand_no}: {started.carried_in} chips carried in are not shown"))
        return self._flush(out)

    def _your_turn(self, msg: m.YourTurn) -> list[Out]:
        view = self.view
        if view is None or view.hand_no != msg.hand_no:
            if self._played_for == msg.hand_no:
                return [SelfAct(False, f"hand #{msg.hand_no}: played for the bot", msg.hand_no, expected=True)]
            return [SelfAct(False, f"hand #{msg.hand_no}: no ACPC view of this hand", msg.hand_no)]
        self._turn = True
        if view.betting.round == view.street:
            view._catch_up(until=view.position)
        out = self._flush([])
        if self.awaiting is None:
            self._turn = False
            out.append(SelfAct(True, f"hand #{msg.hand_no}: Hickory asks for an action ACPC has no turn for",
                               msg.hand_no))
        return out

    def _flush(self, out: list[Out]) -> list[Out]:
        view = self.view
        assert view is not None
        out += [Note(f"hand #{view.hand_no}: {n}", view.hand_no) for n in view.take_notes()]
        status = view.status()
        if status == "hold" or (status == "bot" and not self._turn):
            return out
        line = view.line()
        if status == "bot":
            if self.awaiting != line:
                self.awaiting = line
                self.sent = line
                out.append(Line(line, turn=True))
            return out
        if line != self.sent:
            self.sent = line
            out.append(Line(line))
        if status == "final":
            out.append(EndHand(view.hand_no))
            self.view = None
            self.awaiting = None
            self._turn = False
        return out

    def _abandon(self, why: str) -> list[Out]:
        view = self.view
        assert view is not None
        self.view = None
        self.awaiting = None
        self._turn = False
        return [Note(f"hand #{view.hand_no}: {why}: the bot sees no more of it", view.hand_no),
                EndHand(view.hand_no)]

    def reply(self, text: str, legal: LegalActions | None) -> tuple[Action | None, list[str]]:
        """The bot sent ``text``: the Hickory action to send (None: nothing to send) and notes."""
        view, state = self.view, self.awaiting
        if view is None or state is None or legal is None:
            return None, [f"a reply when the bot is not to act: ignored ({text[:80]!r})"]
        parsed = parse_reply(text, state)
        if parsed == "stale":
            return None, [f"a reply to another state: ignored ({text[:80]!r})"]
        action, note = reply_to_action(parsed, view, legal)
        self.awaiting = None
        valid = parsed is not None and view.betting.to_act() == view.position and view.betting.is_valid(parsed)
        self._echo = (view.hand_no, parsed, action) if valid and parsed is not None else None
        return action, [f"hand #{view.hand_no}: {note} (reply {text[:80]!r})"] if note else []
