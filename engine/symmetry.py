"""The symmetries of a square board, for games whose rules keep them.

A game whose rules do not change when its board is turned or mirrored (Reversi,
Gomoku, tic-tac-toe) has eight equivalent forms of every position. ``State.symmetric_keys``
gives a position's key in each of them and ``State.symmetric_move`` carries a move
along, so that tools which collect positions (the opening explorer) count a position
and its images as one. :class:`Dihedral` holds the tables for one board: cell (rank
``r``, file ``c``) is bit ``r * width + c`` of a bitboard (``width`` may exceed ``n`` where a
guard column pads each rank).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

TRANSFORMS: tuple[Callable[[int, int, int], tuple[int, int]], ...] = (
    lambda r, c, n: (r, c),  # identity
    lambda r, c, n: (r, n - 1 - c),  # mirrored left-right
    lambda r, c, n: (n - 1 - r, c),  # mirrored top-bottom
    lambda r, c, n: (n - 1 - r, n - 1 - c),  # turned half round
    lambda r, c, n: (c, r),  # mirrored in the a1-h8 diagonal
    lambda r, c, n: (c, n - 1 - r),  # turned a quarter one way
    lambda r, c, n: (n - 1 - c, r),  # turned a quarter the other way
    lambda r, c, n: (n - 1 - c, n - 1 - r),  # mirrored in the other diagonal
)
"""The eight symmetries of a square, as maps of (rank, file) on an ``n``×``n`` board; the
identity first."""


class Dihedral:
    """The eight symmetries of an ``n``×``n`` board laid out ``width`` bits per rank:
    :meth:`cell` maps a cell's bit number, :meth:`bits` a whole bitboard (by byte tables,
    so a 64-cell board takes eight look-ups per symmetry)."""

    __slots__ = ("cells", "n", "nbytes", "tables", "width")

    def __init__(self, n: int, width: int | None = None):
        self.n = n
        self.width = width = n if width is None else width
        size = n * width
        self.nbytes = (size + 7) // 8
        cells: list[dict[int, int]] = []
        tables: list[tuple[tuple[int, ...], ...]] = []
        for transform in TRANSFORMS:
            image = {}
            for r in range(n):
                for c in range(n):
                    r2, c2 = transform(r, c, n)
                    image[r * width + c] = r2 * width + c2
            cells.append(image)
            per_byte = []
            for j in range(self.nbytes):
                table = []
                for value in range(256):
                    out = 0
                    for b in range(8):
                        if value >> b & 1 and 8 * j + b in image:
                            out |= 1 << image[8 * j + b]
                    table.append(out)
                per_byte.append(tuple(table))
            tables.append(tuple(per_byte))
        self.cells = tuple(cells)
        """Per symmetry: cell bit number -> the bit number of its image."""
        self.tables = tuple(tables)
        """Per symmetry, per byte of a bitboard: byte value -> the image of its bits."""

    def cell(self, bit: int, symmetry: int) -> int:
        """The image of cell ``bit`` under ``symmetry`` (an index into :data:`TRANSFORMS`)."""
        return self.cells[symmetry][bit]

    def bits(self, board: int, symmetry: int) -> int:
        """The image of the bitboard ``board`` (cells only) under ``symmetry``."""
        if not board or not symmetry:
            return board
        out = 0
        for table in self.tables[symmetry]:
            if board & 0xFF:
                out |= table[board & 0xFF]
            board >>= 8
            if not board:
                break
        return out

    def images(self, board: int) -> tuple[int, ...]:
        """The bitboard's image under each of the eight symmetries, the identity first
        (on an 8×8 board without guard bits, by the shifts of :func:`images64`)."""
        if not board:
            return (0,) * len(TRANSFORMS)
        if self.n == self.width == 8:
            return images64(board)
        return tuple(self.bits(board, s) for s in range(len(TRANSFORMS)))


_K1, _K2, _K4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F
_D1, _D2, _D4 = 0x5500550055005500, 0x3333000033330000, 0x0F0F0F0F00000000


def _files_reversed(x: int) -> int:
    """An 8×8 bitboard (a1 = bit 0, rank by rank) mirrored left-right."""
    x = (x >> 1 & _K1) | (x & _K1) << 1
    x = (x >> 2 & _K2) | (x & _K2) << 2
    return (x >> 4 & _K4) | (x & _K4) << 4


def _ranks_reversed(x: int) -> int:
    """An 8×8 bitboard mirrored top-bottom (its bytes in reverse order)."""
    return int.from_bytes(x.to_bytes(8, "little"), "big")


def _transposed(x: int) -> int:
    """An 8×8 bitboard mirrored in the a1-h8 diagonal (rank and file swapped)."""
    t = _D4 & (x ^ x << 28)
    x ^= t ^ t >> 28
    t = _D2 & (x ^ x << 14)
    x ^= t ^ t >> 14
    t = _D1 & (x ^ x << 7)
    return x ^ t ^ t >> 7


def images64(x: int) -> tuple[int, ...]:
    """The eight images of an 8×8 bitboard, in the order of :data:`TRANSFORMS`."""
    h = _files_reversed(x)
    v = _ranks_reversed(x)
    t = _transposed(x)
    th = _files_reversed(t)
    return (x, h, v, _ranks_reversed(h), t, th, _ranks_reversed(t), _ranks_reversed(th))


@cache
def dihedral(n: int, width: int | None = None) -> Dihedral:
    """The shared tables for an ``n``×``n`` board of ``width`` bits per rank."""
    return Dihedral(n, width)
