"""Every brain plays every game: legal moves within budget, and seeds make play repeatable."""

from __future__ import annotations

import random
import time

import pytest

from brains import Budget, make_brain
from brains.registry import ONLY_FOR
from engine import State, new_game

SPECS = [
    "random",
    "greedy",
    "minimax:easy,depth=2",
    "minimax-tt:easy,depth=2",
    "alphabeta:easy,depth=3",
    "alphabeta:hard,clock=2",
    "mcts:easy,simulations=60",
    "perfect",
]
"""Small versions of every brain (timed ones with tiny budgets)."""
DETERMINISTIC = [s for s in SPECS if "hard" not in s and s != "perfect"]
"""Specs limited by depth or simulations only (perfect: see test_perfect.py)."""
SECONDS = 1.0
SLACK = 9.0
"""Generous: this guards against a brain that ignores its budget (an unbounded search
runs for minutes), not against a slow machine; speed is measured in benchmarks/."""


def positions(game_id: str, seed: int = 7, count: int = 2) -> list[State]:
    """The start and a few positions reached by seeded random play."""
    rng = random.Random(seed)
    out = [new_game(game_id)]
    for _ in range(count):
        state = new_game(game_id)
        for _ in range(rng.randrange(4, 16)):
            moves = state.legal_moves()
            if not moves:
                break
            child = state.play(rng.choice(moves))
            if not child.legal_moves():
                break
            state = child
        out.append(state)
    return out


def plays(spec: str, game_id: str) -> bool:
    name = spec.partition(",")[0].partition(":")[0]
    return name not in ONLY_FOR or game_id in ONLY_FOR[name]


@pytest.mark.parametrize("spec", SPECS)
def test_legal_move_within_budget(game_id: str, spec: str) -> None:
    if not plays(spec, game_id):
        with pytest.raises(ValueError, match="not available"):
            make_brain(spec, game_id, seed=1)
        return
    brain = make_brain(spec, game_id, seed=1)
    for state in positions(game_id):
        start = time.monotonic()
        move = brain.choose(state, Budget(seconds=SECONDS))
        elapsed = time.monotonic() - start
        assert move in state.legal_moves(), f"{spec} played {move!r} in\n{state}"
        assert elapsed < SECONDS + SLACK, f"{spec} took {elapsed:.2f}s"


@pytest.mark.parametrize("spec", DETERMINISTIC)
def test_same_seed_same_move(game_id: str, spec: str) -> None:
    if not plays(spec, game_id):
        return
    for state in positions(game_id, seed=11):
        a = make_brain(spec, game_id, seed=42).choose(state, Budget(seconds=30))
        b = make_brain(spec, game_id, seed=42).choose(state, Budget(seconds=30))
        assert a == b, f"{spec} is not repeatable in\n{state}"


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "alphabeta:easy,depth=2", "mcts:easy,simulations=40"])
def test_thoughts_are_well_formed(game_id: str, spec: str) -> None:
    brain = make_brain(spec, game_id, seed=3)
    state = positions(game_id, seed=5, count=1)[-1]
    thoughts = list(brain.think(state, Budget(seconds=SECONDS).start()))
    assert thoughts, "a brain with time must say something"
    for thought in thoughts:
        assert thought.move in state.legal_moves()
        assert thought.pv[0] == thought.move
        assert thought.score is None or -1.0 <= thought.score <= 1.0
    assert thoughts[-1].final


@pytest.mark.parametrize("spec", ["greedy", "alphabeta:easy,depth=2", "mcts:easy,simulations=60"])
def test_analyse_scores_legal_moves(game_id: str, spec: str) -> None:
    state = positions(game_id, seed=9, count=1)[-1]
    scores = make_brain(spec, game_id, seed=0).analyse(state, Budget(seconds=SECONDS))
    assert scores and set(scores) <= set(state.legal_moves())
    assert all(-1.0 <= s <= 1.0 for s in scores.values())
