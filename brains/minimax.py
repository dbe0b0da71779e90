"""Fixed-depth minimax, plain and with a transposition table.

Also home of what every depth-limited search here shares: the score scale and
:class:`SearchBrain`, the base class that turns brain options and a :class:`Budget`
into limits and polls them.

Scores are from the side to move's view. A won position scores ``WIN - EPS * ply``
(``ply`` counted from the search root), so faster wins and slower losses score better;
a draw scores 0; a heuristic value ``h`` in [-1, 1] scores ``HEURISTIC_SCALE * h``,
which stays strictly inside the proven-result range ``|score| > PROVEN``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from brains.evaluation import evaluation
from brains.heuristics import heuristics_module, list_heuristics
from brains.protocol import Brain, BrainOption, Budget, Thought
from brains.tt import EXACT, SOLVED, TranspositionTable
from engine.protocol import AnyState, ParlorError

WIN = 1.0
EPS = 1e-3
HEURISTIC_SCALE = 0.9
PROVEN = 0.9
"""Scores beyond ±PROVEN are proven wins or losses."""
INF = float("inf")
MAX_DEPTH = 64
"""Iterative deepening stops here even without another limit."""
POLL = 255
"""Searches that count nodes without a clock poll their stop every POLL + 1 nodes."""
POLL_SECONDS = 0.002
"""A search reads the clock about this often, whatever a node costs: the nodes between
two polls follow the speed measured since the last one (one node apart when each
evaluation is slow), so a budget is kept to within a poll and one node."""
MAX_POLL_STEP = 4096
"""The most nodes between two polls (a stop from outside is seen within them)."""


class Stopped(Exception):
    """Raised inside a search when the budget runs out; the iteration is abandoned."""


def terminal_score(state: AnyState, ply: int) -> float:
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


def eval_choices(game: str) -> tuple[str, ...]:
    """The names ``eval`` takes in ``game``: its heuristics, and ``mlp``."""
    return (*list_heuristics(game), "mlp")


def check_eval(text: str, game: str) -> str:
    """``text`` if it names one of ``game``'s heuristics (or ``mlp``/``mlp:MODEL``)."""
    if text.lower().partition(":")[0] == "mlp":
        return text
    if text.lower().replace("-", "_") not in heuristics_module(game).HEURISTICS:
        raise ParlorError(f"it takes one of {', '.join(eval_choices(game))}")
    return text


DEPTH = BrainOption("depth", int, None, "plies to search; none: deepen until another limit",
                    low=1, high=MAX_DEPTH, nullable=True)
SECONDS = BrainOption("seconds", float, None, "seconds to think per move; none: no limit",
                      low=0, low_open=True, high=86_400, nullable=True)
NODES = BrainOption("nodes", int, None, "positions to search per move at most; none: no limit",
                    low=1, high=10**12, nullable=True)
EVAL = BrainOption("eval", str, None, "heuristic scoring the leaves; none: the game's default "
                   "(mlp: the game's value network, where one ships)",
                   nullable=True, choices=eval_choices, check=check_eval)
TT_SIZE = BrainOption("tt_size", int, 500_000, "transposition table entries at most",
                      low=1, high=50_000_000)
TEMPERATURE = BrainOption("temperature", float, 0.0, "0: play the best move; above 0: pick "
                          "among the root moves at random, each weighted exp(score / "
                          "temperature) (scores: a win 1, a draw 0, a heuristic value at "
                          "most 0.9), so a weaker player that still prefers good moves",
                          low=0, high=10)
"""How far a search strays from its best move (see :func:`softmax_choice`)."""


def softmax_choice(moves: list[Any] | tuple[Any, ...], scores: dict[Any, float],
                   temperature: float, rng: random.Random) -> Any:
    """One of ``moves`` drawn with probability proportional to ``exp(score / temperature)``.

    Scores are on the search's scale (from the side to move's view: a proven win about
    +1, a loss about -1, a draw 0, a heuristic value within ±0.9), so a temperature of
    0.1 makes a move 0.1 worse e times less likely than the best one. The draw uses
    ``rng`` (the search's own stream, seeded from the brain's), so a seeded brain plays
    the same moves every time. A temperature of 0 is the best move (the first of equals).
    """
    best = max(scores[m] for m in moves)
    if temperature <= 0:
        return next(m for m in moves if scores[m] == best)
    weights = [math.exp((scores[m] - best) / temperature) for m in moves]
    return rng.choices(list(moves), weights=weights)[0]


