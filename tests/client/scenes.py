"""Client models in the states the terminal must show, built by feeding protocol messages.

Every scene is a ``ClientModel`` driven through ``apply`` exactly as the session drives
it, so the views are tested against the model the network would produce.
"""

from __future__ import annotations

from client.model import ClientModel
from protocol import messages as m

NOW = 1000.0
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def lobby(state: str = "running", n: int = 6) -> m.Lobby:
    running = state != "registering"
    players = tuple(
        m.LobbyPlayer(
            player_id=i + 1,
            name=NAMES[i],
            chips=10_000,
            table=1 if running else None,
            seat=i if running else None,
            status="playing" if running else "waiting",
        )
        for i in range(n)
    )
    return m.Lobby(
        name="Hickory Night",
        state=state,  # type: ignore[arg-type]
        level=m.Level(index=2, small_blind=50, big_blind=100) if running else None,
        next_level_in=272 if running else None,
        next_level_unit="seconds",
        schedule=(m.ScheduleLevel(small_blind=25, big_blind=50, minutes=20),),
        players=players,
        tables=(m.LobbyTable(table=1, players=tuple(p.player_id for p in players)),) if running else (),
        deadline="2026-11-30T23:59:00Z",
    )


def seat(i: int, stack: int = 10_000, **kw: object) -> m.SeatView:
    values: dict[str, object] = {
        "seat": i,
        "player_id": i + 1,
        "name": NAMES[i],
        "stack": stack,
        "bet": 0,
        "folded": False,
        "all_in": False,
        "sitting_out": False,
        "connected": True,
        "cards": None,
    }
    values.update(kw)
    return m.SeatView(**values)  # type: ignore[arg-type]


def connected(role: str = "player") -> ClientModel:
    """Hello and welcome applied: alice (player 1, seat 0), a spectator or the director."""
    model = ClientModel()
    model.set_connecting()
    model.apply(
        m.Hello(protocol="hickory", versions=(1,), server="hickory-server 0.1.0",
                tournament="Hickory Night", max_line=65536),
        NOW,
    )
    if role == "player":
        welcome = m.Welcome(version=1, role="player", player_id=1, name="alice",
                            token="tok-abcdefgh", table=1, seat=0)
    else:
        welcome = m.Welcome(version=1, role=role, player_id=None, name=None,  # type: ignore[arg-type]
                            token=None, table=1 if role == "spectator" else None, seat=None)
    model.apply(welcome, NOW)
    model.set_connected()
    return model


def your_turn(legal: m.Legal, hand_no: int = 17, seat_no: int = 0) -> m.YourTurn:
    return m.YourTurn(table=1, hand_no=hand_no, seat=seat_no, legal=legal,
                      deadline_ms=30_000, time_bank_ms=60_000)


FACING_RAISE = m.Legal(fold=True, check=False, call=300, min_raise_to=500, max_raise_to=10_000)
CHECK_OR_BET = m.Legal(fold=False, check=True, call=None, min_raise_to=100, max_raise_to=9_700)


def preflop(role: str = "player", turn: bool = True) -> ClientModel:
    """Hand #17, six players, dave on the button, erin and frank the blinds; carol raised to
    300 and it is alice's turn (seat 0, A♠ K♥): fold, call 300, raise 500 to 10,000."""
    model = connected(role)
    model.apply(lobby(), NOW)
    model.apply(
        m.TableSnapshot(
            table=1, max_seats=6, hand_no=None, street=None, button=None, small_blind=50,
            big_blind=100, seats=tuple(seat(i) for i in range(6)), board=(), pots=(), carried=0,
            to_act=None, your_seat=0 if role == "player" else None, your_cards=None,
        ),
        NOW,
    )
    model.apply(
        m.HandStarted(
            table=1, hand_no=17, button=3, small_blind_seat=4, big_blind_seat=5, small_blind=50,
            big_blind=100, carried_in=0,
            stacks=tuple(m.SeatStack(seat=i, stack=10_000) for i in range(6)),
        ),
        NOW,
    )
    model.apply(m.BlindPosted(table=1, hand_no=17, seat=4, blind="small", amount=50, all_in=False), NOW)
    model.apply(m.BlindPosted(table=1, hand_no=17, seat=5, blind="big", amount=100, all_in=False), NOW)
    if role == "player":
        model.apply(m.HoleCards(table=1, hand_no=17, seat=0, cards=("As", "Kh")), NOW)
    model.apply(
        m.Action(table=1, hand_no=17, seat=1, action="fold", amount=0, to=0, all_in=False,
                 automatic=False),
        NOW,
    )
    model.apply(
        m.Action(table=1, hand_no=17, seat=2, action="raise", amount=300, to=300, all_in=False,
                 automatic=False),
        NOW,
    )
    if role == "player" and turn:
        model.apply(your_turn(FACING_RAISE), NOW)
    return model


