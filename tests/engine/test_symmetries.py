"""Board symmetries (``State.symmetric_keys`` / ``symmetric_move``): a game played with
every move carried through a symmetry reaches the image of every position, key for key."""

from __future__ import annotations

import random

import pytest

from engine.registry import get_game

CASES = [
    ("tictactoe", {}, range(8)),
    ("connect4", {}, range(2)),
    ("gomoku", {"size": 9}, range(8)),
    # the Reversi start position is kept by the half turn and the two diagonal mirrors
    ("reversi", {}, (0, 3, 4, 7)),
    ("reversi", {"size": 6}, (0, 3, 4, 7)),
    ("checkers", {}, range(1)),
    ("morris", {}, range(1)),
]


@pytest.mark.parametrize(("game", "options", "symmetries"), CASES)
def test_images_of_a_game_reach_the_image_keys(game: str, options: dict[str, int],
                                               symmetries: range) -> None:
    rng = random.Random(7)
    for _ in range(5):
        start = get_game(game).initial(**options)
        for sym in symmetries:
            state, image = start, start
            for _ply in range(40):
                assert image.symmetric_keys()[0] == state.symmetric_keys()[sym]
                assert min(image.symmetric_keys()) == min(state.symmetric_keys())
                if state.outcome() is not None:
                    assert image.outcome() == state.outcome()
                    break
                move = rng.choice(state.legal_moves())
                mapped = state.symmetric_move(move, sym)
                assert mapped in image.legal_moves()
                state, image = state.play(move), image.play(mapped)


def test_a_mirrored_connect4_position_has_the_same_smallest_key() -> None:
    game = get_game("connect4")
    left = game.initial().play_line("1 2 1")
    right = game.initial().play_line("7 6 7")
    assert left.key() != right.key()
    assert min(left.symmetric_keys()) == min(right.symmetric_keys())
    assert left.symmetric_keys()[1] == right.key()


def test_games_without_symmetries_have_the_identity_only() -> None:
    state = get_game("checkers").initial()
    assert state.symmetric_keys() == (state.key(),)
    move = state.legal_moves()[0]
    assert state.symmetric_move(move, 0) == move


def test_the_8x8_shifts_agree_with_the_cell_tables() -> None:
    from engine.symmetry import TRANSFORMS, Dihedral, images64

    tables = Dihedral(8)
    rng = random.Random(3)
    boards = [0, 1, 1 << 63, (1 << 64) - 1] + [rng.getrandbits(64) for _ in range(200)]
    for board in boards:
        assert images64(board) == tuple(tables.bits(board, s) for s in range(len(TRANSFORMS)))
    # one cell by hand: b1 (bit 1) turned a quarter, (r, c) -> (c, 7 - r), is h2
    assert tables.cell(1, 5) == 1 * 8 + 7
