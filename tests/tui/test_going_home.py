"""Pilot tests of leaving a game for Home: Escape (first dropping a half-made move), and
the command palette's Home; the game stays listed."""

from __future__ import annotations

from tests.tui.conftest import play_app, settle
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen

SIZE = (80, 24)


async def test_escape_goes_back_to_home_and_the_game_stays_listed() -> None:
    app = play_app("tictactoe")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # a move, so the game is kept
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert len(app.screen.unfinished) == 1


async def test_escape_first_drops_a_half_made_move_then_goes_home() -> None:
    app = play_app("checkers")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        board.path = (board.steps(app.screen.state.legal_moves()[0])[0],)
        await pilot.press("escape")
        assert isinstance(app.screen, PlayScreen) and board.path == ()
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_the_palette_offers_home_from_a_game() -> None:
    app = play_app("tictactoe")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Home" in titles
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Home")
        command.callback()
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)

