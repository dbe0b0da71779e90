"""Exact Reversi endgame solver: the final disc difference with best play.

:func:`solve` searches a position to the end of the game and returns its value for the
side to move, the best move and a principal variation; :func:`move_values` gives every
legal move's exact value; :func:`can_settle` says, from a table of measured times, whether
a position is likely to be settled within a time.

Score: the side to move's discs minus the opponent's discs when neither side can move,
empty squares counted for nobody, exactly as the engine's outcome counts them
(``ReversiState.counts``; docs/RULES.md, Reversi). Its sign is the game's result for the
side to move. The tournament convention (FFO, WTHOR), where the winner also gets the
empty squares, is available with ``empties_to_winner=True``; both conventions agree on
the sign, and differ only when a game ends with empty squares left.

The search itself is compiled (brains/kernels/reversi.py: bitboards, fastest-first and
parity ordering, on 8x8 the pattern evaluation's ordering where many squares are empty,
stability cut-offs, a transposition table, unrolled code for the last four empties); this
module converts states, drives it (the exact score by null-window searches: the first
near a guess, each next one at the bound the last search returned, until the bounds meet)
and traces the principal variation. On 8x8 (without drawn squares) the guess is a short
midgame search of the shipped pattern evaluation (:meth:`_Driver.guess`), which also
names the root move tried first; without the model file, or on other boards, the first
window asks for a win, a draw or a loss and the ordering uses a cheap evaluation: the
solver is exact either way. Boards of 8, 6 and
4 and the FlipColor variant (a disc placed on a drawn square turns to the opponent) are
supported. The stop (a deadline, or an event or callable) is polled every :data:`POLL`
nodes: the compiled search gives up there and, when nothing asks it to stop, is called
again and goes on through its table. A stopped search returns ``exact=False``.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from brains.kernels import THREADS
from engine.games.reversi import PASS
from engine.protocol import ParlorError

POLL = 1 << 16
"""Nodes between two checks of the clock and the stop signal (a few milliseconds)."""
_NONE = 100
"""A bound past every score (scores lie within the number of squares, at most 64)."""
_UNLIMITED = 1 << 62
GUESS_EMPTIES = 16
"""From this many empties (8x8), :meth:`_Driver.guess` searches the pattern evaluation."""
GUESS_DEPTH = 10
"""The deepest guess search, in plies."""
GUESS_NODES = 300_000
"""No deeper guess search once this many positions are searched."""
GUESS_BELOW = 2
"""Discs the first null window lies below the guess search's score."""
GUESS_TABLE_BITS = 16
SHARED_FROM = 16
"""From this many empties, the threads of a solve share each null-window search of its
root's moves (:meth:`_Driver.shared_root`); below it a search is too short to share."""

REACH: dict[int, tuple[tuple[int, float], ...]] = {
    8: ((12, 0.05), (16, 0.1), (18, 0.3), (19, 0.6), (20, 2.0), (21, 5.0), (22, 10.0),
        (23, 15.0), (24, 45.0), (25, 60.0), (26, 300.0)),
    6: ((12, 0.15), (15, 1.0), (16, 5.0), (18, 7.0), (19, 25.0), (20, 60.0), (22, 600.0)),
    4: ((12, 0.1),),
}
"""Per board size: (empties, seconds) rows, the slowest solve measured at up to that many
empties, rounded up (8x8, CPU seconds: ``python -m benchmarks.reversi_endgame --games 6
--empties 16-24 --cap 5`` and the FFO test, docs/STRENGTH-NOTEBOOK.md, "Exact Reversi
endgames"; rows past the measured ones are extrapolated). The 6x6 rows are still those of
the slower Python search that came before, so they are cautious."""


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


