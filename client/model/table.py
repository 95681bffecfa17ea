"""The table this connection sits at or watches: its seats, clocks and the hand's winners.

Pure data with the few moves that belong to the table itself (built from a snapshot, a
player changing seats); the server's hand events move it forward in
``client.model.table_updates``.
"""

from __future__ import annotations

import attrs

from client.strategies.base import SeenAction
from poker.cards import Card, parse_card
from poker.events import Street
from protocol import messages as m


@attrs.define(kw_only=True)
class SeatModel:
    """One occupied seat. ``cards`` are card strings ("As") when this connection may see them.

    ``in_hand``: dealt into the hand in play; ``committed``: chips put in this hand (as far
    as seen: a snapshot taken mid-hand only knows this round's bet); ``showed``: the cards
    were shown this hand; ``shown``: the name of the hand shown (named by the client once
    the board is out if they were shown all in before it); ``last``: the seat's last
    action, for display.
    """

    seat: int
    player_id: int
    name: str
    stack: int
    bet: int = 0
    folded: bool = False
    all_in: bool = False
    sitting_out: bool = False
    connected: bool = True
    cards: tuple[str, ...] | None = None
    in_hand: bool = False
    committed: int = 0
    shown: str | None = None
    showed: bool = False
    last: str | None = None

    def put_in(self, amount: int, *, to: int, all_in: bool) -> None:
        """``amount`` chips go from the stack into the bet in front, which is then ``to``."""
        self.stack -= amount
        self.bet = to
        self.committed += amount
        self.all_in = all_in


@attrs.frozen(kw_only=True)
class TurnClock:
    """The acting seat's clocks, from a ``turn`` message or a snapshot (protocol v2).

    ``received_at`` is the caller's clock reading when it arrived (None if not given);
    the action clock runs out ``deadline_ms`` after it, then the time bank.
    """

    seat: int
    deadline_ms: int
    time_bank_ms: int
    received_at: float | None = None

    def left(self, now: float) -> tuple[str, float]:
        """("clock" or "bank", seconds left on it) at ``now``."""
        start = self.received_at if self.received_at is not None else now
        gone = max(0.0, now - start)
        clock = self.deadline_ms / 1000 - gone
        if clock > 0:
            return "clock", clock
        return "bank", max(0.0, self.time_bank_ms / 1000 + clock)


@attrs.frozen(kw_only=True)
class Won:
    """What a seat won in the hand just played: shown on the table until the next hand."""

    amount: int
    hand: str | None = None


@attrs.define(kw_only=True)
class TableModel:
    """The table this connection sits at or watches, as of the last message applied.

    ``street`` is None between hands. ``pots`` are the pots as the server last reported
    them (a snapshot counts the bets in front in them, a ``pots`` message comes when the
    bets are collected; both count the carried chips in the main pot). ``collected`` is
    the chips gathered into the pots so far, carried chips included, bets in front not:
    ``pot_total`` (collected plus bets) is what the hand is worth now.
    ``carried`` is for display only (already in ``collected``). ``small_blind_seat`` and
    ``big_blind_seat`` are known from ``hand_started`` or a version 3 snapshot (None
    after a version 1 or 2 snapshot taken mid-hand). ``actions`` is the hand's actions so far (empty if joined mid-hand).
    """

    table: int
    max_seats: int
    hand_no: int | None = None
    street: Street | None = None
    button: int | None = None
    small_blind: int = 0
    big_blind: int = 0
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    ante: int = 0  # the big-blind ante of the hand in play (in ``collected``), or the level's
    seats: dict[int, SeatModel] = attrs.Factory(dict)
    board: tuple[str, ...] = ()
    pots: list[m.Pot] = attrs.Factory(list)
    carried: int = 0
    collected: int = 0
    to_act: int | None = None
    your_seat: int | None = None
    your_cards: tuple[str, ...] | None = None
    dealt: tuple[int, ...] = ()
    actions: list[SeenAction] = attrs.Factory(list)
    clock: TurnClock | None = None
    winners: dict[int, Won] = attrs.Factory(dict)

    @property
    def current_bet(self) -> int:
        """The largest bet in front this round."""
        return max((s.bet for s in self.seats.values()), default=0)

    @property
    def pot_total(self) -> int:
        """Every pot, every bet in front and the carried chips: what the hand is worth now."""
        return self.collected + sum(s.bet for s in self.seats.values())

    @property
    def me(self) -> SeatModel | None:
        return None if self.your_seat is None else self.seats.get(self.your_seat)

    def name_of(self, seat: int) -> str:
        s = self.seats.get(seat)
        return s.name if s is not None else f"seat {seat}"

    def seat_of_player(self, player_id: int) -> SeatModel | None:
        for s in self.seats.values():
            if s.player_id == player_id:
                return s
        return None

    @classmethod
    def from_snapshot(cls, snap: m.TableSnapshot) -> TableModel:
        running = snap.street is not None
        seats = {
            v.seat: SeatModel(
                seat=v.seat,
                player_id=v.player_id,
                name=v.name,
                stack=v.stack,
                bet=v.bet,
                folded=v.folded,
                all_in=v.all_in,
                sitting_out=v.sitting_out,
                connected=v.connected,
                cards=v.cards,
                in_hand=running if v.in_hand is None else v.in_hand,
                committed=v.bet,
            )
            for v in snap.seats
        }
        return cls(
            table=snap.table,
            max_seats=snap.max_seats,
            hand_no=snap.hand_no,
            street=Street(snap.street) if snap.street is not None else None,
            button=snap.button,
            small_blind=snap.small_blind,
            big_blind=snap.big_blind,
            seats=seats,
            board=snap.board,
            pots=list(snap.pots),
            carried=snap.carried,
            collected=max(0, sum(p.amount for p in snap.pots) - sum(v.bet for v in snap.seats)),
            to_act=snap.to_act,
            your_seat=snap.your_seat,
            your_cards=snap.your_cards,
            dealt=tuple(sorted(s for s, v in seats.items() if v.in_hand)) if running else (),
            small_blind_seat=snap.small_blind_seat,
            big_blind_seat=snap.big_blind_seat,
            ante=snap.ante or 0,
        )

    def move_seat(self, from_seat: int, to_seat: int) -> SeatModel | None:
        """A player changes seats at this table: the same seat object, bets and all."""
        s = self.seats.pop(from_seat, None)
        if s is None:
            return None
        s.seat = to_seat
        self.seats[to_seat] = s
        if self.to_act == from_seat:
            self.to_act = to_seat
        if self.your_seat == from_seat:
            self.your_seat = to_seat
        self.dealt = tuple(sorted(to_seat if x == from_seat else x for x in self.dealt))
        return s


def engine_cards(texts: tuple[str, ...]) -> tuple[Card, ...]:
    """Card strings ("As") as the engine's cards, to name a hand or build a situation."""
    return tuple(parse_card(c) for c in texts)
