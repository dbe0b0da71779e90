"""Connect Four on two Python-int bitboards in Pascal Pons' layout (docs/RULES.md, Connect Four).

Board: 7 columns × 6 rows. Columns are numbered 0..6 left to right, rows 0..5 bottom to
top. A move is the column number (an int 0..6); its notation is the column ``1``..``7``,
and a game is the string of its columns (``"4453"``).

Bit layout (Pons): cell (column ``c``, row ``r``) is bit ``7 * c + r``; bit ``7 * c + 6``
is an always-empty sentinel row above each column, so adding a column's bottom bit to
the occupancy carries into the first empty cell and never into the next column, and
four in a row is found by shifts: 1 (vertical), 7 (horizontal), 8 and 6 (diagonals).

A state stores ``cur`` (the discs of the side to move) and ``mask`` (all discs); the
side to move and the ply both follow from the number of discs. Red ("X") moves first.
"""

from __future__ import annotations

import re
from typing import Any

from engine.positions import bad, format_rows, parse_rows, parse_side, split_fields
from engine.protocol import Game, IllegalMoveError, InvalidMoveError, Outcome, Result, State

WIDTH = 7
"""Number of columns."""
HEIGHT = 6
"""Number of rows."""
_H1 = HEIGHT + 1  # bits per column, sentinel included

_BOTTOM = tuple(1 << (_H1 * c) for c in range(WIDTH))
"""Bit of each column's bottom cell."""
_COLUMN = tuple(((1 << HEIGHT) - 1) << (_H1 * c) for c in range(WIDTH))
"""The six playable cells of each column."""
_TOP = tuple(1 << (_H1 * c + HEIGHT - 1) for c in range(WIDTH))
"""Bit of each column's top playable cell."""
BOARD = sum(_COLUMN)
"""Every playable cell (the occupancy of a full board)."""
_TOPS = sum(_TOP)

_LEGAL: dict[int, tuple[int, ...]] = {}
"""Non-full columns (ascending), keyed by ``mask & _TOPS``."""
for _full in range(1 << WIDTH):
    _LEGAL[sum(_TOP[c] for c in range(WIDTH) if _full >> c & 1)] = tuple(
        c for c in range(WIDTH) if not _full >> c & 1)
del _full

_NOTATION = tuple(str(c + 1) for c in range(WIDTH))
_PARSE = {text: c for c, text in enumerate(_NOTATION)}

_new = object.__new__


def has_four(discs: int) -> bool:
    """True if the bitboard ``discs`` (one player's) holds four in a row."""
    m = discs & (discs >> 7)
    if m & (m >> 14):
        return True
    m = discs & (discs >> 1)
    if m & (m >> 2):
        return True
    m = discs & (discs >> 8)
    if m & (m >> 16):
        return True
    m = discs & (discs >> 6)
    return bool(m & (m >> 12))


def mirror(bits: int) -> int:
    """The bitboard ``bits`` mirrored: column ``c`` becomes column ``6 - c`` (seven
    columns of seven bits, unrolled)."""
    col = 0x7F
    return ((bits & col) << 42 | (bits >> 7 & col) << 35 | (bits >> 14 & col) << 28
            | (bits >> 21 & col) << 21 | (bits >> 28 & col) << 14 | (bits >> 35 & col) << 7
            | bits >> 42 & col)


def bit(col: int, row: int) -> int:
    """The bitboard bit of cell (``col``, ``row``), both counted from 0."""
    return 1 << (_H1 * col + row)


