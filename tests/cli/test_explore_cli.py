"""`parlor explore`: the table, --json with the same rows, several files, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.record import GameRecord, save_records
from engine.registry import new_game
from tui.cli import main
from tui.player import explorer

FORMATS = Path(__file__).parent.parent / "data" / "formats"
WTHOR = str(FORMATS / "WTH_1977.wtb")
TRANSCRIPTS = str(FORMATS / "othello-transcripts.txt")


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private data directory: the indexes go there."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["explore", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_rows_are_the_index_counts(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, WTHOR, TRANSCRIPTS, "--moves", "f5")
    assert data["game"] == "reversi" and data["moves"] == ["f5"] and data["to_move"] == "White"
    indexes = [explorer.open_index(explorer.file_collection(f)) for f in (WTHOR, TRANSCRIPTS)]
    state = new_game("reversi").play_line("f5")
    rows = explorer.lookup(indexes, state)
    assert [(r["move"], r["games"], r["wins"], r["draws"], r["losses"]) for r in data["rows"]] \
        == [(r.text, r.games, r.wins, r.draws, r.losses) for r in rows]
    assert data["games"] == sum(r.games for r in rows) > 12
    for row in data["rows"]:
        decided = row["wins"] + row["draws"] + row["losses"]
        assert row["win"] == round(100 * row["wins"] / decided, 1)
        assert row["exact"] is None  # far too many empties for the endgame solver
    assert [c["games"] for c in data["collections"]] == [12, 37]
    assert all(c["built"] for c in data["collections"])  # the command built them
    assert not any(index.built for index in indexes)  # and kept them


def test_the_table_has_a_row_per_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", WTHOR, "--moves", "f5"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0] == "reversi, after f5: White to move; 12 games went on from here"
    assert lines[1].split() == ["move", "games", "win", "%", "draw", "%", "loss", "%", "exact"]
    table = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    assert table == {"f6": ["7", "57.1", "0.0", "42.9"], "d6": ["4", "25.0", "0.0", "75.0"],
                     "f4": ["1", "100.0", "0.0", "0.0"]}
    assert captured.err == ""
    index = explorer.file_collection(WTHOR).index_path
    assert index.is_file()  # the first run built the index, the second keeps it
    stamp = index.stat().st_mtime_ns
    assert main(["explore", WTHOR, "--moves", "f5"]) == 0
    assert capsys.readouterr().out == captured.out and index.stat().st_mtime_ns == stamp


def test_exact_values_where_the_solver_settles_the_position(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ttt.pgn"
    games = []
    for line in ("a1 b2 a2 a3 c1 b1 c3 c2 b3", "a1 b2 c3 a3 c1 b1 b3 a2"):
        state, moves = new_game("tictactoe"), []
        for text in line.split():
            moves.append(state.parse_move(text))
            state = state.play(moves[-1])
        games.append(GameRecord.from_moves(new_game("tictactoe"), moves, Date="2026.01.02",
                                           Result="1/2-1/2", Termination="agreement"))
    save_records(path, games)
    data = run_json(capsys, str(path), "--moves", "a1 b2", "--exact-seconds", "30")
    assert {r["move"]: r["exact"]["outcome"] for r in data["rows"]} == {"a2": "draw",
                                                                       "c3": "draw"}
    assert main(["explore", str(path), "--moves", "a1 b2", "--exact-seconds", "30"]) == 0
    assert capsys.readouterr().out.splitlines()[2].endswith("draw")
    data = run_json(capsys, str(path), "--moves", "a1 b2", "--exact-seconds", "0")
    assert all(r["exact"] is None for r in data["rows"])


def test_a_file_named_twice_counts_once(capsys: pytest.CaptureFixture[str]) -> None:
    once = run_json(capsys, WTHOR, "--moves", "f5")
    twice = run_json(capsys, WTHOR, str(Path(WTHOR).parent / ".." / "formats" / "WTH_1977.wtb"),
                     "--moves", "f5")
    assert twice["rows"] == once["rows"] and twice["games"] == 12
    assert len(twice["collections"]) == 1


def test_a_position_no_game_reached(capsys: pytest.CaptureFixture[str]) -> None:
    state = new_game("reversi").play_line("f5 f6")
    index = explorer.open_index(explorer.file_collection(WTHOR))
    played = {row.text for row in explorer.lookup([index], state)}
    unplayed = next(state.format_move(m) for m in state.legal_moves()
                    if state.format_move(m) not in played)
    line = f"f5 f6 {unplayed}"
    assert main(["explore", WTHOR, "--moves", line]) == 0
    out = capsys.readouterr().out
    assert "no game in the collections reached this position" in out
    data = run_json(capsys, WTHOR, "--moves", line)
    assert data["rows"] == [] and data["games"] == 0


def test_no_file_explores_your_own_games(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.player import store

    state, moves = new_game("connect4"), []
    for text in ("4", "4", "3", "5"):
        moves.append(state.parse_move(text))
        state = state.play(moves[-1])
    store.GameFile().save(GameRecord.from_moves(new_game("connect4"), moves,
                                                Date="2026.01.02", Result="0-1",
                                                Termination="resignation"))
    data = run_json(capsys, "--moves", "4", "--exact-seconds", "0")
    assert data["game"] == "connect4" and data["collections"][0]["source"] == "your games"
    # Yellow, to move after 4, answered 4 and won (Red resigned)
    assert [(r["move"], r["games"], r["wins"], r["losses"]) for r in data["rows"]] \
        == [("4", 1, 1, 0)]


def test_databases_among_your_saved_games_are_explored_too(
        capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from tui.player import paths

    paths.saved_games_dir().mkdir(parents=True)
    shutil.copy(WTHOR, paths.saved_games_dir() / "WTH_1977.wtb")
    data = run_json(capsys, "--moves", "f5")
    assert [c["source"] for c in data["collections"]] == ["your games", "WTH_1977.wtb"]
    assert data["games"] == 12
    # named as well, it counts once
    data = run_json(capsys, str(paths.saved_games_dir() / "WTH_1977.wtb"), "--mine")
    assert data["games"] == 12 and len(data["collections"]) == 2


@pytest.mark.parametrize(("argv", "needle"), [
    (["/nonexistent/games.pgn"], "games.pgn"),
    ([WTHOR, "--moves", "zz"], "invalid reversi move"),
    ([WTHOR, "--moves", "a1"], "illegal move"),
    ([WTHOR, "--game", "nosuchgame"], "nosuchgame"),
    ([WTHOR, TRANSCRIPTS, str(FORMATS / "tinsley-1946-1954.pdn")], "several games"),
    ([], "no games to explore"),
])
def test_bad_input_is_one_line(argv: list[str], needle: str,
                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    # a slow build may say so first; the error itself is one line, the last
    assert [line for line in err if line.startswith("parlor explore:")] == err[-1:]
    assert needle in err[-1] and all(line.startswith("indexed ") for line in err[:-1])


def test_a_binary_file_that_is_no_game_file_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.pgn"
    path.write_bytes(b"\x7fELF\x00\x00garbage" * 100)
    assert main(["explore", str(path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
