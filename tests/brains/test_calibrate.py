"""brains.calibrate, what `parlor calibrate` does, called without the command line."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from brains.calibrate import check_pairs, command_line, measure, reusable, write_ratings
from brains.ladder import ladder, parse_ratings
from engine.protocol import ParlorError


def recording(seen: list[tuple[str, int]]):
    @contextmanager
    def reporter(label: str, total: int):
        seen.append((label, total))
        yield None
    return reporter


def test_measure_rates_the_ladder_and_the_file_reads_back(tmp_path):
    seen: list[tuple[str, int]] = []
    done = measure("tictactoe", 1, seed=3, span=1, bootstrap=5, reporter=recording(seen))
    rungs = ladder("tictactoe")
    assert done.pairs == len(rungs) and done.reused_games == 0  # rung k against k+1
    assert seen == [("calibrate tictactoe", len(rungs))]
    assert [r.spec for r in done.ratings.levels] == list(rungs)
    assert done.ratings.command == command_line("tictactoe", 1, 3, 1, 5)
    out = tmp_path / "sub" / "t.json"
    write_ratings(done.ratings, out)
    again = parse_ratings(out.read_bytes(), "tictactoe")
    assert [r.spec for r in again.levels] == list(rungs)  # the file keeps 0.1 Elo
    assert [abs(a.rating - b.rating) < 0.06 for a, b in zip(again.levels, done.ratings.levels,
                                                             strict=True)] == [True] * len(rungs)
    # taken up again with the same seed: every pairing is reused, none played
    assert sum(map(sum, reusable("tictactoe", str(out), 3, 1).values())) == len(rungs)
    with pytest.raises(ParlorError, match="seed 3, not 4"):
        reusable("tictactoe", str(out), 4, 1)
    with pytest.raises(ParlorError, match="more than --games 0"):
        reusable("tictactoe", str(out), 3, 0)


def test_command_line_names_the_span_only_when_given():
    assert command_line("reversi", 20, 0, None, 1000) == (
        "parlor calibrate reversi --games 20 --seed 0 --bootstrap 1000")
    assert "--span 2" in command_line("reversi", 20, 0, 2, 1000)


def test_check_refuses_a_rung_beyond_the_ladder():
    with pytest.raises(ParlorError, match="rungs, not 99"):
        check_pairs("tictactoe", [(1, 99)], 1)
