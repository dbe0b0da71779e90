"""The mlp brain: tiny training runs play legal moves, training is reproducible, the
numpy forward pass matches scikit-learn, and ``eval=mlp`` drives alpha-beta."""

from __future__ import annotations

import random

import numpy as np
import pytest

from brains.learned import mlp, store
from brains.minimax import PROVEN
from brains.protocol import Budget
from brains.registry import make_brain
from engine.registry import get_game

TINY = {"games": 3, "hidden": (8,), "iters": 5, "depth": 1, "skip": False, "rounds": 1}
"""A tiny recipe; the shipped recipes' linear part and later rounds: test_learned_eval.py."""


def tiny_model(game: str, seed: int = 0, **extra) -> tuple[dict, dict]:
    args = {**TINY, **extra}
    return mlp.train(game, seed=seed, games=args.pop("games"), **args)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    """A folder with a tiny model for every game, listed in its own manifest."""
    folder = tmp_path_factory.mktemp("mlp")
    for game in mlp.GAMES:
        model, meta = tiny_model(game, nets=2 if game == "reversi" else 1)
        store.save_model(model, game, mlp.KIND, models_dir=folder, **meta)
    return folder


def random_positions(game: str, count: int, seed: int = 1):
    rng = random.Random(seed)
    out = []
    state = get_game(game).initial()
    while len(out) < count:
        moves = state.legal_moves()
        if not moves:
            state = get_game(game).initial()
            continue
        out.append(state)
        state = state.play(rng.choice(moves))
    return out


@pytest.mark.parametrize("game", mlp.GAMES)
def test_tiny_model_plays_legal_moves(game, models_dir):
    path = models_dir / store.model_filename(game, mlp.KIND)
    brain = make_brain(f"mlp,model={path}", game, seed=3)
    for state in random_positions(game, 12):
        move = brain.choose(state)
        assert move in state.legal_moves()
        scores = brain.analyse(state)
        assert set(scores) == set(state.legal_moves())
        assert all(-1.0 <= s <= 1.0 for s in scores.values())


def test_meta_records_data_and_encoding_version():
    model, meta = tiny_model("tictactoe")
    assert meta["data"] > 10  # positions of 3 games, each position learned once
    assert meta["encoding_version"] == type(get_game("tictactoe").initial()).ENCODING_VERSION
    assert model["inputs"] == 18 and model["encoding_version"] == meta["encoding_version"]


@pytest.mark.slow  # trains one net in one process and in two: tens of CPU s (make bench)
def test_same_seed_same_bytes_whatever_jobs(tmp_path, monkeypatch):
    monkeypatch.setattr(mlp, "CHUNK", 4)  # 8 games in two seeded chunks: jobs=2 splits them
    recipe = {"games": 8, "children": True, "mixed": True}
    a, _ = tiny_model("connect4", seed=5, **recipe)
    b, _ = tiny_model("connect4", seed=5, jobs=2, **recipe)
    c, _ = tiny_model("connect4", seed=6, **recipe)
    paths = []
    for name, model in (("a", a), ("b", b), ("c", c)):
        paths.append(store.save_model(model, "connect4", mlp.KIND, models_dir=tmp_path / name))
    hashes = [store.sha256_of(p) for p in paths]
    assert hashes[0] == hashes[1]
    assert hashes[0] != hashes[2]


@pytest.mark.parametrize("game", ["reversi", "morris", "checkers"])
def test_numpy_forward_pass_equals_sklearn_predict(game):
    model, _ = tiny_model(game, nets=3 if game == "reversi" else 1, phases=game == "morris",
                          inputs=("encode",), residual=0.0)  # featured models: see below
    net = mlp.Network(model)
    X = np.stack([s.encode() for s in random_positions(game, 40)]).astype(np.float64)
    rows = mlp.phase_of_rows(X, net.phases)
    expected = np.empty(len(X))
    for p, phase in enumerate(net.phases):
        mask = rows == p
        if mask.any():
            expected[mask] = np.mean([m.predict(X[mask]) for m in model["nets"][phase]], axis=0)
    np.testing.assert_allclose(net.values(X), np.clip(expected, -1, 1), atol=1e-6)
    if game == "morris":  # both phases occur in a random sample
        assert set(rows.tolist()) == {0, 1}


def test_eval_mlp_gives_a_legal_alphabeta_move(models_dir):
    for game in ("connect4", "reversi"):
        path = models_dir / store.model_filename(game, mlp.KIND)
        brain = make_brain(f"alphabeta,depth=3,eval=mlp:{path}", game, seed=2)
        for state in random_positions(game, 4, seed=7):
            thoughts = list(brain.think(state, Budget(depth=3).start()))
            assert thoughts and thoughts[-1].move in state.legal_moves()
            assert thoughts[-1].score is None or abs(thoughts[-1].score) <= 1.0


def test_network_value_stays_below_proven_scores(models_dir):
    path = models_dir / store.model_filename("connect4", mlp.KIND)
    evaluate = make_brain(f"alphabeta,depth=1,eval=mlp:{path}", "connect4")._evaluate
    for state in random_positions("connect4", 20):
        assert abs(evaluate(state)) <= PROVEN