class _Driver:
    """One solve's compiled search: its configuration, table, counters and stop."""

    def __init__(self, n: int, drawn: int, empties_to_winner: bool,
                 must_stop: Callable[[], bool] | None, empties: int = 64,
                 threads: int = 1) -> None:
        import numpy as np

        from brains.kernels import reversi as kernel

        self.k = kernel
        self.np = np
        self.n = n
        self.cfg = kernel.config(n, drawn, empties_to_winner)
        self.board = self.cfg[kernel.CFG_BOARD]
        self.drawn = self.cfg[kernel.CFG_DRAWN]
        self.stats = np.zeros(4, dtype=np.int64)
        self.stats[kernel.ROOT_BEST] = -1
        self.table = _table(kernel)
        self.buffers = _buffers(kernel)
        patterns = n == 8 and not drawn and empties >= kernel.EVAL_ORDER
        self.ev = _patterns(kernel) if patterns else kernel.no_patterns()
        """The pattern tables (8x8 without drawn squares, when the model loads), else
        empty ones: the kernel's move ordering and :meth:`guess` use them, only from
        :data:`~brains.kernels.reversi.EVAL_ORDER` empties (so a later position does not
        load the model)."""
        self.guess_nodes = 0
        self.threads = threads
        self.helper_nodes = 0
        """Nodes the other threads searched (:meth:`shared_root`)."""
        self.must_stop = must_stop
        self.proven_best = -1
        """The root move of the last search that failed high (it reaches its lower bound)."""

    @property
    def nodes(self) -> int:
        return int(self.stats[self.k.NODES]) + self.guess_nodes + self.helper_nodes

    def square(self, sq8: int) -> int:
        """The engine's square of a square of the 8x8 layout."""
        return sq8 // 8 * self.n + sq8 % 8

    def run(self, root: bool, P: Any, O: Any, alpha: int, beta: int) -> int:
        """The kernel's value of (P, O) within (alpha, beta), called again after each
        :data:`POLL` nodes until it finishes; raises :class:`Stopped`."""
        if (root and self.threads > 1
                and int(self.board & ~(P | O)).bit_count() >= SHARED_FROM):
            return self.shared_root(P, O, alpha, beta)
        return self.run_alone(root, P, O, alpha, beta)

    def run_alone(self, root: bool, P: Any, O: Any, alpha: int, beta: int) -> int:
        """:meth:`run` on this thread only."""
        k, stats = self.k, self.stats
        fn = k.root if root else k.search
        while True:
            stats[k.LIMIT] = stats[k.NODES] + (_UNLIMITED if self.must_stop is None else POLL)
            stats[k.ABORTED] = 0
            value = fn(P, O, alpha, beta, self.cfg, stats, *self.table, *self.buffers, self.ev)
            if not stats[k.ABORTED]:
                return int(value)
            if self.must_stop is not None and self.must_stop():
                raise Stopped

    def shared_root(self, P: Any, O: Any, alpha: int, beta: int) -> int:
        """What ``run(True, P, O, alpha, beta)`` returns (and its ``ROOT_BEST``), searched
        by :attr:`threads` threads at once, sharing the table (whose buckets a torn read
        cannot match), each with its own counters and move lists.

        A null-window search of the root usually fails high through its first move,
        whose own search must then refute every reply; when the first move is wrong, one
        of the others reaches ``beta``, often sooner than the first is refuted. So the
        work is: the first move's replies (its first reply before the others, as in
        "young brothers wait") and the root's other moves, in that order, each thread
        taking the next it may. Once the first reply has failed to refute the first
        move, a thread searching one of the root's other moves puts it back and helps
        with the replies. The first move is settled when a reply refutes it or every
        reply has failed to; the root fails high as soon as the first move or any other
        reaches ``beta``, which ends the other thread's search. Each search gives up
        every :data:`POLL` nodes to look at all that and at the stop, and is called again
        later (it retraces its steps through the table); raises :class:`Stopped`."""
        k, np = self.k, self.np
        order = np.empty(k.MAX_MOVES, dtype=np.int64)
        count = int(k.root_order(P, O, self.cfg, self.ev, order,
                                 np.int64(self.cfg[k.CFG_FIRST])))
        if count < 2:  # a pass, the end or a single move: nothing to share
            return self.run_alone(True, P, O, alpha, beta)
        first = int(order[0])
        p2, o2 = k.play(P, O, first, self.drawn)
        C, D = np.uint64(o2), np.uint64(p2)  # after the first move, the opponent to move
        replies = np.empty(k.MAX_MOVES, dtype=np.int64)
        stored = int(k.probe(C, D, self.table[0])[2])
        many = int(k.root_order(C, D, self.cfg, self.ev, replies, np.int64(stored)))
        others = [int(order[i]) for i in range(1 if many else 0, count)]
        lock = threading.Lock()
        # the first move: its replies taken and done, its best reply's value, whether it
        # is settled; the root's best value and move; whether the root failed high, the
        # stop asked to give up, a reply left the first move standing
        taken, done, reply_best, settled = [0], [0], [-_NONE], [many == 0]
        best = [-_NONE, -1]
        halt = [False, False]
        young = [False]

        def finish(value: int, move: int) -> None:  # under the lock: a root move's value
            if value > best[0]:
                best[0], best[1] = value, move
            if value >= beta:
                halt[0] = True

        def work(stats: Any, buffers: Any) -> None:
            while True:
                with lock:
                    if halt[0] or halt[1]:
                        return
                    reply = (not settled[0] and taken[0] < many
                             and (taken[0] == 0 or young[0] or not others))
                    if reply:
                        sq, at = int(replies[taken[0]]), taken[0]
                        taken[0] += 1
                    elif others:
                        sq = others.pop(0)
                    else:
                        return
                while True:
                    stats[k.LIMIT] = stats[k.NODES] + POLL
                    stats[k.ABORTED] = 0
                    if reply:  # the reply's value for the opponent, within its window
                        v = int(k.child_value(C, D, sq, -beta, -alpha, self.cfg, stats,
                                              *self.table, *buffers, self.ev))
                    else:
                        v = int(k.child_value(P, O, sq, alpha, beta, self.cfg, stats,
                                              *self.table, *buffers, self.ev))
                    if not stats[k.ABORTED]:
                        break
                    if halt[0] or halt[1] or (reply and settled[0]):
                        break
                    if not reply and young[0] and not settled[0] and taken[0] < many:
                        with lock:  # help with the first move's replies; this one waits
                            others.insert(0, sq)
                        break
                    if self.must_stop is not None and self.must_stop():
                        halt[1] = True
                        return
                if stats[k.ABORTED]:
                    continue
                with lock:
                    if halt[0]:
                        return
                    if not reply:
                        finish(v, sq)
                    elif not settled[0]:
                        done[0] += 1
                        if v >= -alpha:  # the reply refutes the first move
                            settled[0] = True
                            finish(-v, first)
                        else:
                            reply_best[0] = max(reply_best[0], v)
                            young[0] = young[0] or at == 0
                            if done[0] == many:  # no reply refutes it: the root fails high
                                settled[0] = True
                                finish(-reply_best[0], first)

        helper = _helper(k)
        helper[0][:] = 0
        thread = threading.Thread(target=work, args=helper, name="reversi-solve",
                                  daemon=True)
        thread.start()
        try:
            work(self.stats, self.buffers)
        finally:
            thread.join()
            self.helper_nodes += int(helper[0][k.NODES])
        if halt[1] and not halt[0]:
            raise Stopped
        self.stats[k.ROOT_BEST] = best[1]
        return best[0]

    def children(self, P: Any, O: Any) -> list[tuple[int, Any, Any]]:
        """(8x8-layout square, opponent's discs, mover's discs) of each placement."""
        k = self.k
        moves = int(k.legal_moves(P, O, self.board))
        out = []
        while moves:
            low = moves & -moves
            sq = low.bit_length() - 1
            moves ^= low
            p2, o2 = k.play(P, O, sq, self.drawn)  # numba returns Python ints
            out.append((sq, self.np.uint64(o2), self.np.uint64(p2)))
        return out

    def has_moves(self, P: Any, O: Any) -> bool:
        return bool(self.k.legal_moves(P, O, self.board))

    def exact(self, P: Any, O: Any) -> tuple[int, int]:
        """(score, best 8x8-layout move: -1 when none, 64 a pass) of the position, by
        null-window searches (MTD(f)): the first asks whether the mover wins (win, draw or
        loss), each next one tests the bound the last returned, until the lower and upper
        bounds meet; the table keeps what each search proved for the next."""
        guess, first = self.guess(P, O)
        lo, hi, best = -_NONE, _NONE, -1
        self.cfg[self.k.CFG_FIRST] = first
        while lo < hi:
            beta = guess + 1 if guess == lo else guess
            guess = self.run(True, P, O, beta - 1, beta)
            if guess < beta:
                hi = guess
            else:
                lo = guess
                best = self.proven_best = int(self.stats[self.k.ROOT_BEST])
                self.cfg[self.k.CFG_FIRST] = best if 0 <= best < 64 else 64
        return lo, best

    def guess(self, P: Any, O: Any) -> tuple[int, int]:
        """(first null window, root move to try first: 64 for none) of :meth:`exact`.

        On 8x8 with the pattern tables, from :data:`GUESS_EMPTIES` empties: the midgame
        search of the pattern evaluation (the same kernel module), deepened one ply at a
        time up to ``empties - 12`` plies (at most :data:`GUESS_DEPTH`) or until it has
        searched :data:`GUESS_NODES` positions, its score rounded to an even number of
        discs less :data:`GUESS_BELOW` (a search that fails high costs less than one
        that fails low, so the null windows had better climb to the score); else 0.
        """
        ne = 64 - int(P | O).bit_count()
        if not self.ev[0].shape[0] or ne < GUESS_EMPTIES:
            return 0, 64
        k, np = self.k, self.np
        moves = int(k.legal(P, O))
        order = np.array([s for s in range(64) if moves >> s & 1], dtype=np.int64)
        if not len(order):
            return 0, 64
        table, bufs = _mid_space(k)
        table[2].fill(-1)
        stats = np.zeros(k.STATS, dtype=np.int64)
        value, first = 0, 64
        for depth in range(1, min(GUESS_DEPTH, ne - 12) + 1):
            stats[k.ROOT_BEST] = -1
            while True:
                stats[k.LIMIT] = stats[k.NODES] + POLL
                stats[k.ABORTED] = 0
                v = int(k.mid_root(P, O, depth, order, len(order), *self.ev, stats, *table,
                                   *bufs))
                if not stats[k.ABORTED]:
                    break
                if self.must_stop is not None and self.must_stop():
                    self.guess_nodes += int(stats[k.NODES])
                    raise Stopped
            value, first = v, int(stats[k.ROOT_BEST])
            i = int(np.nonzero(order == first)[0][0])
            order = np.concatenate([order[i:i + 1], order[:i], order[i + 1:]])
            if stats[k.NODES] >= GUESS_NODES:
                break
        self.guess_nodes += int(stats[k.NODES])
        if value >= k.WIN:
            value -= k.WIN
        elif value <= -k.WIN:
            value += k.WIN
        return round(value / k.UNIT / 2) * 2 - GUESS_BELOW, first

    def solve_root(self, P: Any, O: Any) -> tuple[int, int | None]:
        """(score, best 8x8-layout move or PASS or None) of the position."""
        score, best = self.exact(P, O)
        if not self.has_moves(P, O):
            return score, PASS if self.has_moves(O, P) else None
        return score, best

    def best_move_for(self, P: Any, O: Any, score: int) -> int | None:
        """A move (8x8 layout) reaching ``score`` from the position (None at the end)."""
        children = self.children(P, O)
        if not children:
            return PASS if self.has_moves(O, P) else None
        # the child is worth exactly -score iff its value is <= -score (none is lower):
        # first what the table already proves (a child's upper bound at -score settles
        # it, a lower bound above rules it out), then searches, the table's move first
        probe, table = self.k.probe, self.table[0]
        left = []
        for sq, o2, p2 in children:
            lo, hi, _ = probe(o2, p2, table)
            if hi <= -score:
                return sq
            if lo <= -score:
                left.append((sq, o2, p2))
        stored = int(probe(P, O, table)[2])
        left.sort(key=lambda child: child[0] != stored)
        for sq, o2, p2 in left:
            if -self.run(False, o2, p2, -score, -score + 1) >= score:
                return sq
        raise AssertionError("no move reaches the proven score")  # pragma: no cover

    def principal_variation(self, P: Any, O: Any, score: int, first: int | None,
                            pv: list[int]) -> None:
        """Append to ``pv`` (engine moves) a line of best moves from the position of value
        ``score`` (the moves found so far stay when :class:`Stopped` is raised)."""
        move = first
        while move is not None:
            if move == PASS:
                pv.append(PASS)
                P, O = O, P
            else:
                pv.append(self.square(move))
                p2, o2 = self.k.play(P, O, move, self.drawn)
                P, O = self.np.uint64(o2), self.np.uint64(p2)
            score = -score
            move = self.best_move_for(P, O, score)


