"""The Reversi endgame benchmark on 4x4 games (fast): every position settles, reach is read."""

from __future__ import annotations

import random

import pytest

from benchmarks.reversi_endgame import main, play_game, run


def test_games_are_seeded_and_end() -> None:
    for how in ("random", "greedy"):
        a = play_game(4, random.Random(3), how)
        b = play_game(4, random.Random(3), how)
        assert [s.key() for s in a] == [s.key() for s in b]
        assert a[-1].outcome() is not None


def test_reach_on_4x4_covers_every_count() -> None:
    report = run(4, games=3, low=2, high=9, seed=1, how="random", cap=60.0, verbose=False)
    assert set(report["times"]) <= set(range(2, 10)) and 9 in report["times"]
    for row in report["positions"]:
        assert row["score"] is not None  # nothing on 4x4 comes near the cap
    for limit in ("1s", "10s"):
        assert report["reach"][limit]["min"] >= 2
        assert report["reach"][limit]["max"] <= 9


def test_a_solve_past_the_cap_ends_the_game_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--size", "8", "--games", "1", "--empties", "30-31", "--cap", "0"]) == 0
    out = capsys.readouterr().out
    assert "past cap" in out and "settled within 1s: median 29" in out


def test_ffo_boards_become_parlor_positions_and_bad_ones_are_refused() -> None:
    from benchmarks.reversi_ffo import to_position
    from engine.positions import parse_position

    board = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27
    state = parse_position("reversi", to_position(board, "X"))
    assert state.to_position() == parse_position("reversi", "8/8/8/3ox3/3xo3/8/8/8 x").to_position()
    for bad, side in ((board[:-1], "X"), (board.replace("-", "?", 1), "X"), (board, "B")):
        with pytest.raises(ValueError, match="not an FFO board"):
            to_position(bad, side)
