"""Perfect play where a game is solved here: exhaustive search, the Connect Four solver,
or the Morris database.

Which games get which method is each game's decision (``PERFECT`` in its module under
:mod:`brains.heuristics`); this module implements the methods:

- ``search``: a memoized negamax to the end of the game (tic-tac-toe), scoring wins
  by their distance so that the brain wins fastest and loses slowest;
- ``connect4``: Pascal Pons' solver (:mod:`brains.c4solver`, its search compiled, with
  the exact opening book :func:`brains.c4solver.exact_book`) through ``Solver.analyse``,
  which gives each column's exact score (bigger = faster win). With no deadline the
  brain always solves the position (never falls back). With a deadline, a position
  that neither the book nor the search settles in time (the opening, below about 10
  stones, until the book covers it) makes the brain say so in its thought and take the
  move from the ``fallback`` brain (``alphabeta:hard`` by default). The first move, in
  the centre, is known (Allis 1988) and needs no search;
- ``morrisdb``: Five Men's Morris from its retrograde database (:mod:`brains.morrisdb`,
  docs/MORRIS.md): fastest win, slowest loss, and among drawing moves the one that sets
  the most traps. The database ignores the 100-ply and repetition draws (the game is
  a draw from the start either way).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from brains.minimax import EPS, POLL, SECONDS, WIN, Stopped
from brains.protocol import Brain, BrainOption, Budget, Thought
from brains.registry import check_spec, make_brain
from engine.games.morris import MorrisState
from engine.protocol import State

if TYPE_CHECKING:
    from brains.morrisdb import Value

SOLVER_SHARE = 0.7
"""Share of a timed budget the Connect Four solver may use before the fallback."""


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


def morris_score(value: Value) -> float:
    """A Morris database value (``win``/``loss`` in N plies, ``draw``) as a search score:
    a win in N is ``WIN - N * EPS`` (faster is better), a loss its negation."""
    if value.result == "draw" or value.plies is None:
        return 0.0
    score: float = WIN - EPS * value.plies
    return score if value.result == "win" else -score


class PerfectBrain(Brain):
    """Perfect play: full search in tic-tac-toe, Pons' solver in Connect Four, the
    retrograde database in Morris."""

    name = "perfect"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (
        BrainOption("method", str, "search", "search: exhaustive search; connect4: Pons' "
                    "solver; morrisdb: the Morris database",
                    choices=("search", "connect4", "morrisdb")),
        SECONDS,
        BrainOption("fallback", str, "alphabeta:hard", "with method=connect4: the brain that "
                    "moves when the solver runs out of time", check=check_fallback),
    )

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.method: str = self.options["method"]
        self.seconds: float | None = self.options["seconds"]
        self.fallback_spec: str = self.options["fallback"]
        self._memo: dict[Hashable, float] = {}
        """Exact values by position key: true in every search, so shared between them."""
        self._solvers: list[Any] = []
        """Idle Connect Four solvers, kept between moves (their tables stay useful); a
        search takes one for itself and gives it back when done."""
        self.last_note = ""

    def default_budget(self) -> Budget:
        return Budget(seconds=self.seconds)

    def think(self, state: State, budget: Budget) -> Iterator[Thought]:
        """One final thought with the best move and its exact score (or a fallback's thoughts)."""
        moves = state.legal_moves()
        if not moves:
            return
        budget.start()
        if self.method == "connect4":
            yield from self._think_connect4(state, budget)
            return
        if self.method == "morrisdb":
            from brains.morrisdb import shared

            assert isinstance(state, MorrisState)
            db = shared()
            move = db.perfect_move(state, self.rng)
            value = db.move_values(state)[move]
            yield Thought(move, morris_score(value), value.plies or 0, 0, (move,), final=True)
            return
        search = _Search(budget)
        try:
            scores = self._analyse(search, state)
        except Stopped:
            return
        best = max(scores.values())
        move = self.rng.choice([m for m in moves if scores[m] == best])
        yield Thought(move, best, state.ply, search.nodes, (move,), final=True)

    def analyse(self, state: State, budget: Budget | None = None) -> dict[Any, float]:
        """The exact score of every legal move (Stopped if the budget runs out first)."""
        return self._analyse(_Search((budget or self.default_budget()).start()), state)

    def _analyse(self, search: _Search, state: State) -> dict[Any, float]:
        if self.method == "connect4":
            return self._analyse_connect4(search, state)
        if self.method == "morrisdb":
            from brains.morrisdb import shared

            assert isinstance(state, MorrisState)
            values = shared().move_values(state)
            return {m: morris_score(v) for m, v in values.items()}
        return {m: _shift(-self._value(search, state.play(m))) for m in state.legal_moves()}

    # -- exhaustive search ---------------------------------------------------------------
    def _value(self, search: _Search, state: State) -> float:
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

    # -- Connect Four --------------------------------------------------------------------
    def _think_connect4(self, state: State, budget: Budget) -> Iterator[Thought]:
        if state.ply == 0:  # the centre column wins (Allis 1988); no search needed
            move = state.parse_move("4")
            yield Thought(move, WIN - EPS * 41, 41, 0, (move,), final=True)
            return
        solver_budget = budget
        if budget.deadline is not None:
            share = SOLVER_SHARE * max(0.0, budget.deadline - time.monotonic())
            solver_budget = Budget(seconds=share, stop=budget.stop).start()
        search = _Search(solver_budget)
        try:
            scores = self._analyse_connect4(search, state)
        except Stopped:
            yield from self._fall_back(state, budget)
            return
        best = max(scores.values())
        move = self.rng.choice([m for m, s in scores.items() if s == best])
        yield Thought(move, best, 42 - state.ply, search.nodes, (move,), final=True)

    def _fall_back(self, state: State, budget: Budget) -> Iterator[Thought]:
        """Thoughts of the fallback brain, each with a note saying the move is not proven."""
        brain = make_brain(self.fallback_spec, self.game, seed=self.seed)
        note = f"not solved in time: move from {self.fallback_spec}"
        self.last_note = note
        for thought in brain.think(state, budget if budget.deadline else brain.default_budget()):
            yield Thought(thought.move, thought.score, thought.depth, thought.nodes,
                          thought.pv, final=False, note=note)

    def _analyse_connect4(self, search: _Search, state: State) -> dict[Any, float]:
        from brains import c4solver

        position = solver_position(state)
        try:
            solver = self._solvers.pop()  # list.pop is atomic: no two searches share one
        except IndexError:
            solver = c4solver.Solver()
        solver.stop = search.budget.expired
        before = solver.nodes
        try:
            per_column = solver.analyse(position)
        except c4solver.SolverStopped:
            raise Stopped from None
        finally:
            search.nodes = solver.nodes - before
            solver.stop = None
            self._solvers.append(solver)
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
        return scores


def solver_position(state: State) -> Any:
    """The :class:`brains.c4solver.Position` of an engine Connect Four state.

    Both use Pons' bitboard layout (7 bits a column, the side to move's stones and all
    stones), so the position is copied, not replayed.
    """
    from brains import c4solver
    from engine.games.connect4 import ConnectFourState

    assert isinstance(state, ConnectFourState)
    position = c4solver.Position()
    position.current = state.cur
    position.mask = state.mask
    position.moves = state.ply
    return position
