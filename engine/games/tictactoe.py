"""Tic-tac-toe on two 9-bit bitboards (docs/RULES.md, Tic-tac-toe).

Cells are numbered 0..8 as ``file + 3 * (rank - 1)``: a1=0, b1=1, c1=2, a2=3, … c3=8.
A move is the cell number. Every lookup a move needs (legal cells, three in a row) is a
precomputed table indexed by a 9-bit mask.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

from engine.positions import bad, format_rows, parse_rows, parse_side, split_fields
from engine.protocol import Game, Outcome, Result, State
from engine.symmetry import TRANSFORMS, dihedral

FILES = "abc"
CELLS = tuple(f"{FILES[i % 3]}{i // 3 + 1}" for i in range(9))
"""Cell names by number: ``CELLS[4] == "b2"``."""
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # ranks
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # files
    (0, 4, 8), (2, 4, 6),  # diagonals
)
"""The eight winning lines as cell triples."""
LINE_MASKS = tuple(sum(1 << c for c in line) for line in LINES)
FULL = 0x1FF

_WINS = tuple(any(mask & m == m for m in LINE_MASKS) for mask in range(512))
_EMPTY = tuple(tuple(c for c in range(9) if not occ >> c & 1) for occ in range(512))

_new = object.__new__


class TicTacToeState(State[int]):
    """A tic-tac-toe position: X's and O's cells as bitmasks."""

    __slots__ = ("o", "ply", "to_move", "x")
    GAME = "tictactoe"
    PLAYERS = ("X", "O")
    MOVE_SYNTAX = re.compile(r"[a-c][1-3]")
    ENCODING_VERSION = 1

    x: int
    o: int

    def legal_moves(self) -> tuple[int, ...]:
        if _WINS[self.x] or _WINS[self.o]:
            return ()
        return _EMPTY[self.x | self.o]

    def play(self, move: int) -> TicTacToeState:
        bit = 1 << move
        if (self.x | self.o) & bit or _WINS[self.x] or _WINS[self.o]:
            self._illegal(CELLS[move] if 0 <= move < 9 else str(move))
        child = _new(TicTacToeState)
        if self.to_move:
            child.x = self.x
            child.o = self.o | bit
            child.to_move = 0
        else:
            child.x = self.x | bit
            child.o = self.o
            child.to_move = 1
        child.ply = self.ply + 1
        return child

    def outcome(self) -> Outcome | None:
        if _WINS[self.x]:
            return Outcome(Result.FIRST_WINS, "three in a row")
        if _WINS[self.o]:
            return Outcome(Result.SECOND_WINS, "three in a row")
        if self.x | self.o == FULL:
            return Outcome(Result.DRAW, "board full")
        return None

    def key(self) -> Hashable:
        return (self.x, self.o)

    def symmetric_keys(self) -> tuple[tuple[int, int], ...]:
        """``(x, o)`` in each of the board's eight symmetries (:mod:`engine.symmetry`)."""
        d = dihedral(3)
        return tuple((d.bits(self.x, s), d.bits(self.o, s)) for s in range(len(TRANSFORMS)))

    def symmetric_move(self, move: int, symmetry: int) -> int:
        """The cell's image under ``symmetry``."""
        return dihedral(3).cell(move, symmetry)

    def encode(self) -> Any:
        import numpy as np

        own, opp = (self.o, self.x) if self.to_move else (self.x, self.o)
        out = np.zeros(18, dtype=np.float32)
        for c in range(9):
            out[c] = own >> c & 1
            out[9 + c] = opp >> c & 1
        return out

    def format_move(self, move: int) -> str:
        return CELLS[move]

    def to_position(self) -> str:
        """Rows 3 to 1 (``x``, ``o``, a digit for empty cells), then the side to move:
        ``x2/1o1/3 x``."""
        rows = ["".join("x" if self.x >> c & 1 else "o" if self.o >> c & 1 else "."
                        for c in range(rank * 3, rank * 3 + 3)) for rank in (2, 1, 0)]
        return f"{format_rows(rows)} {'xo'[self.to_move]}"

    def cell(self, c: int) -> int | None:
        """0 (X), 1 (O) or None for cell number ``c``."""
        if self.x >> c & 1:
            return 0
        if self.o >> c & 1:
            return 1
        return None

    def __str__(self) -> str:
        rows = []
        for rank in range(2, -1, -1):
            marks = ("X" if self.x >> c & 1 else "O" if self.o >> c & 1 else "."
                     for c in range(rank * 3, rank * 3 + 3))
            rows.append(f"{rank + 1} " + " ".join(marks))
        rows.append("  a b c")
        return "\n".join(rows)


class TicTacToe(Game):
    """Tic-tac-toe: three in a row on a 3×3 board."""

    id = "tictactoe"
    name = "Tic-tac-toe"
    description = "3×3, X first, three in a row wins"
    rules_summary = (
        "X and O take turns on a 3×3 grid; three in a row (across,\n"
        "down or diagonal) wins; a full grid with none is a draw."
    )

    def _initial(self) -> TicTacToeState:
        state = _new(TicTacToeState)
        state.x = state.o = 0
        state.to_move = state.ply = 0
        return state

    def from_position(self, text: str) -> TicTacToeState:
        """The position ``x2/1o1/3 x`` (see :meth:`TicTacToeState.to_position`); X
        moves first, so X has as many marks as O (X to move) or one more (O to move),
        and only the side that moved last may have three in a row."""
        board, side = split_fields(self.id, text, 2, 2, "BOARD SIDE, like x2/1o1/3 o")
        rows = parse_rows(self.id, text, board.lower(), lambda n: (3, 3, 3) if n == 3 else None,
                          "xo")
        cells = "".join(reversed(rows))
        x = sum(1 << c for c, ch in enumerate(cells) if ch == "x")
        o = sum(1 << c for c, ch in enumerate(cells) if ch == "o")
        to_move = parse_side(self.id, text, side)
        if x.bit_count() - o.bit_count() != to_move:
            raise bad(self.id, text, "X moves first: X must have as many marks as O "
                                     "with X to move, one more with O to move")
        if _WINS[(x, o)[to_move]]:
            raise bad(self.id, text, "the side to move already has three in a row")
        state = _new(TicTacToeState)
        state.x, state.o, state.to_move, state.ply = x, o, to_move, 0
        return state
