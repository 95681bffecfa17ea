"""ACPC game definitions: the game file a bot reads, for one Hickory hand.

An ACPC bot learns the rules of the game it plays from a game definition file (the
``GAMEDEF`` ... ``END GAMEDEF`` block of the ACPC server's README): the number of players,
each position's stack and blind, who acts first in each betting round. ACPC matches keep
those fixed for every hand; a tournament changes stacks and blinds every hand, so the
bridge writes one game definition per hand with that hand's exact numbers.

Positions are ACPC's: position 0 is the first player dealt in after the button. Heads-up,
position 0 is the big blind and the button (position 1) posts the small blind and acts
first before the flop (ACPC's "reverse blinds", which is also Hickory's heads-up rule);
with three or more, positions 0 and 1 post the blinds and position 2 acts first before
the flop. A blind the seat cannot cover is that seat's whole stack (what it posts).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

__all__ = ["GameDef", "game_for_hand"]

ROUNDS = 4
BOARD_CARDS = (0, 3, 1, 1)
"""Board cards dealt at the start of each betting round (pre-flop, flop, turn, river)."""


@attrs.frozen(kw_only=True)
class GameDef:
    """A no-limit hold'em game definition; every tuple is indexed by ACPC position.

    ``first_player`` is 0-based here (the file writes it 1-based, as ACPC does).
    """

    stacks: tuple[int, ...]
    blinds: tuple[int, ...]
    first_player: tuple[int, ...]

    def __attrs_post_init__(self) -> None:
        n = len(self.stacks)
        if not 2 <= n <= 10:
            raise ValueError(f"an ACPC game has 2 to 10 players, not {n}")
        if len(self.blinds) != n:
            raise ValueError(f"{len(self.blinds)} blinds for {n} players")
        if len(self.first_player) != ROUNDS or not all(0 <= p < n for p in self.first_player):
            raise ValueError(f"first players {self.first_player} do not fit {n} players and {ROUNDS} rounds")
        if any(b < 0 or b > s for b, s in zip(self.blinds, self.stacks, strict=True)):
            raise ValueError(f"blinds {self.blinds} must be within the stacks {self.stacks}")

    @property
    def players(self) -> int:
        return len(self.stacks)

    @property
    def big_blind(self) -> int:
        """The largest blind: ACPC's unit for the smallest bet and raise."""
        return max(max(self.blinds), 1)

    def text(self) -> str:
        """The game definition file, as the ACPC dealer and its bots read it."""
        return "\n".join([
            "GAMEDEF",
            "nolimit",
            f"numPlayers = {self.players}",
            f"numRounds = {ROUNDS}",
            f"stack = {_ints(self.stacks)}",
            f"blind = {_ints(self.blinds)}",
            f"firstPlayer = {_ints(p + 1 for p in self.first_player)}",
            "numSuits = 4",
            "numRanks = 13",
            "numHoleCards = 2",
            f"numBoardCards = {_ints(BOARD_CARDS)}",
            "END GAMEDEF",
            "",
        ])


def _ints(values: Iterable[int]) -> str:
    return " ".join(str(v) for v in values)


def game_for_hand(
    stacks: Sequence[tuple[int, int]],
    *,
    button: int,
    small_blind_seat: int,
    big_blind_seat: int,
    small_blind: int,
    big_blind: int,
) -> tuple[GameDef, tuple[int, ...]]:
    """The game of one hand and the seat at each position.

    ``stacks`` are ``(seat, stack before the blinds)`` for every seat dealt in (as in
    ``hand_started``). Returns the game and ``seats``, where ``seats[position]`` is the
    table seat; ValueError if the blinds are not where ACPC expects them.
    """
    by_seat = dict(stacks)
    if button not in by_seat:
        raise ValueError(f"the button seat {button} is not dealt in")
    ordered = sorted(by_seat)
    start = next((i for i, s in enumerate(ordered) if s > button), 0)
    seats = tuple(ordered[start:] + ordered[:start])
    n = len(seats)
    blind_positions = (1, 0) if n == 2 else (0, 1)  # small, big
    if (seats[blind_positions[0]], seats[blind_positions[1]]) != (small_blind_seat, big_blind_seat):
        raise ValueError(
            f"blinds in seats {small_blind_seat}/{big_blind_seat} are not the ACPC positions "
            f"after the button {button} (seats in order {seats})"
        )
    blinds = [0] * n
    blinds[blind_positions[0]] = min(small_blind, by_seat[small_blind_seat])
    blinds[blind_positions[1]] = min(big_blind, by_seat[big_blind_seat])
    first = (1, 0, 0, 0) if n == 2 else (2 % n, 0, 0, 0)
    game = GameDef(
        stacks=tuple(by_seat[s] for s in seats), blinds=tuple(blinds), first_player=first
    )
    return game, seats
