"""Gomoku rules (freestyle: five or more in a row wins), one test per clause, and the
engine checked against the naive reference generator in gomoku_reference.py."""

from __future__ import annotations

import random

import pytest

from engine import IllegalMoveError, InvalidMoveError, OptionError, Result, new_game
from engine.perft import perft
from engine.perftdata import read_perft_file
from tests.conftest import DATA
from tests.engine.gomoku_reference import RefBoard, from_moves, name, ref_perft

PERFT_CASES = read_perft_file(DATA / "perft" / "gomoku.perft")


def play(line: str, size: int = 9):
    return new_game("gomoku", size=size).play_line(line)


def test_gomoku_black_moves_first_on_an_empty_9x9_board():
    state = new_game("gomoku")
    assert state.PLAYERS[state.to_move] == "Black" and state.options == {"size": 9}
    assert len(state.legal_moves()) == 81
    after = play("e5")
    assert after.to_move == 1 and after.cell(after.geometry.index["e5"]) == 0


@pytest.mark.parametrize("line", [
    "a1 a9 b1 b9 c1 c9 d1 d9 e1",  # along a rank
    "c3 d1 c4 e1 c5 f1 c6 g1 c7",  # along a file
    "a1 i1 b2 h1 c3 g1 d4 f1 e5",  # diagonal
    "i1 a1 h2 b1 g3 c1 f4 d1 e5",  # the other diagonal
])
def test_gomoku_five_in_a_row_wins(line):
    out = play(line).outcome()
    assert out.result is Result.FIRST_WINS and out.termination == "five in a row"


def test_gomoku_white_wins_with_five_too():
    assert play("a1 b2 a9 c2 i9 d2 i1 e2 e9 f2").outcome().result is Result.SECOND_WINS


def test_gomoku_four_is_not_yet_a_win():
    state = play("a1 a9 b1 b9 c1 c9 d1")
    assert state.outcome() is None and state.legal_moves()


def test_gomoku_six_in_a_row_wins_freestyle():
    state = play("a1 a9 b1 b9 c1 c9 e1 d9 f1 i9")
    assert state.outcome() is None  # a1-c1 and e1-f1: two lines, no five
    assert state.play_text("d1").outcome().result is Result.FIRST_WINS  # six: a1-f1


def test_gomoku_lines_do_not_wrap_around_the_edge():
    state = play("h5 a1 i5 b1 a6 c1 b6 e9")
    assert state.play_text("g5").outcome() is None  # g5 h5 i5 | a6 b6 is no line
    assert state.play_text("c6").outcome() is None


def test_gomoku_full_board_without_five_is_a_draw():
    state = play(" ".join(PERFT_CASES[-1].moves))  # a board with six empty cells left
    drawn = _a_drawn_finish(state)
    assert drawn is not None and drawn.ply == 81
    assert drawn.outcome().result is Result.DRAW and drawn.outcome().termination == "board full"
    assert drawn.legal_moves() == ()


def _a_drawn_finish(state):
    """Play on from ``state`` to a full board with no five (depth-first)."""
    if state.outcome() is not None:
        return state if state.outcome().result is Result.DRAW else None
    for move in state.legal_moves():
        found = _a_drawn_finish(state.play(move))
        if found is not None:
            return found
    return None


def test_gomoku_game_over_has_no_moves_and_refuses_play():
    state = play("a1 a9 b1 b9 c1 c9 d1 d9 e1")
    assert state.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.parse_move("e5")
    with pytest.raises(IllegalMoveError):
        state.play(state.geometry.index["e5"])


def test_gomoku_notation_files_left_to_right_ranks_bottom_to_top():
    state = play("a1 i9")
    rows = str(state).splitlines()
    assert rows[0] == " 9 . . . . . . . . O" and rows[8] == " 1 X . . . . . . . ."
    assert rows[9].split() == list("abcdefghi")
    assert state.format_move(state.geometry.index["e5"]) == "e5"
    big = new_game("gomoku", size=15)
    assert big.format_move(big.legal_moves()[-1]) == "o15" and len(big.legal_moves()) == 225


def test_gomoku_occupied_is_illegal_and_off_board_or_bad_text_invalid():
    with pytest.raises(IllegalMoveError, match="'e5': the point is taken"):
        play("e5 e5")
    with pytest.raises(InvalidMoveError, match="not on the 9×9 board"):
        play("j1")
    with pytest.raises(InvalidMoveError, match="'e0'"):
        play("e0")
    assert play("j1 o15", size=15).ply == 2


def test_gomoku_size_option_is_9_or_15():
    assert new_game("gomoku", size="15").options == {"size": 15}
    with pytest.raises(OptionError, match="allowed: 9, 15"):
        new_game("gomoku", size=10)


def test_gomoku_encode_is_from_the_side_to_move_view():
    one = play("a1")  # White to move: Black's a1 is the opponent's
    two = play("a1 i9")
    assert one.encode().shape == (162,) and one.encode()[81] == 1.0 and one.encode()[0] == 0.0
    assert two.encode()[0] == 1.0 and two.encode()[81 + 80] == 1.0


def test_gomoku_key_ignores_the_move_order():
    assert play("a1 b1 c1 d1").key() == play("c1 d1 a1 b1").key()
    assert play("a1 b1").key() != play("b1 a1").key()


# -- the engine against the naive reference --------------------------------------------


@pytest.mark.parametrize("size,seed", [(9, s) for s in range(12)] + [(15, s) for s in range(3)])
def test_gomoku_legal_moves_match_reference_on_random_games(size, seed):
    rng = random.Random(seed)
    state, ref = new_game("gomoku", size=size), RefBoard(size)
    while True:
        assert [state.format_move(m) for m in state.legal_moves()] == [
            name(c) for c in ref.legal_cells()]
        assert ref.rows_text() == [row[3:].replace(" ", "") for row in str(state).splitlines()[:-1]]
        winner, outcome = ref.winner(), state.outcome()
        if not state.legal_moves():
            assert outcome is not None
            assert outcome.winner == (None if winner is None else "XO".index(winner))
            break
        assert outcome is None
        move = rng.choice(state.legal_moves())
        ref.put(("abcdefghijklmno".index(state.format_move(move)[0]),
                 int(state.format_move(move)[1:]) - 1))
        state = state.play(move)


@pytest.mark.parametrize("case", PERFT_CASES, ids=lambda c: c.id)
def test_gomoku_perft_data_matches_engine_and_reference(case):
    size = int(case.options.get("size", 9))
    state = new_game("gomoku", size=size).play_line(case.moves)
    depth = max(case.counts)
    expected = [case.counts[d] for d in range(1, depth + 1)]
    assert perft(state, depth) == expected
    assert [ref_perft(from_moves(case.moves, size), d) for d in range(1, depth + 1)] == expected
