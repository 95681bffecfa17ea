"""One example of every message, part and director command, from one imagined evening.

The tests round-trip and schema-check every example here; the docs generator renders them
as the JSON example of each message. They tell one small story: "Friday Night Hickory",
level 3 (50/100), hand 42 at table 1, Alice (player 1) in seat 1 on the button.
"""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from protocol.messages import PROTOCOL_NAME, SUPPORTED_VERSIONS

TOURNAMENT = "Friday Night Hickory"
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan")
TOKEN = "q7ZcR2kV9xLmP4tW"
TOURNAMENT_ID = "3f9c0a1b2d4e5f60"
SERVER_SEED = "c6818db00844ed33dd0449025d6ab41f0918049ea71355ee7ab19f23c7059932"
COMMIT = "ba9920ece0b7824ee9dca07e9ef0ca0f084d0d898a56cd204fb016cece74e237"
"""The commitment to SERVER_SEED for table 1's 12th hand (docs/fairness.md)."""
CHAIN = "5b1d9e0c4a7f3e2d8c6b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d"

LEVEL = m.Level(index=3, small_blind=50, big_blind=100)
SCHEDULE = (
    m.ScheduleLevel(small_blind=10, big_blind=20, minutes=15),
    m.ScheduleLevel(small_blind=20, big_blind=40, minutes=15),
    m.ScheduleLevel(small_blind=30, big_blind=60, minutes=15),
    m.ScheduleLevel(small_blind=50, big_blind=100, minutes=15),
    m.ScheduleLevel(small_blind=75, big_blind=150, minutes=15),
)

RULES = m.Rules(
    rules_version=3,
    ruleset="hickory",
    seats_per_table=9,
    level_unit="minutes",
    level_length=15,
    action_seconds=30,
    time_bank_seconds=60,
    reconnect_grace_seconds=60,
    deadline="2025-03-01T23:30:00+01:00",
    odd_chip="carried pot by pot into the next hand at the table (docs/rules.md)",
    breaks=(m.ScheduledBreak(after_level=4, minutes=10, taken=False),),
    changes=(
        m.RuleChange(rules_version=2, at="2025-03-01T20:41:07+01:00", what="action clock 30 s from the next hand",
                     reason="the night is running long"),
        m.RuleChange(rules_version=3, at="2025-03-01T20:55:12+01:00", what="a break of 10 minutes after level 4",
                     reason="pizza arrives at nine"),
    ),
)


def full_table_snapshot(your_seat: int | None = 1, seq: int | None = None) -> m.TableSnapshot:
    """A full nine-seat table on the turn of hand 42 as seen from ``your_seat``."""
    seats = []
    for index, name in enumerate(NAMES):
        seat = index + 1
        folded = index in (3, 4, 5, 7)
        cards: tuple[str, ...] | None = None
        if seat == your_seat:
            cards = ("As", "Kd")
        seats.append(
            m.SeatView(
                seat=seat,
                player_id=index + 1,
                name=name,
                stack=2000 + 150 * index,
                bet=0 if folded else 300,
                folded=folded,
                all_in=False,
                sitting_out=index == 7,
                connected=index != 7,
                cards=cards,
                in_hand=True,
            )
        )
    return m.TableSnapshot(
        id=None,
        table=1,
        max_seats=9,
        hand_no=42,
        street="turn",
        button=1,
        small_blind=50,
        big_blind=100,
        seats=tuple(seats),
        board=("Jh", "Td", "4c", "Qs"),
        pots=(
            m.Pot(amount=1450, eligible=(1, 2, 3, 7, 9)),
            m.Pot(amount=300, eligible=(1, 2, 9)),
        ),
        carried=1,
        to_act=2,
        your_seat=your_seat,
        your_cards=("As", "Kd") if your_seat is not None else None,
        deadline_ms=21500,
        time_bank_ms=45000,
        small_blind_seat=2,
        big_blind_seat=3,
        seq=seq,
    )


