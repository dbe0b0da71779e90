"""Connect Four solver on Python-int bitboards, in the layering of Pascal Pons' solver.

The pieces, each with one job (after Pons' "Solving Connect Four" tutorial; our own code):

- :class:`Position`: an immutable 7x6 bitboard. Column ``c`` owns bits ``7c .. 7c+5``
  (bottom to top) and bit ``7c+6`` is a sentinel kept empty, so ``current + mask`` is a
  unique key and ``mask + BOTTOM`` finds the playable cell of every column at once.
- :class:`Solver`: negamax with alpha-beta over the score, driven by a null-window
  (binary) search between the smallest and largest possible scores; moves ordered centre
  first, then by the number of open threats they make; a transposition table of explicit
  lower and upper score bounds. The search itself is compiled
  (:mod:`brains.kernels.connect4`, numba): importing this module does not import numba,
  the first search does (compiled once, then loaded from numba's disk cache).

Scores follow the convention of Pons' solver and test sets: 0 is a draw;
a positive score means the side to move wins, and is ``(43 - m) // 2`` where ``m`` is the
number of stones on the board when its winning stone is played (the sooner, the larger);
a negative score is minus the opponent's winning score.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from brains.kernels import THREADS
from engine.files import read_capped
from engine.protocol import ParlorError, quote
from saved import shipped_file

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
        raise ParlorError(f"not a Connect Four state: {type(state).__name__}") from None
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
                raise ParlorError(f"move {i} of {quote(moves)}: {ch!r} is not a column 1-7")
            col = ord(ch) - 49
            if not pos.can_play(col):
                raise ParlorError(f"move {i} of {quote(moves)}: column {ch} is full")
            if pos.is_winning_move(col):
                raise ParlorError(f"move {i} of {quote(moves)}: column {ch} completes four, "
                                 "so the game is already over")
            pos = pos.play(col)
        return pos

    @classmethod
    def from_columns(cls, columns: Iterable[int]) -> Position:
        """The position after 0-based column indices (the engine's Connect Four moves)."""
        digits = []
        for col in columns:
            if not (isinstance(col, int) and 0 <= col < WIDTH):
                raise ParlorError(f"{col!r} is not a column index 0-{WIDTH - 1}")
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
            raise ParlorError("stones off the board, or side-to-move stones not in the mask")
        for col in range(WIDTH):
            stack = mask & _COLUMN[col]
            if (stack + _BOTTOM_OF[col]) & stack:
                raise ParlorError(f"column {col + 1} has a gap under a stone")
        moves = mask.bit_count()
        if current.bit_count() != moves // 2:
            raise ParlorError(f"the side to move should have {moves // 2} stones, "
                             f"not {current.bit_count()}")
        if _has_four(current) or _has_four(current ^ mask):
            raise ParlorError("someone already has four in a row: the game is over")
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


TABLE_SIZE = 4194319
"""Slots in a solver's transposition table by default (a prime above 2^22: 32 MB, taken
when the solver first searches)."""
_POLL = 0.005
"""Seconds between two calls of a solver's ``stop`` callback while the kernel runs."""

_kernel_module: Any = None
_kernel_lock = threading.Lock()


def _kernel() -> Any:
    """The compiled search core (:mod:`brains.kernels.connect4`), compiled or loaded from
    numba's disk cache on first use, which is announced once (``preparing …``)."""
    global _kernel_module
    if _kernel_module is None:
        with _kernel_lock:
            if _kernel_module is None:
                from brains.kernels import preparing

                with preparing("the Connect Four solver"):
                    from brains.kernels import connect4

                    connect4.warm_up()
                _kernel_module = connect4
    return _kernel_module


def _prime_at_least(n: int) -> int:
    def prime(k: int) -> bool:
        return k > 1 and all(k % d for d in range(2, int(k ** 0.5) + 1))

    while not prime(n):
        n += 1
    return n


class Solver:
    """A strong Connect Four solver: exact Pons scores by null-window negamax, run by the
    compiled kernel :mod:`brains.kernels.connect4` (centre-first, threat-ordered moves,
    a transposition table of score bounds in numpy arrays).

    ``nodes`` counts the positions searched since the solver was made (or reset). The
    transposition table is kept between calls, so analysing many positions of one game
    reuses earlier work. ``stop`` is called every few milliseconds from a helper thread
    while the kernel runs (and once before it starts); when it returns true the search
    gives up and raises :class:`SolverStopped`. ``max_nodes`` (0: no limit) makes each
    call give up the same way once it has searched that many nodes (checked every 1,024).

    :meth:`analyse` searches the columns on :attr:`threads` threads at once (two by
    default where the machine has two cores), each column one search, all sharing the
    table (an entry is one 64-bit word, so a race loses an entry, never corrupts one);
    the scores are the same as on one thread, the wall-clock time about halved where the
    columns' searches are alike. With a node budget it keeps to one thread.
    """

    def __init__(self, tt_size: int = TABLE_SIZE,
                 stop: Callable[[], bool] | None = None, max_nodes: int = 0,
                 book: bool = True, threads: int | None = None) -> None:
        """A solver whose table has ``tt_size`` slots (rounded up to a prime of at least
        131,101; the memory is taken when the solver first searches). With ``book`` it
        answers from the shipped exact opening book (:func:`exact_book`)
        where that has the position, and its search looks up the book's deepest layer.
        :meth:`analyse` solves the columns on ``threads`` threads at once (None:
        :data:`THREADS`), sharing the table."""
        if tt_size < 2:
            raise ParlorError(f"transposition table size must be at least 2, not {tt_size}")
        self.table_size = _prime_at_least(max(tt_size, 131101))
        """Slots in the transposition table."""
        self.stop = stop
        """Polled during search; true aborts it with :class:`SolverStopped`."""
        self.max_nodes = max_nodes
        """Nodes one call may search before giving up (0: no limit)."""
        self.nodes = 0
        """Positions searched (negamax calls)."""
        self.book = book
        """Whether the shipped exact book is used."""
        if threads is not None and threads < 1:
            raise ParlorError(f"a solver needs at least one thread, not {threads}")
        self.threads = THREADS if threads is None else threads
        """Threads :meth:`analyse` uses (one whenever ``max_nodes`` is set, so that a node
        budget gives the same answer on every run)."""
        self._arrays: tuple[Any, ...] | None = None
        self._more_work: list[Any] = []  # the scratch of the analysis' other threads
        self._lock = threading.Lock()

    def _book(self) -> ExactBook | None:
        """The exact book in use (None without one)."""
        if not self.book:
            return None
        return exact_book()

    def _tables(self) -> tuple[Any, Any]:
        if self._arrays is None:
            kernel = _kernel()
            self._arrays = (kernel.new_table(self.table_size), kernel.new_work())
        return self._arrays

    def reset(self) -> None:
        """Clear the transposition table and the node counter."""
        if self._arrays is not None:
            self._arrays[0].fill(0)
        self.nodes = 0

    def _run(self, entry: Callable[..., Any], position: Position, weak: bool,
             *extra: Any) -> Any:
        with self._lock:  # the kernel's scratch is per solver: one search at a time
            return self._run_locked(entry, [position], weak, 1, *extra)[0]

    def _run_locked(self, entry: Callable[..., Any], positions: list[Position], weak: bool,
                    threads: int, *extra: Any) -> list[Any]:
        """``entry`` on each of ``positions`` (``extra`` after the kernel's arguments), on
        up to ``threads`` threads sharing the table, each with its own scratch; the
        results in order. Raises :class:`SolverStopped` if any search gave up."""
        import numpy as np

        kernel = _kernel()
        table, work = self._tables()
        stop = self.stop
        if stop is not None and stop():
            raise SolverStopped("stopped before the search")
        threads = max(1, min(threads, len(positions)))
        while len(self._more_work) < threads - 1:
            self._more_work.append(kernel.new_work())
        works = [work, *self._more_work[: threads - 1]]
        for scratch in works:
            scratch[: kernel.SCRATCH] = 0
            scratch[kernel.LIMIT] = self.max_nodes
        book = self._book()
        layer = kernel.no_book() if book is None else book.kernel_arrays()
        results: list[Any] = [None] * len(positions)
        queue = iter(range(len(positions)))
        taken = threading.Lock()

        def search(scratch: Any) -> None:  # one thread's share: the next position left
            while not scratch[kernel.ABORTED]:
                with taken:
                    at = next(queue, None)
                if at is None:
                    return
                position = positions[at]
                results[at] = entry(np.int64(position.current), np.int64(position.mask),
                                    np.int64(position.moves), bool(weak), table, scratch,
                                    *layer, *extra)

        helpers = [threading.Thread(target=search, args=(scratch,), daemon=True,
                                    name="c4solver-search") for scratch in works[1:]]
        done = threading.Event()

        def watch() -> None:
            while not done.wait(_POLL):
                if stop is not None and stop():
                    for scratch in works:
                        scratch[kernel.STOP] = 1
                    return

        watcher = threading.Thread(target=watch, name="c4solver-stop", daemon=True)
        if stop is not None:
            watcher.start()
        try:
            for helper in helpers:
                helper.start()
            try:
                search(work)
            finally:
                for scratch in works[1:]:  # the main thread gave up: so do the others
                    if work[kernel.ABORTED]:
                        scratch[kernel.STOP] = 1
                for helper in helpers:
                    helper.join()
        finally:
            done.set()
            if stop is not None:
                watcher.join()
        nodes = sum(int(scratch[kernel.NODES]) for scratch in works)
        self.nodes += nodes
        if any(scratch[kernel.ABORTED] for scratch in works):
            raise SolverStopped(f"stopped after {nodes} nodes")
        return results

    def solve(self, position: Position, weak: bool = False) -> int:
        """The exact score of ``position`` for the side to move (Pons' convention).

        With ``weak`` only the outcome: 1 win, 0 draw, -1 loss. ``position`` must be
        unfinished (as :meth:`Position.from_moves` guarantees).
        """
        book = self._book()
        if book is not None:
            known = book.score(position.current, position.mask)
            if known is not None:
                return ((known > 0) - (known < 0)) if weak else known
        return int(self._run(_kernel().solve, position, weak))

    def analyse(self, position: Position, weak: bool = False) -> list[int | None]:
        """Score of each column 0..6 for the side to move if played now; None if full.

        The best of them is ``solve(position)``. With ``weak`` only their signs.
        """
        import numpy as np

        book = self._book()
        if book is not None and position.moves < book.depth:
            scores: list[int | None] = []
            for col in range(WIDTH):
                if not position.can_play(col):
                    scores.append(None)
                elif position.is_winning_move(col):
                    scores.append(1 if weak else (CELLS + 1 - position.moves) // 2)
                else:
                    child = position.play(col)
                    known = book.score(child.current, child.mask)
                    if known is None:
                        break
                    scores.append(((known < 0) - (known > 0)) if weak else -known)
            else:
                return scores
        kernel = _kernel()
        threads = 1 if self.max_nodes else self.threads
        if threads == 1:
            out = np.zeros(WIDTH, dtype=np.int64)
            self._run(kernel.analyse, position, weak, out)
            return [None if s == kernel.FULL else int(s) for s in out]
        # one search a column, centre first, shared out among the threads
        per_column: list[int | None] = [None] * WIDTH
        children: list[tuple[int, Position]] = []
        for col in ORDER:
            if not position.can_play(col):
                continue
            if position.is_winning_move(col):
                per_column[col] = 1 if weak else (CELLS + 1 - position.moves) // 2
            else:
                children.append((col, position.play(col)))
        with self._lock:
            found = self._run_locked(kernel.solve, [child for _, child in children], weak,
                                     threads)
        for (col, _), score in zip(children, found, strict=True):
            per_column[col] = -int(score)
        return per_column


def solve_moves(moves: str, weak: bool = False) -> int:
    """The Pons score of the position after ``moves`` (1-based column digits)."""
    return Solver().solve(Position.from_moves(moves), weak)


# --------------------------------------------------------------------------- the exact book
# Read here, beside the search that uses it; built by brains.c4book (which imports this).

MAX_EXACT_FILE = 20_000_000
"""The largest exact book read (bytes)."""


def _mirror_bits(bits: int) -> int:
    out = 0
    for col in range(WIDTH):
        out |= ((bits >> (col * 7)) & 0x7F) << ((WIDTH - 1 - col) * 7)
    return out


def canonical_key(current: int, mask: int) -> int:
    """The smaller of the keys of a position and its mirror image."""
    return min(current + mask, _mirror_bits(current) + _mirror_bits(mask))


class ExactBook:
    """Exact Pons scores of opening positions, by position (mirror images share one).

    The file holds one position a line, ``MOVES SCORE`` (``-`` for the empty board),
    each score the exact one for the side to move. The deepest positions (``depth``
    stones) were solved one by one by :class:`brains.c4solver.Solver`; the shallower
    ones follow from their children by negamax, so a shallower position is listed only
    when every one of its children is settled.
    """

    def __init__(self, scores: dict[int, int] | None = None, depth: int = 0) -> None:
        self.scores: dict[int, int] = scores or {}
        """Canonical key -> exact score for the side to move."""
        self.depth = depth
        """The most stones of a listed position."""
        self.deepest: dict[int, int] = {}
        """The entries of ``depth`` stones (what the compiled search looks up)."""
        self._arrays: tuple[Any, Any] | None = None

    @classmethod
    def parse(cls, lines: Iterable[str]) -> ExactBook:
        """A book from ``MOVES SCORE`` lines; ValueError (one line) on a bad one."""
        book = cls()
        for number, line in enumerate(lines, start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                moves, text = line.split()
                score = int(text)
                position = Position.from_moves("" if moves == "-" else moves)
            except ValueError as exc:
                why = str(exc) if len(str(exc)) <= 60 else str(exc)[:57] + "..."
                raise ParlorError(f"book line {number}: {line[:60]!r}: {why}") from None
            bound = (CELLS + 1 - position.moves) // 2
            if not -bound <= score <= bound:
                raise ParlorError(f"book line {number}: {line[:60]!r}: score out of range")
            key = canonical_key(position.current, position.mask)
            if book.scores.setdefault(key, score) != score:
                raise ParlorError(f"book line {number}: {line[:60]!r}: contradicts an "
                                 "earlier line")
            if position.moves > book.depth:
                book.depth, book.deepest = position.moves, {}
            if position.moves == book.depth:
                book.deepest[key] = score
        return book

    def kernel_arrays(self) -> tuple[Any, Any]:
        """(book, bdepth) of :mod:`brains.kernels.connect4` for the deepest entries
        (computed once)."""
        if self._arrays is None:
            from brains.kernels.connect4 import make_book

            self._arrays = make_book(self.deepest, self.depth)
        return self._arrays

    def score(self, current: int, mask: int) -> int | None:
        """The exact score of the position for the side to move, or None if not listed."""
        if (current | mask).bit_count() > self.depth:
            return None
        return self.scores.get(canonical_key(current, mask))

    def __len__(self) -> int:
        return len(self.scores)


def sha256_of(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


_EXACT: ExactBook | None = None



def exact_book() -> ExactBook:
    """The shipped exact book, read once and checked against the manifest's size and
    sha256: a missing file raises saved.ShippedDataError, a damaged one ValueError (one
    line each)."""
    global _EXACT
    if _EXACT is None:
        import json

        manifest_file = shipped_file("brains", "data", "connect4-book.json")
        path = shipped_file("brains", "data", "connect4-book-exact.txt")
        try:
            manifest = json.loads(read_capped(manifest_file, 100_000).decode("utf-8"))
            listed = manifest["files"][path.name]
            size, digest = int(listed["bytes"]), str(listed["sha256"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ParlorError(f"{manifest_file.name}: damaged ({type(exc).__name__})") from None
        data = read_capped(path, MAX_EXACT_FILE)
        import hashlib

        if len(data) != size or hashlib.sha256(data).hexdigest() != digest:
            raise ParlorError(f"{path.name}: does not match {manifest_file.name} "
                             "(size or sha256): reinstall Parlor or rebuild the book")
        try:
            _EXACT = ExactBook.parse(data.decode("utf-8").splitlines())
        except UnicodeDecodeError as exc:
            raise ParlorError(f"{path.name}: not UTF-8 text ({exc.reason})") from None
        except ValueError as exc:
            raise ParlorError(f"{path.name}: {exc}") from None
    return _EXACT
