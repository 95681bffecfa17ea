"""Small tools for tournament tests: started tournaments, stacked decks, scripted hands,
and the seating invariants every test checks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from poker.actions import Action, LegalActions
from poker.cards import FULL_DECK, Card, parse_cards, seeded_rng
from poker.hand import Hand
from poker.policy import random_action
from server.tournament import Settings, Tournament, TournamentEvent
from server.tournament.seating import TableLoad, fits_in_fewer

Decide = Callable[[str, LegalActions], Action]


def started(players: int, seed: int = 1, now: float = 0.0, **options: object) -> Tournament:
    """A started tournament of ``players`` (ids p01.., names "P01"..) with ``options``."""
    t = Tournament(Settings(**options), seeded_rng(seed))  # type: ignore[arg-type]
    for i in range(1, players + 1):
        t.register(f"p{i:02d}", f"P{i:02d}")
    t.start(now)
    return t


def player_at(t: Tournament, table_id: int, seat: int) -> str:
    return t.table(table_id).seats[seat].player_id


def stacked_deck(t: Tournament, table_id: int, holes: Mapping[str, str], board: str) -> list[Card]:
    """A deck that deals ``holes`` (player id -> "AsAh") and ``board`` at the table's next hand;
    everyone else gets spare cards."""
    table = t.table(table_id)
    seats, button, _, _ = table.deal_plan()  # a player who arrived may be waiting for the button
    i = seats.index(button)
    order = seats[i + 1 :] + seats[: i + 1]
    board_cards = parse_cards(board)
    fixed = {table.seats[s].player_id: parse_cards(holes[table.seats[s].player_id])
             for s in seats if table.seats[s].player_id in holes}
    used = set(board_cards) | {c for cards in fixed.values() for c in cards}
    spare = [c for c in FULL_DECK if c not in used]
    by_seat = {}
    for s in order:
        pid = table.seats[s].player_id
        by_seat[s] = fixed[pid] if pid in fixed else [spare.pop(), spare.pop()]
    deck = [by_seat[s][0] for s in order] + [by_seat[s][1] for s in order]
    deck += [spare.pop(), *board_cards[:3], spare.pop(), board_cards[3], spare.pop(), board_cards[4]]
    return deck + spare


def shove(players: Iterable[str]) -> Decide:
    """``players`` go all-in (or call it); everyone else checks or folds."""
    chosen = set(players)

    def decide(pid: str, legal: LegalActions) -> Action:
        if pid in chosen and (legal.max_raise_to is not None or legal.call is not None):
            return legal.all_in_action()  # all-in, or a call when raising is closed
        return Action.fold() if legal.fold else Action.check()

    return decide


def randomly(rng: random.Random) -> Decide:
    return lambda _pid, legal: random_action(legal, rng)


def act_once(t: Tournament, table_id: int, hand: Hand, decide: Decide) -> None:
    legal = hand.legal_actions()
    assert legal is not None
    hand.act(legal.seat, decide(t.table(table_id).seats[legal.seat].player_id, legal))


def play_out(t: Tournament, table_id: int, hand: Hand, decide: Decide) -> None:
    while not hand.is_over:
        act_once(t, table_id, hand, decide)


def play_hand(
    t: Tournament, table_id: int, now: float, decide: Decide, deck: list[Card] | None = None
) -> tuple[Hand, list[TournamentEvent]]:
    hand, _ = t.begin_hand(table_id, now, deck=deck)
    play_out(t, table_id, hand, decide)
    return hand, t.end_hand(table_id, now)


def bust(
    t: Tournament, table_id: int, winner: str, losers: Iterable[str], now: float = 0.0
) -> tuple[Hand, list[TournamentEvent]]:
    """A hand at ``table_id`` where ``winner`` (aces) and ``losers`` go all-in and the aces hold."""
    losers = list(losers)
    junk = ["2c7d", "3c8d", "2d7h", "3d8h", "2h7s", "3h8s", "4c9d", "4d9h", "4h9s"]
    holes = {winner: "AsAh", **{p: junk[i] for i, p in enumerate(losers)}}
    deck = stacked_deck(t, table_id, holes, "Ks Qh 6c 5s Jd")
    return play_hand(t, table_id, now, shove([winner, *losers]), deck)


def check_seating(t: Tournament) -> None:
    """Everyone still in sits (or is on the way to) exactly one seat; nobody else does."""
    seen: Counter[str] = Counter()
    for tid in t.table_ids():
        table = t.table(tid)
        assert len(table.seats) + len(t.arrivals(tid)) <= table.seat_count
        taken = set(table.seats)
        for pid, seat in t.arrivals(tid):
            assert seat not in taken, f"seat {seat} at table {tid} given twice"
            taken.add(seat)
            seen[pid] += 1
        for seat, p in table.seats.items():
            assert 1 <= seat <= table.seat_count
            seen[p.player_id] += 1
    assert all(n == 1 for n in seen.values()), f"seated twice: {[p for p, n in seen.items() if n > 1]}"
    assert set(seen) == set(t.players_in()), "a player was lost (or an eliminated one still sits)"


def check_balanced(t: Tournament) -> None:
    """With every table between hands: no table two or more players short of another, and
    no table that could be broken."""
    counts = [len(t.table(tid).seats) for tid in t.table_ids()]
    assert max(counts) - min(counts) <= 1, f"unbalanced tables: {counts}"
    loads = [TableLoad(table_id=i, players=c, idle=True) for i, c in enumerate(counts)]
    assert not fits_in_fewer(loads, t.settings.seats_per_table), (
        f"{counts} fit in one table fewer ({t.settings.seats_per_table} seats)"
    )


def check_chips(t: Tournament) -> None:
    assert t.total_chips() == t.chips_issued



def fingerprint(t: Tournament) -> tuple[object, ...]:
    """Everything the tournament's future depends on, as one comparable value: two
    tournaments with equal fingerprints answer every query and every input alike. A
    table is all its attributes (so a new one is covered), its hand the events so far."""
    tables = []
    for tid in t.table_ids():
        table = t.table(tid)
        hand = table.hand
        state = sorted((k, repr(v)) for k, v in vars(table).items() if k != "hand")
        tables.append((tid, tuple(state), None if hand is None else (hand.hand_no, tuple(hand.events))))
    rng_state = t.rng.getstate() if isinstance(t.rng, random.Random) else None
    return (
        t.phase, repr(t.clock), t.settings, tuple(tables), tuple(t.broken_tables),
        t.hands_dealt, t.chips_issued, t.adjustment, t.deadline_passed, tuple(t.audit_log), t.result,
        rng_state, tuple(t.standings()), tuple((tid, tuple(t.arrivals(tid))) for tid in t.table_ids()),
        tuple(op.players for op in t.deferred),
        tuple((tid, t.hands_dealt_at(tid), t.hand_settings(tid), t.hand_level(tid))
              for tid in sorted(t.tables.keys() | set(t.broken_tables))),
        t.seating.final_table_announced, t.level, t.blinds,
        t.rules_version, tuple(t.rule_changes), tuple(sorted(t.breaks_taken)), t.on_break,
    )
