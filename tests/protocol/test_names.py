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


@pytest.mark.parametrize(("raw", "message"), [
    ("Alice\u200b", "a name may not contain invisible or control characters: U+200B (ZERO WIDTH SPACE)"),
    ("\ue000x", "a name may not contain invisible or control characters: U+E000"),  # no name
    ("\u0301ab", "a name may not start a word with a combining mark: U+0301 (COMBINING ACUTE ACCENT)"),
    ("ab \u0332c", "a name may not start a word with a combining mark: U+0332 (COMBINING LOW LINE)"),
    ("e\u0332\u0333\u0334", "at most 2 combining marks in a row"),
    ("!!!", "a name needs at least one letter or digit"),
    ("Bob (2)", "a name may not contain '('; use letters, digits, spaces and ! # & ' * + - . ? @ _"),
    ("x" * (MAX_LENGTH + 1), f"a name may be at most {MAX_LENGTH} characters long (this one is {MAX_LENGTH + 1})"),
    ("\u0410lice \u03b1", "a name may not mix Cyrillic and Greek and Latin letters (it could pass for another name)"),
    ("server 1", "a name may not contain the word 'server': it is kept for the house"),
    ("Big Floor", "a name may not contain the word 'floor': it is kept for the house"),
    ("d.i.r.e.c.t.o.r", "a name may not contain the word 'director': it is kept for the house"),
])
def test_each_refusal_says_exactly_what_to_change(raw: str, message: str) -> None:
    with pytest.raises(NameRefused) as info:
        normalize(raw)
    assert info.value.message == message
    assert str(info.value) == message


@pytest.mark.parametrize(("raw", "shown"), [
    ("e\u0332\u0333x", "e\u0332\u0333x"),  # two marks in a row are fine
    ("e\u0332 e\u0332", "e\u0332 e\u0332"),  # a space starts the count again
    ("e\u0332\u0333e\u0332\u0333", "e\u0332\u0333e\u0332\u0333"),  # so does a letter
    ("\U00017000", "\U00017000"),  # a letter unicodedata has no name for (Tangut)
    ("Anna\u3000Lee", "Anna Lee"),  # an ideographic space is a space
    ("a \u00a0 b", "a b"),  # a run of spaces of any kind is one
    ("Bob €5 $", "Bob €5 $"),  # currency symbols are symbols
    ("Xena X", "Xena X"),
])
def test_more_names_that_are_fine(raw: str, shown: str) -> None:
    assert normalize(raw) == shown


def test_printable_escapes_what_draws_nothing_even_when_python_calls_it_printable() -> None:
    assert "\u3164".isprintable()  # the Hangul filler: a letter that draws nothing
    assert printable("a\u3164b") == "a\\u3164b"
    assert printable("a\u00a0b c") == "a\\u00a0b c"  # a no-break space is shown, a space is not
    assert printable("\uffff") == "\\uffff"  # the last four-digit code
    assert printable("\U00010000\u200b") == "\U00010000\\u200b"


def test_a_reserved_word_with_a_combining_mark_is_still_that_word() -> None:
    """An underlined house word reads as the word itself; the mark does not split
    the word either ("ho\u0332st" is not "ho" and "st")."""
    from protocol.names import NameRefused, normalize

    for raw in ("ho\u0332st", "Flo\u0332or", "dire\u0331ctor 7"):
        with pytest.raises(NameRefused, match="it is kept for the house"):
            normalize(raw)
    assert normalize("Ana\u0332") == "Ana\u0332"  # a mark in an ordinary name is kept
