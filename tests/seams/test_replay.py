"""Live play and replay agree: the log of every test night, replayed, gives the same state
after every input (issue 24: one input path, ``server/inputs.py``).

Each night is a generated one (``night.run_night``, other seeds than ``test_nights``'s), its
log kept as the database would keep it (``replay.LogTap``); the replay is the start-up's
(``recovery.replay_log``) into a fresh server. A difference names the night, the input and
the part of the state that differs.
"""

from __future__ import annotations

from functools import partial

import pytest
import trio

from server.app import Server
from server.recovery import SetAside, replay_log
from tests.seams.night import quiet_clock, run_night
from tests.seams.replay import Entry, state

NIGHTS = 28
SHARDS = 4
PARTS = ("phase", "level", "hands dealt", "chips issued", "broken tables", "standings", "seat-draw stream",
         "tables", "players")


def first_difference(live: tuple[object, ...], replayed: tuple[object, ...]) -> str:
    for name, a, b in zip(PARTS, live, replayed, strict=True):
        if a != b:
            return f"{name}: live {a!r}, replayed {b!r}"
    return "none"


def replay_watched(fresh: Server, entries: list[Entry]) -> tuple[list[tuple[object, ...]], list[SetAside]]:
    """Replay ``entries`` into ``fresh`` as the start-up does: the state after each one."""
    states: list[tuple[object, ...]] = []
    aside = replay_log(fresh, entries, {}, after=lambda seq, kind, table_id: states.append(state(fresh)))
    return states, aside


@pytest.mark.parametrize("shard", range(SHARDS))
def test_the_log_of_every_night_replays_to_the_same_state_after_every_input(shard: int) -> None:
    inputs = 0
    for seed in range(10_000 + shard, 10_000 + NIGHTS, SHARDS):
        result = trio.run(partial(run_night, seed, tap=True), clock=quiet_clock())
        assert result.tap is not None and result.tap.entries, f"night {seed} logged nothing"
        replayed, aside = replay_watched(Server(result.config, seed=seed), result.tap.entries)
        assert aside == [], f"night {seed}: the replay set inputs aside: {aside}"
        assert len(replayed) == len(result.tap.states)
        for (seq, kind, table_id, payload), live, again in zip(result.tap.entries, result.tap.states, replayed,
                                                                strict=True):
            assert again == live, (f"night {seed}, input {seq} ({kind} at table {table_id}: {payload}): "
                                   + first_difference(live, again))
        inputs += len(replayed)
    assert inputs > 0
