"""The self-play labels benchmark (benchmarks/pattern_selfplay.py) on a tiny run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks import pattern_selfplay
from tests.conftest import DATA


def test_without_data_it_measures_nothing(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert pattern_selfplay.main(["--data", str(tmp_path)]) == 0
    assert "nothing measured" in capsys.readouterr().out


def test_both_fits_are_scored_by_phase(tmp_path: Path) -> None:
    shutil.copy(DATA / "formats" / "WTH_1977.wtb", tmp_path)
    result = pattern_selfplay.measure(str(tmp_path), 12, 6, 4, (8, 9))
    assert set(result["fits"]) == {"wthor", "wthor+selfplay"}
    assert 0 < result["selfplay_positions"] <= 12 and 0 < result["test_positions"] <= 8
    for rows in result["fits"].values():
        assert set(rows) == {"8", "9"}
        assert sum(row["selfplay_n"] for row in rows.values()) == result["test_positions"]
        assert all(row["wthor_rmse"] >= 0 and row["wthor_n"] > 0 for row in rows.values())
    # the self-play positions change the fit of their phases
    assert result["fits"]["wthor"] != result["fits"]["wthor+selfplay"]