def flop_check(board: tuple[str, ...] = ("Kd", "7c", "2s")) -> ClientModel:
    """Alice (A♠ K♥) and carol see a flop; alice may check or bet 100 to 9,700."""
    model = connected()
    model.apply(lobby(n=3), NOW)
    model.apply(
        m.TableSnapshot(
            table=1, max_seats=6, hand_no=18, street="flop", button=2, small_blind=50,
            big_blind=100,
            seats=(seat(0, 9_700, cards=("As", "Kh")), seat(1, 10_000, folded=True), seat(2, 9_700)),
            board=board, pots=(m.Pot(amount=650, eligible=(0, 2)),), carried=0, to_act=0,
            your_seat=0, your_cards=("As", "Kh"),
        ),
        NOW,
    )
    model.apply(your_turn(CHECK_OR_BET, hand_no=18), NOW)
    return model


def all_in_side_pots() -> ClientModel:
    """On the turn alice is all in; a main pot, a side pot between bob and carol, and one
    odd chip carried in from the last hand; bob to act."""
    model = connected()
    model.apply(lobby(n=3), NOW)
    model.apply(
        m.TableSnapshot(
            table=1, max_seats=6, hand_no=21, street="turn", button=1, small_blind=50,
            big_blind=100,
            seats=(
                seat(0, 0, all_in=True, cards=("As", "Kh")),
                seat(1, 5_000),
                seat(2, 4_200),
            ),
            board=("Kd", "7c", "2s", "9h"),
            pots=(m.Pot(amount=3_001, eligible=(0, 1, 2)), m.Pot(amount=1_200, eligible=(1, 2))),
            carried=1, to_act=1, your_seat=0, your_cards=("As", "Kh"),
        ),
        NOW,
    )
    return model


def showdown() -> ClientModel:
    """River showdown: alice shows a pair of aces, bob three queens and wins the pot."""
    model = connected()
    model.apply(lobby(n=2), NOW)
    model.apply(
        m.TableSnapshot(
            table=1, max_seats=6, hand_no=30, street="river", button=0, small_blind=50,
            big_blind=100,
            seats=(seat(0, 8_000, cards=("As", "Kh")), seat(1, 8_000)),
            board=("Ad", "Qs", "7c", "2s", "Qh"), pots=(m.Pot(amount=4_000, eligible=(0, 1)),),
            carried=0, to_act=None, your_seat=0, your_cards=("As", "Kh"),
        ),
        NOW,
    )
    model.apply(m.Showdown(table=1, hand_no=30, seat=0, cards=("As", "Kh"),
                           hand_name="Two pair, aces and queens"), NOW)
    model.apply(m.Showdown(table=1, hand_no=30, seat=1, cards=("Qd", "Qc"),
                           hand_name="Four of a kind, queens"), NOW)
    model.apply(m.PotAwarded(table=1, hand_no=30, pot=0, amount=4_000,
                             winners=(m.Winner(seat=1, amount=4_000),), remainder_carried=0), NOW)
    model.apply(m.HandEnded(table=1, hand_no=30, stacks=(m.SeatStack(seat=0, stack=8_000),
                                                         m.SeatStack(seat=1, stack=12_000)),
                            carried_out=0), NOW)
    return model


def sitting_out() -> ClientModel:
    """Alice has sat out; the hand goes on without her and bob is disconnected."""
    model = preflop(turn=False)
    model.apply(m.PlayerStatus(player_id=1, name="alice", table=1, seat=0, status="sitting_out"), NOW)
    model.apply(m.PlayerStatus(player_id=2, name="bob", table=1, seat=1, status="disconnected"), NOW)
    return model


def registering() -> ClientModel:
    model = connected()
    model.apply(lobby("registering", n=4), NOW)
    return model
