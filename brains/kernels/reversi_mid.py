# ruff: noqa: E741  (P and O: the mover's and the opponent's discs, as in the literature)
"""Compiled Reversi midgame search on raw 8x8 bitboards with the pattern evaluation
(:mod:`brains.learned.patterns`) inlined.

Squares are the engine's 8x8 numbering (``row * 8 + column``, a1 = 0); ``P`` holds the
mover's discs, ``O`` the opponent's. Move generation is the endgame kernel's
(:mod:`brains.kernels.reversi`), restated here on purpose: numba's disk cache is checked
against the defining file only, so a kernel calling compiled code of another module
would keep running that code's old version after the other module changed. The
recursive kernels have explicit signatures: compiled by inference and loaded back from
numba's on-disk cache, they crashed (numba issue 6713).

:func:`evaluate` is the pattern evaluation: the phase's bias, the weight of every
pattern image's configuration (its squares read as base-3 digits, the first square
lowest: 0 empty, 1 the mover's, 2 the opponent's), and the numeric terms (mobility of
each side, potential mobility of each side, parity), clipped within ``±(WIN - 1)``.

:func:`search` is negascout (principal-variation search, fail-soft) to a depth in plies;
a pass does not count as a ply, so the depth left at a position is the root's depth
minus the discs added since, and transpositions within one search meet at equal depth.
A finished game scores ``WIN + disc difference * UNIT`` for a win (the empties to the
winner), so a proven win outranks every evaluation and a bigger win a smaller one.
Moves are tried: the transposition table's move first, then (with 3 plies or more left)
by the evaluation of the position they lead to, else by the replies they leave
(fewest first, corners counting double). The table (:func:`new_table`) keeps, per
position, the depth it was searched to, its lower and upper bound and its best move.

Like the endgame kernel, a search counts nodes in ``stats[NODES]`` and gives up once
that reaches ``stats[LIMIT]`` (setting ``stats[ABORTED]``, storing nothing unfinished),
so the caller polls its clock between calls and calls again to go on
(brains/pattern_search.py). :func:`root` records its best move and score as soon as
each root move is searched (``stats[ROOT_BEST]``, ``stats[ROOT_SCORE]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

NODES, LIMIT, ABORTED, ROOT_BEST, ROOT_SCORE, ROOT_DONE = 0, 1, 2, 3, 4, 5
STATS = 6
UNIT = 64
"""Evaluation units per disc (as brains.learned.patterns.UNIT)."""
WIN = 64 * UNIT
"""What a won finished game scores beyond its disc difference."""
INF = 1 << 30
MAX_PLY = 64
MAX_MOVES = 40
PHASES = 12
PHASE_WIDTH = 5
SORT_DEPTH = 3
"""From this many plies left, children are sorted by their evaluation."""
TT_BITS = 20

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)
CORNERS = np.uint64(0x8100000000000081)
INNER = np.uint64(0x7E7E7E7E7E7E7E7E)
"""Squares off the a- and h-files: horizontal and diagonal lines do not wrap."""
U1, U7, U8, U9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
HASH1 = np.uint64(0x9E3779B97F4A7C15)
HASH2 = np.uint64(0xC2B2AE3D27D4EB4F)


def _rays() -> np.ndarray:
    """Per square and direction, the squares of the line from it (itself excluded); the
    first four directions go to higher square numbers, the last four to lower ones."""
    out = np.zeros((64, 8), dtype=np.uint64)
    steps = ((0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1))
    for s in range(64):
        r0, c0 = divmod(s, 8)
        for d, (dr, dc) in enumerate(steps):
            ray, r, c = 0, r0 + dr, c0 + dc
            while 0 <= r < 8 and 0 <= c < 8:
                ray |= 1 << (r * 8 + c)
                r, c = r + dr, c + dc
            out[s, d] = ray
    return out


RAYS = _rays()


def _popcount(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.ctpop(args[0])
    return types.int64(types.uint64), codegen


def _lowest(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.uint64), codegen


def _leading_zeros(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.uint64), codegen


popcount: Any = intrinsic(_popcount)
"""Set bits of a uint64."""
lowest: Any = intrinsic(_lowest)
"""Index of the lowest set bit of a non-zero uint64."""
leading_zeros: Any = intrinsic(_leading_zeros)


@njit(cache=True, inline="always")
def _line_moves(P: Any, mask: Any, d: Any) -> Any:
    """Squares one step past a line of ``mask`` discs running from ``P`` in direction
    ``+d`` or ``-d`` (doubling fills)."""
    fl = mask & (P << d)
    fr = mask & (P >> d)
    fl |= mask & (fl << d)
    fr |= mask & (fr >> d)
    pl = mask & (mask << d)
    pr = pl >> d
    d2 = d + d
    fl |= pl & (fl << d2)
    fr |= pr & (fr >> d2)
    fl |= pl & (fl << d2)
    fr |= pr & (fr >> d2)
    return (fl << d) | (fr >> d)


@njit(cache=True)
def mobility(P: Any, O: Any, board: Any) -> Any:
    """The empty squares of ``board`` where the owner of ``P`` may place a disc."""
    inner = O & INNER
    m = (_line_moves(P, inner, U1) | _line_moves(P, O, U8)
         | _line_moves(P, inner, U7) | _line_moves(P, inner, U9))
    return m & ~(P | O) & board


@njit(cache=True)
def flips(P: Any, O: Any, sq: int) -> Any:
    """The opponent discs a disc of ``P``'s owner on the empty square ``sq`` flips."""
    f = ZERO
    for d in range(4):
        ray = RAYS[sq, d]
        b = ray & ~O
        if b:
            low = b & (~b + ONE)
            if low & P:
                f |= ray & (low - ONE)
    for d in range(4, 8):
        ray = RAYS[sq, d]
        b = ray & ~O
        if b:
            high = ONE << np.uint64(63 - leading_zeros(b))
            if high & P:
                f |= ray & ~(high | (high - ONE))
    return f


