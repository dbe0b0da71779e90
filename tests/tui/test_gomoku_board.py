"""The Gomoku board widget: cursor from the centre, moves by keys, both board sizes."""

from __future__ import annotations

from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.play import PlayScreen
from tui.app.widgets import board_class
from tui.app.widgets.gomoku_board import GomokuBoard

SIZE = (80, 24)


def test_the_registry_maps_gomoku_to_its_board():
    assert board_class("gomoku") is GomokuBoard


async def test_keys_put_a_stone_next_to_the_centre() -> None:
    app = ParlorApp(Launch(kind="play", game="gomoku", players=("human", "first")), seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        board = screen.query_one(GomokuBoard)
        assert screen.state.format_move(board.cursor) == "e5"
        await pilot.press("up", "right", "enter")
        await settle(pilot)
        # up and right from e5 is f6, Black's; the "first" brain answered a1
        assert screen.state.cell(screen.state.geometry.index["f6"]) == 0
        text = board.canvas().to_text().plain.splitlines()
        assert text[3].startswith(" 6") and text[3][3 + 3 * 5 + 1] == "●"  # rank 6, file f
        assert text[8].startswith(" 1") and text[8][3 + 1] == "○"  # rank 1, file a
        assert screen.state.cell(screen.state.geometry.index["a1"]) == 1


async def test_the_15x15_board_fits_the_terminal() -> None:
    app = ParlorApp(Launch(kind="play", game="gomoku", options={"size": 15},
                           players=("human", "first")), seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.query_one(GomokuBoard)
        lines = board.canvas().to_text().plain.splitlines()
        assert len(lines) == 16 and lines[0].startswith("15") and lines[-1].split()[-1] == "o"
        assert app.screen.state.format_move(board.cursor) == "h8"
