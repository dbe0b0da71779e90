"""A board draws its lines straight from its canvas (``BoardWidget.render_line``), not
through Textual's layout of a Text: the lines must be the very strips Textual makes of
the board's Text (characters, styles, the offsets text selection uses), in every game,
with marks, the focus on and off, turned and enlarged."""

from __future__ import annotations

from typing import Any

import pytest
from textual.visual import Visual, visualize

from engine.registry import GAMES
from tests.tui.conftest import enter_move, settle
from tui.app.main import Launch, ParlorApp
from tui.app.widgets.board import BoardWidget


def textual_lines(board: BoardWidget[Any, Any]) -> list[Any]:
    """What Textual makes of the board's Text (``Widget.render_line``'s own way)."""
    width, height = board.size
    return Visual.to_strips(board, visualize(board, board.render()), width, height,
                            board.visual_style)


def board_lines(board: BoardWidget[Any, Any]) -> list[Any]:
    return [board.render_line(y) for y in range(board.canvas().height)]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_the_board_lines_are_textuals_own(game: str) -> None:
    app = ParlorApp(Launch(kind="play", game=game, players=("human", "human")))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        board = app.screen.query_one(BoardWidget)
        for ply in range(2):
            state = board.state
            await enter_move(pilot, state.legal_moves()[ply % len(state.legal_moves())])
            assert [list(s) for s in board_lines(board)] \
                == [list(s) for s in textual_lines(board)]
        board.flipped, board.scale = True, 1
        board.blur()
        await pilot.pause()
        assert [list(s) for s in board_lines(board)] == [list(s) for s in textual_lines(board)]
