"""Exact Reversi endgame solver: the final disc difference with best play.

:func:`solve` searches a position to the end of the game and returns its value for the
side to move, the best move and a principal variation; :func:`can_settle` says, from a
table of measured times, whether a position is likely to be settled within a time.

Score: the side to move's discs minus the opponent's discs when neither side can move,
empty squares counted for nobody, exactly as the engine's outcome counts them
(``ReversiState.counts``; docs/RULES.md, Reversi). Its sign is the game's result for the
side to move. The tournament convention, where the winner also gets the empty squares,
is available with ``empties_to_winner=True``; both conventions agree on the sign.

The search works on Python-int bitboards of the mover's and the opponent's discs:

- move generation by shift-and-mask flood fills (one per direction, doubling steps), and
  flips from rays precomputed per square (the engine's :class:`Geometry` tables);
- negamax alpha-beta, fail-soft, with principal-variation search (null windows for all but
  the first move) and, at the root, an aspiration window around a shallow estimate;
- move ordering: the transposition table's move, then fastest-first (fewest replies for
  the opponent, corners counted twice) with a bonus for squares in a region holding an
  odd number of empties (parity); in the last empties, where sorting costs more than it
  saves, a fixed square order (corners first, squares next to corners last) with odd
  regions first;
- a transposition table of score bounds for positions with many empties only;
- passes: a side with no placement passes; two passes in a row end the game.

Supports boards of 8, 6 and 4 and the FlipColor variant (a disc placed on a drawn square
turns to the opponent). The stop (a deadline, or an event or callable) is polled every
:data:`POLL` nodes; a stopped search returns ``exact=False``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.games.reversi import PASS, geometry

POLL = 1024
"""Nodes between two checks of the clock and the stop signal (checked at nodes of more
than :data:`SHALLOW` empties, whose subtrees take milliseconds)."""
SHALLOW = 7
"""At or below this many empties the search uses the fixed square order and no table."""
TT_LIMIT = 1 << 19
"""Positions kept in the transposition table before it is cleared (about 60 MB)."""
_NONE = 100
"""A bound past every score (scores lie within the number of squares, at most 64)."""

REACH: dict[int, tuple[tuple[int, float], ...]] = {
    8: ((10, 0.05), (12, 0.25), (13, 0.5), (14, 1.5), (15, 2.5), (16, 8.0), (17, 20.0),
        (18, 60.0), (20, 600.0)),
    6: ((12, 0.15), (15, 1.0), (16, 5.0), (18, 7.0), (19, 25.0), (20, 60.0), (22, 600.0)),
    4: ((12, 0.1),),
}
"""Per board size: (empties, seconds) rows, the slowest solve measured at up to that many
empties, rounded up (``python -m benchmarks.reversi_endgame``, docs/STRENGTH.md, "Exact
Reversi endgames"); rows where some solve passed the benchmark's 12 s cap (8x8 from 17
empties, 6x6 from 19) are extrapolated, about three times the time per extra empty."""


@dataclass(frozen=True)
class Result:
    """What :func:`solve` found.

    ``score``: the final disc difference for the side to move with best play (None when
    stopped before it was proven). ``best_move``: a move that achieves it (the best found
    so far when stopped; None at the end of the game). ``pv``: the moves of a best line to
    the end (engine moves: square numbers, :data:`~engine.games.reversi.PASS` for a pass;
    possibly shorter than the game when the time ran out while it was traced).
    ``nodes``: positions searched. ``exact``: whether ``score`` is proven.
    """

    score: int | None
    best_move: int | None
    pv: tuple[int, ...]
    nodes: int
    exact: bool


class Stopped(Exception):
    """Raised inside the search when its time is up or its stop signal is set."""


def empties_of(state: Any) -> int:
    """Number of empty squares of a Reversi state."""
    board: int = state.size * state.size
    stones: int = (state.me | state.them).bit_count()
    return board - stones


def can_settle(state: Any, seconds: float) -> bool:
    """Whether :func:`solve` is expected to finish within ``seconds`` on ``state``.

    An estimate from the empty count and :data:`REACH`, the slowest solve measured for each
    count (so it is cautious for typical positions); False above the table's last row and
    for anything that is not a Reversi state (so any game's state may be asked).
    """
    try:
        table = REACH.get(state.size)
        empties = empties_of(state)
    except (AttributeError, TypeError):
        return False
    if not table:
        return False
    for count, worst in table:
        if empties <= count:
            return worst <= seconds
    return False


def _stop_test(budget_seconds: float | None, stop: Any) -> Callable[[], bool] | None:
    """One function telling whether the search must stop, or None when nothing can stop it."""
    deadline = None if budget_seconds is None else time.monotonic() + max(0.0, budget_seconds)
    if stop is not None and not callable(stop):
        is_set = getattr(stop, "is_set", None)
        if not callable(is_set):
            raise TypeError(f"stop must be callable or have is_set(), not {type(stop).__name__}")
        stop = is_set
    if deadline is None and stop is None:
        return None
    clock = time.monotonic

    def must_stop() -> bool:
        return (deadline is not None and clock() >= deadline) or (stop is not None and bool(stop()))

    return must_stop


class _Search:
    """The search for one board size, FlipColor mask and scoring convention."""

    def __init__(self, n: int, drawn: int, empties_to_winner: bool,
                 must_stop: Callable[[], bool] | None) -> None:
        geo = geometry(n)
        self.n = n
        self.nodes = 0
        self.next_poll = POLL
        """Node count at which the stop is next checked."""
        self.tt: dict[int, int] = {}
        """Position ``P << 64 | O`` to its packed bounds: bits 16.. lower + 128, bits 8..15
        upper + 128, bits 0..7 the best move + 1 (0: none)."""
        self.must_stop = must_stop
        self.root_best: int | None = None
        """The best root move found so far."""
        full = geo.full
        self.full = full
        inner = geo.inner
        # Per direction: the shift and the mask of opponent discs that may lie on a ray
        # (without the edge columns for the directions that move sideways).
        n1, n2 = n + 1, n - 1
        pos_rays, neg_rays = geo.pos_rays, geo.neg_rays

        def mobility(P: int, O: int) -> int:
            """Empty squares where the owner of ``P`` may place a disc (doubling fills)."""
            E = ~(P | O) & full
            m = O & inner
            moves = 0
            # sideways: shift 1
            x = m & (P << 1); x |= m & (x << 1); mm = m & (m << 1)
            x |= mm & (x << 2); x |= mm & (x << 2); moves |= E & (x << 1)
            x = m & (P >> 1); x |= m & (x >> 1); mm = m & (m >> 1)
            x |= mm & (x >> 2); x |= mm & (x >> 2); moves |= E & (x >> 1)
            # vertical: shift n, every opponent disc
            x = O & (P << n); x |= O & (x << n); mm = O & (O << n)
            x |= mm & (x << 2 * n); x |= mm & (x << 2 * n); moves |= E & (x << n)
            x = O & (P >> n); x |= O & (x >> n); mm = O & (O >> n)
            x |= mm & (x >> 2 * n); x |= mm & (x >> 2 * n); moves |= E & (x >> n)
            # diagonals: shifts n + 1 and n - 1
            x = m & (P << n1); x |= m & (x << n1); mm = m & (m << n1)
            x |= mm & (x << 2 * n1); x |= mm & (x << 2 * n1); moves |= E & (x << n1)
            x = m & (P >> n1); x |= m & (x >> n1); mm = m & (m >> n1)
            x |= mm & (x >> 2 * n1); x |= mm & (x >> 2 * n1); moves |= E & (x >> n1)
            x = m & (P << n2); x |= m & (x << n2); mm = m & (m << n2)
            x |= mm & (x << 2 * n2); x |= mm & (x << 2 * n2); moves |= E & (x << n2)
            x = m & (P >> n2); x |= m & (x >> n2); mm = m & (m >> n2)
            x |= mm & (x >> 2 * n2); x |= mm & (x >> 2 * n2); moves |= E & (x >> n2)
            return moves

        def flips(P: int, O: int, sq: int) -> int:
            """Opponent discs flipped by a disc of ``P``'s owner on ``sq`` (0: no move)."""
            f = 0
            for nb, ray in pos_rays[sq]:
                if O & nb:
                    b = ray & ~O
                    if b:
                        b &= -b
                        if b & P:
                            f |= ray & (b - 1)
            for nb, ray in neg_rays[sq]:
                if O & nb:
                    b = ray & ~O
                    if b:
                        b = 1 << b.bit_length() - 1
                        if b & P:
                            f |= ray & -(b << 1)
            return f

        self.mobility = mobility
        self.flips = flips
        self.drawn = drawn
        self.empties_to_winner = empties_to_winner

        # Fixed square order: corners, then edges and inner squares, X and C squares last.
        corners = {0, n - 1, n * (n - 1), n * n - 1}
        near = set()
        for c in corners:
            r0, c0 = divmod(c, n)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    r, cc = r0 + dr, c0 + dc
                    if (dr or dc) and 0 <= r < n and 0 <= cc < n:
                        near.add(r * n + cc)

        def rank(s: int) -> int:
            r, c = divmod(s, n)
            if s in corners:
                return 0
            if s in near:
                return 3
            if r in (0, n - 1) or c in (0, n - 1):
                return 1
            return 2

        self.order = tuple(sorted(range(n * n), key=lambda s: (rank(s), s)))
        h = n // 2
        self.quadrant = tuple(1 << ((s // n >= h) * 2 + (s % n >= h)) for s in range(n * n))
        """Per square: the bit of its quadrant, for parity."""
        self.corner_mask = sum(1 << c for c in corners)
        self.neighbours = tuple(
            sum(1 << (r + dr) * n + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n)
            for r, c in (divmod(s, n) for s in range(n * n)))
        """Per square: the mask of its neighbours (no flip without an opponent one)."""
        self._build_last()

    # -- scoring ------------------------------------------------------------------------
    def final(self, P: int, O: int) -> int:
        """The score of a finished game for the owner of ``P``."""
        d = P.bit_count() - O.bit_count()
        if self.empties_to_winner and d:
            e = self.n * self.n - (P | O).bit_count()
            return d + e if d > 0 else d - e
        return d

    # -- search -------------------------------------------------------------------------
    def solve_root(self, P: int, O: int) -> tuple[int, int | None]:
        """(score, best move) of the position; raises :class:`Stopped`."""
        empties = tuple(s for s in self.order if not (P | O) >> s & 1)
        parity = 0
        for s in empties:
            parity ^= self.quadrant[s]
        lim = self.n * self.n
        # Aspiration: a window around a shallow guess, widened when the value falls out.
        guess = self.guess(P, O)
        lo, hi = max(-lim, guess - 4), min(lim, guess + 4)
        while True:
            score, move = self.root(P, O, lo, hi, empties, parity)
            if score <= lo and lo > -lim:
                lo = -lim
            elif score >= hi and hi < lim:
                hi = lim
            else:
                return score, move

    def guess(self, P: int, O: int) -> int:
        """A rough estimate of the final score: half the disc difference, within ±8."""
        return max(-8, min(8, 2 * ((P.bit_count() - O.bit_count()) // 4)))

    def root(self, P: int, O: int, alpha: int, beta: int, empties: tuple[int, ...],
             parity: int) -> tuple[int, int | None]:
        """Principal-variation search of the root's moves within (alpha, beta)."""
        children = self.children(P, O, empties, parity, None)
        if not children:
            if self.mobility(O, P):
                self.root_best = PASS
                score = -self.search(O, P, -beta, -alpha, empties, parity)
                return score, PASS
            return self.final(P, O), None
        best, best_move = -10**9, children[0][1]
        if self.root_best is not None:  # the previous window's best move first
            children.sort(key=lambda c: c[1] != self.root_best)
            best_move = self.root_best
        a = alpha
        for i, (_, sq, o2, p2, rest, par2) in enumerate(children):
            if i == 0:
                v = -self.search(o2, p2, -beta, -a, rest, par2)
            else:
                v = -self.search(o2, p2, -a - 1, -a, rest, par2)
                if a < v < beta:
                    v = -self.search(o2, p2, -beta, -v, rest, par2)
            if v > best:
                best, best_move = v, sq
                self.root_best = sq
                if v > a:
                    a = v
                    if a >= beta:
                        break
        return best, best_move

    def children(self, P: int, O: int, empties: tuple[int, ...], parity: int,
                 first: int | None) -> list[tuple[int, int, int, int, tuple[int, ...], int]]:
        """The moves of ``P``'s owner sorted best-first:
        (weight, square, opponent's discs after, mover's discs after, empties, parity)."""
        mobility, flips, drawn = self.mobility, self.flips, self.drawn
        quadrant, corner_mask = self.quadrant, self.corner_mask
        moves = mobility(P, O)
        out = []
        for i, sq in enumerate(empties):
            bit = 1 << sq
            if not moves & bit:
                continue
            f = flips(P, O, sq)
            if bit & drawn:
                p2, o2 = P | f, O ^ f | bit
            else:
                p2, o2 = P | f | bit, O ^ f
            reply = mobility(o2, p2)
            w = reply.bit_count() + (reply & corner_mask).bit_count()
            w = 4 * w - (2 if parity & quadrant[sq] else 0)
            if sq == first:
                w = -1000
            out.append((w, sq, o2, p2, empties[:i] + empties[i + 1:], parity ^ quadrant[sq]))
        out.sort()
        return out

    def search(self, P: int, O: int, alpha: int, beta: int, empties: tuple[int, ...],
               parity: int) -> int:
        """Fail-soft negamax value of the position for the owner of ``P`` in (alpha, beta)."""
        if len(empties) <= SHALLOW:
            return self.shallow(P, O, alpha, beta, empties, parity)
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self.next_poll = self.nodes + POLL
            if self.must_stop is not None and self.must_stop():
                raise Stopped
        key = P << 64 | O
        tt = self.tt
        entry = tt.get(key)
        first = None
        lo, hi = -_NONE, _NONE
        if entry is not None:
            lo, hi, first = (entry >> 16) - 128, (entry >> 8 & 255) - 128, (entry & 255) - 1
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        a0 = alpha
        children = self.children(P, O, empties, parity, first)
        if not children:
            if self.mobility(O, P):
                return -self.search(O, P, -beta, -alpha, empties, parity)
            return self.final(P, O)
        best, best_move = -10**9, -1
        search = self.search
        for i, (_, sq, o2, p2, rest, par2) in enumerate(children):
            if i == 0:
                v = -search(o2, p2, -beta, -alpha, rest, par2)
            else:
                v = -search(o2, p2, -alpha - 1, -alpha, rest, par2)
                if alpha < v < beta:
                    v = -search(o2, p2, -beta, -v, rest, par2)
            if v > best:
                best, best_move = v, sq
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if len(tt) >= TT_LIMIT:
            tt.clear()
        if best <= a0:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        tt[key] = (lo + 128) << 16 | (hi + 128) << 8 | (best_move + 1)
        return best

    def _build_last(self) -> None:
        """Build the closures for the last empties (fewer lookups than methods).

        ``shallow`` (4 to :data:`SHALLOW` empties) tries squares in odd regions first,
        then the rest, in the fixed square order; ``solve3``, ``solve2`` and ``last1``
        are unrolled for three, two and one empties. None uses the table.
        """
        flips, drawn, quadrant, final = self.flips, self.drawn, self.quadrant, self.final
        neighbours = self.neighbours
        search = self

        def last1(P: int, O: int, sq: int) -> int:
            if O & neighbours[sq]:
                f = flips(P, O, sq)
                if f:
                    if drawn >> sq & 1:
                        return P.bit_count() - O.bit_count() + 2 * f.bit_count() - 1
                    return P.bit_count() - O.bit_count() + 2 * f.bit_count() + 1
            if P & neighbours[sq]:
                f = flips(O, P, sq)
                if f:
                    if drawn >> sq & 1:
                        return P.bit_count() - O.bit_count() - 2 * f.bit_count() + 1
                    return P.bit_count() - O.bit_count() - 2 * f.bit_count() - 1
            return final(P, O)

        def solve2(P: int, O: int, alpha: int, beta: int, x1: int, x2: int) -> int:
            best = -1000
            if O & neighbours[x1]:
                f = flips(P, O, x1)
                if f:
                    bit = 1 << x1
                    if bit & drawn:
                        best = -last1(O ^ f | bit, P | f, x2)
                    else:
                        best = -last1(O ^ f, P | f | bit, x2)
                    if best >= beta:
                        return best
            if O & neighbours[x2]:
                f = flips(P, O, x2)
                if f:
                    bit = 1 << x2
                    if bit & drawn:
                        v = -last1(O ^ f | bit, P | f, x1)
                    else:
                        v = -last1(O ^ f, P | f | bit, x1)
                    return max(best, v)
            if best > -1000:
                return best
            if (P & neighbours[x1] and flips(O, P, x1)) or (P & neighbours[x2] and flips(O, P, x2)):
                return -solve2(O, P, -beta, -alpha, x1, x2)
            return final(P, O)

        def solve3(P: int, O: int, alpha: int, beta: int, x1: int, x2: int, x3: int,
                   parity: int) -> int:
            search.nodes += 1
            if not parity & quadrant[x1]:  # a square in an odd region first
                if parity & quadrant[x2]:
                    x1, x2 = x2, x1
                elif parity & quadrant[x3]:
                    x1, x3 = x3, x1
            best = -1000
            for sq, a, b in ((x1, x2, x3), (x2, x1, x3), (x3, x1, x2)):
                if O & neighbours[sq]:
                    f = flips(P, O, sq)
                    if f:
                        bit = 1 << sq
                        if bit & drawn:
                            v = -solve2(O ^ f | bit, P | f, -beta, -alpha, a, b)
                        else:
                            v = -solve2(O ^ f, P | f | bit, -beta, -alpha, a, b)
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                                if v >= beta:
                                    return v
            if best > -1000:
                return best
            for sq in (x1, x2, x3):
                if P & neighbours[sq] and flips(O, P, sq):
                    return -solve3(O, P, -beta, -alpha, x1, x2, x3, parity)
            return final(P, O)

        def shallow(P: int, O: int, alpha: int, beta: int, empties: tuple[int, ...],
                    parity: int) -> int:
            ne = len(empties)
            if ne <= 3:
                if ne == 3:
                    return solve3(P, O, alpha, beta, empties[0], empties[1], empties[2],
                                  parity)
                if ne == 2:
                    return solve2(P, O, alpha, beta, empties[0], empties[1])
                if ne == 1:
                    return last1(P, O, empties[0])
                return final(P, O)
            search.nodes += 1
            best = -1000
            odd = [i for i, sq in enumerate(empties) if parity & quadrant[sq]]
            if len(odd) < ne:
                odd += [i for i, sq in enumerate(empties) if not parity & quadrant[sq]]
            for i in odd:
                sq = empties[i]
                if not O & neighbours[sq]:
                    continue
                f = flips(P, O, sq)
                if not f:
                    continue
                bit = 1 << sq
                if bit & drawn:
                    p2, o2 = P | f, O ^ f | bit
                else:
                    p2, o2 = P | f | bit, O ^ f
                v = -shallow(o2, p2, -beta, -alpha, empties[:i] + empties[i + 1:],
                             parity ^ quadrant[sq])
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            return v
            if best > -1000:
                return best
            for sq in empties:
                if P & neighbours[sq] and flips(O, P, sq):
                    return -shallow(O, P, -beta, -alpha, empties, parity)
            return final(P, O)

        self.shallow = shallow
        self.last1 = last1

    def principal_variation(self, P: int, O: int, score: int, first: int | None,
                            pv: list[int]) -> None:
        """Append to ``pv`` a line of best moves from the position of value ``score``
        (the moves found so far stay when :class:`Stopped` is raised)."""
        move = first
        while move is not None:
            pv.append(move)
            if move == PASS:
                P, O = O, P
            else:
                bit = 1 << move
                f = self.flips(P, O, move)
                if bit & self.drawn:
                    P, O = O ^ f | bit, P | f
                else:
                    P, O = O ^ f, P | f | bit
            score = -score
            move = self.best_move_for(P, O, score)

    def best_move_for(self, P: int, O: int, score: int) -> int | None:
        """A move reaching ``score`` from the position (None at the end of the game)."""
        moves = self.mobility(P, O)
        if not moves:
            return PASS if self.mobility(O, P) else None
        empties = tuple(s for s in self.order if not (P | O) >> s & 1)
        parity = 0
        for s in empties:
            parity ^= self.quadrant[s]
        for _, sq, o2, p2, rest, par2 in self.children(P, O, empties, parity, None):
            # the child is worth exactly -score iff its value is <= -score (none is lower)
            if -self.search(o2, p2, -score, -score + 1, rest, par2) >= score:
                return sq
        raise AssertionError("no move reaches the proven score")  # pragma: no cover


def solve(state: Any, budget_seconds: float | None = None, stop: Any = None, *,
          empties_to_winner: bool = False) -> Result:
    """The exact final disc difference of a Reversi ``state`` with best play.

    ``budget_seconds`` bounds the time (None: no bound); ``stop`` is a callable or an
    object with ``is_set()`` (a :class:`threading.Event`) asked every :data:`POLL` nodes.
    When either ends the search, the result has ``exact=False``, ``score=None`` and the
    best root move found so far. Without either the search runs to the end, which is only
    reasonable for a small number of empties (see :func:`can_settle`).

    Raises ValueError for a state that is not a Reversi position.
    """
    try:
        n, P, O = state.size, state.me, state.them
        drawn = sum(1 << s for s in state.drawn_squares)
    except AttributeError:
        raise ValueError(f"not a Reversi state: {type(state).__name__}") from None
    if n not in REACH or not isinstance(P, int) or not isinstance(O, int) or P & O:
        raise ValueError(f"not a Reversi state: {type(state).__name__}")
    must_stop = _stop_test(budget_seconds, stop)
    search = _Search(n, drawn, empties_to_winner, must_stop)
    try:
        score, best = search.solve_root(P, O)
    except Stopped:
        return Result(None, search.root_best, (), search.nodes, False)
    pv: list[int] = []
    with contextlib.suppress(Stopped):
        search.principal_variation(P, O, score, best, pv)
    return Result(score, best, tuple(pv), search.nodes, True)
