# ruff: noqa: E741  (P and O: the mover's and the opponent's discs, as in the kernels)
"""The pattern evaluation (brains/learned/pattern_features.py), its compiled evaluation
and midgame search (brains/kernels/reversi.py through reversi_mid.py,
brains/pattern_search.py) and the ``patterns`` brain.

The compiled parts are checked against the numpy reference and the engine on random
positions; the search at small depths against a plain minimax of the engine's states
over the same evaluation; the evaluation under the board's eight symmetries. A model
of random weights serves where the values matter and the shipped weights do not.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from brains.learned import pattern_features as F
from brains.protocol import Budget
from engine import new_game
from engine.games.reversi import PASS
from tests.conftest import DATA

ROOT = Path(__file__).parents[2]


def random_model(seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    return {"weights": rng.integers(-300, 300, (F.PHASES, F.COLUMNS)).astype(np.int16),
            "numeric": rng.integers(-60, 60, (F.PHASES, len(F.NUMERIC))).astype(np.int32),
            "bias": rng.integers(-200, 200, F.PHASES).astype(np.int32),
            "patterns": tuple(F.PATTERNS)}


@pytest.fixture(scope="module")
def tables() -> dict[str, Any]:
    return F.playable(random_model(1))


def states(seed: int, count: int, low: int = 0, high: int = 58) -> list[Any]:
    """Positions of random 8x8 games after ``low`` to ``high`` plies, game not over."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = new_game("reversi")
        for _ in range(rng.randint(low, high)):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(rng.choice(moves))
        if state.legal_moves():
            out.append(state)
    return out


def image(x: int, k: int) -> int:
    return sum(1 << F.symmetry(s, k) for s in range(64) if x >> s & 1)


# -- the patterns ---------------------------------------------------------------------------
def test_every_pattern_is_read_in_all_its_images() -> None:
    counts = {name: F.OWNER.count(p) for p, name in enumerate(F.PATTERNS)}
    assert counts["diag_8"] == 4  # the long diagonals, each read both ways
    assert all(c == 8 for name, c in counts.items() if name != "diag_8")
    for image_squares in F.IMAGES:  # every image is some symmetry of a listed image
        for k in range(8):
            assert tuple(F.symmetry(s, k) for s in image_squares) in F.IMAGES
    assert sum(3 ** len(p) for p in F.PATTERNS.values()) == F.COLUMNS


def test_numpy_bitboards_agree_with_the_engine() -> None:
    from engine.games.reversi import geometry

    geo = geometry(8)
    sample = states(2, 60)
    me = np.array([s.me for s in sample], dtype=np.uint64)
    them = np.array([s.them for s in sample], dtype=np.uint64)
    mob = F.mobility(me, them)
    for i, s in enumerate(sample):
        assert int(mob[i]) == geo.mobility(s.me, s.them)
    numeric = F.numeric_features(me, them)
    assert (numeric[:, 0] == [bin(geo.mobility(s.me, s.them)).count("1") for s in sample]).all()
    assert (numeric[:, 4] == [(64 - (s.me | s.them).bit_count()) % 2 for s in sample]).all()


def test_evaluation_is_symmetric(tables: dict[str, Any]) -> None:
    for s in states(3, 25):
        me = np.array([image(s.me, k) for k in range(8)], dtype=np.uint64)
        them = np.array([image(s.them, k) for k in range(8)], dtype=np.uint64)
        assert len(set(F.evaluate_many(tables, me, them).tolist())) == 1


def test_configuration_index_reads_the_first_square_lowest() -> None:
    a1, b1 = F.square("a1"), F.square("b1")
    me = np.array([1 << a1], dtype=np.uint64)
    them = np.array([1 << b1], dtype=np.uint64)
    cols = F.configurations(me, them)[0]
    corner = list(F.PATTERNS).index("corner_3x3")
    first = F.OWNER.index(corner)  # the image read a1, b1, c1, a2, ...
    assert F.IMAGES[first][:2] == (a1, b1)
    assert cols[first] == F.OFFSETS[corner] + 1 + 2 * 3


