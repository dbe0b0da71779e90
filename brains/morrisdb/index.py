"""Numbering every Five Men's Morris position, and generating moves for many at once.

A position is seen from the side to move: ``own`` and ``opp`` are 16-bit boards (bit
``p`` is point ``p`` of :mod:`engine.games.morris`), ``ho`` and ``hp`` the pieces each
side still has in hand. White places first and the players alternate, so in every game
the hands are ``(h, h)`` (White to move) or ``(h + 1, h)`` (Black to move); other pairs
never occur and are not numbered.

Positions fall into *classes* by ``(ho, hp, a, b)``: hands and the number of pieces
``a`` (own) and ``b`` (opponent) on the board. Within a class a position's number is

    rank(own) * C(16 - a, b) + rank(opp squeezed into the 16 - a points own leaves free)

where ``rank`` is the colexicographic rank of a set among the sets of its size (which
for bitmasks is simply their numeric order). Classes are laid end to end in the order
they are solved, so a position's global number is its class offset plus that.

A class exists only where both sides could still play on: the side to move with
``a + ho < 3`` has already lost (such positions are not stored; their value is
"loss in 0"), and the opponent with ``b + hp < 3`` would have lost on its own turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from engine.games.morris import ADJACENT, MILL_MASKS, PIECES
from engine.protocol import ParlorError

POINTS = 16
FULL = (1 << POINTS) - 1

# -- bit tables over all 16-bit masks ------------------------------------------------
_ALL = np.arange(1 << POINTS, dtype=np.int64)
POPCOUNT = np.zeros(1 << POINTS, dtype=np.int64)
for _p in range(POINTS):
    POPCOUNT += (_ALL >> _p) & 1
MASKS: tuple[np.ndarray, ...] = tuple(
    np.flatnonzero(k == POPCOUNT).astype(np.int64) for k in range(POINTS + 1))
"""``MASKS[k]``: every 16-bit mask with ``k`` bits set, in numeric (= colex) order."""
RANK = np.zeros(1 << POINTS, dtype=np.int64)
for _k in range(POINTS + 1):
    RANK[MASKS[_k]] = np.arange(len(MASKS[_k]))
"""``RANK[mask]``: the mask's position in ``MASKS[popcount(mask)]``."""


def _byte_tables() -> tuple[np.ndarray, np.ndarray]:
    """pext and pdep for 8-bit values: ``T[x << 8 | m]``."""
    x, m = _ALL >> 8, _ALL & 0xFF
    pext = np.zeros(1 << 16, dtype=np.int64)
    pdep = np.zeros(1 << 16, dtype=np.int64)
    for p in range(8):
        rank = POPCOUNT[m & ((1 << p) - 1)]  # the place of bit p among m's bits
        in_m = (m >> p) & 1
        pext |= (in_m & (x >> p)) << rank
        pdep |= (in_m & (x >> rank)) << p
    return pext, pdep


_PEXT8, _PDEP8 = _byte_tables()


