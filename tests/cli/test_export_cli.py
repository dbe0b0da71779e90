"""`parlor export` and `parlor validate` on other programs' files."""

from __future__ import annotations

from engine.formats import load_collection, load_records
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


DAMAGED = FORMATS / "tinsley-damaged.pdn"
"""20 games of the CheckerBoard Tinsley archive, three of them damaged at the source."""


def test_validate_names_every_damaged_game_and_counts_the_good_ones(capsys):
    status, out, _ = run_cli(capsys, "validate", str(DAMAGED), str(FORMATS / "WTH_1977.wtb"))
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == (f"{DAMAGED}: game 3: line 36: move 123: illegal move '32-28' for "
                        "Black at ply 122")
    assert lines[1].startswith(f"{DAMAGED}: game 8: line 86: move 31: '8-11Redover")
    assert lines[2].startswith(f"{DAMAGED}: game 18: line 195: move 34: '26-22White")
    assert lines[3] == f"{DAMAGED}: 17 of 20 games read, 3 damaged"
    assert lines[4].endswith("WTH_1977.wtb: ok (12 games)") and len(lines) == 5


def test_export_leaves_out_damaged_games_and_what_it_writes_reads_back(capsys, tmp_path):
    good = load_collection(DAMAGED).records
    for fmt in ("pdn", "pgn"):
        out = tmp_path / f"good.{fmt}"
        status, _, err = run_cli(capsys, "export", str(DAMAGED), "-f", fmt, "-o", str(out))
        assert status == 1 and err.count("left out ") == 3
        assert "17 of 20 games written, 3 damaged left out\n" in err
        back = load_collection(out)
        assert not back.damaged and [r.moves for r in back.records] == [r.moves for r in good]
        assert [r.result for r in back.records] == [r.result for r in good]
        status, _, err = run_cli(capsys, "validate", str(out))
        assert status == 0 and err == ""
    # game 13 goes on after a threefold repetition, which ends it in a draw (docs/RULES.md)
    played_on = good[10]
    assert played_on.result == "1/2-1/2" and played_on.final().outcome() is not None
    assert "goes on for 34 more moves after the threefold repetition, and gives 0-1" in \
        played_on.comments[len(played_on.moves)]


def test_export_of_a_file_whose_every_game_is_damaged_writes_nothing(capsys, tmp_path):
    status, _, err = run_cli(capsys, "export", str(FORMATS / "tinsley-glued-comment.pdn"),
                             "-f", "pgn", "-o", str(tmp_path / "x.pgn"))
    assert status == 2 and "no game of the file reads" in err and err.count("\n") == 1
    assert not (tmp_path / "x.pgn").exists()


def test_replay_game_n_refuses_a_damaged_game_or_a_number_the_file_lacks(capsys):
    status, _, err = run_cli(capsys, "replay", str(DAMAGED), "--game", "3")
    assert status == 2 and err == (f"parlor replay: {DAMAGED}: game 3: line 36: move 123: "
                                   "illegal move '32-28' for Black at ply 122\n")
    status, _, err = run_cli(capsys, "replay", str(DAMAGED), "--game", "21")
    assert status == 2 and err == (f"parlor replay: {DAMAGED} holds 20 games; --game takes "
                                   "1 to 20\n")
