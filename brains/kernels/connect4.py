"""The Connect Four solver's search core, compiled by numba (see :mod:`brains.c4solver`).

Everything here works on Pons' bitboard layout held in int64: column ``c`` owns bits
``7c .. 7c+5`` and bit ``7c+6`` stays empty; ``cur`` holds the side to move's stones,
``mask`` all stones. Every integer is int64 (mixing numba's unsigned and signed integers
turns arithmetic into floats).

The transposition table is one int64 array whose length is a prime P of at least
:data:`MIN_TABLE`: slot ``key % P`` holds, for a position of key ``cur + mask``, the low
32 bits of the key (bits 16-47), ``64 + lower bound`` (bits 8-15) and ``64 - upper
bound`` (bits 0-7). A key is below 2^49, so the slot and the low 32 bits together tell
keys apart (Chinese remainder theorem: P * 2^32 > 2^49). A zero slot reads as bounds that
say nothing (-64, 64), so the table starts (and is cleared) as zeros and a false match
on an empty slot is harmless.

``work`` (int64) carries the search's counters and scratch: ``work[NODES]`` the nodes
searched, ``work[ABORTED]`` set when the search gave up, ``work[LIMIT]`` a node count to
give up at (0: none), ``work[STOP]`` written by another thread (non-zero asks the search
to give up; read every 1,024 nodes, and the entry points release the GIL); from
``SCRATCH`` on, 24 words a ply for move ordering.

The recursive search (:func:`_negamax`, :func:`_solve`) is compiled without numba's
reference counting (``_nrt=False``): it allocates nothing and its arrays are held by the
entry points' callers, while counting the references of its three array arguments on
every call (atomic increments and decrements) took about a sixth of the search's time
(12 positions of 10 stones, 22.4 M nodes: 3.20 -> 2.66 CPU s).

Before searching the children of a position of fewer than :data:`ETC_BEFORE` stones,
the search looks each of them up in the table and stops at once when one's stored upper
bound already gives a score of at least ``beta`` (an enhanced transposition cutoff).

The opening book, when given, is ``book`` (int64, sorted): ``key << 7 | (64 + score)``
for each position of ``bdepth`` stones, ``key`` the smaller of the position's key and
its mirror image's; a search reaching that many stones looks the position up before
searching it (an empty ``book`` looks up nothing).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from brains.kernels import no_refcount

WIDTH = 7
HEIGHT = 6
CELLS = 42
BOTTOM = 0x40810204081
"""One bit at the bottom of every column."""
BOARD = BOTTOM * 63
"""Every playable cell."""
COLUMNS = np.array([63 << (7 * c) for c in range(WIDTH)], dtype=np.int64)
ORDER = np.array([3, 2, 4, 1, 5, 0, 6], dtype=np.int64)
LOW32 = 0xFFFFFFFF
MIN_TABLE = 131101
"""The smallest table length allowed (a prime above 2^17, so keys stay unambiguous)."""
NODES, ABORTED, LIMIT, STOP, SCRATCH = 0, 1, 2, 3, 8
FULL = 100
"""The score :func:`analyse` gives a full column."""
BIAS = 64
ETC_BEFORE = 30
"""Positions of fewer stones look their children up in the table before searching any
(an enhanced transposition cutoff: a child whose stored upper bound already refutes it
ends the search). 24 random 9-stone positions, a fresh table each: 75.3 M nodes, 7.4 CPU
s without; 60.8 M, 6.5 s with (the lookups cost memory latency, so the positions near
the end, whose subtrees are small, skip them; 36 cuts more nodes and runs slower)."""


def new_table(size: int) -> np.ndarray:
    """An empty table of ``size`` slots (a prime >= MIN_TABLE)."""
    return np.zeros(size, dtype=np.int64)


def new_work() -> np.ndarray:
    """The ``work`` array of one solver."""
    return np.zeros(SCRATCH + 24 * (CELLS + 1), dtype=np.int64)


@njit(cache=True)
def winning_cells(s: int, mask: int) -> int:
    """Empty cells that would complete four for stones ``s``."""
    r = (s << 1) & (s << 2) & (s << 3)
    p = (s << 7) & (s << 14)
    r |= (p & (s << 21)) | (p & (s >> 7))
    p = (s >> 7) & (s >> 14)
    r |= (p & (s << 7)) | (p & (s >> 21))
    p = (s << 6) & (s << 12)
    r |= (p & (s << 18)) | (p & (s >> 6))
    p = (s >> 6) & (s >> 12)
    r |= (p & (s << 6)) | (p & (s >> 18))
    p = (s << 8) & (s << 16)
    r |= (p & (s << 24)) | (p & (s >> 8))
    p = (s >> 8) & (s >> 16)
    r |= (p & (s << 8)) | (p & (s >> 24))
    return r & (BOARD ^ mask)


@njit(cache=True)
def _count(x: int) -> int:
    """Set bits of ``x`` (below 2^62)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def _mirror(x: int) -> int:
    r = 0
    for c in range(WIDTH):
        r |= ((x >> (7 * c)) & 127) << (7 * (WIDTH - 1 - c))
    return r


