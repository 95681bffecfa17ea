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
import functools
import json
import logging
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from poker.actions import Ruleset
from protocol import names
from server import director_key
from server.clients import PlayerState
from server.config import ServerConfig
from server.fairness import replay_input
from server.house import House
from server.inputs import Logged, apply_logged
from server.journal import audit_record, hand_voided_record, wall_clock
from server.rows import meta_record
from server.store import Store, StoreError
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


H = TypeVar("H", bound=House)


def open_house(config: ServerConfig, make: Callable[..., H], *, seed: int | None = None) -> H:
    """The house for ``config``, made by ``make(config, store=, seed=)``: fresh, or resumed
    from its database. Recovery builds no server: the app passes its ``Server`` class
    (``app.open_server``), the read-only tools a bare ``House`` (``reports.py``).

    ``seed`` seeds a new tournament's seat draw (tests; by default a secret random one);
    a resumed tournament always uses the seed stored with it. Resuming never fails for ever
    on one bad input: an input that cannot be replayed is set aside (``replay_all``),
    recorded in the database (the ``set_aside`` meta entry, which later restarts skip, and
    a row in ``audit``), logged, and announced to the players.
    """
    if config.db is None:
        return make(config, seed=seed)
    store = Store(config.db, synchronous=config.synchronous.upper())
    seed_text = store.get_meta("seed")
    if seed_text is None:
        server = make(config, store=store, seed=seed)
        store.write_now([
            meta_record("seed", str(server.seed)),
            meta_record("config", _config_json(config)),
            meta_record("created", dt.datetime.now().astimezone().isoformat(timespec="seconds")),
            meta_record(director_key.META_KEY, server.director_secret_hash),
        ])
        log.info("new tournament in %s", config.db)
        return server
    config = stored_config(config, store.get_meta("config"))
    wall = store.get_meta("deadline_wall")
    chat = store.get_meta("chat")
    kept = store.get_meta(director_key.META_KEY)
    keep_secret = config.director_secret is None and kept is not None

    def fresh() -> H:
        server = make(config, store=store, seed=int(seed_text))
        if keep_secret and kept is not None:
            server.director_secret, server.director_secret_hash = None, kept  # the same director gets in
        if wall is not None:
            server.deadline_wall = dt.datetime.fromisoformat(wall) if wall else None
        server.chat_enabled = chat != "off"
        return server

    tokens = store.token_hashes()
    known = read_set_aside(store.get_meta("set_aside"))

    def mark_voided(hand_no: int | None) -> None:
        store.write_now([hand_voided_record(hand_no)])

    try:
        server, found = replay_all(fresh, store.iter_inputs, tokens, known=known, on_void=mark_voided)
    except Exception as exc:  # the database itself cannot be read: refuse clearly, never half-start
        store.close()
        raise StoreError(f"{config.db}: the tournament log cannot be read ({exc!r}); "
                         "restore a backup (docs/hosting.md)") from exc
    if not keep_secret:  # given with --director, or a database from before secrets were kept
        store.write_now([meta_record(director_key.META_KEY, server.director_secret_hash)])
    if found:
        record_set_aside(store, known, found)
        report_set_aside(server, found)
    forget_hands_not_dealt(store, server.tournament.hands_dealt)
    server.pending_announcements = condensed(server.pending_announcements)
    resume_clock(server, store.get_meta("clock"))
    log.info("resumed the tournament in %s: %d players, %d hands dealt",
             config.db, len(server.players), server.tournament.hands_dealt)
    return server


def forget_hands_not_dealt(store: Store, hands_dealt: int) -> None:
    """Drop the stored record of hands numbered past the last hand the replay dealt: their
    deals were set aside (now or at an earlier start), so their actions never happened, and
    the next deal takes the first such number again (its ``hands`` row replaces the old one;
    its events would collide with the old hand's, and the store would refuse every write)."""
    if not store.has_hands_after(hands_dealt):
        return
    log.error("the record of hands after #%d is dropped: their deals were set aside", hands_dealt)
    store.drop_hands_after(hands_dealt)


# -- inputs set aside ---------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class SetAside:
    """A logged input the replay could not apply, skipped from then on."""

    seq: int
    kind: str
    what: str  # "director set_level", "tick", "deal at table 2"
    error: str

    @property
    def text(self) -> str:
        return f"log entry {self.seq} ({self.what}): {self.error}"


class Unreplayable(Exception):
    """An input failed in a way that may have changed the tournament half-way (not a clean
    refusal): the replay starts again from the beginning without it."""

    def __init__(self, aside: SetAside) -> None:
        super().__init__(aside.text)
        self.aside = aside


