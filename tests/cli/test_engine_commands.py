"""The non-interactive engine commands: perft, moves, validate, games, and --help."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.registry import GAMES
from tests.conftest import DATA
from tui.cli import COMMANDS, build_parser, main

RECORDS = DATA / "records"


def test_perft_prints_one_line_per_depth(capsys):
    assert main(["perft", "tictactoe", "3"]) == 0
    assert capsys.readouterr().out.split("\n")[:3] == ["1 9", "2 72", "3 504"]


def test_perft_divide_lists_first_moves(capsys):
    assert main(["perft", "tictactoe", "2", "--divide"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["1 9", "2 72"] and "b2: 8" in out


def test_perft_unknown_game_is_one_clear_line(capsys):
    assert main(["perft", "chess", "2"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"parlor perft: unknown game 'chess'; known: {', '.join(GAMES)}"


def test_moves_reads_lines_and_reports_errors_inline(tmp_path, capsys):
    src = tmp_path / "lines.txt"
    src.write_text("b2 a1\n\nb2 b2\nc3\n")
    assert main(["moves", "tictactoe", str(src)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "b1 c1 a2 c2 a3 b3 c3"
    assert out[1].split() == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert out[2].startswith("error: line 3: illegal move 'b2'")
    assert len(out[3].split()) == 8


def test_validate_reports_each_file(capsys):
    good = RECORDS / "good" / "tictactoe-two-games.pgn"
    bad = RECORDS / "bad" / "illegal-move.pgn"
    assert main(["validate", str(good)]) == 0
    assert capsys.readouterr().out.strip() == f"{good}: ok (2 games)"
    assert main(["validate", str(good), str(bad), str(RECORDS / "nope.pgn")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(f"{bad}: game 1: line 4: ")
    assert lines[2] == f"{bad}: 0 of 1 games read, 1 damaged"
    assert lines[3].startswith(f"{RECORDS / 'nope.pgn'}: line 1: cannot read")


def test_games_lists_every_game(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for game in GAMES:
        assert f"{game} " in out
    assert "variant=" in out and "size=" in out


@pytest.mark.parametrize("command", [c for c in COMMANDS if c in
                                     build_parser()._subparsers._group_actions[0].choices])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    assert "usage: parlor " + command in capsys.readouterr().out


def test_engine_commands_do_not_load_heavy_libraries():
    code = ("import sys; from tui.cli import main; main(['perft', 'tictactoe', '2']); "
            "heavy = [m for m in ('textual', 'sklearn', 'numpy', 'joblib') if m in sys.modules]; "
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
