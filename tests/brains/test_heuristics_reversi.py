"""Reversi heuristics: ranges, colour symmetry and obvious orderings on hand-built boards."""

from __future__ import annotations

import random

import pytest

from brains.heuristics.reversi import (
    DEFAULT,
    FEATURE_NAMES,
    HEURISTICS,
    _tables,
    features,
    square_weight,
)
from engine import new_game
from engine.games.reversi import Reversi, ReversiState

SETUP = Reversi().setup
ANTISYMMETRIC = ("base", "filled_cell", "legal_moves", "weight_place")
"""Heuristics whose value flips sign when only the side to move changes."""

OPTIONS = [{}, {"size": 6}, {"size": 4}, {"variant": "randomstart", "seed": 2},
           {"variant": "flipcolor", "seed": 3}, {"size": 6, "variant": "flipcolor"}]


def playout_states(options: dict, seed: int) -> list[ReversiState]:
    rng = random.Random(seed)
    state = new_game("reversi", **options)
    out = [state]
    while state.legal_moves():
        state = state.play(rng.choice(state.legal_moves()))
        out.append(state)
    return out


def board_text(state: ReversiState, swap: bool = False) -> str:
    """``state``'s board as setup rows, optionally with the colours swapped."""
    rows = [line[2:] for line in str(state).splitlines()[1:state.size + 1]]
    text = "\n".join(rows).upper().replace("*", ".")
    return text.translate(str.maketrans("XO", "OX")) if swap else text


def test_reversi_heuristics_are_six_with_combined_default():
    assert set(HEURISTICS) == {"base", "filled_cell", "legal_moves", "vulnerable",
                               "weight_place", "combined"}
    assert DEFAULT == "combined"


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_reversi_heuristics_stay_in_range_on_every_size_and_variant(options):
    for state in playout_states(options, seed=5):
        for name, fn in HEURISTICS.items():
            assert -1.0 <= fn(state) <= 1.0, (name, str(state))
        feats = features(state)
        assert len(feats) == len(FEATURE_NAMES)
        assert all(-1.0 <= x <= 1.0 for x in feats)


@pytest.mark.parametrize("size", [8, 6, 4])
def test_reversi_symmetric_start_scores_zero(size):
    state = new_game("reversi", size=size)
    for name in ANTISYMMETRIC:
        assert HEURISTICS[name](state) == 0.0, name


@pytest.mark.parametrize("options", OPTIONS[:3], ids=str)
def test_reversi_heuristics_flip_sign_with_side_to_move(options):
    for state in playout_states(options, seed=8)[::5]:
        other = SETUP(board_text(state), to_move=1 - state.to_move)
        for name in ANTISYMMETRIC:
            assert HEURISTICS[name](other) == pytest.approx(-HEURISTICS[name](state)), name


@pytest.mark.parametrize("options", OPTIONS[:3], ids=str)
def test_reversi_heuristics_are_colour_blind(options):
    for state in playout_states(options, seed=9)[::4]:
        swapped = SETUP(board_text(state, swap=True), to_move=1 - state.to_move)
        for name, fn in HEURISTICS.items():
            assert fn(swapped) == pytest.approx(fn(state)), name
        assert features(swapped) == pytest.approx(features(state))


def test_reversi_base_is_disc_difference_over_discs():
    state = SETUP("X X X .\n. O . .\n. . . .\n. . . .")
    assert HEURISTICS["base"](state) == pytest.approx((3 - 1) / 4)


def test_reversi_weight_place_prefers_corner_to_square_next_to_it():
    assert square_weight(8, 0) > square_weight(8, 3) > 0 > square_weight(8, 1) > square_weight(8, 9)
    assert square_weight(8, 27) > 0 and square_weight(6, 14) > 0  # the centre four
    corner = SETUP("X . . . . .\n. . . . . .\n. . O O . .\n. . O O . .\n. . . . . .\n. . . . . .")
    x_square = SETUP(". . . . . .\n. X . . . .\n. . O O . .\n. . O O . .\n. . . . . .\n. . . . . .")
    assert HEURISTICS["weight_place"](corner) > 0 > HEURISTICS["weight_place"](x_square)


def test_reversi_legal_moves_is_one_when_the_opponent_cannot_place():
    state = SETUP("X X X X\nX X X X\nX X O .\nX X . .")  # White has no placement
    assert HEURISTICS["legal_moves"](state) == 1.0


def test_reversi_filled_cell_prefers_discs_with_full_neighbourhoods():
    solid = SETUP("X X X .\nX X X .\nX X X .\n. . . O")
    scattered = SETUP("X . X .\n. . . .\nX . X .\n. X . O")
    assert HEURISTICS["filled_cell"](solid) > HEURISTICS["filled_cell"](scattered)


def test_reversi_vulnerable_counts_exposed_own_discs_double():
    # White flips b1 by playing a1 (-2); Black flips c1 by playing d1 (+1)
    state = SETUP(". X O .\n. . . .\n. . . .\n. . . .")
    assert HEURISTICS["vulnerable"](state) == pytest.approx((-2 * 1 + 1) / (2 * 1 + 1))
    safe = SETUP("X X O .\n. . . .\n. . . .\n. . . .")  # a1 guards b1 on the edge
    assert HEURISTICS["vulnerable"](safe) == pytest.approx((0 + 1) / (2 * 2 + 1))


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_reversi_flippable_discs_match_the_engine_flips(options):
    for state in playout_states(options, seed=3):
        tables = _tables(state.size)
        geo = tables.geo
        for mine, theirs in ((state.me, state.them), (state.them, state.me)):
            union, moves = 0, geo.mobility(theirs, mine)
            while moves:
                square = (moves & -moves).bit_length() - 1
                moves &= moves - 1
                union |= geo.flips(theirs, mine, square)
            assert tables.flippable(mine, theirs) == union


def test_reversi_combined_is_the_exact_result_when_the_game_is_over():
    won = SETUP("X X X X\nX X X X\nX X . .\nX X . O")
    assert won.outcome() is not None
    assert HEURISTICS["combined"](won) == 1.0
    lost = SETUP("X X X X\nX X X X\nX X . .\nX X . O", to_move=1)
    assert HEURISTICS["combined"](lost) == -1.0
    drawn = SETUP("X X X X\nX X X X\nO O O O\nO O O O")
    assert HEURISTICS["combined"](drawn) == 0.0


def test_reversi_combined_prefers_taking_a_corner():
    state = SETUP("""
        . . . . . . . .
        . X . . . . . .
        . . X . . . . .
        . . . O X . . .
        . . . X O . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .""", to_move=1)  # White can take a1 or play elsewhere
    best = max(state.legal_moves(), key=lambda m: -HEURISTICS["combined"](state.play(m)))
    assert state.format_move(best) == "a1"
