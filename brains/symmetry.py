"""Symmetries of square boards, for the games' canonical keys (puzzles are deduplicated
by them: a position and its mirror image are one puzzle).

A board of ``n`` by ``n`` cells numbered row by row (cell ``r * n + c``) has eight
symmetries (the dihedral group: four rotations, each with or without a reflection).
:func:`square_symmetries` gives each as a permutation of the cells, and
:func:`permute_bits` applies one to a bitboard.
"""

from __future__ import annotations

from functools import cache


@cache
def square_symmetries(n: int) -> tuple[tuple[int, ...], ...]:
    """The eight symmetries of an ``n`` x ``n`` board, the identity first: each maps
    cell ``i`` to cell ``perm[i]``."""
    out: list[tuple[int, ...]] = []
    for flip in (False, True):
        for turns in range(4):
            perm = []
            for cell in range(n * n):
                r, c = divmod(cell, n)
                if flip:
                    c = n - 1 - c
                for _ in range(turns):
                    r, c = c, n - 1 - r
                perm.append(r * n + c)
            out.append(tuple(perm))
    return tuple(out)


def permute_bits(bits: int, perm: tuple[int, ...]) -> int:
    """``bits`` with bit ``i`` moved to bit ``perm[i]``."""
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << perm[low.bit_length() - 1]
        bits ^= low
    return out
