"""The learned search evaluation: the fast one-row path over a net's fitted weights gives
scikit-learn's own prediction, the shipped models load through the safe loader, and
alpha-beta on the learned evaluation still equals plain minimax."""

from __future__ import annotations

import numpy as np
import pytest

from brains import Budget, make_brain
from brains.evaluation import evaluation
from brains.heuristics import game_module, get_heuristic
from brains.learned import mlp, safeload, store
from engine.registry import get_game
from tests.brains.test_learned_mlp import random_positions

SEARCH_GAMES = ("reversi", "checkers", "connect4")
"""The games whose shipped network is alpha-beta's learned evaluation."""
SKIPPED = {"inputs": ("features",), "skip": True, "residual": 0.0, "hidden": (6,), "rounds": 1,
           "games": 3, "iters": 5, "depth": 1, "nets": 1, "children": False}
"""A tiny recipe of the fast path's model form: features only, a linear part, one net."""


def sklearn_value(model: dict, net: mlp.Network, state) -> float:
    """The model's value of ``state`` computed with scikit-learn's ``predict``."""
    row = np.asarray(net.row(state), dtype=np.float64).reshape(1, -1)
    members = model["nets"][model["phases"][0]]
    out = float(np.mean([m.predict(row)[0] for m in members]))
    if model.get("residual"):
        out += model["residual"] * row[0, -1]
    if model.get("skip") is not None:
        coef, intercept = model["skip"]
        out += float(row[0] @ np.asarray(coef)) + intercept
    return max(-1.0, min(1.0, out))


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    """A folder with a tiny features-only model with a linear part for every search game."""
    folder = tmp_path_factory.mktemp("evalnet")
    for game in SEARCH_GAMES:
        args = dict(SKIPPED)
        model, meta = mlp.train(game, seed=0, games=args.pop("games"), **args)
        store.save_model(model, game, mlp.KIND, models_dir=folder, **meta)
    return folder


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_fast_path_equals_sklearn_predict(game, tiny_models):
    path = tiny_models / store.model_filename(game, mlp.KIND)
    model = store.load_model(game, mlp.KIND, tiny_models)
    assert model["skip"] is not None and model["layout"] == ["features"]
    net = mlp.Network(model)
    fast = net.evaluator()
    assert fast != net.value  # the one-row path, not the batch fallback
    for state in random_positions(game, 40, seed=7):
        assert fast(state) == pytest.approx(sklearn_value(model, net, state), abs=1e-9)
        assert net.value(state) == pytest.approx(fast(state), abs=1e-9)
    assert evaluation(game, f"mlp:{path}")(random_positions(game, 1)[0]) == pytest.approx(
        sklearn_value(model, net, random_positions(game, 1)[0]), abs=1e-9)


