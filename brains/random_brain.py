"""The random brain: a uniformly random legal move from the injected seed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from brains.protocol import Brain, Budget, Thought
from engine.protocol import AnyState


class RandomBrain(Brain):
    """Plays a uniformly random legal move."""

    name = "random"

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """One thought: a random legal move (nothing if the game is over)."""
        moves = state.legal_moves()
        if moves:
            move = self.rng.choice(moves)
            yield Thought(move, None, 0, 0, (move,), final=True)

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """Every legal move scores 0: random play has no preference."""
        return {m: 0.0 for m in state.legal_moves()}
