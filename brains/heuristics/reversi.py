"""Reversi knowledge: six heuristics, on the engine's bitboards.

Every value is from the side to move's view ("own" discs against the opponent's) and
lies in [-1, 1]; all of them work on every board size and variant (FlipColor's drawn
squares change only which colour a placed disc ends up, so no heuristic needs them).

- ``base``: disc difference over discs on the board.
- ``filled_cell``: for each disc, each neighbour counts +2 if it holds a disc of the
  same colour, +1 if it holds the other colour, -2 if it is empty (discs beside empty
  squares are easier to flip); own total minus the opponent's, over the largest total
  possible.
- ``legal_moves``: mobility difference over total mobility.
- ``vulnerable``: -2 per own disc the opponent could flip next turn, +1 per opponent
  disc we could flip, over the largest value possible.
- ``weight_place``: a square-weight table (corners high, squares next to corners
  negative while the corner is empty, edges good, the centre four good), scaled to the
  board size.
- ``combined`` (the default): a weighted sum of the five, or the exact result (+1, 0,
  -1) once neither side can move.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from functools import cache
from typing import Any

from brains.exact import Exact, ExactSolver, PositionSolver, Say, Solved, SolveOptions, cut
from brains.protocol import Budget, Thought
from engine.games.reversi import Geometry, ReversiState, geometry
from engine.protocol import AnyState

FEATURE_NAMES = ("base", "filled_cell", "legal_moves", "vulnerable", "weight_place",
                 "corners", "empties")
"""Names of :func:`features`: the five normalised heuristics, the corner difference
(over 4) and the fraction of empty squares (the game phase)."""

COMBINED_WEIGHTS = {"base": 0.10, "filled_cell": 0.10, "legal_moves": 0.25,
                    "vulnerable": 0.15, "weight_place": 0.40}
"""Weights of ``combined``; they sum to 1, so ``combined`` stays in [-1, 1]."""


class _Tables:
    """Masks the heuristics need for one board size."""

    __slots__ = (
        "corner_guards",
        "corners",
        "geo",
        "not_first",
        "not_last",
        "weight_masks",
        "weight_total",
    )

    def __init__(self, geo: Geometry):
        n = geo.n
        self.geo = geo
        first = sum(1 << r * n for r in range(n))
        last = first << n - 1
        self.not_first = geo.full & ~first
        """Every square but column a (the target of an eastward shift)."""
        self.not_last = geo.full & ~last
        """Every square but the last column (the target of a westward shift)."""
        by_weight: dict[int, int] = {}
        for s in range(n * n):
            w = square_weight(n, s)
            by_weight[w] = by_weight.get(w, 0) | 1 << s
        self.weight_masks = tuple(sorted(by_weight.items()))
        """(weight, mask of the squares with that weight)."""
        self.weight_total = sum(abs(w) * mask.bit_count() for w, mask in by_weight.items())
        """Largest possible weight difference (all good squares own, all bad ones not)."""
        corners = (0, n - 1, n * (n - 1), n * n - 1)
        self.corners = sum(1 << c for c in corners)
        """Mask of the four corners."""
        guards = []
        for c in corners:
            r0, c0 = divmod(c, n)
            near = [(1 << r * n + col, square_weight(n, r * n + col))
                    for r in range(max(r0 - 1, 0), min(r0 + 2, n))
                    for col in range(max(c0 - 1, 0), min(c0 + 2, n))
                    if (r, col) != (r0, c0)]
            guards.append((1 << c, tuple((bit, w) for bit, w in near if w < 0)))
        self.corner_guards = tuple(guards)
        """(corner bit, ((bit, weight), ...)) for the negative squares next to each corner."""

    def neighbours(self, x: int) -> tuple[int, ...]:
        """``x`` shifted one step in each of the eight directions (off-board bits dropped)."""
        n, full, nf, nl = self.geo.n, self.geo.full, self.not_first, self.not_last
        return (x << 1 & nf, x >> 1 & nl, x << n & full, x >> n,
                x << n + 1 & nf & full, x << n - 1 & nl & full,
                x >> n - 1 & nf, x >> n + 1 & nl)

    def flippable(self, mine: int, theirs: int) -> int:
        """Discs of ``mine`` that the owner of ``theirs`` could flip with one placement.

        A disc is flippable when, along some line, its run of ``mine`` discs has a
        ``theirs`` disc at one end and an empty square at the other: a flood from the
        ``theirs`` side and a flood from the empty side must both reach it.
        """
        geo = self.geo
        empty = ~(mine | theirs) & geo.full
        n = geo.n
        inner = mine & geo.inner
        out = 0
        for step, mask in ((1, inner), (n, mine), (n + 1, inner), (n - 1, inner)):
            up_t = t = theirs << step & mask
            while t:
                t = t << step & mask
                up_t |= t
            down_e = t = empty >> step & mask
            while t:
                t = t >> step & mask
                down_e |= t
            down_t = t = theirs >> step & mask
            while t:
                t = t >> step & mask
                down_t |= t
            up_e = t = empty << step & mask
            while t:
                t = t << step & mask
                up_e |= t
            out |= up_t & down_e | down_t & up_e
        return out


def square_weight(n: int, square: int) -> int:
    """The positional weight of ``square`` on an ``n``×``n`` board.

    Corners 100; edge squares next to a corner -25; squares diagonally next to a corner
    -50; other edge squares 10; the centre four 5 (they win over the corner rule on
    4×4, where they are the start squares); other squares next to an edge -2; the rest 1.
    """
    r, c = divmod(square, n)
    edge_r, edge_c = r in (0, n - 1), c in (0, n - 1)
    near_r, near_c = r in (1, n - 2), c in (1, n - 2)
    if r in (n // 2 - 1, n // 2) and c in (n // 2 - 1, n // 2):
        return 5
    if edge_r and edge_c:
        return 100
    if (edge_r and near_c) or (edge_c and near_r):
        return -25
    if near_r and near_c:
        return -50
    if edge_r or edge_c:
        return 10
    if near_r or near_c:
        return -2
    return 1


TAKEN_CORNER_NEIGHBOUR = 10
"""Weight of a square next to a corner once the corner holds a disc (like an edge)."""


@cache
def _tables(n: int) -> _Tables:
    return _Tables(geometry(n))


def _ratio(a: float, b: float) -> float:
    return (a - b) / (a + b) if a + b else 0.0


def _filled(t: _Tables, a: int, b: int, empty: int) -> int:
    total = 0
    for x in t.neighbours(a):
        total += 2 * (x & a).bit_count() + (x & b).bit_count() - 2 * (x & empty).bit_count()
    return total


def _parts(state: AnyState) -> tuple[_Tables, int, int]:
    assert isinstance(state, ReversiState), "reversi heuristics need a ReversiState"
    return _tables(state.size), state.me, state.them


def base(state: AnyState) -> float:
    """Disc difference over the discs on the board."""
    _, me, them = _parts(state)
    return _ratio(me.bit_count(), them.bit_count())


def filled_cell(state: AnyState) -> float:
    """Neighbour score (same colour +2, other colour +1, empty -2), own minus opponent's."""
    t, me, them = _parts(state)
    empty = ~(me | them) & t.geo.full
    bound = 16 * (me | them).bit_count()
    return (_filled(t, me, them, empty) - _filled(t, them, me, empty)) / bound if bound else 0.0


