"""Per-game knowledge for the search brains: heuristics looked up by game id.

Each game has a module ``brains.heuristics.<game>`` that defines

- ``HEURISTICS: dict[str, Callable[[State], float]]`` — evaluations from the side to
  move's view, in [-1, 1];
- ``DEFAULT: str`` — the name used when none is asked for;
- ``FEATURE_NAMES`` and ``features(state)`` — the numbers the heuristics are built on
  (also used by learned brains).

A module may also define optional time-management hooks (see :mod:`brains.timeman`).
Search code never imports a game: it asks :func:`get_heuristic` for a function.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable

from brains.protocol import UnknownBrainError
from engine.protocol import State

Heuristic = Callable[[State], float]
"""A position evaluation from the side to move's view, in [-1, 1]."""


def heuristics_module(game_id: str) -> ModuleType:
    """The module holding ``game_id``'s heuristics; UnknownBrainError if there is none."""
    path = f"{__name__}.{game_id}"
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name != path:
            raise
        raise UnknownBrainError(f"no heuristics for game {game_id!r}") from None


def list_heuristics(game_id: str) -> list[str]:
    """The names of ``game_id``'s heuristics, the default first."""
    module = heuristics_module(game_id)
    names = list(module.HEURISTICS)
    names.remove(module.DEFAULT)
    return [module.DEFAULT, *names]


def get_heuristic(game_id: str, name: str | None = None) -> Heuristic:
    """``game_id``'s heuristic ``name`` (the game's default when None).

    An unknown name raises UnknownBrainError listing the names that exist.
    """
    if name is not None and name.strip().lower().partition(":")[0] == "mlp":
        # the learned value network (``mlp``, or ``mlp:PATH`` for a listed model file)
        from brains.learned.mlp import heuristic

        return heuristic(game_id, name.strip().partition(":")[2] or None)
    module = heuristics_module(game_id)
    key = module.DEFAULT if name is None else name.strip().lower().replace("-", "_")
    try:
        return module.HEURISTICS[key]
    except KeyError:
        known = ", ".join(list_heuristics(game_id))
        raise UnknownBrainError(
            f"unknown heuristic {name!r} for {game_id}; known: {known}"
        ) from None
