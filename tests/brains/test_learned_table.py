"""The ``table`` brain: tiny training runs, reproducibility, loading through the store."""

from __future__ import annotations

import random

import pytest

from brains.learned import store, table, tabular
from brains.learned.store import ModelError, save_model, sha256_of
from brains.registry import make_brain
from engine.registry import new_game


@pytest.fixture(scope="module")
def ttt_model():
    return table.train("tictactoe", games=600, seed=3)


def _save(model, game, folder):
    return save_model(model, game, "table", folder, command="test")


def _play_out(brain, game, seed, plies=400):
    """Play the brain against random from both sides; every move must be legal."""
    rng = random.Random(seed)
    state = new_game(game)
    for ply in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        move = brain.choose(state) if ply % 2 == seed % 2 else rng.choice(moves)
        assert move in moves
        state = state.play(move)
    return state


def test_tiny_training_learns_discounted_values(ttt_model):
    model, meta = ttt_model
    values = table._playable(model)[0]
    assert meta["data"] == len(values) > 100
    assert all(0.0 <= v <= 100.0 for v in values.values())
    # a board where the mover has just completed a line is always worth exactly 100
    lines = (7, 56, 448, 73, 146, 292, 273, 84)
    won = {k: v for k, v in values.items() if any(k & m == m for m in lines)}
    assert won and all(v == pytest.approx(100.0) for v in won.values())


def test_same_seed_same_bytes_whatever_jobs(tmp_path, monkeypatch):
    monkeypatch.setattr(tabular, "CHUNK_GAMES", 100)  # several chunks per round
    a = table.train("tictactoe", games=900, seed=5, jobs=1)[0]
    b = table.train("tictactoe", games=900, seed=5, jobs=2)[0]
    c = table.train("tictactoe", games=900, seed=6, jobs=1)[0]
    pa = _save(a, "tictactoe", tmp_path / "a")
    pb = _save(b, "tictactoe", tmp_path / "b")
    pc = _save(c, "tictactoe", tmp_path / "c")
    assert sha256_of(pa) == sha256_of(pb)
    assert sha256_of(pa) != sha256_of(pc)


def test_morris_tiny_model_has_phase_tables_and_plays(tmp_path):
    model, meta = table.train("morris", games=60, seed=1, min_count=1)
    assert set(model["tables"]) == set(table.PHASES["morris"])
    assert meta["entries"]["placing"] > 0 and meta["data"] == sum(meta["entries"].values())
    for phase, packed in model["tables"].items():
        for key in packed["keys"].tolist()[:50]:
            assert table._morris_phase(key) == phase
    _save(model, "morris", tmp_path)
    brain = make_brain(f"table,model={tmp_path / 'morris-table.joblib'}", "morris", seed=2)
    for seed in (0, 1):
        _play_out(brain, "morris", seed)


def test_brain_loads_from_temp_dir_and_plays(ttt_model, tmp_path):
    _save(ttt_model[0], "tictactoe", tmp_path)
    brain = make_brain(f"table,model={tmp_path / 'tictactoe-table.joblib'}", "tictactoe", seed=0)
    for seed in range(4):
        _play_out(brain, "tictactoe", seed)
    # it takes a win when one is there, and blocks the opponent's line otherwise
    state = new_game("tictactoe").play_line("a1 a2 b1 b2")
    assert brain.choose(state) == 2  # c1 completes the bottom row
    state = new_game("tictactoe").play_line("a1 b2 a3")
    assert state.format_move(brain.choose(state)) == "a2"  # blocks the a-file


def test_modified_model_is_refused(ttt_model, tmp_path):
    path = _save(ttt_model[0], "tictactoe", tmp_path)
    path.write_bytes(path.read_bytes()[:-1] + b"\x00")
    with pytest.raises(ModelError, match="sha256 mismatch"):
        make_brain(f"table,model={path}", "tictactoe")


def test_unlisted_or_misnamed_model_is_refused(ttt_model, tmp_path):
    path = _save(ttt_model[0], "tictactoe", tmp_path)
    other = tmp_path / "copy.joblib"
    other.write_bytes(path.read_bytes())
    with pytest.raises(ModelError):
        make_brain(f"table,model={other}", "tictactoe")
    (tmp_path / store.MANIFEST).unlink()
    with pytest.raises(ModelError, match="not listed"):
        make_brain(f"table,model={path}", "tictactoe")


@pytest.mark.parametrize("game", table.GAMES)
def test_shipped_model_loads_and_plays(game):
    brain = make_brain("table", game, seed=0)
    assert brain.entry["kind"] == "table" and brain.entry["game"] == game
    state = new_game(game)
    for _ in range(6):
        move = brain.choose(state)
        assert move in state.legal_moves()
        state = state.play(move)
