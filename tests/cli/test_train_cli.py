"""``parlor train``: a summary and a JSON line for good runs, one-line errors (exit 2)
for bad arguments, never a traceback."""

from __future__ import annotations

import json

import pytest

from brains.learned.store import read_manifest, sha256_of
from tui.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_train_prints_a_summary_and_progress(capsys, tmp_path):
    status, out, err = run_cli(capsys, "train", "tictactoe", "linear", "--games", "30",
                               "--seed", "4", "--out", str(tmp_path), "--no-eval")
    assert status == 0
    path = tmp_path / "tictactoe-linear.joblib"
    assert str(path) in out and sha256_of(path) in out
    assert "30 games, seed 4" in out and "strength not measured" in out
    assert "30/30 games" in err
    assert read_manifest(tmp_path)[path.name]["command"] == (
        f"parlor train tictactoe linear --games 30 --seed 4 --out {tmp_path}")


def test_train_json_is_the_manifest_entry(capsys, tmp_path):
    status, out, _ = run_cli(capsys, "train", "tictactoe", "linear", "-n", "20",
                             "--out", str(tmp_path), "--json")
    assert status == 0
    line = json.loads(out.strip().splitlines()[-1])
    entry = read_manifest(tmp_path)["tictactoe-linear.joblib"]
    assert line["sha256"] == entry["sha256"] and line["games"] == 20
    assert set(line["strength"]) >= {"vs_random", "vs_greedy"}


@pytest.mark.parametrize("argv, message", [
    (("train", "chess", "linear"), "unknown game 'chess'"),
    (("train", "tictactoe", "deep"), "unknown learned kind 'deep'"),
    (("train", "tictactoe", "linear", "--games", "0"),
     "--games: '0' is out of range; allowed: 1 to"),
    (("train", "tictactoe", "linear", "--jobs", "0"), "--jobs: '0' is out of range; allowed: 1 to"),
    (("train", "tictactoe", "linear", "--jobs", "1000"), "--jobs: '1000' is out of range"),
    (("train", "tictactoe", "linear", "--seed", "-1"), "--seed: '-1' is out of range"),
    (("train", "tictactoe"), "give GAME and KIND"),
    (("train", "tictactoe", "linear", "--all"), "either GAME KIND or --all"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, tmp_path, argv, message):
    status, out, err = run_cli(capsys, *argv, "--out", str(tmp_path))
    assert status == 2
    assert out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_kind_that_does_not_apply_exits_2(capsys, tmp_path, monkeypatch):
    import brains.learned.linear as linear

    monkeypatch.setattr(linear, "GAMES", ("tictactoe",))
    status, _, err = run_cli(capsys, "train", "reversi", "linear", "--out", str(tmp_path))
    assert status == 2 and "does not apply to reversi" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, message", [
    (("train", "--all", "--games", "3"), "drop --games and --seed"),
    (("train", "--all", "--seed", "3"), "drop --games and --seed"),
    (("train", "--all", "--jobs", "0"), "--jobs: '0' is out of range; allowed: 1 to"),
])
def test_bad_all_arguments_exit_2_with_one_line(capsys, tmp_path, argv, message):
    status, out, err = run_cli(capsys, *argv, "--no-eval", "--out", str(tmp_path))
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("all_models", [False, True])
def test_bad_out_folder_fails_before_training_with_one_line(capsys, tmp_path, monkeypatch,
                                                           all_models):
    import brains.learned.linear as linear

    def no_training(*args, **kwargs):
        raise AssertionError("trained although --out is unusable")

    monkeypatch.setattr(linear, "train", no_training)
    if all_models:
        monkeypatch.setattr("brains.train.train_and_save", no_training)
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    argv = ("--all",) if all_models else ("tictactoe", "linear")
    status, out, err = run_cli(capsys, "train", *argv, "--no-eval",
                               "--out", str(not_a_folder / "models"))
    assert status == 2 and out == ""
    assert f"{not_a_folder / 'models'}: cannot be a models folder" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
