"""The four-colour deck (``hickory --four-colour``): every suit its own colour, the letters
kept with ``--ascii``, and the two-colour deck unchanged without it.

The colours are read the way prompt_toolkit reads them (``get_attrs_for_style_str`` on the
style the Application draws with), from the style strings the card functions write.
"""

from __future__ import annotations

from prompt_toolkit.styles import BaseStyle

from client.cli import build_parser
from client.tui.app import STYLE
from client.tui.cards import big_cards, small_card, small_cards, suit_style, with_four_colours


def colour(style: BaseStyle, style_str: str) -> tuple[str | None, str | None]:
    attrs = style.get_attrs_for_style_str(style_str)
    return attrs.color, attrs.bgcolor


def test_four_colours_on_the_felt() -> None:
    four = with_four_colours(STYLE)
    got = {suit: colour(four, suit_style(f"A{suit}"))[0] for suit in "shdc"}
    assert got["h"] == "dd0000"
    assert got["d"] == "4f7fff"
    assert got["c"] == "22bb22"
    assert got["s"] in ("", None)  # the terminal's own colour: black on a light screen
    assert len({got["h"], got["d"], got["c"]}) == 3


def test_four_colours_on_the_card_faces_and_the_big_cards() -> None:
    four = with_four_colours(STYLE)
    board = {suit: colour(four, "class:card.face " + small_card(f"K{suit}", False)[0][0]) for suit in "shdc"}
    assert board == {"s": ("000000", "eeeeee"), "h": ("cc0000", "eeeeee"),
                     "d": ("0033cc", "eeeeee"), "c": ("007700", "eeeeee")}
    lines = big_cards(("Td", "2c"), ascii=False)
    faces = [frag for frag in lines[1] if "card.big" in frag[0] and "frame" not in frag[0]]
    assert [colour(four, f[0])[0] for f in faces] == ["0033cc", "007700"]


def test_two_colours_by_default() -> None:
    assert colour(STYLE, suit_style("Ad"))[0] == "dd0000"
    assert colour(STYLE, suit_style("Ah"))[0] == "dd0000"
    assert colour(STYLE, suit_style("Ac"))[0] in ("", None)
    assert colour(STYLE, "class:card.face " + suit_style("Qd"))[0] == "cc0000"


def test_the_suit_letters_stay_with_ascii() -> None:
    fragments = small_cards(("Ad", "Tc"), ascii=True)
    assert "".join(text for _, text in fragments) == "Ad Tc"
    four = with_four_colours(STYLE)
    assert colour(four, fragments[0][0])[0] == "4f7fff"


def test_the_option_is_on_the_command_line() -> None:
    p = build_parser()
    assert p.parse_args(["--name", "x", "--four-colour"]).four_colour
    assert p.parse_args(["--name", "x", "--four-color", "--ascii"]).four_colour
    assert not p.parse_args(["--name", "x"]).four_colour
