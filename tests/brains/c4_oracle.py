"""The pure-Python Connect Four solver: the oracle the compiled one is checked against.

This was the product's solver (brains/c4solver.py) before its search moved into the
compiled kernel (brains/kernels/connect4.py); it keeps the same algorithm in plain
Python (negamax with null windows, a dict of explicit score bounds, threat ordering),
slow but easy to read, so tests compare the two on many positions.
"""

from __future__ import annotations

from collections.abc import Callable

from brains.c4solver import (
    BOARD,
    BOTTOM,
    CELLS,
    ORDER,
    WIDTH,
    Position,
    SolverStopped,
    winning_cells,
)

_COLUMN = tuple(((1 << 6) - 1) << (c * 7) for c in range(WIDTH))
_ORDER_RANKED = tuple((WIDTH - i, _COLUMN[c]) for i, c in enumerate(ORDER))


class TranspositionTable:
    """Score bounds by position key: ``key -> (lower, upper)``, at most ``size`` entries.

    Both bounds are stored explicitly (no flags folded into the value). When full, the
    oldest half of the entries (insertion order) is dropped, so memory stays bounded and
    recent positions survive.
    """

    __slots__ = ("data", "size")

    def __init__(self, size: int) -> None:
        """An empty table that keeps at most ``size`` (>= 2) positions."""
        if size < 2:
            raise ValueError(f"transposition table size must be at least 2, not {size}")
        self.size = size
        self.data: dict[int, tuple[int, int]] = {}
        """The entries; the solver reads and writes this dict directly for speed."""

    def make_room(self) -> None:
        """Drop the oldest half of the entries if the table is full."""
        data = self.data
        if len(data) >= self.size:
            for key in list(data)[: self.size // 2]:
                del data[key]

    def __len__(self) -> int:
        return len(self.data)

    def clear(self) -> None:
        """Forget every entry."""
        self.data.clear()


class OracleSolver:
    """A strong Connect Four solver: exact Pons scores by null-window negamax.

    ``nodes`` counts the positions searched since the solver was made (or reset). The
    transposition table is kept between calls, so analysing many positions of one game
    reuses earlier work. ``stop`` is polled every few thousand nodes; when it returns
    true the search raises :class:`SolverStopped`.
    """

    def __init__(self, tt_size: int = 1 << 20,
                 stop: Callable[[], bool] | None = None) -> None:
        """A solver whose table keeps at most ``tt_size`` positions."""
        self.table = TranspositionTable(tt_size)
        """Score bounds found so far, shared by every call."""
        self.stop = stop
        """Polled during search; true aborts it with :class:`SolverStopped`."""
        self.nodes = 0
        """Positions searched (negamax calls)."""

    def reset(self) -> None:
        """Clear the transposition table and the node counter."""
        self.table.clear()
        self.nodes = 0

    def solve(self, position: Position, weak: bool = False) -> int:
        """The exact score of ``position`` for the side to move (Pons' convention).

        With ``weak`` only the outcome: 1 win, 0 draw, -1 loss. ``position`` must be
        unfinished (as :meth:`Position.from_moves` guarantees).
        """
        moves = position.moves
        if position.can_win_next():
            return 1 if weak else (CELLS + 1 - moves) // 2
        lo = -((CELLS - moves) // 2)
        hi = (CELLS + 1 - moves) // 2
        if weak:
            lo, hi = -1, 1
        negamax = self._search
        cur, mask = position.current, position.mask
        while lo < hi:  # binary search with null windows [med, med + 1]
            med = lo + (hi - lo) // 2
            if med <= 0 and int(lo / 2) < med:  # probe near 0 first: cheaper windows
                med = int(lo / 2)
            elif med >= 0 and int(hi / 2) > med:
                med = int(hi / 2)
            r = negamax(cur, mask, moves, med, med + 1)
            if r <= med:
                hi = r
            else:
                lo = r
        if weak:
            return (lo > 0) - (lo < 0)
        return lo

    def analyse(self, position: Position, weak: bool = False) -> list[int | None]:
        """Score of each column 0..6 for the side to move if played now; None if full.

        The best of them is ``solve(position)``. With ``weak`` only their signs.
        """
        scores: list[int | None] = []
        for col in range(WIDTH):
            if not position.can_play(col):
                scores.append(None)
            elif position.is_winning_move(col):
                scores.append(1 if weak else (CELLS + 1 - position.moves) // 2)
            else:
                scores.append(-self.solve(position.play(col), weak))
        return scores

    def _search(self, cur: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        """Negamax with alpha-beta on raw bitboards (``alpha < beta``).

        Precondition: the side to move (stones ``cur``) cannot win at once.
        Contract (Pons): if the true score v <= alpha, returns r with v <= r <= alpha;
        if v >= beta, returns r with beta <= r <= v; otherwise returns v exactly.
        """
        table = self.table
        tt = table.data
        tt_get = tt.get
        tt_size = table.size
        make_room = table.make_room
        stop = self.stop
        order = _ORDER_RANKED
        nodes = 0

        def negamax(cur: int, mask: int, moves: int, alpha: int, beta: int,
                    threats: int) -> int:
            # threats: the empty cells where the opponent would complete four
            nonlocal nodes
            nodes += 1
            if stop is not None and not nodes & 4095 and stop():
                raise SolverStopped(f"stopped after {nodes} nodes")
            possible = (mask + BOTTOM) & BOARD
            forced = possible & threats
            if forced:
                if forced & (forced - 1):
                    return -((CELLS - moves) // 2)  # two threats: the opponent wins next
                possible = forced
            nxt = possible & ~(threats >> 1)
            if not nxt:
                return -((CELLS - moves) // 2)
            if moves >= CELLS - 2:
                return 0
            low = -((CELLS - 2 - moves) // 2)  # we cannot lose before the opponent's 2nd stone
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
            high = (CELLS - 1 - moves) // 2  # nor win with our next stone
            key = cur + mask
            entry = tt_get(key)
            if entry is not None:
                if entry[0] > low:
                    low = entry[0]
                    if alpha < low:
                        alpha = low
                        if alpha >= beta:
                            return alpha
                if entry[1] < high:
                    high = entry[1]
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
            # our winning cells after each move (winning_cells inlined): they order the
            # moves (most threats first, ties centre first) and are the child's threats
            free = BOARD ^ mask
            children = []
            for rank, col_mask in order:
                move = nxt & col_mask
                if move:
                    s = cur | move
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
                    r &= free
                    children.append((r.bit_count() << 3 | rank, move, r))
            if len(children) > 1:
                children.sort(reverse=True)
            alpha0 = alpha
            opp = cur ^ mask
            for _, move, child_threats in children:
                score = -negamax(opp, mask | move, moves + 1, -beta, -alpha, child_threats)
                if score >= beta:
                    if len(tt) >= tt_size:
                        make_room()
                    tt[key] = (score, high)
                    return score
                if score > alpha:
                    alpha = score
            if len(tt) >= tt_size:
                make_room()
            tt[key] = (alpha, alpha) if alpha > alpha0 else (low, alpha)
            return alpha

        try:
            return negamax(cur, mask, moves, alpha, beta,
                           winning_cells(cur ^ mask, mask))
        finally:
            self.nodes += nodes


def oracle_score(moves: str, weak: bool = False) -> int:
    """The Pons score of the position after ``moves`` by the pure-Python solver."""
    return OracleSolver().solve(Position.from_moves(moves), weak)
