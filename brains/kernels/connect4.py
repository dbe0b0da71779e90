"""The Connect Four solver's search core, compiled by numba (see :mod:`brains.c4solver`).

Everything here works on Pons' bitboard layout held in int64: column ``c`` owns bits
``7c .. 7c+5`` and bit ``7c+6`` stays empty; ``cur`` holds the side to move's stones,
``mask`` all stones. Every integer is int64 (mixing numba's unsigned and signed integers
turns arithmetic into floats).

The transposition table is three numpy arrays of one length, a prime P of at least
:data:`MIN_TABLE`: ``keys`` (uint32) holds the low 32 bits of a position's key
``cur + mask`` in slot ``key % P``; ``lows`` and ``highs`` (int8) its lower and upper
score bounds, stored as ``64 + lower`` and ``64 - upper`` (uint8). A key is below 2^49,
so the slot and the low 32 bits together tell keys apart (Chinese remainder theorem:
P * 2^32 > 2^49). A zeroed slot reads as bounds that say nothing (-64, 64), so the
arrays start (and are cleared) as zeros and a false match on an empty slot is harmless.

``state`` (int64[4]) carries the search's counters: ``state[NODES]`` the nodes searched,
``state[ABORTED]`` set when the search gave up, ``state[LIMIT]`` a node count to give up
at (0: none). ``stop`` (int64[1]) is written by another thread: non-zero asks the search
to give up (it is read every 1,024 nodes; the entry points release the GIL).
``buf`` (int64[43, 24]) is scratch for move ordering, one row per ply.

The opening book, when given, is ``bkeys`` (int64, sorted), ``bscores`` (int64) and
``bdepth``: the exact scores of positions of ``bdepth`` stones, keyed by the smaller of
the position's key and its mirror image's; a search reaching that many stones looks the
position up before searching it (an empty ``bkeys`` looks up nothing).
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
NODES, ABORTED, LIMIT = 0, 1, 2
FULL = 100
"""The score :func:`analyse` gives a full column."""
BIAS = 64


def new_table(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty table of ``size`` slots (a prime >= MIN_TABLE)."""
    keys = np.zeros(size, dtype=np.uint32)
    lows = np.zeros(size, dtype=np.uint8)
    highs = np.zeros(size, dtype=np.uint8)
    return keys, lows, highs


