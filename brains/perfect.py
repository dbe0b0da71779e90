"""Perfect play where a game is solved here: exhaustive search, or the game's own exact
solver.

Which games get which method is each game's decision (``PERFECT`` in its module under
:mod:`brains.heuristics`); this module implements the generic one and asks the game for
the other:

- ``search``: a memoized negamax to the end of the game (tic-tac-toe), scoring wins
  by their distance so that the brain wins fastest and loses slowest;
- the name of the game's exact hook (``EXACT`` in its module, :mod:`brains.exact`; its
  ``method``, such as ``connect4`` for Pons' solver or ``morrisdb`` for the Morris
  database): the hook scores the moves and chooses (a hook that may run out of time
  takes the move from the ``fallback`` brain, saying so in its thought).
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Iterator
from typing import Any, ClassVar

from brains.exact import ExactSolver
from brains.heuristics import exact_solver
from brains.minimax import EPS, POLL, SECONDS, WIN, Stopped
from brains.protocol import Brain, BrainOption, Budget, Thought, UnknownBrainError
from brains.registry import check_spec, make_brain
from engine.protocol import AnyState
from engine.registry import GAMES


def _shift(value: float) -> float:
    """A child's negated value seen one ply further up (wins and losses get one ply longer)."""
    return value - EPS if value > 0 else value + EPS if value < 0 else 0.0


class _Search:
    """One search's budget and node count (kept off the brain: see :class:`Brain`)."""

    __slots__ = ("budget", "nodes")

    def __init__(self, budget: Budget):
        self.budget = budget
        self.nodes = 0


def check_fallback(text: str, game: str) -> str:
    """``text`` if it is a brain spec other than ``perfect`` that can play ``game``."""
    if text.lower().partition(",")[0].partition(":")[0].strip() == "perfect":
        raise ValueError("the fallback must be another brain")
    check_spec(text, game)
    return text


def _methods() -> tuple[str, ...]:
    """``search`` and the methods the games' exact hooks name, in the engine's order."""
    found = ["search"]
    for game in GAMES:
        hook = exact_solver(game)
        if hook is not None and hook.method not in found:
            found.append(hook.method)
    return tuple(found)


class PerfectBrain(Brain):
    """Perfect play: full search, or the game's exact solver (Pons' solver in Connect
    Four, the retrograde database in Morris)."""

    name = "perfect"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (
        BrainOption("method", str, "search", "search: exhaustive search; otherwise the "
                    "game's exact solver by its name ("
                    + ", ".join(m for m in _methods() if m != "search") + ")",
                    choices=_methods()),
        SECONDS,
        BrainOption("fallback", str, "alphabeta:hard", "with a solver that may run out of "
                    "time: the brain that moves when it does", check=check_fallback),
    )

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.method: str = self.options["method"]
        self.seconds: float | None = self.options["seconds"]
        self.fallback_spec: str = self.options["fallback"]
        self._memo: dict[Hashable, float] = {}
        """Exact values by position key: true in every search, so shared between them."""
        self.solver: ExactSolver | None = None
        """The game's exact hook, where ``method`` names it (None: full search)."""
        if self.method != "search":
            hook = exact_solver(game)
            if hook is None or hook.method != self.method:
                raise UnknownBrainError(
                    f"perfect: method={self.method} does not solve {game}; "
                    f"{game}'s is {'search' if hook is None else hook.method}")
            self.solver = hook
        self.cache: dict[str, Any] = {}
        """The solver's own state kept between moves (its tables stay useful)."""
        self.last_note = ""

    def default_budget(self) -> Budget:
        return Budget(seconds=self.seconds)

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """One final thought with the best move and its exact score (or a fallback's thoughts)."""
        moves = state.legal_moves()
        if not moves:
            return
        budget.start()
        if self.solver is not None:
            with contextlib.suppress(Stopped):  # out of time: no move to offer
                yield from self.solver.think(self, state, budget)
            return
        search = _Search(budget)
        try:
            scores = self._analyse(search, state)
        except Stopped:
            return
        best = max(scores.values())
        move = self.rng.choice([m for m in moves if scores[m] == best])
        yield Thought(move, best, state.ply, search.nodes, (move,), final=True)

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """The exact score of every legal move (Stopped if the budget runs out first)."""
        return self._analyse(_Search((budget or self.default_budget()).start()), state)

    def _analyse(self, search: _Search, state: AnyState) -> dict[Any, float]:
        if self.solver is not None:
            return self.solver.scores(self, state, search.budget)
        return {m: _shift(-self._value(search, state.play(m))) for m in state.legal_moves()}

    # -- exhaustive search ---------------------------------------------------------------
    def _value(self, search: _Search, state: AnyState) -> float:
        """The exact value of ``state`` for its side to move, relative to the node."""
        key = state.key()
        value = self._memo.get(key)
        if value is not None:
            return value
        search.nodes += 1
        if not search.nodes & POLL and search.budget.expired():
            raise Stopped
        moves = state.legal_moves()
        if not moves:
            outcome = state.outcome()
            value = WIN * outcome.value_for(state.to_move) if outcome is not None else 0.0
        else:
            value = max(_shift(-self._value(search, state.play(m))) for m in moves)
        self._memo[key] = value
        return value

    # -- when the solver runs out of time ------------------------------------------------
    def fall_back(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """Thoughts of the fallback brain, each with a note saying the move is not proven."""
        brain = make_brain(self.fallback_spec, self.game, seed=self.seed)
        note = f"not solved in time: move from {self.fallback_spec}"
        self.last_note = note
        for thought in brain.think(state, budget if budget.deadline else brain.default_budget()):
            yield Thought(thought.move, thought.score, thought.depth, thought.nodes,
                          thought.pv, final=False, note=note)
