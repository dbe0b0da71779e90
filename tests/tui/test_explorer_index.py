"""The opening explorer's index (tui.player.explorer): its counts against a plain count
over the same games, transpositions and mirror images counted together, rebuilding when
the collection changes, the player's own games, and bad files."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.formats import load_records
from engine.protocol import ParlorError, State
from engine.record import GameRecord, save_records
from engine.registry import new_game
from tui.player import explorer, paths, store

FORMATS = Path(__file__).parent.parent / "data" / "formats"


def record(game: str, line: str, result: str) -> GameRecord:
    """A record of ``line`` (move texts) with ``result`` (a resignation if not over)."""
    state = new_game(game)
    moves = []
    for text in line.split():
        moves.append(state.parse_move(text))
        state = state.play(moves[-1])
    tags = {} if state.outcome() is not None else {"Result": result,
                                                   "Termination": "resignation"}
    return GameRecord.from_moves(new_game(game), moves, Date="2026.01.02", **tags)


Replayed = list[tuple[GameRecord, list[tuple[State, tuple[Any, ...], str]]]]
"""Each game with its positions, each with its symmetric keys and the move played."""


def plain_count(records: Replayed, query: State,
                ) -> tuple[int, Counter[str], dict[str, list[int]]]:
    """Without the index: how many games reach ``query`` or an image of it (the image's
    key under some symmetry is the query's own), and per move of the query (mapped
    through that symmetry) the games and their wins, draws, losses for the mover."""
    mine = query.symmetric_keys()[0]
    reached = 0
    per_move: Counter[str] = Counter()
    results: dict[str, list[int]] = {}
    for rec, plies in records:
        seen: set[str] = set()
        hit = False
        for state, keys, text in plies:
            if mine not in keys:
                continue
            hit = True
            sym = keys.index(mine)
            move = query.format_move(state.symmetric_move(state.parse_move(text), sym))
            if move in seen:
                continue
            seen.add(move)
            per_move[move] += 1
            tally = results.setdefault(move, [0, 0, 0])
            winner = {"1-0": 0, "0-1": 1, "1/2-1/2": None}.get(rec.result, -1)
            if winner is None:
                tally[1] += 1
            elif winner == state.to_move:
                tally[0] += 1
            elif winner != -1:
                tally[2] += 1
        reached += hit
    return reached, per_move, results


def rows_as_dict(rows: list[explorer.Row]) -> dict[str, list[int]]:
    return {r.text: [r.games, r.wins, r.draws, r.losses] for r in rows}


@pytest.mark.parametrize("name", ["WTH_1977.wtb", "othello-transcripts.txt",
                                  "tinsley-1946-1954.pdn"])
def test_counts_match_a_plain_count_over_the_same_games(name: str) -> None:
    path = FORMATS / name
    records = load_records(path)
    index = explorer.open_index(explorer.file_collection(path))
    assert index.built and index.games == len(records) and index.damaged == 0
    # every position of the first plies of every game, asked about as it stands
    replayed: Replayed = [
        (rec, [(s, s.symmetric_keys(), t) for s, t in zip(rec.states(), rec.moves, strict=False)])
        for rec in records]
    queries: dict[Any, State] = {}
    for _, plies in replayed[:40]:
        for state, _keys, _text in plies[:6]:
            if state.outcome() is None:
                queries.setdefault(state.key(), state)
    assert len(queries) > 20
    for query in queries.values():
        rows = explorer.lookup([index], query)
        reached, per_move, results = plain_count(replayed, query)
        keys = query.symmetric_keys()
        assert sum(r.games for r in rows) >= reached > 0
        if len(set(keys)) == len(keys):  # no symmetry keeps it: each move has one image
            assert {r.text: r.games for r in rows} == dict(per_move)
            assert {r.text: [r.wins, r.draws, r.losses] for r in rows} == results
        else:  # a symmetric position: its moves' images may differ, their total cannot
            assert sum(r.games for r in rows) == sum(per_move.values())


def test_transpositions_and_mirror_images_count_as_one_position(tmp_path: Path) -> None:
    games = [
        record("connect4", "1 2 3 5 4", "1-0"),
        record("connect4", "3 2 1 5", "0-1"),  # the same position by another order
        record("connect4", "7 6 5 3", "1/2-1/2"),  # its mirror image, answered mirrored
        record("connect4", "1 2 3 6", "1-0"),
        record("connect4", "4 4", "1-0"),  # elsewhere
    ]
    path = tmp_path / "c4.pgn"
    save_records(path, games)
    index = explorer.open_index(explorer.file_collection(path))
    assert index.games == 5 and index.by_game == {"connect4": 5}
    query = new_game("connect4").play_line("3 2 1")
    rows = rows_as_dict(explorer.lookup([index], query))
    # Yellow to move: 5 in two games (a win and a loss), 3 (the mirror's 5) a draw
    assert rows == {"5": [3, 1, 1, 1], "6": [1, 0, 0, 1]}
    mirrored = rows_as_dict(explorer.lookup([index], new_game("connect4").play_line("7 6 5")))
    assert mirrored == {"3": [3, 1, 1, 1], "2": [1, 0, 0, 1]}
    start = rows_as_dict(explorer.lookup([index], new_game("connect4")))
    assert start == {"1": [2, 2, 0, 0], "3": [1, 0, 0, 1], "7": [1, 0, 1, 0],
                     "4": [1, 1, 0, 0]}


def test_the_index_is_rebuilt_when_the_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    save_records(path, [record("tictactoe", "b2 a1 c3", "1-0")])
    collection = explorer.file_collection(path)
    first = explorer.open_index(collection)
    assert first.built and first.games == 1
    assert first.path.parent == paths.explorer_dir() and first.path.is_file()
    assert not explorer.open_index(collection).built  # kept
    # touched only: the contents' hash says nothing changed
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 5_000_000_000))
    assert not explorer.open_index(collection).built
    # another game: rebuilt, and counted
    save_records(path, [record("tictactoe", "b2 a1 c3", "1-0"),
                        record("tictactoe", "b2 c1", "0-1")])
    again = explorer.open_index(collection)
    assert again.built and again.games == 2
    rows = rows_as_dict(explorer.lookup([again], new_game("tictactoe").play_line("b2")))
    # b2 alone is kept by every symmetry: its corners stay apart as moves
    assert rows == {"a1": [1, 0, 0, 1], "c1": [1, 1, 0, 0]}
    # an index that is no SQLite file any more is built again, not trusted
    again.path.write_bytes(b"not an index")
    assert explorer.open_index(collection).built


def test_rebuild_builds_an_up_to_date_index_again(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    save_records(path, [record("tictactoe", "b2 a1 c3", "1-0")])
    collection = explorer.file_collection(path)
    explorer.open_index(collection)
    assert explorer.open_index(collection, rebuild=True).built


def test_your_own_games_are_a_collection_rebuilt_as_they_grow() -> None:
    own = explorer.own_collection()
    assert explorer.open_index(own).games == 0
    store.GameFile().save(record("connect4", "4 4 4 4 4 4 3 3 3 3 2 2 2 2 1", "1-0"))
    index = explorer.open_index(own)
    assert index.built and index.games == 1
    store.save_new(paths.save_path("mine"), record("connect4", "4 3", "*"))
    index = explorer.open_index(own)
    assert index.built and index.games == 2
    rows = explorer.lookup([index], new_game("connect4"))
    assert [(r.text, r.games, r.decided) for r in rows] == [("4", 2, 1)]
    assert rows[0].shares() == (100.0, 0.0, 0.0)
    assert not explorer.open_index(own).built
    # a damaged file among them is skipped with its line, the rest still counts
    (paths.saved_games_dir() / "bad.pgn").write_text("[Game \"connect4\"]\n\n9 9 *\n")
    index = explorer.open_index(own)
    assert index.games == 2 and index.damaged == 1 and len(index.problems) == 1


def test_damaged_games_are_skipped_and_counted() -> None:
    index = explorer.open_index(explorer.file_collection(FORMATS / "tinsley-damaged.pdn"))
    assert index.damaged == 3 and index.games > 0
    assert all("\n" not in p for p in index.problems) and len(index.problems) == 3


@pytest.mark.parametrize("content", [b"\x00\x01garbage", b"hello world\n", b""])
def test_a_file_that_is_no_game_file_is_one_line(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "junk.txt"
    path.write_bytes(content)
    with pytest.raises(ParlorError) as err:
        explorer.open_index(explorer.file_collection(path))
    assert "\n" not in str(err.value)
    assert not list(paths.explorer_dir().glob("*.tmp"))


def test_a_missing_file_or_a_folder_is_one_line(tmp_path: Path) -> None:
    for target in (tmp_path / "nothing.pgn", tmp_path):
        with pytest.raises(ParlorError) as err:
            explorer.open_index(explorer.file_collection(target))
        assert "\n" not in str(err.value)


def test_a_stopped_build_keeps_nothing(tmp_path: Path) -> None:
    import threading

    path = tmp_path / "w.wtb"
    shutil.copy(FORMATS / "WTH_1977.wtb", path)
    stop = threading.Event()
    stop.set()
    with pytest.raises(explorer.BuildStopped):
        explorer.open_index(explorer.file_collection(path), stop=stop)
    assert not explorer.file_collection(path).index_path.exists()
    assert not list(paths.explorer_dir().glob(".*"))


def test_exact_values_come_from_the_solver_for_the_position_shown(tmp_path: Path) -> None:
    path = tmp_path / "ttt.pgn"
    save_records(path, [record("tictactoe", "a1 b2 a2", "0-1"),
                        record("tictactoe", "a1 b2 c3 a3", "1/2-1/2")])
    index = explorer.open_index(explorer.file_collection(path))
    rows = explorer.explore([index], new_game("tictactoe").play_line("a1 b2"), seconds=30)
    by_move = {r.text: r.exact for r in rows}
    assert set(by_move) == {"a2", "c3"}
    assert all(v is not None and v.outcome == 0 for v in by_move.values())
    assert explorer.explore([index], new_game("tictactoe").play_line("a1 b2"),
                            seconds=0)[0].exact is None