def new_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(buf, state, stop) arrays for one solver."""
    return (np.zeros((CELLS + 1, 24), dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(1, dtype=np.int64))


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
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _mirror(x: int) -> int:
    r = 0
    for c in range(WIDTH):
        r |= ((x >> (7 * c)) & 127) << (7 * (WIDTH - 1 - c))
    return r


@njit(cache=True)
def _negamax(cur, mask, moves, alpha, beta, threats,  # type: ignore[no-untyped-def]
             keys, lows, highs, buf, state, stop, bkeys, bscores, bdepth):
    """Negamax with alpha-beta (``alpha < beta``); the side to move cannot win at once
    and ``threats`` are the empty cells where the opponent would complete four.
    Pons' contract: a true score v <= alpha gives r with v <= r <= alpha; v >= beta
    gives beta <= r <= v; otherwise v itself. Returns 0 with state[ABORTED] set when
    asked to stop."""
    nodes = state[0] + 1
    state[0] = nodes
    if (nodes & 1023) == 0 and (stop[0] != 0 or (state[2] > 0 and nodes >= state[2])):
        state[1] = 1
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
        canon = min(key, _mirror(cur) + _mirror(mask))
        at = np.searchsorted(bkeys, canon)
        if at < bkeys.shape[0] and bkeys[at] == canon:
            return bscores[at]
    high = (CELLS - 1 - moves) // 2  # no win with our next stone
    slot = key % keys.shape[0]
    part = key & LOW32
    if keys[slot] == part:
        stored = np.int64(lows[slot]) - BIAS
        if stored > low:
            low = stored
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
        stored = BIAS - np.int64(highs[slot])
        if stored < high:
            high = stored
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    # order the moves: most winning cells made first, ties centre first (stable)
    free = BOARD ^ mask
    n = 0
    for i in range(WIDTH):
        move = nxt & COLUMNS[ORDER[i]]
        if move:
            made = winning_cells(cur | move, mask) & free
            score = _count(made)
            j = n
            while j > 0 and buf[moves, 8 + j - 1] < score:
                buf[moves, j] = buf[moves, j - 1]
                buf[moves, 8 + j] = buf[moves, 8 + j - 1]
                buf[moves, 16 + j] = buf[moves, 16 + j - 1]
                j -= 1
            buf[moves, j] = move
            buf[moves, 8 + j] = score
            buf[moves, 16 + j] = made
            n += 1
    alpha0 = alpha
    opp = cur ^ mask
    for i in range(n):
        score = -_negamax(opp, mask | buf[moves, i], moves + 1, -beta, -alpha,
                          buf[moves, 16 + i], keys, lows, highs, buf, state, stop, bkeys,
                          bscores, bdepth)
        if state[1]:
            return 0
        if score >= beta:
            keys[slot] = part
            lows[slot] = score + BIAS
            highs[slot] = BIAS - high
            return score
        if score > alpha:
            alpha = score
    keys[slot] = part
    if alpha > alpha0:
        lows[slot] = alpha + BIAS
    else:
        lows[slot] = low + BIAS
    highs[slot] = BIAS - alpha
    return alpha


@njit(cache=True)
def _can_win_next(cur: int, mask: int) -> bool:
    return (winning_cells(cur, mask) & (mask + BOTTOM) & BOARD) != 0


@njit(cache=True)
def _solve(cur, mask, moves, weak, keys, lows, highs,  # type: ignore[no-untyped-def]
           buf, state, stop, bkeys, bscores, bdepth):
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
        r = _negamax(cur, mask, moves, med, med + 1, threats, keys, lows, highs, buf,
                     state, stop, bkeys, bscores, bdepth)
        if state[1]:
            return 0
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:
        return 1 if lo > 0 else (-1 if lo < 0 else 0)
    return lo


@njit(cache=True, nogil=True)
def solve(cur, mask, moves, weak, keys, lows, highs,  # type: ignore[no-untyped-def]
          buf, state, stop, bkeys, bscores, bdepth):
    """The exact score of the position for the side to move (Pons' convention), or with
    ``weak`` its sign; 0 with state[ABORTED] set if stopped."""
    return _solve(cur, mask, moves, weak, keys, lows, highs, buf, state, stop, bkeys,
                  bscores, bdepth)


@njit(cache=True, nogil=True)
def analyse(cur, mask, moves, weak, keys, lows, highs,  # type: ignore[no-untyped-def]
            buf, state, stop, bkeys, bscores, bdepth, out):
    """Each column's score for the side to move if played now into ``out[0..6]``
    (FULL for a full column); stops early with state[ABORTED] set if asked."""
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
        out[c] = -_solve(cur ^ mask, mask | move, moves + 1, weak, keys, lows, highs, buf,
                         state, stop, bkeys, bscores, bdepth)
        if state[1]:
            return


def no_book() -> tuple[np.ndarray, np.ndarray, np.int64]:
    """(bkeys, bscores, bdepth) that look nothing up."""
    return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.int64(-1)


def warm_up() -> None:
    """Compile (or load from the disk cache) every entry point on a tiny position."""
    keys, lows, highs = new_table(MIN_TABLE)
    buf, state, stop = new_scratch()
    book = no_book()
    out = np.zeros(WIDTH, dtype=np.int64)
    state[2] = 1  # give up at once (after the first check, 1,024 nodes in)
    analyse(np.int64(0), np.int64(0), np.int64(0), False, keys, lows, highs, buf, state,
            stop, *book, out)
    state[:] = 0
    state[2] = 1
    solve(np.int64(0), np.int64(0), np.int64(0), True, keys, lows, highs, buf, state, stop,
          *book)
