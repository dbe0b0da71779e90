"""`parlor analyse`: the table, --json, writing the analysis back, and bad input."""

from __future__ import annotations

import json

import pytest

from brains.analysis import read_annotations
from engine.formats import load_records
from tests.brains.test_analysis import C4_BLUNDER, C4_TEXT, TTT_TEXT
from tui.cli import main

FAST = ["--search", "alphabeta,depth=2,seconds=none", "-q"]


@pytest.fixture
def c4(tmp_path):
    path = tmp_path / "c4.pgn"
    path.write_text(C4_TEXT)
    return path


@pytest.fixture
def ttt(tmp_path):
    path = tmp_path / "ttt.pgn"
    path.write_text(TTT_TEXT)
    return path


def test_json_marks_the_connect4_move_that_turns_a_win_into_a_loss(c4, capsys):
    # 3 s lets the solver settle the late positions even on a loaded machine; the
    # earlier ones fall back to a depth-2 search
    assert main(["analyse", str(c4), "--json", "--seconds", "3", *FAST]) == 0
    data = json.loads(capsys.readouterr().out)
    moves = {m["ply"]: m for m in data["moves"]}
    blunder = moves[C4_BLUNDER + 1]
    assert (blunder["move"], blunder["kind"], blunder["mark"], blunder["label"],
            blunder["change"], blunder["best"]) == ("7", "exact", "??", "blunder",
                                                    "win->loss", "2")
    assert blunder["before"]["outcome"] == "win" and blunder["after"]["outcome"] == "loss"
    # the compiled solver settles earlier positions too: every outcome change it reports
    # is exact and marked, the known blunder among them, and each side's tally agrees
    changed = [m for m in data["moves"] if m["change"]]
    assert C4_BLUNDER + 1 in [m["ply"] for m in changed]
    assert all(m["kind"] == "exact" and m["mark"] == "??" for m in changed)
    for side in (0, 1):  # ply p is played by side (p - 1) % 2
        mine = [m for m in changed if (m["ply"] - 1) % 2 == side]
        assert sum(data["players"][side]["changes"].values()) == len(mine)
        assert data["players"][1 - side]["gifts"] == len(mine)
    assert data["complete"] and len(data["evals"]) == 22 and data["evals"][-1] == "#+0"


def test_json_marks_the_tictactoe_blunder(ttt, capsys):
    assert main(["analyse", str(ttt), "--json", "-q"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(m["move"], m["mark"], m["change"]) for m in data["moves"] if m["mark"]] == [
        ("a3", "??", "draw->loss")]
    assert data["players"][0]["accuracy"] == 100.0 and data["players"][1]["marks"]["blunder"] == 1


def test_table_and_progress(ttt, capsys):
    assert main(["analyse", str(ttt)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["ply", "player", "move", "kind", "before", "after", "mark", "best"]
    assert "a3" in lines[5] and "?? blunder (draw->loss)" in lines[5] and "a1 (draw)" in lines[5]
    assert "player 2 (o): 3 moves" in out and "blunder 1" in out
    assert err.splitlines()[-1].startswith("analysed 7/7 moves")


def test_write_puts_the_analysis_in_a_new_file_next_to_the_input(ttt, capsys):
    before = ttt.read_text()
    assert main(["analyse", str(ttt), "--write", "-q"]) == 0
    assert main(["analyse", str(ttt), "--write", "-q"]) == 0
    first, second = ttt.with_name("ttt.analysed.pgn"), ttt.with_name("ttt.analysed-2.pgn")
    assert ttt.read_text() == before  # the input is never touched
    assert first.read_text() == second.read_text()
    rec, orig = load_records(first)[0], load_records(ttt)[0]
    assert (rec.moves, rec.result) == (orig.moves, orig.result)
    notes = read_annotations(rec)
    assert [n.index for n in notes if n.mark] == [4] and notes[4].best == "a1"


def test_output_elsewhere_keeps_the_other_games(tmp_path, capsys):
    src = tmp_path / "two.pgn"
    src.write_text(C4_TEXT + "\n" + TTT_TEXT)
    out = tmp_path / "out.pgn"
    assert main(["analyse", str(src), "--game", "2", "-o", str(out), "-q"]) == 0
    recs = load_records(out)
    assert [r.game for r in recs] == ["connect4", "tictactoe"]
    assert not recs[0].comments and recs[1].nags == {4: ["??"]}


def test_the_input_is_never_the_output(ttt, capsys):
    before = ttt.read_text()
    assert main(["analyse", str(ttt), "-o", str(ttt), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("parlor analyse:") and "input" in err and "\n" not in err
    assert ttt.read_text() == before


@pytest.mark.parametrize(("args", "words"), [
    (["--game", "3"], "holds 1 game"),
    (["--search", "alphabeta,depth=0"], "depth"),
    (["--search", "nosuchbrain"], "nosuchbrain"),
    (["--seconds", "0"], "out of range"),
])
def test_bad_arguments_are_one_line(ttt, capsys, args, words):
    assert main(["analyse", str(ttt), *args, "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err


def test_a_bad_record_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Game "tictactoe"]\n\n1. b2 b2 *\n')
    assert main(["analyse", str(bad), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("parlor analyse:") and "line 3" in err and "\n" not in err


def test_names_from_the_file_cannot_drive_the_terminal(tmp_path, capsys):
    path = tmp_path / "esc.pgn"
    path.write_text(TTT_TEXT.replace('[First "x"]', '[First "\x1b[2J\x9b31m"]'))
    assert main(["analyse", str(path), "-q"]) == 0
    assert main(["analyse", str(path), "-q", "--json"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x9b" not in out and "player 1 (?[2J?31m)" in out
