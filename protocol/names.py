"""What a player's name may be, how two names are compared, and how to print one safely.

Names are shown to everyone, on screens and in printed standings, so a name must not be
able to pass for another or for the house: "Alice", "Alice" with a zero-width space,
"Alice " and "ALICE" are one name; a name made only of invisible or combining characters
shows as nothing; a right-to-left override turns the rest of a line around; and a player
called "director (director)" must not chat like the director. The server applies these
rules when a player joins (``normalize`` then ``key`` for uniqueness); clients may check a
name before sending it, and print names from anywhere through ``printable``.

The rules (``normalize``):

* Unicode NFKC first (full-width letters, ligatures and compatibility spaces become their
  plain forms), then every kind of space becomes one plain space, runs of spaces become
  one, and spaces at either end go.
* Refused: control, format and invisible characters (zero-width spaces and joiners,
  bidirectional controls, variation selectors, fillers that draw nothing), and every
  character that is not a letter, a digit, a combining mark after a letter (at most
  ``MAX_MARKS`` in a row), a symbol such as an emoji, a space, or one of ``PUNCTUATION``.
  Brackets, colons, quotes and slashes are refused so that nothing a name can hold looks
  like the markers the clients put around the director's and the server's words
  (``[director]``), nor like the start of a chat line (``Bob: ...``).
* At least one letter or digit; at most ``MAX_LENGTH`` characters once normalised.
* Letters of only one of the Latin, Greek and Cyrillic alphabets (mixing them is how a
  look-alike of another name is made).
* No word that names the house: ``RESERVED`` ("director", "server", "system", ...).

Two names are the same name when their ``key`` is equal: NFKC with case folding, Greek
and Cyrillic look-alikes of Latin letters replaced by the Latin ones, and spaces and
punctuation ignored ("Bob_1", "bob 1" and "BOB-1" are one name).

Pure: no I/O; ``unicodedata`` and ``re`` only.
"""

from __future__ import annotations

import re
import unicodedata

MAX_LENGTH = 24
"""Characters in a name once normalised (the wire allows 24 before)."""

MAX_MARKS = 2
"""Combining marks allowed in a row after a letter (more stack into unreadable towers)."""

PUNCTUATION = frozenset("-_.'!?&+#*@")
"""The only punctuation a name may hold."""

RESERVED = frozenset({
    "director", "server", "system", "spectator", "admin", "administrator", "moderator",
    "dealer", "hickory", "host", "floor",
})
"""Words no name may contain: the house's own names, and what people take for them."""

_INVISIBLE_RANGES: tuple[tuple[int, int], ...] = (
    # Unicode's Default_Ignorable_Code_Point set: drawn as nothing by every renderer.
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
    # Not default-ignorable, but blank on screen.
    (0x2800, 0x2800),
)

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")

# Greek and Cyrillic letters (case-folded) that look like Latin ones, for ``key``.
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
    "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ь": "b", "г": "r", "п": "n",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "ζ": "z", "η": "n", "ι": "i", "κ": "k", "μ": "u",
    "ν": "v", "ο": "o", "ρ": "p", "σ": "o", "ς": "c", "τ": "t", "υ": "u", "χ": "x", "ω": "w",
})


class NameRefused(ValueError):
    """A name the rules refuse; ``message`` says why, for the person who chose it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_INVISIBLE = re.compile("[" + "".join(
    re.escape(chr(lo)) + ("-" + re.escape(chr(hi)) if hi > lo else "") for lo, hi in _INVISIBLE_RANGES) + "]")


def is_invisible(ch: str) -> bool:
    """True for characters that draw nothing or change how the text around them draws."""
    return unicodedata.category(ch) in _REFUSED_CATEGORIES or _INVISIBLE.match(ch) is not None


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" ({name})" if name else "")


def _script(ch: str) -> str | None:
    name = unicodedata.name(ch, "")
    for script in _SCRIPTS:
        if name.startswith(script):
            return script
    return None


def normalize(raw: str) -> str:
    """The name as it will be shown, or ``NameRefused`` saying what to change."""
    text = unicodedata.normalize("NFKC", raw)
    out: list[str] = []
    marks = 0  # pragma: no mutate - never read: a mark must follow a character that sets it
    scripts: set[str] = set()
    alnum = False  # pragma: no mutate - only read as a truth value
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Zs" and not is_invisible(ch):
            if out and out[-1] != " ":
                out.append(" ")
            continue  # (a mark after a space is refused below: no count to reset)
        if is_invisible(ch):
            raise NameRefused(f"a name may not contain invisible or control characters: {_describe(ch)}")
        if cat[0] == "M":
            if not out or out[-1] == " ":
                raise NameRefused(f"a name may not start a word with a combining mark: {_describe(ch)}")
            marks += 1
            if marks > MAX_MARKS:
                raise NameRefused(f"at most {MAX_MARKS} combining marks in a row")
            out.append(ch)
            continue
        marks = 0
        if cat[0] in "LN":
            alnum = True
            if cat[0] == "L" and (script := _script(ch)) is not None:
                scripts.add(script)
        elif cat in ("So", "Sc"):
            pass
        elif ch not in PUNCTUATION:
            allowed = " ".join(sorted(PUNCTUATION))
            raise NameRefused(
                f"a name may not contain {ch!r}; use letters, digits, spaces and {allowed}")
        out.append(ch)
    name = "".join(out).strip(" ")
    if not alnum:
        raise NameRefused("a name needs at least one letter or digit")
    if len(name) > MAX_LENGTH:
        raise NameRefused(f"a name may be at most {MAX_LENGTH} characters long (this one is {len(name)})")
    if len(scripts) > 1:
        raise NameRefused("a name may not mix " + " and ".join(s.title() for s in sorted(scripts))
                          + " letters (it could pass for another name)")
    words = _words(key_text(name))
    squashed = "".join(words)
    for word in [*words, squashed]:
        if word in RESERVED:
            raise NameRefused(f"a name may not contain the word {word!r}: it is kept for the house")
    return name


def key_text(name: str) -> str:
    """NFKC with case folding, look-alikes mapped to Latin (spaces and punctuation kept)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return folded.translate(_LOOKALIKES)


def _words(text: str) -> list[str]:
    """The words of ``text`` as the reserved-word rule compares them: a combining mark stays
    within its word but is left out, so "ho\u0332st" (an underlined "host") is "host"."""
    words: list[str] = []
    current: list[str] = []
    for ch in text:
        if ch.isalnum():
            current.append(ch)
        elif unicodedata.category(ch)[0] == "M":
            continue
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def key(name: str) -> str:
    """What two names are compared by: equal keys are the same name."""
    return "".join(ch for ch in key_text(name) if not (ch == " " or ch in PUNCTUATION))


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: every invisible or control character is shown
    as its code (``\\u202e``) instead of acting on the text around it."""
    if text.isprintable() and not any(is_invisible(ch) for ch in text):
        return text
    out = []
    for ch in text:
        if is_invisible(ch) or not ch.isprintable():  # (" ".isprintable() is True)
            code = ord(ch)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)
