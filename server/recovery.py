"""Opening the database: a new tournament, or the replay of an existing one.

The ``inputs`` log holds every input the pure tournament was given. Replaying it through
a fresh ``Tournament`` with the same seating seed rebuilds the exact state: stacks, seats,
level, and a hand in progress at its last committed action (its deck is in the log). A hand
whose log cannot be replayed is voided: every bet goes back (the table's stacks are only
updated when a hand ends, so dropping the hand returns them), and that is logged and
announced, never half-applied.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from poker.actions import Action, ActionKind, IllegalAction, Ruleset
from server.app import PlayerState, Server, apply_director
from server.config import ServerConfig
from server.store import Record, Store, StoreError, meta_record
from server.tournament.errors import TournamentError

log = logging.getLogger("hickory.recovery")

# The options that make up the tournament itself: fixed by the first start, so a restart
# with other flags cannot change the game under the players (the director can, logged).
TOURNAMENT_FIELDS = (
    "name", "starting_stack", "schedule", "level_minutes", "hands_per_level", "seats",
    "ruleset", "action_clock", "time_bank", "reconnect_grace",
)


def _config_json(config: ServerConfig) -> str:
    data: dict[str, Any] = {}
    for name in TOURNAMENT_FIELDS:
        value = getattr(config, name)
        data[name] = value.value if isinstance(value, Ruleset) else value
    return json.dumps(data)


def stored_config(config: ServerConfig, text: str | None) -> ServerConfig:
    """``config`` with the tournament's own options as the first start fixed them."""
    stored = json.loads(text or "{}")
    stored = {k: v for k, v in stored.items() if k in TOURNAMENT_FIELDS}
    if stored.get("schedule") is not None:
        stored["schedule"] = tuple(tuple(x) for x in stored["schedule"])
    if "ruleset" in stored:
        stored["ruleset"] = Ruleset(stored["ruleset"])
    return attrs.evolve(config, **stored)


def open_server(config: ServerConfig, *, seed: int | None = None) -> Server:
    """The server for ``config``: fresh, or resumed from its database.

    ``seed`` seeds a new tournament's seat draw (tests; by default a secret random one);
    a resumed tournament always uses the seed stored with it."""
    if config.db is None:
        return Server(config, seed=seed)
    store = Store(config.db, synchronous=config.synchronous.upper())
    seed_text = store.get_meta("seed")
    if seed_text is None:
        server = Server(config, store=store, seed=seed)
        store.write_now([
            meta_record("seed", str(server.seed)),
            meta_record("config", _config_json(config)),
            meta_record("created", dt.datetime.now().astimezone().isoformat(timespec="seconds")),
        ])
        log.info("new tournament in %s", config.db)
        return server
    config = stored_config(config, store.get_meta("config"))
    server = Server(config, store=store, seed=int(seed_text))
    wall = store.get_meta("deadline_wall")
    if wall is not None:
        server.deadline_wall = dt.datetime.fromisoformat(wall) if wall else None
    try:
        replay(server, store)
    except Exception as exc:  # a damaged log outside a hand: refuse clearly, never half-start
        store.close()
        raise StoreError(f"{config.db}: the tournament log cannot be replayed ({exc!r}); "
                         "restore a backup (docs/hosting.md)") from exc
    log.info("resumed the tournament in %s: %d players, %d hands dealt",
             config.db, len(server.players), server.tournament.hands_dealt)
    return server


def replay(server: Server, store: Store) -> None:
    """Replay the store's log into ``server``; a hand that cannot be resumed is voided and
    marked so in ``hands``."""
    tokens = {row[0]: row[1] for row in store._conn.execute("SELECT player_id, token_hash FROM players")}

    def mark_voided(hand_no: int | None) -> None:
        store.write_now([Record(sql="UPDATE hands SET status='voided' WHERE hand_no=?", params=(hand_no,))])

    replay_log(server, store.iter_inputs(), tokens, on_void=mark_voided)
    resume_clock(server, store.get_meta("clock"))


