"""Random openings: the plies that start the arena's games and the training's self-play
games, so that seeded games differ from the first moves on. Protocol only: no brain, no
registry (the arena and the trainers both import it)."""

from __future__ import annotations

import random
from typing import Any

from engine.protocol import AnyState


def random_opening(state: AnyState, plies: int,
                   rng: random.Random) -> tuple[AnyState, list[Any]]:
    """Up to ``plies`` random moves from ``state`` drawn from ``rng``, none that ends the
    game where another does not: the arena's openings. (The position reached, the moves.)"""
    moves: list[Any] = []
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        going_on = [m for m in legal if not state.play(m).is_terminal()]
        move = rng.choice(going_on or legal)
        moves.append(move)
        state = state.play(move)
    return state, moves
