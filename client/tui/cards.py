"""Cards as a player reads them: rank and suit symbol in colour, or plain ASCII.

Cards arrive as protocol text (``"As"``, ``"Td"``). Hearts and diamonds are red, clubs and
spades black; with ``ascii`` the suit stays a letter (``As``) for terminals or fonts
without the symbols. Ten is shown as ``T`` in small cards (keeps every card two columns
wide) and ``10`` in the large ones.

Every card also carries its suit's own class (``card.spades`` ... ``card.clubs``), which
the default style leaves alone; ``FOUR_COLOUR_STYLE`` (``hickory --four-colour``) colours
them as a four-colour deck: spades black (the terminal's own colour on the felt), hearts
red, diamonds blue, clubs green. It goes with ``--ascii`` too, so a colour-blind player
can have both the colours and the suit letters.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.styles import BaseStyle, Style, merge_styles

SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
SUIT_CLASSES = {"c": "card.clubs", "d": "card.diamonds", "h": "card.hearts", "s": "card.spades"}
RED_SUITS = frozenset("hd")

FOUR_COLOUR_STYLE = Style.from_dict(
    {
        "card.spades": "",
        "card.hearts": "#dd0000",
        "card.diamonds": "#4f7fff",
        "card.clubs": "#22bb22",
        "card.face card.spades": "bg:#eeeeee #000000",
        "card.face card.hearts": "bg:#eeeeee #cc0000",
        "card.face card.diamonds": "bg:#eeeeee #0033cc",
        "card.face card.clubs": "bg:#eeeeee #007700",
        "card.big card.spades": "bg:#eeeeee #000000",
        "card.big card.hearts": "bg:#eeeeee #cc0000",
        "card.big card.diamonds": "bg:#eeeeee #0033cc",
        "card.big card.clubs": "bg:#eeeeee #007700",
    }
)
"""The four-colour deck, merged over the client's style (its rules come later, so they win)."""


def with_four_colours(style: BaseStyle | None) -> BaseStyle:
    """``style`` with the four-colour deck over it (``hickory --four-colour``)."""
    return merge_styles([style, FOUR_COLOUR_STYLE] if style is not None else [FOUR_COLOUR_STYLE])


def suit_style(card: str) -> str:
    colour = "class:card.red" if card[1] in RED_SUITS else "class:card.black"
    return f"{colour} class:{SUIT_CLASSES[card[1]]}"


def card_text(card: str, ascii: bool) -> str:
    """Two columns: ``A♠`` (or ``As`` in ASCII)."""
    return card[0] + (card[1] if ascii else SUIT_SYMBOLS[card[1]])


def small_card(card: str, ascii: bool) -> StyleAndTextTuples:
    """A card inline, in its suit's colour."""
    return [(suit_style(card), card_text(card, ascii))]


def small_cards(cards: tuple[str, ...] | list[str], ascii: bool) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, card in enumerate(cards):
        if i:
            out.append(("", " "))
        out.extend(small_card(card, ascii))
    return out


BIG_WIDTH = 7
BIG_HEIGHT = 4


def big_cards(cards: tuple[str, ...] | list[str], ascii: bool) -> list[StyleAndTextTuples]:
    """Cards drawn four lines tall, side by side, one space apart.

        ┌─────┐ ┌─────┐        +-----+ +-----+
        │A    │ │10   │        |A    | |10   |
        │    ♠│ │    ♥│        |    s| |    h|
        └─────┘ └─────┘        +-----+ +-----+
    """
    if ascii:
        top, side, bottom = "+-----+", "|", "+-----+"
    else:
        top, side, bottom = "\u250c\u2500\u2500\u2500\u2500\u2500\u2510", "\u2502", (
            "\u2514\u2500\u2500\u2500\u2500\u2500\u2518"
        )
    lines: list[StyleAndTextTuples] = [[] for _ in range(BIG_HEIGHT)]
    for i, card in enumerate(cards):
        style = suit_style(card) + " class:card.big"
        rank = "10" if card[0] == "T" else card[0]
        suit = card[1] if ascii else SUIT_SYMBOLS[card[1]]
        if i:
            for line in lines:
                line.append(("", " "))
        lines[0].append(("class:card.big.frame", top))
        lines[1].append(("class:card.big.frame", side))
        lines[1].append((style + " bold", rank.ljust(5)))
        lines[1].append(("class:card.big.frame", side))
        lines[2].append(("class:card.big.frame", side))
        lines[2].append((style + " bold", suit.rjust(5)))
        lines[2].append(("class:card.big.frame", side))
        lines[3].append(("class:card.big.frame", bottom))
    return lines


def card_back(ascii: bool) -> StyleAndTextTuples:
    """A face-down card (an opponent still in the hand)."""
    return [("class:card.back", "##" if ascii else "\u2592\u2592")]
