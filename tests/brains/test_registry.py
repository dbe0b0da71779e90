"""Brain specs, levels and the errors for bad ones."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from brains import UnknownBrainError, list_brains, make_brain
from brains.registry import ALPHABETA_DEPTHS, BRAINS, LEVELS, parse_spec


def test_parse_spec() -> None:
    assert parse_spec("alphabeta:hard,eval=lines,seconds=1.5") == (
        "alphabeta", "hard", {"eval": "lines", "seconds": "1.5"})
    assert parse_spec(" MCTS ") == ("mcts", None, {})


def test_levels_and_options_reach_the_brain() -> None:
    brain = make_brain("alphabeta:easy", "tictactoe", seed=4)
    assert brain.depth == ALPHABETA_DEPTHS["tictactoe"][0] and brain.seed == 4
    assert make_brain("alphabeta:easy,depth=5", "tictactoe").depth == 5
    assert make_brain("alphabeta,depth=none", "tictactoe").depth is None
    assert make_brain("alphabeta:hard", "tictactoe").timeman is not None
    assert make_brain("alphabeta,tt=false", "tictactoe").tt is None
    assert make_brain("mcts:hard", "tictactoe").simulations == LEVELS["mcts"]["hard"]["simulations"]


@pytest.mark.parametrize("spec, message", [
    ("alphabet", "unknown brain 'alphabet'; known: random, greedy"),
    ("alphabeta:brutal", "unknown level 'brutal' for alphabeta; known: easy, medium, hard"),
    ("alphabeta,speed=3", "alphabeta: unknown option 'speed'; options: depth"),
    ("alphabeta,depth=deep", "alphabeta: option depth='deep' is not a int"),
    ("alphabeta,depth", "is not KEY=VALUE"),
    ("greedy,eval=nonsense", "unknown heuristic 'nonsense' for tictactoe; known: lines"),
    ("mcts,rollout=smart", "unknown rollout"),
])
def test_errors_say_what_exists(spec: str, message: str) -> None:
    with pytest.raises(UnknownBrainError, match=message.replace("(", r"\(")):
        make_brain(spec, "tictactoe")


def test_unknown_game() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_brain("random", "chess")


def test_list_brains() -> None:
    everything = {info.name: info for info in list_brains()}
    assert set(everything) <= set(BRAINS) and {"random", "alphabeta", "perfect"} <= set(everything)
    assert everything["alphabeta"].description.startswith("Alpha-beta")
    reversi = {info.name for info in list_brains("reversi")}
    assert "perfect" not in reversi and "alphabeta" in reversi
    tictactoe = {info.name: info for info in list_brains("tictactoe")}
    assert tictactoe["alphabeta"].levels["easy"]["depth"] == ALPHABETA_DEPTHS["tictactoe"][0]


def test_parlor_brains_command() -> None:
    run = [sys.executable, "-m", "tui.cli", "brains"]
    table = subprocess.run(run + ["--game", "tictactoe"], capture_output=True, text=True, check=True)
    assert "alphabeta" in table.stdout and "perfect" in table.stdout and "easy" in table.stdout
    rows = json.loads(subprocess.run(run + ["--json"], capture_output=True, text=True,
                                     check=True).stdout)
    assert {row["name"] for row in rows} >= {"random", "greedy", "mcts"}
