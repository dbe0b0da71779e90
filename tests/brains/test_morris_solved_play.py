"""The Morris database at work: `perfect`, `parlor solve morris` and the analysis."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from brains.analysis import analyse_game
from brains.heuristics.morris import morris_score
from brains.morrisdb import shared
from brains.registry import make_brain
from engine.formats import load_records
from engine.registry import new_game
from tui.player.paths import examples_dir


def positions(seed: int, count: int = 6) -> list:
    rng, state, out = random.Random(seed), new_game("morris"), []
    while len(out) < count and state.outcome() is None:
        state = state.play(rng.choice(state.legal_moves()))
        if rng.random() < 0.3:
            out.append(state)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_perfect_plays_a_best_move_of_the_database(seed: int) -> None:
    db = shared()
    brain = make_brain("perfect", "morris", seed=seed)
    for state in positions(seed):
        if state.outcome() is not None:
            continue
        move = brain.choose(state)  # a teacher here: a move of the best value (test_teacher)
        values = db.move_values(state)
        assert values[move].rank == max(v.rank for v in values.values())
        scores = brain.analyse(state)
        assert set(scores) == set(values)
        for m, v in values.items():  # the score's sign is the database's outcome
            assert (scores[m] > 0) - (scores[m] < 0) == {"win": 1, "draw": 0, "loss": -1}[v.result]
            assert scores[m] == morris_score(v)


def test_solve_morris_prints_each_positions_value_and_its_moves() -> None:
    out = subprocess.run([sys.executable, "-m", "tui.cli", "solve", "morris", "", "b2 a1 zz"],
                         capture_output=True, text=True, timeout=120)
    lines = out.stdout.splitlines()
    assert out.returncode == 1 and len(lines) == 2  # the bad position fails, one line
    assert lines[0].startswith("start: draw; ") and lines[0].count(" draw") == 17
    assert lines[1].startswith("b2 a1 zz error: invalid morris move 'zz'")


def test_the_analysis_marks_a_morris_blunder_exactly() -> None:
    record = load_records(examples_dir() / "morris-alphabeta-vs-greedy.pgn")[0]
    result = analyse_game(record, seconds=0.2)
    assert result.complete and all(m.kind == "exact" for m in result.moves)
    blunders = [m for m in result.moves if m.mark == "??"]
    assert blunders and all(m.change == "draw->loss" for m in blunders)
    db = shared()
    states = record.states()
    for m in blunders:  # the database agrees: the move played loses, the best one draws
        before = states[m.index]
        values = db.move_values(before)
        played = before.parse_move(m.move)
        assert values[played].result == "loss" and m.best is not None
        assert values[before.parse_move(m.best)].result == "draw"