@njit(cache=True, inline="always")
def _neighbours(x: Any) -> Any:
    """Squares next to a square of ``x``."""
    return (((x << U1) & NOT_A) | ((x >> U1) & NOT_H) | (x << U8) | (x >> U8)
            | ((x << U9) & NOT_A) | ((x >> U9) & NOT_H) | ((x << U7) & NOT_H)
            | ((x >> U7) & NOT_A))


@njit(cache=True)
def evaluate(P: Any, O: Any, weights: Any, numeric: Any, bias: Any, squares: Any,
             lengths: Any, offsets: Any) -> Any:
    """The pattern evaluation of the position for the owner of ``P`` (1/UNIT discs)."""
    discs = popcount(P | O)
    ph = (discs - 4) // PHASE_WIDTH
    if ph > PHASES - 1:
        ph = PHASES - 1
    if ph < 0:
        ph = 0
    v = bias[ph]
    row = weights[ph]
    for i in range(squares.shape[0]):
        idx: Any = 0
        for k in range(lengths[i] - 1, -1, -1):
            sq = np.uint64(squares[i, k])
            idx = idx * 3 + np.int64((P >> sq) & ONE) + 2 * np.int64((O >> sq) & ONE)
        v += row[offsets[i] + idx]
    E = ~(P | O)
    nw = numeric[ph]
    v += nw[0] * popcount(mobility(P, O, ALL)) + nw[1] * popcount(mobility(O, P, ALL))
    v += nw[2] * popcount(_neighbours(O) & E) + nw[3] * popcount(_neighbours(P) & E)
    v += nw[4] * (popcount(E) & 1)
    if v > WIN - 1:
        return WIN - 1
    if v < 1 - WIN:
        return 1 - WIN
    return v


@njit(cache=True)
def final(P: Any, O: Any) -> Any:
    """Score of a finished game for the owner of ``P``."""
    p = popcount(P)
    o = popcount(O)
    e = 64 - p - o
    if p > o:
        return WIN + (p - o + e) * UNIT
    if o > p:
        return -WIN - (o - p + e) * UNIT
    return 0


