"""Nested objects inside messages (no ``"type"``): seats, pots, levels, places, hand records."""

from typing import Literal

import attrs

from protocol.fields import (
    ActionKind,
    Card,
    ClientSeedHex,
    Digest,
    DrawKind,
    Name,
    Reason,
    SeatNo,
    ServerText,
    Street,
    TableNo,
    Timestamp,
    Title,
    since,
)

# =====================================================================================
# Parts (nested objects, no "type")
# =====================================================================================


@attrs.frozen(kw_only=True)
class Level:
    """A blind level: its position in the schedule and its blinds.

    Attributes:
        index: position in the schedule, from 0
        ante: the big-blind ante at this level, 0 for none (since v3)
    """

    index: int
    small_blind: int
    big_blind: int
    ante: int | None = attrs.field(default=None, metadata=since(3))


@attrs.frozen(kw_only=True)
class ScheduleLevel:
    """One level of the blind schedule. A level lasts ``minutes`` or ``hands``, not both.

    Attributes:
        minutes: length of the level in minutes (null if counted in hands)
        hands: length of the level in hands per table (null if counted in minutes)
        ante: the big-blind ante at this level, 0 or null for none; in the director's
            set_schedule, levels with antes turn the big-blind ante on (since v3)
    """

    small_blind: int
    big_blind: int
    minutes: int | None = None
    hands: int | None = None
    ante: int | None = attrs.field(default=None, metadata=since(3))


@attrs.frozen(kw_only=True)
class LobbyPlayer:
    """One entrant as the lobby shows them.

    Attributes:
        chips: total chips (0 once eliminated)
        table: table number, null if not seated
        seat: seat number, null if not seated
        status: waiting (registered, not seated yet), playing, sitting_out, disconnected
            or eliminated
    """

    player_id: int
    name: Name
    chips: int
    table: TableNo | None
    seat: SeatNo | None
    status: Literal["waiting", "playing", "sitting_out", "disconnected", "eliminated"]


@attrs.frozen(kw_only=True)
class LobbyTable:
    """A table in play and who sits there.

    Attributes:
        players: player ids seated at this table
        hand_no: the hand in play or last played there, null before its first hand
            (since v2)
    """

    table: TableNo
    players: tuple[int, ...]
    hand_no: int | None = attrs.field(default=None, metadata=since(2))


@attrs.frozen(kw_only=True)
class SeatView:
    """One occupied seat as this connection may see it.

    Attributes:
        bet: chips put in during the current betting round
        folded: has folded this hand
        sitting_out: is sitting out (blinds are posted and hands folded for them)
        connected: has a live connection
        cards: hole cards if this connection may see them (its own, or shown at showdown),
            else null. A seat that has not folded in a running hand holds two cards.
        in_hand: dealt into the hand in play (false for a player seated since it was dealt:
            they play from the next hand); null between hands (since v3)
    """

    seat: SeatNo
    player_id: int
    name: Name
    stack: int
    bet: int
    folded: bool
    all_in: bool
    sitting_out: bool
    connected: bool
    cards: tuple[Card, ...] | None
    in_hand: bool | None = attrs.field(default=None, metadata=since(3))


@attrs.frozen(kw_only=True)
class Pot:
    """A pot and the seats that can win it (main pot first, then side pots).

    Attributes:
        amount: chips in this pot
        eligible: seats that can win this pot
    """

    amount: int
    eligible: tuple[SeatNo, ...]


@attrs.frozen(kw_only=True)
class SeatStack:
    """A seat's stack at a moment named by the enclosing message."""

    seat: SeatNo
    stack: int


@attrs.frozen(kw_only=True)
class Winner:
    """A seat's share of one pot.

    Attributes:
        amount: chips this seat wins from the pot
    """

    seat: SeatNo
    amount: int


@attrs.frozen(kw_only=True)
class Legal:
    """The legal actions now, from the engine's own query (the same one that validates).

    Attributes:
        fold: folding is allowed
        check: checking is allowed
        call: chips you would add to call, or null if there is nothing to call. If it is
            all your chips, calling puts you all in.
        min_raise_to: smallest legal bet/raise *to* total, or null if you cannot bet or
            raise. If your stack is short of a full raise this equals max_raise_to.
        max_raise_to: largest legal bet/raise *to* total (your all-in), or null
        stack: your chips behind, not counting your bet in this round (since v2)
        all_in_to: your bet in this round if you put in every chip: the *to* total of
            going all in, whether that is a call, a bet or a raise (since v2)
    """

    fold: bool
    check: bool
    call: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    stack: int | None = attrs.field(default=None, metadata=since(2))
    all_in_to: int | None = attrs.field(default=None, metadata=since(2))


