"""A deliberately naive English-checkers move generator, written from docs/RULES.md
(English checkers) alone.

It shares no code with ``engine.games.checkers``: an 8×8 list of lists, one square at a
time, whole-game history kept as a list. It exists only to check the engine (random
playouts and perft numbers that docs/RULES.md does not publish). Slow on purpose; clear
over fast.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

EMPTY = "."


def square_number(row: int, col: int) -> int:
    """Standard 1..32 number of the dark square at (row from top, column from left)."""
    return row * 4 + col // 2 + 1


def square_coords(square: int) -> tuple[int, int]:
    """(row, col) of a square number, the inverse of :func:`square_number`."""
    row = (square - 1) // 4
    index = (square - 1) % 4
    col = index * 2 + (1 if row % 2 == 0 else 0)
    return row, col


def on_board(row: int, col: int) -> bool:
    """True inside the 8×8 board."""
    return 0 <= row < 8 and 0 <= col < 8


@dataclass
class RefGame:
    """A whole game so far: the board, the side to move and every earlier position.

    Board cells hold ``.``, ``b`` (Black man), ``B`` (Black king), ``w`` or ``W``.
    Black (player 0) starts at the top (rows 0-2) and moves down.
    """

    board: list[list[str]] = field(default_factory=list)
    to_move: int = 0
    seen: list[tuple[str, int]] = field(default_factory=list)
    """Every earlier position as (board text, side to move)."""
    irreversible: list[bool] = field(default_factory=list)
    """For every move played: was it a capture or a man move?"""

    @classmethod
    def start(cls) -> RefGame:
        """The initial position: Black men on 1-12, White men on 21-32."""
        board = [[EMPTY] * 8 for _ in range(8)]
        for square in range(1, 13):
            r, c = square_coords(square)
            board[r][c] = "b"
        for square in range(21, 33):
            r, c = square_coords(square)
            board[r][c] = "w"
        return cls(board=board)

    def text(self) -> str:
        """The board as one string, for repetition."""
        return "".join("".join(row) for row in self.board)

    # ---------------------------------------------------------------- movement rules
    def _own(self, cell: str) -> bool:
        return cell in ("bB" if self.to_move == 0 else "wW")

    def _enemy(self, cell: str) -> bool:
        return cell in ("wW" if self.to_move == 0 else "bB")

    def _directions(self, cell: str) -> list[tuple[int, int]]:
        forward = 1 if self.to_move == 0 else -1
        if cell.isupper():
            return [(1, -1), (1, 1), (-1, -1), (-1, 1)]
        return [(forward, -1), (forward, 1)]

    def _far_row(self) -> int:
        return 7 if self.to_move == 0 else 0

    def _jump_sequences(self, board: list[list[str]], row: int, col: int, cell: str,
                        path: list[int]) -> list[list[int]]:
        """All complete capture sequences for the piece ``cell`` now standing at (row, col)."""
        found: list[list[int]] = []
        for dr, dc in self._directions(cell):
            mr, mc = row + dr, col + dc
            lr, lc = row + 2 * dr, col + 2 * dc
            if not on_board(lr, lc):
                continue
            if not self._enemy(board[mr][mc]) or board[lr][lc] != EMPTY:
                continue
            after = [line[:] for line in board]
            after[row][col] = EMPTY
            after[mr][mc] = EMPTY
            after[lr][lc] = cell
            new_path = [*path, square_number(lr, lc)]
            if cell.islower() and lr == self._far_row():
                found.append(new_path)  # crowned: the move ends
                continue
            longer = self._jump_sequences(after, lr, lc, cell, new_path)
            found.extend(longer if longer else [new_path])
        return found

    def movement_moves(self) -> list[tuple[int, ...]]:
        """Moves allowed by the movement and capture rules alone (no draw rules)."""
        captures: list[tuple[int, ...]] = []
        steps: list[tuple[int, ...]] = []
        for row in range(8):
            for col in range(8):
                cell = self.board[row][col]
                if not self._own(cell):
                    continue
                here = square_number(row, col)
                for seq in self._jump_sequences(self.board, row, col, cell, [here]):
                    captures.append(tuple(seq))
                for dr, dc in self._directions(cell):
                    r, c = row + dr, col + dc
                    if on_board(r, c) and self.board[r][c] == EMPTY:
                        steps.append((here, square_number(r, c)))
        return captures if captures else steps

    # ---------------------------------------------------------------- game end
    def quiet_plies(self) -> int:
        """Plies since the last capture or man move."""
        n = 0
        for flag in reversed(self.irreversible):
            if flag:
                break
            n += 1
        return n

    def result(self) -> str | None:
        """None, or 'no legal moves', 'threefold repetition', '40-move rule'."""
        if not self.movement_moves():
            return "no legal moves"
        if self.seen.count((self.text(), self.to_move)) >= 2:
            return "threefold repetition"
        if self.quiet_plies() >= 80:
            return "40-move rule"
        return None

    def legal_moves(self) -> list[tuple[int, ...]]:
        """Legal moves; empty once the game is over."""
        return [] if self.result() else self.movement_moves()

    def play(self, move: tuple[int, ...]) -> RefGame:
        """A new game with ``move`` played (it must be legal)."""
        assert move in self.legal_moves(), move
        board = [line[:] for line in self.board]
        r0, c0 = square_coords(move[0])
        cell = board[r0][c0]
        man_moved = cell.islower()
        board[r0][c0] = EMPTY
        captured = False
        for a, b in itertools.pairwise(move):
            ra, ca = square_coords(a)
            rb, cb = square_coords(b)
            if abs(rb - ra) == 2:
                board[(ra + rb) // 2][(ca + cb) // 2] = EMPTY
                captured = True
        r1, c1 = square_coords(move[-1])
        if cell.islower() and r1 == self._far_row():
            cell = cell.upper()
        board[r1][c1] = cell
        return RefGame(board=board, to_move=1 - self.to_move,
                       seen=[*self.seen, (self.text(), self.to_move)],
                       irreversible=[*self.irreversible, captured or man_moved])


def perft(game: RefGame, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` moves from ``game``."""
    if depth == 0:
        return 1
    return sum(perft(game.play(m), depth - 1) for m in game.legal_moves())
