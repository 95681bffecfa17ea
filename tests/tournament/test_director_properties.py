"""Property test: every director operation with generated arguments, good and absurd,
against the tournament and against the replay (issue 12, defect 1).

Hypothesis drives a tournament through registrations, deals, actions, ticks and director
operations whose arguments come from anywhere (levels past the schedule, NaN clocks,
blinds above 2^53-1, unknown players, seats 0 and 11, deadlines in the past, wrong types).
Every operation must either apply, leaving the tournament sound (chips conserved, everyone
seated once, every amount within ``MAX_CHIPS``), or be refused with a ``TournamentError``
that changed nothing. The inputs that applied are logged the way the server logs them
(through JSON), and a fresh tournament replaying that log must reach exactly the same state.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import attrs
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from poker.cards import seeded_rng, shuffled_deck
from poker.limits import MAX_CHIPS
from poker.policy import random_action
from server.tournament import Settings, Tournament, TournamentError
from server.tournament.inputs import DIRECTOR_OPS, OPTIONS, apply_director, apply_input
from tests.budget import examples

from .helpers import check_chips, check_seating, fingerprint

WILD = st.sampled_from([None, True, False, "3", "", 2.5, -1, 0, 1, math.nan, math.inf, -math.inf,
                        2**53, 2**64, 10**30, [], {}, [1, 2], "p01"])
BIG = st.sampled_from([MAX_CHIPS - 1, MAX_CHIPS, MAX_CHIPS + 1, 2**62, 2**64, -(2**64)])
CHIPS = st.one_of(st.integers(-20_000, 20_000), BIG, WILD)
SECONDS = st.one_of(st.floats(-100, 4000, allow_nan=False), st.integers(-5, 100_000), WILD)


@st.composite
def mostly(draw: st.DrawFn, good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> Any:
    """About three draws in four from ``good``: enough operations apply to reach deep states
    (``one_of`` would pick the bad branch far more often than its share)."""
    return draw(good) if draw(st.sampled_from([True, True, True, False])) else draw(bad)


def _schedule() -> st.SearchStrategy[Any]:
    blind = st.one_of(st.integers(-5, 5000), BIG)
    rising = st.lists(st.integers(1, 400), min_size=1, max_size=6).map(
        lambda steps: [[sum(steps[: i + 1]), 2 * sum(steps[: i + 1])] for i in range(len(steps))])
    return mostly(rising, st.one_of(st.lists(st.lists(blind, min_size=1, max_size=3), max_size=4), WILD,
                                    st.just([[i, i + 1] for i in range(1, 260)])))


def director_payload(t: Tournament, now: float) -> st.SearchStrategy[dict[str, Any]]:
    """An operation with mostly sensible arguments, any of which may be absurd (or missing)."""
    ins = t.players_in()
    anyone = st.sampled_from([*t.registered, "nobody", 7, None])
    player = mostly(st.sampled_from(ins), anyone) if ins else anyone
    fields: dict[str, st.SearchStrategy[Any]] = {
        "level": mostly(st.integers(1, 6), st.one_of(st.integers(-2, 60), st.integers(0, 10**20), WILD)),
        "schedule": _schedule(),
        "options": mostly(
            st.dictionaries(st.sampled_from(OPTIONS), st.one_of(
                st.floats(1, 200, allow_nan=False), st.integers(1, 40), st.sampled_from(["hickory", "standard"])),
                min_size=1, max_size=2),
            st.dictionaries(st.sampled_from([*OPTIONS, "antes"]), st.one_of(
                st.floats(-5, 1e7), st.integers(-3, 10**7), st.sampled_from(["x"]), WILD), max_size=3)),
        "deadline": mostly(st.one_of(st.none(), st.floats(0, 20_000, allow_nan=False).map(lambda d: now + d),
                                     st.just(now + 10**6)),
                           mostly(st.floats(-500, 0, exclude_max=True).map(lambda d: now + d), WILD)),
        "player_id": player, "from_player": player, "to_player": player,
        "table": mostly(st.sampled_from(t.table_ids() or [1]), st.one_of(st.integers(0, 5), WILD)),
        "seat": mostly(st.one_of(st.none(), st.integers(1, t.settings.seats_per_table)),
                       st.one_of(st.integers(-1, 12), WILD)),
        "delta": mostly(st.integers(-3000, 3000), CHIPS), "amount": mostly(st.integers(1, 3000), CHIPS),
        "text": mostly(st.text(min_size=1, max_size=20), st.one_of(st.just("x" * 600), WILD)),
        "to": mostly(st.lists(st.sampled_from(t.registered or ["p00"]), max_size=3),
                     st.one_of(st.lists(anyone, max_size=3), WILD)),
        "until_level": mostly(st.one_of(st.none(), st.integers(1, 4)), st.one_of(st.integers(-1, 300), WILD)),
        "decision": mostly(st.text(min_size=1, max_size=20), st.one_of(st.just(" "), st.just("x" * 600), WILD)),
        "call_id": mostly(st.one_of(st.none(), st.integers(1, 4)), WILD),
        "title": mostly(st.text(min_size=1, max_size=20), st.one_of(st.just(""), st.just("t" * 100), WILD)),
        "after_level": mostly(st.integers(1, 6), st.one_of(st.integers(-2, 300), WILD)),
        "minutes": mostly(st.integers(0, 30), st.one_of(st.integers(-5, 10**6), WILD)),
    }
    needs = {"set_level": ["level"], "set_schedule": ["schedule"], "set_options": ["options"],
             "set_deadline": ["deadline"], "move_player": ["player_id", "table", "seat"],
             "remove_player": ["player_id"], "adjust_chips": ["player_id", "delta"],
             "transfer_chips": ["from_player", "to_player", "amount"], "announce": ["text", "to"],
             "void_hand": ["table"], "late_registration": ["until_level"],
             "rule": ["decision", "call_id", "table"], "award": ["title", "player_id"],
             "set_break": ["after_level", "minutes"]}

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        op = draw(st.sampled_from([*DIRECTOR_OPS, *DIRECTOR_OPS[3:], "bogus"]))
        payload: dict[str, Any] = {
            "op": op,
            "now": draw(mostly(st.just(now), SECONDS)),
            "reason": draw(mostly(st.just("director's call"), st.one_of(st.just(""), st.just("y" * 250), WILD))),
        }
        for name in needs.get(op, []):
            payload[name] = draw(fields[name])
        if op in ("pause", "resume") and draw(st.booleans()):  # one table, not the clock
            payload["table"] = draw(fields["table"])
        if draw(st.integers(0, 15)) == 0:  # now and then a field missing or one too many
            if draw(st.booleans()) and len(payload) > 1:
                del payload[draw(st.sampled_from(sorted(payload)))]
            else:
                name = draw(st.sampled_from(sorted(fields)))
                payload[name] = draw(fields[name])
        return payload

    return build()


def check_sound(t: Tournament) -> None:
    """What every accepted input must leave: chips conserved and within the limit, every
    player seated once, blinds and settings the rules allow."""
    check_chips(t)
    if t.phase.value != "registering":
        check_seating(t)
    assert t.chips_in_play() <= MAX_CHIPS
    sb, bb = t.blinds
    assert 0 < sb <= bb <= MAX_CHIPS
    if t.phase.value == "running":
        info = t.level_info(0.0)
        assert info.next_big_blind <= MAX_CHIPS
    attrs.evolve(t.settings)  # runs every validator again
    for tid in t.table_ids():
        for p in t.table(tid).seats.values():
            assert 0 <= p.stack <= MAX_CHIPS


def _json(payload: dict[str, Any]) -> dict[str, Any]:
    """As the store keeps it (``server/store.py`` writes ``json.dumps``)."""
    out: dict[str, Any] = json.loads(json.dumps(payload))
    return out


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), players=st.integers(2, 13), seats=st.integers(2, 10), seed=st.integers(0, 2**16),
       by_hands=st.booleans())
def test_every_director_operation_applies_soundly_or_changes_nothing_and_replays(
    data: st.DataObject, players: int, seats: int, seed: int, by_hands: bool
) -> None:
    options = Settings(seats_per_table=seats, starting_stack=1000, schedule=((10, 20), (20, 40), (50, 100)),
                       level_minutes=2, hands_per_level=3 if by_hands else None)
    t = Tournament(options, seeded_rng(seed))
    log: list[tuple[str, int | None, dict[str, Any]]] = []
    decks = random.Random(seed)
    policy = random.Random(seed + 1)

    def do(kind: str, table: int | None, payload: dict[str, Any]) -> None:
        apply_input(t, kind, table, payload)
        log.append((kind, table, _json(payload)))

    for i in range(players):
        do("register", None, {"player_id": f"p{i:02d}", "name": f"P{i:02d}"})
    now = 0.0
    refused = applied = 0
    if data.draw(st.integers(0, 3), label="start at once") > 0:
        do("start", None, {"now": now, "deadline": None})
    for _ in range(data.draw(st.integers(4, 48), label="steps")):
        step = data.draw(st.sampled_from(
            ["director", "director", "deal", "act", "act", "act", "tick", "register", "floor"]))
        if step == "director":
            payload = data.draw(director_payload(t, now), label="director")
            before = fingerprint(t)
            try:
                events = apply_director(t, payload)
            except TournamentError as exc:
                assert str(exc), payload
                assert fingerprint(t) == before, f"refused but changed: {payload}"
                refused += 1
                continue
            applied += 1
            assert events and type(events[0]).__name__ == "DirectorAction"
            log.append(("director", None, _json(payload)))
            if isinstance(payload.get("now"), (int, float)):
                now = max(now, float(payload["now"]))
            check_sound(t)
        elif step in ("register", "floor"):  # a late entry (when open), a call to the floor
            if step == "register":
                kind, payload = "register", {"player_id": f"late{len(t.registered)}", "name": "Late"}
            else:
                kind, payload = "call_floor", {"now": now, "player_id": data.draw(st.sampled_from(t.registered)),
                                               "message": "floor!"}
            before = fingerprint(t)
            try:
                apply_input(t, kind, None, payload)
            except TournamentError:
                assert fingerprint(t) == before, f"refused but changed: {kind} {payload}"
                continue
            log.append((kind, None, _json(payload)))
            if t.phase.value != "registering":
                check_sound(t)
        elif t.phase.value != "running":
            if step == "deal" and len(t.registered) >= 2:
                do("start", None, {"now": now, "deadline": None})
        elif step == "deal":
            free = [tid for tid in t.table_ids() if t.can_deal(tid, now)]
            if free:
                tid = data.draw(st.sampled_from(free))
                deck = shuffled_deck(decks)
                apply_input(t, "begin_hand", tid, {"now": now, "deck": deck})
                log.append(("begin_hand", tid, {"now": now, "deck": deck}))
        elif step == "act":
            busy = [tid for tid in t.table_ids() if t.table(tid).hand is not None]
            for tid in busy:
                hand = t.table(tid).hand
                assert hand is not None
                for _ in range(data.draw(st.integers(1, 12))):
                    legal = hand.legal_actions()
                    if legal is None:
                        break
                    action = random_action(legal, policy)
                    do("act", tid, {"seat": legal.seat, "kind": action.kind.value, "amount": action.amount,
                                    "automatic": False})
                if hand.is_over:
                    do("end_hand", tid, {"now": now})
                    check_sound(t)
                    if t.finished:
                        break
        else:
            now += data.draw(st.floats(0, 400, allow_nan=False))
            do("tick", None, {"now": now})
            check_sound(t)
        if t.finished:
            break

    event(f"director operations applied: {min(applied, 5)}{'+' if applied >= 5 else ''}")
    event(f"hands dealt: {min(t.hands_dealt, 5)}{'+' if t.hands_dealt >= 5 else ''}")
    for kind in sorted({p["op"] for k, _, p in log if k == "director"}):
        event(f"applied: {kind}")
    replayed = Tournament(options, seeded_rng(seed))
    for kind, table, payload in log:
        apply_input(replayed, kind, table, payload)
    assert fingerprint(replayed) == fingerprint(t)
