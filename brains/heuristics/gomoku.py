"""Gomoku knowledge: open and closed runs of stones, counted on the engine's bitboards.

A *run* is a maximal line of k stones of one colour along a rank, a file or a
diagonal; it is *open* when the cells at both ends are empty, *closed* when one is.
A run blocked at both ends can never grow to five and is not counted. The features are,
from the side to move's view ("own" against the opponent's "opp"), the numbers of open
and closed runs of four, three and two.

``runs`` reads them as a player would: the side to move completes any four at once
(+0.95); an opponent's open four, or two fours, cannot be stopped (-0.9); an open three
of the side to move becomes an open four before the opponent can answer (+0.6) unless
the opponent has a four to play first; otherwise a weighted count of the runs, squashed
into (-0.5, 0.5) as ``s / (|s| + SCALE)``. A finished game gives its exact value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.games.gomoku import GomokuState
from engine.protocol import AnyState

SCALE = 20.0
"""Raw score that maps to a quarter (of the ±0.5 range of quiet positions)."""
WEIGHTS = (0.0, 0.0, 12.0, 5.0, 4.0, 1.5)
"""Raw score of one run: open four, closed four (both decided before this), open three,
closed three, open two, closed two."""

FEATURE_NAMES = ("own_open4", "own_closed4", "own_open3", "own_closed3", "own_open2",
                 "own_closed2", "opp_open4", "opp_closed4", "opp_open3", "opp_closed3",
                 "opp_open2", "opp_closed2")
"""Open and closed runs of 4, 3 and 2 stones, the side to move's first."""


def runs(stones: int, empty: int, directions: tuple[int, ...]) -> tuple[int, ...]:
    """(open 4, closed 4, open 3, closed 3, open 2, closed 2) runs of ``stones``.

    ``empty`` is the mask of empty cells and ``directions`` the bit steps of the four
    line directions (the engine's guard-column layout, so a run never wraps an edge).
    """
    counts = [0] * 6
    for d in directions:
        starts = stones & ~(stones << d)  # a stone with no own stone just before it
        before = empty << d  # the cell just before is empty
        at_least = stones  # runs of at least k stones, marked at their first stone
        for k in range(1, 5):
            longer = at_least & stones >> (k * d)
            if k >= 2:
                exact = starts & at_least & ~longer
                if exact:
                    left = exact & before
                    right = exact & empty >> (k * d)
                    slot = 2 * (4 - k)
                    counts[slot] += (left & right).bit_count()
                    counts[slot + 1] += (left ^ right).bit_count()
            at_least = longer
    return tuple(counts)


def _sides(state: AnyState) -> tuple[int, int, int, tuple[int, ...]]:
    assert isinstance(state, GomokuState)
    geo = state.geometry
    own, opp = state.stones(state.to_move), state.stones(1 - state.to_move)
    return own, opp, geo.full & ~(own | opp), geo.directions


def features(state: AnyState) -> tuple[int, ...]:
    """The run counts of FEATURE_NAMES for ``state``, the side to move's first."""
    own, opp, empty, directions = _sides(state)
    return runs(own, empty, directions) + runs(opp, empty, directions)


def run_value(state: AnyState) -> float:
    """The open/closed-runs evaluation described in the module docstring."""
    outcome = state.outcome()
    if outcome is not None:
        return float(outcome.value_for(state.to_move))
    feats = features(state)
    own, opp = feats[:6], feats[6:]
    if own[0] or own[1]:
        return 0.95
    if opp[0] or opp[1] >= 2:
        return -0.9
    if own[2] and not opp[1]:
        return 0.6
    raw = sum(w * (a - b) for w, a, b in zip(WEIGHTS, own, opp, strict=True))
    return 0.5 * raw / (abs(raw) + SCALE)


HEURISTICS: dict[str, Callable[[AnyState], float]] = {"runs": run_value}
"""Every Gomoku heuristic, by name."""
DEFAULT = "runs"


# --------------------------------------------------------------------------- tuning
# The parts every game module declares (schema: brains/heuristics/__init__.py).

MINIMAX_DEPTHS = (1, 2, 3)
"""Plain minimax depth at easy / medium / hard (81 moves a ply on 9×9; the brain's
seconds limit stops a deeper search that runs long)."""
ALPHABETA_DEPTHS = (2, 3)
"""Alpha-beta depth at easy / medium (hard is timed)."""
GAME_CLOCK = 60.0
"""Seconds ``alphabeta:hard`` may think over a whole game."""
TRAPS = False
"""No trap-setting among equal moves."""
REPETITION = False
"""Stones are never removed, so no position recurs."""
ENDGAME = False
"""No exact solver to consult."""
PERFECT: dict[str, Any] | None = None
"""The ``perfect`` brain does not play Gomoku."""
OPENING_PLIES = 2
"""Random plies the arena plays before the brains take over."""
LEARNED: dict[str, dict[str, Any]] = {}
"""No learned models are shipped for Gomoku yet."""
LADDER: tuple[str, ...] = (
    "alphabeta,depth=1,temperature=1,seconds=none",
    "alphabeta,depth=1,temperature=0.3,seconds=none",
    "alphabeta,depth=1,temperature=0.12,seconds=none",
    "alphabeta,depth=1,temperature=0.07,seconds=none",
    "alphabeta,depth=1,temperature=0.04,seconds=none",
    "alphabeta,depth=1,seconds=none",
    "alphabeta,depth=2,seconds=none",
    "alphabeta,depth=4,seconds=none",
)
"""The rated levels, weakest first (see brains.ladder; ratings: saved/ratings/gomoku.json)."""
