"""The client library against the real server: bots play whole tournaments over TCP.

Every built-in strategy plays to the end without an illegal action or a timeout, each
bot's model agrees with the server's stacks at the end of every hand, and a bot whose
connection is cut resumes its seat with its token and plays on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from client.bot import Bot
from client.botcli import run_load
from client.model import ClientModel
from protocol import messages as m
from tests.server.harness import BotResult, check_call, fast_config, joined, play, running


class CheckedModel(ClientModel):
    """A model that compares what it worked out with what the server says."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.hands_checked = 0
        self.automatic: list[str] = []

    def apply(self, msg: m.ServerMessage, now: float | None = None) -> None:
        t = self.table
        if isinstance(msg, m.HandEnded) and t is not None and t.table == msg.table:
            mine = {st.seat: t.seats[st.seat].stack for st in msg.stacks if st.seat in t.seats}
            theirs = {st.seat: st.stack for st in msg.stacks}
            if mine != theirs:
                self.problems.append(f"hand #{msg.hand_no}: model {mine}, server {theirs}")
            self.hands_checked += 1
        if isinstance(msg, m.Action) and msg.automatic and t is not None and msg.seat == t.your_seat:
            self.automatic.append(f"hand #{msg.hand_no}: {msg.action}")
        super().apply(msg, now)


def bots_for(port: int, names_strategies: list[tuple[str, str]], **kw: Any) -> list[Bot]:
    return [
        Bot("127.0.0.1", port, name, strategy, seed=i, model=CheckedModel(), **kw)
        for i, (name, strategy) in enumerate(names_strategies)
    ]


def check(bots: list[Bot]) -> None:
    for b in bots:
        model = b.session.model
        assert isinstance(model, CheckedModel)
        assert b.refused is None, (b.name, b.refused)
        assert b.place is not None, b.name
        assert model.problems == [], (b.name, model.problems[:3])
        assert model.automatic == [], (b.name, model.automatic[:3])
        assert b.fallbacks == 0, b.name
        assert b.session.stats.errors == 0, (b.name, model.last_error)
        assert b.session.stats.bad_lines == 0
    assert sum(b.session.model.hands_checked for b in bots) > 0  # type: ignore[attr-defined]
    places = sorted(b.place for b in bots if b.place is not None)
    assert places.count(1) == 1


async def test_every_strategy_plays_a_tournament_to_the_end(autojump_clock: object) -> None:
    strategies = ["random", "calling-station", "solid"] * 3
    cfg = fast_config(len(strategies), seats=6, action_clock=5, time_bank=5)
    with trio.fail_after(3600):
        async with running(cfg, seed=3) as (server, port):
            bots = bots_for(port, [(f"{s}-{i}", s) for i, s in enumerate(strategies)])
            async with trio.open_nursery() as nursery:
                for b in bots:
                    nursery.start_soon(b.run)
    assert server.tournament.finished
    check(bots)
    assert all(b.decisions > 0 for b in bots)


async def test_a_dropped_bot_resumes_its_seat_with_its_token(autojump_clock: object, tmp_path: Any) -> None:
    cfg = fast_config(4, seats=6, action_clock=5, time_bank=5)
    with trio.fail_after(3600):
        async with running(cfg, seed=5) as (server, port):
            bots = bots_for(port, [(f"cs-{i}", "calling-station") for i in range(4)])
            bots[0] = Bot(
                "127.0.0.1", port, "cs-0", "calling-station", seed=9, model=CheckedModel(),
                token_file=tmp_path / "cs-0.token",
            )
            drops = 0

            async def cut() -> None:
                nonlocal drops
                s = bots[0].session
                while s.model.finished is None and drops < 5:
                    seen = s.model.changes
                    await s.wait_changed(seen)
                    cut_already = s.stats.connects == drops  # this connection was cut
                    if s.model.turn is not None and s.connected and not cut_already:
                        s.drop("test: cut the cable in the middle of my turn")
                        drops += 1

            async with trio.open_nursery() as nursery:
                for b in bots:
                    nursery.start_soon(b.run)
                nursery.start_soon(cut)
    token = (tmp_path / "cs-0.token").read_text().strip()
    assert token == bots[0].session.model.me.token
    assert drops >= 1
    assert bots[0].session.stats.reconnects == drops
    assert bots[0].session.stats.connects == drops + 1
    check(bots)


async def test_load_tool_with_churn_keeps_the_tournament_going(autojump_clock: object) -> None:
    players = 12
    cfg = fast_config(players, seats=6, action_clock=5, time_bank=5, hands_per_level=50,
                      starting_stack=100_000)
    async with running(cfg, seed=11) as (server, port):
        # Calling stations keep the tournament going (random bots bust each other in a few
        # hands); the churn is what is tested here.
        report = await run_load("127.0.0.1", port, clients=players, think=0.2, duration=30,
                                churn=0.05, seed=1, strategy="calling-station")
        assert not server.tournament.finished
        total = server.tournament.total_chips()
    assert total == players * 100_000
    assert report.refused == 0, report.summary()
    assert report.joined == players
    assert report.hands > 0 and report.actions > 0
    assert report.reconnects > 0 and report.reconnects == report.drops
    assert report.resumed_ok, report.summary()
    assert report.latency_p50 is not None


