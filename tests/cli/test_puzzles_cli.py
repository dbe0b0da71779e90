"""`parlor puzzles`: build (deterministic, with progress), list, show, play in the
terminal by reading move lines, and bad input as one line."""

from __future__ import annotations

import io
import json

import pytest

from brains import puzzles
from tui.cli import main


@pytest.fixture
def built(tmp_path):
    """A small tic-tac-toe puzzle file built by the command."""
    folder = tmp_path / "out"
    assert main(["puzzles", "--build", "--game", "tictactoe", "--count", "6", "--seed", "3",
                 "--out", str(folder)]) == 0
    return folder


def test_build_writes_the_file_and_its_manifest_the_same_each_time(built, tmp_path, capsys):
    again = tmp_path / "again"
    capsys.readouterr()
    assert main(["puzzles", "--build", "--game", "tictactoe", "--count", "6", "--seed", "3",
                 "--out", str(again)]) == 0
    out = capsys.readouterr()
    assert "tictactoe: 6 puzzles" in out.out and "6/6 puzzles" in out.err
    first = (built / "tictactoe.jsonl").read_bytes()
    assert first == (again / "tictactoe.jsonl").read_bytes()
    manifest = json.loads((built / "manifest.json").read_text())
    entry = manifest["files"]["tictactoe.jsonl"]
    assert entry["count"] == 6 and entry["bytes"] == len(first) and entry["seed"] == 3
    assert entry["command"] == "parlor puzzles --build --game tictactoe --count 6 --seed 3"


def test_list_and_show(built, capsys):
    capsys.readouterr()
    path = str(built / "tictactoe.jsonl")
    assert main(["puzzles", "--file", path, "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = puzzles.read_puzzles(path)[0]
    assert len(lines) == 6 and first.id in lines[0] and first.position in lines[0]
    assert main(["puzzles", "--file", path, "--show", "1"]) == 0
    out = capsys.readouterr().out
    assert first.prompt() in out and f"solution: {first.solution}" in out
    assert main(["puzzles", "--file", path, "--show", "7"]) == 2


def test_play_reads_moves_and_answers(built, capsys, monkeypatch):
    path = str(built / "tictactoe.jsonl")
    found = puzzles.read_puzzles(path)
    wrong = found[1].wrong[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{found[0].solution}\nzz\n{wrong.move}\nq\n"))
    capsys.readouterr()
    assert main(["puzzles", "--file", path]) == 0
    out = capsys.readouterr().out
    assert f"right: {found[0].solution} keeps the {found[0].goal}" in out
    assert "invalid tictactoe move 'zz'" in out
    assert f"wrong ({wrong.value})" in out and f"the move was {found[1].solution}" in out
    assert "solved 1 of 2" in out


def test_a_damaged_file_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "parlor-puzzles", "version": 1}\n{"id": 3}\n')
    assert main(["puzzles", "--file", str(bad), "--list"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("parlor puzzles: bad.jsonl: line 2") and "\n" not in err
    assert main(["puzzles", "--build", "--game", "gomoku", "--count", "1",
                 "--out", str(tmp_path)]) == 2
    assert "no exact solver" in capsys.readouterr().err
