"""The player's puzzle ratings file: attempts move both ratings (Glicko-2), and a
damaged file or entry starts fresh with one line, keeping the damaged copy."""

from __future__ import annotations

import json

from tui.player.puzzles import PuzzleRatings


def test_attempts_move_the_player_and_the_puzzle(tmp_path) -> None:
    ratings = PuzzleRatings(tmp_path / "puzzles.json")
    before, after, puzzle = ratings.record("connect4", "connect4-abc", 1500.0, 250.0, True)
    assert before.attempts == 0 and after.attempts == 1 and after.solved == 1
    assert after.rating > before.rating and puzzle.rating < 1500.0
    assert after.deviation < before.deviation
    _, missed, puzzle2 = ratings.record("connect4", "connect4-abc", 1500.0, 250.0, False)
    assert missed.rating < after.rating and puzzle2.rating > puzzle.rating
    again = PuzzleRatings(tmp_path / "puzzles.json")
    assert again.player("connect4") == missed
    assert again.player("morris").attempts == 0  # each game has its own rating
    assert again.puzzle("connect4-abc", 1500.0, 250.0) == puzzle2
    assert again.puzzle("connect4-new", 1234.0, 200.0).rating == 1234.0
    assert again.problem is None


def test_a_damaged_file_starts_fresh_and_is_kept(tmp_path) -> None:
    path = tmp_path / "puzzles.json"
    path.write_bytes(b"\xff\x00 not json")
    ratings = PuzzleRatings(path)
    assert ratings.player("connect4").attempts == 0
    assert ratings.problem is not None and "\n" not in ratings.problem
    ratings.record("connect4", "connect4-abc", 1500.0, 250.0, True)
    assert (tmp_path / "puzzles.json.damaged").read_bytes() == b"\xff\x00 not json"
    assert PuzzleRatings(path).player("connect4").attempts == 1


def test_a_damaged_entry_starts_fresh_alone(tmp_path) -> None:
    path = tmp_path / "puzzles.json"
    good = {"rating": 1600.0, "deviation": 100.0, "volatility": 0.06, "attempts": 3,
            "solved": 2}
    path.write_text(json.dumps({
        "format": "parlor-player-puzzles", "version": 1,
        "players": {"connect4": good, "morris": {"rating": "high"},
                    "../x": good},
        "puzzles": {"p1": {**good, "solved": 9}}}))
    ratings = PuzzleRatings(path)
    assert ratings.player("connect4").rating == 1600.0
    assert ratings.player("morris").attempts == 0
    assert ratings.puzzle("p1", 1400.0, 250.0).rating == 1400.0
    assert ratings.problem is not None and "3 damaged entries" in ratings.problem


def test_many_puzzles_are_rated_in_one_read(tmp_path) -> None:
    ratings = PuzzleRatings(tmp_path / "puzzles.json")
    _, _, tried = ratings.record("morris", "m-1", 1500.0, 250.0, True)
    got = ratings.ratings_of({"m-1": (1500.0, 250.0), "m-2": (1700.0, 200.0)})
    assert got["m-1"] == tried and (got["m-2"].rating, got["m-2"].deviation) == (1700.0, 200.0)
