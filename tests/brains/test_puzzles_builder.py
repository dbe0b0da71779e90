"""The puzzle builder: deterministic output, every puzzle unique by the solver (and, for
tic-tac-toe, by a tiny independent negamax), symmetric positions kept once, and the
puzzle file read back as written; damaged files are one line."""

from __future__ import annotations

import functools
import json

import pytest

from brains import puzzles
from brains.heuristics import game_module
from engine.positions import parse_position
from engine.protocol import ParlorError
from engine.registry import get_game


@functools.cache
def _negamax(x: int, o: int, to_move: int) -> int:
    """Tic-tac-toe by brute force, independent of the engine and the brains: +1 when the
    side to move wins, 0 a draw, -1 a loss (cells 0-8, three in a row)."""
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6))
    last = o if to_move == 0 else x
    if any(all(last >> c & 1 for c in line) for line in lines):
        return -1
    free = [c for c in range(9) if not (x | o) >> c & 1]
    if not free:
        return 0
    return max(-_negamax(x | 1 << c, o, 1) if to_move == 0 else -_negamax(x, o | 1 << c, 0)
               for c in free)


def _cells(state) -> tuple[int, int]:
    return state.x, state.o


def test_building_is_deterministic_and_seeded() -> None:
    first = puzzles.format_puzzles("tictactoe", puzzles.build("tictactoe", 12, seed=5))
    again = puzzles.format_puzzles("tictactoe", puzzles.build("tictactoe", 12, seed=5))
    other = puzzles.format_puzzles("tictactoe", puzzles.build("tictactoe", 12, seed=6))
    assert first == again
    assert first != other
    assert len(first.splitlines()) == 13  # the header and twelve puzzles


@pytest.mark.parametrize("game", ["connect4", "morris"])
def test_a_tiny_build_of_the_solved_games_is_deterministic_and_proven(game: str) -> None:
    built = puzzles.build(game, 2, seed=1)
    assert len(built) == 2
    assert [p.to_json() for p in puzzles.build(game, 2, seed=1)] == [p.to_json() for p in built]
    for puzzle in built:
        assert puzzles.prove(puzzle) is None
        assert puzzle.accepted == (puzzle.solution,)
        assert game_module(game).puzzle_ready(puzzle.state())
        assert puzzle.state().play_text(puzzle.solution).outcome() is None  # not a win in one


def test_every_tictactoe_puzzle_is_unique_by_an_independent_negamax() -> None:
    built = puzzles.build("tictactoe", 60, seed=2)
    assert len(built) == 60
    for puzzle in built:
        state = puzzle.state()
        values = {}
        for move in state.legal_moves():
            child = state.play(move)
            values[state.format_move(move)] = -_negamax(*_cells(child), child.to_move)
        best = max(values.values())
        keeping = [m for m, v in values.items() if v == best]
        assert best >= 0 and keeping == [puzzle.solution], puzzle.position
        assert puzzle.goal == ("win" if best > 0 else "draw")
        assert {w.move for w in puzzle.wrong} == set(values) - {puzzle.solution}
        for wrong in puzzle.wrong:
            assert values[wrong.move] < best
            if wrong.line:  # the refutation is the opponent's best reply
                reply_state = state.play_line([wrong.move, wrong.line[0]])
                assert -_negamax(*_cells(reply_state), reply_state.to_move) == \
                    -values[wrong.move]


def test_symmetric_positions_make_one_puzzle() -> None:
    state = parse_position("tictactoe", "2o/3/xx1 o")
    mirror = parse_position("tictactoe", "o2/3/1xx o")
    key = game_module("tictactoe").canonical_key
    assert key(state) == key(mirror)
    built = puzzles.build("tictactoe", 80, seed=0)
    keys = [key(p.state()) for p in built]
    assert len(keys) == len(set(keys))


def test_canonical_keys_join_the_symmetric_images_of_each_game() -> None:
    c4 = game_module("connect4").canonical_key
    assert c4(parse_position("connect4", "7/7/7/7/7/xo5 x")) == \
        c4(parse_position("connect4", "7/7/7/7/7/5ox x"))
    assert c4(parse_position("connect4", "7/7/7/7/7/xo5 x")) != \
        c4(parse_position("connect4", "7/7/7/7/7/ox5 x"))
    rev = game_module("reversi").canonical_key
    start = get_game("reversi").initial()
    a, b = (start.play_text(m) for m in ("f5", "c4"))  # images of each other
    assert rev(a) == rev(b) and rev(a) != rev(start.play_text("f5").play_text("d6"))
    morris = game_module("morris").canonical_key
    m = get_game("morris").initial()
    assert morris(m.play_text("a5")) == morris(m.play_text("e1"))
    assert morris(m.play_text("a5")) == morris(m.play_text("d2"))  # the squares swapped
    assert morris(m.play_text("a5")) != morris(m.play_text("c5"))


def test_a_puzzle_file_reads_back_as_written(tmp_path) -> None:
    built = puzzles.build("tictactoe", 5, seed=1)
    path = puzzles.write_puzzles(tmp_path, "tictactoe", built, command="test", seed=1)
    assert puzzles.read_puzzles(path) == built
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    entry = manifest["files"]["tictactoe.jsonl"]
    assert entry["count"] == 5 and entry["bytes"] == path.stat().st_size


@pytest.mark.parametrize("line, why", [
    ("not json", "line 3"),
    ('{"id": "x"}', "line 3: puzzle field"),
    ('[1, 2]', "a puzzle is a JSON object"),
    ("x" * 9000, "longer than"),
])
def test_a_damaged_puzzle_file_is_one_line(tmp_path, line: str, why: str) -> None:
    good = puzzles.format_puzzles("tictactoe", puzzles.build("tictactoe", 1, seed=1))
    path = tmp_path / "bad.jsonl"
    path.write_text(good + line + "\n")
    with pytest.raises(ParlorError) as info:
        puzzles.read_puzzles(path)
    assert why in str(info.value) and "\n" not in str(info.value)


def test_a_puzzle_whose_moves_are_not_legal_is_refused_not_crashed() -> None:
    puzzle = puzzles.build("tictactoe", 1, seed=1)[0]
    data = puzzle.to_json() | {"solution": "b9", "accepted": ["b9"]}
    bad = puzzles.Puzzle.from_json(data)
    with pytest.raises(ParlorError, match="not a legal move"):
        puzzles.check_puzzle(bad)
    assert "not a legal move" in (puzzles.prove(bad) or "")
    not_text = puzzles.Puzzle.from_json(puzzle.to_json() | {"position": "zzz"})
    assert puzzles.prove(not_text) is not None


def test_games_without_an_exact_solver_have_no_puzzles() -> None:
    with pytest.raises(ParlorError, match="no exact solver"):
        puzzles.build("gomoku", 1)
