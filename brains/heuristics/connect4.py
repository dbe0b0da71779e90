"""Connect Four knowledge: a window count and a threat heuristic.

Everything is from the side to move's view ("own" discs against the opponent's) and
works on the engine's Pons-layout bitboards (:mod:`engine.games.connect4`):

- ``window`` — a count over every 4-cell window (69: horizontal, vertical and both
  diagonals, since a four on a diagonal wins like any other): a window with no
  opponent disc scores +10 for three own discs, +5 for two; the same windows of the
  opponent score -10 and -5. Centre bonus: +5 per own disc in the centre column and +2
  in each of its two neighbours, minus the same for the opponent.
- ``threats`` — the window score plus empty cells that would complete four
  ("threats"), weighted by whether their row suits the player (Red profits from
  threats on odd rows 1, 3, 5; Yellow from even rows), and a near-certain value when
  the side to move can win at once or the opponent has two immediate wins.

Both map the raw score ``s`` into (-1, 1) as ``s / (|s| + SCALE)``, so a proven win
(±1) always beats them; a finished game gives its exact value (+1, 0, -1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from brains.c4solver import BOARD, BOTTOM, winning_cells
from brains.exact import (
    BuildOptions,
    Exact,
    ExactSolver,
    PositionSolver,
    Say,
    Solved,
    SolveOptions,
    cut,
)
from brains.protocol import Budget, Thought
from engine.games.connect4 import ConnectFourState, bit
from engine.protocol import AnyState

SCALE = 100.0
"""Raw score that maps to 0.5."""

_DIRECTIONS = (
    (1, sum(bit(c, r) for c in range(7) for r in range(3))),  # vertical
    (7, sum(bit(c, r) for c in range(4) for r in range(6))),  # horizontal
    (8, sum(bit(c, r) for c in range(4) for r in range(3))),  # rising diagonal
    (6, sum(bit(c, r) for c in range(4) for r in range(3, 6))),  # falling diagonal
)
"""(shift to the next cell of a window, bits where a window starts) per direction."""
_CENTRE = sum(bit(3, r) for r in range(6))
_NEAR_CENTRE = sum(bit(c, r) for c in (2, 4) for r in range(6))
_ODD_ROWS = sum(bit(c, r) for c in range(7) for r in (0, 2, 4))
"""Rows 1, 3 and 5 (counted from 1 at the bottom): where Red's threats are strongest."""

FEATURE_NAMES = (
    "own_threes", "opp_threes", "own_twos", "opp_twos",
    "own_centre", "opp_centre", "own_near_centre", "opp_near_centre",
    "own_threats", "opp_threats", "own_good_threats", "opp_good_threats",
    "own_playable_threats", "opp_playable_threats", "is_second_player",
)
"""Names of :func:`features`, in order. Threes and twos count windows with no opponent
disc; threats are empty cells completing four; good threats are on the rows that suit
the player; playable threats can be played at once."""


def _windows(own: int, opp: int) -> tuple[int, int]:
    """Windows holding exactly three / exactly two of ``own`` and none of ``opp``."""
    threes = twos = 0
    for s, starts in _DIRECTIONS:
        s2 = s + s
        a, b, c, d = own, own >> s, own >> s2, own >> (s2 + s)
        free = starts & ~(opp | opp >> s | opp >> s2 | opp >> (s2 + s))
        x1, x2 = a ^ b, c ^ d
        low = x1 ^ x2  # bit 0 of the window's count
        mid = (x1 & x2) ^ (a & b) ^ (c & d)  # bit 1 of the count (0 for a count of 4)
        threes += (free & low & mid).bit_count()
        twos += (free & mid & ~low).bit_count()
    return threes, twos


def _sides(state: AnyState) -> tuple[int, int, int]:
    """(own discs, opponent discs, all discs) of a Connect Four state."""
    assert isinstance(state, ConnectFourState)
    return state.cur, state.cur ^ state.mask, state.mask


def _window_raw(own: int, opp: int) -> int:
    """The raw window score, all four directions, with the symmetric centre bonus."""
    own3, own2 = _windows(own, opp)
    opp3, opp2 = _windows(opp, own)
    centre = (own & _CENTRE).bit_count() - (opp & _CENTRE).bit_count()
    near = (own & _NEAR_CENTRE).bit_count() - (opp & _NEAR_CENTRE).bit_count()
    return 10 * (own3 - opp3) + 5 * (own2 - opp2) + 5 * centre + 2 * near