# -- data and fitting -------------------------------------------------------------------------
def test_wthor_positions_and_labels() -> None:
    folder = DATA / "formats"
    me, them, label, used = F.positions(str(folder))
    assert used == 12 and len(me) == len(them) == len(label) > 12 * 50
    assert not (me & them).any()
    assert int(me[0]) == F._START_BLACK and int(them[0]) == F._START_WHITE
    assert int(F.popcount(me[:1] | them[:1])[0]) == 4
    assert set(np.abs(label).astype(int)) <= set(range(65))


def test_replay_refuses_an_illegal_game() -> None:
    assert F.replay(bytes([11]) + bytes(59), 32) is None  # a1 is not legal at the start


def test_design_counts_every_image_once() -> None:
    sample = states(10, 20)
    me = np.array([s.me for s in sample], dtype=np.uint64)
    them = np.array([s.them for s in sample], dtype=np.uint64)
    x = F.design(me, them)
    assert x.shape == (20, F.COLUMNS + len(F.NUMERIC))
    assert (np.asarray(x[:, :F.COLUMNS].sum(axis=1)).ravel() == len(F.IMAGES)).all()
    assert (x[:, F.COLUMNS:].toarray() == F.numeric_features(me, them)).all()


@pytest.mark.slow
def test_fit_exact_labels_and_store_round_trip(tmp_path: Path) -> None:
    from brains import reversi_endgame
    from brains.learned import store

    me, them, label, _ = F.positions(str(DATA / "formats"))
    keep = F.popcount(me | them) >= 64 - 6  # a few quick exact solves
    label = label.copy()
    exact = F.exact_labels(me, them, label, reversi_endgame.solve, empties=6, most=20)
    assert int(exact.sum()) == 20 and (exact <= keep).all()
    model, meta = F.fit(me, them, label, seed=0, max_rows=200, exact=exact, phases=(0, 11))
    assert meta["rows"][0] == min(200, int((F.phase_of(F.popcount(me | them)) == 0).sum()))
    assert meta["rows"][1] == 0 and not model["weights"][1].any() and model["weights"][0].any()
    store.save_model(model, "reversi", "patterns", models_dir=tmp_path, command="test",
                     encoding_version=1, data=len(me), strength=None)
    loaded, entry = store.load("reversi", "patterns",
                               str(tmp_path / "reversi-patterns.joblib"), prepare=F.playable)
    assert entry["command"] == "test"
    start = states(4, 1, 0, 0)[0]
    assert F.evaluate(loaded, start.me, start.them) == F.evaluate(F.playable(model), start.me,
                                                                  start.them)


def test_playable_refuses_tables_of_another_shape() -> None:
    model = random_model(0)
    model["weights"] = model["weights"][:, :100]
    with pytest.raises(Exception, match="do not fit"):
        F.playable(model)


# -- the compiled kernel --------------------------------------------------------------------------
def test_kernel_moves_and_evaluation_agree(tables: dict[str, Any]) -> None:
    from brains.kernels import reversi_mid as K

    args = (tables["weights"], tables["numeric"], tables["bias"], tables["squares"],
            tables["lengths"], tables["offsets"])
    sample = states(5, 40)
    for s in sample:
        P, O = np.uint64(s.me), np.uint64(s.them)
        legal = [m for m in s.legal_moves() if m != PASS]
        assert int(K.legal(P, O)) == sum(1 << m for m in legal)
        for m in legal:
            child = s.play(m)
            p2, o2 = K.play(P, O, m)
            assert (int(o2), int(p2)) == (child.me, child.them)
    me = np.array([s.me for s in sample], dtype=np.uint64)
    them = np.array([s.them for s in sample], dtype=np.uint64)
    compiled = K.evaluate_many(me, them, *args)
    assert (compiled == F.evaluate_many(tables, me, them)).all()
    assert compiled.tolist() == [F.evaluate(tables, s.me, s.them) for s in sample]


