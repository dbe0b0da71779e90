# ruff: noqa: E741  (P and O: the mover's and the opponent's discs, as in the literature)
"""Compiled Reversi kernels on raw bitboards: move generation, the pattern evaluation, the
exact endgame search and the midgame search of the ``patterns`` brain.

Why one module: the endgame search sorts its moves by the pattern evaluation, which the
midgame search reads too, and both use the same move generation. numba's disk cache is
checked against the defining file only, so a cached kernel calling compiled code of
another module would keep running that code's old version after the other module
changed; so everything compiled that the two searches share is defined here, once, and
brains/kernels/reversi_mid.py only gives the midgame functions (``mid_*`` here) the names
its callers use.

Every board size the endgame solver handles (8, 6 and 4) is searched on the 8x8 layout:
square ``row * 8 + column`` (a1 = 0, rows from the top, as the engine numbers 8x8) in
one ``uint64`` per side. A smaller board sits in the top-left corner of that layout; its
squares off the board are never empty (``board`` masks them out) and never hold a disc,
so no line runs through them and every rule stays the board's own. :func:`embed` and
:func:`unembed` convert masks between a board of side ``n`` and this layout.

The search (negamax alpha-beta, fail-soft, principal-variation windows) has three tiers,
by the number of empty squares:

- more than :data:`SHALLOW`: a stability cut-off (the opponent's stable discs bound the
  mover's score: :func:`stable`); the transposition table (bounds and best move, a bucket
  of two entries a row of one numpy array: :func:`new_table`; a node asks the processor to
  fetch its children's buckets, :func:`prefetch_row`, before it probes or searches them);
  from :data:`ETC` empties, an enhanced transposition cut-off (a child whose stored upper
  bound refutes the node); moves sorted fastest-first (fewest
  replies for the opponent, corners weighing double; less weight: the empty squares next
  to the mover's discs, the opponent's potential mobility; a bonus for a square in a
  region with an odd number of empties; from :data:`STABLE_ORDER` empties the mover's
  stable discs after the move; from :data:`EVAL_ORDER` the pattern evaluation of the
  position after the move (8x8, the shipped model's tables in the ``ev`` argument), or
  where there are no tables (other boards, FlipColor, no model: :func:`no_patterns`) a
  one-ply search of a cheap evaluation), the table's move first;
- 5 to :data:`SHALLOW`: the stability cut-off (where it may well cut:
  :data:`SHALLOW_SLACK`), no sorting and no table, empties tried in a fixed order (odd
  regions first; corners, then edges, then inner squares, squares next to corners last);
- 4, 3, 2 and 1 empties: a solver for each count, without move generation, odd regions
  first (the two-empties one inlined into its callers; the last move only counts the
  flips, from tables of the lines through its square: :func:`_count_last`).

The caller finds the exact score by null-window searches (brains/reversi_endgame.py),
the first one near a guess of the midgame search; :func:`root` sorts as :func:`search`
does, the caller's move (``cfg[CFG_FIRST]``) first.

A search call counts its nodes in ``stats[NODES]`` and gives up once that reaches
``stats[LIMIT]``: it then sets ``stats[ABORTED]`` and returns a meaningless value, having
stored nothing unproven in the table, so calling it again with a higher limit goes on
where it stopped (the finished subtrees are found in the table). That is how the caller
polls a clock or a stop signal between calls (brains/reversi_endgame.py).

The recursive search functions (the midgame search's too) and the pattern evaluation are
compiled without numba's reference counting (``_nrt=False``): they allocate nothing and
every array they get is held by their caller (:func:`root`, called from Python), while
counting the references of each array argument on entry and exit of every call (atomic
increments and decrements: 4 for a leaf solver, 26 for :func:`search`, 34 for
:func:`mid_search`) took about 30 % of the endgame search's time.

The score of a finished game is the mover's discs minus the opponent's; with
``etw`` (empties to winner) the empty squares are added to the winner's count.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.core import cgutils as _cgutils
from numba.extending import intrinsic

from brains.kernels import no_refcount, no_refcount_typed

SHALLOW = 7
"""At or below this many empties: fixed order, no table."""
SHALLOW_SLACK = 4
"""The shallow tier tries the stability cut-off only where it would still cut with this
many of the opponent's discs unstable (on FFO #40 and #43, nearer the bound it cut at
under 1 % of the tries at a cost of finding the stable discs each time: 2.5 % of the
time)."""
STABLE_ORDER = 12
"""From this many empties, moves are also sorted by the mover's stable discs after them."""
EVAL_ORDER = 14
"""From this many empties, moves are also sorted by the pattern evaluation of the position
after them (:func:`evaluate`; without pattern tables, a one-ply search of a cheap
evaluation, :func:`_eval`); ``cfg[CFG_EVAL]`` holds it."""
ETC = 12
"""From this many empties, the children are looked up in the table before any is searched
(enhanced transposition cut-off); ``cfg[CFG_ETC]`` holds it."""
TT_BITS = 21
"""The transposition table holds ``2 ** TT_BITS`` entries (20 bytes each: 40 MB),
in buckets of two: one kept for the deepest position (most empties) stored there, one
replaced always."""
MAX_MOVES = 40
"""More legal moves than any Reversi position has (33 at most on 8x8)."""
NODES, LIMIT, ABORTED, ROOT_BEST, ROOT_SCORE, ROOT_DONE = 0, 1, 2, 3, 4, 5
"""Indices into the ``stats`` array (the endgame search uses the first four, the midgame
search all :data:`STATS`)."""
STATS = 6
UNIT = 64
"""Evaluation units per disc (as brains.learned.patterns.UNIT)."""
WIN = 64 * UNIT
"""What a won finished game scores beyond its disc difference in the midgame search."""
INF = 1 << 30
"""A bound past every midgame score."""
MAX_PLY = 64
PHASES = 12
PHASE_WIDTH = 5
"""The pattern evaluation's phases: :data:`PHASE_WIDTH` plies each, by disc count."""
SORT_DEPTH = 3
"""From this many plies left, the midgame search sorts children by their evaluation."""
MID_TT_BITS = 20
"""The midgame search's table holds ``2 ** MID_TT_BITS`` entries (one a slot)."""
CFG_BOARD, CFG_DRAWN, CFG_ETW, CFG_QUAD, CFG_CLASS = 0, 1, 2, 3, 7
CFG_SQUARES, CFG_ETC, CFG_EVAL, CFG_FIRST = 11, 12, 13, 14
"""Indices into the ``cfg`` array: the board's squares, FlipColor's drawn squares, empties
to winner (0 or 1), the four quadrants (parity regions), the four square classes, the
number of squares, the empties from which :data:`ETC` and :data:`EVAL_ORDER` apply (tests
lower them to check them on small positions), the root move :func:`root` tries first (64:
none; the caller's guess)."""
CFG_SIZE = 15
NONE = 100
"""A bound past every score."""

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
NOT_EDGE = np.uint64(0x7E7E7E7E7E7E7E7E)
"""Squares off the a- and h-files: horizontal and diagonal lines do not wrap."""
CORNERS = np.uint64(0x8100000000000081)
"""The corners of the 8x8 board."""
U1, U7, U8, U9, U63 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9), np.uint64(63)
HASH1 = np.uint64(0x9E3779B97F4A7C15)
HASH2 = np.uint64(0xC2B2AE3D27D4EB4F)
FILE_A = np.uint64(0x0101010101010101)
FILE_H = np.uint64(0x8080808080808080)
ROW_1 = np.uint64(0x00000000000000FF)
ROW_8 = np.uint64(0xFF00000000000000)
BORDER = FILE_A | FILE_H | ROW_1 | ROW_8
NOT_AB = ~(FILE_A | (FILE_A << U1))
NOT_AD = ~(FILE_A * np.uint64(15))
NOT_GH = ~(FILE_H | (FILE_H >> U1))
NOT_EH = ~(FILE_A * np.uint64(0xF0))
"""Squares off the a- and b-files, a- to d-files, g- and h-files, e- to h-files."""
U2, U4, U14, U16, U18 = np.uint64(2), np.uint64(4), np.uint64(14), np.uint64(16), np.uint64(18)
U28, U32, U36 = np.uint64(28), np.uint64(32), np.uint64(36)


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


