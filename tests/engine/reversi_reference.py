"""A deliberately naive Reversi move generator, written from docs/RULES.md (Reversi) alone.

It shares no code with ``engine.games.reversi``: the board is a list of lists of
``"B"``, ``"W"`` or ``None``, moves are square names (``"f5"``) or ``"pass"``, and every
rule is checked by walking the eight directions one square at a time. It exists only to
cross-check the bitboard engine (legal moves at every ply, perft counts).
"""

from __future__ import annotations

from dataclasses import dataclass

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
"""(row step, column step) for the eight straight lines."""


@dataclass
class RefPosition:
    """A board (rows top to bottom), the colour to move, and FlipColor's drawn squares."""

    board: list[list[str | None]]
    mover: str = "B"
    drawn: frozenset[str] = frozenset()

    @property
    def n(self) -> int:
        """Board side."""
        return len(self.board)

    def name(self, row: int, col: int) -> str:
        """``"a1"`` for row 0, column 0 (rows counted from the top)."""
        return "abcdefgh"[col] + str(row + 1)

    def flips(self, row: int, col: int, colour: str) -> list[tuple[int, int]]:
        """The discs ``colour`` would flip by playing at (row, col), walking each line."""
        if self.board[row][col] is not None:
            return []
        other = "W" if colour == "B" else "B"
        out = []
        for dr, dc in DIRECTIONS:
            line = []
            r, c = row + dr, col + dc
            while 0 <= r < self.n and 0 <= c < self.n and self.board[r][c] == other:
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and 0 <= r < self.n and 0 <= c < self.n and self.board[r][c] == colour:
                out.extend(line)
        return out

    def placements(self, colour: str) -> list[str]:
        """Names of the squares where ``colour`` may place a disc, sorted by (row, col)."""
        return [self.name(r, c) for r in range(self.n) for c in range(self.n)
                if self.flips(r, c, colour)]

    def moves(self) -> list[str]:
        """Placements, or ``["pass"]`` if only the opponent can place, or ``[]`` at the end."""
        mine = self.placements(self.mover)
        if mine:
            return mine
        other = "W" if self.mover == "B" else "B"
        return ["pass"] if self.placements(other) else []

    def play(self, move: str) -> RefPosition:
        """A new position after the legal ``move``."""
        other = "W" if self.mover == "B" else "B"
        board = [row[:] for row in self.board]
        if move != "pass":
            col, row = "abcdefgh".index(move[0]), int(move[1:]) - 1
            to_flip = self.flips(row, col, self.mover)
            assert to_flip, f"reference: illegal move {move}"
            for r, c in to_flip:
                board[r][c] = self.mover
            board[row][col] = other if move in self.drawn else self.mover
        return RefPosition(board, other, self.drawn)

    def counts(self) -> tuple[int, int]:
        """(Black discs, White discs)."""
        cells = [x for row in self.board for x in row]
        return cells.count("B"), cells.count("W")


def from_cells(n: int, black: list[str], white: list[str], drawn: list[str] = ()) -> RefPosition:
    """A position with Black to move and discs on the named squares."""
    board: list[list[str | None]] = [[None] * n for _ in range(n)]
    for colour, names in (("B", black), ("W", white)):
        for name in names:
            board[int(name[1:]) - 1]["abcdefgh".index(name[0])] = colour
    return RefPosition(board, "B", frozenset(drawn))


def standard_start(n: int) -> RefPosition:
    """docs/RULES.md's start: d4, e5 White and d5, e4 Black on 8×8 (the same centre for n)."""
    lo, hi = "abcdefgh"[n // 2 - 1], "abcdefgh"[n // 2]
    r1, r2 = str(n // 2), str(n // 2 + 1)
    return from_cells(n, black=[lo + r2, hi + r1], white=[lo + r1, hi + r2])


def perft(pos: RefPosition, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` moves (passes count)."""
    if depth == 0:
        return 1
    return sum(perft(pos.play(m), depth - 1) for m in pos.moves())
