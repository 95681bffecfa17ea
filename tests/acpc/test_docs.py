"""docs/acpc.md: the hand shown there is a valid ACPC hand under the game file shown."""

from __future__ import annotations

import re
from pathlib import Path

from tests.acpc.spec import parse_game, parse_matchstate, replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "acpc.md"


def test_the_documented_hand_follows_the_spec() -> None:
    blocks = re.findall(r"```[a-z]*\n(.*?)```", DOC.read_text(), re.S)
    game = parse_game(next(b for b in blocks if b.startswith("GAMEDEF")))
    transcript = next(b for b in blocks if b.startswith("S-> MATCHSTATE")).splitlines()
    last = None
    answered = 0
    for entry in transcript:
        way, line = entry.split(" ", 1)
        if way == "S->":
            state = parse_matchstate(line)
            r = replay(game, state)
            last, to_act = line, r.actor() == state.position
        else:
            assert way == "<-C" and last is not None and to_act, entry
            assert line.startswith(last + ":")
            answered += 1
    assert last is not None and replay(game, parse_matchstate(last)).over
    assert answered == 4
