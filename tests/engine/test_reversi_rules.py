"""Reversi rules, one test per clause of docs/RULES.md (Reversi), plus notation and a
reference check.

Positions come from move sequences, or from ``Reversi.setup`` (a documented test-only
constructor: rows top to bottom, ``X`` Black, ``O`` White, ``.`` empty).
"""

from __future__ import annotations

import random

import pytest

from engine import IllegalMoveError, InvalidMoveError, OptionError, Result, new_game
from engine.games.reversi import PASS, Reversi, ReversiState
from tests.engine.reversi_reference import RefPosition, from_cells, standard_start

SETUP = Reversi().setup


def names(state: ReversiState, colour: int) -> set[str]:
    """Names of the squares holding ``colour`` (0 Black, 1 White)."""
    return {state.square_name(s) for s in range(state.size ** 2) if state.cell(s) == colour}


def texts(state: ReversiState) -> list[str]:
    return [state.format_move(m) for m in state.legal_moves()]


# -- board and start ---------------------------------------------------------------


@pytest.mark.parametrize("size", [8, 6, 4])
def test_reversi_board_sizes_8_6_4(size):
    state = new_game("reversi", size=size)
    assert state.size == size and state.options["size"] == size
    assert len(str(state).splitlines()[0].split()) == size
    with pytest.raises(OptionError, match="size"):
        new_game("reversi", size=5)


def test_reversi_rows_counted_top_to_bottom_columns_left_to_right():
    state = new_game("reversi")
    assert state.square_name(0) == "a1" and state.square_name(7) == "h1"
    assert state.square_name(56) == "a8"
    rows = str(state).splitlines()
    assert rows[0].split() == list("abcdefgh")
    assert rows[1].startswith("1 ") and rows[8].startswith("8 ")
    assert rows[4] == "4 . . . O X . . ."  # d4 White, e4 Black: rank 4 is the 4th row down


@pytest.mark.parametrize("size,white,black", [
    (8, {"d4", "e5"}, {"d5", "e4"}),
    (6, {"c3", "d4"}, {"c4", "d3"}),
    (4, {"b2", "c3"}, {"b3", "c2"}),
])
def test_reversi_start_d4_e5_white_d5_e4_black_same_pattern_for_each_size(size, white, black):
    state = new_game("reversi", size=size)
    assert names(state, 1) == white and names(state, 0) == black
    assert state.counts() == (2, 2)


def test_reversi_black_moves_first():
    state = new_game("reversi")
    assert state.PLAYERS[state.to_move] == "Black"
    assert texts(state) == ["d3", "c4", "f5", "e6"]
    assert state.play_line("f5").PLAYERS[1] == "White"
    assert state.play_line("f5").to_move == 1


# -- placing and flipping ----------------------------------------------------------


def test_reversi_placement_must_bracket_a_line_of_opponent_discs():
    state = new_game("reversi")
    # c5 touches no White disc in line with a Black one; d6 touches e5 but nothing beyond
    for text in ("c5", "d6", "a1"):
        with pytest.raises(IllegalMoveError, match="flips no disc"):
            state.parse_move(text)


def test_reversi_placement_must_be_on_an_empty_square():
    with pytest.raises(IllegalMoveError, match="taken"):
        new_game("reversi").parse_move("d5")
    with pytest.raises(IllegalMoveError, match="taken"):
        new_game("reversi").play(27)


@pytest.mark.parametrize("move,flipped", [
    ("b4", {"c4", "d4"}),  # horizontal, rightwards
    ("f5", {"e5"}),  # horizontal, leftwards
    ("d2", {"d3", "d4"}),  # vertical, downwards
    ("e6", {"e5"}),  # vertical, upwards
    ("c3", {"d4", "e5"}),  # diagonal, down-right
    ("b5", {"c4", "d3"}),  # diagonal, up-right
])
def test_reversi_lines_may_be_horizontal_vertical_or_diagonal(move, flipped):
    state = SETUP("""
        . . . . . . . .
        . . . . X . . .
        . . . O . . . .
        . . O O X . . .
        . . . X O . . .
        . . . . . X . .
        . . . . . . . .
        . . . . . . . .""")
    before = names(state, 1)
    after = state.play(state.parse_move(move))
    assert before - names(after, 1) == flipped
    assert names(after, 0) == names(state, 0) | flipped | {move}


def test_reversi_every_bracketed_line_is_flipped():
    state = SETUP("""
        X . X . X . . .
        . O O O . . . .
        X O . O X . . .
        . O O O . . . .
        X . X . X . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .""")
    after = state.play(state.parse_move("c3"))
    assert names(after, 1) == set()  # all eight lines flipped at once
    assert after.counts() == (8 + 8 + 1, 0)


def test_reversi_line_not_closed_by_own_disc_is_not_flipped():
    state = SETUP("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . X O O . O O .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .""")
    after = state.play(state.parse_move("e4"))
    assert names(after, 1) == {"f4", "g4"}  # that line ends on an empty square
    assert names(after, 0) == {"b4", "c4", "d4", "e4"}


