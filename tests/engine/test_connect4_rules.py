"""Connect Four rules, one test per clause of docs/RULES.md (Connect Four), plus
notation and errors.

Positions are built by playing game strings (``"4453"``: one column digit per move).
The engine is also compared with the naive reference generator in
``connect4_reference.py`` along seeded random games.
"""

from __future__ import annotations

import random

import pytest

from engine import IllegalMoveError, InvalidMoveError, Result, new_game
from engine.games.connect4 import ConnectFourState
from tests.engine.connect4_reference import RefBoard, from_moves, ref_perft

DRAWN_GAME = "656173566152215676422337377473141445425321"
"""A 42-move game that fills the board without four in a row (found by a seeded search)."""


def game(moves: str = "") -> ConnectFourState:
    """The position after the game string ``moves``."""
    state = new_game("connect4")
    assert isinstance(state, ConnectFourState)
    return state.play_line(moves)


# -- "7 columns × 6 rows, vertical, gravity" -------------------------------------------


def test_connect4_board_has_seven_columns_of_six_rows():
    start = game()
    assert start.legal_moves() == (0, 1, 2, 3, 4, 5, 6)
    state = game("4" * 6)
    assert 3 not in state.legal_moves()
    assert [state.height(c) for c in range(7)] == [0, 0, 0, 6, 0, 0, 0]
    assert all(state.cell(3, row) is not None for row in range(6))


def test_connect4_gravity_disc_falls_to_lowest_empty_cell():
    state = game("4")
    assert state.cell(3, 0) == 0 and state.cell(3, 1) is None
    state = state.play(3)
    assert state.cell(3, 1) == 1
    state = state.play(0)
    assert state.cell(0, 0) == 0 and state.cell(0, 5) is None


# -- "Players alternate dropping a disc into a non-full column" ------------------------


def test_connect4_players_alternate():
    state = game()
    seen = []
    for col in (3, 3, 2, 4, 0):
        seen.append(state.to_move)
        state = state.play(col)
    assert seen == [0, 1, 0, 1, 0]
    assert state.ply == 5 and state.to_move == 1


def test_connect4_full_column_is_illegal():
    state = game("1" * 6)
    assert 0 not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="column 1 is full"):
        state.parse_move("1")
    with pytest.raises(IllegalMoveError):
        state.play(0)


# -- "four in a row horizontally, vertically or diagonally wins" -----------------------


@pytest.mark.parametrize(("moves", "winner"), [
    ("1213141", 0),          # Red: column 1, vertical
    ("21217171", 1),         # Yellow: column 1, vertical
    ("1122334", 0),          # Red: row 1, columns 1-4
    ("71122334", 1),         # Yellow: row 1, columns 1-4
])
def test_connect4_four_in_a_row_vertical_or_horizontal_wins(moves, winner):
    before = game(moves[:-1])
    assert before.outcome() is None and before.legal_moves()
    state = before.play_text(moves[-1])
    assert state.outcome() is not None
    assert state.outcome().result == Result.win_for(winner)
    assert state.outcome().termination == "four in a row"
    assert state.legal_moves() == ()


RISING = "12234334544"
"""Red ends with a1 b2 c3 d4: columns 1-4 on rows 1-4 (the last move, d4, wins)."""


def test_connect4_diagonal_rising_wins():
    state = game(RISING[:-1])
    assert state.outcome() is None
    won = state.play_text(RISING[-1])
    assert [won.cell(c, c) for c in range(4)] == [0, 0, 0, 0]
    assert won.outcome().result == Result.FIRST_WINS
    assert won.outcome().termination == "four in a row"


def test_connect4_diagonal_falling_wins():
    mirrored = "".join(str(8 - int(ch)) for ch in RISING)
    state = game(mirrored[:-1])
    assert state.outcome() is None
    won = state.play_text(mirrored[-1])
    assert [won.cell(6 - c, c) for c in range(4)] == [0, 0, 0, 0]
    assert won.outcome().result == Result.FIRST_WINS


def test_connect4_three_in_a_row_does_not_win():
    state = game("112233")
    assert state.outcome() is None
    assert len(state.legal_moves()) == 7


def test_connect4_no_moves_after_a_win():
    state = game("1213141")
    assert state.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.play(4)
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.parse_move("5")


# -- "a full board draws" --------------------------------------------------------------


