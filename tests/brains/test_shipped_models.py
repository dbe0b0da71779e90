"""Every shipped model is listed, hash-checked, loads, and its brain plays legal moves
from the start and from a random middle-game position."""

from __future__ import annotations

import random

import pytest

from brains.learned import store
from brains.registry import make_brain
from engine.registry import new_game

MANIFEST = store.read_manifest(store.MODELS_DIR)


def test_manifest_and_folder_agree():
    files = {p.name for p in store.MODELS_DIR.glob("*.joblib")}
    listed = set(MANIFEST)
    assert not listed - files, f"listed but missing: {sorted(listed - files)}"
    assert not files - listed, f"not listed in the manifest: {sorted(files - listed)}"
    for name, entry in MANIFEST.items():
        assert name == store.model_filename(entry["game"], entry["kind"])
        for key in ("command", "versions", "encoding_version", "data", "strength"):
            assert key in entry, f"{name}: no {key!r}"


def _mid_game(game: str, seed: int):
    rng = random.Random(seed)
    state = new_game(game)
    for _ in range(rng.randint(4, 12)):
        legal = [m for m in state.legal_moves() if not state.play(m).is_terminal()]
        if not legal:
            break
        state = state.play(rng.choice(legal))
    return state


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_shipped_model_loads_and_plays(name):
    entry = MANIFEST[name]
    assert store.verify(store.MODELS_DIR / name)["sha256"] == entry["sha256"]
    brain = make_brain(entry["kind"], entry["game"], seed=0)
    for state in (new_game(entry["game"]), _mid_game(entry["game"], len(name))):
        assert state.legal_moves()
        assert brain.choose(state) in state.legal_moves()
