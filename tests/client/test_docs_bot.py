"""The ten-line bot in docs/bots.md runs as written against a real server."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import trio

from client.bot import Bot, run_bot
from tests.server.harness import fast_config, running

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def network_bot_source() -> str:
    section = DOC.read_text().split("## Writing a bot over the network", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]


def test_the_doc_bot_is_short_and_runs_the_library() -> None:
    source = network_bot_source()
    assert len([line for line in source.splitlines() if line.strip()]) <= 16
    assert 'trio.run(run_bot, "127.0.0.1", 7777, "pusher", PairPusher(random.Random()))' in source


async def test_the_doc_bot_plays_a_tournament_to_the_end(autojump_clock: object) -> None:
    source = network_bot_source()
    definitions = source.split("\nplace = ", 1)[0]  # everything but the trio.run at the end
    namespace: dict[str, Any] = {}
    exec(compile(definitions, str(DOC), "exec"), namespace)
    pusher = namespace["PairPusher"](random.Random(3))
    async with running(fast_config(3, seats=6), seed=8) as (_server, port):
        places: dict[str, int | None] = {}

        async def doc_bot() -> None:
            places["pusher"] = await run_bot("127.0.0.1", port, "pusher", pusher)

        async def other(name: str) -> None:
            places[name] = await Bot("127.0.0.1", port, name, "calling-station", seed=1).run()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(doc_bot)
            nursery.start_soon(other, "cs-1")
            nursery.start_soon(other, "cs-2")
    assert set(places) == {"pusher", "cs-1", "cs-2"}
    assert all(p is not None for p in places.values())
    assert 1 in places.values()
