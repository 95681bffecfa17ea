"""Text wrapped onto the lines kept for it, never cut mid-word, the answer keys kept.

A prompt's keys ("y sends, n cancels") are what a person needs to answer it, so when a
message is longer than the lines it may take, its body is shortened at a word (marked
with an ellipsis) and the keys stay whole on the last line.
"""

from __future__ import annotations

import textwrap

from prompt_toolkit.utils import get_cwidth

__all__ = ["fit_lines", "wrap_words"]


def wrap_words(text: str, width: int) -> list[str]:
    """``text`` on lines of at most ``width`` columns, broken between words.

    A single word longer than the line (a long address) is the only thing broken inside.
    """
    width = max(1, width)
    lines = textwrap.wrap(text, width, break_on_hyphens=False) or [""]
    out: list[str] = []
    for line in lines:
        # textwrap counts characters; wide characters take two columns.
        while get_cwidth(line) > width:
            cut = len(line)
            while cut > 1 and get_cwidth(line[:cut]) > width:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return out


def fit_lines(text: str, width: int, max_lines: int, keys: str = "", ascii: bool = False) -> list[str]:
    """``text`` then ``keys`` wrapped to ``width``, on at most ``max_lines`` lines.

    When it does not fit, the text is shortened at a word boundary and ends with an
    ellipsis; ``keys`` (a prompt's answer keys) are always shown whole.
    """
    max_lines = max(1, max_lines)
    joined = f"{text} {keys}".strip() if keys else text
    lines = wrap_words(joined, width)
    if len(lines) <= max_lines:
        return lines
    key_lines = wrap_words(keys, width) if keys else []
    room = max(0, max_lines - len(key_lines))
    if room == 0:
        return key_lines[-max_lines:]
    body = wrap_words(text, width)[:room]
    mark = "..." if ascii else "\u2026"
    last = body[-1]
    while last and get_cwidth(last + mark) > width:
        last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
    body[-1] = (last + mark) if last else mark
    return [*body, *key_lines]
