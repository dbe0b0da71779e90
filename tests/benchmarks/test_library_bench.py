"""The large-file benchmark on a small file: it writes, indexes, validates and lists."""

from __future__ import annotations

import pytest

from benchmarks.library import main, random_games


def test_random_games_are_seeded_and_finished() -> None:
    a, b = random_games(3, 5), random_games(3, 5)
    assert [r.moves for r in a] == [r.moves for r in b]
    assert all(r.final().outcome() is not None for r in a)


def test_the_benchmark_prints_a_row_per_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "40", "--distinct", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("wrote 40 games (4 distinct random ones")
    assert out[1].split()[:3] == ["file", "games", "index"]
    row = out[2].split()
    assert row[0] == "WTH_random_40.wtb" and row[1] == "40" and len(row) == 6
