"""docs/protocol.md: its generated sections are current, its examples are real messages.

The generated sections (reference, error codes, transcript, ...) must equal what
``tools.docgen`` produces now; every ```json block must decode with the protocol codec
and validate against docs/protocol.schema.json; and the transcript must replay: every
line a connection sent or received in it decodes, in ``seq`` order.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import protocol.messages as m
from protocol.codec import decode_client, decode_server, encode
from tools import docgen
from tools.transcript import RECEIVED, SENT, TOKEN_MASK

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
SCHEMA = json.loads((ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8"))
STALE = "docs/protocol.md is stale: run python -m tools.docgen"


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


@cache
def generated() -> dict[str, str]:
    return docgen.generate()


def validator(definition: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{definition}"})


CLIENT = validator("ClientMessage")
SERVER = validator("ServerMessage")


def side_of(obj: dict[str, Any]) -> str:
    """"server" or "client", by the message's type (ping and pong, on both sides, by seq)."""
    kind = obj.get("type")
    if kind in m.SERVER_TYPES and kind in m.CLIENT_TYPES:
        return "server" if "seq" in obj else "client"
    return "server" if kind in m.SERVER_TYPES else "client"


# -- the generated sections ----------------------------------------------------------


def test_every_generated_section_has_its_markers_once() -> None:
    text = doc_text()
    for name in docgen.SECTIONS:
        assert text.count(f"<!-- BEGIN GENERATED: {name} -->") == 1, name
        assert text.count(f"<!-- END GENERATED: {name} -->") == 1, name


@pytest.mark.parametrize("name", docgen.SECTIONS)
def test_generated_section_is_current(name: str) -> None:
    found = docgen.sections_in(doc_text())
    assert name in found, f"docs/protocol.md has no generated section {name!r}"
    assert found[name] == generated()[name], f"{STALE} (section {name!r} differs)"


def test_regenerating_keeps_the_hand_written_parts() -> None:
    text = doc_text()
    assert docgen.replace(text, generated()) == text, STALE


def test_the_transcript_is_the_same_on_every_run() -> None:
    assert docgen.transcript() == generated()["transcript"]


# -- the JSON examples -----------------------------------------------------------------


def json_blocks() -> list[str]:
    return re.findall(r"^```json\n(.*?)^```$", doc_text(), re.S | re.M)


BLOCKS = json_blocks()


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{i}" for i in range(len(BLOCKS))])
def test_json_example_decodes_and_validates(block: str) -> None:
    obj = json.loads(block)
    assert isinstance(obj, dict) and "type" in obj
    if side_of(obj) == "server":
        msg: Any = decode_server(block.encode())
        SERVER.validate(obj)
    else:
        msg = decode_client(block.encode())
        CLIENT.validate(obj)
    assert json.loads(encode(msg, version=m.LATEST_VERSION)) == obj, "the example is not what the codec writes"


def test_every_message_and_command_has_an_example() -> None:
    objs = [json.loads(b) for b in BLOCKS]
    client = {o["type"] for o in objs if side_of(o) == "client"}
    server = {o["type"] for o in objs if side_of(o) == "server"}
    ops = {o["command"]["op"] for o in objs if o["type"] == "director_command"}
    assert client == set(m.CLIENT_TYPES)
    assert server == set(m.SERVER_TYPES)
    assert ops == set(m.COMMAND_TYPES)


# -- the transcript ----------------------------------------------------------------------


def transcript_blocks() -> dict[str, list[tuple[str, str]]]:
    """Each connection's (direction, line) pairs, by its heading in the transcript."""
    section = docgen.sections_in(doc_text())["transcript"]
    out: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for line in section.splitlines():
        if line.startswith("### "):
            current = out.setdefault(line[4:], [])
        elif current is not None and line[:2] in (f"{SENT} ", f"{RECEIVED} "):
            current.append((line[0], line[2:]))
    return out


def test_the_transcript_replays() -> None:
    blocks = transcript_blocks()
    assert len(blocks) == 3, list(blocks)
    for name, lines in blocks.items():
        seqs = []
        for direction, text in lines:
            obj = json.loads(text)
            if direction == SENT:
                decode_client(text.encode())
                CLIENT.validate(obj)
            else:
                msg = decode_server(text.encode())
                SERVER.validate(obj)
                assert msg.seq is not None
                seqs.append(msg.seq)
        assert seqs == list(range(1, len(seqs) + 1)), f"{name}: seq is not 1, 2, 3, ..."


def test_the_transcript_shows_a_whole_hand_and_hides_cards() -> None:
    blocks = transcript_blocks()
    kinds: set[str] = set()
    for name, lines in blocks.items():
        received = [decode_server(text.encode()) for d, text in lines if d == RECEIVED]
        kinds |= {type(x).TYPE for x in received}
        for msg in received:
            if isinstance(msg, m.Welcome) and msg.token is not None:
                assert msg.token == TOKEN_MASK, "a real session token is in the docs"
        showdown = next(i for i, x in enumerate(received) if isinstance(x, m.Showdown))
        hole = [x for x in received if isinstance(x, m.HoleCards)]
        if name.startswith("Spectator"):
            assert not hole
        else:
            assert len({x.seat for x in hole}) == 1, f"{name} saw someone else's cards"
        for msg in received[:showdown]:
            if isinstance(msg, m.TableSnapshot):
                assert all(s.cards is None or s.seat == msg.your_seat for s in msg.seats)
    for kind in ("hand_started", "blind_posted", "hole_cards", "your_turn", "action",
                 "pots", "board", "showdown", "pot_awarded", "hand_ended", "error", "ack",
                 "tournament_finished", "goodbye"):
        assert kind in kinds