def _squash(raw: float) -> float:
    """``raw`` mapped monotonically into the open interval (-1, 1)."""
    return raw / (abs(raw) + SCALE)


def _final(state: AnyState) -> float | None:
    """The exact value of a finished game for the side to move, else None."""
    if state.legal_moves():
        return None
    outcome = state.outcome()
    assert outcome is not None
    return float(outcome.value_for(state.to_move))


def features(state: AnyState) -> list[float]:
    """The values named by :data:`FEATURE_NAMES`, from the side to move's view."""
    own, opp, mask = _sides(state)
    own3, own2 = _windows(own, opp)
    opp3, opp2 = _windows(opp, own)
    own_t, opp_t = winning_cells(own, mask), winning_cells(opp, mask)
    second = state.to_move
    own_rows = _ODD_ROWS ^ BOARD if second else _ODD_ROWS
    playable = (mask + BOTTOM) & BOARD
    values = (
        own3, opp3, own2, opp2,
        (own & _CENTRE).bit_count(), (opp & _CENTRE).bit_count(),
        (own & _NEAR_CENTRE).bit_count(), (opp & _NEAR_CENTRE).bit_count(),
        own_t.bit_count(), opp_t.bit_count(),
        (own_t & own_rows).bit_count(), (opp_t & ~own_rows).bit_count(),
        (own_t & playable).bit_count(), (opp_t & playable).bit_count(),
        second,
    )
    return [float(v) for v in values]


def window(state: AnyState) -> float:
    """The window count over all 69 windows plus the centre bonus, in (-1, 1)."""
    final = _final(state)
    if final is not None:
        return final
    own, opp, _ = _sides(state)
    return _squash(_window_raw(own, opp))


def threats(state: AnyState) -> float:
    """Window count plus odd/even threat analysis, in (-1, 1).

    An immediate win for the side to move scores 0.95, two immediate wins for the
    opponent -0.95 (only one can be blocked). Otherwise each threat adds 30 (on a row
    that suits its owner) or 10 to the window score of its owner, minus the same for
    the opponent.
    """
    final = _final(state)
    if final is not None:
        return final
    own, opp, mask = _sides(state)
    own_t, opp_t = winning_cells(own, mask), winning_cells(opp, mask)
    playable = (mask + BOTTOM) & BOARD
    if own_t & playable:
        return 0.95
    if (opp_t & playable).bit_count() >= 2:
        return -0.95
    own_rows = _ODD_ROWS ^ BOARD if state.to_move else _ODD_ROWS  # rows that suit us
    raw = (_window_raw(own, opp)
           + 30 * (own_t & own_rows).bit_count() + 10 * (own_t & ~own_rows).bit_count()
           - 30 * (opp_t & ~own_rows).bit_count() - 10 * (opp_t & own_rows).bit_count())
    return max(-0.9, min(0.9, _squash(raw)))


HEURISTICS: dict[str, Callable[[AnyState], float]] = {"window": window, "threats": threats}
"""Every Connect Four heuristic, by name."""
DEFAULT = "window"
"""The heuristic used when none is named."""


EXACT_FROM_STONES = 8
"""Fewer stones than this and :func:`exact_outcomes` does not try (a weak solve takes
tens of seconds there in pure Python)."""


def exact_outcomes(state: AnyState, stop: Callable[[], bool],
                   cache: dict[str, Any]) -> dict[Any, int] | None:
    """Exact outcomes (1 win, 0 draw, -1 loss for the side to move) of some legal moves,
    always including one that achieves the position's exact outcome.

    A position in the opening book (:mod:`brains.c4book`) answers with its book move
    alone, at once.

    The optional endgame hook of the search brains (``alphabeta``'s ``endgame`` option):
    Pons' solver in its weak (win/draw/loss) mode, its table kept in ``cache`` between
    the moves of a game. The position itself is solved first (one search); the moves are
    then solved centre first while ``stop()`` allows, and those found so far are
    returned once one of them reaches the position's outcome: every move reported at
    that outcome keeps it. None when ``stop()`` turns true before that.
    """
    from brains import c4book, c4solver

    assert isinstance(state, ConnectFourState)
    hit = c4book.book().lookup(state.cur, state.mask)
    if hit is not None:  # a solved opening position: its book move keeps the outcome
        return {state.parse_move(str(hit[0] + 1)): hit[1]}
    if state.ply < EXACT_FROM_STONES:  # out of reach in a move's time: leave it all to search
        return None
    solver = cache.get("solver")
    if solver is None:
        solver = cache["solver"] = c4solver.Solver()
    solver.stop = stop
    position = c4solver.Position.from_bitboards(state.cur, state.mask)
    outcomes: dict[Any, int] = {}
    try:
        for column in c4solver.ORDER:  # a move that wins at once needs no search
            if position.can_play(column) and position.is_winning_move(column):
                outcomes[state.parse_move(str(column + 1))] = 1
        if outcomes:
            return outcomes
        best = solver.solve(position, weak=True)
        for column in c4solver.ORDER:
            if not position.can_play(column):
                continue
            move = state.parse_move(str(column + 1))
            try:
                outcomes[move] = -solver.solve(position.play(column), weak=True)
            except c4solver.SolverStopped:
                break
    except c4solver.SolverStopped:
        return None
    return outcomes if best in outcomes.values() else None