def legal_moves(state: AnyState) -> float:
    """Mobility difference over total mobility (placements only; a pass counts 0)."""
    t, me, them = _parts(state)
    return _ratio(t.geo.mobility(me, them).bit_count(), t.geo.mobility(them, me).bit_count())


def vulnerable(state: AnyState) -> float:
    """-2 per own disc the opponent can flip next turn, +1 per opponent disc we can flip."""
    t, me, them = _parts(state)
    bound = 2 * me.bit_count() + them.bit_count()
    if not bound:
        return 0.0
    raw = -2 * t.flippable(me, them).bit_count() + t.flippable(them, me).bit_count()
    return raw / bound


def weight_place(state: AnyState) -> float:
    """Square weights of own discs minus the opponent's, over the largest such sum.

    The squares next to a corner lose their penalty once that corner is taken (they can
    no longer give it away) and weigh :data:`TAKEN_CORNER_NEIGHBOUR` instead.
    """
    t, me, them = _parts(state)
    score = 0
    for w, mask in t.weight_masks:
        score += w * ((me & mask).bit_count() - (them & mask).bit_count())
    occupied = me | them
    for corner, guards in t.corner_guards:
        if occupied & corner:
            for bit, w in guards:
                if occupied & bit:
                    score += (TAKEN_CORNER_NEIGHBOUR - w) * (1 if me & bit else -1)
    return score / t.weight_total


