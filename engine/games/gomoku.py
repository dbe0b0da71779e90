"""Gomoku (freestyle) on a 9×9 or 15×15 board, on two bitboards.

Rules: Black moves first; the players take turns putting one stone of their colour on
any empty intersection. A player who makes an unbroken line of **five or more** of their
stones, horizontally, vertically or diagonally, wins at once ("freestyle": an overline
of six or more also wins, and neither player has further restrictions). When the board
is full and no one has five, the game is drawn. There are no passes and no captures.

Notation: the file letter (``a`` …, left to right) and the rank (``1`` …, bottom to
top), like ``e5``, the centre of the 9×9 board.

Layout: the board is stored with one guard column, so row ``r`` and file ``f`` is bit
``r * (n + 1) + f`` and file ``n`` of every row is always empty. A move is that bit
number. Because no stone sits in the guard column, shifting a bitboard by 1 (along a
row), ``n + 1`` (a file), ``n + 2`` (a diagonal) or ``n`` (the other diagonal) never
carries a line from one edge to the other; :func:`has_five` finds five in a row with
four shifts and ands.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from functools import cache
from typing import Any

from engine.positions import bad, format_rows, parse_rows, parse_side, split_fields
from engine.protocol import Game, IllegalMoveError, InvalidMoveError, Option, Outcome, Result, State
from engine.symmetry import TRANSFORMS, dihedral

SIZES = (9, 15)
"""Board sizes the game offers."""
FILES = "abcdefghijklmno"
"""File letters of the largest board, left to right."""


class Board:
    """The tables for one board size (shared by every state of that size)."""

    __slots__ = ("cells", "directions", "full", "index", "n", "names", "width")

    def __init__(self, n: int):
        self.n = n
        """Board side."""
        self.width = n + 1
        """Bits per row: ``n`` files and the empty guard column."""
        self.cells = tuple(r * self.width + f for r in range(n) for f in range(n))
        """Every cell's bit number, rank by rank from a1."""
        self.full = sum(1 << c for c in self.cells)
        """Mask of every cell."""
        self.names = {c: f"{FILES[c % self.width]}{c // self.width + 1}" for c in self.cells}
        """Cell bit number -> its name (``e5``)."""
        self.index = {name: c for c, name in self.names.items()}
        """Cell name -> its bit number."""
        self.directions = (1, self.width, self.width + 1, self.width - 1)
        """Bit distances between neighbours along a rank, a file and the two diagonals."""

    def cell(self, file: int, rank: int) -> int:
        """The bit number of ``file`` (0 = a) and ``rank`` (0 = the first rank)."""
        return rank * self.width + file


@cache
def board(n: int) -> Board:
    """The shared tables for board size ``n``."""
    return Board(n)


def has_five(stones: int, width: int) -> bool:
    """True when ``stones`` (one player's bitboard, guard-column layout of row ``width``)
    holds five or more in a line."""
    for d in (1, width, width + 1, width - 1):
        m = stones & stones >> d
        m &= m >> 2 * d
        if m & stones >> 4 * d:
            return True
    return False


_new = object.__new__


