"""The Gomoku board: a 9×9 or 15×15 grid of points, files a… and ranks 1…."""

from __future__ import annotations

from collections.abc import Iterable

from engine.games.gomoku import GomokuState
from tui.app.widgets.board import BoardWidget, Canvas, reader_row, run_through
from tui.app.widgets.move_list import counted

GLYPHS = {False: ("●", "○"), True: ("X", "O")}
"""Stone glyphs by ascii flag: Black (first) then White (second)."""
FILES = "abcdefghijklmno"


class GomokuBoard(BoardWidget[GomokuState, int]):
    """Gomoku: points are the board's cells (the engine's move numbers); a move is one
    cell. Empty cells are dots: every one of them is legal, so none is marked."""

    GAME = "gomoku"
    PLACE = "point"

    DEFAULT_CSS = """
    GomokuBoard {
        & > .board--dark { background: #d4a15a; }
        & > .board--first { color: #101010; text-style: bold; }
        & > .board--second { color: #ffffff; text-style: bold; }
        & > .board--line { color: #6b4423; }
        & > .board--target { color: #0b3d91; text-style: bold; }
    }
    """
    """A wooden board in every theme: black and white stones read on it in any theme."""

    def points(self) -> Iterable[int]:
        assert self.state is not None
        return self.state.geometry.cells

    def coord(self, point: int) -> tuple[int, int]:
        assert self.state is not None
        width = self.state.geometry.width
        return point % width, point // width

    def steps(self, move: int) -> tuple[int, ...]:
        return (move,)

    def start_point(self, state: GomokuState) -> int:
        """The centre point, unless it is taken (a resumed game): then a legal point."""
        n = state.size
        centre = state.geometry.cell(n // 2, n // 2)
        return centre if centre in state.legal_moves() else super().start_point(state)

    def summary(self) -> str:
        state = self.state
        if state is None:
            return ""
        counts = [s.bit_count() for s in (state.stones(0), state.stones(1))]
        return f"Black {counted(counts[0], 'stone')}, White {counted(counts[1], 'stone')}"

    def owner_at(self, point: int) -> int | None:
        state = self.state
        return state.cell(point) if state is not None else None

    def point_name(self, point: int) -> str:
        x, y = self.coord(point)
        return f"{FILES[x]}{y + 1}"

    def reader_lines(self) -> list[str]:
        """From the top row down: ``row 7: empty a to g, Black h7, empty i to o``."""
        state = self.state
        if state is None:
            return []
        n = state.size
        return [reader_row(f"row {rank + 1}", [
            (FILES[f], f"{FILES[f]}{rank + 1}", self.piece_name(state.geometry.cell(f, rank)))
            for f in range(n)]) for rank in reversed(range(n))]

    def highlights(self) -> set[int]:
        """The five (or more) in a row, once the game is won."""
        state = self.state
        if state is None or self.last_move is None or state.outcome() is None:
            return set()
        n, geometry = state.size, state.geometry

        def owner(x: int, y: int) -> int | None:
            return state.cell(geometry.cell(x, y)) if 0 <= x < n and 0 <= y < n else None

        x0, y0 = self.coord(self.last_move)
        return {geometry.cell(x, y) for x, y in run_through(owner, x0, y0, 5)}

    def draw(self) -> Canvas:
        state = self.state
        assert state is not None
        n = state.size
        canvas = Canvas(3 + 3 * n, n + 1)
        label, wood = self.style("label"), self.style("dark")
        glyphs = GLYPHS[self.ascii]
        for f in range(n):
            canvas.put(4 + 3 * f, n, FILES[f], label)
        for rank in range(n):
            y = n - 1 - rank
            canvas.put(0, y, f"{rank + 1:>2}", label)
            for f in range(n):
                cell = state.geometry.cell(f, rank)
                owner = state.cell(cell)
                if owner is None:
                    glyph, gstyle = self.empty_glyph(cell, set())
                else:
                    glyph, gstyle = glyphs[owner], self.piece_style(owner)
                self.put_point(canvas, 3 + 3 * f, y, cell, glyph, gstyle, wood)
                canvas.fill(3 + 3 * f, y, 3, wood)
        return canvas