def resume_clock(server: Server, saved: str | None) -> None:
    """Tournament time goes on from the last time saved (or logged) before the stop."""
    if saved:
        server._resume_at = max(server._resume_at, float(saved))


def replay_log(
    server: Server,
    inputs: Iterable[tuple[int, str, int | None, dict[str, Any]]],
    tokens: Mapping[str, str],
    *,
    on_void: Callable[[int | None], None] | None = None,
    after: Callable[[int, str, int | None], None] | None = None,
) -> None:
    """Feed logged inputs ``(seq, kind, table_id, payload)`` to ``server``'s fresh tournament.

    The one replay path, for start-up and for the read-only tools (``server/tools.py``),
    which pass no ``on_void`` (they never write) and may watch each step with ``after``.
    """
    t = server.tournament
    last_now = 0.0
    voided: set[int] = set()  # tables whose current hand was voided: skip its actions
    begin_carry: dict[int, int] = {}
    for seq, kind, table_id, p in inputs:
        last_now = max(last_now, float(p.get("now", last_now) or last_now))
        if kind == "register":
            pid = p["player_id"]
            t.register(pid, p["name"])
            server.players[pid] = PlayerState(player_id=pid, name=p["name"], token_hash=tokens.get(pid, ""),
                                              bank=server.config.time_bank)
            server.by_name[p["name"].casefold()] = pid
        elif kind == "start":
            t.settings = attrs.evolve(t.settings, deadline=p.get("deadline"))
            t.start(p["now"])
        elif kind == "begin_hand":
            assert table_id is not None
            voided.discard(table_id)
            begin_carry[table_id] = p.get("carry", 0)
            t.begin_hand(table_id, p["now"], deck=p["deck"])
        elif kind == "act":
            assert table_id is not None
            if table_id in voided:
                continue
            hand = t.table(table_id).hand
            try:
                if hand is None or hand.is_over:
                    raise IllegalAction("no hand in progress")
                hand.act(p["seat"], Action(kind=ActionKind(p["kind"]), amount=p["amount"]),
                         automatic=p["automatic"])
            except (IllegalAction, KeyError, ValueError) as exc:
                hand_no = void_hand(server, table_id, begin_carry.get(table_id, 0), f"log entry {seq}: {exc}")
                if on_void is not None:
                    on_void(hand_no)
                voided.add(table_id)
                continue
            player = t.table(table_id).seats[p["seat"]].player_id
            server.players[player].bank = p.get("bank", server.players[player].bank)
        elif kind == "end_hand":
            assert table_id is not None
            if table_id in voided:
                continue
            t.end_hand(table_id, p["now"])
        elif kind == "tick":
            t.tick(p["now"])
        elif kind == "director":
            try:
                apply_director(t, p)
            except TournamentError as exc:
                log.warning("log entry %d: director operation %s no longer applies: %s", seq, p["op"], exc)
        elif kind == "status":
            ps = server.players.get(p["player_id"])
            if ps is not None:
                ps.sitting_out = p["sitting_out"]
                ps.bank = p.get("bank", ps.bank)
        if after is not None:
            after(seq, kind, table_id)
    server._resume_at = last_now


def void_hand(server: Server, table_id: int, carry: int, why: str) -> int | None:
    """Drop a hand that cannot be resumed: the stacks are as they were before it.

    Returns the hand's number; the caller marks it voided in the database."""
    table = server.tournament.table(table_id)
    hand = table.hand
    hand_no = hand.hand_no if hand is not None else None
    table.hand = None
    table.carry = carry
    log.error("hand #%s at table %d could not be resumed (%s); voided, every bet returned", hand_no, table_id, why)
    server.pending_announcements.append(
        f"Hand #{hand_no} at table {table_id} could not be resumed after the restart and was voided: "
        "every bet was returned."
    )
    return hand_no
