"""The explorer benchmark on a few games: seeded games, and a line per figure."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.explorer import main, percentile, random_games
from engine.registry import new_game


def test_random_games_are_seeded_and_finished() -> None:
    a, b = random_games("connect4", 3, 5), random_games("connect4", 3, 5)
    assert a == b and a != random_games("connect4", 3, 6)
    for moves in a:
        state = new_game("connect4")
        for move in moves:
            state = state.play(move)
        assert state.outcome() is not None


def test_percentile_is_a_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 95.0 and percentile(values, 0.5) == 50.0
    assert percentile([3.0], 0.95) == 3.0


def test_the_benchmark_prints_build_check_and_query_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "unused"))
    assert main(["--games", "60", "--per-file", "25", "--queries", "20",
                 "--keep", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("wrote 60 random connect4 games in 3 files")
    assert out[1].startswith("build: ") and "for 60 games" in out[1]
    assert out[2].startswith("check: ") and "4 kept" not in out[2] and "3 kept" in out[2]
    assert out[3].startswith("query: 20 positions (20 with rows; the start position: 60 games)")
    assert len(list((tmp_path / "run" / "data").rglob("*.sqlite"))) == 3
