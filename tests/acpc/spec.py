"""The ACPC protocol (version 2.0.0) as the tests read it: game files, MATCHSTATE lines,
and the no-limit betting rules, written from protocol.md and the server README only.

This is deliberately a second, independent implementation (the bridge has its own in
``client/acpc/betting.py``): it replays a whole betting string from the start each time
and checks every action against the rules as the specification words them, so a line
the bridge gets wrong is caught here, not confirmed by the same code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

CARD = re.compile(r"[2-9TJQKA][shdc]")
BOARD_PER_ROUND = (0, 3, 1, 1)


class SpecError(Exception):
    """A line or a game file the specification does not allow."""


@dataclass(frozen=True)
class Game:
    stacks: tuple[int, ...]
    blinds: tuple[int, ...]
    first: tuple[int, ...]  # 0-based first player of each round

    @property
    def n(self) -> int:
        return len(self.stacks)

    @property
    def big_blind(self) -> int:
        return max(max(self.blinds), 1)


def parse_game(text: str) -> Game:
    """A no-limit game file (keys are case-insensitive; '#' lines are comments)."""
    values: dict[str, list[str]] = {}
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    if not lines or lines[0].lower() != "gamedef" or lines[-1].lower() != "end gamedef":
        raise SpecError("a game file is GAMEDEF ... END GAMEDEF")
    kinds = [ln.lower() for ln in lines[1:-1] if "=" not in ln]
    if kinds != ["nolimit"]:
        raise SpecError(f"expected a no-limit game, got {kinds}")
    for ln in lines[1:-1]:
        if "=" in ln:
            key, _, val = ln.partition("=")
            values[key.strip().lower()] = val.split()
    n = int(values["numplayers"][0])
    game = Game(
        stacks=tuple(int(v) for v in values["stack"]),
        blinds=tuple(int(v) for v in values["blind"]),
        first=tuple(int(v) - 1 for v in values["firstplayer"]),
    )
    checks = {
        "numrounds": ["4"], "numsuits": ["4"], "numranks": ["13"], "numholecards": ["2"],
        "numboardcards": ["0", "3", "1", "1"],
    }
    for key, want in checks.items():
        if values.get(key) != want:
            raise SpecError(f"{key} = {values.get(key)}, expected {want}")
    if len(game.stacks) != n or len(game.blinds) != n or len(game.first) != 4:
        raise SpecError("stack/blind/firstPlayer do not match numPlayers and numRounds")
    return game


@dataclass
class MatchState:
    position: int
    hand: int
    rounds: list[list[str]]  # action tokens of each round: "f", "c", "r250"
    holes: list[str]  # per position, "" when unknown
    boards: list[str]  # per round after the first

    @property
    def betting(self) -> str:
        return "/".join("".join(r) for r in self.rounds)


_LINE = re.compile(r"MATCHSTATE:(\d+):(\d+):([^:]*):([^:]*)")
_ACTION = re.compile(r"f|c|r\d+")


def parse_matchstate(line: str) -> MatchState:
    found = _LINE.fullmatch(line)
    if found is None:
        raise SpecError(f"not a MATCHSTATE line: {line!r}")
    pos, hand, betting, cards = found.groups()
    rounds = []
    for part in betting.split("/"):
        tokens = _ACTION.findall(part)
        if "".join(tokens) != part:
            raise SpecError(f"bad betting {betting!r}")
        rounds.append(tokens)
    sections = cards.split("/")
    holes = sections[0].split("|")
    for h in holes:
        if h and (len(h) != 4 or not all(CARD.fullmatch(h[i:i + 2]) for i in (0, 2))):
            raise SpecError(f"bad hole cards {h!r} in {line!r}")
    boards = sections[1:]
    if len(boards) != len(rounds) - 1:
        raise SpecError(f"{len(rounds)} betting rounds but {len(boards)} board sections: {line!r}")
    for r, b in enumerate(boards, start=1):
        if len(b) != 2 * BOARD_PER_ROUND[r] or not all(CARD.fullmatch(b[i:i + 2]) for i in range(0, len(b), 2)):
            raise SpecError(f"round {r} board {b!r} in {line!r}")
    return MatchState(int(pos), int(hand), rounds, holes, boards)


@dataclass
class Replay:
    """A betting string replayed action by action under the rules of protocol.md."""

    game: Game
    spent: list[int] = field(default_factory=list)
    folded: list[bool] = field(default_factory=list)
    round: int = 0
    rounds: list[list[str]] = field(default_factory=lambda: [[]])
    last: int | None = None  # who acted last in this round
    answered: set[int] = field(default_factory=set)  # called (or raised) since the last raise
    min_to: int = 0  # the smallest full raise-to (see min_raise)
    over: bool = False
    showdown: bool = False

    def __post_init__(self) -> None:
        self.spent = list(self.game.blinds)
        self.folded = [False] * self.game.n
        self.min_to = self.high + self.game.big_blind
        if not [p for p in range(self.game.n) if self.is_active(p)]:
            # Everyone all in from the blinds (the spec does not say; the bridge shows the
            # rounds empty, as after an all-in call).
            self.over = self.showdown = True
            self.rounds = [[], [], [], []]
            self.round = 3

    def is_active(self, p: int) -> bool:
        return not self.folded[p] and self.spent[p] < self.game.stacks[p]

    @property
    def high(self) -> int:
        return max(self.spent)

    def actor(self) -> int | None:
        if self.over:
            return None
        n = self.game.n
        first = self.last + 1 if self.last is not None else self.game.first[self.round]
        for d in range(n):
            if self.is_active((first + d) % n):
                return (first + d) % n
        return None

    def min_raise(self, p: int) -> int | None:
        """The smallest valid raise-to for p (its all-in if it cannot reach a full raise);
        None when p cannot raise at all."""
        stack = self.game.stacks[p]
        if stack <= self.high:
            return None
        if sum(1 for q in range(self.game.n) if q != p and self.is_active(q)) == 0:
            return None  # nobody to bet against (the dealer's rule; the spec implies it)
        # The dealer's rule (the ACPC server's game.c keeps a minimum raise-to): the bet
        # plus the big blind at the start of a round; after a raise to T over a bet B,
        # T + (T - B) if that is more. protocol.md's "by at least every other raise" says
        # more than the dealer does after a short all-in raise (400, all in to 650: the
        # dealer's minimum is 900, not 950); the dealer is what bots parse with.
        return min(self.min_to, stack)

    def valid(self, token: str) -> bool:
        p = self.actor()
        if p is None:
            return False
        if token == "c":
            return True
        if token == "f":
            return self.spent[p] < self.high
        size = int(token[1:])
        lo = self.min_raise(p)
        return lo is not None and lo <= size <= self.game.stacks[p]

    def act(self, token: str) -> None:
        if not self.valid(token):
            raise SpecError(f"{token} is not valid after {self.betting()!r} (spent {self.spent})")
        p = self.actor()
        assert p is not None
        if token == "f":
            self.folded[p] = True
        elif token == "c":
            self.spent[p] = min(self.high, self.game.stacks[p])
            self.answered.add(p)
        else:
            size = int(token[1:])
            self.min_to = max(self.min_to, 2 * size - self.high)
            self.spent[p] = size
            self.answered = {p}
        self.rounds[self.round].append(token)
        self.last = p
        live = [q for q in range(self.game.n) if not self.folded[q]]
        if len(live) == 1:
            self.over = True
            return
        active = {q for q in range(self.game.n) if self.is_active(q)}
        if active <= self.answered:  # the round is over
            if len(active) >= 2 and self.round < 3:
                self.round += 1
                self.rounds.append([])
                self.last = None
                self.answered = set()
                self.min_to = self.high + self.game.big_blind
            else:
                self.over = self.showdown = True
                while len(self.rounds) < 4:
                    self.rounds.append([])
                self.round = 3

    def betting(self) -> str:
        return "/".join("".join(r) for r in self.rounds)


def replay(game: Game, state: MatchState) -> Replay:
    """Replay a state's betting; SpecError if any action or round break is invalid."""
    r = Replay(game)
    for i, tokens in enumerate(state.rounds):
        if i > 0 and r.round < i and not r.over:
            raise SpecError(f"round {i} begins before round {i - 1} is over: {state.betting!r}")
        if i > 0 and r.over and r.showdown and tokens:
            raise SpecError(f"betting after the hand is over: {state.betting!r}")
        for t in tokens:
            r.act(t)
    if len(state.rounds) - 1 != r.round:
        raise SpecError(f"the string shows round {len(state.rounds) - 1}, the betting is in round {r.round}: {state.betting!r}")
    if len(state.holes) != game.n:
        raise SpecError(f"{len(state.holes)} hole card sections for {game.n} players")
    shown = [p for p, h in enumerate(state.holes) if h and p != state.position]
    if shown and not (r.over and r.showdown):
        raise SpecError(f"other players' cards shown before a showdown: {state.holes}")
    if r.over and r.showdown:
        missing = [p for p in range(game.n) if not r.folded[p] and not state.holes[p]]
        if missing and len(state.boards) == 3:
            raise SpecError(f"positions {missing} are in the showdown but not shown")
    return r
