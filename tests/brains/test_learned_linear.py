"""The linear brain: the LMS learner on each game's features, trained on a
tiny budget, plays legal moves, takes wins, and refuses models that do not fit."""

from __future__ import annotations

import pickle
import random
import re

import numpy as np
import pytest

from brains.learned import linear, store
from brains.learned.store import ModelError
from brains.protocol import Budget
from brains.registry import make_brain
from engine.registry import new_game


def _allowed(obj) -> bool:
    """Only plain data and numpy arrays: no classes of ours in a model."""
    if isinstance(obj, dict):
        return all(isinstance(k, str) and _allowed(v) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return all(_allowed(v) for v in obj)
    return isinstance(obj, (str, int, float, np.ndarray))


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    """A linear model per game trained on a handful of games, saved with its manifest."""
    folder = tmp_path_factory.mktemp("linear")
    metas = {}
    for game in linear.GAMES:
        model, meta = linear.train(game, games=6, seed=1)
        store.save_model(model, game, "linear", folder, command="test", **meta)
        metas[game] = (model, meta)
    return folder, metas


def test_trained_model_is_plain_data(tiny_models):
    _, metas = tiny_models
    for game, (model, meta) in metas.items():
        assert _allowed(model), game
        assert model["weights"].shape == (len(linear.feature_names(game)) + 1,)
        assert np.isfinite(model["weights"]).all()
        assert meta["data"] > 6 and meta["games_vs_random"] + meta["games_self_play"] == 6
        pickle.loads(pickle.dumps(model))


@pytest.mark.parametrize("game", linear.GAMES)
def test_brain_plays_legal_moves_to_the_end(tiny_models, game):
    folder, _ = tiny_models
    brain = make_brain(f"linear,model={folder / f'{game}-linear.joblib'}", game, seed=2)
    rng = random.Random(game)
    state = new_game(game)
    for ply in range(40):
        legal = state.legal_moves()
        if not legal:
            break
        if ply % 2:
            move = rng.choice(legal)
        else:
            thoughts = list(brain.think(state, Budget().start()))
            assert len(thoughts) == 1 and thoughts[0].final
            move = thoughts[0].move
            assert -1.0 <= thoughts[0].score <= 1.0
        assert move in legal
        state = state.play(move)


def test_takes_a_win_and_updates_towards_the_result(tmp_path):
    model, _ = linear.train("tictactoe", games=30, seed=0)
    store.save_model(model, "tictactoe", "linear", tmp_path)
    brain = make_brain(f"linear,model={tmp_path / 'tictactoe-linear.joblib'}", "tictactoe",
                       seed=0)
    state = new_game("tictactoe").play_line("a1 b1 a2 b2")  # X wins at a3
    assert state.format_move(brain.choose(state)) == "a3"
    assert brain.analyse(state)[state.parse_move("a3")] == 1.0


def test_lms_moves_weights_towards_the_result():
    # One won game for the side to move at its last position: the weights must move
    # so that the position's value rises from 0 towards +1.
    feats = [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
    game = (feats, [0, 1, 0], [True, True, True], 0)
    weights = [0.0, 0.0, 0.0]
    linear._update(weights, game, rate=0.5)
    assert linear._value(weights, feats[2]) > 0.0
    assert linear._targets([0.0, 0.0, 0.0], game, 0.0) == [0.0, -1.0, 1.0]


def test_same_seed_same_weights_and_seed_matters():
    a, _ = linear.train("connect4", games=20, seed=7)
    b, _ = linear.train("connect4", games=20, seed=7)
    c, _ = linear.train("connect4", games=20, seed=8)
    assert np.array_equal(a["weights"], b["weights"])
    assert not np.array_equal(a["weights"], c["weights"])


def test_misnamed_or_foreign_model_is_refused(tmp_path):
    model, _ = linear.train("tictactoe", games=4, seed=0)
    store.save_model(model, "tictactoe", "linear", tmp_path)
    with pytest.raises(ModelError, match=re.escape("must be named connect4-linear.joblib")):
        make_brain(f"linear,model={tmp_path / 'tictactoe-linear.joblib'}", "connect4")
    store.save_model(model, "connect4", "linear", tmp_path)  # tic-tac-toe weights
    with pytest.raises(ModelError, match="not a linear model for connect4"):
        make_brain(f"linear,model={tmp_path / 'connect4-linear.joblib'}", "connect4")
    with pytest.raises(ModelError, match="not listed"):
        make_brain(f"linear,model={tmp_path / 'nowhere' / 'tictactoe-linear.joblib'}",
                   "tictactoe")