def features(state: AnyState) -> list[float]:
    """The values named in :data:`FEATURE_NAMES`, from the side to move's view."""
    t, me, them = _parts(state)
    empties = (~(me | them) & t.geo.full).bit_count()
    corners = ((me & t.corners).bit_count() - (them & t.corners).bit_count()) / 4
    return [base(state), filled_cell(state), legal_moves(state), vulnerable(state),
            weight_place(state), corners, empties / t.geo.n ** 2]


def combined(state: AnyState) -> float:
    """Weighted sum of the five heuristics; the exact result when the game is over."""
    t, me, them = _parts(state)
    geo = t.geo
    mine, theirs = geo.mobility(me, them).bit_count(), geo.mobility(them, me).bit_count()
    if not mine and not theirs:
        diff = me.bit_count() - them.bit_count()
        return 1.0 if diff > 0 else -1.0 if diff < 0 else 0.0
    w = COMBINED_WEIGHTS
    return (w["base"] * base(state) + w["filled_cell"] * filled_cell(state)
            + w["legal_moves"] * _ratio(mine, theirs) + w["vulnerable"] * vulnerable(state)
            + w["weight_place"] * weight_place(state))


HEURISTICS: dict[str, Callable[[AnyState], float]] = {
    "combined": combined,
    "base": base,
    "filled_cell": filled_cell,
    "legal_moves": legal_moves,
    "vulnerable": vulnerable,
    "weight_place": weight_place,
}
"""The heuristics by name, each in [-1, 1] from the side to move's view."""

DEFAULT = "combined"
"""The heuristic used when none is named."""


# --------------------------------------------------------------------------- tuning
# The parts every game module declares (schema: brains/heuristics/__init__.py).

MINIMAX_DEPTHS = (2, 3, 4)
"""Plain minimax depth at easy / medium / hard."""
ALPHABETA_DEPTHS = (2, 4)
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
EXACT_EMPTIES = 14
"""``exact_outcomes`` tries the endgame solver from this many empty squares on (about a
second on these machines, docs/STRENGTH-NOTEBOOK.md, "Exact Reversi endgames")."""


def exact_outcomes(state: AnyState, stop: Callable[[], bool],
                   cache: dict[str, Any]) -> dict[Any, int] | None:
    """The search brains' endgame hook: with at most :data:`EXACT_EMPTIES` empty squares,
    the exact solver's best move (the largest final disc difference) and its outcome
    (1 win, 0 draw, -1 loss for the side to move); None when it has not finished before
    ``stop()``."""
    from brains import reversi_endgame

    assert isinstance(state, ReversiState)
    if reversi_endgame.empties_of(state) > EXACT_EMPTIES:
        return None
    result = reversi_endgame.solve(state, stop=stop)
    if not result.exact or result.best_move is None or result.score is None:
        return None
    return {result.best_move: (result.score > 0) - (result.score < 0)}
PERFECT: dict[str, Any] | None = {"method": "endgame", "fallback": "patterns"}
"""The ``perfect`` brain's options here (None: it does not play this game): the endgame
solver with at most :data:`EXACT_EMPTIES` empty squares, the ``patterns`` brain before
(on 8x8; on other boards it plays ``alphabeta`` itself)."""
OPENING_PLIES = 4
"""Random plies the arena plays before the brains take over."""
LEARNED: dict[str, dict[str, Any]] = {
    "linear": {"games": 3000},
    "mlp": {"games": 200, "network": {
        "hidden": (16,), "nets": 1, "depth": 3, "child_depth": 2, "mix": 0.0, "eps": 0.1,
        "iters": 200, "mixed": True, "inputs": ("features",), "skip": True, "rounds": 3}},
}
"""Training recipes of the generic learners (see brains.learned.linear and .mlp)."""
LADDER: tuple[str, ...] = (
    "alphabeta,depth=1,temperature=0.08,seconds=none",
    "alphabeta,depth=1,seconds=none",
    "alphabeta,depth=2,seconds=none",
    "alphabeta,depth=3,temperature=0.008,seconds=none",
    "alphabeta,depth=3,seconds=none",
    "alphabeta,depth=5,temperature=0.013,seconds=none",
    "alphabeta,depth=5,seconds=none",
    "alphabeta,depth=6,seconds=none",
    "patterns,depth=4,seconds=none",
    "patterns,depth=10,seconds=none",
)
"""The rated levels, weakest first (see brains.ladder; ratings: saved/ratings/reversi.json).
The top two play the compiled search on the pattern evaluation on the 8x8 board (off it,
``alphabeta`` at most 6 plies deep: :data:`brains.learned.patterns.OTHER_DEPTH`)."""
TEACHER_MODELS: tuple[str, ...] = tuple(f"alphabeta,depth={d},seconds=none" for d in range(1, 7))
"""The fallible opponents the teacher (``perfect,teacher=true``) plays each of its
candidates out against: alpha-beta on the default evaluation, 1 to 6 plies deep (see
brains.perfect; measured in docs/STRENGTH.md, "Teaching levels")."""