LEGAL = m.Legal(
    fold=True, check=False, call=200, min_raise_to=800, max_raise_to=2450, stack=2250,
    all_in_to=2450,
)
PLACES = (
    m.Place(place=1, player_id=1, name="Alice", chips=9000, eliminated_in_hand=None),
    m.Place(place=2, player_id=2, name="Bob", chips=4500, eliminated_in_hand=None),
    m.Place(place=3, player_id=3, name="Carol", chips=0, eliminated_in_hand=40),
)
HAND_RECORD = m.HandRecord(
    table=1,
    hand_no=41,
    level=3,
    button=9,
    small_blind=50,
    big_blind=100,
    carried_in=0,
    players=(
        m.HandPlayer(seat=1, player_id=1, name="Alice", stack=2300),
        m.HandPlayer(seat=2, player_id=2, name="Bob", stack=1800),
        m.HandPlayer(seat=9, player_id=9, name="Ivan", stack=2500),
    ),
    blinds=(
        m.BlindPost(seat=1, blind="small", amount=50, all_in=False),
        m.BlindPost(seat=2, blind="big", amount=100, all_in=False),
    ),
    actions=(
        m.HandAction(
            street="preflop", seat=9, action="raise", amount=300, to=300, all_in=False,
            automatic=False,
        ),
        m.HandAction(
            street="preflop", seat=1, action="call", amount=250, to=300, all_in=False,
            automatic=False,
        ),
        m.HandAction(
            street="preflop", seat=2, action="fold", amount=0, to=100, all_in=False,
            automatic=True,
        ),
        m.HandAction(
            street="flop", seat=1, action="check", amount=0, to=0, all_in=False,
            automatic=False,
        ),
        m.HandAction(
            street="flop", seat=9, action="bet", amount=401, to=401, all_in=False,
            automatic=False,
        ),
        m.HandAction(
            street="flop", seat=1, action="call", amount=401, to=401, all_in=False,
            automatic=False,
        ),
        m.HandAction(
            street="turn", seat=1, action="check", amount=0, to=0, all_in=False,
            automatic=False,
        ),
        m.HandAction(
            street="turn", seat=9, action="check", amount=0, to=0, all_in=False,
            automatic=False,
        ),
        m.HandAction(
            street="river", seat=1, action="check", amount=0, to=0, all_in=False,
            automatic=False,
        ),
        m.HandAction(
            street="river", seat=9, action="check", amount=0, to=0, all_in=False,
            automatic=False,
        ),
    ),
    board=("Ah", "7c", "7d", "2s", "9h"),
    shown=(
        m.ShownHand(seat=1, cards=("Ac", "Qd"), hand_name="Two pair, aces and sevens"),
        m.ShownHand(seat=9, cards=("Ad", "Qh"), hand_name="Two pair, aces and sevens"),
    ),
    your_seat=1,
    your_cards=("Ac", "Qd"),
    results=(
        m.PotResult(
            pot=0,
            amount=1502,
            winners=(m.Winner(seat=1, amount=751), m.Winner(seat=9, amount=751)),
            hand_name="Two pair, aces and sevens",
            remainder_carried=0,
        ),
    ),
    carried_out=0,
    stacks=(
        m.SeatStack(seat=1, stack=2350),
        m.SeatStack(seat=2, stack=1700),
        m.SeatStack(seat=9, stack=2550),
    ),
)

COMMAND_EXAMPLES: list[m.Command] = [
    m.StartCommand(reason="everyone is here"),
    m.PauseCommand(reason="dinner break"),
    m.ResumeCommand(reason="dinner is over"),
    m.SetLevelCommand(index=4, reason="we started late"),
    m.SetScheduleCommand(levels=SCHEDULE, reason="faster levels to finish by midnight"),
    m.SetOptionsCommand(
        action_seconds=20, time_bank_seconds=60, ruleset="hickory", reason="speed up play"
    ),
    m.SetDeadlineCommand(deadline="2025-03-01T23:30:00+01:00", reason="the venue closes"),
    m.MovePlayerCommand(player_id=5, table=2, seat=None, reason="balancing tables"),
    m.RemovePlayerCommand(player_id=9, reason="had to leave"),
    m.AdjustChipsCommand(player_id=4, chips=2500, reason="miscounted starting stack"),
    m.AnnounceCommand(text="Last level before the break", reason="schedule"),
    m.RuleCommand(call_id=1, decision="The bet stands: string bets are not possible online",
                  reason="floor call"),
    m.AwardCommand(title="Best bluff", player_id=2, reason="seven-high on the river"),
    m.LateRegistrationCommand(until_level=4, reason="two friends are on their way"),
    m.SetBreakCommand(after_level=4, minutes=10, reason="pizza arrives at nine"),
    m.VoidHandCommand(table=2, reason="the deck was exposed when the dealer's screen was shared"),
    m.RevealCommand(reason="a player lost the reveal"),
]
"""One example of every director command."""