def test_linear_part_is_the_least_squares_fit(tiny_models):
    """The nets learn what the linear part misses: on their own data the linear part
    alone fits the targets no worse than any other line does (it is the lstsq line)."""
    game = "reversi"
    xs, values, outcomes = mlp._self_play_records(game, 3, 2, 1, 0.1, layout=("features",))
    X = np.asarray(xs, dtype=np.float64)
    y = np.asarray(values)
    cfg = {**mlp.CONFIG[game], **SKIPPED}
    model, _ = mlp.fit_model(game, X, y, cfg, 0)
    coef, intercept = model["skip"]
    fitted = X @ np.asarray(coef) + intercept
    worse = X @ (np.asarray(coef) * 1.1) + intercept
    assert np.mean((fitted - y) ** 2) < np.mean((worse - y) ** 2)
    assert len(outcomes) == len(values) == len(xs)


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_shipped_evaluation_loads_safely_and_equals_sklearn(game):
    path = store.MODELS_DIR / store.model_filename(game, mlp.KIND)
    store.verify(path)
    model = safeload.loads(path.read_bytes())  # the restricted unpickler
    assert model["kind"] == mlp.KIND and model["game"] == game
    net = mlp.Network(model)
    fast = mlp.load_network(game).evaluator()
    for state in random_positions(game, 60, seed=11):
        assert fast(state) == pytest.approx(sklearn_value(model, net, state), abs=1e-9)


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_alphabeta_on_the_learned_evaluation_equals_minimax(game, tiny_models):
    path = tiny_models / store.model_filename(game, mlp.KIND)
    for state in random_positions(game, 3, seed=5):
        plain = make_brain(f"minimax,depth=2,seconds=none,eval=mlp:{path}", game).analyse(
            state, Budget(depth=2))
        for tt in (True, False):
            ab = make_brain(f"alphabeta,depth=2,seconds=none,tt={tt},eval=mlp:{path}", game)
            assert ab.analyse(state, Budget(depth=2)) == pytest.approx(plain, abs=1e-12)


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_shipped_alphabeta_on_the_learned_evaluation_equals_minimax(game):
    for state in random_positions(game, 2, seed=9):
        plain = make_brain("minimax,depth=2,seconds=none,eval=mlp", game).analyse(
            state, Budget(depth=2))
        ab = make_brain("alphabeta,depth=2,seconds=none,eval=mlp", game)
        assert ab.analyse(state, Budget(depth=2)) == pytest.approx(plain, abs=1e-12)


def test_features_model_refuses_inputs_of_another_width(tiny_models):
    model = store.load_model("reversi", mlp.KIND, tiny_models)
    model = dict(model, skip=[model["skip"][0][:-1], model["skip"][1]])
    with pytest.raises(store.ModelError, match="linear part does not fit"):
        mlp.Network(model, "reversi-mlp.joblib")


def test_fast_path_uses_the_game_features():
    """The fast path's inputs are the game's heuristic features (no encode())."""
    state = random_positions("checkers", 5)[4]
    feats = game_module("checkers").features(state)
    assert len(feats) == len(game_module("checkers").FEATURE_NAMES)
    assert -1.0 <= get_heuristic("checkers")(state) <= 1.0


@pytest.mark.slow  # two training rounds with searches: tens of CPU seconds (make bench runs it)
def test_later_rounds_search_with_the_previous_net(tiny_models):
    """A teacher model replaces the heuristic in the self-play searches (other targets,
    same positions' count rule), and ``rounds`` fits the last net on every round's data."""
    game = "checkers"
    teacher = store.load_model(game, mlp.KIND, tiny_models)
    plain = mlp._self_play_records(game, 4, 1, 1, 0.0, layout=("features",))
    taught = mlp._self_play_records(game, 4, 1, 1, 0.0, layout=("features",), teacher=teacher)
    assert plain[1] != taught[1]
    fast = mlp.Network(teacher).evaluator()
    first = get_game(game).initial()
    assert taught[1][0] == pytest.approx(max(
        -mlp.SCALE * fast(first.play(m)) for m in first.legal_moves()), abs=1e-9)
    args = dict(SKIPPED)
    games = args.pop("games")
    _, one = mlp.train(game, seed=1, games=games, **args)
    _, two = mlp.train(game, seed=1, games=games, **{**args, "rounds": 2})
    assert two["data"] > one["data"]


def test_fast_path_with_the_heuristic_input_and_residual():
    """Features followed by the heuristic's value, a residual weight and a linear part:
    the fast path folds both linear terms into its hidden layer and still equals sklearn."""
    args = {**SKIPPED, "inputs": ("features", "heuristic"), "residual": mlp.SCALE}
    model, _ = mlp.train("connect4", seed=2, games=args.pop("games"), **args)
    net = mlp.Network(model)
    fast = net.evaluator()
    assert fast != net.value
    for state in random_positions("connect4", 30, seed=3):
        assert fast(state) == pytest.approx(sklearn_value(model, net, state), abs=1e-9)