def test_reversi_flips_stop_at_the_first_own_disc():
    state = SETUP("""
        . O X O O . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .""")
    after = state.play(state.parse_move("a1"))
    assert names(after, 0) == {"a1", "b1", "c1"}
    assert names(after, 1) == {"d1", "e1"}


# -- passing and the end -----------------------------------------------------------

PASS_POSITION = """
    X X X X
    X X X X
    X X O .
    X X . ."""
"""White (to move) has no placement; Black can play d3, c4 and d4."""


def test_reversi_player_without_placement_must_pass():
    state = SETUP(PASS_POSITION, to_move=1)
    assert state.legal_moves() == (PASS,)
    assert texts(state) == ["pass"]
    after = state.play(PASS)
    assert after.to_move == 0 and after.ply == 1
    assert after.key()[:2] == (state.key()[1], state.key()[0])
    assert texts(after) == ["d3", "c4", "d4"]


def test_reversi_pass_is_illegal_when_a_placement_exists():
    state = new_game("reversi")
    with pytest.raises(IllegalMoveError, match="pass"):
        state.parse_move("pass")
    with pytest.raises(IllegalMoveError, match="pass"):
        state.play(PASS)


def test_reversi_placement_is_illegal_when_the_move_is_pass():
    state = SETUP(PASS_POSITION, to_move=1)
    with pytest.raises(IllegalMoveError, match="'pass'"):
        state.parse_move("d4")


def test_reversi_game_ends_when_neither_player_can_move():
    state = SETUP("""
        X X X X
        X X X X
        X X . .
        X X . O""")  # no line runs from an empty square to the lone White disc
    assert state.legal_moves() == ()
    assert state.outcome() is not None
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.parse_move("c3")
    with pytest.raises(IllegalMoveError):
        state.play(PASS)


def test_reversi_more_discs_wins():
    out = SETUP("X X X X\nX X X X\nX X . .\nX X . O").outcome()
    assert out.result is Result.FIRST_WINS and out.termination == "no legal moves (12-1)"
    out = SETUP("O O O O\nO O O O\nO O X X\nO O O O").outcome()
    assert out.result is Result.SECOND_WINS and out.termination == "no legal moves (2-14)"


def test_reversi_equal_counts_draw():
    out = SETUP("X X X X\nX X X X\nO O O O\nO O O O").outcome()
    assert out is not None and out.result is Result.DRAW
    assert out.termination == "no legal moves (8-8)"


def test_reversi_known_result_4x4_is_a_win_for_white():
    memo: dict = {}

    def solve(state: ReversiState) -> int:
        key = state.key()
        if key not in memo:
            moves = state.legal_moves()
            if not moves:
                black, white = state.counts()
                memo[key] = (black - white) * (1 if state.to_move == 0 else -1)
            else:
                memo[key] = max(-solve(state.play(m)) for m in moves)
        return memo[key]

    assert solve(new_game("reversi", size=4)) < 0  # Black, to move, loses


# -- notation ----------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"size": 6}, {"size": 4},
                                     {"variant": "flipcolor", "seed": 5}])
def test_reversi_notation_round_trips_for_every_legal_move(options):
    rng = random.Random(11)
    state = new_game("reversi", **options)
    while state.legal_moves():
        for move in state.legal_moves():
            text = state.format_move(move)
            assert state.parse_move(text) == move
            assert state.parse_move(f"  {text.upper()} ") == move
        state = state.play(rng.choice(state.legal_moves()))


def test_reversi_notation_is_square_name_f5_and_pass():
    state = new_game("reversi")
    assert state.format_move(state.parse_move("f5")) == "f5"
    assert state.parse_move("f5") == 4 * 8 + 5  # row 4 (rank 5), column 5 (f)
    assert state.format_move(PASS) == "pass"
    assert state.play_line("f5 d6 c3 d3 c4").ply == 5


@pytest.mark.parametrize("text", ["", "z9", "f", "f55", "passs", "5f", "i1", "a0"])
def test_reversi_invalid_text_raises_invalid_move_error_naming_it(text):
    with pytest.raises(InvalidMoveError) as info:
        new_game("reversi").parse_move(text)
    assert repr(text.strip()) in str(info.value)


def test_reversi_square_off_a_small_board_is_invalid():
    with pytest.raises(InvalidMoveError, match=r"'e5'.*a1-d4"):
        new_game("reversi", size=4).parse_move("e5")


def test_reversi_illegal_move_error_names_move_player_and_ply():
    with pytest.raises(IllegalMoveError, match=r"'a1' for Black at ply 0"):
        new_game("reversi").parse_move("a1")


# -- variants ----------------------------------------------------------------------