# --------------------------------------------------------------------------- tuning
# The parts every game module declares (schema: brains/heuristics/__init__.py).

MINIMAX_DEPTHS = (3, 6, 7)
"""Plain minimax depth at easy / medium / hard."""
ALPHABETA_DEPTHS = (4, 7)
"""Alpha-beta depth at easy / medium (hard is timed)."""
GAME_CLOCK = 60.0
"""Seconds ``alphabeta:hard`` may think over a whole game."""
TRAPS = False
"""Alpha-beta prefers, among moves of equal proven value, the one most likely to make the
opponent err."""
REPETITION = False
"""Positions can recur: alpha-beta scores a repetition as a draw."""
ENDGAME = True
"""``alphabeta:hard`` asks the ``outcomes`` of ``EXACT`` which moves keep the best outcome."""
PERFECT: dict[str, Any] | None = {"method": "connect4", "seconds": 3.0}
"""The ``perfect`` brain's options here (None: it does not play this game)."""
OPENING_PLIES = 2
"""Random plies the arena plays before the brains take over."""
LEARNED: dict[str, dict[str, Any]] = {
    "linear": {"games": 6000},
    "mlp": {"games": 300, "network": {
        "hidden": (16,), "nets": 1, "depth": 4, "child_depth": 3, "mix": 0.0, "eps": 0.15,
        "iters": 200, "mixed": True, "inputs": ("features",), "skip": True, "rounds": 2}},
}
"""Training recipes of the generic learners (see brains.learned.linear and .mlp)."""
LADDER: tuple[str, ...] = (
    "alphabeta,depth=1,temperature=1,seconds=none",
    "alphabeta,depth=1,temperature=0.15,seconds=none",
    "alphabeta,depth=1,temperature=0.05,seconds=none",
    "alphabeta,depth=1,seconds=none",
    "alphabeta,depth=2,temperature=0.035,seconds=none",
    "alphabeta,depth=2,seconds=none",
    "alphabeta,depth=5,seconds=none",
    "perfect,method=connect4,seconds=none,nodes=20000000,fallback=level:7",
)
"""The rated levels, weakest first (see brains.ladder; ratings: saved/ratings/connect4.json)."""


# --------------------------------------------------------------------------- exact solver

SOLVER_SHARE = 0.7
"""Share of a timed budget the solver may use before the ``perfect`` brain falls back."""


