"""The four-colour deck (``hickory --four-colour``): every suit its own colour, the letters
kept with ``--ascii``, and the two-colour deck unchanged without it.

The colours are read the way prompt_toolkit reads them (``get_attrs_for_style_str`` on the
style the Application draws with), from the style strings the card functions write.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import Application
from prompt_toolkit.styles import BaseStyle

from client import cli
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


def test_the_client_draws_with_four_colours_when_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``hickory --four-colour`` reaches the Application the client runs (and only then)."""
    seen: list[BaseStyle | None] = []
    real = cli.create_application

    def spy(*args: Any, **kw: Any) -> Application[None]:
        app = real(*args, **kw)

        async def run_async(pre_run: Callable[[], None] | None = None, **_: Any) -> None:
            client = args[1]  # create_application(model, actions, clock): the cli's Client
            if pre_run is not None:
                pre_run()  # Trio starts in guest mode: let it run until it can be stopped
            for _ in range(1000):  # at most ten seconds, polled
                if client.trio_token is not None:
                    break
                await asyncio.sleep(0.01)
            assert client.trio_token is not None, "Trio did not start in guest mode"
            seen.append(app.style)  # the style the screen would be drawn with

        app.run_async = run_async  # type: ignore[method-assign]
        return app

    monkeypatch.setattr(cli, "create_application", spy)
    for flags in (["--four-colour"], []):
        args = cli.build_parser().parse_args(["--name", "ann", "--token-file", str(tmp_path / "t.json"),
                                              "--deck-record", str(tmp_path / "d.jsonl"), *flags])
        asyncio.run(cli.run_client(args, "127.0.0.1", 9, cli.TokenStore(tmp_path / "t.json")))
    four, two = seen
    assert four is not None and two is not None
    assert colour(four, suit_style("Qd"))[0] == "4f7fff"
    assert colour(two, suit_style("Qd"))[0] == "dd0000"
