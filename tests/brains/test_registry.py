"""Brain specs, levels, typed options and the errors for bad ones."""

from __future__ import annotations

import importlib
import json
import math
import re
import subprocess
import sys

import pytest

from brains import Brain, UnknownBrainError, list_brains, make_brain
from brains.heuristics import list_heuristics
from brains.options import QUOTE, BrainOption, resolve
from brains.registry import (
    ALPHABETA_DEPTHS,
    BRAINS,
    LEVEL_NAMES,
    LEVELS,
    NAMED,
    ONLY_FOR,
    BrokenBrainError,
    available_brains,
    brain_class,
    parse_spec,
)


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
    ("alphabeta,depth=deep", ("alphabeta: option depth='deep' is refused: it takes an integer "
                              "from 1 to 64, or none")),
    ("alphabeta,depth", "is not KEY=VALUE"),
    ("alphabeta,depth=3,depth=4", "given twice"),
    ("greedy,eval=nonsense", "greedy: option eval='nonsense' is refused: it takes one of lines"),
    ("mcts,rollout=smart", ("mcts: option rollout='smart' is refused: it takes one of random, "
                            "heuristic")),
])
def test_errors_say_what_exists(spec: str, message: str) -> None:
    with pytest.raises(UnknownBrainError, match=message.replace("(", r"\(")):
        make_brain(spec, "tictactoe")


REFUSED = [
    ("alphabeta,depth=0", "depth=", "an integer from 1 to 64, or none"),
    ("alphabeta,depth=-1", "depth=", "an integer from 1 to 64, or none"),
    ("minimax,depth=0", "depth=", "an integer from 1 to 64, or none"),
    ("alphabeta,depth=65", "depth=", "an integer from 1 to 64, or none"),
    ("mcts,simulations=0", "simulations=", "an integer from 1 to"),
    ("mcts,simulations=-5", "simulations=", "an integer from 1 to"),
    ("alphabeta,seconds=0", "seconds=", "a number > 0 and <= 86400, or none"),
    ("alphabeta,seconds=-1", "seconds=", "a number > 0"),
    ("alphabeta,seconds=nan", "seconds=", "a number > 0"),
    ("alphabeta,seconds=inf", "seconds=", "a number > 0"),
    ("mcts,seconds=0", "seconds=", "a number > 0"),
    ("mcts,seconds=nan", "seconds=", "a number > 0"),
    ("perfect,seconds=-1", "seconds=", "a number > 0"),
    ("alphabeta:hard,clock=0", "clock=", "a number > 0"),
    ("alphabeta:hard,max_seconds=nan", "max_seconds=", "a number > 0"),
    ("mcts,c=nan", "c=", "a number from 0 to 100"),
    ("mcts,c=-1", "c=", "a number from 0 to 100"),
    ("mcts,c=inf", "c=", "a number from 0 to 100"),
    ("mcts,cutoff=-1", "cutoff=", "an integer from 0 to"),
    ("alphabeta,nodes=-1", "nodes=", "an integer from 1 to"),
    ("alphabeta,nodes=0", "nodes=", "an integer from 1 to"),
    ("alphabeta,tt_size=0", "tt_size=", "an integer from 1 to 50000000"),
    ("minimax-tt,tt_size=0", "tt_size=", "an integer from 1 to 50000000"),
    ("alphabeta,tt=maybe", "tt=", "true or false"),
    ("alphabeta,eval=bogus", "eval=", "one of lines"),
    ("mcts,eval=bogus", "eval=", "one of lines"),
    ("perfect,method=guess", "method=", "one of search, connect4"),
    ("perfect,fallback=perfect", "fallback=", "another brain"),
    ("perfect,fallback=alphabeta;depth=0", "fallback=", "unknown brain"),
    ("mcts,rollout=none", "rollout=", "one of random, heuristic"),
]


