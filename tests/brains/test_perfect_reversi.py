"""The ``perfect`` brain in late Reversi: the endgame solver's exactly best moves, the
``patterns`` fallback before, and its teacher choosing by play-outs among the moves of
the best outcome."""

from __future__ import annotations

import random

import pytest

from brains import Budget, make_brain, reversi_endgame
from brains.heuristics import exact_solver, get_heuristic, teacher_models
from brains.heuristics.reversi import EXACT_EMPTIES, perfect_score
from brains.minimax import PROVEN
from brains.perfect import teaching_key
from engine import new_game
from engine.protocol import AnyState
from tests.brains.test_reversi_exact_play import exact_scores  # the oracle: a solve a child


def late_position(seed: int, empties: int, size: int = 8) -> AnyState:
    """A position reached by seeded random play with at most ``empties`` squares left
    and a move to make."""
    rng = random.Random(seed)
    while True:
        state = new_game("reversi", size=size)
        while reversi_endgame.empties_of(state) > empties and state.outcome() is None:
            state = state.play(rng.choice(state.legal_moves()))
        if state.outcome() is None and state.legal_moves():
            return state


@pytest.mark.parametrize("size, empties, seeds", [(8, 10, range(4)), (6, 10, range(4, 8))])
def test_perfect_plays_an_exactly_best_move(size: int, empties: int, seeds: range) -> None:
    brain = make_brain("perfect", "reversi", seed=1)
    for seed in seeds:
        state = late_position(seed, empties, size)
        exact = exact_scores(state)
        thoughts = list(brain.think(state, Budget().start()))
        assert len(thoughts) == 1 and thoughts[0].final and not thoughts[0].note
        best = max(exact.values())
        assert exact[thoughts[0].move] == best, str(state)
        assert thoughts[0].score == perfect_score(best)
        assert brain.analyse(state) == {m: perfect_score(v) for m, v in exact.items()}


def test_the_scores_rank_disc_differences_and_read_back() -> None:
    hook = exact_solver("reversi")
    assert hook is not None
    scores = [perfect_score(d) for d in range(-64, 65)]
    assert scores == sorted(scores) and len(set(scores)) == len(scores)
    assert all(abs(s) > PROVEN for s in scores if s)
    for d in range(-64, 65):
        exact = hook.exact_of(perfect_score(d))
        assert exact is not None and exact.score == d and exact.outcome == (d > 0) - (d < 0)


@pytest.mark.parametrize("size", [8, 6])
def test_an_early_position_moves_through_the_fallback_and_says_so(size: int) -> None:
    """On 8x8 ``patterns`` searches; on 6x6 it plays alpha-beta itself."""
    state = late_position(9, EXACT_EMPTIES + (8 if size == 8 else 4), size)
    assert reversi_endgame.empties_of(state) > EXACT_EMPTIES
    brain = make_brain("perfect", "reversi", seed=1)
    thoughts = list(brain.think(state, Budget(seconds=0.3).start()))
    assert thoughts and thoughts[-1].move in state.legal_moves()
    assert all(not t.final and t.note == "not solved in time: move from patterns"
               for t in thoughts)


def test_a_stopped_solve_falls_back() -> None:
    state = late_position(2, 10)
    brain = make_brain("perfect,fallback=greedy", "reversi", seed=1)
    budget = Budget()
    budget.stop.set()
    thoughts = list(brain.think(state, budget))
    assert thoughts and "move from greedy" in thoughts[-1].note
    assert thoughts[-1].move in state.legal_moves()


def teachable(seed: int, size: int) -> AnyState:
    """A late position that is not won, with more than one move of the best outcome."""
    rng = random.Random(seed)
    while True:
        state = late_position(rng.randrange(10**6), 9, size)
        exact = exact_scores(state)
        best = max(exact.values())
        if best <= 0 and sum(sign(v) == sign(best) for v in exact.values()) > 1:
            return state


def sign(value: float) -> int:
    return (value > 0) - (value < 0)


def played_out(state: AnyState, us: int, spec: str, seed: int) -> float:
    """``us``'s points when ``state`` is played to the end: us by the oracle (the first
    move of the best disc difference), the other side by a fresh ``spec`` brain."""
    while not state.is_terminal():
        if state.to_move == us:
            exact = exact_scores(state)
            top = max(exact.values())
            state = state.play(next(m for m in state.legal_moves() if exact[m] == top))
        else:
            state = state.play(make_brain(spec, "reversi", seed=seed).choose(state))
    outcome = state.outcome()
    assert outcome is not None
    return (outcome.value_for(us) + 1) / 2


@pytest.mark.parametrize("size", [8, 6])
def test_the_teacher_picks_the_move_its_fallible_models_lose_most_from(size: int) -> None:
    """Among the moves of the best outcome (a loss by more discs included), the one whose
    play-outs against the models of TEACHER_MODELS score best, then the best disc
    difference, then the teaching key: each play-out redone here with the oracle."""
    hook = exact_solver("reversi")
    assert hook is not None
    heuristic = get_heuristic("reversi")
    models = teacher_models("reversi")
    assert models
    for seed in range(2):
        state = teachable(seed, size)
        exact = exact_scores(state)
        best = max(exact.values())
        candidates = [m for m, v in exact.items() if sign(v) == sign(best)]
        keys = {}
        for move in candidates:
            child = state.play(move)
            points = sum(played_out(child, state.to_move, spec, seed) for spec in models)
            if child.is_terminal() or child.to_move == state.to_move:
                key = (0.0, 0.0)
            else:
                values = hook.values(child, Budget().start(), {})
                assert values is not None
                key = teaching_key(child, {r: v.outcome for r, v in values.items()}, heuristic)
            keys[move] = (round(points / len(models), 9), exact[move], *key)
        brain = make_brain("perfect,teacher=true", "reversi", seed=seed)
        thought = list(brain.think(state, Budget().start()))[-1]
        assert thought.final and thought.move in candidates, str(state)
        assert keys[thought.move] == max(keys.values()), str(state)
        assert thought.note.startswith("teacher:")
