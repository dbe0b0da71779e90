"""The model store refuses modified, unknown and missing files and bad manifests."""

from __future__ import annotations

import json

import pytest

from brains.learned.store import (
    ModelError,
    ModelVersionWarning,
    load_model,
    read_manifest,
    save_model,
    sha256_of,
    update_entry,
)


@pytest.fixture
def store(tmp_path):
    save_model({"weights": [1, 2, 3]}, "tictactoe", "linear", tmp_path, command="test")
    return tmp_path


def test_saved_model_loads_and_is_recorded(store):
    assert load_model("tictactoe", "linear", store) == {"weights": [1, 2, 3]}
    entry = read_manifest(store)["tictactoe-linear.joblib"]
    assert entry["sha256"] == sha256_of(store / "tictactoe-linear.joblib")
    assert entry["command"] == "test" and "scikit-learn" in entry["versions"]


def test_same_model_gives_same_hash(tmp_path):
    a = save_model({"w": [0.5] * 10}, "tictactoe", "linear", tmp_path / "a")
    b = save_model({"w": [0.5] * 10}, "tictactoe", "linear", tmp_path / "b")
    assert sha256_of(a) == sha256_of(b)


def test_modified_file_is_refused_naming_both_hashes(store):
    path = store / "tictactoe-linear.joblib"
    expected = sha256_of(path)
    path.write_bytes(path.read_bytes() + b"\0")
    with pytest.raises(ModelError) as info:
        load_model("tictactoe", "linear", store)
    message = str(info.value)
    assert str(path) in message and expected in message and sha256_of(path) in message


def test_unknown_file_is_refused(store):
    (store / "connect4-mlp.joblib").write_bytes(b"anything")
    with pytest.raises(ModelError, match="not listed"):
        load_model("connect4", "mlp", store)


def test_missing_file_is_refused(store):
    (store / "tictactoe-linear.joblib").unlink()
    with pytest.raises(ModelError, match="missing"):
        load_model("tictactoe", "linear", store)


@pytest.mark.parametrize("text", ["{not json", '{"models": 3}', '{"models": {"x": {}}}'])
def test_manifest_that_does_not_parse_is_refused(store, text):
    (store / "manifest.json").write_text(text)
    with pytest.raises(ModelError, match="manifest"):
        load_model("tictactoe", "linear", store)


def test_other_sklearn_version_loads_with_a_warning(store):
    path = store / "manifest.json"
    data = json.loads(path.read_text())
    data["models"]["tictactoe-linear.joblib"]["versions"]["scikit-learn"] = "0.1"
    path.write_text(json.dumps(data))
    with pytest.warns(ModelVersionWarning, match="scikit-learn 0.1"):
        assert load_model("tictactoe", "linear", store)["weights"] == [1, 2, 3]


def test_model_for_another_encoding_version_is_refused(store):
    path = store / "manifest.json"
    data = json.loads(path.read_text())
    data["models"]["tictactoe-linear.joblib"]["encoding_version"] = 99
    path.write_text(json.dumps(data))
    with pytest.raises(ModelError, match="encoding version 99 of tictactoe"):
        load_model("tictactoe", "linear", store)


def test_update_entry_adds_fields_and_keeps_the_file(store):
    path = store / "tictactoe-linear.joblib"
    before = read_manifest(store)[path.name]
    entry = update_entry(path, strength={"vs_random": 1.0})
    assert entry == {**before, "strength": {"vs_random": 1.0}}
    assert read_manifest(store)[path.name] == entry and entry["sha256"] == sha256_of(path)
    path.write_bytes(path.read_bytes() + b"\0")
    with pytest.raises(ModelError, match="sha256 mismatch"):
        update_entry(path, strength=None)