@no_refcount
def _negamax(cur, mask, moves, alpha, beta, threats,  # type: ignore[no-untyped-def]
             table, work, book, bdepth):
    """Negamax with alpha-beta (``alpha < beta``); the side to move cannot win at once
    and ``threats`` are the empty cells where the opponent would complete four.
    Pons' contract: a true score v <= alpha gives r with v <= r <= alpha; v >= beta
    gives beta <= r <= v; otherwise v itself. Returns 0 with work[ABORTED] set when
    asked to stop."""
    nodes = work[0] + 1
    work[0] = nodes
    if (nodes & 1023) == 0 and (work[3] != 0 or (work[2] > 0 and nodes >= work[2])):
        work[1] = 1
        return 0
    possible = (mask + BOTTOM) & BOARD
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return -((CELLS - moves) // 2)  # two threats: the opponent wins next
        possible = forced
    nxt = possible & ~(threats >> 1)
    if nxt == 0:
        return -((CELLS - moves) // 2)
    if moves >= CELLS - 2:
        return 0
    low = -((CELLS - 2 - moves) // 2)  # no loss before the opponent's next stone but one
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    key = cur + mask
    if moves == bdepth:
        canon = min(key, _mirror(cur) + _mirror(mask)) << 7
        at = np.searchsorted(book, canon)
        if at < book.shape[0] and (book[at] >> 7) == (canon >> 7):
            return (book[at] & 127) - BIAS
    high = (CELLS - 1 - moves) // 2  # no win with our next stone
    slot = key % table.shape[0]
    part = key & LOW32
    entry = table[slot]
    if (entry >> 16) == part:
        stored = ((entry >> 8) & 255) - BIAS
        if stored > low:
            low = stored
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
        stored = BIAS - (entry & 255)
        if stored < high:
            high = stored
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    # order the moves: most winning cells made first, ties centre first (stable)
    base = SCRATCH + 24 * moves
    free = BOARD ^ mask
    n = 0
    for i in range(WIDTH):
        move = nxt & COLUMNS[ORDER[i]]
        if move:
            made = winning_cells(cur | move, mask) & free
            score = _count(made)
            j = n
            while j > 0 and work[base + 8 + j - 1] < score:
                work[base + j] = work[base + j - 1]
                work[base + 8 + j] = work[base + 8 + j - 1]
                work[base + 16 + j] = work[base + 16 + j - 1]
                j -= 1
            work[base + j] = move
            work[base + 8 + j] = score
            work[base + 16 + j] = made
            n += 1
    alpha0 = alpha
    opp = cur ^ mask
    if moves < ETC_BEFORE:  # enhanced transposition cutoff: a child already refuted
        for i in range(n):
            child = opp + (mask | work[base + i])
            entry = table[child % table.shape[0]]
            if (entry >> 16) == (child & LOW32):
                stored = (entry & 255) - BIAS  # minus the child's upper bound
                if stored >= beta:
                    return stored
    for i in range(n):
        score = -_negamax(opp, mask | work[base + i], moves + 1, -beta, -alpha,
                          work[base + 16 + i], table, work, book, bdepth)
        if work[1]:
            return 0
        if score >= beta:
            table[slot] = (part << 16) | ((score + BIAS) << 8) | (BIAS - high)
            return score
        if score > alpha:
            alpha = score
    if alpha > alpha0:
        table[slot] = (part << 16) | ((alpha + BIAS) << 8) | (BIAS - alpha)
    else:
        table[slot] = (part << 16) | ((low + BIAS) << 8) | (BIAS - alpha)
    return alpha


@njit(cache=True)
def _can_win_next(cur: int, mask: int) -> bool:
    return (winning_cells(cur, mask) & (mask + BOTTOM) & BOARD) != 0


@no_refcount
def _solve(cur, mask, moves, weak, table, work, book, bdepth):  # type: ignore[no-untyped-def]
    if _can_win_next(cur, mask):
        return 1 if weak else (CELLS + 1 - moves) // 2
    if moves >= CELLS:
        return 0
    lo = -((CELLS - moves) // 2)
    hi = (CELLS + 1 - moves) // 2
    if weak:
        lo, hi = -1, 1
    threats = winning_cells(cur ^ mask, mask)
    while lo < hi:  # null windows [med, med + 1], probing near 0 first
        med = lo + (hi - lo) // 2
        if med <= 0 and int(lo / 2) < med:
            med = int(lo / 2)
        elif med >= 0 and int(hi / 2) > med:
            med = int(hi / 2)
        r = _negamax(cur, mask, moves, med, med + 1, threats, table, work, book, bdepth)
        if work[1]:
            return 0
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:
        return 1 if lo > 0 else (-1 if lo < 0 else 0)
    return lo


@njit(cache=True, nogil=True)
def solve(cur, mask, moves, weak, table, work, book, bdepth):  # type: ignore[no-untyped-def]
    """The exact score of the position for the side to move (Pons' convention), or with
    ``weak`` its sign; 0 with work[ABORTED] set if stopped."""
    return _solve(cur, mask, moves, weak, table, work, book, bdepth)


@njit(cache=True, nogil=True)
def analyse(cur, mask, moves, weak, table, work, book, bdepth,  # type: ignore[no-untyped-def]
            out):
    """Each column's score for the side to move if played now into ``out[0..6]``
    (FULL for a full column); stops early with work[ABORTED] set if asked."""
    for c in range(WIDTH):
        out[c] = FULL
    wins = winning_cells(cur, mask)
    for i in range(WIDTH):
        c = ORDER[i]
        move = ((mask + BOTTOM) & BOARD) & COLUMNS[c]
        if move == 0:
            continue
        if wins & move:
            out[c] = 1 if weak else (CELLS + 1 - moves) // 2
            continue
        out[c] = -_solve(cur ^ mask, mask | move, moves + 1, weak, table, work, book, bdepth)
        if work[1]:
            return


def no_book() -> tuple[np.ndarray, np.int64]:
    """(book, bdepth) that look nothing up."""
    return np.zeros(0, dtype=np.int64), np.int64(-1)


def make_book(scores: dict[int, int], depth: int) -> tuple[np.ndarray, np.int64]:
    """(book, bdepth) for ``scores`` (canonical key -> score) of positions of ``depth``
    stones."""
    if not scores:
        return no_book()
    packed = sorted((key << 7) | (score + BIAS) for key, score in scores.items())
    return np.array(packed, dtype=np.int64), np.int64(depth)


def warm_up() -> None:
    """Compile (or load from the disk cache) every entry point on a tiny position."""
    table, work = new_table(MIN_TABLE), new_work()
    book = no_book()
    out = np.zeros(WIDTH, dtype=np.int64)
    work[LIMIT] = 1  # give up at once (after the first check, 1,024 nodes in)
    analyse(np.int64(0), np.int64(0), np.int64(0), False, table, work, *book, out)
    work[:] = 0
    work[LIMIT] = 1
    solve(np.int64(0), np.int64(0), np.int64(0), True, table, work, *book)
