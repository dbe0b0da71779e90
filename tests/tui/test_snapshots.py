"""Snapshot tests: every board at 80×24 and 160×48, ASCII, a light theme, a won line,
Home, Replay, Help and the too-small notice (each reviewed by eye)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tui.conftest import key_path, settle
from tests.tui.test_replay import write_record
from tui.app.main import Launch, ParlorApp
from tui.app.widgets.board import BoardWidget
from tui.app.widgets.checkers_board import square_cell
from tui.player import ratings as player_ratings

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


SIZES = {"80x24": (80, 24), "160x48": (160, 48)}
"""The smallest terminal the layouts are made for, and a large one (boards grow)."""

MID_GAME = {
    "tictactoe": lambda: keys("enter", "up", "right"),
    "connect4": lambda: keys("4", "4", "right"),
    "reversi": lambda: keys("enter", "down"),
    "checkers": lambda: squares((10,), 14),
    "morris": lambda: keys("enter", "up", "enter"),
    "gomoku": lambda: keys("enter", "right", "up"),
}
"""How each board snapshot reaches a position with the cursor and marks to show."""


class TestBoards:
    """Every board mid-game at 80×24 and at 160×48, cursor and marks visible."""

    @pytest.mark.parametrize("size", list(SIZES))
    @pytest.mark.parametrize("game", list(MID_GAME))
    def test_board(self, snap_compare: Any, game: str, size: str) -> None:
        assert snap_compare(game_app(game), terminal_size=SIZES[size], run_before=MID_GAME[game]())

    def test_checkers_half_made_move(self, snap_compare: Any) -> None:
        assert snap_compare(game_app("checkers"), terminal_size=SIZE,
                            run_before=squares((11,), 15))

    def test_checkers_ascii(self, snap_compare: Any) -> None:
        assert snap_compare(game_app("checkers", ascii_board=True), terminal_size=SIZE,
                            run_before=squares((11, 15), 9))

    @pytest.mark.parametrize("game", ["reversi", "connect4"])
    def test_light_theme(self, snap_compare: Any, game: str) -> None:
        async def run(pilot: Any) -> None:
            pilot.app.theme = "catppuccin-latte"
            await MID_GAME[game]()(pilot)
        assert snap_compare(game_app(game), terminal_size=SIZE, run_before=run)

    def test_tictactoe_won_line(self, snap_compare: Any) -> None:
        app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "human")), seed=1)

        async def run(pilot: Any) -> None:
            await settle(pilot)
            for move in (0, 3, 1, 4, 2):
                pilot.app.screen.play(move)
            await settle(pilot)
        assert snap_compare(app, terminal_size=SIZE, run_before=run)


def test_home(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # a new player's start is the middle rung's measured rating: fixed here, so that a
    # new calibration of the ladder does not change the picture
    monkeypatch.setattr(player_ratings, "start_rating", lambda game_id: 400.0)
    assert snap_compare(ParlorApp(), terminal_size=SIZE, run_before=keys())


def test_help(snap_compare: Any) -> None:
    assert snap_compare(ParlorApp(), terminal_size=SIZE, run_before=keys("question_mark"))


def test_replay(snap_compare: Any, tmp_path: Path) -> None:
    path = tmp_path / "c4.pgn"
    write_record(path)
    app = ParlorApp(Launch(kind="replay", path=path))
    assert snap_compare(app, terminal_size=SIZE, run_before=keys("left", "left"))


@pytest.mark.parametrize("size", [(60, 16)])
def test_too_small(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(game_app("checkers"), terminal_size=size, run_before=keys())