_local = threading.local()


def _table(kernel: Any) -> tuple[Any]:
    """This thread's transposition table, emptied (one per thread: solves may run side by
    side in workers)."""
    table = getattr(_local, "table", None)
    if table is None:
        table = _local.table = kernel.new_table()
    table[0].fill(0)
    return table  # type: ignore[no-any-return]


_pattern_tables: list[Any] = []
"""The shipped pattern model's tables, once loaded (or empty ones when it cannot be)."""


def _patterns(kernel: Any) -> Any:
    """The pattern evaluation's tables for the kernel, loaded once per process; empty
    tables (ordering and guesses without the patterns) when the model is missing or does
    not fit: the solver stays exact either way, only slower."""
    if not _pattern_tables:
        try:
            from brains.learned.pattern_features import load_tables

            t = load_tables()[0]
            _pattern_tables.append((t["weights"], t["numeric"], t["bias"], t["squares"],
                                    t["lengths"], t["offsets"]))
        except (ParlorError, OSError, ValueError, KeyError):  # no model: no patterns
            _pattern_tables.append(kernel.no_patterns())
    return _pattern_tables[0]


def _mid_space(kernel: Any) -> tuple[Any, Any]:
    """This thread's small table and buffers for the midgame search of :meth:`_Driver.guess`."""
    space = getattr(_local, "mid", None)
    if space is None:
        space = _local.mid = (kernel.mid_new_table(GUESS_TABLE_BITS), kernel.mid_buffers())
    return space


