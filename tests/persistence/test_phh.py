"""Every hand of a finished tournament, exported as PHH by ``hickory-server history``, replays
in pokerkit to the recorded final stacks.

pokerkit knows neither the chips a hand carries in or out (``_carried_in``/``_carried_out``)
nor Hickory's rules where they differ from its own (in the ``hickory`` ruleset every raise
adds at least the big blind; a split pot's odd chips stay in for the next hand), so:
- each action is applied with ``pokerkit.notation.parse_action`` (no silent repairs) with
  warnings as errors, the state must be over at the end, and
- a hand that carried nothing in or out must end on exactly the recorded stacks; one that did
  may differ only for the players who won a pot, by exactly what was carried in minus what
  was carried out.
Where Hickory's rules (docs/rules.md) and pokerkit's differ, the replay bridges the
difference, and every bridge moves exactly the chips Hickory moved, so the final stacks
still have to match:
- ``hickory`` ruleset: every raise adds at least the big blind (pokerkit's last-raise size is
  lowered to the big blind before each bet or raise);
- the short big blind (TDA): the bet to match stays the full big blind, so the first call
  over an all-in short blind is a completion in pokerkit; heads-up, that call's chips all
  come back, and pokerkit has nobody to act; a call capped below the full blind (no one
  left could match more) is a completion to the full blind there, the unmatched part
  coming back to the caller as a pot of their own;
- ``standard`` ruleset over a short big blind: Hickory measures a raise over the full big
  blind, pokerkit over the short blind's bet, so pokerkit's last-raise size is lowered to
  Hickory's (the largest full raise of the round) before each bet or raise.
The last two were the rare "[standard]" failure: 23,000 random hands per ruleset through
this replay found them and nothing else (the tests at the end replay both exactly).
Hickory does not ask a big blind to check when nobody left could call a bet; pokerkit
waits for that check, so the export writes it, marked automatic (issue 12, defect 6), and
it is replayed like every other line.
"""

from __future__ import annotations

import io
import json
import random
import warnings
from pathlib import Path
from types import SimpleNamespace

import pokerkit
import pytest
import trio
from pokerkit.notation import HandHistory, parse_action

from poker.actions import Action, Ruleset
from poker.cards import parse_cards, shuffled_deck
from poker.events import ActionTaken, Event, HandStarted, PotAwarded, Street
from poker.hand import Hand
from poker.history import HandInfo, to_phh
from server.app import open_server
from server.config import ServerConfig
from server.history_tool import export_history
from server.records import event_to_json
from server.reports import StoredHand, open_readonly, read_hands
from server.rows import Record, meta_record
from server.store import Store
from tests.persistence.harness import Bot


async def _play_out(db: Path, ruleset: Ruleset, players: int, seed: int) -> None:
    config = ServerConfig(
        db=db, port=0, host="127.0.0.1", start_at=players, no_deadline=True, seats=players,
        hands_per_level=6, starting_stack=3000, action_clock=5, time_bank=1, ruleset=ruleset,
        hand_pause=0.0,
        schedule=((10, 20), (15, 30), (25, 50), (40, 80), (60, 120), (100, 200), (150, 300), (250, 500),
                  (400, 800), (600, 1200), (1000, 2000)),
    )
    # The same game every run: the same seats, the same decks (one table draws them all, in
    # order), and the bots join in order, so each plays the same seat with the same dice.
    server = open_server(config, seed=seed)
    server.deck_rng = random.Random(seed)
    fake = SimpleNamespace(up=trio.Event(), port=None, generation=1)
    bots = [Bot(f"player {i}", fake, seed=seed + i, think=0, shove=0.005, raise_=0.12, raise_cap=3)  # type: ignore[arg-type]
            for i in range(players)]
    async with trio.open_nursery() as nursery:
        fake.port = await nursery.start(server.run)
        fake.up.set()
        for bot in bots:
            nursery.start_soon(bot.run)
            while bot.player_id is None:
                await trio.sleep(0.01)
        with trio.fail_after(240):
            while not server.tournament.finished:
                await trio.sleep(0.05)
        await trio.sleep(0.2)
        nursery.cancel_scope.cancel()
    assert server.store is not None
    server.store.close()


@pytest.fixture(scope="module", params=[Ruleset.HICKORY, Ruleset.STANDARD], ids=["hickory", "standard"])
def finished_db(request, tmp_path_factory):
    db = tmp_path_factory.mktemp(f"phh-{request.param.value}") / "finished.db"
    trio.run(_play_out, db, request.param, 8, 1000 if request.param is Ruleset.HICKORY else 2000)
    return db, request.param


def _min_increments(events: list[Event], big_blind: int, ruleset: Ruleset) -> list[int]:
    """The least a raise could add before each action, by docs/rules.md section 4: the big
    blind (``hickory``), or the largest full raise of the round (``standard``), where the
    round starts at a bet of one full big blind before the flop even when the big blind is
    short (TDA). pokerkit measures a raise over the short blind instead."""
    out = []
    street, current, full = None, 0, big_blind
    for e in events:
        if not isinstance(e, ActionTaken):
            continue
        if e.street is not street:
            street, full = e.street, big_blind
            current = big_blind if e.street is Street.PREFLOP else 0
        out.append(big_blind if ruleset is Ruleset.HICKORY else full)
        if e.to > current:
            if e.to - current >= full:
                full = e.to - current
            current = e.to
    return out


