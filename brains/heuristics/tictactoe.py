"""Tic-tac-toe knowledge: six line features and a heuristic over them.

From the side to move's view ("x" = own marks, "o" = the opponent's):
``x1``/``o1`` count lines with two own marks and one empty cell, ``x2``/``o2`` lines
with one own mark and two empty cells, ``x3``/``o3`` lines of three.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from brains.exact import Exact, ExactSolver
from brains.protocol import Budget
from engine.games.tictactoe import LINE_MASKS, TicTacToeState
from engine.protocol import AnyState

FEATURE_NAMES = ("x1", "o1", "x2", "o2", "x3", "o3")
"""The feature names, side-to-move first."""


def _count(own: int, opp: int) -> tuple[int, int, int]:
    """Lines with (two own + one empty, one own + two empty, three own)."""
    two = one = three = 0
    for mask in LINE_MASKS:
        if opp & mask:
            continue
        n = (own & mask).bit_count()
        if n == 2:
            two += 1
        elif n == 1:
            one += 1
        elif n == 3:
            three += 1
    return two, one, three


def features(state: AnyState) -> tuple[int, ...]:
    """(x1, o1, x2, o2, x3, o3) of ``state`` from the side to move's view."""
    assert isinstance(state, TicTacToeState)
    own, opp = (state.o, state.x) if state.to_move else (state.x, state.o)
    x1, x2, x3 = _count(own, opp)
    o1, o2, o3 = _count(opp, own)
    return (x1, o1, x2, o2, x3, o3)


def lines(state: AnyState) -> float:
    """Line-feature evaluation: a win next move, a fork against us, else weighted lines.

    The side to move completes any open two at once (+0.9); an opponent with two open
    twos cannot be stopped (-0.8); otherwise open twos and ones are weighed 3:1.
    """
    x1, o1, x2, o2, x3, o3 = features(state)
    if x3:
        return 1.0
    if o3:
        return -1.0
    if x1:
        return 0.9
    if o1 >= 2:
        return -0.8
    return max(-0.7, min(0.7, (3 * (x1 - o1) + (x2 - o2)) / 10))


HEURISTICS: dict[str, Callable[[AnyState], float]] = {"lines": lines}
"""Every tic-tac-toe heuristic, by name."""
DEFAULT = "lines"


# --------------------------------------------------------------------------- tuning
# The parts every game module declares (schema: brains/heuristics/__init__.py).

MINIMAX_DEPTHS = (2, 4, 9)
"""Plain minimax depth at easy / medium / hard."""
ALPHABETA_DEPTHS = (2, 9)
"""Alpha-beta depth at easy / medium (hard is timed)."""
GAME_CLOCK = 6.0
"""Seconds ``alphabeta:hard`` may think over a whole game."""
TRAPS = True
"""Alpha-beta prefers, among moves of equal proven value, the one most likely to make the
opponent err."""
REPETITION = False
"""Positions can recur: alpha-beta scores a repetition as a draw."""
ENDGAME = False
"""``alphabeta:hard`` asks the ``outcomes`` of ``EXACT`` which moves keep the best outcome."""
PERFECT: dict[str, Any] | None = {"method": "search"}
"""The ``perfect`` brain's options here (None: it does not play this game)."""
OPENING_PLIES = 1
"""Random plies the arena plays before the brains take over."""
LEARNED: dict[str, dict[str, Any]] = {
    "linear": {"games": 10000},
    "mlp": {"games": 2000, "network": {
        "hidden": (128,), "nets": 1, "depth": 9, "mix": 0.3, "eps": 0.3, "iters": 200}},
}
"""Training recipes of the generic learners (see brains.learned.linear and .mlp)."""
LADDER: tuple[str, ...] = (
    "alphabeta,depth=1,temperature=3,seconds=none",
    "alphabeta,depth=1,temperature=1,seconds=none",
    "alphabeta,depth=1,temperature=0.5,seconds=none",
    "alphabeta,depth=1,temperature=0.3,seconds=none",
    "alphabeta,depth=1,temperature=0.15,seconds=none",
    "alphabeta,depth=2,temperature=0.15,seconds=none",
    "alphabeta,depth=2,temperature=0.07,seconds=none",
    "perfect",
)
"""The rated levels, weakest first (see brains.ladder; ratings: saved/ratings/tictactoe.json)."""


# --------------------------------------------------------------------------- exact solver


class TicTacToeSolver(ExactSolver):
    """Tic-tac-toe is solved by the ``perfect`` brain's own full search (``method``
    ``search``); the analysis' and hints' exact values come from it too."""

    method = "search"

    def values(self, state: AnyState, budget: Budget,
               cache: dict[str, Any]) -> dict[Any, Exact] | None:
        """Every move's value by the ``perfect`` brain's full search (its memo kept in
        ``cache``)."""
        from brains.minimax import EPS, Stopped
        from brains.perfect import PerfectBrain

        brain = cache.get("perfect")
        if brain is None:
            brain = cache["perfect"] = PerfectBrain(state.GAME, method="search")
        try:
            scores = brain.analyse(state, budget)
        except Stopped:
            return None
        # a won move scores WIN - EPS * plies (perfect.py's scale): recover the plies
        return {m: Exact((s > 0) - (s < 0), round((1 - abs(s)) / EPS) if s else None)
                for m, s in scores.items()}


EXACT = TicTacToeSolver()
"""The exact hook (brains.exact): analysis and hints."""


# --------------------------------------------------------------------------- puzzles


def canonical_key(state: AnyState) -> Hashable:
    """The same key for a position and its seven rotations and reflections: the smallest
    of its keys in the board's symmetries (the side to move follows from the counts)."""
    return min(state.symmetric_keys())  # type: ignore[type-var]


def puzzle_ready(state: AnyState) -> bool:
    """Every position is solved at once."""
    return True
