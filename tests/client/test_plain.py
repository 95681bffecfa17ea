"""``hickory --plain`` against a real server in the test's own Trio run, with bots.

The plain client gets its typed lines from a memory channel and prints into a transcript
the test reads line by line, as a person listening would: it waits for its turn, types a
raise below the minimum (refused in words, nothing sent), raises for real, asks for all in
and says no, plays whole hands by typing ``c``, and quits with the question answered. A
second test lets the clock run (Trio's virtual clock: no sleeps) and hears the warnings
ten seconds before the action clock and the time bank run out, then the server's
automatic action.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import AsyncIterator
from pathlib import Path

import trio

from client.bot import Bot
from client.cli import TokenStore
from client.plain import PlainClient
from tests.server.harness import fast_config, running

TURN = re.compile(r"^Your turn: (.*)\. (\d+) seconds")
RANGE = re.compile(r"(raise|bet) from ([\d,]+) to ([\d,]+)")


class Transcript:
    """What the plain client printed, read in order by the test."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.read = 0
        self._new = trio.Event()

    def write(self, line: str) -> None:
        assert "\n" not in line and "\x1b" not in line, line  # one line, no escape codes
        self.lines.append(line)
        self._new.set()
        self._new = trio.Event()

    async def next(self) -> str:
        while self.read >= len(self.lines):
            await self._new.wait()
        self.read += 1
        return self.lines[self.read - 1]

    async def wait_for(self, pattern: str) -> re.Match[str]:
        """The next line matching ``pattern`` (lines before it are passed over)."""
        with trio.fail_after(600):
            while True:
                line = await self.next()
                found = re.search(pattern, line)
                if found:
                    return found

    def text(self) -> str:
        return "\n".join(self.lines)


def plain_args(**kw: object) -> argparse.Namespace:
    values: dict[str, object] = dict(name="tester", password=None, spectate=None, no_confirm=False,
                                     deck_record=None)
    values.update(kw)
    return argparse.Namespace(**values)


async def typed(channel: trio.MemoryReceiveChannel[str]) -> AsyncIterator[str]:
    async for line in channel:
        yield line