def _neighbours() -> np.ndarray:
    out = np.zeros(64, dtype=np.uint64)
    for s in range(64):
        r0, c0 = divmod(s, 8)
        m = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = r0 + dr, c0 + dc
                if (dr or dc) and 0 <= r < 8 and 0 <= c < 8:
                    m |= 1 << (r * 8 + c)
        out[s] = m
    return out


def _diagonals() -> np.ndarray:
    """The 15 diagonals (a1-h8 direction) and the 15 anti-diagonals of the 8x8 layout."""
    out = np.zeros(30, dtype=np.uint64)
    for s in range(64):
        r, c = divmod(s, 8)
        out[r - c + 7] |= np.uint64(1 << s)
        out[15 + r + c] |= np.uint64(1 << s)
    return out


def _line_counts() -> np.ndarray:
    """Per square of a line of eight (its index along the line) and content of the line
    (bit ``i``: the mover holds the line's ``i``-th square), how many discs a move there
    flips on that line when every other square of it holds an opponent's disc: the run of
    unset bits on each side, counted where a set bit ends it."""
    out = np.zeros((8, 256), dtype=np.int64)
    for pos in range(8):
        for line in range(256):
            n = 0
            for step in (-1, 1):
                k, j = 0, pos + step
                while 0 <= j < 8 and not line >> j & 1:
                    k, j = k + 1, j + step
                if 0 <= j < 8:
                    n += k
            out[pos, line] = n
    return out