def wins_at_once(state: AnyState) -> bool:
    """True if the side to move in ``state`` has a move that wins the game at once."""
    for move in state.legal_moves():
        child = state.play(move)
        if not child.legal_moves() and terminal_score(child, 0) < 0:
            return True
    return False


def fallible_replies(state: AnyState, heuristic: Callable[[AnyState], float],
                     temperature: float = 0.0) -> dict[Any, float]:
    """How likely a fallible player is to play each legal move of ``state``: the model of
    an opponent that alpha-beta's ``traps`` and the ``perfect`` brain's ``teacher`` lead
    astray.

    Of its sensible moves (those after which the other side cannot win at once; every move
    when none is) it prefers those its one-ply view rates best: ``heuristic`` of the
    position after the move (a finished game by its result), drawn by a softmax at
    ``temperature`` on the search's scale (see :func:`softmax_choice`); at 0, uniformly
    among the best rated. The weights sum to 1 (empty for a finished game).
    """
    children = {m: state.play(m) for m in state.legal_moves()}
    sensible = {m: c for m, c in children.items() if not wins_at_once(c)} or children
    if len(sensible) <= 1:
        return {m: 1.0 for m in sensible}
    rated = {m: (-terminal_score(c, 0) if not c.legal_moves()
                 else -HEURISTIC_SCALE * max(-1.0, min(1.0, heuristic(c))))
             for m, c in sensible.items()}
    top = max(rated.values())
    if temperature <= 0:
        weights = {m: float(r >= top - 1e-9) for m, r in rated.items()}
    else:
        weights = {m: math.exp((r - top) / temperature) for m, r in rated.items()}
    total = sum(weights.values())
    return {m: w / total for m, w in weights.items() if w > 0}


class Search:
    """Everything one search reads and changes, made afresh by each ``think``/``analyse``.

    The brain keeps only its configuration; a search that is still unwinding in a
    cancelled thread therefore polls its own budget and counts its own nodes, never
    those of a search started after it.
    """

    __slots__ = (
        "budget",
        "cuts",
        "deadline",
        "history",
        "killers",
        "max_depth",
        "max_nodes",
        "next_poll",
        "nodes",
        "partial",
        "path",
        "polled",
        "rng",
    )

    def __init__(self, budget: Budget, deadline: float | None, max_nodes: float,
                 max_depth: int, rng: random.Random):
        self.budget = budget
        self.rng = rng
        """This search's random stream (drawn from the brain's when it starts)."""
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.nodes = 0
        self.cuts = 0
        """Depth cutoffs met so far (unchanged over an iteration: the tree was seen whole)."""
        self.killers: list[list[Any]] = [[] for _ in range(min(max_depth, 128) + 2)]
        self.history: dict[Any, int] = {}
        self.path: set[Any] = set()
        """Keys of the positions on the search path and earlier in the game (repetition)."""
        self.partial: tuple[Any, float] | None = None
        """The best root move of the unfinished iteration so far, with its score."""
        self.next_poll = 1
        """The node count at which :meth:`poll` is next called."""
        self.polled = (budget.clock(), 0)
        """When the clock was last read, and the node count then."""

    def poll(self) -> None:
        """Raise Stopped when the budget, the deadline or the node limit is spent, and
        set the next poll about :data:`POLL_SECONDS` ahead at the speed just measured."""
        now = self.budget.clock()
        if (self.budget.stop.is_set() or self.nodes >= self.max_nodes
                or (self.deadline is not None and now >= self.deadline)):
            raise Stopped
        then, count = self.polled
        spent, done = now - then, self.nodes - count
        step = MAX_POLL_STEP if spent <= 0 else int(done * POLL_SECONDS / spent)
        if self.deadline is not None and spent > 0:  # never step past the deadline
            step = min(step, int(done * (self.deadline - now) / spent))
        step = max(1, min(step, MAX_POLL_STEP, 2 * done or 1))
        if self.max_nodes != INF:
            step = max(1, min(step, int(self.max_nodes) - self.nodes))
        self.polled = (now, self.nodes)
        self.next_poll = self.nodes + step


