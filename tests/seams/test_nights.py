"""Generated nights: every client's picture equals the server's, every player is dealt in.

Each seed is one night (``night.run_night``): players on protocol versions 1 to 3, a
spectator, a director issuing commands at random moments, connections dropping and
resuming mid-hand. A failure names the seed, the connection and the message after which
its picture parted from the server's (docs/testing.md, "The oracle").
"""

from __future__ import annotations

import pytest
import trio
import trio.testing

from tests.seams.night import quiet_clock, run_night

NIGHTS = 60
SHARDS = 10


@pytest.mark.parametrize("shard", range(SHARDS))
def test_generated_nights_keep_every_picture_true_and_deal_everyone_in(shard: int) -> None:
    hands = 0
    for seed in range(shard, NIGHTS, SHARDS):
        result = trio.run(run_night, seed, clock=quiet_clock())
        assert not result.mismatches, f"night {seed} ({', '.join(result.commands)}):\n" + "\n".join(result.mismatches)
        assert not result.stuck, f"night {seed}: " + "; ".join(result.stuck)
        assert result.checks > 0 and result.hands > 0, result
        hands += result.hands
    assert hands > 0