RAYS = _rays()
POW3 = np.array([3 ** k for k in range(20)], dtype=np.int64)
"""Powers of 3: a pattern's k-th square weighs 3 ** k in its configuration's index."""
NEIGHBOURS = _neighbours()
DIAGONALS = _diagonals()
LINE_COUNTS = _line_counts()
DIAG9 = np.array([DIAGONALS[s // 8 - s % 8 + 7] for s in range(64)], dtype=np.uint64)
DIAG7 = np.array([DIAGONALS[15 + s // 8 + s % 8] for s in range(64)], dtype=np.uint64)
"""Per square, its diagonal (a1-h8 direction) and its anti-diagonal."""
TO_ROW = np.uint64(0x0102040810204080)
"""Times a file moved to the a-file: that file's squares as the top byte (bit ``r``: row
``r``)."""


# -- bit intrinsics ----------------------------------------------------------------------
def _popcount(typingctx: Any, x: Any) -> Any:
    """Number of set bits of a uint64."""
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.ctpop(args[0])
    return types.int64(types.uint64), codegen


def _lowest(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit of a non-zero uint64."""
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.uint64), codegen


def _leading_zeros(typingctx: Any, x: Any) -> Any:
    """Number of zero bits above the highest set bit of a non-zero uint64."""
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.uint64), codegen


def _prefetch_row(typingctx: Any, table: Any, row: Any) -> Any:
    """Ask the processor to fetch a row of a 2-D array into the cache (no effect on the
    program's values; a hint that lets the memory latency overlap other work)."""
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        zero = ir.Constant(ir.IntType(64), 0)
        ptr = cgutils.get_item_pointer(context, builder, sig.args[0], ary, [args[1], zero])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(table, types.int64), codegen


def _address(typingctx: Any, arr: Any) -> Any:
    """A pointer to a contiguous array's first element (indexed like the array): one
    word to pass on a call, where numba passes an array as seven."""
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return context.make_array(sig.args[0])(context, builder, args[0]).data
    pointer: Any = types.CPointer  # (untyped)
    return pointer(arr.dtype)(arr), codegen


cgutils: Any = _cgutils  # (untyped)
popcount: Any = intrinsic(_popcount)
lowest: Any = intrinsic(_lowest)
leading_zeros: Any = intrinsic(_leading_zeros)
prefetch_row: Any = intrinsic(_prefetch_row)
address: Any = intrinsic(_address)


# -- move generation ---------------------------------------------------------------------
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


@njit(cache=True, forceinline=True)
def mobility(P: Any, O: Any, board: Any) -> Any:
    """The empty squares of ``board`` where the owner of ``P`` may place a disc."""
    inner = O & NOT_EDGE
    m = (_line_moves(P, inner, U1) | _line_moves(P, O, U8)
         | _line_moves(P, inner, U7) | _line_moves(P, inner, U9))
    return m & ~(P | O) & board


@njit(cache=True, forceinline=True)
def flips(P: Any, O: Any, sq: int) -> Any:
    """The opponent discs a disc of ``P``'s owner on the empty square ``sq`` flips (0: the
    move is not legal). Without branches: per direction, the first square of the ray that
    is not the opponent's (the lowest or the highest bit) outflanks the discs before it if
    it is the mover's; a mask made of that test keeps or drops them (branches on it were
    mispredicted often: three times slower)."""
    f = ZERO
    for d in range(4):
        ray = RAYS[sq, d]
        b = ray & ~O
        low = b & (ZERO - b)
        f |= (low - ONE) & ray & (ZERO - np.uint64((low & P) != ZERO))
    for d in range(4, 8):
        ray = RAYS[sq, d]
        b = ray & ~O
        high = ONE << np.uint64(63 - leading_zeros(b | ONE))  # b = 0: bit 0, not in b
        f |= ray & ~(high | (high - ONE)) & (ZERO - np.uint64((high & b & P) != ZERO))
    return f


@njit(cache=True)
def legal_moves(P: Any, O: Any, board: Any) -> Any:
    """Mobility as an exported kernel (tests compare it with the reference)."""
    return mobility(P, O, board)


@njit(cache=True)
def play(P: Any, O: Any, sq: int, drawn: Any) -> Any:
    """(mover's discs, opponent's discs) after a legal placement on ``sq``, from the
    mover's side (the caller swaps them for the next turn)."""
    f = flips(P, O, sq)
    bit = ONE << np.uint64(sq)
    if bit & drawn:
        return P | f, O ^ f | bit
    return P | f | bit, O ^ f


# -- scoring -----------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def final(P: Any, O: Any, cfg: Any) -> Any:
    """Score of a finished game for the owner of ``P``."""
    d = popcount(P) - popcount(O)
    if cfg[CFG_ETW] and d != 0:
        e = popcount(cfg[CFG_BOARD] & ~(P | O))
        return d + e if d > 0 else d - e
    return d


@njit(cache=True, inline="always")
def _count_last(X: Any, sq: int) -> Any:
    """How many discs a disc of ``X``'s owner on ``sq`` flips when every square but
    ``sq`` is either ``X``'s or the opponent's or off the board (the last empty square:
    every square not ``X``'s on a line counts as the opponent's; off the board, a line
    never reaches one of ``X`` again). Each of the four lines through ``sq`` is gathered
    into a byte and looked up in :data:`LINE_COUNTS`; no flip mask is built."""
    r = sq >> 3
    c = sq & 7
    h = (X >> np.uint64(sq - c)) & np.uint64(255)
    v = (((X >> np.uint64(c)) & FILE_A) * TO_ROW) >> np.uint64(56)
    d9 = ((X & DIAG9[sq]) * FILE_A) >> np.uint64(56)
    d7 = ((X & DIAG7[sq]) * FILE_A) >> np.uint64(56)
    return (LINE_COUNTS[c, np.int64(h)] + LINE_COUNTS[r, np.int64(v)]
            + LINE_COUNTS[c, np.int64(d9)] + LINE_COUNTS[c, np.int64(d7)])


@njit(cache=True, forceinline=True)
def _last1(P: Any, O: Any, sq: int, cfg: Any) -> Any:
    """Score with one empty square ``sq`` left, ``P``'s owner to move (the flips
    counted by :func:`_count_last`)."""
    n = popcount(P) - popcount(O)
    drawn = (ONE << np.uint64(sq)) & cfg[CFG_DRAWN]
    k = _count_last(P, sq)
    if k:
        return n + 2 * k - 1 if drawn else n + 2 * k + 1
    k = _count_last(O, sq)
    if k:
        return n - 2 * k + 1 if drawn else n - 2 * k - 1
    if cfg[CFG_ETW] and n != 0:
        return n + 1 if n > 0 else n - 1
    return n


@njit(cache=True, forceinline=True)
def _moves2(P: Any, O: Any, beta: int, x1: int, x2: int, cfg: Any) -> Any:
    """The best of the mover's placements on ``x1`` and ``x2`` (the last square then
    counted), stopping at one reaching ``beta``; -:data:`NONE` when neither is legal."""
    drawn = cfg[CFG_DRAWN]
    best = -NONE
    if O & NEIGHBOURS[x1]:
        f = flips(P, O, x1)
        if f:
            bit = ONE << np.uint64(x1)
            if bit & drawn:
                best = -_last1(O ^ f | bit, P | f, x2, cfg)
            else:
                best = -_last1(O ^ f, P | f | bit, x2, cfg)
            if best >= beta:
                return best
    if O & NEIGHBOURS[x2]:
        f = flips(P, O, x2)
        if f:
            bit = ONE << np.uint64(x2)
            if bit & drawn:
                v = -_last1(O ^ f | bit, P | f, x1, cfg)
            else:
                v = -_last1(O ^ f, P | f | bit, x1, cfg)
            return v if v > best else best
    return best


@njit(cache=True, forceinline=True)
def _solve2(P: Any, O: Any, alpha: int, beta: int, x1: int, x2: int, cfg: Any,
            stats: Any) -> Any:
    """Value with the two empties ``x1`` and ``x2``; not recursive (a pass is the
    opponent's :func:`_moves2`, a node of its own), so inlined into its callers."""
    stats[NODES] += 1
    best = _moves2(P, O, beta, x1, x2, cfg)
    if best > -NONE:
        return best
    v = _moves2(O, P, -alpha, x1, x2, cfg)
    if v > -NONE:
        stats[NODES] += 1
        return -v
    return final(P, O, cfg)


@no_refcount
def _solve3(P: Any, O: Any, alpha: int, beta: int, x1: int, x2: int, x3: int, cfg: Any,
            stats: Any) -> Any:
    stats[NODES] += 1
    drawn = cfg[CFG_DRAWN]
    best = -NONE
    for k in range(3):
        if k == 0:
            sq, a, b = x1, x2, x3
        elif k == 1:
            sq, a, b = x2, x1, x3
        else:
            sq, a, b = x3, x1, x2
        if O & NEIGHBOURS[sq]:
            f = flips(P, O, sq)
            if f:
                bit = ONE << np.uint64(sq)
                if bit & drawn:
                    v = -_solve2(O ^ f | bit, P | f, -beta, -alpha, a, b, cfg, stats)
                else:
                    v = -_solve2(O ^ f, P | f | bit, -beta, -alpha, a, b, cfg, stats)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            return v
    if best > -NONE:
        return best
    if ((P & NEIGHBOURS[x1] and flips(O, P, x1)) or (P & NEIGHBOURS[x2] and flips(O, P, x2))
            or (P & NEIGHBOURS[x3] and flips(O, P, x3))):
        return -_solve3(O, P, -beta, -alpha, x1, x2, x3, cfg, stats)
    return final(P, O, cfg)


@no_refcount
def _solve4(P: Any, O: Any, alpha: int, beta: int, x1: int, x2: int, x3: int, x4: int,
            cfg: Any, stats: Any) -> Any:
    """Value with the four empties ``x1`` to ``x4``, tried in that order (the caller puts
    the squares of odd regions first); the three left keep their order."""
    stats[NODES] += 1
    drawn = cfg[CFG_DRAWN]
    best = -NONE
    for k in range(4):
        if k == 0:
            sq, a, b, c = x1, x2, x3, x4
        elif k == 1:
            sq, a, b, c = x2, x1, x3, x4
        elif k == 2:
            sq, a, b, c = x3, x1, x2, x4
        else:
            sq, a, b, c = x4, x1, x2, x3
        if O & NEIGHBOURS[sq]:
            f = flips(P, O, sq)
            if f:
                bit = ONE << np.uint64(sq)
                if bit & drawn:
                    v = -_solve3(O ^ f | bit, P | f, -beta, -alpha, a, b, c, cfg, stats)
                else:
                    v = -_solve3(O ^ f, P | f | bit, -beta, -alpha, a, b, c, cfg, stats)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            return v
    if best > -NONE:
        return best
    if ((P & NEIGHBOURS[x1] and flips(O, P, x1)) or (P & NEIGHBOURS[x2] and flips(O, P, x2))
            or (P & NEIGHBOURS[x3] and flips(O, P, x3))
            or (P & NEIGHBOURS[x4] and flips(O, P, x4))):
        return -_solve4(O, P, -beta, -alpha, x1, x2, x3, x4, cfg, stats)
    return final(P, O, cfg)


@njit(cache=True, forceinline=True)
def _odd_regions(E: Any, cfg: Any) -> Any:
    """The squares of the quadrants holding an odd number of the empties ``E``."""
    odd = ZERO
    for q in range(4):
        m = cfg[CFG_QUAD + q]
        if popcount(E & m) & 1:
            odd |= m
    return odd


@no_refcount
def _shallow(P: Any, O: Any, alpha: int, beta: int, cfg: Any, stats: Any) -> Any:
    """Value with at most :data:`SHALLOW` empties: fixed order, no table."""
    E = cfg[CFG_BOARD] & ~(P | O)
    ne = popcount(E)
    odd = _odd_regions(E, cfg)
    if ne <= 3:
        if ne == 0:
            return final(P, O, cfg)
        x1 = lowest(E)
        if ne == 1:
            return _last1(P, O, x1, cfg)
        E2 = E & (E - ONE)
        x2 = lowest(E2)
        if ne == 2:
            return _solve2(P, O, alpha, beta, x1, x2, cfg, stats)
        x3 = lowest(E2 & (E2 - ONE))
        # a square alone in its region first
        bit1 = ONE << np.uint64(x1)
        if not bit1 & odd:
            if (ONE << np.uint64(x2)) & odd:
                x1, x2 = x2, x1
            elif (ONE << np.uint64(x3)) & odd:
                x1, x3 = x3, x1
        return _solve3(P, O, alpha, beta, x1, x2, x3, cfg, stats)
    board = cfg[CFG_BOARD]
    squares = np.int64(cfg[CFG_SQUARES])
    if alpha >= squares - 2 * popcount(O) + 2 * SHALLOW_SLACK:  # stability cut-off
        top = squares - 2 * popcount(stable(O, P, board))
        if top <= alpha:
            stats[NODES] += 1
            return top
    if ne == 4:  # the squares of odd regions first, then by square number
        first = E & odd
        rest = E & ~odd
        x1 = lowest(first) if first else lowest(rest)
        if first:
            first &= first - ONE
        else:
            rest &= rest - ONE
        x2 = lowest(first) if first else lowest(rest)
        if first:
            first &= first - ONE
        else:
            rest &= rest - ONE
        x3 = lowest(first) if first else lowest(rest)
        if first:
            first &= first - ONE
        else:
            rest &= rest - ONE
        x4 = lowest(first) if first else lowest(rest)
        return _solve4(P, O, alpha, beta, x1, x2, x3, x4, cfg, stats)
    stats[NODES] += 1
    drawn = cfg[CFG_DRAWN]
    best = -NONE
    for group in range(8):
        m = E & cfg[CFG_CLASS + (group & 3)]
        m &= odd if group < 4 else ~odd
        while m:
            sq = lowest(m)
            m &= m - ONE
            if not O & NEIGHBOURS[sq]:
                continue
            f = flips(P, O, sq)
            if not f:
                continue
            bit = ONE << np.uint64(sq)
            if bit & drawn:
                v = -_shallow(O ^ f | bit, P | f, -beta, -alpha, cfg, stats)
            else:
                v = -_shallow(O ^ f, P | f | bit, -beta, -alpha, cfg, stats)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        return v
    if best > -NONE:
        return best
    if mobility(O, P, board):
        return -_shallow(O, P, -beta, -alpha, cfg, stats)
    return final(P, O, cfg)


# -- stability ---------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _full_lines(filled: Any) -> Any:
    """(horizontal, vertical, diagonal, anti-diagonal): the squares whose line in that
    direction is all ``filled``. Without loops: a row is full where its eight bits,
    folded onto its first by shifts of 4, 2 and 1, all survive (a file likewise, by
    shifts of 32, 16 and 8 rows' worth); a diagonal where no empty square reaches it, the
    empty squares spread along it both ways by doubling shifts (1, 2, then 4 steps, the
    squares that wrapped round the board masked off)."""
    t = filled & (filled >> U4)
    t &= t >> U2
    t &= t >> U1
    h = (t & FILE_A) * ROW_1
    t = filled & (filled >> U32)
    t &= t >> U16
    t &= t >> U8
    v = (t & ROW_1) * FILE_A
    e = ~filled
    up = e | ((e << U9) & ~FILE_A)
    up |= (up << U18) & NOT_AB
    up |= (up << U36) & NOT_AD
    down = e | ((e >> U9) & ~FILE_H)
    down |= (down >> U18) & NOT_GH
    down |= (down >> U36) & NOT_EH
    d9 = ~(up | down)
    up = e | ((e << U7) & ~FILE_H)
    up |= (up << U14) & NOT_GH
    up |= (up << U28) & NOT_EH
    down = e | ((e >> U7) & ~FILE_A)
    down |= (down >> U14) & NOT_AB
    down |= (down >> U28) & NOT_AD
    d7 = ~(up | down)
    return h, v, d9, d7


@njit(cache=True)
def stable(O: Any, P: Any, board: Any) -> Any:
    """Discs of ``O`` that no move can flip any more: in each of the four directions
    either the line is full, or a neighbour on the line is off the board or is itself
    such a disc of ``O`` (the least fixed point, grown from the edges)."""
    off = ~board
    h, v, d9, d7 = _full_lines(P | O | off)
    h |= FILE_A | FILE_H
    v |= ROW_1 | ROW_8
    d9 |= BORDER
    d7 |= BORDER
    st = ZERO
    while True:
        S = st | off
        new = (O & (h | ((S << U1) & ~FILE_A) | ((S >> U1) & ~FILE_H))
               & (v | (S << U8) | (S >> U8))
               & (d9 | ((S << U9) & ~FILE_A) | ((S >> U9) & ~FILE_H))
               & (d7 | ((S << U7) & ~FILE_H) | ((S >> U7) & ~FILE_A)))
        if new == st:
            return st
        st = new


# -- the transposition table -------------------------------------------------------------
def new_table(bits: int = TT_BITS) -> tuple[np.ndarray]:
    """An empty table of ``2 ** bits`` entries, in a tuple: one row of five words per
    bucket of two entries, so that a probe reads one or two cache lines, not one in each
    of three arrays (that cost a fifth of the search's time): the first entry's mover's
    and opponent's discs (the key), the second's, then both entries' packed values (the
    first in the low 32 bits: empties << 24 | lower bound + 128 << 16 | upper bound + 128
    << 8 | best move + 1; 0: an empty entry). Each key word is kept XORed with the value
    word (:func:`_probe`)."""
    return (np.zeros((1 << (bits - 1), 5), dtype=np.uint64),)


@njit(cache=True, inline="always")
def _bucket(P: Any, O: Any, buckets: int) -> Any:
    """A position's bucket: the high bits of a multiplicative hash (the low bits of a
    product depend only on the low bits of the discs, which late in the game are the same
    for many positions)."""
    h = P * HASH1 + (O ^ (O >> np.uint64(31))) * HASH2
    bits = 63 - leading_zeros(np.uint64(buckets))
    return np.int64(h >> np.uint64(64 - bits))


@njit(cache=True, inline="always")
def _probe(P: Any, O: Any, tt: Any) -> Any:
    """The packed value stored for the position, or 0. Each key word is stored XORed
    with the bucket's value word, so a bucket read while another thread writes it (a
    table shared by the threads of one solve) does not match and reads as a miss."""
    b = _bucket(P, O, tt.shape[0])
    both = tt[b, 4]
    if tt[b, 0] ^ both == P and tt[b, 1] ^ both == O:
        return np.int64(both & np.uint64(0xFFFFFFFF))
    if tt[b, 2] ^ both == P and tt[b, 3] ^ both == O:
        return np.int64(both >> np.uint64(32))
    return 0


@njit(cache=True, inline="always")
def _unpack(e: Any) -> Any:
    """(lower bound, upper bound, best move) of a packed table value."""
    return ((e >> 16) & 255) - 128, ((e >> 8) & 255) - 128, (e & 255) - 1


@njit(cache=True)
def probe(P: Any, O: Any, tt: Any) -> Any:
    """(lower bound, upper bound, best move) the table holds for the position, or
    (-:data:`NONE`, :data:`NONE`, -1) when it holds nothing (the driver's tracing of the
    principal variation reads it)."""
    e = _probe(P, O, tt)
    if not e:
        return -NONE, NONE, -1
    return _unpack(e)


@njit(cache=True, inline="always")
def _store(P: Any, O: Any, ne: int, lo: int, hi: int, move: int, tt: Any) -> None:
    """Keep the bounds of a position: in its own entry if it has one, else in the
    bucket's first entry if it is at least as deep as what is there (which moves to the
    second), else in the second. All five words are written again, the keys XORed with
    the new value word (see :func:`_probe`)."""
    b = _bucket(P, O, tt.shape[0])
    value = np.uint64((ne << 24) | ((lo + 128) << 16) | ((hi + 128) << 8) | (move + 1))
    both = tt[b, 4]
    p1, o1 = tt[b, 0] ^ both, tt[b, 1] ^ both
    p2, o2 = tt[b, 2] ^ both, tt[b, 3] ^ both
    low = both & np.uint64(0xFFFFFFFF)
    if p1 == P and o1 == O:
        both = (both ^ low) | value
    elif (p2 == P and o2 == O) or np.int64(low >> np.uint64(24)) > ne:
        p2, o2 = P, O
        both = low | (value << np.uint64(32))
    else:
        p2, o2 = p1, o1
        p1, o1 = P, O
        both = (low << np.uint64(32)) | value
    tt[b, 0] = p1 ^ both
    tt[b, 1] = o1 ^ both
    tt[b, 2] = p2 ^ both
    tt[b, 3] = o2 ^ both
    tt[b, 4] = both


@njit(cache=True, inline="always")
def _around(X: Any) -> Any:
    """The squares next to a disc of ``X``."""
    return ((((X << U1) | (X >> U7) | (X << U9)) & ~FILE_A)
            | (((X >> U1) | (X << U7) | (X >> U9)) & ~FILE_H) | (X << U8) | (X >> U8))


@njit(cache=True)
def _eval(P: Any, O: Any, cfg: Any) -> Any:
    """A cheap guess of the position's worth for the owner of ``P``: mobility (corners
    twice), corners held."""
    board = cfg[CFG_BOARD]
    corners = cfg[CFG_CLASS]
    mp = mobility(P, O, board)
    mo = mobility(O, P, board)
    E = board & ~(P | O)
    return (4 * (popcount(mp) + popcount(mp & corners) - popcount(mo) - popcount(mo & corners))
            + 8 * (popcount(P & corners) - popcount(O & corners))
            + popcount(_around(O) & E) - popcount(_around(P) & E))


EVAL_INF: Any = np.int64(1_000_000)
EVAL_DEPTH: Any = np.int64(1)
"""(int64 constants: a literal argument would give the recursive function a second,
literal-typed signature, which numba's disk cache does not load back safely.)"""


@no_refcount
def _eval_search(P: Any, O: Any, depth: int, alpha: int, beta: int, cfg: Any) -> Any:
    """Alpha-beta of :func:`_eval` to ``depth``."""
    if depth == 0:
        return _eval(P, O, cfg)
    board = cfg[CFG_BOARD]
    moves = mobility(P, O, board)
    if not moves:
        if mobility(O, P, board):
            return -_eval_search(O, P, depth, -beta, -alpha, cfg)
        return 1000 * final(P, O, cfg)
    best = -EVAL_INF
    drawn = cfg[CFG_DRAWN]
    while moves:
        sq = lowest(moves)
        moves &= moves - ONE
        p2, o2 = play(P, O, sq, drawn)
        v = -_eval_search(o2, p2, depth - 1, -beta, -alpha, cfg)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    return best


# -- the pattern evaluation (8x8) --------------------------------------------------------
@no_refcount
def evaluate(P: Any, O: Any, weights: Any, numeric: Any, bias: Any, squares: Any,
             lengths: Any, offsets: Any) -> Any:
    """The pattern evaluation of the position for the owner of ``P`` (1/UNIT discs): the
    phase's bias, the weight of every pattern image's configuration and the numeric
    terms (the tables of brains.learned.pattern_features.playable; reversi_mid.py's
    docstring has the details)."""
    discs = popcount(P | O)
    ph = (discs - 4) // PHASE_WIDTH
    if ph > PHASES - 1:
        ph = PHASES - 1
    if ph < 0:
        ph = 0
    v = bias[ph]
    row = weights[ph]
    for i in range(squares.shape[0]):
        # the base-3 index as a sum of independent terms (square k counts 3 ** k), not by
        # Horner's rule, whose chain of dependent steps made it three times slower
        idx: Any = 0
        for k in range(lengths[i]):
            sq = np.uint64(squares[i, k])
            idx += POW3[k] * (np.int64((P >> sq) & ONE) + 2 * np.int64((O >> sq) & ONE))
        v += row[offsets[i] + idx]
    E = ~(P | O)
    nw = numeric[ph]
    v += nw[0] * popcount(mobility(P, O, ALL)) + nw[1] * popcount(mobility(O, P, ALL))
    v += nw[2] * popcount(_around(O) & E) + nw[3] * popcount(_around(P) & E)
    v += nw[4] * (popcount(E) & 1)
    if v > WIN - 1:
        return WIN - 1
    if v < 1 - WIN:
        return 1 - WIN
    return v


# -- the search --------------------------------------------------------------------------
@no_refcount
def search(P: Any, O: Any, alpha: int, beta: int, cfg: Any, stats: Any, tt: Any,
           buf_p: Any, buf_o: Any, buf_w: Any, buf_s: Any, ev: Any) -> Any:
    """Fail-soft value of the position for the owner of ``P`` within (alpha, beta);
    ``ev``: the pattern evaluation's tables, as :func:`evaluate` takes them, in a tuple
    (:func:`no_patterns`: none)."""
    board = cfg[CFG_BOARD]
    E = board & ~(P | O)
    ne = popcount(E)
    if ne <= SHALLOW:
        return _shallow(P, O, alpha, beta, address(cfg), address(stats))
    stats[NODES] += 1
    if stats[NODES] >= stats[LIMIT]:
        stats[ABORTED] = 1
        return 0
    squares = np.int64(cfg[CFG_SQUARES])
    # stability cut-off: the opponent's stable discs bound what the mover can reach
    if alpha >= squares - 2 * popcount(O):
        top = squares - 2 * popcount(stable(O, P, board))
        if top <= alpha:
            return top
    e = _probe(P, O, tt)
    first = -1
    lo, hi = -NONE, NONE
    if e:
        lo, hi, first = _unpack(e)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    a0 = alpha
    moves = mobility(P, O, board)
    if not moves:
        if mobility(O, P, board):
            v = -search(O, P, -beta, -alpha, cfg, stats, tt, buf_p, buf_o,
                        buf_w, buf_s, ev)
            return v
        return final(P, O, cfg)
    odd = _odd_regions(E, cfg)
    drawn = cfg[CFG_DRAWN]
    corners = cfg[CFG_CLASS]
    etc = ne >= np.int64(cfg[CFG_ETC])
    eval_order = np.int64(cfg[CFG_EVAL])
    patterns = ev[0].shape[0] != 0
    # the children, their table entries fetched ahead (the probes of the enhanced
    # transposition cut-off below and the children's own come later)
    buckets = tt.shape[0]
    probed = ne - 1 > SHALLOW
    count = 0
    while moves:
        sq = lowest(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        bit = ONE << np.uint64(sq)
        if bit & drawn:
            p2, o2 = P | f, O ^ f | bit
        else:
            p2, o2 = P | f | bit, O ^ f
        if probed:
            prefetch_row(tt, _bucket(o2, p2, buckets))
        buf_s[ne, count] = sq
        buf_p[ne, count] = p2
        buf_o[ne, count] = o2
        count += 1
    if etc:  # a child whose upper bound already refutes it fails this node high
        for i in range(count):
            child = _probe(buf_o[ne, i], buf_p[ne, i], tt)
            if child:
                v = 128 - ((child >> 8) & 255)
                if v >= beta:
                    return v
    # sorted fastest-first (insertion sort, ascending weight)
    for k in range(count):
        sq = buf_s[ne, k]
        p2 = buf_p[ne, k]
        o2 = buf_o[ne, k]
        bit = ONE << np.uint64(sq)
        if sq == first:
            w = -1000000000
        else:
            reply = mobility(o2, p2, board)
            w = 64 * (popcount(reply) + popcount(reply & corners))
            w += 8 * popcount(_around(p2) & E & ~bit)
            if ne >= STABLE_ORDER:
                w -= 16 * popcount(stable(p2, o2, board))
            if bit & odd:
                w -= 32
            if ne >= eval_order:
                if patterns:  # the opponent's view: a low value is a good move
                    w += evaluate(o2, p2, ev[0], ev[1], ev[2], ev[3], ev[4], ev[5]) // 8
                else:
                    w += 8 * _eval_search(o2, p2, EVAL_DEPTH, -EVAL_INF, EVAL_INF, cfg)
        i = k
        while i > 0 and buf_w[ne, i - 1] > w:
            buf_w[ne, i] = buf_w[ne, i - 1]
            buf_s[ne, i] = buf_s[ne, i - 1]
            buf_p[ne, i] = buf_p[ne, i - 1]
            buf_o[ne, i] = buf_o[ne, i - 1]
            i -= 1
        buf_w[ne, i] = w
        buf_s[ne, i] = sq
        buf_p[ne, i] = p2
        buf_o[ne, i] = o2
    best = -NONE
    best_move = -1
    for i in range(count):
        p2 = buf_p[ne, i]
        o2 = buf_o[ne, i]
        if i == 0:
            v = -search(o2, p2, -beta, -alpha, cfg, stats, tt, buf_p, buf_o,
                        buf_w, buf_s, ev)
        else:
            v = -search(o2, p2, -alpha - 1, -alpha, cfg, stats, tt, buf_p, buf_o,
                        buf_w, buf_s, ev)
            if alpha < v < beta and not stats[ABORTED]:
                v = -search(o2, p2, -beta, -v, cfg, stats, tt, buf_p, buf_o,
                            buf_w, buf_s, ev)
        if stats[ABORTED]:
            return 0
        if v > best:
            best = v
            best_move = buf_s[ne, i]
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
    _store(P, O, ne, lo, hi, best_move, tt)
    return best


@njit(cache=True, nogil=True)
def root_order(P: Any, O: Any, cfg: Any, ev: Any, sqs: Any, first: Any) -> Any:
    """The mover's moves in the order :func:`root` tries them, into ``sqs``; how many:
    ``first`` first (:func:`root` passes the caller's move, ``cfg[CFG_FIRST]``), then
    fastest-first and by the pattern evaluation, as in :func:`search` (the same order at
    every call, so that a search given up and called again retraces its steps through
    the table)."""
    board = cfg[CFG_BOARD]
    moves = mobility(P, O, board)
    ws = np.empty(MAX_MOVES, dtype=np.int64)
    patterns = ev[0].shape[0] != 0
    count = 0
    while moves:
        sq = lowest(moves)
        moves &= moves - ONE
        p2, o2 = play(P, O, sq, cfg[CFG_DRAWN])
        reply = mobility(o2, p2, board)
        w = 64 * (popcount(reply) + popcount(reply & cfg[CFG_CLASS]))
        if patterns:
            w += evaluate(o2, p2, ev[0], ev[1], ev[2], ev[3], ev[4], ev[5]) // 8
        if sq == first:
            w = -1000000000
        i = count
        while i > 0 and ws[i - 1] > w:
            ws[i] = ws[i - 1]
            sqs[i] = sqs[i - 1]
            i -= 1
        ws[i] = w
        sqs[i] = sq
        count += 1
    return count


@njit(cache=True, nogil=True)
def child_value(P: Any, O: Any, sq: int, alpha: int, beta: int, cfg: Any, stats: Any,
                tt: Any, buf_p: Any, buf_o: Any, buf_w: Any, buf_s: Any, ev: Any) -> Any:
    """The value of move ``sq`` for the owner of ``P`` within (alpha, beta), by
    :func:`search` without the GIL: how the threads of one solve share a null-window
    search of the root's moves (see ``brains.reversi_endgame``)."""
    p2, o2 = play(P, O, sq, cfg[CFG_DRAWN])
    return -search(o2, p2, -beta, -alpha, cfg, stats, tt, buf_p, buf_o, buf_w, buf_s, ev)


@njit(cache=True)
def root(P: Any, O: Any, alpha: int, beta: int, cfg: Any, stats: Any, tt: Any,
         buf_p: Any, buf_o: Any, buf_w: Any, buf_s: Any, ev: Any) -> Any:
    """:func:`search` of a position, recording in ``stats[ROOT_BEST]`` its best move as
    soon as one is found (-1: none yet; 64: a pass)."""
    board = cfg[CFG_BOARD]
    if not mobility(P, O, board):
        if mobility(O, P, board):
            stats[ROOT_BEST] = 64
            return -search(O, P, -beta, -alpha, cfg, stats, tt, buf_p, buf_o,
                           buf_w, buf_s, ev)
        return final(P, O, cfg)
    sqs = np.empty(MAX_MOVES, dtype=np.int64)
    count = root_order(P, O, cfg, ev, sqs, np.int64(cfg[CFG_FIRST]))
    best = -NONE
    for i in range(count):
        sq = sqs[i]
        p2, o2 = play(P, O, sq, cfg[CFG_DRAWN])
        if i == 0:
            v = -search(o2, p2, -beta, -alpha, cfg, stats, tt, buf_p, buf_o,
                        buf_w, buf_s, ev)
        else:
            v = -search(o2, p2, -alpha - 1, -alpha, cfg, stats, tt, buf_p, buf_o,
                        buf_w, buf_s, ev)
            if alpha < v < beta and not stats[ABORTED]:
                v = -search(o2, p2, -beta, -v, cfg, stats, tt, buf_p, buf_o,
                            buf_w, buf_s, ev)
        if stats[ABORTED]:
            return 0
        if v > best:
            best = v
            stats[ROOT_BEST] = sq
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    return best


# -- the midgame search (8x8, the pattern evaluation) ---------------------------------
@njit(cache=True)
def mid_final(P: Any, O: Any) -> Any:
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
def _mid_slot(P: Any, O: Any, size: int) -> Any:
    """The table slot of a position (``size``: a power of two, at most 2 ** 24): high
    bits of a multiplicative hash."""
    h = P * HASH1 + (O ^ (O >> np.uint64(31))) * HASH2
    return np.int64(h >> np.uint64(40)) & (size - 1)


def mid_new_table(bits: int = MID_TT_BITS) -> tuple[np.ndarray, ...]:
    """An empty table of ``2 ** bits`` entries: keys (mover's, opponent's discs), depth
    (-1: empty), lower bound, upper bound, best move."""
    size = 1 << bits
    return (np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.uint64),
            np.full(size, -1, dtype=np.int8), np.zeros(size, dtype=np.int32),
            np.zeros(size, dtype=np.int32), np.zeros(size, dtype=np.int8))


def mid_buffers() -> tuple[np.ndarray, ...]:
    """The move lists of :func:`mid_search`, one row per ply."""
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


@no_refcount_typed(types.int64(types.uint64, types.uint64, types.int64, types.int64,
                                types.int64, types.int64, *_ARGS))
def mid_search(P: Any, O: Any, depth: int, alpha: int, beta: int, ply: int, weights: Any,
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
            return mid_final(P, O)
        v = -mid_search(O, P, depth, -beta, -alpha, ply + 1, weights, numeric, bias, squares,
                    lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv, bp, bo, bw, bs)
        return v
    if depth <= 0:
        return evaluate(P, O, weights, numeric, bias, squares, lengths, offsets)
    slot = _mid_slot(P, O, td.shape[0])
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
        # the insertion step of search's move sort, restated: one shared inlined helper
        # measured 3 % slower on FFO #40-#44 (the same nodes)
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
            v = -mid_search(o2, p2, depth - 1, -beta, -alpha, ply + 1, weights, numeric, bias,
                        squares, lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv, bp,
                        bo, bw, bs)
        else:
            v = -mid_search(o2, p2, depth - 1, -alpha - 1, -alpha, ply + 1, weights, numeric,
                        bias, squares, lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv,
                        bp, bo, bw, bs)
            if alpha < v < beta and not stats[ABORTED]:
                v = -mid_search(o2, p2, depth - 1, -beta, -v, ply + 1, weights, numeric, bias,
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
def mid_root(P: Any, O: Any, depth: int, order: Any, count: int, weights: Any, numeric: Any,
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
            v = -mid_search(o2, p2, depth - 1, -beta, -alpha, 1, weights, numeric, bias, squares,
                        lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv, bp, bo, bw, bs)
        else:
            v = -mid_search(o2, p2, depth - 1, -alpha - 1, -alpha, 1, weights, numeric, bias,
                        squares, lengths, offsets, stats, tk1, tk2, td, tlo, thi, tmv, bp, bo,
                        bw, bs)
            if v > alpha and not stats[ABORTED]:
                v = -mid_search(o2, p2, depth - 1, -beta, -v, 1, weights, numeric, bias, squares,
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
def mid_play(P: Any, O: Any, sq: int) -> Any:
    """(mover's, opponent's discs) after a legal placement on ``sq``, from the mover's
    side."""
    f = flips(P, O, sq)
    bit = ONE << np.uint64(sq)
    return P | f | bit, O ^ f


# -- layout ------------------------------------------------------------------------------
def embed(mask: int, n: int) -> Any:
    """A mask of a board of side ``n`` (square ``r * n + c``) on the 8x8 layout."""
    if n == 8:
        return mask
    out = 0
    while mask:
        low = mask & -mask
        s = low.bit_length() - 1
        out |= 1 << (s // n * 8 + s % n)
        mask ^= low
    return out


def unembed(mask: int, n: int) -> Any:
    """The inverse of :func:`embed`."""
    if n == 8:
        return mask
    out = 0
    while mask:
        low = mask & -mask
        s = low.bit_length() - 1
        out |= 1 << (s // 8 * n + s % 8)
        mask ^= low
    return out


def config(n: int, drawn: int, empties_to_winner: bool) -> np.ndarray:
    """The ``cfg`` array of a board of side ``n`` (drawn squares on the ``n`` layout)."""
    cfg = np.zeros(CFG_SIZE, dtype=np.uint64)
    cfg[CFG_BOARD] = embed((1 << n * n) - 1, n)
    cfg[CFG_DRAWN] = embed(drawn, n)
    cfg[CFG_ETW] = 1 if empties_to_winner else 0
    cfg[CFG_SQUARES] = n * n
    cfg[CFG_ETC] = ETC
    cfg[CFG_EVAL] = EVAL_ORDER
    cfg[CFG_FIRST] = 64
    h = n // 2
    corners = {0, n - 1, n * (n - 1), n * n - 1}
    near = set()
    for c in corners:
        r0, c0 = divmod(c, n)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, cc = r0 + dr, c0 + dc
                if (dr or dc) and 0 <= r < n and 0 <= cc < n:
                    near.add(r * n + cc)
    quads = [0, 0, 0, 0]
    classes = [0, 0, 0, 0]
    for s in range(n * n):
        r, c = divmod(s, n)
        bit = 1 << (r * 8 + c)
        quads[(r >= h) * 2 + (c >= h)] |= bit
        if s in corners:
            k = 0
        elif s in near:
            k = 3
        elif r in (0, n - 1) or c in (0, n - 1):
            k = 1
        else:
            k = 2
        classes[k] |= bit
    for q in range(4):
        cfg[CFG_QUAD + q] = quads[q]
        cfg[CFG_CLASS + q] = classes[q]
    return cfg


def no_patterns() -> tuple[np.ndarray, ...]:
    """The evaluation argument without pattern tables (boards other than 8x8)."""
    return (np.zeros((0, 1), dtype=np.int32), np.zeros((0, 5), dtype=np.int32),
            np.zeros(0, dtype=np.int64), np.zeros((0, 1), dtype=np.int64),
            np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))


def buffers() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The move lists of :func:`search`, one row per empty count."""
    return (np.zeros((65, MAX_MOVES), dtype=np.uint64),
            np.zeros((65, MAX_MOVES), dtype=np.uint64),
            np.zeros((65, MAX_MOVES), dtype=np.int64),
            np.zeros((65, MAX_MOVES), dtype=np.int64))
