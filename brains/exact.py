"""Exact values, and the hook through which a game offers its exact solver.

A game solved here (wholly, or in its late positions) declares one :class:`ExactSolver`
as ``EXACT`` in its brains module (:mod:`brains.heuristics`). Everything that wants an
exact answer asks that hook and never names a game:

- the analysis (:mod:`brains.analysis`) and the hints ask :meth:`ExactSolver.values`
  for every legal move's :class:`Exact` value;
- ``alphabeta:hard`` (where the game's ``ENDGAME`` is true) asks
  :meth:`ExactSolver.outcomes` which moves keep the exact outcome;
- the ``perfect`` brain (:mod:`brains.perfect`) plays through :meth:`ExactSolver.think`
  and scores through :meth:`ExactSolver.scores` when the game's ``PERFECT`` options name
  the hook's :attr:`ExactSolver.method`;
- ``parlor solve`` solves the positions it is given through :meth:`ExactSolver.solver`
  (one line each) where :attr:`ExactSolver.solves` is true, and builds the solver's
  data through :meth:`ExactSolver.build`.

:func:`brains.heuristics.exact_solver` finds a game's hook (None where the game declares
none).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from brains.protocol import Budget, Thought
from engine.protocol import AnyState


@dataclass(frozen=True, slots=True)
class Exact:
    """A proven value, for the side to move of the position (or the mover, of a move).

    ``outcome`` is +1 (win), 0 (draw) or -1 (loss); ``plies`` the moves left to the end
    with best play, where known; ``score`` a finer game score where the game has one
    (Pons' score in Connect Four, the final disc difference in Reversi), same sign.
    """

    outcome: int
    plies: int | None = None
    score: int | None = None

    @classmethod
    def of(cls, result: Any, plies: int | None = None, score: int | None = None) -> Exact:
        """An Exact from an outcome given as +1/0/-1, a signed number, or
        ``"win"``/``"draw"``/``"loss"`` (how solvers tend to report them)."""
        if isinstance(result, str):
            outcome = {"win": 1, "draw": 0, "loss": -1}[result.strip().lower()]
        else:
            outcome = (result > 0) - (result < 0)
        return cls(outcome, None if plies is None or outcome == 0 else int(plies),
                   None if score is None else int(score))

    def flipped(self) -> Exact:
        """The same value from the other side's view."""
        return Exact(-self.outcome, self.plies, None if self.score is None else -self.score)

    def rank(self) -> tuple[int, int, int]:
        """Sort key, bigger is better: outcome, then score, then a faster win or slower loss."""
        plies = self.plies if self.plies is not None else 0
        return (self.outcome, self.score or 0, -self.outcome * plies)

    def words(self) -> str:
        """``win in 7``, ``draw``, ``loss by 4``, … for people."""
        name = {1: "win", 0: "draw", -1: "loss"}[self.outcome]
        if self.outcome and self.plies is not None:
            return f"{name} in {self.plies}"
        if self.score:
            return f"{name} by {abs(self.score)}"
        return name


Oracle = Callable[[AnyState, Budget, dict[str, Any]], "dict[Any, Exact] | None"]
"""Exact values of every legal move of a position, for its side to move, or None when it
cannot settle them within the budget. ``cache`` lives for one game's analysis (a solver's
table kept between its positions)."""


def position_oracle(value: Callable[[AnyState, Budget], Exact | None]) -> Oracle:
    """An oracle from a function giving the exact value of a position for its side to move
    (None if unknown): each move is valued by its child, seen from the mover's side."""

    def oracle(state: AnyState, budget: Budget, cache: dict[str, Any]) -> dict[Any, Exact] | None:
        out: dict[Any, Exact] = {}
        for move in state.legal_moves():
            child = state.play(move)
            outcome = child.outcome()
            if outcome is not None:
                out[move] = Exact(outcome.value_for(state.to_move), 1 if outcome.winner is not None
                                  else None)
                continue
            if budget.expired():
                return None
            v = value(child, budget)
            if v is None:
                return None
            v = v if child.to_move == state.to_move else v.flipped()
            out[move] = Exact(v.outcome, None if v.plies is None or not v.outcome
                              else v.plies + 1, v.score)
        return out

    return oracle


@dataclass(frozen=True)
class SolveOptions:
    """What ``parlor solve`` asks of a game's solver (each game reads the ones it uses)."""

    analyse: bool = False
    """Every move's value rather than the position's (where the game prints them apart)."""
    weak: bool = False
    """Only win, draw or loss."""
    best: bool = False
    """Only the value and a best move, not every move's value."""
    seconds: float | None = None
    """Give up on one position after this long (None: no limit)."""
    book: bool = True
    """Use an opening book where the game has one."""


@dataclass(frozen=True)
class BuildOptions:
    """What ``parlor solve``'s build flag asks for (each game reads the ones it uses)."""

    depth: int | None = None
    limit: int | None = None
    jobs: int = 1
    out: str | None = None


@dataclass(frozen=True)
class Solved:
    """One position solved (or not) by ``parlor solve``: the line to print, whether it
    failed, and a note on the work done (nodes, seconds) for ``--verbose``."""

    line: str
    failed: bool = False
    verbose: str = ""


Say = Callable[[str], None]
"""Where a solver's notes for a person go (a line on standard error, at once)."""
PositionSolver = Callable[[str], Solved]
"""``parlor solve``'s solver of one position given as text (see :meth:`ExactSolver.solver`)."""


class ExactSolver:
    """A game's exact solver: the one hook analysis, hints, alpha-beta's endgame,
    ``perfect`` and ``parlor solve`` ask (a game module declares one instance as
    ``EXACT``)."""

    method: ClassVar[str] = "search"
    """The ``perfect`` brain's ``method`` that plays through this hook (``search``: the
    brain's own full search, with the hook used by analysis and hints only)."""
    solves: ClassVar[bool] = False
    """True where ``parlor solve`` solves this game's positions (:meth:`solver`)."""

    def values(self, state: AnyState, budget: Budget,
               cache: dict[str, Any]) -> dict[Any, Exact] | None:
        """Exact values of every legal move for the side to move, or None where the
        solver cannot settle them within ``budget`` (``cache`` lives for one game)."""
        raise NotImplementedError

    # -- alphabeta's endgame --------------------------------------------------------------
    def outcomes(self, state: AnyState, stop: Callable[[], bool],
                 cache: dict[str, Any]) -> dict[Any, int] | None:
        """Exact outcomes (1 win, 0 draw, -1 loss for the side to move) of some legal
        moves, always including one that keeps the position's outcome, or None when not
        settled before ``stop()``: ``alphabeta``'s ``endgame`` asks it (a game whose
        ``ENDGAME`` is true overrides it; ``cache`` lives for one game)."""
        return None

    # -- the perfect brain ---------------------------------------------------------------
    def scores(self, brain: Any, state: AnyState, budget: Budget) -> dict[Any, float]:
        """Every legal move's exact score on :mod:`brains.perfect`'s scale (a win in N
        plies ``WIN - N * EPS``, or a finer score that :meth:`exact_of` reads, same sign,
        beyond ``PROVEN``); raises ``brains.minimax.Stopped`` when out of time."""
        raise NotImplementedError

    def exact_of(self, score: float) -> Exact | None:
        """The :class:`Exact` a score of :meth:`scores` stands for where it is not a
        distance to the end (Reversi's final disc difference); None where it is one
        (``WIN - N * EPS``, as the hints read it)."""
        return None

    def think(self, brain: Any, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """The perfect brain's thoughts (``brain`` is the :class:`brains.perfect.PerfectBrain`
        asking: its ``rng``, ``seed``, options and ``cache``): by default one, a best move
        of :meth:`scores`, as the brain's ``best_move`` chooses it (its ``teacher`` asks
        :meth:`values` of the replies) (``Stopped`` out of time, as there: the brain then
        has none)."""
        scores = self.scores(brain, state, budget)
        move, note = brain.best_move(state, scores, budget)
        yield Thought(move, scores[move], state.ply, 0, (move,), final=True, note=note)

    # -- parlor solve --------------------------------------------------------------------
    build_flag: ClassVar[str] = ""
    """The ``parlor solve`` flag that builds this solver's data (``--build``,
    ``--build-book``), empty where there is none (see :meth:`build`)."""

    def position_of(self, line: str) -> str | None:
        """The position a line of standard input holds (None: none, skip the line)."""
        return line.strip() or None

    def solver(self, options: SolveOptions, say: Say) -> PositionSolver:
        """``parlor solve``'s solver of this game's positions, one at a time, each given as
        text (bad text gives its error line, failed); ``say`` takes warnings (a position
        that may take very long). A ParlorError where the solver cannot be had."""
        raise NotImplementedError

    def build(self, options: BuildOptions, say: Say) -> tuple[int, str]:
        """Build the solver's data (:attr:`build_flag`): the exit status and a line for
        standard output (empty: none); ``say`` takes progress."""
        raise NotImplementedError


def cut(text: str, limit: int = 60) -> str:
    """``text`` as echoed before an error: cut to ``limit`` characters."""
    return text if len(text) <= limit else text[:limit] + "…"