CLIENT_EXAMPLES: list[m.ClientMessage] = [
    m.Join(id=1, version=1, name="Alice", password="hickory"),
    m.Resume(id=1, version=1, token=TOKEN),
    m.Spectate(id=1, version=1, table=1),
    m.DirectorLogin(id=1, version=1, secret="s3cret director"),
    m.Act(id=17, table=1, hand_no=42, action="raise", amount=800),
    m.SitOut(id=18),
    m.ImBack(id=19),
    m.Chat(id=20, scope="table", text="nice hand"),
    m.CallDirector(id=21, message="Ivan has been away for ten minutes"),
    *(m.DirectorCommand(id=30 + i, command=c) for i, c in enumerate(COMMAND_EXAMPLES)),
    m.LobbyRequest(id=22),
    m.SnapshotRequest(id=23, table=1),
    m.HistoryRequest(id=24, table=1, last=1),
    m.StandingsRequest(id=25),
    m.Ping(id=26, nonce="k1"),
    m.Pong(id=None, nonce="s9"),
    m.Goodbye(id=None, reason="off to bed"),
    m.ClientSeed(id=None, draw="deck", table=1, number=12, commit=COMMIT,
                 seed="2bd806c97f0e00af1a1fc3328fa763a9"),
    m.Reenter(id=27),
]
"""Every client message type (director_command once per command)."""