def read_set_aside(text: str | None) -> dict[int, str]:
    """The ``set_aside`` meta entry: ``{seq: what was wrong}``; unreadable reads as none."""
    try:
        data = json.loads(text or "{}")
        return {int(k): str(v) for k, v in data.items()}
    except (ValueError, TypeError, AttributeError):
        log.error("the set_aside entry of the database cannot be read (%r); ignored", text)
        return {}


def record_set_aside(store: Store, known: Mapping[int, str], found: Iterable[SetAside]) -> None:
    """Keep what was set aside: in ``meta`` (so every later start skips exactly these, even
    if a newer server would accept one) and in ``audit`` (so the host sees it)."""
    found = list(found)
    every = {**known, **{a.seq: a.text for a in found}}
    at = wall_clock()
    store.write_now([
        meta_record("set_aside", json.dumps({str(k): v for k, v in sorted(every.items())})),
        *(audit_record(at, "set_aside", "could not be replayed at start-up", a.text) for a in found),
    ])


def report_set_aside(server: House, found: Sequence[SetAside]) -> None:
    """Tell the host (the log) and everyone at the tables (an announcement once running)."""
    for a in found:
        log.error("set aside %s", a.text)
    shown = "; ".join(a.text for a in found[:3]) + (f"; and {len(found) - 3} more" if len(found) > 3 else "")
    server.pending_announcements.insert(0,  # first: the condensing below keeps it
        f"{len(found)} input(s) from before the restart could not be replayed and were set aside "
        f"(kept in the audit log): {shown}"
    )


def condensed(texts: list[str], limit: int = 4) -> list[str]:
    """At most ``limit`` restart notices: each resuming player hears every one, so a log
    with many voided hands is summed up (the server's log has each)."""
    if len(texts) <= limit:
        return texts
    rest = len(texts) - (limit - 1)
    return [*texts[: limit - 1], f"... and {rest} more notices like these (the host's log has each)."]


def replay_all(
    fresh: Callable[[], H],
    read_inputs: Callable[[], Iterable[tuple[int, str, int | None, dict[str, Any]]]],
    tokens: Mapping[str, str],
    *,
    known: Mapping[int, str] | None = None,
    on_void: Callable[[int | None], None] | None = None,
    watch: Callable[[H, int, str, int | None], None] | None = None,
) -> tuple[H, list[SetAside]]:
    """Replay the whole log into a ``fresh()`` server, setting aside what cannot be replayed.

    ``known``: entries set aside before (skipped without trying them). A clean refusal (a
    ``TournamentError``: nothing changed) is set aside on the spot; any other failure may
    have left the tournament half-changed, so the replay starts again from a fresh server
    without that entry. Each restart sets one more entry aside, so this ends. Returns the
    server and what was newly set aside.

    ``watch(server, seq, kind, table_id)`` sees each step of the first replay, on that
    replay's server; if it had to start again, the final replay is made once more, watched
    from the start: the steps the first replay made before its failure are then seen twice,
    in the same states (the harness's every-state check collects states in a set). Without
    a failure the log is read and replayed once.
    """
    skip = dict(known or {})
    found: list[SetAside] = []
    aborted = False
    while True:
        server = fresh()
        after = None
        if watch is not None and not aborted:
            after = functools.partial(watch, server)
        try:
            found += replay_log(server, read_inputs(), tokens, skip=skip, on_void=on_void, after=after)
        except Unreplayable as exc:
            log.error("replay: %s; starting the replay again without it", exc)
            found.append(exc.aside)
            skip[exc.aside.seq] = exc.aside.text
            aborted = True
            continue
        if watch is not None and aborted:  # once more, watched from the start
            server = fresh()
            replay_log(server, read_inputs(), tokens, skip=skip, on_void=on_void,
                       after=functools.partial(watch, server))
        return server, found


def resume_clock(server: House, saved: str | None) -> None:
    """Tournament time goes on from the last time saved (or logged) before the stop."""
    if saved:
        server.resume_at = max(server.resume_at, float(saved))


def _what(kind: str, table_id: int | None, p: Mapping[str, Any]) -> str:
    if kind == "director":
        return f"director {p.get('op', '?')}"
    if kind == "begin_hand":
        return f"a deal at table {table_id}"
    if kind == "end_hand":
        return f"the end of a hand at table {table_id}"
    return kind


