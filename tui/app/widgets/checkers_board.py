"""The checkers board: 8×8 with Black at the top; dark squares carry PDN numbers 1-32.

The cursor stands only on the 32 dark squares (pieces never leave them): up and down
go one diagonal step, left and right to the next dark square in the row. The rows are
labelled with their first and last square number, and the summary names the square under
the cursor.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.games.checkers import CheckersMove, CheckersState
from tui.app.widgets.board import BoardWidget, Canvas, reader_row

GLYPHS = {False: {"b": "●", "B": "◆", "w": "○", "W": "◇"},
          True: {"b": "b", "B": "B", "w": "w", "W": "W"}}
"""Men and kings differ by glyph, never by colour alone."""


def square_cell(square: int) -> int:
    """The cell (row * 8 + file, row 0 at the top) of PDN square ``square``."""
    row = (square - 1) // 4
    i = (square - 1) % 4
    return row * 8 + (2 * i + 1 if row % 2 == 0 else 2 * i)


CELL_SQUARE = {square_cell(s): s for s in range(1, 33)}
"""PDN square number of each dark cell."""


class CheckersBoard(BoardWidget[CheckersState, int]):
    """English checkers: points are cells 0..63; a move's steps are its squares' cells."""

    GAME = "checkers"
    LEGEND_MORE = "× a piece the last move took"

    DEFAULT_CSS = """
    CheckersBoard {
        & > .board--dark { background: #8b5a2b; }
        & > .board--light { background: #e6cfa3; }
        & > .board--first { color: #101010; text-style: bold; }
        & > .board--second { color: #f8f8f8; text-style: bold; }
        & > .board--line { color: #d9b88a; }
        & > .board--target { color: #9ad7ff; text-style: bold; }
    }
    """
    """Brown and cream squares in every theme, so the men read in light and dark themes."""
    TOP_SIDE = 0

    def points(self) -> Iterable[int]:
        return sorted(CELL_SQUARE)

    def coord(self, point: int) -> tuple[int, int]:
        return point % 8, 7 - point // 8

    def neighbour(self, point: int, direction: str) -> int | None:
        """Up and down go one diagonal step (to a square the move may go to if one is,
        else to the right as seen); left and right to the next dark square in the row."""
        if direction in ("left", "right"):
            return super().neighbour(point, direction)
        sign = -1 if self.flipped else 1
        x0, y0 = self.coord(point)
        dy = (1 if direction == "up" else -1) * sign
        options = [c for dx in (sign, -sign) if 0 <= (x := x0 + dx) < 8 and 0 <= (y := y0 + dy) < 8
                   and (c := (7 - y) * 8 + x) in CELL_SQUARE]
        targets = self.targets()
        options.sort(key=lambda c: c not in targets)
        return options[0] if options else None

    def steps(self, move: CheckersMove) -> tuple[int, ...]:
        return tuple(square_cell(s) for s in move)

    def summary(self) -> str:
        square = CELL_SQUARE.get(int(self.cursor))
        where = f"square {square}" if square else "light square"
        if self.path:
            chosen = "-".join(str(CELL_SQUARE[c]) for c in self.path)
            return f"{where}  move {chosen}… (Esc)"
        return where

    def owner_at(self, point: int) -> int | None:
        square = CELL_SQUARE.get(point)
        piece = self.state.piece_at(square) if square and self.state is not None else None
        return None if piece is None else piece.player

    def point_name(self, point: int) -> str:
        square = CELL_SQUARE.get(point)
        return f"square {square}" if square else "a light square"

    def piece_name(self, point: int) -> str | None:
        square = CELL_SQUARE.get(point)
        piece = self.state.piece_at(square) if square and self.state is not None else None
        if piece is None or self.state is None:
            return None
        kind = "king" if piece.value.isupper() else "man"
        return f"{self.state.PLAYERS[piece.player]} {kind}"

    def reader_lines(self) -> list[str]:
        """Row by row from the top, by square number: ``squares 1 to 4: Black man on 1,
        …``; ``squares 13 to 16: empty``."""
        if self.state is None:
            return []
        lines = []
        for row in range(8):
            numbers = range(4 * row + 1, 4 * row + 5)
            lines.append(reader_row(f"squares {numbers[0]} to {numbers[-1]}", [
                (str(s), str(s), self.piece_name(square_cell(s))) for s in numbers], on="on "))
        return lines

    def move_detail(self, before: CheckersState, move: CheckersMove, after: CheckersState) -> str:
        taken = sum(1 for s in range(1, 33) if before.piece_at(s) is not None
                    and after.piece_at(s) is None and s != move[0])
        crowned = (before.piece_at(move[0]) is not None and after.piece_at(move[-1]) is not None
                   and before.piece_at(move[0]).value.islower()  # type: ignore[union-attr]
                   and after.piece_at(move[-1]).value.isupper())  # type: ignore[union-attr]
        words = [f"taking {taken}"] if taken else []
        if crowned:
            words.append("crowned")
        return ", ".join(words)

    def refusal(self, point: int) -> str:
        state = self.state
        assert state is not None
        legal = state.legal_moves()
        if not self.path and self.owner_at(point) == state.to_move and legal:
            jumps = [state.format_move(m) for m in legal if "x" in state.format_move(m)]
            if jumps:
                shown = ", ".join(jumps[:3]) + (" …" if len(jumps) > 3 else "")
                return f"you must capture: {shown}"
        return super().refusal(point)

    def captured(self) -> set[int]:
        """The squares the last move jumped (their pieces were taken)."""
        before, state, move = self.previous, self.state, self.last_move
        if before is None or state is None or move is None:
            return set()
        return {square_cell(s) for s in range(1, 33)
                if before.piece_at(s) is not None and state.piece_at(s) is None
                and s != move[0]}

    def draw(self) -> Canvas:
        state = self.state
        assert state is not None
        canvas = Canvas(3 + 3 * 8 + 3, 9)
        label, dark, light = self.style("label"), self.style("dark"), self.style("light")
        targets = self.targets()
        for f in range(8):
            canvas.put(4 + 3 * f, 0, "abcdefgh"[f], label)
        for row in range(8):
            y = row + 1
            canvas.put(0, y, f"{4 * row + 1:>2}", label)
            canvas.put(3 + 3 * 8 + 1, y, f"{4 * row + 4:<2}", label)
            for f in range(8):
                cell = row * 8 + f
                x = 3 + 3 * f
                square = CELL_SQUARE.get(cell)
                if square is None:
                    canvas.fill(x, y, 3, light)
                    continue
                piece = state.piece_at(square)
                if piece is None:
                    glyph, gstyle = self.empty_glyph(cell, targets)
                else:
                    glyph = GLYPHS[self.ascii][piece.value]
                    gstyle = self.piece_style(piece.player)
                self.put_point(canvas, x, y, cell, glyph, gstyle, dark,
                               piece_target=piece is not None and cell in targets)
                canvas.fill(x, y, 3, dark)
        return canvas
