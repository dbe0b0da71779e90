"""The Reversi endgame solver at work: alpha-beta's hard level and the analysis use it."""

from __future__ import annotations

import random

from brains import reversi_endgame
from brains.analysis import analyse_game
from brains.protocol import Budget
from brains.registry import make_brain
from engine.protocol import State
from engine.record import GameRecord
from engine.registry import new_game


def late_position(seed: int, empties: int) -> tuple[State, list[object]]:
    """A 6x6 position reached by seeded random play, with ``empties`` squares left."""
    rng = random.Random(seed)
    state = new_game("reversi", size=6)
    moves = []
    while reversi_endgame.empties_of(state) > empties and state.outcome() is None:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    return state, moves


def exact_scores(state: State) -> dict[object, int]:
    """Every move's exact final disc difference for the side to move."""
    out = {}
    for move in state.legal_moves():
        child = state.play(move)
        result = reversi_endgame.solve(child)
        assert result.exact and result.score is not None
        out[move] = result.score if child.to_move == state.to_move else -result.score
    return out


def test_hard_alpha_beta_plays_an_exactly_best_move_late_in_reversi() -> None:
    for seed in range(3):
        state, _ = late_position(seed, 9)
        if state.outcome() is not None or len(state.legal_moves()) < 2:
            continue
        scores = exact_scores(state)
        best = max(scores.values())
        outcome = (best > 0) - (best < 0)
        brain = make_brain("alphabeta:hard", "reversi", seed=seed)
        move = brain.choose(state, Budget(seconds=20))
        # the hook keeps the best outcome; the solver's own move keeps the best score too
        assert (scores[move] > 0) - (scores[move] < 0) == outcome
        assert scores[move] == best


def test_the_analysis_values_late_reversi_moves_exactly() -> None:
    state, moves = late_position(4, 6)
    while state.outcome() is None:  # play it out
        move = state.legal_moves()[0]
        moves.append(move)
        state = state.play(move)
    record = GameRecord.from_moves(new_game("reversi", size=6), moves)
    result = analyse_game(record, seconds=0.3)
    assert result.complete and result.moves[-1].kind == "exact"
    exact = [m for m in result.moves if m.kind == "exact"]
    assert len(exact) >= 4
    for m in exact:  # exact values carry the final disc difference
        assert m.after.score is not None