@pytest.mark.parametrize("spec, option, allowed", REFUSED)
def test_bad_values_are_refused_with_their_range(spec: str, option: str, allowed: str) -> None:
    with pytest.raises(UnknownBrainError) as caught:
        make_brain(spec, "tictactoe")
    message = str(caught.value)
    assert "\n" not in message and f"option {option}" in message and allowed in message


def test_eval_is_checked_per_game() -> None:
    # each game's own heuristics are accepted, another game's are refused
    from engine import GAMES

    for game in GAMES:
        for name in list_heuristics(game):
            assert make_brain(f"mcts,eval={name}", game).options["eval"] == name
    assert make_brain("alphabeta,eval=lines", "tictactoe").options["eval"] == "lines"
    for spec in ("alphabeta,eval=lines", "mcts,eval=lines"):
        if "lines" not in list_heuristics("reversi"):
            with pytest.raises(UnknownBrainError, match="eval="):
                make_brain(spec, "reversi")


def test_zero_means_zero_and_none_clears() -> None:
    mcts = make_brain("mcts,c=0,cutoff=0,rollout=heuristic", "tictactoe")
    assert mcts.c == 0.0 and mcts.cutoff == 0
    assert make_brain("mcts", "tictactoe").c == pytest.approx(math.sqrt(2))
    assert make_brain("mcts,simulations=none", "tictactoe").simulations is None
    assert make_brain("alphabeta,seconds=none", "tictactoe").seconds is None
    assert make_brain("alphabeta,tt_size=1", "tictactoe").tt.capacity == 1
    with pytest.raises(UnknownBrainError, match="cannot be none"):
        make_brain("alphabeta,tt_size=none", "tictactoe")


def test_defaults_come_from_the_definitions() -> None:
    for name in BRAINS:
        cls = brain_class(name)
        for option in cls.OPTIONS:
            assert isinstance(option, BrainOption), (name, option)
    brain = make_brain("alphabeta,depth=3", "tictactoe")
    assert brain.tt.capacity == next(o.default for o in brain.OPTIONS if o.name == "tt_size")


def test_a_brain_built_from_its_class_checks_its_options() -> None:
    from brains.alphabeta import AlphaBetaBrain
    from brains.mcts import MCTSBrain

    with pytest.raises(UnknownBrainError, match="depth=0"):
        AlphaBetaBrain("tictactoe", depth=0)
    with pytest.raises(UnknownBrainError, match="unknown option 'speed'"):
        MCTSBrain("tictactoe", speed=3)
    assert MCTSBrain("tictactoe", c=0.0).c == 0.0


def test_bad_text_is_quoted_short() -> None:
    junk = "x" * 150
    for spec in (f"alphabeta,depth={junk}", f"alphabeta,{junk}=1", f"{junk}",
                 f"alphabeta:{junk}", f"alphabeta,eval={junk}"):
        with pytest.raises(UnknownBrainError) as caught:
            make_brain(spec, "tictactoe")
        message = str(caught.value)
        assert "x" * (QUOTE + 1) not in message and "\n" not in message, message
    with pytest.raises(UnknownBrainError, match="longer than"):
        make_brain("alphabeta" + ",depth=3" * 100, "tictactoe")


def test_resolve_rejects_a_bad_default() -> None:
    bad = BrainOption("depth", int, 0, "plies", low=1, high=9)
    with pytest.raises(UnknownBrainError, match="depth=0"):
        resolve((bad,), {}, "tictactoe", "test")


def test_every_level_of_every_brain_builds_in_every_game(game_id: str) -> None:
    built = 0
    for name in BRAINS:
        games = ONLY_FOR.get(name)
        if (games is not None and game_id not in games) or name in NAMED:
            continue  # a named brain (external:NAME) has no levels; tests/brains/test_external.py
        for level in LEVEL_NAMES:
            brain = make_brain(f"{name}:{level}", game_id)
            assert isinstance(brain, Brain)
            built += 1
    # the six generic brains at least (random, greedy, minimax, minimax-tt, alphabeta,
    # mcts), and the learned ones where the game has a model
    assert built >= 3 * 6


