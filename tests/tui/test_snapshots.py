"""Snapshot tests at 80×24: every board, Home, Replay and Help (each reviewed by eye)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tui.conftest import key_path, settle
from tests.tui.test_replay import write_record
from tui.app import Launch, ParlorApp
from tui.widgets.board import BoardWidget
from tui.widgets.checkers_board import square_cell

SIZE = (80, 24)


def game_app(game: str, options: dict[str, Any] | None = None, *,
             ascii_board: bool = False) -> ParlorApp:
    """An app opened on a new game of ``game`` against the instant "first" brain."""
    return ParlorApp(Launch(kind="play", game=game, options=options or {},
                            players=("human", "first")), ascii_board=ascii_board, seed=1)


def keys(*presses: str) -> Any:
    """A run_before hook that presses keys and waits for the brains."""
    async def run(pilot: Any) -> None:
        await settle(pilot)
        for key in presses:
            await pilot.press(key)
            await settle(pilot)
    return run


def squares(chosen: tuple[int, ...], cursor: int) -> Any:
    """A run_before hook that picks checkers squares by keys, then parks the cursor."""
    async def run(pilot: Any) -> None:
        await settle(pilot)
        board = pilot.app.screen.query_one(BoardWidget)
        for square in chosen:
            await pilot.press(*key_path(board, board.cursor, square_cell(square)), "enter")
            await settle(pilot)
        await pilot.press(*key_path(board, board.cursor, square_cell(cursor)))
    return run


class TestBoards:
    """One snapshot per game board, mid-game, cursor and marks visible."""

    def test_tictactoe(self, snap_compare: Any) -> None:
        assert snap_compare(game_app("tictactoe"), terminal_size=SIZE,
                            run_before=keys("enter", "up", "right"))

    def test_connect4(self, snap_compare: Any) -> None:
        assert snap_compare(game_app("connect4"), terminal_size=SIZE,
                            run_before=keys("4", "4", "right"))

    def test_reversi(self, snap_compare: Any) -> None:
        assert snap_compare(game_app("reversi"), terminal_size=SIZE,
                            run_before=keys("enter", "t", "down"))

    def test_checkers_half_made_move(self, snap_compare: Any) -> None:
        assert snap_compare(game_app("checkers"), terminal_size=SIZE,
                            run_before=squares((10,), 14))

    def test_checkers_ascii(self, snap_compare: Any) -> None:
        assert snap_compare(game_app("checkers", ascii_board=True), terminal_size=SIZE,
                            run_before=squares((11, 15), 9))

    def test_morris(self, snap_compare: Any) -> None:
        assert snap_compare(game_app("morris"), terminal_size=SIZE,
                            run_before=keys("enter", "up", "enter"))


def test_home(snap_compare: Any) -> None:
    assert snap_compare(ParlorApp(), terminal_size=SIZE, run_before=keys())


def test_help(snap_compare: Any) -> None:
    assert snap_compare(ParlorApp(), terminal_size=SIZE, run_before=keys("question_mark"))


def test_replay(snap_compare: Any, tmp_path: Path) -> None:
    path = tmp_path / "c4.pgn"
    write_record(path)
    app = ParlorApp(Launch(kind="replay", path=path))
    assert snap_compare(app, terminal_size=SIZE, run_before=keys("left", "left"))


@pytest.mark.parametrize("size", [(60, 20)])
def test_too_small(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(game_app("tictactoe"), terminal_size=size, run_before=keys())
