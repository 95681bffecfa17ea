"""What a director's input may be: the limits, and the checks every operation makes before
it changes anything (a refused operation leaves the tournament as it was: ``director.py``).
Each refusal says what to do instead."""

from __future__ import annotations

from typing import Literal, Protocol

from .errors import TournamentError
from .field import Entrant
from .phase import Phase
from .settings import is_number, is_whole


class Tournament(Protocol):
    """What the checks read of a ``tournament.Tournament`` (which imports the director)."""

    phase: Phase

    @property
    def finished(self) -> bool: ...

    def entrant(self, player_id: str) -> Entrant: ...

    def who(self, player_id: str) -> str: ...

    def stack_of(self, player_id: str) -> int: ...

MAX_REASON = 200  # characters: the protocol's ``Reason``
MAX_ANNOUNCEMENT = 500  # the protocol's ``Message``
MAX_TITLE = 80  # the protocol's ``Title``
DEADLINE_GRACE = 60.0  # seconds: a deadline this recent means now (``set_deadline``)

When = Literal["any time", "running", "not finished"]


def need(t: Tournament, now: float, reason: str, when: When = "any time") -> None:
    """The checks every operation opens with: a reason for the audit, a time, and the
    phase it may happen in."""
    need_reason(reason)
    if not is_number(now):
        raise TournamentError(f"the time of an operation is a number of seconds, not {now!r}")
    if when == "running" and t.phase.value != "running":
        raise TournamentError(f"the tournament is not running ({t.phase.value})")
    if when == "not finished" and t.finished:
        raise TournamentError("the tournament is over")


def need_reason(reason: str) -> None:
    if not isinstance(reason, str) or not reason.strip():
        raise TournamentError("every director action needs a reason (it goes in the audit log)")
    if len(reason.strip()) > MAX_REASON:
        raise TournamentError(f"a reason is at most {MAX_REASON} characters, not {len(reason.strip())}")


def need_table_number(table_id: int) -> None:
    if not is_whole(table_id):
        raise TournamentError(f"a table is a number, not {table_id!r}")


def need_in(t: Tournament, player_id: str) -> None:
    """A player still in the tournament."""
    if not isinstance(player_id, str):
        raise TournamentError(f"no player {player_id!r} is registered")
    e = t.entrant(player_id)
    if e.out:
        raise TournamentError(f"{t.who(player_id)} is out of the tournament (place {e.place})")


def need_chips_left(t: Tournament, player_id: str, delta: int) -> None:
    stack = t.stack_of(player_id)
    if stack + delta < 1:
        raise TournamentError(
            f"{t.who(player_id)} has {stack} chips: a change of {delta} would leave "
            "none; remove the player instead"
        )