def minimax(state: Any, depth: int, tables: dict[str, Any]) -> int:
    """Plain minimax of the engine's states over the pattern evaluation, a pass not
    counting as a ply, as the kernel searches."""
    from brains.kernels import reversi_mid as K

    moves = state.legal_moves()
    if not moves:
        p, o = state.me.bit_count(), state.them.bit_count()
        e = 64 - p - o
        return (K.WIN + (p - o + e) * K.UNIT if p > o else
                -K.WIN - (o - p + e) * K.UNIT if o > p else 0)
    if moves == (PASS,):
        return -minimax(state.play(PASS), depth, tables)
    if depth == 0:
        return F.evaluate(tables, state.me, state.them)
    return max(-minimax(state.play(m), depth - 1, tables) for m in moves)


def test_search_equals_minimax_at_small_depths(tables: dict[str, Any]) -> None:
    from brains.pattern_search import MidgameSearch

    search = MidgameSearch(tables)
    for i, s in enumerate(states(6, 6, 4, 56)):
        moves = [m for m in s.legal_moves() if m != PASS]
        if not moves:
            continue
        P, O = np.uint64(s.me), np.uint64(s.them)
        for depth in (1, 2, 3):
            search.clear()
            order = search._order(P, O, random.Random(i))
            value = search.run(P, O, depth, order, None, None)
            assert value == max(-minimax(s.play(m), depth - 1, tables) for m in moves)


def test_search_keeps_a_node_limit_and_a_stop(tables: dict[str, Any]) -> None:
    from brains.pattern_search import MidgameSearch

    search = MidgameSearch(tables)
    s = states(7, 1, 20, 20)[0]
    thoughts = list(search.think(s, None, None, 3000, Budget(), random.Random(0)))
    assert thoughts and thoughts[-1].move in s.legal_moves()
    assert thoughts[-1].nodes <= 3000 + 64  # the last poll's chunk may finish a leaf
    budget = Budget()
    budget.stop.set()
    stopped = list(search.think(s, None, None, None, budget, random.Random(0)))
    assert len(stopped) <= 1 and all(t.move in s.legal_moves() for t in stopped)
    deep = list(search.think(s, None, 4, None, Budget(), random.Random(0)))
    assert [t.depth for t in deep] == [1, 2, 3, 4] and deep[-1].final
    assert deep[-1].pv[0] == deep[-1].move and len(deep[-1].pv) <= 4


# -- the brain ----------------------------------------------------------------------------------
def test_brain_plays_legal_moves_and_falls_back_off_the_standard_board() -> None:
    from brains.registry import make_brain

    brain = make_brain("patterns,depth=2", "reversi", seed=0)
    for s in states(8, 3, 10, 40):
        assert brain.choose(s) in s.legal_moves()
    late = states(9, 1, 54, 54)[0]  # few empties: the exact solver
    thought = list(brain.think(late, Budget(seconds=1.0)))[-1]
    assert thought.move in late.legal_moves()
    small = new_game("reversi", size=6)
    assert brain.choose(small) in small.legal_moves()
    start = new_game("reversi")
    assert set(brain.analyse(start, Budget(depth=2))) == set(start.legal_moves())
    with pytest.raises(Exception, match="not available for connect4"):
        make_brain("patterns", "connect4")


def test_off_the_standard_board_the_depth_is_python_sized() -> None:
    """A depth meant for the compiled search (the top rated level's 10 plies) is cut to
    OTHER_DEPTH where the patterns do not fit: Python's search at 10 plies on 10x10 would
    take minutes a move."""
    from brains.learned.patterns import OTHER_DEPTH
    from brains.registry import make_brain

    brain = make_brain("patterns,depth=10,seconds=none", "reversi", seed=0)
    small = new_game("reversi", size=6)
    rng = random.Random(3)
    while len(small.legal_moves()) and (small.black | small.white).bit_count() < 26:
        small = small.play(rng.choice(small.legal_moves()))
    thoughts = list(brain.think(small, brain.default_budget()))
    assert thoughts and thoughts[-1].move in small.legal_moves()
    assert max(t.depth for t in thoughts) == OTHER_DEPTH