@pytest.mark.parametrize("size", [8, 6])
@pytest.mark.parametrize("seed", range(8))
def test_reversi_randomstart_two_of_each_on_central_block_black_can_move(size, seed):
    state = new_game("reversi", size=size, variant="randomstart", seed=seed)
    lo = size // 2 - 2
    block = {state.square_name(r * size + c)
             for r in range(lo, lo + 4) for c in range(lo, lo + 4)}
    black, white = names(state, 0), names(state, 1)
    assert len(black) == 2 and len(white) == 2
    assert black | white <= block
    assert state.to_move == 0 and state.legal_moves() and PASS not in state.legal_moves()


def test_reversi_randomstart_seed_fixes_the_start():
    starts = {str(new_game("reversi", variant="randomstart", seed=s)) for s in range(10)}
    assert len(starts) > 1
    a = new_game("reversi", variant="randomstart", seed=42)
    assert str(a) == str(new_game("reversi", variant="randomstart", seed=42))
    assert a.options == {"size": 8, "variant": "randomstart", "seed": 42}


@pytest.mark.parametrize("size", [8, 6, 4])
@pytest.mark.parametrize("seed", range(6))
def test_reversi_flipcolor_draws_four_squares_outside_the_centre(size, seed):
    state = new_game("reversi", size=size, variant="flipcolor", seed=seed)
    drawn = state.drawn_squares
    assert len(set(drawn)) == 4
    assert not any(state.cell(s) is not None for s in drawn)  # never a start square
    assert all(state.is_drawn(s) for s in drawn)
    assert str(state).count("*") == 4
    assert state.drawn_squares == new_game("reversi", size=size, variant="flipcolor",
                                           seed=seed).drawn_squares


def test_reversi_flipcolor_placed_disc_turns_to_opponent_after_flips():
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . O X . . .
        . . . X O . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . ."""
    plain = SETUP(board).play_line("f5")
    flip = SETUP(board, variant="flipcolor", drawn=("f5", "a1", "a2", "a3")).play_line("f5")
    assert names(plain, 0) == {"d5", "e4", "e5", "f5"}
    assert names(flip, 0) == {"d5", "e4", "e5"}  # e5 was flipped as usual...
    assert names(flip, 1) == {"d4", "f5"}  # ...then the placed disc turned White
    assert "o" in str(flip).splitlines()[5]  # a disc on a drawn square prints lower case


def test_reversi_flipcolor_drawn_squares_are_part_of_the_position():
    a = new_game("reversi", variant="flipcolor", seed=1)
    b = new_game("reversi", variant="flipcolor", seed=2)
    std = new_game("reversi")
    assert a.drawn_squares != b.drawn_squares
    assert len({a.key(), b.key(), std.key()}) == 3
    assert std.drawn_squares == ()


# -- state protocol details ----------------------------------------------------------


def test_reversi_play_leaves_parent_unchanged_and_key_ignores_ply():
    state = new_game("reversi")
    before = (state.key(), str(state))
    child = state.play_line("f5 f4 e3 f6 d3")
    assert (state.key(), str(state)) == before
    rows = "\n".join(line[2:] for line in str(child).splitlines()[1:9])
    same = SETUP(rows, to_move=child.to_move)  # the same position at ply 0
    assert same.ply == 0 and child.ply == 5
    assert same.key() == child.key() and str(same) == str(child)


def test_reversi_encode_planes_from_side_to_move_view():
    state = new_game("reversi", size=6)
    vec = state.encode()
    assert vec.dtype.name == "float32" and vec.shape == (4 * 36,)
    own, opp, mob, drawn = vec.reshape(4, 36)
    assert {state.square_name(i) for i in own.nonzero()[0]} == names(state, 0)
    assert {state.square_name(i) for i in opp.nonzero()[0]} == names(state, 1)
    assert sorted(mob.nonzero()[0]) == list(state.legal_moves())
    assert not drawn.any()
    child = state.play(state.legal_moves()[0])
    own2 = child.encode().reshape(4, 36)[0]
    assert {child.square_name(i) for i in own2.nonzero()[0]} == names(child, 1)


# -- cross-check against the naive reference ---------------------------------------


def _ref_start(state: ReversiState) -> RefPosition:
    return from_cells(state.size, sorted(names(state, 0)), sorted(names(state, 1)),
                      [state.square_name(s) for s in state.drawn_squares])


@pytest.mark.parametrize("options", [{}, {"size": 6}, {"size": 4},
                                     {"variant": "randomstart", "seed": 3},
                                     {"variant": "flipcolor", "seed": 9},
                                     {"size": 6, "variant": "flipcolor", "seed": 4}])
def test_reversi_engine_agrees_with_naive_reference_on_random_playouts(options):
    for seed in range(12):
        rng = random.Random(seed)
        state = new_game("reversi", **options)
        ref = _ref_start(state)
        if not options.get("variant"):
            assert ref.board == standard_start(state.size).board
        while True:
            legal = texts(state)
            assert legal == ref.moves(), f"{options} seed {seed} ply {state.ply}"
            assert state.counts() == ref.counts()
            if not legal:
                break
            move = rng.choice(legal)
            state, ref = state.play_text(move), ref.play(move)