def _helper(kernel: Any) -> tuple[Any, Any]:
    """This thread's helper's counters and move lists (:meth:`_Driver.shared_root`)."""
    helper = getattr(_local, "helper", None)
    if helper is None:
        import numpy as np

        helper = _local.helper = (np.zeros(4, dtype=np.int64), kernel.buffers())
    return helper


def _buffers(kernel: Any) -> tuple[Any, Any, Any, Any]:
    buffers = getattr(_local, "buffers", None)
    if buffers is None:
        buffers = _local.buffers = kernel.buffers()
    return buffers  # type: ignore[no-any-return]


def _driver(state: Any, empties_to_winner: bool, budget_seconds: float | None,
            stop: Any, threads: int | None = None) -> tuple[_Driver, Any, Any]:
    """The driver for a state and its mover's and opponent's discs on the 8x8 layout;
    ValueError for what is not a Reversi state."""
    try:
        n, P, O = state.size, state.me, state.them
        drawn = sum(1 << s for s in state.drawn_squares)
    except (AttributeError, TypeError):
        raise ValueError(f"not a Reversi state: {type(state).__name__}") from None
    if n not in REACH or not isinstance(P, int) or not isinstance(O, int) or P & O:
        raise ValueError(f"not a Reversi state: {type(state).__name__}")
    must_stop = _stop_test(budget_seconds, stop)
    if threads is not None and threads < 1:
        raise ValueError(f"a solve needs at least one thread, not {threads}")
    driver = _Driver(n, drawn, empties_to_winner, must_stop, empties_of(state),
                     THREADS if threads is None else threads)
    k, np = driver.k, driver.np
    if not _compiled:  # compile (or load from the cache) with the listeners told
        from brains.kernels import preparing

        with preparing("the Reversi endgame solver"):
            one = np.uint64(1)
            k.root(one, one << np.uint64(1), -_NONE, _NONE, driver.cfg,
                   np.array([0, 1, 0, -1], dtype=np.int64), *driver.table, *driver.buffers,
                   driver.ev)
            k.play(one, one << np.uint64(1), 2, driver.drawn)
            k.probe(one, one << np.uint64(1), driver.table[0])
            order = np.empty(k.MAX_MOVES, dtype=np.int64)  # and the shared root's kernels
            k.root_order(one, one << np.uint64(1), driver.cfg, driver.ev, order, 64)
            k.child_value(one, one << np.uint64(1), 2, -_NONE, _NONE, driver.cfg,
                          np.array([0, 1, 0, -1], dtype=np.int64), *driver.table,
                          *driver.buffers, driver.ev)
            k.legal_moves(one, one << np.uint64(1), driver.board)
        _compiled.append(True)
    if driver.ev[0].shape[0] and not _guess_compiled:  # the guess's midgame search too
        from brains.kernels import preparing

        with preparing("the Reversi endgame solver"):
            table, bufs = _mid_space(k)
            stats = np.zeros(k.STATS, dtype=np.int64)
            stats[k.LIMIT] = 1
            k.mid_root(np.uint64(0x0000000810000000), np.uint64(0x0000001008000000), 1,
                       np.array([19], dtype=np.int64), 1, *driver.ev, stats, *table, *bufs)
        _guess_compiled.append(True)
    P8, O8 = np.uint64(k.embed(P, n)), np.uint64(k.embed(O, n))
    return driver, P8, O8


