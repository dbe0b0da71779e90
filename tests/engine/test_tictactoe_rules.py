"""Tic-tac-toe rules, one test per clause of docs/RULES.md (Tic-tac-toe)."""

from __future__ import annotations

import pytest

from engine import IllegalMoveError, InvalidMoveError, Result, new_game
from engine.games.tictactoe import CELLS


def play(line: str):
    return new_game("tictactoe").play_line(line)


def test_tictactoe_x_moves_first():
    state = new_game("tictactoe")
    assert state.to_move == 0 and state.PLAYERS[state.to_move] == "X"
    assert play("b2").to_move == 1


def test_tictactoe_three_in_a_row_wins():
    assert play("a1 a2 b1 b2 c1").outcome().result is Result.FIRST_WINS


def test_tictactoe_three_in_a_column_wins():
    assert play("a1 b1 a2 b2 c3 b3").outcome().result is Result.SECOND_WINS


def test_tictactoe_three_on_a_diagonal_wins():
    out = play("a1 a2 b2 a3 c3").outcome()
    assert out.result is Result.FIRST_WINS and out.termination == "three in a row"
    assert play("c1 a1 b2 a2 a3").outcome().result is Result.FIRST_WINS


def test_tictactoe_full_board_without_line_draws():
    state = play("b2 a1 c3 c1 b1 b3 a3 a2 c2")
    assert state.outcome().result is Result.DRAW
    assert state.legal_moves() == ()


def test_tictactoe_game_over_has_no_moves_and_refuses_play():
    state = play("a1 a2 b1 b2 c1")
    assert state.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.parse_move("c3")


def test_tictactoe_cells_a1_to_c3_files_left_to_right_ranks_bottom_to_top():
    assert CELLS[0] == "a1" and CELLS[2] == "c1" and CELLS[8] == "c3"
    board = str(play("a1 c3"))
    assert board.splitlines()[0] == "3 . . O" and board.splitlines()[2] == "1 X . ."


def test_tictactoe_occupied_cell_is_illegal_and_bad_text_invalid():
    with pytest.raises(IllegalMoveError, match="'b2'"):
        play("b2 b2")
    with pytest.raises(InvalidMoveError, match="'d4'"):
        play("d4")


def test_tictactoe_encode_is_from_side_to_move_view():
    one = play("a1")
    two = play("a1 c3")
    assert one.encode()[9] == 1.0  # O to move: X's a1 is the opponent's
    assert two.encode()[0] == 1.0 and two.encode()[9 + 8] == 1.0
