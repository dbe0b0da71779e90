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
