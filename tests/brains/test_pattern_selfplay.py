# ruff: noqa: E741  (P and O: the mover's and the opponent's discs, as in the kernels)
"""Self-play positions labelled by the exact solver for the pattern evaluation
(brains/learned/pattern_selfplay.py) and how the fit takes them."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from brains.learned import pattern_features as F
from brains.learned import pattern_selfplay as sp
from tests.brains.test_patterns import random_model
from tests.brains.test_reversi_endgame import minimax
from tests.conftest import DATA


@pytest.fixture(scope="module")
def tables() -> dict[str, Any]:
    return F.playable(random_model(3))


def test_positions_lie_in_the_range_and_repeat_by_seed(tables: dict[str, Any]) -> None:
    me, them = sp.play(tables, 4, seed=5)
    assert 0 < len(me) <= 4 * sp.PER_GAME and len(me) == len(them)
    empties = 64 - F.popcount(me | them)
    assert ((empties >= sp.EMPTIES[0]) & (empties <= sp.EMPTIES[1])).all()
    assert not (me & them).any()
    for P, O in zip(me, them, strict=True):  # the mover has a disc to place
        assert F.state_of(int(P), int(O)).legal_moves()[0] in range(64)
    again = sp.play(tables, 4, seed=5)
    assert (again[0] == me).all() and (again[1] == them).all()
    other = sp.play(tables, 4, seed=6)
    assert len(other[0]) != len(me) or (other[0] != me).any()


def test_labels_are_the_exact_disc_difference(tables: dict[str, Any],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from brains.reversi_endgame import solve

    monkeypatch.setattr(sp, "EMPTIES", (6, 8))  # small enough for the plain minimax
    me, them = sp.play(tables, 3, seed=1)
    labels = sp.label(me, them, solve)
    assert len(labels) == len(me) > 0
    for P, O, value in zip(me, them, labels, strict=True):
        assert value == minimax(F.state_of(int(P), int(O)), {}, empties_to_winner=True)


def test_a_subsampled_phase_keeps_every_exact_row() -> None:
    rng = np.random.default_rng(0)
    rows = np.arange(100, 200)
    exact = np.zeros(300, dtype=bool)
    exact[[105, 150, 199, 250]] = True  # 250: not a row of this phase
    got = F._subsample(rows, exact, 10, rng)
    assert len(got) == 10 and len(set(got)) == 10 and set(got) <= set(rows)
    assert {105, 150, 199} <= set(got)
    few = F._subsample(rows, exact, 2, rng)  # more exact rows than room: a sample of them
    assert len(few) == 2 and set(few) <= {105, 150, 199}
    plain = F._subsample(rows, None, 10, np.random.default_rng(0))
    assert (plain == np.sort(np.random.default_rng(0).choice(rows, 10, replace=False))).all()


@pytest.mark.slow
def test_training_adds_the_labelled_self_play_positions(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from brains.learned import patterns

    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(DATA / "formats" / "WTH_1977.wtb", folder)
    monkeypatch.setattr(sp, "FIRST_FIT_ROWS", 200)
    plain, plain_meta = patterns.train("reversi", games=5, data=str(folder))
    model, meta = patterns.train("reversi", games=5, data=str(folder), selfplay=3)
    assert "selfplay_positions" not in plain_meta
    added = meta["selfplay_positions"]
    assert 0 < added <= 3 * sp.PER_GAME
    assert meta["data"] == plain_meta["data"] + added
    assert meta["exact_labels"] == plain_meta["exact_labels"] + added
    assert not all((model["weights"][p] == plain["weights"][p]).all()
                   for p in range(F.PHASES))
