"""The shipped puzzle files: listed in their manifest with size and sha256, distinct up to
symmetry, and a seeded sample of each re-proved unique by the exact solver (the whole
check: ``python -m benchmarks.puzzles``)."""

from __future__ import annotations

import random
import shutil

import pytest

from brains import puzzles
from brains.heuristics import game_module
from engine.protocol import ParlorError
from engine.registry import get_game

SOLVED = ("connect4", "morris", "reversi", "tictactoe")
SAMPLE = 6


def test_every_solvable_game_ships_puzzles() -> None:
    assert set(puzzles.shipped_games()) == set(SOLVED)


@pytest.mark.parametrize("game", SOLVED)
def test_a_sample_of_the_shipped_puzzles_is_proven_unique(game: str) -> None:
    shipped = puzzles.load_shipped(game)
    assert len(shipped) >= (100 if game == "tictactoe" else 1000)
    assert len({p.id for p in shipped}) == len(shipped)
    key = game_module(game).canonical_key
    assert len({key(p.state()) for p in shipped}) == len(shipped)
    assert all(p.accepted == (p.solution,) and p.goal in ("win", "draw") for p in shipped)
    cache: dict = {}
    for puzzle in random.Random(game).sample(shipped, SAMPLE):
        assert puzzles.prove(puzzle, cache) is None, puzzle.id
        assert puzzle.state().play_text(puzzle.solution).outcome() is None  # not a win in one
        wrong = puzzle.wrong[0]
        if wrong.line:  # the refutation starts with one of the solver's best replies
            after = puzzle.state().play_text(wrong.move)
            values = puzzles.exact_values(after, cache)
            assert values is not None
            top = max(v.rank() for v in values.values())
            assert values[after.parse_move(wrong.line[0])].rank() == top


def test_the_shipped_tictactoe_file_holds_every_tictactoe_puzzle() -> None:
    key = game_module("tictactoe").canonical_key
    seen, stack = {}, [get_game("tictactoe").initial()]
    while stack:
        state = stack.pop()
        if key(state) not in seen:
            seen[key(state)] = state
            if state.outcome() is None:
                stack += [state.play(m) for m in state.legal_moves()]
    cache: dict = {}
    every = {k for k, s in seen.items() if puzzles.judge(s, cache, refute=False) is not None}
    assert {key(p.state()) for p in puzzles.load_shipped("tictactoe")} == every


def test_a_changed_puzzle_file_is_refused(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "puzzles"
    shutil.copytree(puzzles.puzzles_dir(), folder)
    monkeypatch.setattr(puzzles, "puzzles_dir", lambda: folder)
    monkeypatch.setattr("saved.data_path", lambda package, *parts: tmp_path.joinpath(*parts))
    data = (folder / "tictactoe.jsonl").read_bytes()
    (folder / "tictactoe.jsonl").write_bytes(data.replace(b'"win"', b'"draw"', 1))
    with pytest.raises(ParlorError, match=r"does not match manifest\.json"):
        puzzles.load_shipped("tictactoe")
    (folder / "tictactoe.jsonl").unlink()
    with pytest.raises(ParlorError, match="missing"):
        puzzles.load_shipped("tictactoe")


def test_the_puzzle_files_are_package_data() -> None:
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["saved"]
    files = [p.relative_to(root / "saved").as_posix()
             for p in (root / "saved" / "puzzles").iterdir()]
    assert "manifest.json" in " ".join(files)
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name
