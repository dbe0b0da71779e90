"""The Reversi endgame solver at work: alpha-beta's hard level and the analysis use it."""

from __future__ import annotations

import random

import pytest

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


def ffo_state(number: int) -> tuple[State, int, tuple[str, ...]]:
    """An FFO problem of tests/data/ffo: its state, published score and best moves."""
    from benchmarks.reversi_ffo import load
    from engine.positions import parse_position

    problem = next(p for p in load() if p.number == number)
    return parse_position("reversi", problem.position), problem.score, problem.best


def test_the_ffo_file_reads_as_ten_positions_with_their_published_scores() -> None:
    from benchmarks.reversi_ffo import load

    problems = load()
    assert [p.number for p in problems] == list(range(40, 50))
    for p in problems:
        state, _, best = ffo_state(p.number)
        assert 20 <= reversi_endgame.empties_of(state) <= 26
        for move in best:
            assert state.parse_move(move) in state.legal_moves()


def test_ffo_40_after_its_best_move_and_along_the_solvers_line() -> None:
    """FFO #40 (+38 for Black by a2; the full position is the slow test's): after a2,
    White to move is lost by 38, and so is every position along the solver's best line."""
    state, score, best = ffo_state(40)
    later = state.play(state.parse_move(best[0]))
    for _ in range(3):
        result = reversi_endgame.solve(later, empties_to_winner=True)
        assert result.exact and result.score is not None and result.best_move is not None
        assert (result.score if later.to_move == 0 else -result.score) == score
        later = later.play(result.best_move)


@pytest.mark.slow
@pytest.mark.parametrize("number", range(40, 50))
def test_ffo_40_to_49_scores_and_best_moves_as_published(number: int) -> None:
    state, score, best = ffo_state(number)
    result = reversi_endgame.solve(state, empties_to_winner=True)
    assert result.exact and result.score == score
    assert result.best_move is not None and state.format_move(result.best_move) in best


def test_solve_reversi_prints_the_score_the_best_move_and_every_moves_value() -> None:
    import subprocess
    import sys

    state, _ = late_position(5, 8)
    position = state.to_position()
    out = subprocess.run([sys.executable, "-m", "tui.cli", "solve", "reversi", position,
                          "8/8/8 x", "3x/4/4/4 q"], capture_output=True, text=True,
                         timeout=300)
    lines = out.stdout.splitlines()
    assert out.returncode == 1 and len(lines) == 3, out.stdout + out.stderr
    head, best, listed = lines[0].split("; ")
    label, score = head.rsplit(": ", 1)
    assert label == position
    expected = reversi_endgame.solve(state, empties_to_winner=True)
    assert int(score) == expected.score
    values = dict(item.split(" ") for item in listed.split(", "))
    assert set(values) == {state.format_move(m) for m in state.legal_moves()}
    for move, value in values.items():
        child = state.play(state.parse_move(move))
        got = reversi_endgame.solve(child, empties_to_winner=True).score
        assert got is not None
        assert int(value) == (got if child.to_move == state.to_move else -got)
    assert int(values[best.removeprefix("best ")]) == expected.score == max(
        int(v) for v in values.values())
    assert lines[1].startswith("8/8/8 x error: reversi:")
    assert lines[2].startswith("3x/4/4/4 q error: reversi:")