def pext(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The bits of ``x`` at the set points of ``mask``, packed to the low end."""
    lo_m = mask & 0xFF
    lo = _PEXT8[(x & 0xFF) << 8 | lo_m]
    hi = _PEXT8[((x >> 8) & 0xFF) << 8 | (mask >> 8)]
    result: np.ndarray = lo | hi << POPCOUNT[lo_m]
    return result


def pdep(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The low bits of ``x`` spread onto the set points of ``mask`` (pext's inverse)."""
    lo_m = mask & 0xFF
    lo = _PDEP8[(x & 0xFF) << 8 | lo_m]
    hi = _PDEP8[((x >> POPCOUNT[lo_m]) & 0xFF) << 8 | (mask >> 8)]
    result: np.ndarray = lo | hi << 8
    return result


def milled(opp: np.ndarray) -> np.ndarray:
    """The points of each board that stand in one of its own mills."""
    out = np.zeros_like(opp)
    for m in MILL_MASKS:
        out |= np.where(opp & m == m, m, 0)
    return out


def removable(opp: np.ndarray) -> np.ndarray:
    """The pieces a mill may take from each board: those outside mills, else all."""
    free = opp & ~milled(opp)
    return np.where(free == 0, opp, free)


_MILLS_AT = tuple(tuple(m for m in MILL_MASKS if m >> p & 1) for p in range(POINTS))
STEPS = tuple((f, t) for f in range(POINTS) for t in ADJACENT[f])
"""Every move along a line, as (from, to)."""
FLIGHTS = tuple((f, t) for f in range(POINTS) for t in range(POINTS) if f != t)
"""Every move of a flying piece, as (from, to)."""


# -- classes ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Class:
    """All positions with hands ``(ho, hp)`` and ``a`` / ``b`` pieces on the board."""

    ho: int
    hp: int
    a: int
    b: int
    offset: int

    @property
    def size(self) -> int:
        """How many positions the class numbers."""
        return comb(POINTS, self.a) * comb(POINTS - self.a, self.b)

    @property
    def opp_count(self) -> int:
        """C(16 - a, b): how many opponent sets go with one own set."""
        return comb(POINTS - self.a, self.b)

    @property
    def phase(self) -> str:
        """'placing' while a hand is not empty, else 'flying' when the side to move
        has three pieces, else 'moving'."""
        if self.ho or self.hp:
            return "placing"
        return "flying" if self.a == 3 else "moving"

    @property
    def key(self) -> tuple[int, int, int, int]:
        return (self.ho, self.hp, self.a, self.b)


def hand_pairs(pieces: int) -> list[tuple[int, int]]:
    """The (own, opponent) hands of every position, in the order they are solved."""
    pairs = [(0, 0)]
    for h in range(pieces):
        pairs += [(h + 1, h), (h + 1, h + 1)]
    return pairs


class Layout:
    """Where every class of a game with ``pieces`` pieces a side lies in the table."""

    def __init__(self, pieces: int = PIECES) -> None:
        if not 3 <= pieces <= PIECES:
            raise ParlorError(f"morris database: pieces must be 3..{PIECES}, not {pieces!r}")
        self.pieces = pieces
        keys: list[tuple[int, int, int, int]] = []
        for ho, hp in hand_pairs(pieces):
            counts = [(a, b) for a in range(max(0, 3 - ho), pieces - ho + 1)
                      for b in range(max(0, 3 - hp), pieces - hp + 1)]
            if (ho, hp) == (0, 0):  # (a, b) beside (b, a): the two solve together
                counts.sort(key=lambda ab: (ab[0] + ab[1], max(ab), min(ab), ab[0] < ab[1]))
            keys += [(ho, hp, a, b) for a, b in counts]
        self.classes: list[Class] = []
        offset = 0
        for key in keys:
            cls = Class(*key, offset)
            self.classes.append(cls)
            offset += cls.size
        self.size = offset
        self.by_key = {c.key: c for c in self.classes}

    def find(self, ho: int, hp: int, a: int, b: int) -> Class | None:
        """The class with those hands and counts, or None where none is numbered."""
        return self.by_key.get((ho, hp, a, b))

    def groups(self) -> Iterator[list[Class]]:
        """The classes in solving order, grouped so that every move leads out of the
        group to one solved before it, or stays inside (moves without a removal in
        the moving phase, which lead from (a, b) to (b, a))."""
        done: set[tuple[int, int, int, int]] = set()
        for cls in self.classes:
            if cls.key in done:
                continue
            group = [cls]
            if not cls.ho and not cls.hp and cls.a != cls.b:
                group.append(self.by_key[(0, 0, cls.b, cls.a)])
            done.update(c.key for c in group)
            yield group

    def boards(self, cls: Class, local: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The (own, opp) boards of the positions numbered ``local`` within ``cls``."""
        nb = cls.opp_count
        own = MASKS[cls.a][local // nb]
        opp = pdep(MASKS[cls.b][local % nb], FULL & ~own)
        return own, opp

    def local_index(self, cls: Class, own: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """The numbers within ``cls`` of the boards (own, opp)."""
        result: np.ndarray = RANK[own] * cls.opp_count + RANK[pext(opp, FULL & ~own)]
        return result

    def index(self, cls: Class, own: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """The global numbers of the boards (own, opp) of class ``cls``."""
        return cls.offset + self.local_index(cls, own, opp)


@cache
def layout(pieces: int = PIECES) -> Layout:
    """The (shared) layout for ``pieces`` pieces a side."""
    return Layout(pieces)


# -- moves --------------------------------------------------------------------------
@dataclass(slots=True)
class Moves:
    """One kind of move, made from the positions ``rows`` of a batch.

    ``frm`` is None for a placement and ``removed`` None without a removal, as in the
    engine's move tuples. ``child`` is the class of the positions reached (None when
    the side that moves next has fewer than three pieces: it has lost) and ``own`` /
    ``opp`` their boards, from the next side to move's view.
    """

    frm: int | None
    to: int
    removed: int | None
    rows: np.ndarray
    child: Class | None
    own: np.ndarray
    opp: np.ndarray


def moves(lay: Layout, cls: Class, own: np.ndarray, opp: np.ndarray) -> Iterator[Moves]:
    """Every legal move from the positions (own, opp) of class ``cls``, by kind.

    The rules are those of :class:`engine.games.morris.MorrisState` without its draws:
    place while pieces are in hand, else move along a line (fly anywhere with three);
    a move that brings the arriving piece into a full line removes one opposing piece
    outside mills (any piece if all stand in mills; nothing if none is on the board).
    """
    empty = FULL & ~(own | opp)
    victims = removable(opp)
    if cls.ho:
        kinds: tuple[tuple[int | None, int], ...] = tuple((None, t) for t in range(POINTS))
        next_hands = (cls.hp, cls.ho - 1)
        a_after = cls.a + 1
    else:
        kinds = FLIGHTS if cls.a == 3 else STEPS
        next_hands = (cls.hp, 0)
        a_after = cls.a
    plain = lay.find(next_hands[0], next_hands[1], cls.b, a_after)
    taken = lay.find(next_hands[0], next_hands[1], cls.b - 1, a_after)
    if cls.b - 1 + next_hands[0] < 3:
        taken = None
    for frm, to in kinds:
        legal = (empty >> to) & 1
        if frm is not None:
            legal &= own >> frm
        rows = np.flatnonzero(legal & 1)
        if not len(rows):
            continue
        after = own[rows] | (1 << to)
        if frm is not None:
            after ^= 1 << frm
        mill = np.zeros(len(rows), dtype=bool)
        for m in _MILLS_AT[to]:
            mill |= after & m == m
        if cls.b == 0:  # a mill with no opposing piece on the board removes nothing
            mill[:] = False
        quiet = ~mill
        if quiet.any():
            yield Moves(frm, to, None, rows[quiet], plain, opp[rows[quiet]], after[quiet])
        if not mill.any():
            continue
        m_rows, m_after, m_opp = rows[mill], after[mill], opp[rows[mill]]
        m_victims = victims[m_rows]
        for r in range(POINTS):
            hit = np.flatnonzero((m_victims >> r) & 1)
            if len(hit):
                yield Moves(frm, to, r, m_rows[hit], taken, m_opp[hit] ^ (1 << r),
                            m_after[hit])


_PEXT8_LIST = _PEXT8.tolist()
_POP_LIST = POPCOUNT[:256].tolist()
_RANK_LIST = RANK.tolist()


def local_index_of(cls: Class, own: int, opp: int) -> int:
    """:meth:`Layout.local_index` for one position given as Python ints."""
    free = FULL & ~own
    lo_m = free & 0xFF
    squeezed = (_PEXT8_LIST[(opp & 0xFF) << 8 | lo_m]
                | _PEXT8_LIST[(opp >> 8 & 0xFF) << 8 | free >> 8] << _POP_LIST[lo_m])
    result: int = _RANK_LIST[own] * cls.opp_count + _RANK_LIST[squeezed]
    return result
