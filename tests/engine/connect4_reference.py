"""A deliberately naive Connect Four move generator, written from docs/RULES.md (Connect Four) only.

It shares no code with ``engine.games.connect4``: the board is a list of 6 rows of 7
cells (row 0 at the bottom), a disc falls to the lowest empty cell of its column, and
a win is found by walking every cell in every direction. It is slow and obviously
right, so the engine is checked against it (legal moves along random games, and perft
counts not published in docs/RULES.md).
"""

from __future__ import annotations

COLS = 7
ROWS = 6
EMPTY = "."
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (d_row, d_col)


class RefBoard:
    """A mutable grid of ``"."``, ``"X"`` (Red, first) and ``"O"`` (Yellow)."""

    def __init__(self) -> None:
        self.grid = [[EMPTY] * COLS for _ in range(ROWS)]
        self.turn = "X"

    def copy(self) -> RefBoard:
        """An independent copy."""
        other = RefBoard()
        other.grid = [row[:] for row in self.grid]
        other.turn = self.turn
        return other

    def winner(self) -> str | None:
        """``"X"`` or ``"O"`` if that player has four in a line, else None."""
        for r in range(ROWS):
            for c in range(COLS):
                who = self.grid[r][c]
                if who == EMPTY:
                    continue
                for dr, dc in DIRECTIONS:
                    cells = [(r + i * dr, c + i * dc) for i in range(4)]
                    if all(0 <= rr < ROWS and 0 <= cc < COLS and self.grid[rr][cc] == who
                           for rr, cc in cells):
                        return who
        return None

    def full(self) -> bool:
        """True when no cell is empty."""
        return all(cell != EMPTY for row in self.grid for cell in row)

    def legal_columns(self) -> list[int]:
        """Columns (0-based) a disc may be dropped into; none once the game is over."""
        if self.winner() is not None or self.full():
            return []
        return [c for c in range(COLS) if self.grid[ROWS - 1][c] == EMPTY]

    def drop(self, col: int) -> None:
        """Drop the side to move's disc into ``col`` and pass the turn."""
        for r in range(ROWS):
            if self.grid[r][col] == EMPTY:
                self.grid[r][col] = self.turn
                break
        else:
            raise ValueError(f"column {col} is full")
        self.turn = "O" if self.turn == "X" else "X"

    def undo(self, col: int) -> None:
        """Take back the top disc of ``col`` (the last move played there)."""
        for r in range(ROWS - 1, -1, -1):
            if self.grid[r][col] != EMPTY:
                self.grid[r][col] = EMPTY
                break
        self.turn = "O" if self.turn == "X" else "X"

    def rows_text(self) -> list[str]:
        """The grid top row first, as strings of ``.XO``."""
        return ["".join(row) for row in reversed(self.grid)]


def ref_perft(board: RefBoard, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` moves from ``board``."""
    if depth == 0:
        return 1
    total = 0
    for col in board.legal_columns():
        board.drop(col)
        total += ref_perft(board, depth - 1)
        board.undo(col)
    return total


def from_moves(moves: str) -> RefBoard:
    """The board after a game string of columns ``1``..``7`` such as ``"4453"``."""
    board = RefBoard()
    for ch in moves:
        board.drop(int(ch) - 1)
    return board
