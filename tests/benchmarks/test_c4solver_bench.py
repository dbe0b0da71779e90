"""The Connect Four solver benchmark's peer run of Pons' solver (benchmarks/c4solver.py),
with a stand-in program that speaks his command line."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks import c4solver as bench

STAND_IN = """#!{python}
import sys
assert sys.argv[1:] == ["-b", {devnull!r}]
scores = {scores!r}
for line in sys.stdin:
    line = line.strip()
    print(line, scores.get(line, 0) + {shift})
"""


def stand_in(tmp_path: Path, middle: dict[str, Any], shift: int = 0) -> Path:
    """A program answering as Pons' solver would: each position's score (as ours found
    it, plus ``shift``)."""
    scores = {r["moves"]: r["score"] for r in middle["compiled"]["positions"]}
    path = tmp_path / "c4solver"
    path.write_text(STAND_IN.format(python=sys.executable, devnull=os.devnull, shift=shift,
                                    scores=scores))
    path.chmod(0o755)
    return path


@pytest.fixture()
def middle() -> dict[str, Any]:
    return bench.middle_game(3, 14, 16, seed=2, python=False, verbose=False)


def test_the_peer_solves_the_same_positions(tmp_path: Path, middle: dict[str, Any]) -> None:
    peer = bench.against_pons(stand_in(tmp_path, middle), middle)
    ours = middle["compiled"]["positions"]
    assert [r["moves"] for r in peer["positions"]] == [r["moves"] for r in ours]
    assert peer["same_scores"] is True
    assert peer["ratio"] > 0 and peer["start_up_s"] >= 0
    assert all(r["cpu_s"] >= 0 for r in peer["positions"])


def test_a_disagreeing_peer_is_reported(tmp_path: Path, middle: dict[str, Any]) -> None:
    assert bench.against_pons(stand_in(tmp_path, middle, shift=1), middle)["same_scores"] is False


def test_a_peer_answering_another_line_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c4solver"
    path.write_text(f"#!{sys.executable}\nimport sys\nsys.stdin.read()\nprint('4 0')\n")
    path.chmod(0o755)
    with pytest.raises(ValueError, match="answered"):
        bench.pons_time(path, "1212")


def test_without_the_program_nothing_more_is_measured(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    assert bench.main(["--middle", "1", "--p95", "0", "--no-python",
                       "--pons", str(tmp_path / "none")]) == 0
    assert "Pons' solver not measured" in capsys.readouterr().out
