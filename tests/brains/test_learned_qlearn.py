"""The ``qlearn`` brain: tiny training runs, reproducibility, fallback, loading through the
store."""

from __future__ import annotations

import random

import pytest

from brains.learned import qlearn, store
from brains.learned.store import ModelError, save_model, sha256_of
from brains.registry import make_brain
from engine.registry import new_game


@pytest.fixture(scope="module")
def ttt_model():
    return qlearn.train("tictactoe", games=3000, seed=2)


def _save(model, game, folder):
    return save_model(model, game, "qlearn", folder, command="test")


def _play_out(brain, game, seed):
    rng = random.Random(seed)
    state = new_game(game)
    while state.legal_moves():
        moves = state.legal_moves()
        move = brain.choose(state) if state.ply % 2 == seed % 2 else rng.choice(moves)
        assert move in moves
        state = state.play(move)
    return state


def test_update_follows_the_q_learning_formula():
    q: dict[int, float] = {}
    visits: dict[int, int] = {}
    # X plays a1 b1 c1 (wins), O plays a2 b2: keys are invented, legal masks all-empty
    keys = [0 << 4 | 0, 1 << 4 | 3, 2 << 4 | 1, 3 << 4 | 4, 4 << 4 | 2]
    legal = [0x1FF] * 5
    qlearn._learn(q, visits, "tictactoe", (keys, legal, 0))
    assert q[keys[4]] == pytest.approx(qlearn.ALPHA * qlearn.REWARD)  # winning move
    assert q[keys[3]] == pytest.approx(-qlearn.ALPHA * qlearn.REWARD)  # O's last move lost
    # X's earlier move bootstraps from the (just updated) value of its next state
    assert q[keys[2]] == pytest.approx(qlearn.ALPHA * qlearn.GAMMA * q[keys[4]])
    assert q[keys[0]] == pytest.approx(qlearn.ALPHA * qlearn.GAMMA * q[keys[2]])
    assert visits[keys[0]] == 1


def test_tiny_training_and_the_brain_plays(ttt_model, tmp_path):
    model, meta = ttt_model
    assert meta["data"] == len(model["q"]["keys"]) > 100
    _save(model, "tictactoe", tmp_path)
    brain = make_brain(f"qlearn,model={tmp_path / 'tictactoe-qlearn.joblib'}", "tictactoe", seed=1)
    for seed in range(4):
        _play_out(brain, "tictactoe", seed)
    assert brain.decided.get("table", 0) > 0
    state = new_game("tictactoe").play_line("a1 a2 b1 b2")
    assert brain.choose(state) == 2  # c1 wins


def test_connect4_tiny_training_plays_and_falls_back(tmp_path):
    model, _meta = qlearn.train("connect4", games=200, seed=0)
    _save(model, "connect4", tmp_path)
    brain = make_brain(f"qlearn,model={tmp_path / 'connect4-qlearn.joblib'}", "connect4", seed=0)
    for seed in (0, 1):
        _play_out(brain, "connect4", seed)
    # an unseen position: win at once, else block, else the centre column
    state = new_game("connect4").play_line("112233")
    assert qlearn.fallback(state, list(state.legal_moves()), random.Random(0)) == (3, "win")
    state = new_game("connect4").play_line("12131")
    assert qlearn.fallback(state, list(state.legal_moves()), random.Random(0)) == (0, "block")
    state = new_game("connect4").play_line("1")
    assert qlearn.fallback(state, list(state.legal_moves()), random.Random(0)) == (3, "centre")


def test_same_seed_same_bytes_whatever_jobs(tmp_path, monkeypatch):
    monkeypatch.setattr(qlearn, "CHUNK_GAMES", 200)
    monkeypatch.setattr(qlearn, "ROUND_GAMES", {"tictactoe": 400})
    a = qlearn.train("tictactoe", games=800, seed=4, jobs=1)[0]
    b = qlearn.train("tictactoe", games=800, seed=4, jobs=2)[0]
    c = qlearn.train("tictactoe", games=800, seed=5, jobs=1)[0]
    pa, pb, pc = (_save(m, "tictactoe", tmp_path / n) for m, n in ((a, "a"), (b, "b"), (c, "c")))
    assert sha256_of(pa) == sha256_of(pb) != sha256_of(pc)


def test_modified_model_is_refused(ttt_model, tmp_path):
    path = _save(ttt_model[0], "tictactoe", tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match="sha256 mismatch"):
        make_brain(f"qlearn,model={path}", "tictactoe")


def test_keys_and_values_of_different_lengths_are_refused(ttt_model, tmp_path):
    model = dict(ttt_model[0])
    model["q"] = {**model["q"], "values": model["q"]["values"][:-1]}  # one value short
    path = _save(model, "tictactoe", tmp_path)
    with pytest.raises(ModelError, match="not a usable qlearn model"):
        make_brain(f"qlearn,model={path}", "tictactoe")


def test_wrong_kind_in_a_listed_file_is_refused(tmp_path):
    save_model({"kind": "table", "game": "tictactoe"}, "tictactoe", "qlearn", tmp_path)
    with pytest.raises(ModelError, match="not a qlearn model"):
        store.load("tictactoe", "qlearn", str(tmp_path / "tictactoe-qlearn.joblib"))


@pytest.mark.parametrize("game", qlearn.GAMES)
def test_shipped_model_loads_and_plays(game):
    brain = make_brain("qlearn", game, seed=0)
    assert brain.entry["kind"] == "qlearn" and brain.entry["game"] == game
    state = new_game(game)
    move = brain.choose(state)
    assert move in state.legal_moves()
    assert brain.decided == {"table": 1}  # the opening is in the table
