"""Connect Four solver on Python-int bitboards, in the layering of Pascal Pons' solver.

The pieces, each with one job (after Pons' "Solving Connect Four" tutorial; our own code):

- :class:`Position`: an immutable 7x6 bitboard. Column ``c`` owns bits ``7c .. 7c+5``
  (bottom to top) and bit ``7c+6`` is a sentinel kept empty, so ``current + mask`` is a
  unique key and ``mask + BOTTOM`` finds the playable cell of every column at once.
- :class:`TranspositionTable`: a bounded dict of explicit ``(lower, upper)`` score
  bounds per position key.
- move ordering: centre-first columns, then by the number of open threats a move makes.
- :class:`Solver`: negamax with alpha-beta over the score, driven by a null-window
  (binary) search between the smallest and largest possible scores.

Scores follow the convention of Pons' solver and test sets: 0 is a draw;
a positive score means the side to move wins, and is ``(43 - m) // 2`` where ``m`` is the
number of stones on the board when its winning stone is played (the sooner, the larger);
a negative score is minus the opponent's winning score.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.protocol import quote

WIDTH = 7
"""Columns."""
HEIGHT = 6
"""Rows."""
CELLS = WIDTH * HEIGHT
"""Cells on the board (42)."""
MIN_SCORE = -(CELLS // 2) + 3
"""Lowest possible score (-18: lose with the opponent's 4th stone)."""
MAX_SCORE = (CELLS + 1) // 2 - 3
"""Highest possible score (18: win with one's own 4th stone)."""

_H1 = HEIGHT + 1
BOTTOM = sum(1 << (c * _H1) for c in range(WIDTH))
"""One bit at the bottom cell of every column."""
BOARD = BOTTOM * ((1 << HEIGHT) - 1)
"""Every playable cell (sentinel row excluded)."""
_COLUMN = tuple(((1 << HEIGHT) - 1) << (c * _H1) for c in range(WIDTH))
_BOTTOM_OF = tuple(1 << (c * _H1) for c in range(WIDTH))
_TOP_OF = tuple(1 << (HEIGHT - 1 + c * _H1) for c in range(WIDTH))
ORDER = (3, 2, 4, 1, 5, 0, 6)
"""Columns in the order the search tries them (centre first), before threat ordering."""
_ORDER_RANKED = tuple((WIDTH - i, _COLUMN[c]) for i, c in enumerate(ORDER))


def winning_cells(stones: int, mask: int) -> int:
    """Empty cells (playable now or not) that would complete four for ``stones``."""
    # vertical: three stones below
    r = (stones << 1) & (stones << 2) & (stones << 3)
    for s in (_H1, HEIGHT, HEIGHT + 2):  # horizontal, then both diagonals
        p = (stones << s) & (stones << 2 * s)
        r |= p & (stones << 3 * s)
        r |= p & (stones >> s)
        p = (stones >> s) & (stones >> 2 * s)
        r |= p & (stones << s)
        r |= p & (stones >> 3 * s)
    return r & (BOARD ^ mask)


def _has_four(stones: int) -> bool:
    """Whether ``stones`` hold four in a row somewhere."""
    for s in (1, _H1, HEIGHT, HEIGHT + 2):
        pairs = stones & (stones >> s)
        if pairs & (pairs >> 2 * s):
            return True
    return False


def position_of(state: Any) -> Position:
    """The solver position of an engine Connect Four state (read via its ``cur``/``mask``).

    Duck-typed so that this module needs no engine import; raises ValueError for a
    finished game or anything else that is not a Connect Four state.
    """
    try:
        current, mask = state.cur, state.mask
    except AttributeError:
        raise ValueError(f"not a Connect Four state: {type(state).__name__}") from None
    return Position.from_bitboards(current, mask)


class Position:
    """An immutable Connect Four position for the solver.

    ``current`` holds the stones of the side to move, ``mask`` all stones. Columns are
    0-based here (``0`` is the leftmost); :meth:`from_moves` reads the 1-based digits of
    docs/RULES.md (Connect Four) and Pons' test files.
    """

    __slots__ = ("current", "history", "mask", "moves")

    current: int
    """Bitboard of the side to move's stones."""
    mask: int
    """Bitboard of all stones."""
    moves: int
    """Stones on the board."""
    history: str | None
    """The 1-based column digits played from the empty board (None if not known)."""

    def __init__(self) -> None:
        """The empty board."""
        self.current = 0
        self.mask = 0
        self.moves = 0
        self.history = ""

    @classmethod
    def from_moves(cls, moves: str) -> Position:
        """The position after ``moves``, 1-based column digits such as ``"4453"``.

        Raises ValueError when a character is not a column digit 1-7, a column is full,
        or a move completes four (the solver only takes unfinished games).
        """
        pos = cls()
        for i, ch in enumerate(moves, start=1):
            if ch not in "1234567":
                raise ValueError(f"move {i} of {quote(moves)}: {ch!r} is not a column 1-7")
            col = ord(ch) - 49
            if not pos.can_play(col):
                raise ValueError(f"move {i} of {quote(moves)}: column {ch} is full")
            if pos.is_winning_move(col):
                raise ValueError(f"move {i} of {quote(moves)}: column {ch} completes four, "
                                 "so the game is already over")
            pos = pos.play(col)
        return pos

    @classmethod
    def from_columns(cls, columns: Iterable[int]) -> Position:
        """The position after 0-based column indices (the engine's Connect Four moves)."""
        digits = []
        for col in columns:
            if not (isinstance(col, int) and 0 <= col < WIDTH):
                raise ValueError(f"{col!r} is not a column index 0-{WIDTH - 1}")
            digits.append(str(col + 1))
        return cls.from_moves("".join(digits))

    @classmethod
    def from_bitboards(cls, current: int, mask: int) -> Position:
        """The position with ``current`` (side to move's stones) and ``mask`` (all stones).

        The layout is Pons', as in the engine's ``ConnectFourState.cur`` / ``.mask``.
        Raises ValueError unless the stones lie on the board without gaps, the side to
        move has as many stones as the turn implies, and neither side has four already.
        """
        if mask & ~BOARD or current & ~mask:
            raise ValueError("stones off the board, or side-to-move stones not in the mask")
        for col in range(WIDTH):
            stack = mask & _COLUMN[col]
            if (stack + _BOTTOM_OF[col]) & stack:
                raise ValueError(f"column {col + 1} has a gap under a stone")
        moves = mask.bit_count()
        if current.bit_count() != moves // 2:
            raise ValueError(f"the side to move should have {moves // 2} stones, "
                             f"not {current.bit_count()}")
        if _has_four(current) or _has_four(current ^ mask):
            raise ValueError("someone already has four in a row: the game is over")
        pos = cls()
        pos.current, pos.mask, pos.moves, pos.history = current, mask, moves, None
        return pos

    def can_play(self, col: int) -> bool:
        """Whether column ``col`` (0-based) has room."""
        return not self.mask & _TOP_OF[col]

    def play(self, col: int) -> Position:
        """A new position with the side to move's stone dropped in column ``col``.

        Precondition: ``can_play(col)``.
        """
        move = (self.mask + _BOTTOM_OF[col]) & _COLUMN[col]
        child = object.__new__(Position)
        child.current = self.current ^ self.mask
        child.mask = self.mask | move
        child.moves = self.moves + 1
        child.history = None if self.history is None else self.history + chr(49 + col)
        return child

    def is_winning_move(self, col: int) -> bool:
        """Whether dropping in column ``col`` completes four for the side to move."""
        return bool(self.winning_position() & self.possible() & _COLUMN[col])

    def nb_moves(self) -> int:
        """Stones on the board."""
        return self.moves

    def key(self) -> int:
        """A unique integer for this position (``current + mask``)."""
        return self.current + self.mask

    def possible(self) -> int:
        """Bitboard of the cells playable now (one per non-full column)."""
        return (self.mask + BOTTOM) & BOARD

    def winning_position(self) -> int:
        """Empty cells that would complete four for the side to move."""
        return winning_cells(self.current, self.mask)

    def opponent_winning_position(self) -> int:
        """Empty cells that would complete four for the opponent."""
        return winning_cells(self.current ^ self.mask, self.mask)

    def can_win_next(self) -> bool:
        """Whether the side to move has a winning move now."""
        return bool(self.winning_position() & self.possible())

    def possible_non_losing_moves(self) -> int:
        """Playable cells that do not let the opponent win at once (0 if every move does).

        Precondition: the side to move cannot win now.
        """
        possible = self.possible()
        threats = self.opponent_winning_position()
        forced = possible & threats
        if forced:
            if forced & (forced - 1):  # two threats to block: lost
                return 0
            possible = forced
        return possible & ~(threats >> 1)

    def __str__(self) -> str:
        """The board, top row first: ``X`` first player, ``O`` second, ``.`` empty."""
        first = self.current if self.moves % 2 == 0 else self.current ^ self.mask
        rows = []
        for row in reversed(range(HEIGHT)):
            cells = []
            for col in range(WIDTH):
                bit = 1 << (col * _H1 + row)
                cells.append("." if not self.mask & bit else "X" if first & bit else "O")
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def __repr__(self) -> str:
        if self.history is None:
            return f"Position.from_bitboards({self.current:#x}, {self.mask:#x})"
        return f"Position.from_moves({self.history!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.current == other.current
                and self.mask == other.mask)

    def __hash__(self) -> int:
        return hash(self.key())


class SolverStopped(Exception):
    """Raised by :class:`Solver` when its ``stop`` callback asks it to give up."""


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


class Solver:
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


def solve_moves(moves: str, weak: bool = False) -> int:
    """The Pons score of the position after ``moves`` (1-based column digits)."""
    return Solver().solve(Position.from_moves(moves), weak)
