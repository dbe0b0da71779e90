"""Who plays each side: ``human`` or a brain spec, and how the TUI builds brains.

Brains come from ``brains.registry`` (``make_brain`` / ``list_brains``). Until that
module exists, a seeded random mover stands in behind the same :class:`Brain` interface.
"""

from __future__ import annotations

import importlib
from typing import Any, Iterator

from brains.protocol import Brain, Budget, Thought
from engine.protocol import State

HUMAN = "human"
"""The spec of a side played from the keyboard."""
DEFAULT_OPPONENT = "random"
"""The opponent used when none is named and the registry offers nothing better."""
HINT_SECONDS = 1.0
"""Thinking time for a hint."""


class _RandomMover(Brain):
    """Plays a uniformly random legal move (stand-in until the brain registry exists)."""

    name = "random"

    def think(self, state: State, budget: Budget) -> Iterator[Thought]:
        moves = state.legal_moves()
        if moves:
            move = self.rng.choice(moves)
            yield Thought(move, None, 1, len(moves), (move,), final=True)


def _registry() -> Any | None:
    try:
        return importlib.import_module("brains.registry")
    except ModuleNotFoundError as exc:
        if exc.name == "brains.registry":
            return None
        raise


def brain_specs(game_id: str) -> list[str]:
    """Every brain spec (with its levels) that can play ``game_id``, for menus."""
    registry = _registry()
    if registry is None:
        return [DEFAULT_OPPONENT]
    try:
        items = registry.list_brains(game_id)
    except Exception:  # one broken brain module must not hide the others or crash menus
        items = [name for name in registry.available_brains() if _loads(registry, name, game_id)]
    specs: list[str] = []
    for item in items:
        spec = item if isinstance(item, str) else getattr(item, "spec", None) or item.name
        levels = getattr(item, "levels", None) or {}
        distinct = {repr(sorted(options.items())) for options in levels.values()}
        if len(distinct) > 1 and ":" not in spec:
            specs.extend(f"{spec}:{level}" for level in levels)
        else:
            specs.append(spec)
    return specs or [DEFAULT_OPPONENT]


def _loads(registry: Any, name: str, game_id: str) -> bool:
    """True if brain ``name`` imports and can play ``game_id``."""
    try:
        registry.brain_class(name)
        registry.check_available(name, game_id)
    except Exception:
        return False
    return True


def default_opponent(game_id: str) -> str:
    """A sensible first opponent for ``game_id`` (a middle level if there is one)."""
    specs = brain_specs(game_id)
    for wanted in ("alphabeta:medium", "alphabeta:easy", "alphabeta"):
        if wanted in specs:
            return wanted
    return specs[0]


def make_brain(spec: str, game_id: str, seed: int | None = None) -> Brain:
    """The brain for ``spec`` playing ``game_id``; ValueError for an unknown spec."""
    registry = _registry()
    if registry is None:
        if spec.split(":")[0] != DEFAULT_OPPONENT:
            raise ValueError(f"unknown brain {spec!r}; known: {DEFAULT_OPPONENT}")
        return _RandomMover(game_id, seed=seed, spec=spec)
    return registry.make_brain(spec, game_id, seed=seed)


def is_human(spec: str) -> bool:
    """True if ``spec`` means a person at the keyboard."""
    return spec.strip().lower() == HUMAN


def check_spec(spec: str, game_id: str) -> str:
    """``spec`` normalised, after checking it names a side that can play ``game_id``."""
    norm = spec.strip().lower()
    if norm != HUMAN:
        make_brain(norm, game_id, seed=0)
    return norm
