"""English checkers rules (docs/RULES.md, English checkers): one test per clause, plus
notation and a comparison with the independent reference generator on seeded random
playouts.

Board diagram used to build the positions below (Black at the top):

    row 1   .  1  .  2  .  3  .  4        files b d f h
    row 2   5  .  6  .  7  .  8  .        files a c e g
    row 3   .  9  . 10  . 11  . 12
    row 4  13  . 14  . 15  . 16  .
    row 5   . 17  . 18  . 19  . 20
    row 6  21  . 22  . 23  . 24  .
    row 7   . 25  . 26  . 27  . 28
    row 8  29  . 30  . 31  . 32  .
"""

from __future__ import annotations

import random

import pytest

from engine import IllegalMoveError, InvalidMoveError, Result, new_game
from engine.games.checkers import CheckersState, Piece
from tests.engine.checkers_reference import RefGame, square_coords


def moves_of(state: CheckersState) -> set[str]:
    """The legal moves in notation."""
    return {state.format_move(m) for m in state.legal_moves()}


# --------------------------------------------------------------------------- board


def test_checkers_board_numbering_black_men_on_1_to_12_white_on_21_to_32():
    state = new_game("checkers")
    assert {s for s in range(1, 33) if state.piece_at(s) is Piece.BLACK_MAN} == set(range(1, 13))
    assert {s for s in range(1, 33) if state.piece_at(s) is Piece.WHITE_MAN} == set(range(21, 33))
    lines = str(state).splitlines()
    assert lines[0].split() == list("abcdefgh")
    # row 1 holds squares 1-4 on files b d f h; row 2 holds 5-8 on files a c e g
    assert lines[1].startswith("1    b   b   b   b") and lines[1].endswith("1-4")
    assert lines[2].startswith("2  b   b   b   b") and lines[2].endswith("5-8")


def test_checkers_black_moves_first():
    state = new_game("checkers")
    assert state.to_move == 0 and state.PLAYERS[0] == "Black"
    assert moves_of(state) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}


# --------------------------------------------------------------------------- men


def test_checkers_men_move_one_square_diagonally_forward():
    black = CheckersState.setup(black=[15])
    assert moves_of(black) == {"15-18", "15-19"}
    white = CheckersState.setup(white=[18], to_move=1)
    assert moves_of(white) == {"18-14", "18-15"}


def test_checkers_men_move_only_to_empty_squares():
    state = CheckersState.setup(black=[15], white=[18, 22])  # 18 blocked; 22 guards the jump
    assert moves_of(state) == {"15-19"}


# --------------------------------------------------------------------------- captures


def test_checkers_capturing_is_compulsory():
    state = new_game("checkers").play_line("11-15 22-18")
    assert moves_of(state) == {"15x22"}
    with pytest.raises(IllegalMoveError, match="compulsory"):
        state.parse_move("9-13")


def test_checkers_capture_jumps_over_adjacent_opponent_to_empty_square_and_removes_it():
    state = CheckersState.setup(black=[9], white=[14, 21])
    assert moves_of(state) == {"9x18"}
    after = state.play_text("9x18")
    assert after.piece_at(14) is None and after.piece_at(9) is None
    assert after.piece_at(18) is Piece.BLACK_MAN
    blocked = CheckersState.setup(black=[9], white=[14, 18])  # landing square occupied
    assert moves_of(blocked) == {"9-13"}


def test_checkers_any_capture_sequence_may_be_chosen_not_necessarily_the_longest():
    state = CheckersState.setup(black=[9, 4], white=[14, 22, 8])
    assert moves_of(state) == {"9x18x25", "4x11"}


def test_checkers_piece_that_can_jump_again_must_continue():
    state = CheckersState.setup(black=[9], white=[14, 22])
    assert moves_of(state) == {"9x18x25"}
    with pytest.raises(IllegalMoveError):
        state.parse_move("9x18")
    after = state.play_text("9x18x25")
    assert after.white == 0 and after.outcome().result is Result.FIRST_WINS


def test_checkers_multi_jump_branches_are_separate_moves():
    # from 18 the man may go on over 22 or over 23
    state = CheckersState.setup(black=[9], white=[14, 22, 23])
    assert moves_of(state) == {"9x18x25", "9x18x27"}


# --------------------------------------------------------------------------- crowning


def test_checkers_man_reaching_far_row_is_crowned_king():
    black = CheckersState.setup(black=[25]).play_text("25-29")
    assert black.piece_at(29) is Piece.BLACK_KING
    white = CheckersState.setup(white=[5], to_move=1).play_text("5-1")
    assert white.piece_at(1) is Piece.WHITE_KING


