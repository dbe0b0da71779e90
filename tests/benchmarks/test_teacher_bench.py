"""benchmarks.teacher --replies counts, in the games of the teacher's and plain perfect's
matches, the chances the rung had to go wrong at once, and how many it took."""

from __future__ import annotations

import json

from benchmarks import teacher as bench


def _replies(capsys, level: int) -> dict:
    assert bench.main(["--replies", "--game", "tictactoe", "--levels", str(level),
                       "--games", "12", "--seed", "3"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_fallible_rung_goes_wrong_at_some_of_its_chances(capsys) -> None:
    result = _replies(capsys, 3)
    assert result["game"] == "tictactoe" and result["level"] == 3
    for side in result["sides"].values():
        assert 0 < side["rung went wrong"] <= side["with a wrong reply"] <= side["moves"]
        assert sum(side["wrong replies by plies to the loss"].values()) \
            >= side["with a wrong reply"]


def test_the_perfect_rung_never_goes_wrong(capsys) -> None:
    result = _replies(capsys, 8)  # tic-tac-toe's top rung is perfect play
    for side in result["sides"].values():
        assert side["with a wrong reply"] > 0 and side["rung went wrong"] == 0
