"""Re-entry over a real server (issue 27 part 2): the director allows it (a rule change),
a player who busts is offered it at once (version 3), sends ``reenter``, is seated with a
new starting stack and plays on; the standings have a line per entry; a player on an
older version is never offered it, and a refused re-entry says why."""

from __future__ import annotations

import protocol.messages as m
from tests.server.director import Director
from tests.server.harness import Table, table
from tests.server.rawclient import RawClient


async def bust_one(tb: Table, shovers: list[RawClient]) -> RawClient:
    """The shovers go all in (or call it) and everyone else folds, hand after hand, until
    one of the shovers is out; that player."""
    ids = {c.player_id for c in shovers}
    while True:
        out = [c for c in shovers if c.find(lambda x, pid=c.player_id: isinstance(x, m.PlayerStatus)
                                              and x.status == "eliminated" and x.player_id == pid)]
        if out:
            return out[0]
        c, turn = await tb.next_turn()
        c.skip()
        legal = turn.legal
        if c.player_id in ids and (legal.max_raise_to is not None or legal.call is not None):
            if legal.max_raise_to is not None:
                await tb.act(c, turn, "raise" if legal.call is not None or not legal.check else "bet",
                             legal.max_raise_to)
            else:
                await tb.act(c, turn, "call")
        else:
            await tb.act(c, turn, "check" if legal.check else "fold")


async def test_a_busted_player_is_offered_re_entry_and_sits_down_with_a_new_stack(autojump_clock: object) -> None:
    async with table(3, version=3, seats=6, starting_stack=1000) as tb:
        await tb.players[0].seen(m.HandStarted)
        d = await Director.login(tb.port, tb.nursery, version=3)
        await d.ok(m.LateRegistrationCommand(until_level=1, reason="friends on their way"))
        await d.ok(m.SetOptionsCommand(max_entries=2, reason="re-entry tonight"))
        lobby = await d.lobby()
        assert lobby.rules is not None and lobby.rules.max_entries == 2 and lobby.rules.reentry_until_level is None
        assert lobby.entries == 3
        gone = await bust_one(tb, tb.players[:2])
        offer = await gone.seen(m.ReentryOffer)
        assert (offer.stack, offer.entry, offer.max_entries, offer.until_level) == (1000, 2, 2, None)
        await gone.send(m.Reenter(id=77))
        await gone.seen(m.Ack, lambda a: a.id == 77)
        snap = await gone.seen(m.TableSnapshot, lambda s: any(v.player_id == gone.player_id for v in s.seats))
        mine = next(v for v in snap.seats if v.player_id == gone.player_id)
        assert mine.stack == 1000 and snap.your_seat == mine.seat
        assert tb.server.tournament.chips_issued == 4000
        standings = await d.standings()
        rows = [p for p in standings.places if p.player_id == gone.player_id]
        assert [(p.entry, p.entries, p.eliminated_in_hand is None) for p in rows] == [(2, 2, True), (1, 2, False)]
        assert (await d.lobby()).entries == 4
        # A second bust is the last entry allowed: no offer, and a request is refused with why.
        gone.skip()
        again = await bust_one(tb, [gone, *[c for c in tb.players if c is not gone][:1]])
        if again is gone:
            await gone.send(m.Reenter(id=78))
            err = await gone.seen(m.Error, lambda e: e.id == 78)
            assert err.code == "invalid_state" and "has made all 2 entries allowed" in err.message
            assert gone.find(lambda x: isinstance(x, m.ReentryOffer) and x.entry == 3) is None


async def test_a_version_2_player_is_not_offered_re_entry_and_a_player_still_in_is_refused(autojump_clock: object) -> None:
    async with table(3, version=2, seats=6, starting_stack=1000) as tb:
        await tb.players[0].seen(m.HandStarted)
        d = await Director.login(tb.port, tb.nursery, version=3)
        await d.ok(m.LateRegistrationCommand(until_level=1, reason="open"))
        await d.ok(m.SetOptionsCommand(max_entries=3, reentry_until_level=1, reason="re-entry"))
        gone = await bust_one(tb, tb.players[:2])
        await gone.seen(m.Standings)
        assert all('"reentry_offer"' not in line.decode() for line in gone.lines)
        # Still in: a version 3 request from the director's side is not a player's.
        refused = await d.refused(m.SetOptionsCommand(max_entries=0, reason="bad"))
        assert "max_entries is a whole number from 1 to 100" in refused.message