def test_checkers_crowning_ends_the_move_even_if_a_king_could_jump_on():
    # 22x31 crowns; a king on 31 could jump 27 to 24, but the move ends
    state = CheckersState.setup(black=[22], white=[26, 27])
    assert moves_of(state) == {"22x31"}
    after = state.play_text("22x31")
    assert after.piece_at(31) is Piece.BLACK_KING and after.piece_at(27) is Piece.WHITE_MAN
    assert after.to_move == 1


# --------------------------------------------------------------------------- kings


def test_checkers_kings_move_one_square_forwards_and_backwards():
    assert moves_of(CheckersState.setup(black_kings=[15])) == {"15-10", "15-11", "15-18", "15-19"}
    assert moves_of(CheckersState.setup(white_kings=[15], to_move=1)) == {
        "15-10", "15-11", "15-18", "15-19"}


def test_checkers_kings_capture_backwards_and_continue_in_any_direction():
    # Black king on 18 jumps 14 backwards to 9, then 6 to 2 ... or forwards over 22
    state = CheckersState.setup(black_kings=[18], white=[14, 6, 22])
    assert moves_of(state) == {"18x9x2", "18x25"}


def test_checkers_man_cannot_capture_backwards():
    state = CheckersState.setup(black=[18], white=[14])
    assert moves_of(state) == {"18-22", "18-23"}


# --------------------------------------------------------------------------- game end


def test_checkers_player_with_no_pieces_loses():
    after = CheckersState.setup(black=[9], white=[14]).play_text("9x18")
    assert after.legal_moves() == ()
    assert after.outcome().result is Result.FIRST_WINS
    assert after.outcome().termination == "no legal moves"


def test_checkers_player_with_all_pieces_blocked_loses():
    state = CheckersState.setup(black=[25], white=[29, 30])
    assert state.legal_moves() == ()
    outcome = state.outcome()
    assert outcome.result is Result.SECOND_WINS and outcome.termination == "no legal moves"
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.parse_move("25-29")


def test_checkers_draw_by_threefold_repetition_same_side_to_move():
    state = CheckersState.setup(black_kings=[1], white_kings=[32])
    shuffle = "1-5 32-28 5-1 28-32"
    once = state.play_line(shuffle)
    assert once.key() == state.key() and once.outcome() is None
    almost = once.play_line(shuffle.split()[:-1])
    assert almost.outcome() is None
    third = almost.play_text("28-32")
    assert third.legal_moves() == ()
    assert third.outcome().result is Result.DRAW
    assert third.outcome().termination == "threefold repetition"


def test_checkers_repetition_needs_the_same_side_to_move():
    board = dict(black_kings=[1], white_kings=[32])
    assert (CheckersState.setup(**board, to_move=0).key()
            != CheckersState.setup(**board, to_move=1).key())


def _quiet_line(state: CheckersState, plies: int) -> CheckersState:
    """Play ``plies`` king moves that repeat no position and allow no capture."""
    seen = {state.key()}
    for _ in range(plies):
        for move in state.legal_moves():
            child = state.play(move)
            if child.key() not in seen and not child.attacked(state.to_move):
                break
        else:
            raise AssertionError("no quiet fresh move")
        seen.add(child.key())
        state = child
    return state


def test_checkers_draw_after_80_plies_without_capture_or_man_move():
    start = CheckersState.setup(black_kings=[1, 3], white_kings=[30, 32])
    before = _quiet_line(start, 79)
    assert before.quiet == 79 and before.outcome() is None
    after = _quiet_line(before, 1)
    assert after.quiet == 80 and after.legal_moves() == ()
    assert after.outcome().result is Result.DRAW
    assert after.outcome().termination == "40-move rule"


def test_checkers_man_move_resets_the_40_move_count():
    start = CheckersState.setup(black=[5], black_kings=[3], white_kings=[30, 32])
    quiet = _quiet_line(start, 2)
    assert quiet.quiet == 2 and len(quiet.history) == 2
    # the man on 5 is moved by Black when it is Black's turn
    man_move = next(m for m in quiet.legal_moves() if m[0] == 5)
    after = quiet.play(man_move)
    assert after.quiet == 0 and after.history == ()


def test_checkers_capture_resets_the_40_move_count():
    start = CheckersState.setup(black_kings=[1], white_kings=[32], white=[9])
    quiet = start.play_line("1-5 32-28")
    assert quiet.quiet == 2 and moves_of(quiet) == {"5x14"}
    take = quiet.play_text("5x14")
    assert take.quiet == 0 and take.history == ()


# --------------------------------------------------------------------------- protocol