def test_no_level_searches_without_a_bound(game_id: str) -> None:
    # a per-game table that leaves a game out must not make a level an unbounded search
    for name in ("minimax", "minimax-tt", "alphabeta"):
        for level in LEVEL_NAMES:
            brain = make_brain(f"{name}:{level}", game_id)
            assert (brain.depth is not None or brain.seconds is not None
                    or getattr(brain, "timeman", None) is not None), f"{name}:{level}"


def test_every_registered_brain_imports() -> None:
    assert available_brains() == list(BRAINS)
    for name in BRAINS:
        cls = brain_class(name)
        assert issubclass(cls, Brain) and cls.name == name


def test_an_unimportable_brain_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BRAINS, "ghost", "brains.no_such_module:GhostBrain")
    registered = re.escape("'ghost' is registered as brains.no_such_module")
    with pytest.raises(BrokenBrainError, match=registered):
        brain_class("ghost")
    with pytest.raises(BrokenBrainError):
        list_brains()
    assert "ghost" in available_brains()
    monkeypatch.setitem(BRAINS, "ghost", "brains.mcts:NoSuchClass")
    with pytest.raises(BrokenBrainError, match="cannot be imported"):
        make_brain("ghost", "tictactoe")


def test_unknown_game() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_brain("random", "chess")


def test_list_brains() -> None:
    everything = {info.name: info for info in list_brains()}
    assert set(everything) == set(BRAINS)
    assert everything["alphabeta"].description.startswith("Alpha-beta")
    checkers = {info.name for info in list_brains("checkers")}
    assert "perfect" not in checkers and "alphabeta" in checkers
    tictactoe = {info.name: info for info in list_brains("tictactoe")}
    assert tictactoe["alphabeta"].levels["easy"]["depth"] == ALPHABETA_DEPTHS["tictactoe"][0]
    depth = next(o for o in tictactoe["alphabeta"].options if o["name"] == "depth")
    assert (depth["type"], depth["low"], depth["default"]) == ("int", 1, None)
    evals = next(o for o in tictactoe["mcts"].options if o["name"] == "eval")
    assert "lines" in evals["choices"]


def test_parlor_brains_command() -> None:
    run = [sys.executable, "-m", "tui.cli", "brains"]
    table = subprocess.run([*run, "--game", "tictactoe"], capture_output=True, text=True,
                           check=True)
    assert "alphabeta" in table.stdout and "perfect" in table.stdout and "easy" in table.stdout
    assert "depth=int: an integer from 1 to 64, or none (default none)" in table.stdout
    assert "tt_size=int: an integer from 1 to 50000000 (default 500000)" in table.stdout
    rows = json.loads(subprocess.run([*run, "--json"], capture_output=True, text=True,
                                     check=True).stdout)
    assert {row["name"] for row in rows} >= {"random", "greedy", "mcts"}
    mcts = next(row for row in rows if row["name"] == "mcts")
    c = next(o for o in mcts["options"] if o["name"] == "c")
    assert (c["type"], c["low"], c["high"]) == ("float", 0, 100)
    assert c["default"] == pytest.approx(math.sqrt(2))
    assert importlib.import_module("brains.options").BrainOption is BrainOption


def test_level_rows_are_checked_like_spec_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS["mcts"], "easy", {"simulations": 0})
    with pytest.raises(UnknownBrainError, match=r"mcts:easy in tictactoe: option simulations=0"):
        make_brain("mcts:easy", "tictactoe")
    monkeypatch.setitem(LEVELS["mcts"], "easy", {"speed": 3})
    with pytest.raises(UnknownBrainError, match="'speed' is not an option of mcts"):
        make_brain("mcts:easy", "tictactoe")
    monkeypatch.setitem(LEVELS["mcts"], "easy", {"c": {"reversi": 0.5}})  # a per-game row
    assert make_brain("mcts:easy", "reversi").c == 0.5
    assert make_brain("mcts:easy", "tictactoe").c == pytest.approx(math.sqrt(2))
