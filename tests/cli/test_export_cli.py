"""`parlor export` and `parlor validate` on other programs' files."""

from __future__ import annotations

from engine.record import load_records
from tests.cli.test_hostile_input import run_cli
from tests.conftest import DATA

FORMATS = DATA / "formats"


def test_validate_reads_real_files_in_their_own_formats(capsys):
    status, out, _ = run_cli(capsys, "validate", str(FORMATS / "tinsley-1946-1954.pdn"),
                             str(FORMATS / "othello-transcripts.txt"))
    assert status == 0
    assert "tinsley-1946-1954.pdn: ok (200 games)" in out
    assert "othello-transcripts.txt: ok (37 games)" in out


def test_export_writes_each_format_and_reads_back(capsys, tmp_path):
    source = FORMATS / "othello-transcripts.txt"
    games = load_records(source)
    for fmt in ("ggf", "wtb", "transcript", "pgn"):
        out = tmp_path / f"games.{fmt}"
        status, _, err = run_cli(capsys, "export", str(source), "--format", fmt, "-o", str(out))
        assert status == 0, err
        back = load_records(out)
        assert [r.moves for r in back] == [r.moves for r in games]
        assert [r.result for r in back] == [r.result for r in games]
    status, out, _ = run_cli(capsys, "export", str(FORMATS / "features.pdn"), "-f", "pdn")
    assert status == 0 and out.count('[GameType "21"]') == 2


def test_export_refusals_are_one_line(capsys, tmp_path):
    status, _, err = run_cli(capsys, "export", str(FORMATS / "features.pdn"), "-f", "ggf")
    assert status == 2 and "GGF holds reversi only" in err and err.count("\n") == 1
    status, _, err = run_cli(capsys, "export", str(FORMATS / "othello-transcripts.txt"),
                             "-f", "wtb")
    assert status == 2 and "binary" in err
    status, _, err = run_cli(capsys, "export", str(tmp_path / "none.pdn"), "-f", "pdn")
    assert status == 2 and "cannot read" in err
