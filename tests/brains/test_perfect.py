"""Perfect play: never loses tic-tac-toe, and wins solved Connect Four positions."""

from __future__ import annotations

import random

import pytest

from brains import Budget, make_brain
from brains.c4solver import Position, Solver
from brains.heuristics.connect4 import solver_position
from brains.minimax import PROVEN
from engine import new_game

WINNING = ["7422341735647741166133573473242566", "67152117737262713366376314254",
           "2762751722231276466633475674533"]
"""Connect Four positions that the side to move wins (Pons' Test_L3_R1 set)."""


@pytest.mark.parametrize("perfect_side", [0, 1])
def test_never_loses_tictactoe_against_random(perfect_side: int) -> None:
    rng = random.Random(perfect_side)
    perfect = make_brain("perfect", "tictactoe", seed=1)
    wins = 0
    for _ in range(20):
        state = new_game("tictactoe")
        while state.legal_moves():
            if state.to_move == perfect_side:
                state = state.play(perfect.choose(state))
            else:
                state = state.play(rng.choice(state.legal_moves()))
        outcome = state.outcome()
        assert outcome is not None and outcome.winner != 1 - perfect_side, str(state)
        wins += outcome.winner == perfect_side
    assert wins >= 10  # random play blunders; perfect play punishes it


def test_tictactoe_start_is_a_draw_and_seeds_repeat() -> None:
    start = new_game("tictactoe")
    scores = make_brain("perfect", "tictactoe").analyse(start)
    assert max(scores.values()) == 0.0 and len(scores) == 9
    assert make_brain("perfect", "tictactoe", seed=3).choose(start) == \
        make_brain("perfect", "tictactoe", seed=3).choose(start)


def test_connect4_first_move_is_the_centre() -> None:
    thought = next(make_brain("perfect", "connect4").think(new_game("connect4"), Budget().start()))
    assert thought.move == new_game("connect4").parse_move("4") and thought.score > PROVEN


@pytest.mark.parametrize("line", WINNING)
def test_connect4_plays_a_winning_move(line: str) -> None:
    state = new_game("connect4").play_line(list(line))
    assert solver_position(state) == Position.from_moves(line)
    brain = make_brain("perfect", "connect4", seed=0)
    thought = list(brain.think(state, Budget().start()))[-1]
    assert thought.final and not thought.note and thought.score > PROVEN
    after = Position.from_moves(line + state.format_move(thought.move))
    assert Solver().solve(after) < 0  # the opponent is lost after our move


def test_refuses_other_games() -> None:
    with pytest.raises(ValueError, match="perfect play is not available for checkers"):
        make_brain("perfect", "checkers")


def test_connect4_without_a_deadline_never_falls_back() -> None:
    from tests.brains.c4_oracle import OracleSolver
    from tests.brains.test_c4solver import random_games

    brain = make_brain("perfect", "connect4", seed=0)
    for moves in random_games(seed=21, stones=12, count=3) + random_games(22, 24, 3):
        state = new_game("connect4").play_line(list(moves))
        thoughts = list(brain.think(state, Budget().start()))
        assert len(thoughts) == 1 and thoughts[0].final and not thoughts[0].note, moves
        played = state.format_move(thoughts[0].move)
        position = Position.from_moves(moves)
        oracle = OracleSolver() if len(moves) >= 20 else Solver(book=False)
        scores = oracle.analyse(position)
        assert scores[int(played) - 1] == max(s for s in scores if s is not None), moves
    assert brain.last_note == ""