@attrs.frozen(kw_only=True)
class Place:
    """A line of the standings.

    Attributes:
        place: 1 is the leader (or winner); eliminated players keep the place they
            finished in
        chips: chips now (0 if eliminated)
        eliminated_in_hand: hand number of the elimination, null if still playing
        entry: which of the player's entries this line is: a player who re-entered has a
            line per entry, and only the last can still be playing (since v3)
        entries: how many entries the player has made (since v3)
    """

    place: int
    player_id: int
    name: Name
    chips: int
    eliminated_in_hand: int | None
    entry: int | None = attrs.field(default=None, metadata=since(3))
    entries: int | None = attrs.field(default=None, metadata=since(3))


@attrs.frozen(kw_only=True)
class DealtCards:
    """A seat's hole cards, as the TV table's spectators see them once the hand is over."""

    seat: SeatNo
    cards: tuple[Card, ...]


@attrs.frozen(kw_only=True)
class Trophy:
    """A trophy of the night (version 2): "Winner" and "Runner-up" by the final standings,
    then the director's own titles.

    Attributes:
        title: the trophy
        by_rule: true for the winner and runner-up, false for a director's title
    """

    title: Title
    player_id: int
    name: Name
    by_rule: bool


@attrs.frozen(kw_only=True)
class ScheduledBreak:
    """A break in the schedule (version 2): when the level clock moves on from
    ``after_level`` by itself, no new hand starts for ``minutes``; then the next level
    starts from its beginning.

    Attributes:
        after_level: the level it follows, numbered from 1
        minutes: how long it lasts
        taken: true once it has begun (a break is taken once)
    """

    after_level: int
    minutes: int
    taken: bool


@attrs.frozen(kw_only=True)
class RuleChange:
    """One rule change of the night (version 2), as the players were told it.

    Attributes:
        rules_version: the rules version it made
        at: when it was made
        what: what changed, in words ("action clock 30 s from the next hand")
        reason: the director's reason
    """

    rules_version: int
    at: Timestamp
    what: ServerText
    reason: Reason


@attrs.frozen(kw_only=True)
class Rules:
    """The rules in force (version 2). Every change the director makes is a new
    ``rules_version``, announced with its reason; it applies from each table's next hand.

    Attributes:
        rules_version: 1 as the tournament was set up, +1 with every rule change
        ruleset: the minimum-raise rule: hickory (every raise adds at least the big
            blind) or standard (at least the largest raise this round)
        seats_per_table: seats at each table (fixed for the night)
        level_unit: how levels are measured: minutes, or hands per table in play
        level_length: the length of a level, in level_unit
        action_seconds: the action clock per decision
        time_bank_seconds: each player's time bank, used after the action clock
        reconnect_grace_seconds: how long the server waits for a dropped connection
            before it announces the player as disconnected
        deadline: the time the tournament should end by, or null
        odd_chip: what happens to an odd chip that cannot be split (the rulebook's rule)
        breaks: the scheduled breaks, by level
        changes: the latest rule changes, the newest last (at most 10)
        big_blind_ante: whether the big blind posts an ante for the table, before the
            blind (TDA); each level's ante is in the schedule (since v3)
        max_entries: the entries a player may make, the first included: 1 is no
            re-entry (since v3)
        reentry_until_level: re-entry is open through this level, null while late
            registration is open (since v3)
        tv_table: the TV table, whose spectators see every hand's hole cards once the
            hand is over; null: none (since v3)
        tv_delay_seconds: how long after each hand ends they see them (since v3)
    """

    rules_version: int
    ruleset: Literal["hickory", "standard"]
    seats_per_table: int
    level_unit: Literal["minutes", "hands"]
    level_length: int
    action_seconds: int
    time_bank_seconds: int
    reconnect_grace_seconds: int
    deadline: Timestamp | None
    odd_chip: ServerText
    breaks: tuple[ScheduledBreak, ...]
    changes: tuple[RuleChange, ...]
    big_blind_ante: bool | None = attrs.field(default=None, metadata=since(3))
    max_entries: int | None = attrs.field(default=None, metadata=since(3))
    reentry_until_level: int | None = attrs.field(default=None, metadata=since(3))
    tv_table: int | None = attrs.field(default=None, metadata=since(3))
    tv_delay_seconds: int | None = attrs.field(default=None, metadata=since(3))


