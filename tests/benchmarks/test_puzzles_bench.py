"""benchmarks.puzzles re-proves shipped puzzles and reports each game on one line; a
puzzle that no longer holds makes its exit status 1."""

from __future__ import annotations

import json

from benchmarks import puzzles as bench
from brains import puzzles


def test_the_benchmark_reproves_the_first_puzzles(capsys) -> None:
    assert bench.main(["--game", "connect4", "--limit", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "connect4" and result["puzzles"] == 3
    assert result["failures"] == 0 and result["distinct"]


def test_a_false_puzzle_fails_the_benchmark(monkeypatch, capsys) -> None:
    real = puzzles.load_shipped("tictactoe")[:4]
    first = real[0]
    wrong = first.wrong[0].move
    false = puzzles.Puzzle.from_json(first.to_json() | {"solution": wrong, "accepted": [wrong]})
    monkeypatch.setattr(puzzles, "load_shipped", lambda game: [false, *real[1:]])
    assert bench.main(["--game", "tictactoe"]) == 1
    out = capsys.readouterr().out
    assert "1 failures" in out and first.id in out