class ConnectFourState(State[int]):
    """A Connect Four position: the side to move's discs and all discs, as bitboards.

    ``legal_moves()`` is memoized in ``_moves`` (the state is otherwise immutable), and
    ``play`` checks moves against it, so a move into a full column, an unknown column or
    any move after the game ended raises :class:`IllegalMoveError`.
    """

    __slots__ = ("_moves", "cur", "mask")
    GAME = "connect4"
    PLAYERS = ("Red", "Yellow")
    MOVE_SYNTAX = re.compile(r"[1-7]")
    TRANSCRIPTS = True
    ENCODING_VERSION = 1

    cur: int
    """Bitboard of the side to move's discs."""
    mask: int
    """Bitboard of all discs."""
    _moves: tuple[int, ...] | None

    # -- the protocol ---------------------------------------------------------------
    # ply and to_move are attributes in State; here they are derived from the discs.
    @property
    def ply(self) -> int:  # type: ignore[override]
        """Moves played so far (the number of discs on the board)."""
        return self.mask.bit_count()

    @property
    def to_move(self) -> int:  # type: ignore[override]
        """0 when Red (first player) is to move, 1 for Yellow."""
        return self.mask.bit_count() & 1

    def legal_moves(self) -> tuple[int, ...]:
        moves = self._moves
        if moves is None:
            mask = self.mask
            p = self.cur ^ mask  # the discs of the player who just moved
            # has_four(p), inlined: this runs at every node of a search
            if ((m := p & p >> 7) & m >> 14 or (m := p & p >> 1) & m >> 2
                    or (m := p & p >> 8) & m >> 16 or (m := p & p >> 6) & m >> 12):
                moves = ()
            else:
                moves = _LEGAL[mask & _TOPS]
            self._moves = moves
        return moves

    def play(self, move: int) -> ConnectFourState:
        moves = self._moves
        if moves is None:
            moves = self.legal_moves()
        if move not in moves:
            self._reject(move)
        mask = self.mask
        child = ConnectFourState()  # no __init__: faster than object.__new__ here
        child.cur = self.cur ^ mask
        child.mask = mask | (mask + _BOTTOM[move])
        child._moves = None
        return child

    def _reject(self, move: object) -> None:
        """Raise IllegalMoveError for ``move``, which is not in ``legal_moves()``."""
        if type(move) is not int or not 0 <= move < WIDTH:
            raise IllegalMoveError(
                f"illegal move {move!r}: connect4 moves are column indices 0-6")
        text = _NOTATION[move]
        if self.legal_moves():
            raise IllegalMoveError(f"illegal move {text!r}: column {text} is full")
        self._illegal(text)

    def outcome(self) -> Outcome | None:
        if has_four(self.cur ^ self.mask):
            return Outcome(Result.win_for(1 - self.to_move), "four in a row")
        if self.mask == BOARD:
            return Outcome(Result.DRAW, "board full")
        return None

    def key(self) -> int:
        """Pons' unique position key ``cur + mask`` (side to move included)."""
        return self.cur + self.mask

    def symmetric_keys(self) -> tuple[int, int]:
        """The key, and the key of the mirror image (columns 1..7 read right to left)."""
        return (self.cur + self.mask, mirror(self.cur) + mirror(self.mask))

    def symmetric_move(self, move: int, symmetry: int) -> int:
        """The column, or (in the mirror image, ``symmetry`` 1) its mirror column."""
        return WIDTH - 1 - move if symmetry else move

    def encode(self) -> Any:
        """85 floats: own discs (42), opponent discs (42), then 1.0 if Yellow is to move.

        Cells are in row-major order from the bottom row: index ``7 * row + col``. The
        last entry tells the learner which side it plays, which matters for odd/even
        threats.
        """
        import numpy as np

        own, opp = self.cur, self.cur ^ self.mask
        out = np.zeros(2 * WIDTH * HEIGHT + 1, dtype=np.float32)
        for row in range(HEIGHT):
            for col in range(WIDTH):
                b = 1 << (_H1 * col + row)
                i = WIDTH * row + col
                if own & b:
                    out[i] = 1.0
                elif opp & b:
                    out[WIDTH * HEIGHT + i] = 1.0
        out[-1] = float(self.to_move)
        return out

    def format_move(self, move: int) -> str:
        return _NOTATION[move]

    def to_position(self) -> str:
        """Rows from the top down (``x`` Red, ``o`` Yellow, a digit for empty cells),
        then the side to move: ``7/7/7/7/3o3/3x3 x``."""
        rows = ["".join("." if c is None else "xo"[c]
                        for c in (self.cell(col, row) for col in range(WIDTH)))
                for row in range(HEIGHT - 1, -1, -1)]
        return f"{format_rows(rows)} {'xo'[self.to_move]}"

    def parse_move(self, text: str) -> int:
        """The column written ``text`` (``"1"``..``"7"``) if legal here."""
        norm = text.strip()
        move = _PARSE.get(norm)
        if move is None:
            raise InvalidMoveError(
                f"invalid connect4 move {norm!r}: expected a column 1-7")
        if move not in self.legal_moves():
            self._reject(move)
        return move

    # -- board access for views -----------------------------------------------------
    def cell(self, col: int, row: int) -> int | None:
        """0 (Red), 1 (Yellow) or None for the cell at ``col`` 0..6, ``row`` 0..5 (bottom 0)."""
        b = 1 << (_H1 * col + row)
        if not self.mask & b:
            return None
        mine = bool(self.cur & b)
        # ``cur`` holds the side to move's discs
        return self.to_move if mine else 1 - self.to_move

    def height(self, col: int) -> int:
        """Number of discs in column ``col`` (the row a disc dropped there lands on)."""
        return (self.mask & _COLUMN[col]).bit_count()

    def discs(self, player: int) -> int:
        """Bitboard of ``player``'s discs (0 Red, 1 Yellow), in the module's bit layout."""
        return self.cur if player == self.to_move else self.cur ^ self.mask

    def __str__(self) -> str:
        marks = ".XO"
        rows = []
        for row in range(HEIGHT - 1, -1, -1):
            cells = (self.cell(col, row) for col in range(WIDTH))
            rows.append(" ".join(marks[0 if c is None else c + 1] for c in cells))
        rows.append(" ".join(_NOTATION))
        return "\n".join(rows)


