"""Hints from the strongest analysis Parlor has for a position, saying how sure they are.

Where a game is solved here (``brains.registry.PERFECT``: the ``perfect`` brain, by full
search or the game's exact solver) the hint is the exactly best move with its exact
verdict, as long as the solver settles the position within :data:`SOLVER_SECONDS`; where
the game's exact hook settles it (:mod:`brains.exact`: late Reversi by the endgame
solver, …), likewise. Otherwise the
hint comes from the strongest general search (:data:`SEARCH_SPEC`) for
:data:`SEARCH_SECONDS`, with its depth and score, marked as not proven. The hint never
depends on who the opponent is.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from brains import registry
from brains.minimax import EPS, WIN, Stopped
from brains.protocol import Budget, Thought
from engine.protocol import AnyState

SOLVER_SECONDS = 2.0
"""The longest an exact analysis may take before the hint falls back to a search."""
SEARCH_SECONDS = 1.0
"""Thinking time of the search that gives the hint where no solver settles it."""
SEARCH_SPEC = "alphabeta:hard"
"""The strongest general brain (its hardest level)."""


@dataclass(frozen=True)
class Hint:
    """A suggested move and how sure Parlor is of it."""

    move: Any
    exact: bool
    """True when the verdict is proven (the solver or a full search settled it)."""
    verdict: str
    """In words: "wins in 3 moves", "draws", "loses in 5 moves", or the search's score."""
    source: str
    """What found it: ``perfect`` or the search's spec."""


def exact_verdict(score: float) -> str:
    """An exact score of ``brains.perfect`` in words (wins sooner score higher)."""
    if score > 0:
        plies = round((WIN - score) / EPS)
        return f"wins within {moves((plies + 1) // 2)}" if plies > 0 else "wins"
    if score < 0:
        plies = round((WIN + score) / EPS)
        return (f"loses against best play: the other side wins within "
                f"{moves(max(1, plies // 2))}, whatever is played")
    return "draws with best play on both sides"


def moves(count: int) -> str:
    """``count`` moves of one side, in words."""
    return f"{count} move" if count == 1 else f"{count} moves"


def solved_hint(state: AnyState, stop: threading.Event, seed: int | None) -> Hint | None:
    """The exact best move where a solver settles ``state`` in time, else None."""
    if state.GAME not in registry.PERFECT:
        return None
    brain: Any = registry.make_brain("perfect", state.GAME, seed=seed)
    try:
        scores = brain.analyse(state, Budget(seconds=SOLVER_SECONDS, stop=stop))
    except Stopped:
        return None
    if not scores:
        return None
    best = max(scores.values())
    move = next(m for m in state.legal_moves() if scores.get(m) == best)
    exact = None if brain.solver is None else brain.solver.exact_of(best)
    verdict = exact_verdict(best) if exact is None else \
        f"{exact.words()} with best play on both sides"
    return Hint(move, True, verdict, "perfect")


def oracle_hint(state: AnyState, stop: threading.Event) -> Hint | None:
    """The exactly best move by the game's exact hook (the Reversi endgame solver with
    few empties, …) if it settles ``state`` in time, else None."""
    from brains.heuristics import exact_solver

    hook = exact_solver(state.GAME)
    if hook is None:
        return None
    values = hook.values(state, Budget(seconds=SOLVER_SECONDS, stop=stop).start(), {})
    if not values:
        return None
    move, best = max(values.items(), key=lambda mv: mv[1].rank())
    return Hint(move, True, f"{best.words()} with best play on both sides", "exact")


def search_hint(state: AnyState, stop: threading.Event, seed: int | None) -> Hint | None:
    """The strongest search's move for ``state`` with its depth and score."""
    spec = SEARCH_SPEC
    try:
        brain = registry.make_brain(spec, state.GAME, seed=seed)
    except ValueError:
        spec = "alphabeta"
        brain = registry.make_brain(spec, state.GAME, seed=seed)
    best: Thought | None = None
    for thought in brain.think(state, Budget(seconds=SEARCH_SECONDS, stop=stop).start()):
        best = thought
    if best is None:
        return None
    score = "?" if best.score is None else f"{round(best.score, 2) + 0.0:+.2f}"
    return Hint(best.move, False, f"search score {score} at depth {best.depth}, not proven", spec)


def best_hint(state: AnyState, stop: threading.Event, seed: int | None = None) -> Hint | None:
    """The best hint Parlor can give for ``state`` (None: no legal move)."""
    if state.outcome() is not None or not state.legal_moves():
        return None
    return (solved_hint(state, stop, seed) or oracle_hint(state, stop)
            or search_hint(state, stop, seed))
