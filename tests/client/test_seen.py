"""The client's rebuilt hands (client/model/seen.py): the engine's events of a hand, turned
into the server's messages by the server's own ``outbound.hand_event`` and only those a
seat may see, are rebuilt by the client into events that write the same PokerStars hand
as the server's record does for that seat (big-blind antes, short blinds, uncalled bets,
side pots, split pots included)."""

from __future__ import annotations

import random

from client.model.replay import replay_frames
from client.model.seen import HandRecorder
from poker.cards import shuffled_deck
from poker.events import AntePosted, Event, visible_to
from poker.hand import Hand
from poker.history import HandInfo
from poker.pokerstars import to_pokerstars
from poker.policy import random_action
from poker.table import Table
from protocol import messages as m
from server.outbound import hand_event
from server.records import hand_record


def _messages(hand: Hand, table: int, viewer: int | None) -> list[m.ServerMessage]:
    out = []
    for e in hand.events:
        if visible_to(e, viewer):
            msg = hand_event(table, hand.hand_no, e)
            if msg is not None:
                out.append(msg)
    return out


def _hands(count: int, seed: int, ante: bool) -> list[Hand]:
    rng = random.Random(seed)
    table = Table(table_id=2, seat_count=4)
    for s in range(1, 5):
        table.sit(s, f"p{s}", 900)
    hands = []
    for no in range(1, count + 1):
        blind = 40 * (1 + no // 40)
        hand = table.start_hand(hand_no=no, deck=shuffled_deck(rng), small_blind=blind // 2, big_blind=blind,
                                ante=blind if ante else 0)
        legal = hand.legal_actions()
        while legal is not None:
            hand.act(legal.seat, random_action(legal, rng))
            legal = hand.legal_actions()
        hands.append(hand)
        for seat, _player, _stack in table.finish_hand():
            table.sit(seat, f"p{seat}", 900)
    return hands


def _rebuilt(hand: Hand, viewer: int | None) -> list[Event]:
    recorder = HandRecorder()
    done = None
    for msg in _messages(hand, 2, viewer):
        got = recorder.received(msg, None, None)
        done = got if got is not None else done
    assert done is not None
    return done


def test_rebuilt_hands_write_the_same_pokerstars_text_as_the_record() -> None:
    info = HandInfo(table_id=2, level=1)
    antes = 0
    for ante in (False, True):
        for hand in _hands(150, 3 if ante else 4, ante):
            for viewer in (1, 3):
                rebuilt = _rebuilt(hand, viewer)
                antes += any(isinstance(e, AntePosted) for e in rebuilt)
                mine = to_pokerstars(rebuilt, info, tournament_no=9, viewer=viewer)
                assert mine == to_pokerstars(hand.events, info, tournament_no=9, viewer=viewer), hand.hand_no
    assert antes == 300


def test_the_replay_of_an_ante_hand_ends_on_the_recorded_stacks() -> None:
    players = {s: (str(10 + s), f"p{s}") for s in range(1, 5)}
    for hand in _hands(60, 5, True):
        record = hand_record(table=2, hand_no=hand.hand_no, level=1, events=hand.events, players=players,
                             viewer="11")
        frames = replay_frames(record)
        assert record.ante
        first = frames[0]
        bb = next(b.seat for b in record.blinds if b.blind == "big")
        start = {p.seat: p.stack for p in record.players}
        seat = next(s for s in first.seats if s.seat == bb)
        assert seat.stack == start[bb] - record.ante - seat.bet and first.pot == record.carried_in + record.ante
        # Chips on the table at every step: stacks, bets in front and the pot add up.
        total = sum(start.values()) + record.carried_in
        for f in frames[:-1]:
            assert sum(s.stack + s.bet for s in f.seats) + f.pot == total, (hand.hand_no, f.title)
        assert {s.seat: s.stack for s in frames[-1].seats} == {s.seat: s.stack for s in record.stacks}


def test_the_hand_log_goes_on_with_its_tournament_number_on_a_resume_and_starts_one_on_a_join(tmp_path) -> None:
    import datetime as dt

    from client.handlog import HandLog, default_hands_path

    path = default_hands_path(tmp_path, "10.0.0.5", 7777, "Ann Lee")
    assert path == tmp_path / "hands" / "10.0.0.5_7777_Ann_Lee.txt"
    clock = lambda: dt.datetime(2026, 12, 4, 21, 5, tzinfo=dt.UTC)  # noqa: E731
    log = HandLog.open(path, fresh=True, clock=clock)
    assert log.tournament_no == 2612042105 and (path.stat().st_mode & 0o777) == 0o600
    path.write_text("PokerStars Hand #2612011900000001: Tournament #2612011900, Freeroll ...\n", encoding="utf-8")
    assert HandLog.open(path, fresh=False, clock=clock).tournament_no == 2612011900
    assert HandLog.open(path, fresh=True, clock=clock).tournament_no == 2612042105
