"""Hostile command lines and files: every bad number, file or model is one line on
stderr and exit status 2; nothing hangs (each check runs under a timeout)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tui.cli import COMMANDS, build_parser, main
from tui.cli.common import max_jobs


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str,
            timeout: float = 60) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``parlor ARGV``; fails (not hangs) on a hang."""
    box: list[Any] = []

    def target() -> None:
        try:
            box.append(main(list(argv)))
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"parlor {' '.join(argv)[:80]} hangs"
    out, err = capsys.readouterr()
    assert not isinstance(box[0], BaseException), repr(box[0])
    return box[0], out, err


def one_line_error(err: str, *parts: str) -> None:
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for part in parts:
        assert part in err, err


@pytest.mark.parametrize("argv, parts", [
    (("perft", "connect4", str(10**30)), ("depth", "allowed: 1 to 100")),
    (("perft", "connect4", "10**30"), ("depth", "not an integer", "allowed: 1 to 100")),
    (("perft", "tictactoe", "0"), ("allowed: 1 to 100",)),
    (("tournament", "tictactoe", "random", "greedy", "--bootstrap", "1000000000"),
     ("--bootstrap", "allowed: 0 to 10000")),
    (("tournament", "tictactoe", "random", "greedy", "--bootstrap", "-1"),
     ("--bootstrap", "allowed: 0 to 10000")),
    (("match", "tictactoe", "random", "greedy", "--jobs", "1000"),
     ("--jobs", f"allowed: 1 to {max_jobs()}")),
    (("match", "tictactoe", "random", "greedy", "--jobs", "0"), ("--jobs",)),
    (("match", "tictactoe", "random", "greedy", "--seconds", "nan"), ("--seconds", "86400")),
    (("match", "tictactoe", "random", "greedy", "--seconds", "-1"), ("--seconds",)),
    (("match", "tictactoe", "random", "greedy", "--games", "1" + "0" * 5000),
     ("--games", "not an integer")),
    (("match", "tictactoe", "random", "greedy", "--opening", "-1"), ("--opening",)),
    (("solve", "connect4", "44", "--seconds", "inf"), ("--seconds",)),
    (("engine", "--seed", "-5"), ("--seed", "allowed: 0 to")),
    (("train", "tictactoe", "linear", "--games", "-3"), ("--games",)),
])
def test_numbers_out_of_range_are_refused_with_the_range(capsys, argv, parts):
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == ""
    one_line_error(err, f"parlor {argv[0]}: ", *parts)
    assert len(err) < 300


OWNED_ELSEWHERE = {"play", "serve"}
"""Commands whose arguments are defined with the app and the web server."""


def test_every_number_argument_has_a_range():
    """No subcommand parses a number with a bare int or float (no range)."""
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    bare = []
    for name, sub in commands.items():
        if name in OWNED_ELSEWHERE:
            continue
        for action in sub._actions:
            if action.type in (int, float):
                bare.append(f"{name} {action.dest}")
    assert not bare, f"numbers without a range: {bare}"


def test_every_registered_command_exists():
    """A command module that does not exist is not skipped silently."""
    choices = build_parser()._subparsers._group_actions[0].choices
    assert list(choices) == list(COMMANDS)
    assert "bench" not in COMMANDS  # benchmarks run with `make bench` (python -m benchmarks)


def test_a_missing_command_module_is_an_error(monkeypatch):
    monkeypatch.setitem(COMMANDS, "ghost", "tui.cli.ghost")
    with pytest.raises(ModuleNotFoundError):
        build_parser()


def test_usage_errors_are_one_line(capsys):
    status, _, err = run_cli(capsys, "perft")
    assert status == 2
    one_line_error(err, "parlor perft: ", "--help")
    status, _, err = run_cli(capsys, "nosuchcommand" + "x" * 1000)
    assert status == 2 and len(err) < 400
    one_line_error(err, "parlor: ")


# --------------------------------------------------------------------------- models


def _model_folder(tmp_path: Path, manifest: str | None, model: bytes = b"x") -> Path:
    folder = tmp_path / "models"
    folder.mkdir()
    path = folder / "tictactoe-mlp.joblib"
    path.write_bytes(model)
    if manifest is not None:
        (folder / "manifest.json").write_text(manifest)
    return path


def test_a_manifest_of_deeply_nested_brackets_is_one_line(capsys, tmp_path):
    path = _model_folder(tmp_path, "[" * 100_000 + "]" * 100_000)
    status, _, err = run_cli(capsys, "match", "tictactoe", "random", f"mlp,model={path}",
                               "-n", "2")
    assert status == 2
    one_line_error(err, "parlor match: ")
    assert len(err) < 400