async def test_plain_mode_plays_whole_hands(autojump_clock: object, tmp_path: Path) -> None:
    cfg = fast_config(4, seats=6, action_clock=20, time_bank=30, starting_stack=10_000,
                      hands_per_level=50)
    out = Transcript()
    keys, lines = trio.open_memory_channel[str](100)
    status: list[int] = []
    async with running(cfg, seed=7) as (server, port):
        bots = [Bot("127.0.0.1", port, f"bot-{i}", "calling-station", seed=i) for i in range(3)]
        client = PlainClient(plain_args(), "127.0.0.1", port, TokenStore(tmp_path / "tokens.json"),
                             out.write, come_back="hickory 127.0.0.1 --name tester --plain")

        async def run_client() -> None:
            status.append(await client.run(typed(lines)))

        async with trio.open_nursery() as nursery:
            for b in bots:
                nursery.start_soon(b.run)
            nursery.start_soon(run_client)

            await out.wait_for(r"^Welcome to .*, tester\.")
            first = await out.wait_for(r"^Hand (\d+) at table 1\. Blinds [\d,]+ and [\d,]+\.")
            hand = int(first.group(1))
            turn = await out.wait_for(TURN.pattern)
            found = RANGE.search(turn.group(1))
            assert found, turn.group(0)
            word, low, high = found.group(1), int(found.group(2).replace(",", "")), int(found.group(3).replace(",", ""))
            least = "raise to" if word == "raise" else "bet of"

            # Below the minimum: refused here, in words, and nothing goes to the server.
            sent_before = client.session.stats.sent if client.session else 0
            await keys.send(f"r {low - 1}")
            await out.wait_for(
                rf"^{word.capitalize()} {low - 1:,} is below the minimum {least} {low:,}\. Nothing was sent\.$"
            )
            assert client.session is not None and client.session.stats.sent == sent_before
            # More than the stack: the same.
            await keys.send(f"raise {high + 1}")
            await out.wait_for(rf"is more than you have: all in is {high:,}\. Nothing was sent\.$")
            # Not a command: said so, with where to look.
            await keys.send("flop it")
            await out.wait_for(r"^'flop' is not a command: type help for the list\.$")

            # A real raise, with the short form.
            amount = min(high, low + 100)
            await keys.send(f"r{amount}")
            verb = "raise to" if word == "raise" else "bet"
            await out.wait_for(rf"^You {verb} {amount:,}\. Pot [\d,]+\.$")

            # All in asks first; no sends nothing. Then c plays on, whole hands, until two
            # more hands have ended.
            asked = False
            ended = 0
            while ended < 2:
                line = await out.next()
                if TURN.match(line):
                    if not asked and "all in" not in line:
                        asked = True
                        await keys.send("all in")
                        question = await out.wait_for(r"^All in for ([\d,]+)\? Type yes or no\.$")
                        assert question.group(1)
                        await keys.send("no")
                        await out.wait_for(r"^Not sent\.$")
                    await keys.send("c")
                    await out.wait_for(r"^You (check|call [\d,]+)(\.| and are all in\.)")
                elif re.match(rf"^Hand {hand + ended} is over\.", line):
                    ended += 1
            assert asked

            # Cards in words, the table on request.
            await keys.send("cards")
            cards = await out.wait_for(r"^(Your cards: .*|You have no cards in this hand\.)$")
            if cards.group(0).startswith("Your cards"):
                assert re.search(r"(ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two) of "
                                 r"(spades|hearts|diamonds|clubs)", cards.group(0))
            await keys.send("table")
            await out.wait_for(r"^Table 1: .*you [\d,]+")
            await keys.send("help")
            await out.wait_for(r"^Commands\. On your turn: fold")

            # Quit: during a hand it asks first.
            await keys.send("quit")
            line = await out.wait_for(r"^(Quit in the middle of a hand\? Type yes or no\.|Your seat is kept\. .*)$")
            if line.group(0).startswith("Quit"):
                await keys.send("yes")
                await out.wait_for(r"^Your seat is kept\. Come back with: hickory 127\.0\.0\.1 --name tester --plain$")
            with trio.fail_after(30):
                while not status:
                    await trio.sleep(0.1)
            nursery.cancel_scope.cancel()
    assert status == [0]
    text = out.text()
    assert "Traceback" not in text and "Refused" not in text, text
    assert re.search(r"^bot-\d (calls|checks|posts)", text, re.M), text
    assert re.search(r"^Flop: \w+ of \w+, \w+ of \w+ and \w+ of \w+\. Pot [\d,]+\.$", text, re.M), text
    assert re.search(r"^\S+ wins? [\d,]+", text, re.M), text


async def test_the_clock_warns_ten_seconds_before_each_runs_out(autojump_clock: object, tmp_path: Path) -> None:
    cfg = fast_config(4, seats=6, action_clock=20, time_bank=30, starting_stack=10_000,
                      hands_per_level=50)
    out = Transcript()
    keys, lines = trio.open_memory_channel[str](100)
    async with running(cfg, seed=8) as (server, port):
        bots = [Bot("127.0.0.1", port, f"bot-{i}", "calling-station", seed=i) for i in range(3)]
        client = PlainClient(plain_args(), "127.0.0.1", port, TokenStore(tmp_path / "tokens.json"), out.write)
        async with trio.open_nursery() as nursery:
            for b in bots:
                nursery.start_soon(b.run)
            nursery.start_soon(client.run, typed(lines))
            turn = await out.wait_for(TURN.pattern)
            assert turn.group(2) == "20" and "then 30 in your time bank" in turn.string
            started = trio.current_time()
            await out.wait_for(r"^10 seconds left, then 30 in your time bank\.$")
            assert round(trio.current_time() - started) == 10
            await out.wait_for(r"^Your time bank is running: 30 seconds\.$")
            assert round(trio.current_time() - started) == 20
            await out.wait_for(r"^10 seconds left in your time bank\.$")
            assert round(trio.current_time() - started) == 40
            # Then the server plays for us.
            await out.wait_for(r"^You (check|fold), played by the server")
            nursery.cancel_scope.cancel()
    text = out.text()
    assert text.count("10 seconds left, then 30") == 1, text