def _replay(hh: HandHistory, ruleset: Ruleset, events: list[Event]) -> tuple[pokerkit.State, int]:
    """Apply the PHH's actions one by one; returns the state and how many times a rule
    difference (below) had to be bridged. Every bridge moves exactly the chips Hickory did,
    so the final stacks still have to match."""
    state = hh.create_state()
    big_blind = max(hh.blinds_or_straddles)
    taken = iter(e for e in events if isinstance(e, ActionTaken))
    increments = iter(_min_increments(events, big_blind, ruleset))
    bridged = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for action in hh.actions:
            if state.can_burn_card():  # PHH does not write burns; pokerkit wants them
                state.burn_card("??")
            words = action.split("#")[0].split()
            dealer = words[0] == "d" or words[1] == "sm"
            player = None if words[0] == "d" else int(words[0][1:]) - 1
            if dealer or "no choice" in action:  # the no-choice check has no event: Hickory asked nothing
                parse_action(state, action, hh.parse_value)
                continue
            assert player is not None
            event = next(taken)
            increment = next(increments)
            if words[1] == "cc" and state.actor_index is None:
                # A call Hickory asked for whose chips all came straight back (the short
                # big blind heads-up): pokerkit has nobody to act. Nothing moves.
                bridged += 1
                continue
            contested = any(i != player and state.statuses[i] and state.stacks[i] + state.bets[i] > max(state.bets)
                            for i in state.player_indices)
            if words[1] == "cc" and event.to > max(state.bets) and contested \
                    and state.stacks[player] + state.bets[player] > max(state.bets):
                # The short big blind (TDA): the bet to match stays the full big blind, so
                # the first caller puts in more than the all-in blind: a completion in pokerkit.
                # A call capped below the full blind (no one left could match more) is still
                # a completion to the full blind there: the part no one matched comes back
                # to the caller as a pot of their own, so the chips end where Hickory put them.
                state.completion_status = True
                least = state.min_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(max(event.to, least or 0))
                bridged += 1
                continue
            if words[1] == "cbr" and increment < state.completion_betting_or_raising_amount:
                # hickory: every raise adds at least the big blind; standard: the last full
                # raise, counted over the full big blind even when the big blind is short.
                state.completion_betting_or_raising_amount = increment
                bridged += ruleset is Ruleset.STANDARD
            parse_action(state, action, hh.parse_value)
    return state, bridged


def _check_histories(phh: str, stored: dict[int, StoredHand], ruleset: Ruleset) -> tuple[int, int, int, int]:
    histories = list(HandHistory.loads_all(phh))
    assert len(histories) == len(stored)
    carried = exact = heads_up = bridged = 0
    for hh in histories:
        no = hh.hand
        try:
            state, bridges = _replay(hh, ruleset, stored[no].parsed())
            bridged += bridges > 0
        except (ValueError, UserWarning) as exc:
            raise AssertionError(f"hand #{no} does not replay in pokerkit: {exc}\n{hh.dumps()}") from exc
        assert not state.status, f"hand #{no}: pokerkit says the hand is not over after the last action"
        final = list(state.stacks)
        recorded = list(hh.finishing_stacks)
        carried_in = hh.user_defined_fields["_carried_in"]
        carried_out = hh.user_defined_fields["_carried_out"]
        assert sum(recorded) + carried_out == sum(hh.starting_stacks) + carried_in, no
        heads_up += len(final) == 2
        if carried_in == 0 and carried_out == 0:
            assert final == recorded, f"hand #{no}: pokerkit {final}, recorded {recorded}\n{hh.actions}"
            exact += 1
            continue
        carried += 1
        winners = {seat for e in stored[no].parsed() if isinstance(e, PotAwarded) for seat, _ in e.winners}
        for i, (a, b) in enumerate(zip(final, recorded, strict=True)):
            if a != b:
                assert hh.seats[i] in winners, f"hand #{no}: seat {hh.seats[i]} differs but won nothing"
        assert sum(recorded) - sum(final) == carried_in - carried_out, no
    return exact, carried, heads_up, bridged


def _export(db: Path) -> tuple[str, dict[int, StoredHand]]:
    conn = open_readonly(db)
    try:
        out = io.StringIO()
        written = export_history(conn, out, fmt="phh")
        stored = {h.hand_no: h for h in read_hands(conn)}
    finally:
        conn.close()
    assert written == len(stored)
    return out.getvalue(), stored


def test_every_exported_phh_replays_to_the_recorded_stacks(finished_db):
    db, ruleset = finished_db
    phh, stored = _export(db)
    assert len(stored) >= 10  # enough hands to cover the rules (seeded decks; timing may vary)
    exact, carried, heads_up, bridged = _check_histories(phh, stored, ruleset)
    assert exact > 0 and heads_up > 0
    print(f"\n{ruleset}: {len(stored)} hands replayed, {exact} exactly, {carried} with carried chips, "
          f"{heads_up} heads-up, {bridged} across a rule difference")