_compiled: list[bool] = []
_guess_compiled: list[bool] = []
"""Non-empty once the kernels have been compiled (or loaded) in this process."""


def solve(state: Any, budget_seconds: float | None = None, stop: Any = None, *,
          empties_to_winner: bool = False, threads: int | None = None) -> Result:
    """The exact final disc difference of a Reversi ``state`` with best play.

    ``budget_seconds`` bounds the time (None: no bound); ``stop`` is a callable or an
    object with ``is_set()`` (a :class:`threading.Event`) asked every :data:`POLL` nodes.
    When either ends the search, the result has ``exact=False``, ``score=None`` and the
    best root move found so far. Without either the search runs to the end, which is only
    reasonable for a small number of empties (see :func:`can_settle`).

    ``threads`` (None: :data:`THREADS`) share the root's null-window searches from
    :data:`SHARED_FROM` empties; the score is the same on any number of them, but on more
    than one, which of several equally good moves is named may vary from run to run (the
    brains that must play the same on any machine solve at most 14 empties, on one).

    Raises ValueError for a state that is not a Reversi position.
    """
    driver, P, O = _driver(state, empties_to_winner, budget_seconds, stop, threads)
    try:
        score, best = driver.solve_root(P, O)
    except Stopped:
        found = driver.proven_best
        if found < 0:
            found = int(driver.stats[driver.k.ROOT_BEST])
        root_best = None if found < 0 else PASS if found == PASS else driver.square(found)
        return Result(None, root_best, (), driver.nodes, False)
    pv: list[int] = []
    with contextlib.suppress(Stopped):
        driver.principal_variation(P, O, score, best, pv)
    best_move = None if best is None else PASS if best == PASS else driver.square(best)
    return Result(score, best_move, tuple(pv), driver.nodes, True)


def move_values(state: Any, budget_seconds: float | None = None, stop: Any = None, *,
                empties_to_winner: bool = False,
                threads: int | None = None) -> tuple[dict[int, int], int] | None:
    """Every legal move's exact value for the side to move (engine moves, a pass
    included) and the nodes searched; None when stopped first. One table serves every
    move, so this costs less than a :func:`solve` per move. ``threads``: as :func:`solve`."""
    driver, P, O = _driver(state, empties_to_winner, budget_seconds, stop, threads)
    out: dict[int, int] = {}
    try:
        children = driver.children(P, O)
        if not children:
            if driver.has_moves(O, P):
                out[PASS] = -driver.exact(O, P)[0]
            return out, driver.nodes
        for sq, o2, p2 in children:
            out[driver.square(sq)] = -driver.exact(o2, p2)[0]
    except Stopped:
        return None
    return out, driver.nodes