@attrs.frozen(kw_only=True)
class HandPlayer:
    """A player dealt into a recorded hand.

    Attributes:
        stack: chips at the start of the hand, before blinds
    """

    seat: SeatNo
    player_id: int
    name: Name
    stack: int


@attrs.frozen(kw_only=True)
class BlindPost:
    """A blind posted in a recorded hand.

    Attributes:
        blind: which blind
        amount: chips posted (less than the blind if it put the player all in)
    """

    seat: SeatNo
    blind: Literal["small", "big"]
    amount: int
    all_in: bool


@attrs.frozen(kw_only=True)
class HandAction:
    """One action in a recorded hand.

    Attributes:
        street: betting round of the action
        action: what the player did
        amount: chips put in by this action
        to: the player's total bet in this betting round after the action
        automatic: the server acted for the player (clock ran out, sitting out,
            disconnected)
    """

    street: Street
    seat: SeatNo
    action: ActionKind
    amount: int
    to: int
    all_in: bool
    automatic: bool


@attrs.frozen(kw_only=True)
class ShownHand:
    """Cards shown at showdown in a recorded hand.

    Attributes:
        hand_name: the hand they make, e.g. "Two pair, aces and kings"; null if the hand
            ended before it was complete
    """

    seat: SeatNo
    cards: tuple[Card, ...]
    hand_name: ServerText | None


@attrs.frozen(kw_only=True)
class PotResult:
    """How one pot of a recorded hand was split.

    Attributes:
        pot: pot index, 0 for the main pot
        amount: chips in the pot
        winners: who won what
        hand_name: the winning hand, e.g. "Flush, ace high"; null when won without a
            showdown
        remainder_carried: odd chips that could not be split evenly and are carried
            into the next hand
    """

    pot: int
    amount: int
    winners: tuple[Winner, ...]
    hand_name: ServerText | None = None
    remainder_carried: int


@attrs.frozen(kw_only=True)
class HandRecord:
    """A finished hand as the requester may see it.

    Your own hole cards are included even if you folded; other players' cards only if
    they were shown at showdown.

    Attributes:
        level: blind level index
        button: seat of the button
        carried_in: odd chips carried in from the previous hand
        players: who was dealt in, with starting stacks
        blinds: blinds posted
        actions: every action in order, automatic ones marked
        shown: hands shown at showdown
        your_seat: the requester's seat in this hand, null if not dealt in
        your_cards: the requester's hole cards, null if not dealt in
        results: how each pot was split
        carried_out: odd chips carried into the next hand
        stacks: stacks at the end of the hand
        ante: the big-blind ante the big blind posted, dead money in the main pot (the
            players' stacks are before it); 0 for none (since v3)
    """

    table: TableNo
    hand_no: int
    level: int
    button: SeatNo
    small_blind: int
    big_blind: int
    carried_in: int
    players: tuple[HandPlayer, ...]
    blinds: tuple[BlindPost, ...]
    actions: tuple[HandAction, ...]
    board: tuple[Card, ...]
    shown: tuple[ShownHand, ...]
    your_seat: SeatNo | None
    your_cards: tuple[Card, ...] | None
    results: tuple[PotResult, ...]
    carried_out: int
    stacks: tuple[SeatStack, ...]
    ante: int | None = attrs.field(default=None, metadata=since(3))




@attrs.frozen(kw_only=True)
class SeedEntry:
    """One player's place in a draw's seed list (docs/fairness.md).

    Attributes:
        seat: the seat at the table (0 in the seat draw, before anyone has a seat)
        player_id: whose seed it is
        seed: the seed the server received in time (hex), or null if none came
    """

    seat: int
    player_id: int
    seed: ClientSeedHex | None


@attrs.frozen(kw_only=True)
class RevealedDraw:
    """A draw's server seed, revealed once no card it decides can still be hidden.

    Attributes:
        draw: deck (a hand) or seating (the seat draw and every later seating draw)
        table: the table (0 for the seat draw)
        number: which hand at that table (1 for its first; 0 for the seat draw)
        hand_no: the hand this deck was dealt to (null for the seat draw)
        commit: the commitment sent before the draw
        server_seed: the server's seed (64 hex digits): SHA-256 of the draw and this seed
            is the commitment, and with the seed list it gives the deck
    """

    draw: DrawKind
    table: int
    number: int
    hand_no: int | None
    commit: Digest
    server_seed: Digest
