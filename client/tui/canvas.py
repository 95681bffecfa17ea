"""A fixed-size grid of styled cells that render functions draw into.

The table view places boxes at computed positions (seats around the table, the board in
the middle); drawing them into a grid and reading it back line by line keeps that layout
code simple and guarantees every line is exactly ``width`` columns, so nothing wraps or
spills at 80x24. Wide characters (width 2) take two cells; the second holds "".
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

Lines = list[StyleAndTextTuples]
"""A block of screen lines, top to bottom, as the render functions return them."""


class Canvas:
    def __init__(self, width: int, height: int, style: str = "") -> None:
        self.width = max(0, width)
        self.height = max(0, height)
        self._cells: list[list[tuple[str, str]]] = [
            [(style, " ")] * self.width for _ in range(self.height)
        ]

    def write(self, row: int, col: int, fragments: StyleAndTextTuples, max_width: int | None = None) -> int:
        """Draw fragments from (row, col), clipped to the canvas (and ``max_width``).

        Returns the column after the last cell drawn.
        """
        if not 0 <= row < self.height:
            return col
        limit = self.width if max_width is None else min(self.width, col + max_width)
        line = self._cells[row]
        for frag in fragments:
            style, text = frag[0], frag[1]
            for ch in text:
                w = get_cwidth(ch)
                if w == 0:
                    continue
                if col + w > limit:
                    return col
                if col >= 0:
                    line[col] = (style, ch)
                    if w == 2:
                        line[col + 1] = (style, "")
                col += w
        return col

    def text(self, row: int, col: int, text: str, style: str = "", max_width: int | None = None) -> int:
        return self.write(row, col, [(style, text)], max_width)

    def center(self, row: int, fragments: StyleAndTextTuples, left: int = 0, right: int | None = None) -> None:
        """Draw fragments centred between columns ``left`` and ``right`` (exclusive)."""
        right = self.width if right is None else right
        w = fragments_width(fragments)
        col = left + max(0, (right - left - w) // 2)
        self.write(row, col, fragments, right - col)

    def fill(self, row: int, col: int, width: int, height: int, style: str) -> None:
        for r in range(max(0, row), min(self.height, row + height)):
            for c in range(max(0, col), min(self.width, col + width)):
                s, ch = self._cells[r][c]
                self._cells[r][c] = (style, ch)

    def lines(self) -> list[StyleAndTextTuples]:
        out: list[StyleAndTextTuples] = []
        for row in self._cells:
            frags: StyleAndTextTuples = []
            for style, ch in row:
                if frags and frags[-1][0] == style:
                    frags[-1] = (style, frags[-1][1] + ch)
                else:
                    frags.append((style, ch))
            out.append(frags)
        return out


def fragments_width(fragments: StyleAndTextTuples) -> int:
    return sum(get_cwidth(f[1]) for f in fragments)


def plain(lines: list[StyleAndTextTuples]) -> str:
    """The text of rendered lines, one per line (what a test or a screen reader sees)."""
    return "\n".join("".join(f[1] for f in line) for line in lines)