SERVER_EXAMPLES: list[m.ServerMessage] = [
    m.Hello(
        protocol=PROTOCOL_NAME,
        versions=SUPPORTED_VERSIONS,
        server="hickory-server 0.1.0",
        tournament=TOURNAMENT,
        max_line=65536,
        seq=1,
    ),
    m.Welcome(
        id=1, version=1, role="player", player_id=1, name="Alice", token=TOKEN, table=1,
        seat=1, seq=2,
    ),
    m.Error(
        id=17,
        code="illegal_action",
        message="raise to 500 is below the minimum raise to 800",
        path="act.amount",
        fatal=False,
        seq=3,
    ),
    m.Ack(id=18, seq=4),
    m.ServerPing(nonce="s9", seq=5),
    m.ServerPong(id=26, nonce="k1", seq=6),
    m.ServerGoodbye(
        reason="server shutting down; resume later with your token", code="shutdown", seq=7
    ),
    m.Lobby(
        id=22,
        name=TOURNAMENT,
        state="running",
        level=LEVEL,
        next_level_in=412,
        next_level_unit="seconds",
        schedule=SCHEDULE,
        players=(
            m.LobbyPlayer(player_id=1, name="Alice", chips=2300, table=1, seat=1, status="playing"),
            m.LobbyPlayer(
                player_id=8, name="Heidi", chips=1800, table=1, seat=8, status="sitting_out"
            ),
            m.LobbyPlayer(
                player_id=10, name="Judy", chips=0, table=None, seat=None, status="eliminated"
            ),
        ),
        tables=(
            m.LobbyTable(table=1, players=(1, 2, 3, 4, 5, 6, 7, 8, 9), hand_no=42),
            m.LobbyTable(table=2, players=(11, 12, 13, 14, 15, 16), hand_no=39),
        ),
        deadline="2025-03-01T23:30:00+01:00",
        carried=1,
        start_players=None,
        rules=RULES,
        seq=8,
    ),
    full_table_snapshot(your_seat=1, seq=9),
    m.HandStarted(
        table=1,
        hand_no=42,
        button=1,
        small_blind_seat=2,
        big_blind_seat=3,
        small_blind=50,
        big_blind=100,
        carried_in=1,
        stacks=(m.SeatStack(seat=1, stack=2300), m.SeatStack(seat=2, stack=1800)),
        seq=10,
    ),
    m.BlindPosted(table=1, hand_no=42, seat=2, blind="small", amount=50, all_in=False, seq=11),
    m.HoleCards(table=1, hand_no=42, seat=1, cards=("As", "Kd"), seq=12),
    m.Action(
        table=1, hand_no=42, seat=7, action="raise", amount=300, to=300, all_in=False,
        automatic=False, seq=13,
    ),
    m.Board(
        table=1, hand_no=42, street="turn", cards=("Qs",), board=("Jh", "Td", "4c", "Qs"),
        seq=14,
    ),
    m.Pots(
        table=1, hand_no=42, pots=(m.Pot(amount=1450, eligible=(1, 2, 3, 7, 9)),), carried=1,
        seq=15,
    ),
    m.Showdown(
        table=1, hand_no=42, seat=1, cards=("As", "Kd"), hand_name="Straight, ace high",
        best_five=("As", "Kd", "Qs", "Jh", "Td"), hand_detail="Straight, ace high", seq=16,
    ),
    m.PotAwarded(
        table=1,
        hand_no=42,
        pot=0,
        amount=1451,
        winners=(m.Winner(seat=1, amount=725), m.Winner(seat=7, amount=725)),
        hand_name="Straight, ace high",
        remainder_carried=1,
        best_five=("As", "Kd", "Qs", "Jh", "Td"),
        hand_detail="Straight, ace high",
        seq=17,
    ),
    m.HandEnded(
        table=1,
        hand_no=42,
        stacks=(m.SeatStack(seat=1, stack=3025), m.SeatStack(seat=7, stack=2025)),
        carried_out=1,
        seq=18,
    ),
    m.YourTurn(
        table=1, hand_no=42, seat=1, legal=LEGAL, deadline_ms=30000, time_bank_ms=45000,
        seq=19,
    ),
    m.PlayerStatus(player_id=8, name="Heidi", table=1, seat=8, status="sitting_out", seq=20),
    m.PlayerMoved(
        player_id=5, name="Erin", from_table=1, from_seat=5, table=2, seat=4, seq=21
    ),
    m.ChatMessage(
        scope="table", table=1, player_id=2, name="Bob", role="player", text="nice hand",
        seq=22,
    ),
    m.DirectorCalled(
        player_id=1, name="Alice", table=1, seat=1,
        message="Ivan has been away for ten minutes", call_id=1, hand_no=41, seq=23,
    ),
    m.Ruling(call_id=1, table=1, decision="Ivan is sat out; his blinds are posted", seq=24),
    m.Announcement(
        text="The tournament is paused", by="director", reason="dinner break", seq=24
    ),
    m.History(id=24, hands=(HAND_RECORD,), seq=25),
    m.Standings(id=25, places=PLACES, final=False, carried=1, seq=26),
    m.TournamentFinished(name=TOURNAMENT, places=PLACES, trophies=(
        m.Trophy(title="Winner", player_id=PLACES[0].player_id, name=PLACES[0].name, by_rule=True),
        m.Trophy(title="Best bluff", player_id=2, name="Bob", by_rule=False),
    ), seq=27),
    m.Turn(table=1, hand_no=42, seat=2, player_id=2, deadline_ms=30000, time_bank_ms=45000,
           seq=28),
    m.BetReturned(table=1, hand_no=42, seat=7, amount=600, seq=29),
    m.TableBroken(table=2, tables=(1,), seq=30),
    m.DeckCommit(draw="deck", tournament=TOURNAMENT_ID, table=1, number=12, commit=COMMIT,
                 window_ms=1000, seq=31),
    m.SeedsReceived(
        draw="deck", table=1, number=12, commit=COMMIT, hand_no=42,
        seeds=(
            m.SeedEntry(seat=1, player_id=1, seed="2bd806c97f0e00af1a1fc3328fa763a9"),
            m.SeedEntry(seat=2, player_id=2, seed=None),
        ),
        seq=32,
    ),
    m.Reveal(
        tournament=TOURNAMENT_ID,
        draws=(m.RevealedDraw(draw="deck", table=1, number=12, hand_no=42, commit=COMMIT,
                              server_seed=SERVER_SEED),),
        chain=CHAIN, final=True, seq=33,
    ),
    m.ReentryOffer(stack=10000, entry=2, max_entries=2, until_level=4, seq=34),
    m.TvCards(table=1, hand_no=41, hands=(m.DealtCards(seat=1, cards=("As", "Kd")),
                                          m.DealtCards(seat=2, cards=("7c", "2h"))), seq=35),
]
"""Every server message type."""


def example(cls: type) -> Any:
    """The first example of a message or command class."""
    for msg in (*CLIENT_EXAMPLES, *SERVER_EXAMPLES, *COMMAND_EXAMPLES):
        if type(msg) is cls:
            return msg
    raise KeyError(cls)
