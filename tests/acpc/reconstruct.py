"""What an ACPC bot should see of a Hickory hand, rebuilt from the engine's own events.

The test side of the bridge's contract, independent of the bridge's code: from the hand
as Hickory recorded it (every event, every hole card) it works out the ACPC game (positions
counted from the button, each position's stack and posted blind), and the states a bot in
a given seat should be sent when each Hickory action is written the plain way: a fold is ``f``; any other action is
``c`` if it leaves the player with no more in the pot than the most anyone has put in,
else ``r`` + the player's total for the hand. When that
plain translation breaks the ACPC rules, or leaves a player with other chips in than
Hickory counts, (``tests/acpc/spec.py``) there is no single right
answer and ``states`` is None: the test then checks the lines against the rules and the
hand's cards instead, and that the bridge logged what it changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from poker import events as ev
from poker.cards import card_str
from tests.acpc.spec import Game, MatchState, Replay, SpecError, replay

STREETS = {ev.Street.PREFLOP: 0, ev.Street.FLOP: 1, ev.Street.TURN: 2, ev.Street.RIVER: 3}
BOARD_AT = (0, 3, 4, 5)


@dataclass
class Truth:
    hand_no: int
    game: Game
    seats: tuple[int, ...]  # seat at each ACPC position
    holes: dict[int, str]
    board: str
    shown: dict[int, str]
    actions: list[tuple[int, int, str, int]]  # (street, position, "f" or "r<total in>", total in)
    showdown: bool

    def position(self, seat: int) -> int:
        return self.seats.index(seat)


def truth_of(events: Sequence[ev.Event]) -> Truth:
    start = next(e for e in events if isinstance(e, ev.HandStarted))
    stacks = dict(start.stacks)
    order = sorted(stacks)
    after = [s for s in order if s > start.button] + [s for s in order if s <= start.button]
    seats = tuple(after)
    n = len(seats)
    posted = {e.seat: e.amount for e in events if isinstance(e, ev.BlindPosted)}
    game = Game(
        stacks=tuple(stacks[s] for s in seats),
        blinds=tuple(posted.get(s, 0) for s in seats),
        first=(1, 0, 0, 0) if n == 2 else (2 % n, 0, 0, 0),
    )
    holes = {e.seat: "".join(card_str(c) for c in e.cards) for e in events if isinstance(e, ev.HoleCardsDealt)}
    board = ""
    shown: dict[int, str] = {}
    total = dict(posted)
    actions = []
    showdown = False
    for e in events:
        if isinstance(e, ev.ActionTaken):
            total[e.seat] = total.get(e.seat, 0) + e.amount
            token = "f" if e.action.value == "fold" else f"r{total[e.seat]}"
            actions.append((STREETS[e.street], seats.index(e.seat), token, total[e.seat]))
        elif isinstance(e, ev.BoardDealt):
            board = "".join(card_str(c) for c in e.board)
        elif isinstance(e, ev.HandShown):
            shown[e.seat] = "".join(card_str(c) for c in e.cards)
        elif isinstance(e, ev.HandEnded):
            showdown = e.showdown
    return Truth(start.hand_no, game, seats, holes, board, shown, actions, showdown)


def line_for(truth: Truth, r: Replay, viewer: int) -> str:
    holes = []
    for p, seat in enumerate(truth.seats):
        visible = p == viewer or (r.over and r.showdown and not r.folded[p])
        holes.append(truth.holes[seat] if visible else "")
    cards = "|".join(holes)
    for rnd in range(1, r.round + 1):
        cards += "/" + truth.board[2 * BOARD_AT[rnd - 1]: 2 * BOARD_AT[rnd]]
    return f"MATCHSTATE:{viewer}:{truth.hand_no}:{r.betting()}:{cards}"


def states(truth: Truth, viewer: int) -> list[str] | None:
    """Every state of the hand for position ``viewer`` under the plain translation, or None
    when the plain translation is not a valid ACPC hand (or ends apart from Hickory's)."""
    r = Replay(truth.game)
    out = [line_for(truth, r, viewer)]
    try:
        for street, p, token, total in truth.actions:
            if r.round != street or r.actor() != p:
                return None
            if token != "f" and total <= r.high:
                token = "c"  # puts in no more than the bet to match: a call (or a check)
            r.act(token)
            if token != "f" and r.spent[p] != total:
                return None  # the chips differ (a call of a short blind's full amount)
            out.append(line_for(truth, r, viewer))
    except SpecError:
        return None
    if not r.over or r.showdown != truth.showdown:
        return None
    if r.showdown and len(truth.board) != 10:
        return None
    return out


def check_line(truth: Truth, viewer: int, line: str, state: MatchState) -> list[str]:
    """What is wrong with a line beyond the betting rules: position, cards, hand number."""
    problems = []
    if state.position != viewer:
        problems.append(f"position {state.position}, expected {viewer}")
    if state.hand != truth.hand_no:
        problems.append(f"hand {state.hand}, expected {truth.hand_no}")
    if state.holes[viewer] != truth.holes[truth.seats[viewer]]:
        problems.append(f"own cards {state.holes[viewer]}, dealt {truth.holes[truth.seats[viewer]]}")
    for p, h in enumerate(state.holes):
        if h and p != viewer and h != truth.shown.get(truth.seats[p]):
            problems.append(f"position {p} shown as {h}, Hickory showed {truth.shown.get(truth.seats[p])}")
    for rnd, b in enumerate(state.boards, start=1):
        if b != truth.board[2 * BOARD_AT[rnd - 1]: 2 * BOARD_AT[rnd]]:
            problems.append(f"round {rnd} board {b}, dealt {truth.board}")
    return problems


def is_final(truth: Truth, state: MatchState) -> bool:
    try:
        return replay(truth.game, state).over
    except SpecError:
        return False
