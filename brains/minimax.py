"""Fixed-depth minimax (report 004), plain and with a transposition table.

Also home of what every depth-limited search here shares: the score scale and
:class:`SearchBrain`, the base class that turns brain options and a :class:`Budget`
into limits and polls them.

Scores are from the side to move's view. A won position scores ``WIN - EPS * ply``
(``ply`` counted from the search root), so faster wins and slower losses score better;
a draw scores 0; a heuristic value ``h`` in [-1, 1] scores ``HEURISTIC_SCALE * h``,
which stays strictly inside the proven-result range ``|score| > PROVEN``.
"""

from __future__ import annotations

import time
from typing import Any, Callable, ClassVar, Iterator

from brains.evaluation import evaluation
from brains.protocol import Brain, Budget, Thought
from brains.tt import EXACT, SOLVED, TranspositionTable
from engine.protocol import State

WIN = 1.0
EPS = 1e-3
HEURISTIC_SCALE = 0.9
PROVEN = 0.9
"""Scores beyond ±PROVEN are proven wins or losses."""
INF = float("inf")
MAX_DEPTH = 64
"""Iterative deepening stops here even without another limit."""
POLL = 255
"""Budgets are polled every POLL + 1 nodes."""


class Stopped(Exception):
    """Raised inside a search when the budget runs out; the iteration is abandoned."""


def terminal_score(state: State, ply: int) -> float:
    """The score of a finished game for the side to move, ``ply`` plies from the root."""
    outcome = state.outcome()
    value = outcome.value_for(state.to_move) if outcome is not None else 0
    return value * (WIN - EPS * ply)


def to_tt(score: float, ply: int) -> float:
    """A score relative to the root made relative to the node (for storing)."""
    if score > PROVEN:
        return score + EPS * ply
    if score < -PROVEN:
        return score - EPS * ply
    return score


def from_tt(score: float, ply: int) -> float:
    """A stored node-relative score made relative to the root."""
    if score > PROVEN:
        return score - EPS * ply
    if score < -PROVEN:
        return score + EPS * ply
    return score


class SearchBrain(Brain):
    """Base of the depth-limited searches: options, limits, polling and evaluation.

    Options: ``depth`` (plies; None = no limit), ``seconds`` (per move), ``nodes``,
    ``eval`` (heuristic name, the game's default when None).
    """

    OPTIONS: ClassVar[dict[str, type]] = {"depth": int, "seconds": float, "nodes": int, "eval": str}

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.depth: int | None = options.get("depth")
        self.seconds: float | None = options.get("seconds")
        self.node_limit: int | None = options.get("nodes")
        self.heuristic: Callable[[State], float] = evaluation(game, options.get("eval"))
        self.nodes = 0
        self._deadline: float | None = None
        self._budget = Budget()
        self._max_nodes: float = INF
        self._cuts = 0

    def default_budget(self) -> Budget:
        return Budget(seconds=self.seconds, depth=self.depth, nodes=self.node_limit)

    # -- limits ------------------------------------------------------------------------
    def _begin(self, budget: Budget, extra_seconds: float | None = None) -> int:
        """Set up the polled limits for one search; returns the maximum depth."""
        budget.start()
        self._budget = budget
        self.nodes = 0
        self._cuts = 0
        deadlines = [d for d in (budget.deadline,) if d is not None]
        for seconds in (self.seconds, extra_seconds):
            if seconds is not None:
                deadlines.append(time.monotonic() + seconds)
        self._deadline = min(deadlines) if deadlines else None
        limits = [n for n in (budget.nodes, self.node_limit) if n is not None]
        self._max_nodes = min(limits) if limits else INF
        depths = [d for d in (budget.depth, self.depth) if d is not None and d > 0]
        return min(depths) if depths else MAX_DEPTH

    def _poll(self) -> None:
        """Raise Stopped when the budget, the deadline or the node limit is spent."""
        if (self._budget.stop.is_set() or self.nodes >= self._max_nodes
                or (self._deadline is not None and time.monotonic() >= self._deadline)):
            raise Stopped

    def _evaluate(self, state: State) -> float:
        """The heuristic score of a non-terminal position (counts as a depth cutoff)."""
        self._cuts += 1
        value = self.heuristic(state)
        return HEURISTIC_SCALE * (1.0 if value > 1.0 else -1.0 if value < -1.0 else value)

    def _thought(self, state: State, move: Any, score: float, depth: int, final: bool) -> Thought:
        return Thought(move=move, score=score, depth=depth, nodes=self.nodes,
                       pv=self._pv(state, move, depth), final=final)

    def _pv(self, state: State, move: Any, depth: int) -> tuple[Any, ...]:
        """The principal variation starting with ``move`` (just the move by default)."""
        return (move,)


class MinimaxBrain(SearchBrain):
    """Plain minimax to a fixed depth on the game's heuristic (report 004)."""

    name = "minimax"

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.tt: TranspositionTable | None = None

    def think(self, state: State, budget: Budget) -> Iterator[Thought]:
        """Minimax to depth 1, 2, … up to the depth limit; each finished depth is a thought.

        The deepening only makes the search stoppable: each iteration is a plain,
        full-width minimax. Ties between the best root moves are broken from the seed.
        """
        max_depth = self._begin(budget)
        moves = state.legal_moves()
        if not moves:
            return
        if len(moves) == 1:
            yield Thought(moves[0], None, 0, 0, (moves[0],), final=True)
            return
        for depth in range(1, max_depth + 1):
            cuts = self._cuts
            try:
                scores = {m: -self._minimax(state.play(m), depth - 1, 1) for m in moves}
            except Stopped:
                return
            best = max(scores.values())
            move = self.rng.choice([m for m in moves if scores[m] == best])
            done = depth == max_depth or self._cuts == cuts
            yield self._thought(state, move, best, depth, done)
            if done:
                return

    def analyse(self, state: State, budget: Budget | None = None) -> dict[Any, float]:
        """Each legal move's minimax score at the brain's depth."""
        max_depth = self._begin((budget or self.default_budget()))
        depth = min(max_depth, 8)
        return {m: -self._minimax(state.play(m), depth - 1, 1) for m in state.legal_moves()}

    def _minimax(self, state: State, depth: int, ply: int) -> float:
        """The exact depth-``depth`` minimax value of ``state`` for its side to move."""
        self.nodes += 1
        if not self.nodes & POLL:
            self._poll()
        moves = state.legal_moves()
        if not moves:
            return terminal_score(state, ply)
        if depth <= 0:
            return self._evaluate(state)
        tt = self.tt
        if tt is not None:
            key = state.key()
            entry = tt.get(key)
            if entry is not None and entry[0] >= depth:
                if entry[0] < SOLVED:
                    self._cuts += 1
                return from_tt(entry[2], ply)
            cuts = self._cuts
        best = -INF
        for move in moves:
            value = -self._minimax(state.play(move), depth - 1, ply + 1)
            if value > best:
                best = value
        if tt is not None:
            tt.put(key, SOLVED if self._cuts == cuts else depth, EXACT, to_tt(best, ply), None)
        return best


class MinimaxTTBrain(MinimaxBrain):
    """Minimax to a fixed depth with a transposition table (report 004)."""

    name = "minimax-tt"
    OPTIONS: ClassVar[dict[str, type]] = {**SearchBrain.OPTIONS, "tt_size": int}

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.tt = TranspositionTable(options.get("tt_size") or 500_000)