def test_a_model_not_in_the_manifest_is_refused(models_dir, tmp_path):
    stray = tmp_path / "tictactoe-mlp.joblib"
    stray.write_bytes((models_dir / "tictactoe-mlp.joblib").read_bytes())
    with pytest.raises(store.ModelError, match="not listed"):
        make_brain(f"mlp,model={stray}", "tictactoe")


def test_wrongly_named_model_file_is_refused(models_dir):
    path = models_dir / store.model_filename("connect4", mlp.KIND)
    with pytest.raises(store.ModelError, match="must be named"):
        make_brain(f"mlp,model={path}", "tictactoe")


def test_other_board_size_is_a_clear_error(tmp_path):
    model, meta = tiny_model("reversi", inputs=("encode",), skip=False, rounds=1)
    path = store.save_model(model, "reversi", mlp.KIND, models_dir=tmp_path, **meta)
    brain = make_brain(f"mlp,model={path}", "reversi")
    state = get_game("reversi").initial(size=6)
    with pytest.raises(store.ModelError, match=r"expects 256 inputs, the position encodes to 144"):
        brain.choose(state)


def test_features_model_plays_another_board_size(models_dir):
    """The heuristic features are ratios of the board, so a features-only net reads any
    size; the one-ply brain and the search evaluation both play on 6x6."""
    path = models_dir / store.model_filename("reversi", mlp.KIND)
    state = get_game("reversi").initial(size=6)
    assert make_brain(f"mlp,model={path}", "reversi").choose(state) in state.legal_moves()
    brain = make_brain(f"alphabeta,depth=2,eval=mlp:{path}", "reversi")
    assert brain.choose(state) in state.legal_moves()


@pytest.mark.parametrize("game", mlp.GAMES)
def test_shipped_model_loads_and_plays(game):
    entry = store.verify(store.MODELS_DIR / store.model_filename(game, mlp.KIND))
    assert entry["encoding_version"] == type(get_game(game).initial()).ENCODING_VERSION
    brain = make_brain("mlp", game, seed=1)
    assert brain.net.encoding_version == entry["encoding_version"]
    for state in random_positions(game, 6, seed=4):
        assert brain.choose(state) in state.legal_moves()


FEATURED = {"inputs": ("encode", "features", "heuristic"), "residual": mlp.SCALE}


@pytest.mark.parametrize("game", ["reversi", "morris", "checkers"])
def test_featured_residual_model_adds_the_heuristic(game):
    from brains.heuristics import get_heuristic
    from brains.learned.linear import feature_function

    model, _meta = tiny_model(game, phases=game == "morris", **FEATURED)
    assert model["layout"] == list(FEATURED["inputs"]) and model["residual"] == mlp.SCALE
    width = len(get_game(game).initial().encode().ravel())
    assert model["inputs"] == width + len(feature_function(game)(get_game(game).initial())) + 1
    net = mlp.Network(model)
    states = random_positions(game, 30, seed=2)
    X = np.stack([net.row(s) for s in states])
    h = get_heuristic(game)
    np.testing.assert_allclose(X[:, -1], [max(-1.0, min(1.0, h(s))) for s in states])
    np.testing.assert_allclose(X[:, :width], [s.encode().ravel() for s in states])
    rows = mlp.phase_of_rows(X, net.phases)
    expected = np.empty(len(X))
    for p, phase in enumerate(net.phases):
        mask = rows == p
        if mask.any():
            expected[mask] = np.mean([m.predict(X[mask]) for m in model["nets"][phase]], axis=0)
    expected = np.clip(expected + mlp.SCALE * X[:, -1], -1, 1)
    np.testing.assert_allclose(net.values(X), expected, atol=1e-6)
    assert net.value(states[3]) == pytest.approx(expected[3])


def test_featured_model_brain_plays_from_a_file(tmp_path):
    model, meta = tiny_model("checkers", **FEATURED)
    path = store.save_model(model, "checkers", mlp.KIND, models_dir=tmp_path, **meta)
    brain = make_brain(f"mlp,model={path}", "checkers", seed=1)
    for state in random_positions("checkers", 8, seed=5):
        assert brain.choose(state) in state.legal_moves()


def test_residual_needs_the_heuristic_last():
    with pytest.raises(ValueError, match="heuristic as its last input"):
        tiny_model("reversi", inputs=("encode", "features"), residual=0.5)


def test_featured_model_same_bytes_whatever_jobs(tmp_path):
    recipe = {"games": 22, "children": True, "depth": 1, **FEATURED}
    a, _ = tiny_model("morris", seed=5, phases=True, **recipe)
    b, _ = tiny_model("morris", seed=5, phases=True, jobs=2, **recipe)
    hashes = [store.sha256_of(store.save_model(m, "morris", mlp.KIND, models_dir=tmp_path / n))
              for n, m in (("a", a), ("b", b))]
    assert hashes[0] == hashes[1]
