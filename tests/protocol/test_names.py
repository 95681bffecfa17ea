"""The name rules (``protocol.names``): what a name may be, when two are the same, and how
one is printed safely."""

from __future__ import annotations

import pytest

from protocol.names import MAX_LENGTH, NameRefused, key, normalize, printable


@pytest.mark.parametrize(("raw", "shown"), [
    ("Alice", "Alice"),
    ("  Alice  ", "Alice"),
    ("Al   ice", "Al ice"),
    ("Ａｌｉｃｅ", "Alice"),  # full-width letters: NFKC
    ("Al\u00a0ice", "Al ice"),  # a no-break space is a space
    ("José", "José"),
    ("Jose\u0301", "José"),  # composed
    ("Zoë-2", "Zoë-2"),
    ("李小龍", "李小龍"),
    ("🦄 Unicorn", "🦄 Unicorn"),
    ("O'Brien", "O'Brien"),
    ("Serverus", "Serverus"),  # contains "server", but not as a word
    ("x" * MAX_LENGTH, "x" * MAX_LENGTH),
])
def test_names_that_are_fine(raw: str, shown: str) -> None:
    assert normalize(raw) == shown


@pytest.mark.parametrize(("raw", "why"), [
    ("Alice\u200b", "invisible"),  # zero-width space
    ("\u202eecilA", "invisible"),  # right-to-left override
    ("Ali\u2066ce", "invisible"),  # bidi isolate
    ("Alice\ufe0f", "invisible"),  # variation selector
    ("\u3164", "invisible"),  # Hangul filler: a letter that draws nothing
    ("\u2800\u2800", "invisible"),  # braille blank
    ("\u0301\u0301\u0301", "combining"),
    ("e\u0301\u0302\u0303\u0304", "combining marks in a row"),
    ("   ", "letter or digit"),
    ("!!!", "letter or digit"),
    ("director (director)", "'('"),
    ("Director", "director"),
    ("the SERVER", "server"),
    ("d.i.r.e.c.t.o.r", "director"),
    ("spectator", "spectator"),
    ("Bob: hi", "':'"),
    ("[director]", "'['"),
    ("\u0410lice", "mix"),  # Cyrillic A + Latin lice
    ("x" * (MAX_LENGTH - 1) + "\ufdfa", "at most"),  # NFKC makes it longer
])
def test_names_that_are_refused_say_why(raw: str, why: str) -> None:
    with pytest.raises(NameRefused) as info:
        normalize(raw)
    assert why in info.value.message


def test_names_that_look_the_same_have_the_same_key() -> None:
    same = ["Alice", "alice", "ALICE", "Ａｌｉｃｅ", " Alice ", "Al ice", "A-lice", "Al_ice",
            "\u0410\u04cf\u0456\u0441\u0435"]  # the last: all Cyrillic look-alikes
    assert {key(normalize(n)) for n in same} == {"alice"}
    assert key(normalize("Alicia")) != key(normalize("Alice"))
    assert key("Bob 1") == key("bob-1") == key("BOB_1")


def test_printable_shows_invisible_characters_as_codes() -> None:
    assert printable("Alice") == "Alice"
    assert printable("José 李") == "José 李"
    assert printable("ab\u202ecd") == "ab\\u202ecd"
    assert printable("x\u200by\n") == "x\\u200by\\u000a"
    assert printable("\U000e0041") == "\\U000e0041"