class ConnectFour(Game):
    """Connect Four: drop discs into 7 columns of 6; four in a row wins."""

    id = "connect4"
    name = "Connect Four"
    description = "7×6, Red first, four in a row wins"
    rules_summary = (
        "Red and Yellow drop discs into 7 columns; a disc falls to\n"
        "the lowest free cell. Four in a row in any direction wins;\n"
        "a full rack with none is a draw."
    )

    def _initial(self) -> ConnectFourState:
        state = _new(ConnectFourState)
        state.cur = state.mask = 0
        state._moves = None
        return state

    def from_position(self, text: str) -> ConnectFourState:
        """The position ``7/7/7/7/3o3/3x3 x`` (see :meth:`ConnectFourState.to_position`).

        Discs rest on discs or the bottom; Red moves first, so Red has as many discs as
        Yellow (Red to move) or one more (Yellow to move), and the side to move has no
        four in a row (the game would have ended on the other side's move).
        """
        board, side = split_fields(self.id, text, 2, 2, "BOARD SIDE, like 7/7/7/7/7/3x3 o")
        rows = parse_rows(self.id, text, board.lower(),
                          lambda n: (WIDTH,) * HEIGHT if n == HEIGHT else None, "xo")
        discs = [0, 0]
        for i, line in enumerate(rows):
            row = HEIGHT - 1 - i
            for col, ch in enumerate(line):
                if ch != ".":
                    if row and rows[i + 1][col] == ".":
                        raise bad(self.id, text, f"the disc in column {col + 1} floats "
                                                 "above an empty cell")
                    discs["xo".index(ch)] |= bit(col, row)
        to_move = parse_side(self.id, text, side)
        if discs[0].bit_count() - discs[1].bit_count() != to_move:
            raise bad(self.id, text, "Red moves first: Red must have as many discs as "
                                     "Yellow with Red to move, one more with Yellow to move")
        if has_four(discs[to_move]):
            raise bad(self.id, text, "the side to move already has four in a row")
        state = _new(ConnectFourState)
        state.cur = discs[to_move]
        state.mask = discs[0] | discs[1]
        state._moves = None
        return state