class GomokuState(State[int]):
    """A Gomoku position: Black's and White's stones as bitboards, and who has five."""

    __slots__ = ("_board", "black", "ply", "to_move", "white", "winner")
    GAME = "gomoku"
    PLAYERS = ("Black", "White")
    MOVE_SYNTAX = re.compile(r"[a-o](?:1[0-5]|[1-9])")
    ENCODING_VERSION = 1

    black: int
    white: int
    winner: int | None
    """0 or 1 once that player has five in a row, else None."""
    _board: Board

    # -- the protocol ---------------------------------------------------------------
    def legal_moves(self) -> tuple[int, ...]:
        if self.winner is not None:
            return ()
        occupied = self.black | self.white
        return tuple(c for c in self._board.cells if not occupied >> c & 1)

    def play(self, move: int) -> GomokuState:
        geo = self._board
        if move not in geo.names:
            raise IllegalMoveError(f"illegal move {str(move)[:60]!r}: not a cell of the "
                                   f"{geo.n}×{geo.n} board")
        bit = 1 << move
        if (self.black | self.white) & bit or self.winner is not None:
            self._illegal(geo.names[move])
        child = _new(GomokuState)
        child._board = geo
        child.black, child.white = self.black, self.white
        if self.to_move:
            child.white = self.white | bit
            mine = child.white
        else:
            child.black = self.black | bit
            mine = child.black
        child.to_move = 1 - self.to_move
        child.ply = self.ply + 1
        child.winner = self.to_move if has_five(mine, geo.width) else None
        return child

    def outcome(self) -> Outcome | None:
        if self.winner is not None:
            return Outcome(Result.win_for(self.winner), "five in a row")
        if self.black | self.white == self._board.full:
            return Outcome(Result.DRAW, "board full")
        return None

    def key(self) -> Hashable:
        return (self.black, self.white)

    def symmetric_keys(self) -> tuple[tuple[int, int, int], ...]:
        """``(size, Black's stones, White's stones)`` in each of the board's eight
        symmetries (:mod:`engine.symmetry`)."""
        n = self._board.n
        d = dihedral(n, n + 1)
        return tuple((n, d.bits(self.black, s), d.bits(self.white, s))
                     for s in range(len(TRANSFORMS)))

    def symmetric_move(self, move: int, symmetry: int) -> int:
        """The cell's image under ``symmetry``."""
        n = self._board.n
        return dihedral(n, n + 1).cell(move, symmetry)

    def encode(self) -> Any:
        """Two planes of n*n floats, rank by rank from a1: the side to move's stones,
        then the opponent's."""
        import numpy as np

        own, opp = (self.white, self.black) if self.to_move else (self.black, self.white)
        cells = self._board.cells
        out = np.zeros(2 * len(cells), dtype=np.float32)
        for i, c in enumerate(cells):
            out[i] = own >> c & 1
            out[len(cells) + i] = opp >> c & 1
        return out

    def format_move(self, move: int) -> str:
        return self._board.names[move]

    def to_position(self) -> str:
        """Ranks from the top down (``x`` Black, ``o`` White, a number for empty
        points), then the side to move: ``9/9/9/9/4x4/9/9/9/9 o`` on 9×9."""
        geo = self._board
        rows = ["".join("x" if self.black >> c & 1 else "o" if self.white >> c & 1 else "."
                        for c in (geo.cell(f, rank) for f in range(geo.n)))
                for rank in range(geo.n - 1, -1, -1)]
        return f"{format_rows(rows)} {'xo'[self.to_move]}"

    def parse_move(self, text: str) -> int:
        norm = text.strip().lower()
        if not self.MOVE_SYNTAX.fullmatch(norm):
            raise InvalidMoveError(f"invalid gomoku move {text.strip()[:60]!r}")
        move = self._board.index.get(norm)
        if move is None:
            n = self._board.n
            raise InvalidMoveError(f"invalid gomoku move {norm!r}: not on the {n}×{n} board")
        if move not in self.legal_moves():
            if self.winner is None and (self.black | self.white) >> move & 1:
                raise IllegalMoveError(f"illegal move {norm!r}: the point is taken")
            self._illegal(norm)
        return move

    @property
    def options(self) -> dict[str, Any]:
        return {"size": self._board.n}

    # -- board view -----------------------------------------------------------------
    @property
    def size(self) -> int:
        """The board side (9 or 15)."""
        return self._board.n

    @property
    def geometry(self) -> Board:
        """The tables of this board size (cells, names, directions)."""
        return self._board

    def stones(self, player: int) -> int:
        """``player``'s (0 Black, 1 White) stones as a bitboard in the guard-column layout."""
        return self.white if player else self.black

    def cell(self, c: int) -> int | None:
        """0 (Black), 1 (White) or None for the cell with bit number ``c``."""
        if self.black >> c & 1:
            return 0
        if self.white >> c & 1:
            return 1
        return None

    def __str__(self) -> str:
        geo = self._board
        rows = []
        for rank in range(geo.n - 1, -1, -1):
            marks = ("X" if self.black >> c & 1 else "O" if self.white >> c & 1 else "."
                     for c in (geo.cell(f, rank) for f in range(geo.n)))
            rows.append(f"{rank + 1:>2} " + " ".join(marks))
        rows.append("   " + " ".join(FILES[: geo.n]))
        return "\n".join(rows)


class Gomoku(Game):
    """Gomoku: five or more in a row wins, on 9×9 or 15×15."""

    id = "gomoku"
    name = "Gomoku"
    description = "9×9 or 15×15, Black first, five or more in a row wins (freestyle)"
    rules_summary = (
        "Black and White place stones on empty points (9×9 or 15×15);\n"
        "five or more in an unbroken line wins at once (overlines\n"
        "count). A full board with no five is a draw."
    )
    options = (Option("size", 9, SIZES, "board side"),)

    def _initial(self, size: int = 9) -> GomokuState:
        state = _new(GomokuState)
        state._board = board(size)
        state.black = state.white = 0
        state.to_move = state.ply = 0
        state.winner = None
        return state

    def from_position(self, text: str) -> GomokuState:
        """The position ``9/9/9/9/4x4/9/9/9/9 o`` (see :meth:`GomokuState.to_position`);
        the number of ranks gives the size. Black moves first, so Black has as many
        stones as White (Black to move) or one more (White to move); only the side that
        moved last may have five in a row."""
        field, side = split_fields(self.id, text, 2, 2, "BOARD SIDE, like 9/9/9/9/4x4/9/9/9/9 o")
        rows = parse_rows(self.id, text, field.lower(),
                          lambda n: (n,) * n if n in SIZES else None, "xo")
        geo = board(len(rows))
        stones = [0, 0]
        for i, line in enumerate(rows):
            for f, ch in enumerate(line):
                if ch != ".":
                    stones["xo".index(ch)] |= 1 << geo.cell(f, geo.n - 1 - i)
        to_move = parse_side(self.id, text, side)
        if stones[0].bit_count() - stones[1].bit_count() != to_move:
            raise bad(self.id, text, "Black moves first: Black must have as many stones as "
                                     "White with Black to move, one more with White to move")
        if has_five(stones[to_move], geo.width):
            raise bad(self.id, text, "the side to move already has five in a row")
        state = _new(GomokuState)
        state._board = geo
        state.black, state.white = stones
        state.to_move, state.ply = to_move, 0
        state.winner = 1 - to_move if has_five(stones[1 - to_move], geo.width) else None
        return state