@njit(cache=True, inline="always")
def _slot(P: Any, O: Any, size: int) -> Any:
    """The table slot of a position (``size``: a power of two, at most 2 ** 24): high
    bits of a multiplicative hash."""
    h = P * HASH1 + (O ^ (O >> np.uint64(31))) * HASH2
    return np.int64(h >> np.uint64(40)) & (size - 1)


def new_table(bits: int = TT_BITS) -> tuple[np.ndarray, ...]:
    """An empty table of ``2 ** bits`` entries: keys (mover's, opponent's discs), depth
    (-1: empty), lower bound, upper bound, best move."""
    size = 1 << bits
    return (np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.uint64),
            np.full(size, -1, dtype=np.int8), np.zeros(size, dtype=np.int32),
            np.zeros(size, dtype=np.int32), np.zeros(size, dtype=np.int8))


def buffers() -> tuple[np.ndarray, ...]:
    """The move lists of :func:`search`, one row per ply."""
    return (np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.uint64),
            np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.uint64),
            np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64),
            np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64))


_ARGS = (types.int32[:, ::1], types.int32[:, ::1], types.int64[::1], types.int64[:, ::1],
         types.int64[::1], types.int64[::1], types.int64[::1], types.uint64[::1],
         types.uint64[::1], types.int8[::1], types.int32[::1], types.int32[::1],
         types.int8[::1], types.uint64[:, ::1], types.uint64[:, ::1], types.int64[:, ::1],
         types.int64[:, ::1])
"""The types of the evaluation tables, the stats, the table and the buffers: the
recursive kernels are compiled for these types only (an explicit signature; a cached
recursive kernel compiled by inference crashed when loaded back)."""


@njit(types.int64(types.uint64, types.uint64, types.int64, types.int64, types.int64,
                  types.int64, *_ARGS), cache=True)