async def test_two_hundred_clients_with_churn_for_half_a_minute(autojump_clock: object) -> None:
    players, stack = 200, 10_000
    cfg = fast_config(players, seats=9, action_clock=10, time_bank=10, hands_per_level=50,
                      starting_stack=stack)
    async with running(cfg, seed=11) as (server, port):
        report = await run_load("127.0.0.1", port, clients=players, think=0.5, duration=30,
                                churn=0.01, seed=1)
        assert not server.tournament.finished, "the tournament keeps going"
        total = server.tournament.total_chips()
    print(report.summary())
    assert total == players * stack, "chips are conserved"
    assert report.joined == players and report.refused == 0, report.summary()
    assert report.reconnects == report.drops > 0, "every cut bot came back"
    assert report.resumed_ok, "every reconnect resumed the same player's seat"
    assert report.errors == 0, report.summary()
    assert report.hands > 0


async def test_a_spectator_follows_the_table_without_seeing_hole_cards(autojump_clock: object) -> None:
    from client.session import open_session

    cfg = fast_config(3, seats=6, action_clock=5, time_bank=5)
    async with running(cfg, seed=6) as (_server, port):
        bots = bots_for(port, [(f"cs-{i}", "calling-station") for i in range(3)])
        async with trio.open_nursery() as nursery:
            for b in bots:
                nursery.start_soon(b.run)
            while bots[0].session.model.table is None:
                await bots[0].session.wait_changed()
            table = bots[0].session.model.table.table
            leaks: list[str] = []
            watcher = CheckedModel()

            def watch(msg: m.ServerMessage, now: float) -> None:
                t = watcher.table
                if t is None:
                    return
                for seat in t.seats.values():
                    if seat.cards is not None and not seat.showed:
                        leaks.append(f"seat {seat.seat} cards {seat.cards} after {msg.TYPE}")

            async with open_session("127.0.0.1", port, spectate=True, spectate_table=table,
                                    on_message=watch, model=watcher) as spectator:
                assert spectator.model.me.role == "spectator"
                while spectator.model.finished is None and not spectator.ended:
                    await spectator.wait_changed()
                log = list(spectator.model.log)
    assert leaks == []
    assert watcher.problems == []
    assert spectator.model.my_cards is None
    assert any(line.startswith("-- hand #") for line in log)
    assert not any(line.startswith("you are dealt") for line in log)


async def test_a_bot_sat_out_by_a_timeout_comes_back_and_reads_its_token_once(
    autojump_clock: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's connection drops on its turn and stays down past its clock: the server
    folds for it and sits it out. Back, the bot says ``im_back`` and plays its own
    decisions again. Meanwhile it reads its token file once, at the start, not on every
    update."""
    token_file = tmp_path / "bot.token"
    reads: list[Path] = []
    real_read = Path.read_text

    def counting_read(self: Path, *args: Any, **kw: Any) -> str:
        if self == token_file:
            reads.append(self)
        return real_read(self, *args, **kw)

    monkeypatch.setattr(Path, "read_text", counting_read)
    cfg = fast_config(3, seats=3, starting_stack=1_000_000, hands_per_level=10_000, action_clock=5.0,
                      time_bank=0.0, hand_pause=1.0)
    async with running(cfg) as (server, port):
        honest = await joined(port, ["ann", "ben"])
        dropped = trio.Event()

        def cut_on_first_turn(msg: m.ServerMessage, now: float) -> None:
            if isinstance(msg, m.YourTurn) and not dropped.is_set():
                dropped.set()
                bot.session.drop("cut by the test on the bot's turn")

        # Reconnecting takes 20 s: past the 5 s clock.
        bot = Bot("127.0.0.1", port, "the-bot", "calling-station", seed=1, token_file=token_file,
                  on_message=cut_on_first_turn, backoff_initial=20.0, backoff_max=20.0)
        results = [BotResult(name=c.name or "") for c in honest]
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bot.run)
            for i, (c, r) in enumerate(zip(honest, results, strict=True)):
                nursery.start_soon(play, c, r, check_call, i)
            await dropped.wait()
            with trio.move_on_after(300):  # sat out for good, it would never decide again
                while bot.session.stats.connects < 2 or bot.decisions < 5:
                    await trio.sleep(1)
            nursery.cancel_scope.cancel()
        loc = server.tournament.location(str(bot.session.model.me.player_id))
        assert loc is not None
        theirs = [a for a in honest[0].received if isinstance(a, m.Action) and a.seat == loc.seat]
    assert bot.session.stats.connects == 2, "it came back"
    assert len(reads) <= 1, f"the token file was read {len(reads)} times"
    first_back = next((i for i, x in enumerate(honest[0].received)
                       if isinstance(x, m.PlayerStatus) and x.name == "the-bot" and x.status == "back"), None)
    assert first_back is not None, "the bot said im_back"
    before = [a for a in theirs if honest[0].received.index(a) < first_back]
    after = [a for a in theirs if honest[0].received.index(a) > first_back]
    assert any(a.automatic for a in before), "the clock ran out while the bot was away"
    assert bot.comebacks == 1
    assert len(after) >= 3 and not any(a.automatic for a in after), "back, it decides for itself"
