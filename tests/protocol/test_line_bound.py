"""The longest lines a server sends stay under ``MAX_SERVER_LINE`` at ``MAX_PLAYERS``.

The lobby and the standings list every player in one line; built here at the worst case
the rules allow (the longest names in 4-byte characters, the largest numbers, one table per
two players, the longest schedule), they must fit, or the cap on players is wrong.
"""

from __future__ import annotations

import attrs

import protocol.messages as m
from protocol.codec import encode
from protocol.fields import LATEST_VERSION
from protocol.framing import MAX_SERVER_LINE
from server.config import MAX_PLAYERS
from tests.client import scenes

BIG = 2**53 - 1  # the largest chip count the protocol carries


def worst_name(i: int) -> str:
    return f"{i:04d}" + "\U0001f984" * 20  # 24 characters, 84 bytes of UTF-8


def test_a_full_lobby_and_standings_fit_in_one_server_line() -> None:
    players = tuple(m.LobbyPlayer(player_id=i, name=worst_name(i), chips=BIG, table=1 + i // 2, seat=1 + i % 2,
                                  status="disconnected") for i in range(1, MAX_PLAYERS + 1))
    tables = tuple(m.LobbyTable(table=t, players=(2 * t - 1, 2 * t), hand_no=BIG) for t in range(1, MAX_PLAYERS // 2 + 1))
    schedule = tuple(m.ScheduleLevel(small_blind=BIG // 2, big_blind=BIG, minutes=999) for _ in range(60))
    lobby = attrs.evolve(scenes.lobby(), players=players, tables=tables, schedule=schedule, id=BIG, seq=BIG)
    places = tuple(m.Place(place=i, player_id=i, name=worst_name(i), chips=BIG, eliminated_in_hand=BIG)
                   for i in range(1, MAX_PLAYERS + 1))
    standings = m.Standings(id=BIG, places=places, final=True, carried=BIG, seq=BIG)
    for msg in (lobby, standings):
        size = len(encode(msg, LATEST_VERSION))
        assert 0.4 * MAX_SERVER_LINE < size <= MAX_SERVER_LINE, (msg.TYPE, size)
