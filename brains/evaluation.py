"""Position evaluations for the search brains: the hand-written heuristics and the learned
value networks, by name.

This module sits above both :mod:`brains.heuristics` (the hand-written evaluations) and
:mod:`brains.learned.mlp` (which builds its inputs from those heuristics), so neither of
them imports the other's user.
"""

from __future__ import annotations

from brains.heuristics import Heuristic, get_heuristic
from brains.learned import mlp


def evaluation(game_id: str, name: str | None = None) -> Heuristic:
    """The evaluation ``name`` for ``game_id``: the game's default heuristic when None,
    ``mlp`` (or ``mlp:PATH`` for a listed model file) for the learned value network,
    else the game's heuristic of that name (UnknownBrainError lists the names)."""
    if name is not None and name.strip().lower().partition(":")[0] == "mlp":
        return mlp.heuristic(game_id, name.strip().partition(":")[2] or None)
    return get_heuristic(game_id, name)
