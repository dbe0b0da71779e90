"""Command-line tests of ``parlor match`` and ``parlor tournament``: the JSON line, the
table, saved records, parallel runs and clear errors."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.formats import load_records
from tui.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``parlor ARGV`` run in this process."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_match_json_line_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "match", "tictactoe", "greedy", "random",
                               "--games", "12", "--seed", "7", "--json")
    assert status == 0
    line = json.loads(out.strip().splitlines()[-1])
    assert (line["game"], line["a"], line["b"], line["games"]) == ("tictactoe", "greedy",
                                                                   "random", 12)
    assert line["a_wins"] + line["b_wins"] + line["draws"] == 12
    assert line["a_score"] == pytest.approx((line["a_wins"] + line["draws"] / 2) / 12)
    lo, hi = line["elo_ci95"]
    assert lo <= line["elo_diff"] <= hi
    assert line["a_score"] > 0.5 and line["elo_diff"] > 0  # greedy beats random
    assert "greedy" in out and "as X" in out and "Elo difference" in out
    assert "12/12 games" in err  # plain progress when stderr is not a terminal


def test_match_is_reproducible_and_parallel_runs_agree(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("match", "tictactoe", "random", "greedy", "--games", "6", "--seed", "2", "--json")
    lines = []
    for jobs in ("1", "2", "1"):
        status, out, _ = run_cli(capsys, *args, "--jobs", jobs)
        assert status == 0
        lines.append(out.strip().splitlines()[-1])
    assert lines[0] == lines[1] == lines[2]
    _, other, _ = run_cli(capsys, *args[:-3], "--seed", "3", "--json", "--opening", "6")
    assert json.loads(other.splitlines()[-1])["games"] == 6


def test_save_writes_records_that_load_and_replay(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    folder = tmp_path / "games"
    status, out, _ = run_cli(capsys, "match", "reversi", "random", "greedy", "--games", "4",
                             "-o", "size=6", "-o", "variant=flipcolor", "--save", str(folder),
                             "--json")
    assert status == 0
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"reversi-00{i}.pgn" for i in range(1, 5)]
    results = []
    for i, path in enumerate(files):
        (record,) = load_records(path)
        assert record.options["size"] == 6 and record.options["variant"] == "flipcolor"
        assert record.tags["First"] == ("random" if i % 2 == 0 else "greedy")
        assert record.final().outcome() is not None
        results.append(record.result)
    line = json.loads(out.splitlines()[-1])
    a_wins = sum(r == ("1-0" if i % 2 == 0 else "0-1") for i, r in enumerate(results))
    assert line["a_wins"] == a_wins and line["draws"] == results.count("1/2-1/2")


@pytest.mark.parametrize("argv, message", [
    (["match", "tictactoe", "greedy", "wizard"], "unknown brain 'wizard'"),
    (["match", "chess", "greedy", "random"], "unknown game 'chess'"),
    (["match", "tictactoe", "greedy", "random", "-o", "size=4"], "unknown option 'size'"),
    (["match", "tictactoe", "greedy", "random", "--games", "0"], "--games"),
    (["match", "checkers", "perfect", "random"], "perfect"),
    (["tournament", "tictactoe", "random", "random"], "only once"),
    (["tournament", "tictactoe", "random", "greedy", "--variants"], "no variants"),
])
def test_bad_input_is_one_clear_line_and_status_2(capsys: pytest.CaptureFixture[str],
                                                 argv: list[str], message: str) -> None:
    status, out, err = run_cli(capsys, *argv)
    assert status == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert err.startswith(f"parlor {argv[0]}: ") and out == ""


def test_bad_spec_in_a_real_process_has_no_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "tui.cli", "match", "tictactoe", "greedy",
                           "alphabeta:impossible"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "unknown level" in proc.stderr


def test_tournament_tables_and_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run_cli(capsys, "tournament", "reversi", "random", "greedy", "first",
                             "--games", "2", "-o", "size=4", "--variants",
                             "--csv", str(tmp_path / "t.csv"), "--json", str(tmp_path / "t.json"),
                             "--bootstrap", "20")
    assert status == 2  # 'first' is not a brain: nothing runs, nothing is written
    assert not (tmp_path / "t.csv").exists()
    status, out, _ = run_cli(capsys, "tournament", "reversi", "random", "greedy", "--games", "2",
                             "-o", "size=4", "--variants", "--csv", str(tmp_path / "t.csv"),
                             "--json", str(tmp_path / "t.json"), "--bootstrap", "20")
    assert status == 0
    assert out.count("round robin") == 3 and "variant=flipcolor" in out
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    variants = ["standard"] * 2 + ["randomstart"] * 2 + ["flipcolor"] * 2
    assert [r["variant"] for r in rows] == variants
    for variant in ("standard", "randomstart", "flipcolor"):
        pair = {r["player"]: r for r in rows if r["variant"] == variant}
        assert float(pair["random"]["vs greedy"]) + float(pair["greedy"]["vs random"]) == 1.0
    data = json.loads((tmp_path / "t.json").read_text())
    assert [t["options"]["variant"] for t in data["tournaments"]] == ["standard", "randomstart",
                                                                      "flipcolor"]
    for t in data["tournaments"]:
        (pair,) = t["pairs"]
        assert pair["games"] == 2 and t["table"]["random"]["greedy"] == pair["a_score"]
        assert {r["player"] for r in t["ratings"]} == {"random", "greedy"}
