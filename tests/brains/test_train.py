"""brains.train: train_and_save writes a hashed model and a full manifest entry,
the same seed gives the same file, tampering is refused, and bad requests are clear."""

from __future__ import annotations

import pytest

from brains.heuristics import LEARNERS, game_module
from brains.learned import store
from brains.learned.store import ModelError, read_manifest, sha256_of
from brains.train import (
    KINDS,
    MODELS,
    TrainError,
    check_request,
    train_all,
    train_and_save,
    train_command,
)
from engine.protocol import UnknownGameError
from engine.registry import GAMES, new_game

REQUIRED = ("sha256", "game", "kind", "bytes", "versions", "command", "seed", "games",
            "data", "train_seconds", "encoding_version", "strength")


def test_train_and_save_writes_model_and_entry(tmp_path):
    path, entry = train_and_save("tictactoe", "linear", games=40, seed=3, out=tmp_path,
                                 eval_games=4)
    assert path == tmp_path / "tictactoe-linear.joblib" and path.is_file()
    assert all(key in entry for key in REQUIRED), set(REQUIRED) - set(entry)
    assert entry["sha256"] == sha256_of(path)
    assert read_manifest(tmp_path)[path.name] == entry
    assert entry["command"] == train_command("tictactoe", "linear", 40, 3, 1, tmp_path)
    assert (entry["games"], entry["seed"], entry["game"], entry["kind"]) == (
        40, 3, "tictactoe", "linear")
    assert entry["data"] > 40  # several positions per game
    assert entry["encoding_version"] == type(new_game("tictactoe")).ENCODING_VERSION
    for opponent in ("random", "greedy"):
        scores = entry["strength"][f"vs_{opponent}"]
        assert scores["wins"] + scores["draws"] + scores["losses"] == 4
        assert 0.0 <= scores["score"] <= 1.0


def test_same_seed_same_sha_other_seed_differs(tmp_path):
    a, ea = train_and_save("tictactoe", "linear", games=50, seed=1, out=tmp_path / "a",
                           evaluate=False)
    b, eb = train_and_save("tictactoe", "linear", games=50, seed=1, out=tmp_path / "b",
                           evaluate=False)
    _c, ec = train_and_save("tictactoe", "linear", games=50, seed=2, out=tmp_path / "c",
                           evaluate=False)
    assert ea["sha256"] == eb["sha256"] == sha256_of(a) == sha256_of(b)
    assert ec["sha256"] != ea["sha256"]
    assert ea["strength"] is None


def test_same_seed_same_sha_whatever_jobs(tmp_path):
    _, one = train_and_save("connect4", "linear", games=40, seed=5, jobs=1,
                            out=tmp_path / "one", evaluate=False)
    _, two = train_and_save("connect4", "linear", games=40, seed=5, jobs=2,
                            out=tmp_path / "two", evaluate=False)
    assert one["sha256"] == two["sha256"]


def test_tampered_model_is_refused_by_the_brain(tmp_path):
    from brains.registry import make_brain

    path, entry = train_and_save("tictactoe", "linear", games=20, out=tmp_path,
                                 evaluate=False)
    brain = make_brain(f"linear,model={path}", "tictactoe", seed=0)
    assert brain.choose(new_game("tictactoe")) in new_game("tictactoe").legal_moves()
    path.write_bytes(path.read_bytes() + b"\0")
    with pytest.raises(ModelError, match="sha256 mismatch") as info:
        make_brain(f"linear,model={path}", "tictactoe", seed=0)
    assert entry["sha256"] in str(info.value) and sha256_of(path) in str(info.value)


def test_bad_requests_are_clear_errors():
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        check_request("chess", "linear")
    with pytest.raises(TrainError, match="unknown learned kind 'deep'"):
        check_request("tictactoe", "deep")
    with pytest.raises(TrainError, match="at least 1"):
        train_and_save("tictactoe", "linear", games=0, evaluate=False)


def test_models_table_lists_known_games_and_kinds():
    assert all(game in GAMES and kind in KINDS for game, kind, _ in MODELS)
    assert len({(g, k) for g, k, _ in MODELS}) == len(MODELS)
    for learner in LEARNERS:  # every game whose brains module gives a recipe, and only those
        declared = {g for g in GAMES if learner in game_module(g).LEARNED}
        assert {g for g, k, _ in MODELS if k == learner} == declared
    assert {g for g, k, _ in MODELS if k == "linear"} >= {"checkers", "connect4", "morris",
                                                          "reversi", "tictactoe"}


def test_train_all_checks_every_row_before_training(tmp_path, monkeypatch):
    import brains.train as train

    monkeypatch.setattr(train, "MODELS", (("tictactoe", "linear", {"games": 10}),
                                          ("tictactoe", "deep", {})))
    with pytest.raises(TrainError, match="unknown learned kind 'deep'"):
        train_all(tmp_path, evaluate=False)
    assert read_manifest(tmp_path) == {}
    assert tmp_path != store.MODELS_DIR
