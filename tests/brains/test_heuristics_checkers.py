"""Checkers heuristics: symmetry, bounds and the orderings they promise."""

from __future__ import annotations

import random

import pytest

from brains.heuristics import checkers as h
from engine import new_game
from engine.games.checkers import CheckersState


def _mirror(state: CheckersState) -> CheckersState:
    """The same position with the colours swapped and the board turned round."""
    black = [33 - s for s in state.pieces(1) if not state.piece_at(s).king]
    white = [33 - s for s in state.pieces(0) if not state.piece_at(s).king]
    bk = [33 - s for s in state.pieces(1) if state.piece_at(s).king]
    wk = [33 - s for s in state.pieces(0) if state.piece_at(s).king]
    return CheckersState.setup(black, white, bk, wk, to_move=1 - state.to_move)


def _other_side_to_move(state: CheckersState) -> CheckersState:
    """The same board with the other side to move."""
    men = [[s for s in state.pieces(p) if not state.piece_at(s).king] for p in (0, 1)]
    kings = [[s for s in state.pieces(p) if state.piece_at(s).king] for p in (0, 1)]
    return CheckersState.setup(men[0], men[1], kings[0], kings[1], to_move=1 - state.to_move)


def _positions(n_games: int = 6) -> list[CheckersState]:
    """Positions from seeded random games."""
    out = []
    for seed in range(n_games):
        rng = random.Random(seed)
        state = new_game("checkers")
        while state.legal_moves():
            out.append(state)
            state = state.play(rng.choice(state.legal_moves()))
    return out


POSITIONS = _positions()


def test_module_shape():
    assert h.DEFAULT == "improved" and set(h.HEURISTICS) == {"improved", "material"}
    assert len(h.features(new_game("checkers"))) == len(h.FEATURE_NAMES)


@pytest.mark.parametrize("name", sorted(h.HEURISTICS))
def test_start_position_is_level(name):
    assert h.HEURISTICS[name](new_game("checkers")) == 0.0


@pytest.mark.parametrize("name", sorted(h.HEURISTICS))
def test_values_in_range_and_colour_blind(name):
    fn = h.HEURISTICS[name]
    for state in POSITIONS[::3]:
        value = fn(state)
        assert -1.0 <= value <= 1.0
        assert fn(_mirror(state)) == pytest.approx(value)
        assert fn(_other_side_to_move(state)) == pytest.approx(-value)


@pytest.mark.parametrize("name", sorted(h.HEURISTICS))
def test_extra_piece_and_king_are_better(name):
    fn = h.HEURISTICS[name]
    even = CheckersState.setup(black=[10], white=[23])
    up = CheckersState.setup(black=[10, 11], white=[23])
    king = CheckersState.setup(black_kings=[10], white=[23])
    assert fn(up) > fn(even) and fn(king) > fn(even)
    assert fn(CheckersState.setup(black_kings=range(1, 13))) <= 1.0


def test_improved_prefers_back_row_men():
    assert h.improved(CheckersState.setup(black=[2], white=[31])) > h.improved(
        CheckersState.setup(black=[6], white=[31]))


def test_improved_prefers_centre_to_plain_squares():
    # 15 (centre) and 10 (row 3) are both open on every diagonal
    assert h.improved(CheckersState.setup(black=[15], white=[31])) > h.improved(
        CheckersState.setup(black=[10], white=[31]))


def test_improved_penalises_a_piece_the_opponent_can_capture():
    # White's 18 could take 14 (18x9); 23 stops Black's 14x23 the other way
    attacked = CheckersState.setup(black=[14, 1], white=[18, 23, 30])
    safe = CheckersState.setup(black=[14, 1], white=[19, 23, 30])
    assert h.attacked_pieces(attacked) == (14,) and h.attacked_pieces(safe) == ()
    assert h.improved(attacked) < h.improved(safe)


def test_protected_pieces_are_on_edges_or_backed_up():
    alone = CheckersState.setup(black=[14])
    edge = CheckersState.setup(black=[13])
    backed = CheckersState.setup(black=[14, 9, 10])  # 9 and 10 close both of 14's diagonals
    assert h.protected_mask(alone.black) == 0
    assert h.protected_mask(edge.black) == edge.black
    assert h.protected_mask(backed.black) & CheckersState.setup(black=[14]).black


def test_attacked_pieces_after_an_exchange_offer():
    state = new_game("checkers").play_line("11-15 22-18")
    assert h.attacked_pieces(state) == (15,)
    assert h.longest_captures(state) == ((15, 22),)


def test_longest_captures_and_escape_moves():
    state = CheckersState.setup(black=[9, 4], white=[14, 22, 8])
    assert h.longest_captures(state) == ((9, 18, 25),)
    assert h.longest_captures(new_game("checkers")) == ()
    # White threatens 15 from 18 (18x11; 22 stops 15x22); only 15-19 escapes
    threatened = CheckersState.setup(black=[15, 1], white=[18, 22, 30])
    assert h.attacked_pieces(threatened) == (15,)
    assert h.escape_moves(threatened) == ((15, 19),)


def test_time_factor_for_two_centre_pieces():
    assert h.time_factor(new_game("checkers")) == 1.0
    assert h.time_factor(CheckersState.setup(black=[14, 15])) == h.CENTRE_TIME_FACTOR
    assert h.moves_left(new_game("checkers")) > h.moves_left(CheckersState.setup(black=[1]))


def test_features_are_side_to_move_relative():
    for state in POSITIONS[::7]:
        a, b = h.features(state), h.features(_mirror(state))
        half = len(h.FEATURE_NAMES) // 2
        assert a[:half] == pytest.approx(b[:half]) and a[half:-1] == pytest.approx(b[half:-1])
        swapped = h.features(_other_side_to_move(state))
        assert swapped[:half] == pytest.approx(a[half:-1])