async def test_a_dropped_connection_is_said_and_the_seat_comes_back(autojump_clock: object, tmp_path: Path) -> None:
    cfg = fast_config(4, seats=6, action_clock=20, time_bank=30, starting_stack=10_000,
                      hands_per_level=50, reconnect_grace=30.0)
    out = Transcript()
    keys, lines = trio.open_memory_channel[str](100)
    async with running(cfg, seed=9) as (server, port):
        bots = [Bot("127.0.0.1", port, f"bot-{i}", "calling-station", seed=i) for i in range(3)]
        client = PlainClient(plain_args(), "127.0.0.1", port, TokenStore(tmp_path / "tokens.json"), out.write)
        async with trio.open_nursery() as nursery:
            for b in bots:
                nursery.start_soon(b.run)
            nursery.start_soon(client.run, typed(lines))
            await out.wait_for(TURN.pattern)
            assert client.session is not None
            client.session.drop("test: the cable is cut")
            await out.wait_for(r"^Connection lost \(test: the cable is cut\)\. Reconnecting\.$")
            await out.wait_for(r"^Connected again\.$")
            await out.wait_for(r"^Table 1: .*you [\d,]+")
            # The seat is ours again: the next turn comes and c plays it.
            await out.wait_for(TURN.pattern)
            await keys.send("c")
            await out.wait_for(r"^You (check|call [\d,]+)")
            assert client.session.stats.reconnects == 1
            nursery.cancel_scope.cancel()
    assert "Traceback" not in out.text()


async def test_a_spectator_hears_the_hands_and_has_nothing_to_play(autojump_clock: object, tmp_path: Path) -> None:
    cfg = fast_config(3, seats=6, action_clock=20, time_bank=30, starting_stack=10_000,
                      hands_per_level=50)
    out = Transcript()
    keys, lines = trio.open_memory_channel[str](100)
    async with running(cfg, seed=10) as (server, port):
        bots = [Bot("127.0.0.1", port, f"bot-{i}", "calling-station", seed=i) for i in range(3)]
        client = PlainClient(plain_args(name=None, spectate=0), "127.0.0.1", port,
                             TokenStore(tmp_path / "tokens.json"), out.write)
        async with trio.open_nursery() as nursery:
            for b in bots:
                nursery.start_soon(b.run)
            nursery.start_soon(client.run, typed(lines))
            await out.wait_for(r"^Watching .*\. Type help for the commands\.$")
            await out.wait_for(r"^Hand \d+ at table 1\. Blinds [\d,]+ and [\d,]+\. bot-\d has the button\.$")
            await out.wait_for(r"^bot-\d (calls|checks)")
            await keys.send("fold")
            await out.wait_for(r"^You are watching: there is nothing to play\.$")
            await out.wait_for(r"^Hand \d+ is over\.$")
            nursery.cancel_scope.cancel()
    text = out.text()
    assert "Your turn" not in text and "Your cards" not in text, text


async def test_plain_mode_plays_a_tournament_to_the_end(autojump_clock: object, tmp_path: Path) -> None:
    """Heads-up against a calling station, all in on every turn (yes to every question):
    the end is said, with the winner and my place, and the client ends by itself."""
    cfg = fast_config(2, seats=6, action_clock=20, time_bank=30)
    out = Transcript()
    keys, lines = trio.open_memory_channel[str](100)
    status: list[int] = []
    async with running(cfg, seed=12) as (server, port):
        bot = Bot("127.0.0.1", port, "bot-0", "calling-station", seed=1)
        client = PlainClient(plain_args(), "127.0.0.1", port, TokenStore(tmp_path / "tokens.json"), out.write)

        async def run_client() -> None:
            status.append(await client.run(typed(lines)))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(bot.run)
            nursery.start_soon(run_client)
            with trio.fail_after(3600):
                while True:
                    line = await out.next()
                    if TURN.match(line):
                        await keys.send("all in")
                    elif line.startswith("All in for "):
                        await keys.send("yes")
                    elif re.match(r"^.* is over: .* wins\.$", line):
                        break
                while not status:
                    await out.next() if out.read < len(out.lines) else await trio.sleep(1)
            nursery.cancel_scope.cancel()
    assert status == [0]
    text = out.text()
    assert re.search(r"^(You are out of the tournament, in place 2\.|You finish in place 1\.)$", text, re.M), text
    assert re.search(r"^You (go all in for [\d,]+|raise to [\d,]+ and are all in|bet [\d,]+ and are all in)\.",
                     text, re.M), text
    assert re.search(r"^Deck check: hand \d+ \(table 1\): deck verified", text, re.M), text
    assert "Your seat is kept" not in text  # nothing to come back to
