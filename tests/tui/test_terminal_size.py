"""The terminal's size: keys do nothing behind the too-small notice, each game's smallest
terminal, boards that grow on a large one."""

from __future__ import annotations

import pytest

from tests.tui.conftest import play_app, settle
from tui.app.main import ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen


async def test_keys_do_nothing_behind_the_too_small_notice() -> None:
    app = ParlorApp()
    async with app.run_test(size=(50, 12)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen) and app.screen.too_small
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
    app = play_app("tictactoe")
    async with app.run_test(size=(50, 12)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.too_small
        await pilot.press("enter")
        await settle(pilot)
        assert screen.moves == []
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.too_small
        await pilot.press("enter")
        await settle(pilot)
        assert len(screen.moves) == 2


@pytest.mark.parametrize("game, fits", [("tictactoe", (79, 24)), ("tictactoe", (60, 16)),
                                        ("checkers", (79, 24)), ("connect4", (70, 20))])
async def test_the_smallest_terminal_depends_on_the_game(game: str, fits: tuple[int, int]) -> None:
    app = play_app(game)
    async with app.run_test(size=fits) as pilot:
        await settle(pilot)
        assert not app.screen.too_small
        # the same game in a smaller terminal (a game opened too small: the test above)
        await pilot.resize_terminal(fits[0] - 30, fits[1] - 8)
        await pilot.pause()
        assert app.screen.too_small


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "checkers", "reversi", "morris"])
async def test_boards_grow_on_a_large_terminal(game: str) -> None:
    app = play_app(game)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        board = app.screen.board
        base = board.base_canvas()
        assert board.scale >= 2
        assert board.canvas().width == base.width * board.scale
        assert board.size.width >= base.width * 2 and board.size.height >= base.height * 2
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert board.canvas().height * 1 <= 24 - 8