def test_analyse_gives_every_move_its_search_value(tables: dict[str, Any]) -> None:
    from brains.pattern_search import MidgameSearch

    search = MidgameSearch(tables)
    s = states(11, 1, 20, 20)[0]
    values = search.values(s, None, 2, Budget())
    assert set(values) == {m for m in s.legal_moves() if m != PASS}
    for m, v in values.items():
        assert v == max(-1.0, min(1.0, -minimax(s.play(m), 1, tables) / 4096))
    budget = Budget()
    budget.stop.set()
    assert set(search.values(s, None, 3, budget)) == set(values)


def test_training_needs_data_and_all_takes_none(tmp_path: Path) -> None:
    from brains.train import MODELS, TrainError, train_and_save
    from tui.cli import main

    assert not any(kind == "patterns" for _, kind, _ in MODELS)
    with pytest.raises(Exception, match="give --data"):
        train_and_save("reversi", "patterns", games=10, out=tmp_path, evaluate=False)
    with pytest.raises(TrainError, match="takes no --data"):
        train_and_save("tictactoe", "linear", games=10, out=tmp_path, evaluate=False,
                       data=str(tmp_path))
    assert main(["train", "--all", "--data", str(tmp_path), "--out", str(tmp_path)]) == 2


@pytest.mark.slow
def test_train_command_from_a_folder_of_wthor_files(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from brains.learned import patterns
    from brains.train import train_and_save

    monkeypatch.setitem(patterns.DEFAULTS["reversi"], "selfplay", 2)  # 4000 by default
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(DATA / "formats" / "WTH_1977.wtb", folder)
    path, entry = train_and_save("reversi", "patterns", games=5, out=tmp_path / "models",
                                 evaluate=False, data=str(folder))
    assert entry["command"] == ("parlor train reversi patterns --games 5 --seed 0 --data games "
                                f"--out {tmp_path / 'models'}")
    assert entry["train_meta"]["games_used"] == 5 and path.exists()
    assert 0 < entry["train_meta"]["selfplay_positions"] <= 4


def test_importing_the_brain_does_not_import_numba() -> None:
    code = ("import sys, brains.registry, brains.learned.patterns, brains.pattern_search\n"
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_without_a_time_a_move_the_endgame_never_reads_the_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rated rungs (``seconds=none``) solve from EXACT_EMPTIES empty squares on without
    asking the clock-based estimate (so they play alike on any machine); with a time a
    move the estimate decides, and ``endgame_timed`` says which."""
    from brains import reversi_endgame
    from brains.heuristics.reversi import EXACT_EMPTIES
    from brains.registry import make_brain

    def estimate(*_args: Any, **_kwargs: Any) -> bool:
        raise AssertionError("the clock-based estimate was asked")

    monkeypatch.setattr(reversi_endgame, "can_settle", estimate)
    late = next(s for s in states(4, 40, 46, 52)
                if reversi_endgame.empties_of(s) <= EXACT_EMPTIES and len(s.legal_moves()) > 1)
    untimed = make_brain("patterns,depth=2,seconds=none", "reversi", seed=0)
    assert not untimed.endgame_timed
    [*_, last] = untimed.think(late, untimed.default_budget())
    assert last.note.startswith("exact:") and last.move in late.legal_moves()
    timed = make_brain("patterns,depth=2,seconds=1", "reversi", seed=0)
    assert timed.endgame_timed
    with pytest.raises(AssertionError, match="estimate was asked"):
        list(timed.think(late, timed.default_budget()))
