"""The greedy brain: one ply of lookahead on the game's heuristic."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from brains.minimax import EVAL, HEURISTIC_SCALE, SearchBrain, terminal_score
from brains.protocol import BrainOption, Budget, Thought
from engine.protocol import AnyState


class GreedyBrain(SearchBrain):
    """One ply on the game's heuristic: wins first, then the best-valued position."""

    name = "greedy"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (EVAL,)
    """One ply needs no limits: only the heuristic is chosen."""

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """One thought: the best-scoring move, ties broken from the seed."""
        scores = self.analyse(state, budget)
        if not scores:
            return
        best = max(scores.values())
        move = self.rng.choice([m for m, s in scores.items() if s == best])
        yield Thought(move, best, 1, len(scores), (move,), final=True)

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """Each legal move's value: a finished game's result, else minus the child's heuristic."""
        scores: dict[Any, float] = {}
        for move in state.legal_moves():
            child = state.play(move)
            if not child.legal_moves():
                scores[move] = -terminal_score(child, 1)
            else:
                value = max(-1.0, min(1.0, self.heuristic(child)))
                scores[move] = -HEURISTIC_SCALE * value
        return scores