def test_a_damaged_model_with_a_matching_hash_is_one_line(capsys, tmp_path):
    data = b"this is not a joblib file"
    entry = {"sha256": hashlib.sha256(data).hexdigest()}
    path = _model_folder(tmp_path, json.dumps({"format": 1, "models": {
        "tictactoe-mlp.joblib": entry}}), data)
    status, _, err = run_cli(capsys, "match", "tictactoe", "random", f"mlp,model={path}",
                               "-n", "2")
    assert status == 2
    one_line_error(err, "parlor match: ")


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_an_unreadable_model_file_is_one_line(capsys, tmp_path, kind):
    folder = tmp_path / "models"
    folder.mkdir()
    path = folder / "tictactoe-mlp.joblib"
    if kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)
    (folder / "manifest.json").write_text(json.dumps(
        {"format": 1, "models": {"tictactoe-mlp.joblib": {"sha256": "0" * 64}}}))
    status, _, err = run_cli(capsys, "match", "tictactoe", "random", f"mlp,model={path}",
                               "-n", "2")
    assert status == 2
    one_line_error(err, "parlor match: ")


def test_a_system_refusal_from_a_command_is_one_line(capsys, monkeypatch):
    from tui.cli import perft

    def refused(args: argparse.Namespace) -> int:
        raise OSError(13, "Permission denied", "m.joblib")

    monkeypatch.setattr(perft, "run", refused)
    status, _, err = run_cli(capsys, "perft", "tictactoe", "2")
    assert status == 2
    one_line_error(err, "parlor perft: ")


@pytest.mark.parametrize("error", [RecursionError("maximum recursion depth exceeded"),
                                   KeyError(110), ValueError("not a ParlorError")])
def test_a_bug_in_a_command_is_reported_as_a_bug(capsys, monkeypatch, tmp_path, error):
    """Only ParlorError (and OSError) are the user's failures; anything else a command
    raises is a bug: a short message that says so, the traceback kept in a file."""
    from tui.cli import perft

    def broken(args: argparse.Namespace) -> int:
        raise error

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setattr(perft, "run", broken)
    status, out, err = run_cli(capsys, "perft", "tictactoe", "2")
    assert status == 70
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 2
    bug = f"parlor perft: internal error (a bug in Parlor): {type(error).__name__}"
    assert lines[0].startswith(bug)
    logs = list(tmp_path.rglob("crash-*.txt"))
    assert len(logs) == 1 and str(logs[0]) in lines[1]
    assert "Traceback" in logs[0].read_text() and "broken" in logs[0].read_text()


# --------------------------------------------------------------------------- files


def _special(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.txt"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "dangling":
        path.symlink_to(tmp_path / "nowhere")
    else:
        path.mkdir()
    return path


@pytest.mark.parametrize("kind", ["fifo", "zero", "dangling", "folder"])
@pytest.mark.parametrize("command", [("moves", "tictactoe"), ("replay",)])
def test_commands_read_only_regular_files(capsys, tmp_path, kind, command):
    path = _special(tmp_path, kind)
    status, _, err = run_cli(capsys, *command, str(path))
    assert status == 2
    one_line_error(err, f"parlor {command[0]}: {path}", "cannot read")


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_validate_refuses_special_files(capsys, tmp_path, kind):
    path = _special(tmp_path, kind)
    status, out, _ = run_cli(capsys, "validate", str(path))
    assert status == 1
    assert out.strip().startswith(f"{path}: line 1: cannot read") and len(out) < 200


def test_a_huge_move_is_quoted_short(capsys, tmp_path):
    src = tmp_path / "lines.txt"
    src.write_text("b2 " + "a" * 100_000 + "\nb2\n")
    status, out, _ = run_cli(capsys, "moves", "tictactoe", str(src))
    assert status == 1
    lines = out.splitlines()
    assert lines[0].startswith("error: line 1: invalid tictactoe move 'aaa") and len(lines[0]) < 200
    assert len(lines[1].split()) == 8


def test_moves_and_solve_on_stdin_skip_a_megabyte_line(capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("b2\n" + "c" * 1_000_000 + "\nb2 a1\n"))
    status, out, _ = run_cli(capsys, "moves", "tictactoe", "-")
    lines = out.splitlines()
    assert status == 1 and len(lines) == 3
    assert lines[1].startswith("error: line 2: line too long")
    assert len(lines[2].split()) == 7
    monkeypatch.setattr(sys, "stdin", io.StringIO("4" * 1_000_000 + "\n4455\n"))
    status, out, _ = run_cli(capsys, "solve", "connect4", "--stdin")
    assert status == 1
    assert out.splitlines() == ["error: line too long (more than 65536 characters); ignored",
                                "4455 18"]


def test_solve_warns_on_early_positions_and_honours_seconds(capsys):
    # without the opening book, which settles "44" at once
    status, out, err = run_cli(capsys, "solve", "connect4", "44", "--seconds", "0.3",
                               "--no-book")
    assert status == 1
    assert out.strip() == "44 stopped: not solved within 0.3 s"
    assert "may take very long" in err and "0.3 s" in err


def test_solve_answers_late_positions_within_seconds(capsys):
    status, out, err = run_cli(capsys, "solve", "connect4", "2252576253462244111563365343671351441",
                               "--seconds", "60")
    assert status == 0 and err == ""
    assert out.split()[1].lstrip("-").isdigit()