def pons_plies(score: int, stones: int) -> int | None:
    """Plies to the end of a Connect Four game whose Pons score is ``score`` for the side to
    move, with ``stones`` on the board (None for a draw). Pons' score ``22 - k`` means the
    winner plays its ``k``-th stone last; the side to move has ``stones // 2`` stones."""
    if score > 0:
        return 2 * (22 - score - stones // 2) - 1
    if score < 0:
        return 2 * (22 + score - (stones + 1) // 2)
    return None


def solver_position(state: AnyState) -> Any:
    """The :class:`brains.c4solver.Position` of an engine Connect Four state.

    Both use Pons' bitboard layout (7 bits a column, the side to move's stones and all
    stones), so the position is copied, not replayed.
    """
    from brains import c4solver

    assert isinstance(state, ConnectFourState)
    position = c4solver.Position()
    position.current = state.cur
    position.mask = state.mask
    position.moves = state.ply
    return position


def oracle(state: AnyState, budget: Budget, cache: dict[str, Any]) -> dict[Any, Exact] | None:
    """Connect Four by Pons' solver (:mod:`brains.c4solver`: the compiled search and the
    exact opening book): every column's exact score, or None if not settled in time."""
    from brains import c4solver

    solver = cache.get("c4solver")
    if solver is None:
        solver = cache["c4solver"] = c4solver.Solver()
    solver.stop = budget.expired
    try:
        per_column = solver.analyse(c4solver.position_of(state))
    except c4solver.SolverStopped:
        return None
    finally:
        solver.stop = None
    out: dict[Any, Exact] = {}
    for column, score in enumerate(per_column):
        if score is not None:
            # the mover's stone is on the board once played: plies counted from before it
            plies = pons_plies(score, state.ply)
            out[state.parse_move(str(column + 1))] = Exact((score > 0) - (score < 0),
                                                           plies, score)
    return out


class ConnectFourSolver(ExactSolver):
    """Pascal Pons' solver (:mod:`brains.c4solver`, its search compiled, with the exact
    opening book :func:`brains.c4solver.exact_book`) through ``Solver.analyse``, which
    gives each column's exact score (bigger = faster win).

    As the ``perfect`` brain's method: with no deadline the brain always solves the
    position (never falls back). With a deadline, a position that neither the book nor
    the search settles in :data:`SOLVER_SHARE` of the time (the opening, below about 10
    stones, until the book covers it) makes the brain say so in its thought and take the
    move from its ``fallback`` brain. The first move, in the centre, is known (Allis
    1988) and needs no search."""

    def outcomes(self, state: AnyState, stop: Callable[[], bool],
                 cache: dict[str, Any]) -> dict[Any, int] | None:
        return exact_outcomes(state, stop, cache)

    method = "connect4"
    solves = True
    build_flag = "--build-book"

    def position_of(self, line: str) -> str | None:
        """The first field of a line (Pons' ``MOVES SCORE`` files), None for a blank one."""
        fields = line.split()
        return fields[0] if fields else None

    def solver(self, options: SolveOptions, say: Say) -> PositionSolver:
        return _solve_command(options, say)

    def build(self, options: BuildOptions, say: Say) -> tuple[int, str]:
        return _build_book(options, say)

    def values(self, state: AnyState, budget: Budget,
               cache: dict[str, Any]) -> dict[Any, Exact] | None:
        return oracle(state, budget, cache)

    def scores(self, brain: Any, state: AnyState, budget: Budget) -> dict[Any, float]:
        return self._scores(brain, state, budget)[0]

    def _scores(self, brain: Any, state: AnyState,
                budget: Budget) -> tuple[dict[Any, float], int]:
        """The scores on ``brains.perfect``'s scale and the solver's nodes."""
        from brains import c4solver
        from brains.minimax import EPS, WIN, Stopped

        position = solver_position(state)
        idle: list[Any] = brain.cache.setdefault("solvers", [])
        try:
            solver = idle.pop()  # list.pop is atomic: no two searches share one
        except IndexError:
            solver = c4solver.Solver()
        solver.stop = budget.expired
        solver.max_nodes = budget.nodes or 0
        before = solver.nodes
        try:
            per_column = solver.analyse(position)
        except c4solver.SolverStopped:
            raise Stopped from None
        finally:
            nodes = solver.nodes - before
            solver.stop = None
            solver.max_nodes = 0
            idle.append(solver)  # kept between moves: its table stays useful
        scores: dict[Any, float] = {}
        for column, score in enumerate(per_column):
            if score is None:
                continue
            move = state.parse_move(str(column + 1))
            # Pons' score: positive wins, bigger is sooner; stones left decide the distance
            if score > 0:
                scores[move] = WIN - EPS * 2 * (22 - score)
            elif score < 0:
                scores[move] = -WIN + EPS * 2 * (22 + score)
            else:
                scores[move] = 0.0
        return scores, nodes

    def think(self, brain: Any, state: AnyState, budget: Budget) -> Iterator[Thought]:
        import time

        from brains.minimax import EPS, WIN, Stopped

        if state.ply == 0:  # the centre column wins (Allis 1988); no search needed
            move = state.parse_move("4")
            yield Thought(move, WIN - EPS * 41, 41, 0, (move,), final=True)
            return
        limits = [n for n in (budget.nodes, brain.node_limit) if n is not None]
        nodes_cap = min(limits) if limits else None  # positions the solver may search
        solver_budget = Budget(nodes=nodes_cap, stop=budget.stop)
        if budget.deadline is not None:
            share = SOLVER_SHARE * max(0.0, budget.deadline - time.monotonic())
            solver_budget = Budget(seconds=share, nodes=nodes_cap, stop=budget.stop).start()
        try:
            scores, nodes = self._scores(brain, state, solver_budget)
        except Stopped:
            yield from brain.fall_back(state, budget)
            return
        move, note = brain.best_move(state, scores, budget)
        yield Thought(move, scores[move], 42 - state.ply, nodes, (move,), final=True, note=note)


EXACT = ConnectFourSolver()
"""The exact hook (brains.exact): analysis, hints, ``perfect`` and ``parlor solve``."""


# --------------------------------------------------------------------------- parlor solve

SLOW_BELOW = 10
"""Positions with fewer stones than this may take very long to solve (``parlor solve``
warns), unless the opening book settles them."""


def _in_book(position: Any, options: SolveOptions) -> bool:
    """Whether the exact opening book settles ``position`` (for ``analyse``, its children)."""
    if not options.book:
        return False
    from brains.c4solver import exact_book

    book = exact_book()
    if not options.analyse:
        return book.score(position.current, position.mask) is not None
    children = [position.play(c) for c in range(7)
                if position.can_play(c) and not position.is_winning_move(c)]
    return all(book.score(c.current, c.mask) is not None for c in children)


def _solve_command(options: SolveOptions, say: Say) -> PositionSolver:
    """Pons' solver for ``parlor solve``: ``MOVES SCORE`` (Pons' score; ``analyse``: the
    score of each column 1-7, ``-`` where full; ``weak``: 1, 0 or -1)."""
    import time

    from brains.c4solver import Position, Solver, SolverStopped
    from engine.protocol import quote

    deadline: list[float] = [float("inf")]
    solver = Solver(stop=lambda: time.monotonic() >= deadline[0], book=options.book)

    def solve(moves: str) -> Solved:
        try:
            position = Position.from_moves(moves)
        except ValueError as exc:
            return Solved(f"{cut(moves)} error: {exc}", failed=True)
        if position.moves < SLOW_BELOW and not _in_book(position, options):
            limit = (f"stopping after {options.seconds:g} s" if options.seconds
                     else "no time limit; --seconds T sets one")
            say(f"{quote(moves)} has {position.moves} stones; solving it "
                f"may take very long ({limit})")
        nodes, start = solver.nodes, time.perf_counter()
        if options.seconds:
            deadline[0] = time.monotonic() + options.seconds
        failed = False
        try:
            if options.analyse:
                scores = solver.analyse(position, weak=options.weak)
                text = " ".join("-" if s is None else str(s) for s in scores)
            else:
                text = str(solver.solve(position, weak=options.weak))
        except SolverStopped:
            text = f"stopped: not solved within {options.seconds:g} s"
            failed = True
        finally:
            deadline[0] = float("inf")
        return Solved(f"{moves} {text}", failed,
                      f"{moves}: {solver.nodes - nodes} nodes, "
                      f"{time.perf_counter() - start:.3f} s")

    return solve


def _build_book(options: BuildOptions, say: Say) -> tuple[int, str]:
    """``--build-book``: the exact opening book (:func:`brains.c4book.build_exact`)."""
    from pathlib import Path

    from brains import c4book

    depth = c4book.EXACT_DEPTH if options.depth is None else options.depth
    out = Path(options.out) if options.out else c4book.EXACT_PATH
    manifest = c4book.build_exact(depth, options.limit, out, jobs=options.jobs, say=say)
    entry = manifest["files"][out.name]
    return 0, (f"{out.name}: {entry['positions']} positions ({entry['layer_solved']} of the "
               f"{entry['layer_positions']} of {depth} stones solved), {entry['bytes']} "
               f"bytes, sha256 {entry['sha256']}")


# --------------------------------------------------------------------------- puzzles

PUZZLE_FROM_STONES = 16
"""Puzzles come from positions with at least this many stones: Pons' solver settles
every move of them in well under a second (fewer stones can take minutes)."""


def canonical_key(state: AnyState) -> int:
    """The same key for a position and its mirror image (Pons' canonical key)."""
    from brains.c4solver import canonical_key as pons_key

    assert isinstance(state, ConnectFourState)
    return pons_key(state.cur, state.mask)


def puzzle_ready(state: AnyState) -> bool:
    """Positions late enough for the exact solver to settle quickly."""
    return state.ply >= PUZZLE_FROM_STONES
