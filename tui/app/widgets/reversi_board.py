"""The Reversi board: n×n squares, files a.. left to right, ranks 1.. top to bottom."""

from __future__ import annotations

from collections.abc import Iterable

from engine.games.reversi import ReversiState
from tui.app.widgets.board import BoardWidget, Canvas, reader_row

GLYPHS = {False: ("●", "○"), True: ("X", "O")}
"""Disc glyphs by ascii flag: Black then White."""
FILES = "abcdefgh"


class ReversiBoard(BoardWidget[ReversiState, int]):
    """Reversi: points are square numbers (row * n + column, row 0 on top).

    A pass has no steps: when it is the only move, Enter plays it. FlipColor's drawn
    squares show ``*`` while empty (``#`` when also a legal target).
    """

    GAME = "reversi"
    LEGEND_MORE = "*x* discs just flipped"

    DEFAULT_CSS = """
    ReversiBoard {
        & > .board--dark { background: #2e7d4f; }
        & > .board--first { color: #101010; text-style: bold; }
        & > .board--second { color: #f8f8f8; text-style: bold; }
        & > .board--line { color: #9fd4b3; }
        & > .board--target { color: #fff27a; text-style: bold; }
    }
    """
    """A green board in every theme: black and white discs read on it in light and dark
    themes alike."""

    @property
    def side(self) -> int:
        """Board side of the current state."""
        return self.state.size if self.state is not None else 8

    def points(self) -> Iterable[int]:
        return range(self.side * self.side)

    def coord(self, point: int) -> tuple[int, int]:
        n = self.side
        return point % n, n - 1 - point // n

    def steps(self, move: int) -> tuple[int, ...]:
        from engine.games.reversi import PASS

        return () if move == PASS else (move,)

    def summary(self) -> str:
        if self.state is None:
            return ""
        black, white = self.state.counts()
        g = GLYPHS[self.ascii]
        text = f"Black {g[0]} {black}   White {g[1]} {white}"
        if self.state.legal_moves() and self.steps(self.state.legal_moves()[0]) == ():
            text += "   no move: Enter passes"
        return text

    def legend(self) -> str:
        """FlipColor's drawn squares are in the legend too, on its boards."""
        text = super().legend()
        if self.state is not None and self.state.options.get("variant") == "flipcolor":
            text += "\n *  FlipColor square (# legal)"
        return text

    def owner_at(self, point: int) -> int | None:
        return self.state.cell(point) if self.state is not None else None

    def refusal(self, point: int) -> str:
        if not self.path and self.owner_at(point) is None and self.state is not None:
            if not self.targets():
                return "you have no legal move: Enter passes"
            return "a disc there would turn none of the other side's discs"
        return super().refusal(point)

    def point_name(self, point: int) -> str:
        n = self.side
        return f"{FILES[point % n]}{point // n + 1}"

    def piece_name(self, point: int) -> str | None:
        name = super().piece_name(point)
        if name is None and self.state is not None and self.state.is_drawn(point):
            return "FlipColor square"
        return name

    def reader_lines(self) -> list[str]:
        """From row 1 (the top) down: ``row 4: empty a to c, White d4, Black e4, …``."""
        if self.state is None:
            return []
        n = self.side
        return [reader_row(f"row {row + 1}", [
            (FILES[f], self.point_name(row * n + f), self.piece_name(row * n + f))
            for f in range(n)]) for row in range(n)]

    def move_detail(self, before: ReversiState, move: int, after: ReversiState) -> str:
        if not self.steps(move):
            return ""
        flipped = sum(1 for sq in range(before.size * before.size)
                      if before.cell(sq) is not None and before.cell(sq) != after.cell(sq))
        return f"flipping {flipped}"

    def said_move(self, before: ReversiState, move: int, after: ReversiState) -> str:
        if not self.steps(move):
            return f"{before.PLAYERS[before.to_move]} passes."
        return super().said_move(before, move, after)

    def highlights(self) -> set[int]:
        """The discs the last move flipped."""
        before, state = self.previous, self.state
        if before is None or state is None or getattr(before, "size", None) != state.size:
            return set()
        return {sq for sq in range(state.size * state.size)
                if before.cell(sq) is not None and before.cell(sq) != state.cell(sq)}

    def draw(self) -> Canvas:
        state = self.state
        assert state is not None
        n = state.size
        canvas = Canvas(3 + 3 * n, n + 1)
        label, green = self.style("label"), self.style("dark")
        targets = self.targets()
        for f in range(n):
            canvas.put(4 + 3 * f, 0, FILES[f], label)
        for row in range(n):
            canvas.put(0, row + 1, f"{row + 1:>2}", label)
            for f in range(n):
                sq = row * n + f
                owner = state.cell(sq)
                if owner is not None:
                    glyph, gstyle = GLYPHS[self.ascii][owner], self.piece_style(owner)
                elif state.is_drawn(sq):
                    glyph = "#" if sq in targets else "*"
                    gstyle = self.style("target" if sq in targets else "hint")
                else:
                    glyph, gstyle = self.empty_glyph(sq, targets)
                self.put_point(canvas, 3 + 3 * f, row + 1, sq, glyph, gstyle, green)
                canvas.fill(3 + 3 * f, row + 1, 3, green)
        return canvas