def test_checkers_key_excludes_counters_and_history():
    state = CheckersState.setup(black_kings=[1], white_kings=[32])
    back = state.play_line("1-5 32-28 5-1 28-32")
    assert back.key() == state.key() and back.ply == 4 and back.quiet == 4
    assert hash(back.key()) == hash(state.key())


def test_checkers_play_leaves_the_parent_unchanged():
    state = new_game("checkers").play_line("11-15 22-18")
    text, key = str(state), state.key()
    state.play_text("15x22")
    assert str(state) == text and state.key() == key


def test_checkers_encode_is_from_the_side_to_move_view():
    black_view = CheckersState.setup(black=[9, 10], white_kings=[30], to_move=0)
    white_view = CheckersState.setup(white=[33 - 9, 33 - 10], black_kings=[33 - 30], to_move=1)
    a, b = black_view.encode(), white_view.encode()
    assert a.dtype.name == "float32" and a.shape == (129,)
    assert (a == b).all() and a.sum() == 3


# --------------------------------------------------------------------------- notation


def test_checkers_notation_simple_move_and_captures():
    state = new_game("checkers")
    assert state.format_move((11, 15)) == "11-15"
    assert state.format_move((15, 24)) == "15x24"
    assert state.format_move((15, 24, 31)) == "15x24x31"
    assert state.parse_move(" 11-15 ") == (11, 15)
    assert CheckersState.setup(black=[9], white=[14, 22]).parse_move("9X18X25") == (9, 18, 25)


@pytest.mark.parametrize("text", ["", "e3-f4", "11", "11-", "11--15", "11-15x19", "0-4",
                                  "33-29", "11 15", "11-15-19"])
def test_checkers_invalid_text_raises_invalid_move_error_naming_it(text):
    with pytest.raises(InvalidMoveError) as err:
        new_game("checkers").parse_move(text)
    assert repr(text.strip()) in str(err.value)


@pytest.mark.parametrize("text", ["11-14", "11x18", "21-17", "15-19"])
def test_checkers_illegal_move_raises_illegal_move_error_naming_it(text):
    with pytest.raises(IllegalMoveError) as err:
        new_game("checkers").parse_move(text)
    assert repr(text) in str(err.value)


def test_checkers_play_rejects_an_illegal_move():
    with pytest.raises(IllegalMoveError, match="11-14"):
        new_game("checkers").play((11, 14))


def test_checkers_setup_rejects_bad_positions():
    with pytest.raises(ValueError):
        CheckersState.setup(black=[0])
    with pytest.raises(ValueError):
        CheckersState.setup(black=[5], white=[5])
    with pytest.raises(ValueError):
        CheckersState.setup(black=[30])  # a Black man on its crowning row


# --------------------------------------------------------------------------- reference


def _reference_of(state: CheckersState) -> RefGame:
    """The reference game with the same pieces and side to move (fresh history)."""
    game = RefGame.start()
    game.board = [["."] * 8 for _ in range(8)]
    for square in range(1, 33):
        piece = state.piece_at(square)
        if piece is not None:
            row, col = square_coords(square)
            game.board[row][col] = piece.value
    game.to_move = state.to_move
    return game


def _compare_playout(state: CheckersState, rng: random.Random, quiet_bias: bool) -> str:
    """Play a random game, checking the engine against the reference at every ply."""
    ref = _reference_of(state)
    seen = set()
    while True:
        moves = state.legal_moves()
        assert sorted(moves) == sorted(ref.legal_moves()), str(state)
        outcome = state.outcome()
        assert (outcome.termination if outcome else None) == ref.result(), str(state)
        for move in moves:
            assert state.parse_move(state.format_move(move)) == move
        if not moves:
            return outcome.termination
        choices = moves
        if quiet_bias:  # avoid repetitions and captures to reach the 40-move rule
            seen.add(state.key())
            choices = [m for m in moves if state.play(m).key() not in seen
                       and not state.play(m).attacked(state.to_move)] or moves
        move = rng.choice(choices)
        state, ref = state.play(move), ref.play(move)


def test_checkers_matches_reference_generator_on_random_games_from_the_start():
    endings = {_compare_playout(new_game("checkers"), random.Random(seed), False)
               for seed in range(40)}
    assert "no legal moves" in endings and "threefold repetition" in endings


def test_checkers_matches_reference_generator_on_random_king_endings():
    endings = set()
    for seed in range(12):
        rng = random.Random(seed)
        sq = rng.sample(range(5, 29), 6)
        start = CheckersState.setup(black_kings=sq[:2], white_kings=sq[2:4],
                                    black=sq[4:5], white=sq[5:], to_move=seed % 2)
        endings.add(_compare_playout(start, rng, True))
    assert "40-move rule" in endings