# --------------------------------------------------------------------------- exact solver


SLOW_ABOVE = 24
"""Positions with more empty squares than this may take very long (``parlor solve`` warns)."""


SOLVER_SHARE = 0.7
"""Share of a timed budget the solver may use before the ``perfect`` brain falls back."""


SCORE_SQUARES = 64
"""The most squares of a board (8x8): :func:`perfect_score` counts a win's margin from it."""


def perfect_score(difference: int) -> float:
    """A final disc difference for the mover on :mod:`brains.perfect`'s scale: a win
    ``WIN - EPS * (SCORE_SQUARES - difference)`` (bigger wins higher, every one past
    ``PROVEN``), a loss its mirror image, a draw 0."""
    from brains.minimax import EPS, WIN

    if difference > 0:
        return WIN - EPS * (SCORE_SQUARES - difference)
    if difference < 0:
        return -WIN + EPS * (SCORE_SQUARES + difference)
    return 0.0


class ReversiSolver(ExactSolver):
    """Late Reversi by the endgame solver (:mod:`brains.reversi_endgame`): every move
    valued by the exact final disc difference with best play.

    As the ``perfect`` brain's method (``endgame``): with at most :data:`EXACT_EMPTIES`
    empty squares every move's exact disc difference (:func:`perfect_score`), the brain
    playing one of the largest; with more, or where the solver does not finish in
    :data:`SOLVER_SHARE` of a timed budget, the brain says so in its thought and takes the
    move from its ``fallback`` brain. Its ``teacher`` chooses among the moves of the
    largest difference by the replies' exact outcomes (win, draw or loss)."""

    method = "endgame"

    def outcomes(self, state: AnyState, stop: Callable[[], bool],
                 cache: dict[str, Any]) -> dict[Any, int] | None:
        return exact_outcomes(state, stop, cache)

    solves = True

    def solver(self, options: SolveOptions, say: Say) -> PositionSolver:
        """One line per position (as docs/RULES.md writes it): ``POSITION: SCORE; best
        MOVE; MOVE SCORE, …`` (best moves first). SCORE is the final disc difference for
        the side to move with best play, the empty squares of a game that ends early
        counted for the winner (as the FFO test and WTHOR count; Parlor's own result
        counts discs only, and has the same sign); ``best``: without every move's."""
        import time

        from brains import reversi_endgame
        from engine.positions import parse_position
        from engine.protocol import ParlorError, quote

        def solve(text: str) -> Solved:
            shown = cut(" ".join(text.split()), 120)
            try:
                state = parse_position(ReversiState.GAME, text)
            except ParlorError as exc:
                return Solved(f"{shown} error: {exc}", failed=True)
            empties = reversi_endgame.empties_of(state)
            if empties > SLOW_ABOVE:
                limit = (f"stopping after {options.seconds:g} s" if options.seconds
                         else "no time limit; --seconds T sets one")
                say(f"{quote(shown)} has {empties} empty squares; solving it may "
                    f"take very long ({limit})")
            start = time.perf_counter()
            deadline = None if not options.seconds else time.monotonic() + options.seconds
            result = reversi_endgame.solve(state, budget_seconds=options.seconds,
                                           empties_to_winner=True)
            values: dict[int, int] | None = {}
            nodes = result.nodes
            if result.exact and not options.best:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                found = reversi_endgame.move_values(state, budget_seconds=left,
                                                    empties_to_winner=True)
                values = None if found is None else found[0]
                nodes += 0 if found is None else found[1]
            if not result.exact or result.score is None or values is None:
                return Solved(f"{shown} stopped: not solved within {options.seconds:g} s",
                              failed=True)
            line = f"{shown}: {result.score:+d}"
            if result.best_move is not None:
                line += f"; best {state.format_move(result.best_move)}"
            if values:
                ranked = sorted(values.items(), key=lambda mv: (-mv[1], mv[0]))
                line += "; " + ", ".join(f"{state.format_move(m)} {v:+d}" for m, v in ranked)
            return Solved(line, verbose=f"{shown}: {nodes} nodes, "
                                        f"{time.perf_counter() - start:.3f} s")

        return solve

    def values(self, state: AnyState, budget: Budget,
               cache: dict[str, Any]) -> dict[Any, Exact] | None:
        """None when there are more than :data:`EXACT_EMPTIES` empty squares or time runs
        out."""
        from brains import reversi_endgame

        if reversi_endgame.empties_of(state) > EXACT_EMPTIES:
            return None
        out: dict[Any, Exact] = {}
        for move in state.legal_moves():
            child = state.play(move)
            result = reversi_endgame.solve(child, stop=budget.expired)
            if not result.exact or result.score is None:
                return None
            score = result.score if child.to_move == state.to_move else -result.score
            out[move] = Exact.of(score, score=score)
        return out

    def scores(self, brain: Any, state: AnyState, budget: Budget) -> dict[Any, float]:
        """Every move's exact final disc difference on :func:`perfect_score`'s scale;
        ``Stopped`` with more than :data:`EXACT_EMPTIES` empty squares or out of time."""
        return self._scores(state, budget)[0]

    def _scores(self, state: AnyState, budget: Budget) -> tuple[dict[Any, float], int]:
        """The scores and the solver's nodes."""
        from brains import reversi_endgame
        from brains.minimax import Stopped

        assert isinstance(state, ReversiState)
        if reversi_endgame.empties_of(state) > EXACT_EMPTIES or budget.expired():
            raise Stopped
        found = reversi_endgame.move_values(state, stop=budget.expired)
        if found is None:
            raise Stopped
        return {m: perfect_score(v) for m, v in found[0].items()}, found[1]

    def think(self, brain: Any, state: AnyState, budget: Budget) -> Iterator[Thought]:
        from brains import reversi_endgame
        from brains.minimax import Stopped

        solver_budget = Budget(stop=budget.stop)
        remaining = budget.remaining()
        if remaining is not None:
            solver_budget = Budget(seconds=SOLVER_SHARE * remaining, stop=budget.stop).start()
        try:
            scores, nodes = self._scores(state, solver_budget)
        except Stopped:
            yield from brain.fall_back(state, budget)
            return
        move, note = brain.best_move(state, scores, budget)
        yield Thought(move, scores[move], reversi_endgame.empties_of(state), nodes, (move,),
                      final=True, note=note)

    def exact_of(self, score: float) -> Exact | None:
        """The final disc difference a score of :meth:`scores` stands for."""
        from brains.minimax import EPS, WIN

        if not score:
            return Exact(0, score=0)
        difference = SCORE_SQUARES - round((WIN - abs(score)) / EPS)
        return Exact(1 if score > 0 else -1, score=difference if score > 0 else -difference)


EXACT = ReversiSolver()
"""The exact hook (brains.exact): analysis, hints, ``perfect`` and ``parlor solve``."""


# --------------------------------------------------------------------------- puzzles

PUZZLE_EMPTIES = 12
"""Puzzles come from positions with at most this many empty squares (every move solved
exactly in a fraction of a second)."""


def canonical_key(state: AnyState) -> Hashable:
    """The same key for a position and its rotations and reflections: the smallest of
    its keys in the board's eight symmetries (:meth:`engine.protocol.State.symmetric_keys`)."""
    return min(state.symmetric_keys())  # type: ignore[type-var]


def puzzle_ready(state: AnyState) -> bool:
    """Late positions, which the endgame solver settles quickly."""
    from brains import reversi_endgame

    return reversi_endgame.empties_of(state) <= PUZZLE_EMPTIES