def replay_log(
    server: House,
    inputs: Iterable[tuple[int, str, int | None, dict[str, Any]]],
    tokens: Mapping[str, str],
    *,
    skip: Mapping[int, str] | None = None,
    on_void: Callable[[int | None], None] | None = None,
    after: Callable[[int, str, int | None], None] | None = None,
) -> list[SetAside]:
    """Feed logged inputs ``(seq, kind, table_id, payload)`` to ``server``'s fresh tournament.

    The one replay path, for start-up and for the read-only tools (``server/reports.py``),
    which pass no ``on_void`` (they never write) and may watch each step with ``after``.
    Entries in ``skip`` are passed over (a deal passed over takes its hand's actions and end
    with it). A hand's action that cannot be applied voids that hand (every bet returned);
    any other input the tournament refuses is set aside and returned; one that fails in
    another way raises ``Unreplayable`` (see ``replay_all``).
    """
    t = server.tournament
    skip = skip or {}
    found: list[SetAside] = []
    last_now = 0.0
    voided: set[int] = set()  # tables whose current hand was voided: skip its actions
    dropped: set[int] = set()  # tables whose current deal was set aside: skip its hand too
    begin_carry: dict[int, int] = {}
    for seq, kind, table_id, p in inputs:
        if kind in ("begin_hand", "act", "end_hand") and table_id is not None:
            if kind == "begin_hand":
                voided.discard(table_id)
                dropped.discard(table_id)
            if table_id in dropped:
                continue
        if seq in skip:
            if kind == "begin_hand" and table_id is not None:
                dropped.add(table_id)
            continue
        now = p.get("now")
        if isinstance(now, (int, float)) and not isinstance(now, bool) and math.isfinite(now):
            last_now = max(last_now, float(now))
        # The fair-deck state (commitments, seed lists, the chain); the seating stream. An
        # entry it cannot take in (a torn commitment, a deal naming none) may have changed
        # that state half-way: replayed around, like any input that fails that way.
        try:
            stream = replay_input(server.fair, kind, table_id, p, t.hands_dealt + 1)
        except Exception as exc:
            raise Unreplayable(SetAside(seq=seq, kind=kind, what=_what(kind, table_id, p),
                                        error=f"{type(exc).__name__}: {exc}")) from exc
        if stream is not None:
            t.rng = stream
        if kind == "deck_commit":  # the scheme's own input: replay_input took it in
            pass
        elif kind == "act":
            if table_id in voided:
                continue
            if table_id is None or table_id not in t.tables or t.table(table_id).hand is None:
                # Nothing to void (a damaged log): voiding would put back the carry of the
                # table's last deal, which that hand's end may have changed since.
                error = "there is no such table" if table_id not in t.tables else \
                    f"there is no hand in progress at table {table_id}"
                found.append(SetAside(seq=seq, kind=kind, what=f"an action at table {table_id}", error=error))
                continue
            try:
                apply_logged(t, server.players, Logged(kind, table_id, p))
            except Exception as exc:  # the hand is dropped whole, however far the action got
                # A hand in progress was dealt by a replayed begin_hand, which noted its carry.
                hand_no = void_hand(server, table_id, begin_carry[table_id], f"log entry {seq}: {exc}")
                if on_void is not None:
                    on_void(hand_no)
                voided.add(table_id)
                continue
        elif kind == "end_hand" and table_id in voided:
            continue
        else:
            try:
                if kind == "begin_hand" and table_id is not None:
                    begin_carry[table_id] = p.get("carry", 0)
                apply_logged(t, server.players, Logged(kind, table_id, p))
                if kind == "director":
                    server.note_rule_times(p.get("wall"))
                if kind == "register":
                    _register(server, tokens, p["player_id"], p["name"])
            except TournamentError as exc:  # refused before anything changed
                found.append(SetAside(seq=seq, kind=kind, what=_what(kind, table_id, p), error=str(exc)))
                if kind == "begin_hand" and table_id is not None:
                    dropped.add(table_id)
            except Exception as exc:
                raise Unreplayable(SetAside(seq=seq, kind=kind, what=_what(kind, table_id, p),
                                            error=f"{type(exc).__name__}: {exc}")) from exc
        if after is not None:
            after(seq, kind, table_id)
    server.resume_at = last_now
    return found


def _register(server: House, tokens: Mapping[str, str], pid: str, name: str) -> None:
    server.players[pid] = PlayerState(player_id=pid, name=name, token_hash=tokens.get(pid, ""),
                                      bank=server.config.time_bank)
    server.by_name[names.key(name)] = pid
    if tokens.get(pid):
        server.by_token_hash[tokens[pid]] = pid


def void_hand(server: House, table_id: int, carry: int, why: str) -> int:
    """Drop the hand in progress that cannot be resumed: the stacks are as they were before
    it. Returns the hand's number; the caller marks it voided in the database."""
    table = server.tournament.table(table_id)
    hand = table.hand
    assert hand is not None  # replay_log voids only a hand in progress
    hand_no = hand.hand_no
    table.hand = None
    table.carry = carry
    log.error("hand #%s at table %d could not be resumed (%s); voided, every bet returned", hand_no, table_id, why)
    server.pending_announcements.append(
        f"Hand #{hand_no} at table {table_id} could not be resumed after the restart and was voided: "
        "every bet was returned."
    )
    return hand_no
