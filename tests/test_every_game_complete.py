"""Every game of engine.registry.GAMES has every per-game part each layer looks up:
its brains module (checked against the schema), a board widget, perft data with a
naive reference generator's test beside it, and a shipped example game."""

from __future__ import annotations

import pytest

from brains.heuristics import MODULES, SCHEMA, GameKnowledgeError, check_games, game_module
from engine.formats import load_records
from engine.perftdata import read_perft_file
from engine.registry import GAMES, new_game
from tests.conftest import DATA
from tui.app.widgets import BOARDS, MissingBoardError, board_class

ROOT = DATA.parent.parent


def test_each_layer_maps_exactly_the_registered_games():
    assert list(MODULES) == list(GAMES)
    assert list(BOARDS) == list(GAMES)
    assert list(check_games()) == list(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_brains_module_declares_every_part(game):
    module = game_module(game)
    for name, (_, ok) in SCHEMA.items():
        assert ok(getattr(module, name)), name
    state = new_game(game)
    assert len(module.features(state)) == len(module.FEATURE_NAMES)
    for heuristic in module.HEURISTICS.values():
        assert -1.0 <= heuristic(state) <= 1.0


@pytest.mark.parametrize("game", list(GAMES))
def test_board_widget_draws_the_game(game):
    assert game == board_class(game).GAME


@pytest.mark.parametrize("game", list(GAMES))
def test_perft_data_starts_from_the_initial_position(game):
    cases = read_perft_file(DATA / "perft" / f"{game}.perft")
    assert cases and all(case.game == game for case in cases)
    assert not cases[0].moves and not cases[0].options
    assert cases[0].counts[1] == len(new_game(game).legal_moves())


@pytest.mark.parametrize("game", list(GAMES))
def test_a_shipped_example_game(game):
    paths = sorted((ROOT / "saved" / "games").glob(f"{game}-*.pgn"))
    assert paths, f"no saved/games/{game}-*.pgn"
    assert all(load_records(p)[0].game == game for p in paths)


def test_a_missing_part_is_a_clear_error(monkeypatch):
    import brains.heuristics as heuristics
    import brains.heuristics.tictactoe as ttt

    monkeypatch.setattr(heuristics, "_checked", {})
    monkeypatch.delattr(ttt, "ALPHABETA_DEPTHS")
    with pytest.raises(GameKnowledgeError, match="ALPHABETA_DEPTHS must be two depths"):
        game_module("tictactoe")
    with pytest.raises(GameKnowledgeError, match="no brains module for game 'chess'"):
        game_module("chess")
    monkeypatch.delitem(BOARDS, "tictactoe")
    with pytest.raises(MissingBoardError, match="no board widget for game 'tictactoe'"):
        board_class("tictactoe")


@pytest.mark.parametrize("game", list(GAMES))
def test_depth_limited_levels_are_bounded_in_every_game(game):
    from brains.registry import level_options

    for name, levels in (("minimax", ("easy", "medium", "hard")),
                         ("alphabeta", ("easy", "medium"))):
        for level in levels:
            depth = level_options(name, level, game)["depth"]
            assert isinstance(depth, int) and depth >= 1, (name, level)
    assert level_options("alphabeta", "hard", game)["clock"] > 0


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_reads_and_writes_positions(game):
    from engine.positions import parse_position
    from engine.protocol import Game, State

    state = new_game(game)
    assert type(state).to_position is not State.to_position, "State.to_position missing"
    assert type(GAMES[game]).from_position is not Game.from_position, "from_position missing"
    assert parse_position(game, state.to_position()).key() == state.key()


# --- the parts docs/ADDING_A_GAME.md lists, each with a message naming what is missing ---


@pytest.mark.parametrize("game", list(GAMES))
def test_rules_module_tests_and_docs(game):
    assert (ROOT / "tests" / "engine" / f"test_{game}_rules.py").is_file(), \
        f"no tests/engine/test_{game}_rules.py"
    name = GAMES[game].name
    assert name and GAMES[game].description, f"{game}: the Game has no name or description"
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    assert name.lower() in rules.lower() or game in rules, f"docs/RULES.md does not mention {name}"


@pytest.mark.parametrize("game", list(GAMES))
def test_rules_text_for_help(game):
    text = GAMES[game].rules_summary
    assert text.strip(), f"{game}: the Game declares no rules_summary (Help shows it)"
    lines = text.splitlines()
    assert all(0 < len(line) <= 62 for line in lines), \
        f"{game}: rules_summary lines must be 1 to 62 characters"
    from tui.app.screens.help import RULES
    assert all(line in RULES[game] for line in lines), f"{game}: Help does not show its rules"


@pytest.mark.parametrize("game", list(GAMES))
def test_measured_ratings_of_the_ladder(game):
    from brains.ladder import load_ratings

    assert (ROOT / "saved" / "ratings" / f"{game}.json").is_file(), \
        f"no saved/ratings/{game}.json (parlor calibrate {game})"
    assert load_ratings(game) is not None


@pytest.mark.parametrize("game", list(GAMES))
def test_exact_hook_where_the_game_declares_one(game):
    """EXACT is optional; where present it is an ExactSolver whose method is the one
    PERFECT names (if PERFECT names one), and parlor solve solves what it says."""
    from brains.exact import ExactSolver
    from brains.heuristics import exact_solver, solvable_games

    module = game_module(game)
    hook = getattr(module, "EXACT", None)
    perfect = (module.PERFECT or {}).get("method", "search")
    if hook is None:
        assert perfect == "search", f"{game}: PERFECT names {perfect!r} but there is no EXACT"
        assert game not in solvable_games()
        return
    assert isinstance(hook, ExactSolver), f"{game}: EXACT is not a brains.exact.ExactSolver"
    assert exact_solver(game) is hook
    assert perfect in ("search", hook.method), f"{game}: PERFECT's method is not EXACT's"
    assert type(hook).values is not ExactSolver.values, f"{game}: EXACT has no values()"
    if hook.solves:
        assert type(hook).solver is not ExactSolver.solver, \
            f"{game}: EXACT.solves but has no solver() for parlor solve"
    if hook.build_flag:
        assert type(hook).build is not ExactSolver.build, f"{game}: EXACT has no build()"


def test_a_perfect_method_without_its_hook_is_a_clear_error(monkeypatch):
    import brains.heuristics as heuristics
    import brains.heuristics.morris as morris

    monkeypatch.setattr(heuristics, "_checked", {})
    monkeypatch.delattr(morris, "EXACT")
    with pytest.raises(GameKnowledgeError, match="PERFECT's method 'morrisdb' is not"):
        game_module("morris")
    monkeypatch.setattr(morris, "EXACT", object(), raising=False)
    with pytest.raises(GameKnowledgeError, match="EXACT must be an exact solver"):
        game_module("morris")


def test_an_endgame_without_the_hooks_outcomes_is_a_clear_error(monkeypatch):
    import brains.heuristics as heuristics
    import brains.heuristics.reversi as reversi
    from brains.exact import ExactSolver

    monkeypatch.setattr(heuristics, "_checked", {})
    monkeypatch.setattr(reversi, "EXACT", ExactSolver())
    with pytest.raises(GameKnowledgeError, match=r"ENDGAME is True but its EXACT hook has no"):
        game_module("reversi")


@pytest.mark.parametrize("game", list(GAMES))
def test_the_teachers_models_are_bounded_brains_of_the_game(game):
    """Each of TEACHER_MODELS plays the game, bounded by depth or nodes (not the clock,
    so that a play-out is the same game on any machine)."""
    from brains.heuristics import teacher_models
    from brains.registry import make_brain

    for spec in teacher_models(game):
        brain = make_brain(spec, game, seed=0)
        options = brain.options
        assert options.get("seconds", None) is None, spec
        assert options.get("depth") or options.get("nodes"), spec


def test_teacher_models_that_are_not_specs_are_a_clear_error(monkeypatch):
    import brains.heuristics as heuristics
    import brains.heuristics.reversi as reversi

    monkeypatch.setattr(heuristics, "_checked", {})
    monkeypatch.setattr(reversi, "TEACHER_MODELS", ["alphabeta"])
    with pytest.raises(GameKnowledgeError, match="TEACHER_MODELS must be a tuple of brain specs"):
        game_module("reversi")