def search(P: Any, O: Any, depth: int, alpha: int, beta: int, ply: int, weights: Any,
           numeric: Any, bias: Any, squares: Any, lengths: Any, offsets: Any, stats: Any,
           tk1: Any, tk2: Any, td: Any, tlo: Any, thi: Any, tmv: Any, bp: Any, bo: Any,
           bw: Any, bs: Any) -> Any:
    """Fail-soft negascout value of the position for the owner of ``P``, ``depth``
    plies deep, within (alpha, beta)."""
    stats[NODES] += 1
    if stats[NODES] >= stats[LIMIT]:
        stats[ABORTED] = 1
        return 0
    moves = mobility(P, O, ALL)
    if not moves:
        if not mobility(O, P, ALL):
            return final(P, O)
        v = -search(O, P, depth, -beta, -alpha, ply + 1, weights, numeric, bias, squares,
                    lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv, bp, bo, bw, bs)
        return v
    if depth <= 0:
        return evaluate(P, O, weights, numeric, bias, squares, lengths, offsets)
    slot = _slot(P, O, td.shape[0])
    first: Any = -1
    lo: Any = -INF
    hi: Any = INF
    if td[slot] >= 0 and tk1[slot] == P and tk2[slot] == O:
        first = np.int64(tmv[slot])
        if td[slot] == depth:
            lo, hi = np.int64(tlo[slot]), np.int64(thi[slot])
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
    a0 = alpha
    count = 0
    row = ply if ply < MAX_PLY else MAX_PLY
    while moves:
        sq = lowest(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        bit = ONE << np.uint64(sq)
        p2 = P | f | bit
        o2 = O ^ f
        if sq == first:
            w = -INF
        elif depth >= SORT_DEPTH:
            w = evaluate(o2, p2, weights, numeric, bias, squares, lengths, offsets)
        else:
            reply = mobility(o2, p2, ALL)
            w = popcount(reply) + popcount(reply & CORNERS)
        i = count
        while i > 0 and bw[row, i - 1] > w:
            bw[row, i] = bw[row, i - 1]
            bs[row, i] = bs[row, i - 1]
            bp[row, i] = bp[row, i - 1]
            bo[row, i] = bo[row, i - 1]
            i -= 1
        bw[row, i] = w
        bs[row, i] = sq
        bp[row, i] = p2
        bo[row, i] = o2
        count += 1
    best = -INF
    best_move = -1
    for i in range(count):
        p2 = bp[row, i]
        o2 = bo[row, i]
        if i == 0:
            v = -search(o2, p2, depth - 1, -beta, -alpha, ply + 1, weights, numeric, bias,
                        squares, lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv, bp,
                        bo, bw, bs)
        else:
            v = -search(o2, p2, depth - 1, -alpha - 1, -alpha, ply + 1, weights, numeric,
                        bias, squares, lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv,
                        bp, bo, bw, bs)
            if alpha < v < beta and not stats[ABORTED]:
                v = -search(o2, p2, depth - 1, -beta, -v, ply + 1, weights, numeric, bias,
                            squares, lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv,
                            bp, bo, bw, bs)
        if stats[ABORTED]:
            return 0
        if v > best:
            best = v
            best_move = bs[row, i]
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    if best <= a0:
        if best < hi:
            hi = best
    elif best >= beta:
        if best > lo:
            lo = best
    else:
        lo = best
        hi = best
    tk1[slot] = P
    tk2[slot] = O
    td[slot] = depth
    tlo[slot] = lo
    thi[slot] = hi
    tmv[slot] = best_move
    return best


@njit(types.int64(types.uint64, types.uint64, types.int64, types.int64[::1], types.int64,
                  *_ARGS), cache=True)
def root(P: Any, O: Any, depth: int, order: Any, count: int, weights: Any, numeric: Any,
         bias: Any, squares: Any, lengths: Any, offsets: Any, stats: Any, tk1: Any, tk2: Any,
         td: Any, tlo: Any, thi: Any, tmv: Any, bp: Any, bo: Any, bw: Any, bs: Any) -> Any:
    """The best of the root moves ``order[:count]`` (squares, tried in that order)
    searched ``depth`` plies deep (at least 1): its score; ``stats[ROOT_BEST]`` and
    ``stats[ROOT_SCORE]`` hold the best move and score found so far and
    ``stats[ROOT_DONE]`` the moves finished."""
    alpha = -INF
    beta = INF
    best = -INF
    for i in range(count):
        sq = order[i]
        f = flips(P, O, sq)
        bit = ONE << np.uint64(sq)
        p2 = P | f | bit
        o2 = O ^ f
        if i == 0:
            v = -search(o2, p2, depth - 1, -beta, -alpha, 1, weights, numeric, bias, squares,
                        lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv, bp, bo, bw, bs)
        else:
            v = -search(o2, p2, depth - 1, -alpha - 1, -alpha, 1, weights, numeric, bias,
                        squares, lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv, bp, bo,
                        bw, bs)
            if v > alpha and not stats[ABORTED]:
                v = -search(o2, p2, depth - 1, -beta, -v, 1, weights, numeric, bias, squares,
                            lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv, bp, bo, bw,
                            bs)
        if stats[ABORTED]:
            return 0
        stats[ROOT_DONE] = i + 1
        if v > best:
            best = v
            alpha = v
            stats[ROOT_BEST] = sq
            stats[ROOT_SCORE] = v
    return best


@njit(cache=True)
def evaluate_many(P: Any, O: Any, weights: Any, numeric: Any, bias: Any, squares: Any,
                  lengths: Any, offsets: Any) -> Any:
    """:func:`evaluate` of each position of two arrays (for tests and benchmarks)."""
    out = np.empty(P.shape[0], dtype=np.int64)
    for i in range(P.shape[0]):
        out[i] = evaluate(P[i], O[i], weights, numeric, bias, squares, lengths, offsets)
    return out


@njit(cache=True)
def legal(P: Any, O: Any) -> Any:
    """The mover's legal squares (for tests)."""
    return mobility(P, O, ALL)


@njit(cache=True)
def play(P: Any, O: Any, sq: int) -> Any:
    """(mover's, opponent's discs) after a legal placement on ``sq``, from the mover's
    side."""
    f = flips(P, O, sq)
    bit = ONE << np.uint64(sq)
    return P | f | bit, O ^ f
