"""A real server that remembers every hand, and an ACPC player over real TCP.

``RecordingServer`` keeps each hand's engine events (every hole card included) and who
sat where, as the server itself produced them: the Hickory side of the checks.
``tcp_player`` connects the test ACPC player (``tests/acpc/player.py``) to a bridge's
dealer port and plays until the bridge closes the connection.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import trio

from client.acpc.bridge import Bridge
from poker import events as ev
from poker.hand import Hand
from server.app import Server
from server.house import Watcher
from tests.acpc.player import Player
from tests.acpc.reconstruct import check_line, is_final, states, truth_of
from tests.acpc.spec import Game, parse_matchstate


class RecordingServer(Server, Watcher):
    """Keeps every hand's events as the server produced them, before any line goes out."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.watchers.append(self)
        self.events_of: dict[int, list[ev.Event]] = defaultdict(list)
        self.hand_seats: dict[int, dict[int, str]] = {}  # seat -> player id

    def hand_events(self, table_id: int, hand: Hand, events: Sequence[ev.Event]) -> None:
        if hand.hand_no not in self.hand_seats:
            table = self.tournament.table(table_id)
            self.hand_seats[hand.hand_no] = {s: p.player_id for s, p in table.seats.items()}
        self.events_of[hand.hand_no].extend(events)

    def game_for(self, hand_no: int) -> Game | None:
        events = self.events_of.get(hand_no)
        if not events:
            return None
        return truth_of(events).game

    def seat_of(self, hand_no: int, player_id: int) -> int | None:
        for seat, p in self.hand_seats.get(hand_no, {}).items():
            if p == str(player_id):
                return seat
        return None

    def dealt_in(self, hand_no: int, seat: int) -> bool:
        return any(isinstance(e, ev.HoleCardsDealt) and e.seat == seat for e in self.events_of[hand_no])


async def tcp_player(port: int, player: Player, *, quit_after: int | None = None,
                     hang: bool = False, version: bytes = b"VERSION:2.0.0\r\n") -> int:
    """Play over TCP until the connection closes; the number of lines received.
    ``quit_after``: close the connection after that many decisions; ``hang``: never answer."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    decisions = received = 0
    async with stream:
        await stream.send_all(version)
        buf = b""
        while True:
            try:
                data = await stream.receive_some(65536)
            except trio.BrokenResourceError:
                return received
            if not data:
                return received
            buf += data
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                assert raw.endswith(b"\r"), f"a line not ended by \\r\\n: {raw!r}"
                received += 1
                out = player.receive(raw[:-1].decode())
                if out:
                    decisions += 1
                    if quit_after is not None and decisions > quit_after:
                        return received
                    if hang:
                        continue
                for o in out:
                    await stream.send_all(o.encode() + b"\r\n")


def check_hands(server: RecordingServer, bridge: Bridge, player: Player, *, whole: bool = True) -> dict[str, int]:
    """Every line the player got, against the hand as the server recorded it.

    ``whole``: the player saw every hand it was dealt into from start to end, in order
    (False when its connection came and went). Returns counts of what the hands covered
    (for the tests to assert coverage)."""
    # Where Hickory's hand and ACPC's betting part ways (the bridge notes it: Hickory asks
    # for an action ACPC has no turn for, or an action has no place in ACPC's betting), the
    # hand's last line may show a player in the showdown whose cards Hickory never showed
    # (docs/acpc.md, "what is lost"). Those hands are named in the notes; every other line
    # must be valid ACPC.
    parted = {hand for hand, text in bridge.notes if hand is not None and (
        "has no turn for" in text or "has no place in ACPC's betting" in text
        or "comes after ACPC's betting round ended" in text)}
    violations = [v for v in player.violations
                  if not (v.startswith("hand ") and int(v.split(":")[0].split()[1]) in parted
                          and "in the showdown but not shown" in v)]
    assert violations == [], violations[:5]
    me = bridge.session.model.me.player_id
    assert me is not None
    counts = {"hands": 0, "exact": 0, "adjusted": 0, "heads_up": 0, "side_pots": 0,
              "all_in_before_river": 0, "short_blind": 0, "showdowns": 0}
    noted = {h for h, _ in bridge.notes}
    for hand_no, events in sorted(server.events_of.items()):
        seat = server.seat_of(hand_no, me)
        if seat is None or not server.dealt_in(hand_no, seat):
            assert hand_no not in player.received, f"hand {hand_no}: lines for a hand the seat was not in"
            continue
        lines = player.received.get(hand_no)
        if not any(isinstance(e, ev.HandEnded) for e in events):
            continue  # still running when the tournament was stopped
        if not whole and not lines:
            continue
        assert lines, f"hand {hand_no}: the bot saw nothing of a hand it was dealt into"
        truth = truth_of(events)
        viewer = truth.position(seat)
        counts["hands"] += 1
        counts["heads_up"] += truth.game.n == 2
        counts["side_pots"] += any(isinstance(e, ev.PotAwarded) and e.index > 0 for e in events)
        counts["all_in_before_river"] += any(isinstance(e, ev.HandShown) and e.hand_name is None for e in events)
        counts["short_blind"] += any(isinstance(e, ev.BlindPosted) and e.all_in for e in events)
        counts["showdowns"] += truth.showdown
        for line in lines:
            problems = check_line(truth, viewer, line, parse_matchstate(line))
            assert problems == [], (hand_no, line, problems)
        if not whole:
            continue
        assert is_final(truth, parse_matchstate(lines[-1])), (hand_no, lines[-1])
        # The bot's own valid reply is echoed as it sent it even where the plain translation
        # of Hickory's record differs (the bridge notes it): such a hand is adjusted.
        echoed_apart = any(h == hand_no and "shown as the bot sent it" in t for h, t in bridge.notes)
        expected = None if echoed_apart else states(truth, viewer)
        if expected is None:
            counts["adjusted"] += 1
            assert hand_no in noted, f"hand {hand_no}: adjusted without a note: {lines}"
            continue
        counts["exact"] += 1
        at = -1
        for line in lines:
            assert line in expected[at + 1:], (hand_no, line, expected)
            at = expected.index(line, at + 1)
        assert lines[-1] == expected[-1], (hand_no, lines[-1], expected[-1])
    return counts
