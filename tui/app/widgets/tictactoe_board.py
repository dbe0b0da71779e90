"""The tic-tac-toe board: a 3×3 grid with ruled lines, files a-c and ranks 1-3."""

from __future__ import annotations

from collections.abc import Iterable

from engine.games.tictactoe import TicTacToeState
from tui.app.widgets.board import BoardWidget, Canvas, reader_row, run_through

GLYPHS = ("X", "O")


class TicTacToeBoard(BoardWidget[TicTacToeState, int]):
    """Tic-tac-toe: points are the cells 0..8 (a1=0 … c3=8); a move is one cell."""

    GAME = "tictactoe"

    def points(self) -> Iterable[int]:
        return range(9)

    def coord(self, point: int) -> tuple[int, int]:
        return point % 3, point // 3

    def steps(self, move: int) -> tuple[int, ...]:
        return (move,)

    def start_point(self, state: TicTacToeState) -> int:
        """The centre, unless it is taken (a resumed game): then a legal square."""
        return 4 if 4 in state.legal_moves() else super().start_point(state)

    def owner_at(self, point: int) -> int | None:
        return self.state.cell(point) if self.state is not None else None

    def point_name(self, point: int) -> str:
        return "abc"[point % 3] + str(point // 3 + 1)

    def reader_lines(self) -> list[str]:
        """``row 3: X a3, empty b to c``, from row 3 down (as drawn)."""
        return [reader_row(f"row {rank + 1}", [
            ("abc"[f], self.point_name(rank * 3 + f), self.piece_name(rank * 3 + f))
            for f in range(3)]) for rank in reversed(range(3))]

    def highlights(self) -> set[int]:
        """The three in a row, once the game is won."""
        state = self.state
        if state is None or self.last_move is None or state.outcome() is None:
            return set()

        def owner(x: int, y: int) -> int | None:
            return state.cell(y * 3 + x) if 0 <= x < 3 and 0 <= y < 3 else None

        m = int(self.last_move)
        return {y * 3 + x for x, y in run_through(owner, m % 3, m // 3, 3)}

    def draw(self) -> Canvas:
        state = self.state
        assert state is not None
        canvas = Canvas(16, 6)
        label, line = self.style("label"), self.style("line")
        vbar, hbar, cross = ("|", "-", "+") if self.ascii else ("│", "─", "┼")
        targets = self.targets()
        for f in range(3):
            canvas.put(4 + 4 * f, 0, "abc"[f], label)
        for row in range(3):
            rank = 2 - row
            y = 1 + 2 * row
            canvas.put(0, y, str(rank + 1), label)
            for f in range(3):
                cell = rank * 3 + f
                x = 3 + 4 * f
                owner = state.cell(cell)
                if owner is None:
                    glyph, gstyle = self.empty_glyph(cell, targets)
                else:
                    glyph, gstyle = GLYPHS[owner], self.piece_style(owner)
                self.put_point(canvas, x, y, cell, glyph, gstyle)
                if f < 2:
                    canvas.put(x + 3, y, vbar, line)
            if row < 2:
                canvas.put(3, y + 1, cross.join([hbar * 3] * 3), line)
        return canvas
