"""Protocol conformance over every registered game (OpenSpiel's games_sim_test idea).

Seeded random playouts check, at every position: notation round trips for every legal
move, ``play`` never mutates its parent, equal positions give equal keys, terminal ⇔
no legal moves, the encoding's shape, and that the playout ends; then the game's record
is written and read back to the same moves and outcome.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAMES, IllegalMoveError, InvalidMoveError, Outcome, ParlorError, new_game
from engine.formats import parse_records
from engine.record import GameRecord

MAX_PLIES = 2_000
"""Every game ends long before this (checkers and Morris have draw rules)."""

OPTION_SETS = {
    "reversi": [{}, {"size": 6}, {"size": 4}, {"variant": "randomstart", "seed": 7},
                {"variant": "flipcolor", "seed": 3}],
}


def _options(game_id: str, rng: random.Random) -> dict:
    return rng.choice(OPTION_SETS.get(game_id, [{}]))


def random_playout(game_id: str, seed: int, check=None):
    """Play a seeded random game to the end; call ``check(state)`` at every position."""
    rng = random.Random(seed)
    state = new_game(game_id, **_options(game_id, rng))
    moves = []
    for _ in range(MAX_PLIES):
        if check:
            check(state)
        legal = state.legal_moves()
        if not legal:
            return state, moves
        move = rng.choice(legal)
        moves.append(move)
        state = state.play(move)
    raise AssertionError(f"{game_id} seed {seed}: no end after {MAX_PLIES} plies")


def check_position(state) -> None:
    legal = state.legal_moves()
    outcome = state.outcome()
    assert (outcome is None) == bool(legal), "terminal must mean no legal moves"
    if outcome is not None:
        assert isinstance(outcome, Outcome) and outcome.termination
        return
    assert len(set(legal)) == len(legal), "legal moves must be distinct"
    key, text = state.key(), str(state)
    hash(key)
    texts = set()
    for move in legal:
        notation = state.format_move(move)
        texts.add(notation)
        assert state.parse_move(notation) == move
        assert state.parse_move(notation.upper()) == move
        child = state.play(move)
        assert child.ply == state.ply + 1
        assert child is not state
    assert len(texts) == len(legal), "two legal moves print the same"
    assert state.key() == key and str(state) == text, "play() mutated its parent"
    enc = state.encode()
    assert enc.dtype == np.float32 and enc.ndim == 1


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_conform(game_id, seed):
    final, _moves = random_playout(game_id, seed, check_position)
    assert final.outcome() is not None


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_equal_positions_give_equal_keys(game_id, seed):
    """Replaying the same moves from a fresh start gives an equal key and board."""
    final, moves = random_playout(game_id, seed)
    rng = random.Random(seed)
    again = new_game(game_id, **_options(game_id, rng))
    for move in moves:
        again = again.play(move)
    assert again.key() == final.key() and str(again) == str(final)
    assert again.outcome() == final.outcome()


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_record_round_trip(game_id, seed, cut):
    """write → read gives the same moves, options and outcome (finished or not)."""
    final, moves = random_playout(game_id, seed)
    rng = random.Random(seed)
    start = new_game(game_id, **_options(game_id, rng))
    moves = moves[: int(len(moves) * cut)] if cut < 1 else moves
    rec = GameRecord.from_moves(start, moves, First="random", Second="random")
    (back,) = parse_records(rec.to_text())
    assert back.moves == rec.moves and back.options == rec.options
    assert back.result == rec.result
    replayed = back.final()
    assert replayed.key() == start.play_line(rec.moves).key()
    if cut >= 1:
        assert replayed.outcome() == final.outcome() is not None


def test_start_position_basics(game_id):
    state = new_game(game_id)
    assert state.ply == 0 and state.to_move == 0
    assert state.outcome() is None and state.legal_moves()
    assert game_id == state.GAME
    assert len(state.PLAYERS) == 2


def test_parse_errors_are_typed(game_id):
    state = new_game(game_id)
    with pytest.raises(InvalidMoveError, match="zz9"):
        state.parse_move("zz9")
    assert issubclass(IllegalMoveError, ValueError) and issubclass(InvalidMoveError, ParlorError)


def test_unknown_option_is_clear(game_id):
    with pytest.raises(ParlorError, match="unknown option 'colour'"):
        new_game(game_id, colour="blue")