class SearchBrain(Brain):
    """Base of the depth-limited searches: options, limits, polling and evaluation.

    Options: ``depth`` (plies; None = no limit), ``seconds`` (per move), ``nodes``,
    ``eval`` (heuristic name, the game's default when None).
    """

    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (DEPTH, SECONDS, NODES, EVAL)

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        # a subclass that declares no limits (greedy) has none
        self.depth: int | None = self.options.get("depth")
        self.seconds: float | None = self.options.get("seconds")
        self.node_limit: int | None = self.options.get("nodes")
        self.heuristic: Callable[[AnyState], float] = evaluation(game, self.options["eval"])

    def default_budget(self) -> Budget:
        return Budget(seconds=self.seconds, depth=self.depth, nodes=self.node_limit)

    # -- limits ------------------------------------------------------------------------
    def _begin(self, budget: Budget, extra_seconds: float | None = None) -> Search:
        """A new search under ``budget`` and this brain's own limits."""
        budget.start()
        deadlines = [d for d in (budget.deadline,) if d is not None]
        for seconds in (self.seconds, extra_seconds):
            if seconds is not None:
                deadlines.append(budget.clock() + seconds)
        limits = [n for n in (budget.nodes, self.node_limit) if n is not None]
        depths = [d for d in (budget.depth, self.depth) if d is not None]
        return Search(budget, min(deadlines) if deadlines else None,
                      min(limits) if limits else INF, min(depths) if depths else MAX_DEPTH,
                      random.Random(self.rng.getrandbits(64)))

    def _evaluate(self, state: AnyState) -> float:
        """The heuristic score of a non-terminal position (the caller counts the cutoff)."""
        value = self.heuristic(state)
        return HEURISTIC_SCALE * max(-1.0, min(1.0, value))

    def _thought(self, search: Search, state: AnyState, move: Any, score: float, depth: int,
                 final: bool) -> Thought:
        return Thought(move=move, score=score, depth=depth, nodes=search.nodes,
                       pv=self._pv(state, move, depth), final=final)

    def _pv(self, state: AnyState, move: Any, depth: int) -> tuple[Any, ...]:
        """The principal variation starting with ``move`` (just the move by default)."""
        return (move,)


class MinimaxBrain(SearchBrain):
    """Plain minimax to a fixed depth on the game's heuristic."""

    name = "minimax"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (*SearchBrain.OPTIONS, TEMPERATURE)

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.tt: TranspositionTable | None = None
        self.temperature: float = self.options["temperature"]

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """Minimax to depth 1, 2, … up to the depth limit; each finished depth is a thought.

        The deepening only makes the search stoppable: each iteration is a plain,
        full-width minimax. Ties between the best root moves are broken from the seed;
        with ``temperature`` the move is drawn by :func:`softmax_choice`.
        """
        search = self._begin(budget)
        moves = state.legal_moves()
        if not moves:
            return
        if len(moves) == 1:
            yield Thought(moves[0], None, 0, 0, (moves[0],), final=True)
            return
        for depth in range(1, search.max_depth + 1):
            cuts = search.cuts
            try:
                scores = {m: -self._minimax(search, state.play(m), depth - 1, 1) for m in moves}
            except Stopped:
                return
            best = max(scores.values())
            if self.temperature > 0:
                move = softmax_choice(moves, scores, self.temperature, search.rng)
            else:
                move = search.rng.choice([m for m in moves if scores[m] == best])
            done = depth == search.max_depth or search.cuts == cuts
            yield self._thought(search, state, move, scores[move], depth, done)
            if done:
                return

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """Each legal move's minimax score at the brain's depth."""
        search = self._begin(budget or self.default_budget())
        depth = min(search.max_depth, 8)
        return {m: -self._minimax(search, state.play(m), depth - 1, 1) for m in state.legal_moves()}

    def _minimax(self, search: Search, state: AnyState, depth: int, ply: int) -> float:
        """The exact depth-``depth`` minimax value of ``state`` for its side to move."""
        search.nodes += 1
        if search.nodes >= search.next_poll:
            search.poll()
        moves = state.legal_moves()
        if not moves:
            return terminal_score(state, ply)
        if depth <= 0:
            search.cuts += 1
            return self._evaluate(state)
        tt = self.tt
        if tt is not None:
            key = state.key()
            entry = tt.get(key)
            if entry is not None and entry[0] >= depth:
                if entry[0] < SOLVED:
                    search.cuts += 1
                return from_tt(entry[2], ply)
            cuts = search.cuts
        best = -INF
        for move in moves:
            value = -self._minimax(search, state.play(move), depth - 1, ply + 1)
            best = max(best, value)
        if tt is not None:
            tt.put(key, SOLVED if search.cuts == cuts else depth, EXACT, to_tt(best, ply), None)
        return best


class MinimaxTTBrain(MinimaxBrain):
    """Minimax to a fixed depth with a transposition table."""

    name = "minimax-tt"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (*SearchBrain.OPTIONS, TEMPERATURE, TT_SIZE)

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.tt = TranspositionTable(self.options["tt_size"])