def test_connect4_full_board_draws():
    state = game(DRAWN_GAME[:-1])
    assert state.outcome() is None and state.legal_moves() == (0,)
    state = state.play(0)
    assert state.ply == 42
    assert state.outcome().result == Result.DRAW
    assert state.outcome().termination == "board full"
    assert state.legal_moves() == ()
    assert from_moves(DRAWN_GAME).winner() is None


# -- "First player is Red ("X"), second Yellow ("O")" ---------------------------------


def test_connect4_red_x_moves_first_yellow_o_second():
    state = game()
    assert state.PLAYERS == ("Red", "Yellow")
    assert state.to_move == 0
    text = str(game("43"))
    assert text.splitlines()[-2] == ". . O X . . ."
    assert text.splitlines()[-1] == "1 2 3 4 5 6 7"


# -- "Notation: the column 1-7, left to right; a game is the string of its columns" ---


def test_connect4_notation_columns_1_to_7_left_to_right():
    state = game()
    assert [state.format_move(m) for m in state.legal_moves()] == list("1234567")
    assert state.play_text("1").cell(0, 0) == 0
    assert state.play_text("7").cell(6, 0) == 0


def test_connect4_notation_round_trip_every_legal_move():
    rng = random.Random(7)
    state = game()
    while state.legal_moves():
        for move in state.legal_moves():
            assert state.parse_move(state.format_move(move)) == move
        state = state.play(rng.choice(state.legal_moves()))


def test_connect4_game_string_replays():
    assert game("4453").key() == game().play_line("4 4 5 3").key()


@pytest.mark.parametrize("text", ["0", "8", "a", "", "44", "-1", "d4"])
def test_connect4_invalid_text_raises_invalid_move_naming_input(text):
    with pytest.raises(InvalidMoveError, match=repr(text)):
        game().parse_move(text)


@pytest.mark.parametrize("move", [7, -1, 99])
def test_connect4_play_rejects_unknown_columns(move):
    with pytest.raises(IllegalMoveError, match=str(move)):
        game().play(move)


# -- protocol details --------------------------------------------------------------------


def test_connect4_play_leaves_parent_unchanged():
    parent = game("4453")
    key, text = parent.key(), str(parent)
    parent.play(3)
    parent.play(0)
    assert parent.key() == key and str(parent) == text


def test_connect4_key_is_position_and_side_to_move():
    assert game("4453").key() == game("4354").key()  # transposition
    assert game("4453").key() != game("5443").key()  # same cells, d1 and d2 swapped
    assert game("44").key() != game("4").key()


def test_connect4_encode_side_to_move_view():
    import numpy as np

    red_view = game("4").play(3)  # Red to move again
    yellow_view = game("4")  # Yellow to move
    a, b = red_view.encode(), yellow_view.encode()
    assert a.dtype == np.float32 and a.shape == (85,)
    assert a[3] == 1.0 and a[42 + 7 + 3] == 1.0 and a[-1] == 0.0  # own d1, opponent d2
    assert b[42 + 3] == 1.0 and b[:42].sum() == 0.0 and b[-1] == 1.0


def test_connect4_options_are_empty():
    assert game().options == {}


# -- the engine against the naive reference --------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_connect4_legal_moves_match_reference_on_random_games(seed):
    rng = random.Random(seed)
    state, ref = game(), RefBoard()
    while True:
        assert list(state.legal_moves()) == ref.legal_columns()
        assert ref.rows_text() == [row.replace(" ", "") for row in str(state).splitlines()[:-1]]
        winner = ref.winner()
        outcome = state.outcome()
        if not state.legal_moves():
            assert outcome is not None
            assert outcome.winner == (None if winner is None else "XO".index(winner))
            break
        assert outcome is None
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        ref.drop(move)


@pytest.mark.parametrize("moves", ["", "4453", "1212121", DRAWN_GAME[:36]])
def test_connect4_perft_matches_reference(moves):
    from engine.perft import perft

    depth = 4
    assert perft(game(moves), depth) == [ref_perft(from_moves(moves), d)
                                         for d in range(1, depth + 1)]


def test_connect4_key_unique_over_random_positions():
    rng = random.Random(3)
    by_key: dict[int, tuple[int, int]] = {}
    for _ in range(200):
        state = game()
        while state.legal_moves():
            cells = (state.discs(0), state.discs(1))
            assert by_key.setdefault(state.key(), cells) == cells
            state = state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("move", ["4", None, (3,)])
def test_connect4_play_rejects_non_int_moves(move):
    with pytest.raises(IllegalMoveError, match="column indices 0-6"):
        game().play(move)