def test_hands_carrying_odd_chips_in_and_out_replay_too(tmp_path):
    """Split pots with an odd chip (carried out) and hands with chips carried in, stored as
    the server stores them, exported and replayed."""
    store = Store(tmp_path / "carry.db")
    store.write_now([meta_record("config", json.dumps({"name": "Carry", "ruleset": "hickory", "seats": 4}))])
    rng = random.Random(5)
    royal = parse_cards("AsKsQsJsTs")
    seats = [(1, 1001), (2, 1003), (3, 998), (4, 1000)]
    made = {"carried_out": 0, "carried_in": 0}
    carry = 0

    def play(deck: list[int], button: int, carried_in: int, sb_folds: bool) -> Hand:
        hand = Hand(hand_no=hand_no, seats=seats, button=button, small_blind=5, big_blind=10,
                    deck=deck, carried_in=carried_in)
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            if sb_folds and legal.seat == hand.small_blind_seat and legal.fold and not hand.board:
                hand.act(legal.seat, Action.fold())
            elif legal.check:
                hand.act(legal.seat, Action.check())
            else:
                hand.act(legal.seat, Action.call())
        return hand

    for hand_no in range(1, 9):
        deck = shuffled_deck(rng)
        button = rng.choice([1, 2, 3, 4])
        split = hand_no % 2 == 1
        if split:
            # A royal flush on the board: the three players left split a pot of 35, and the
            # odd chips stay in for the next hand. Find where this deck puts the board first.
            board = play(deck, button, carry, True).board
            for have, want in zip(board, royal, strict=True):
                i, j = deck.index(have), deck.index(want)
                deck[i], deck[j] = deck[j], deck[i]
        hand = play(deck, button, carry, split)
        assert hand.result is not None
        started = hand.events[0]
        assert isinstance(started, HandStarted)
        carry = hand.result.carried_out
        made["carried_out"] += carry > 0
        made["carried_in"] += started.carried_in > 0
        names = {s: [str(s), f"player {s}"] for s, _ in seats}
        store.write_now([
            Record(sql="INSERT INTO hands (hand_no, table_id, level, started_at, status, seats, summary) "
                       "VALUES (?, 1, 1, '2026-11-30T20:00:00+01:00', 'finished', ?, '{}')",
                   params=(hand_no, json.dumps(names))),
            *[Record(sql="INSERT INTO hand_events (hand_no, idx, event) VALUES (?, ?, ?)",
                     params=(hand_no, i, event_to_json(e))) for i, e in enumerate(hand.events)],
        ])
    store.close()
    assert min(made.values()) >= 3, made
    phh, stored = _export(tmp_path / "carry.db")
    exact, carried, _, _ = _check_histories(phh, stored, Ruleset.HICKORY)
    assert carried >= 6


def _replays_exactly(seats: list[tuple[int, int]], button: int, blinds: tuple[int, int], ruleset: Ruleset,
                     actions: list[tuple[int, Action]]) -> None:
    deck = shuffled_deck(random.Random(1))
    hand = Hand(hand_no=1, seats=seats, button=button, small_blind=blinds[0], big_blind=blinds[1],
                deck=deck, ruleset=ruleset)
    for seat, action in actions:
        hand.act(seat, action)
    assert hand.result is not None and hand.result.carried_out == 0
    hh = HandHistory.loads(to_phh(hand.events, HandInfo(table_id=1, level=1, ruleset=ruleset)))
    state, bridged = _replay(hh, ruleset, hand.events)
    assert not state.status and bridged > 0
    assert list(state.stacks) == list(hh.finishing_stacks)


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_a_call_capped_below_the_full_big_blind_replays(ruleset: Ruleset) -> None:
    # Found with many random hands (both rulesets): at 60/120 the big blind is all-in for
    # 90 and nobody but seat 4 has more than 116, so seat 4's call is 116, not 120.
    _replays_exactly([(1, 116), (2, 92), (3, 90), (4, 2366)], 1, (60, 120), ruleset,
                     [(4, Action.call()), (1, Action.call()), (2, Action.call())])


def test_standard_raises_over_a_short_big_blind_replay() -> None:
    # Found with many random hands, the rare [standard] failure: at 100/200 the big blind
    # is all-in for 49. Hickory counts the raise to 400 as adding 200 (over the full big
    # blind, TDA), so the next raise may go to 600; pokerkit counts it over the small
    # blind's 100 and wanted 700.
    _replays_exactly([(1, 3676), (2, 13880), (3, 16198), (4, 49)], 2, (100, 200), Ruleset.STANDARD,
                     [(1, Action.raise_to(400)), (2, Action.raise_to(600)), (3, Action.raise_to(800)),
                      (1, Action.raise_to(2959)), (2, Action.raise_to(5118)), (3, Action.fold()),
                      (1, Action.fold())])
