"""Gomoku's open/closed-runs features and heuristic, and the generic brains playing it."""

from __future__ import annotations

import pytest

from brains import Budget, make_brain
from brains.heuristics import get_heuristic, list_heuristics
from brains.heuristics.gomoku import FEATURE_NAMES, features, run_value
from engine.registry import new_game


def play(line: str, size: int = 9):
    return new_game("gomoku", size=size).play_line(line)


def named(state) -> dict[str, int]:
    return {k: v for k, v in zip(FEATURE_NAMES, features(state), strict=True) if v}


def test_open_and_closed_runs_are_counted_from_the_side_to_move_view():
    # Black e5 f5 g5 (open three), White a1 a2 (a two closed by the board's edge)
    state = play("e5 a1 f5 a2 g5")
    assert named(state) == {"own_closed2": 1, "opp_open3": 1}
    # the same three with White on d5 is closed
    assert named(play("e5 d5 f5 a1 g5")) == {"opp_closed3": 1}
    # blocked at both ends, a run can never make five and is not counted
    assert named(play("e5 d5 f5 h5 g5")) == {}


def test_runs_do_not_join_across_the_board_edge():
    state = play("h5 a1 i5 a3 a6 c1 b6")  # h5 i5 | a6 b6: two separate twos
    assert named(state)["opp_closed2"] == 2 and "opp_open4" not in named(state)


def test_heuristic_reads_fours_and_open_threes():
    assert get_heuristic("gomoku") is run_value and list_heuristics("gomoku") == ["runs"]
    assert run_value(play("e5 a1 f5 a2 g5 a3 h5 a9")) == 0.95  # Black to move has four
    assert run_value(play("e5 a1 f5 a2 g5 a3 h5")) == -0.9  # White faces an open four
    assert run_value(play("e5 a1 f5 a9 g5 i9")) == 0.6  # Black's open three, White no four
    quiet = run_value(play("e5 a1"))
    assert -0.5 < quiet < 0.5
    won = play("a1 a9 b1 b9 c1 c9 d1 d9 e1")
    assert run_value(won) == -1.0  # White to move, Black has five


@pytest.mark.parametrize("spec", ["greedy", "minimax:easy", "alphabeta:easy",
                                  "alphabeta:medium", "mcts:easy,rollout=heuristic"])
def test_every_search_brain_takes_a_win(spec):
    win = play("e5 a1 f5 a2 g5 a3 h5 b9")  # Black to move: d5 or i5 makes five
    brain = make_brain(spec, "gomoku", seed=1)
    assert win.play(brain.choose(win, Budget(seconds=5))).outcome() is not None


@pytest.mark.parametrize("spec", ["greedy", "minimax:easy", "alphabeta:easy", "alphabeta:medium"])
def test_the_heuristic_searches_block_a_four(spec):
    # (MCTS at easy and medium levels spreads too few simulations over 73 moves to see it)
    threat = play("d5 e5 a9 f5 c9 g5 a1 h5")  # White's e5-h5 is closed at d5: i5 must go
    move = make_brain(spec, "gomoku", seed=1).choose(threat, Budget(seconds=5))
    assert threat.format_move(move) == "i5"


def test_brains_play_the_15x15_board():
    state = new_game("gomoku", size=15).play_line("h8 h9")
    move = make_brain("alphabeta:easy", "gomoku", seed=1).choose(state, Budget(seconds=5))
    assert move in state.legal_moves()
