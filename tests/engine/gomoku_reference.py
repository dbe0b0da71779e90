"""A deliberately naive Gomoku move generator, written from the rules only.

It shares no code with ``engine.games.gomoku``: the board is a list of ``n`` rows of
``n`` cells (row 0 is rank 1), a move names its cell as ``(file, rank)``, and five in a
row is found by walking from every stone in every direction and counting. It is slow and
obviously right, so the engine is checked against it (legal moves along random games,
and every perft count in tests/data/perft/gomoku.perft).
"""

from __future__ import annotations

EMPTY = "."
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (d_file, d_rank)


class RefBoard:
    """A mutable grid of ``"."``, ``"X"`` (Black, first) and ``"O"`` (White)."""

    def __init__(self, n: int = 9) -> None:
        self.n = n
        self.grid = [[EMPTY] * n for _ in range(n)]
        self.turn = "X"

    def winner(self) -> str | None:
        """``"X"`` or ``"O"`` if that player has five or more in a line, else None."""
        for rank in range(self.n):
            for file in range(self.n):
                who = self.grid[rank][file]
                if who == EMPTY:
                    continue
                for df, dr in DIRECTIONS:
                    run = 0
                    f, r = file, rank
                    while 0 <= f < self.n and 0 <= r < self.n and self.grid[r][f] == who:
                        run += 1
                        f, r = f + df, r + dr
                    if run >= 5:
                        return who
        return None

    def legal_cells(self) -> list[tuple[int, int]]:
        """Empty cells, rank by rank from a1; none once someone has five."""
        if self.winner() is not None:
            return []
        return [(f, r) for r in range(self.n) for f in range(self.n)
                if self.grid[r][f] == EMPTY]

    def put(self, cell: tuple[int, int]) -> None:
        """The side to move's stone on ``cell``; the turn passes."""
        f, r = cell
        assert self.grid[r][f] == EMPTY
        self.grid[r][f] = self.turn
        self.turn = "O" if self.turn == "X" else "X"

    def take(self, cell: tuple[int, int]) -> None:
        """Remove the stone on ``cell`` (the last move) and give the turn back."""
        f, r = cell
        self.grid[r][f] = EMPTY
        self.turn = "O" if self.turn == "X" else "X"

    def rows_text(self) -> list[str]:
        """The grid, top rank first, as strings of ``.XO``."""
        return ["".join(row) for row in reversed(self.grid)]


def name(cell: tuple[int, int]) -> str:
    """``(4, 4)`` -> ``"e5"``."""
    return f"{'abcdefghijklmno'[cell[0]]}{cell[1] + 1}"


def ref_perft(board: RefBoard, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` moves from ``board``."""
    if depth == 0:
        return 1
    total = 0
    for cell in board.legal_cells():
        board.put(cell)
        total += ref_perft(board, depth - 1)
        board.take(cell)
    return total


def from_moves(moves: list[str], n: int = 9) -> RefBoard:
    """The board after moves such as ``["e5", "d4"]``."""
    board = RefBoard(n)
    for text in moves:
        board.put(("abcdefghijklmno".index(text[0]), int(text[1:]) - 1))
    return board
