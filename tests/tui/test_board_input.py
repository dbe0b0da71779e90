"""Entering moves on the boards: flipping the board, clicking, where the cursor may stand,
and a refused selection said in words."""

from __future__ import annotations

from typing import Any

from tests.tui.conftest import play_app, play_moves, settle
from tui.app.main import ParlorApp

SIZE = (80, 24)


async def test_flip_turns_the_board_and_the_cursor_keys_follow() -> None:
    app = play_app("checkers", ("first", "human"))  # the human plays White, drawn at the bottom
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        assert not board.flipped
        text = board.canvas().to_text().plain.splitlines()
        assert "○" in text[-1] and "●" in text[1]
        start = board.cursor
        await pilot.press("up")
        above = board.cursor
        assert board.coord(above)[1] > board.coord(start)[1]
        await pilot.press("f")
        assert board.flipped
        text = board.canvas().to_text().plain.splitlines()
        assert "●" in text[-2] and "○" in text[0] and text[-1].split()[0] == "h"
        assert text[0].split()[0] == "32"  # labels stay readable
        await pilot.press("up")
        assert board.coord(board.cursor)[1] < board.coord(above)[1]


async def test_a_person_playing_black_in_checkers_sees_black_at_the_bottom() -> None:
    app = play_app("checkers", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        assert board.flipped
        text = board.canvas().to_text().plain.splitlines()
        assert "●" in text[-2] and "○" in text[0]


async def test_clicking_a_square_plays_there() -> None:
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        canvas = board.canvas()
        (x, y) = next(xy for xy, p in canvas.hits.items() if p == 0)  # a1
        await pilot.click(board, offset=(x + 2, y + 1))  # + its border and padding
        await settle(pilot)
        assert app.screen.moves == [0]


async def test_clicking_a_connect_four_column_drops_a_disc() -> None:
    app = play_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        canvas = board.canvas()
        (x, y) = max((xy for xy, p in canvas.hits.items() if p == 6), key=lambda xy: xy[1])
        await pilot.click(board, offset=(x + 2, y + 1))
        await settle(pilot)
        assert app.screen.moves == [6]


async def test_the_checkers_cursor_stands_only_on_dark_squares() -> None:
    from tui.app.widgets.checkers_board import CELL_SQUARE
    app = play_app("checkers", ("first", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        seen = {board.cursor}
        for key in ["up", "up", "left", "down", "right", "right", "up", "left"] * 3:
            await pilot.press(key)
            seen.add(board.cursor)
        assert seen <= set(CELL_SQUARE) and len(seen) > 4
        from tui.app.widgets.checkers_board import square_cell
        board.cursor = start = square_cell(22)
        await pilot.press("up")
        x0, y0 = board.coord(start)
        x1, y1 = board.coord(board.cursor)
        assert (abs(x1 - x0), y1 - y0) == (1, 1)  # one diagonal step for one press


async def refused_text(pilot: Any, app: ParlorApp, point: Any) -> str:
    board = app.screen.board
    board.cursor = point
    await pilot.press("enter")
    await pilot.pause()
    return app.screen.message


async def test_a_refused_selection_says_why_in_words() -> None:
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await play_moves(pilot, app.screen, [4])
        assert await refused_text(pilot, app, 4) == "that square is taken"
        assert "that square is taken" in str(app.screen.query_one("#status").render())
        app.start_game("connect4", {}, ("human", "human"))  # one app, a game after another
        await settle(pilot)
        await play_moves(pilot, app.screen, [2] * 6)
        assert await refused_text(pilot, app, 2) == "column 3 is full"
        app.start_game("checkers", {}, ("human", "human"))
        await settle(pilot)
        screen = app.screen
        for text in ("11-15", "22-18"):
            screen.play(screen.state.parse_move(text))
        await settle(pilot)  # Black must take 15x22
        from tui.app.widgets.checkers_board import square_cell
        jumps = [screen.state.format_move(m) for m in screen.state.legal_moves()]
        assert all("x" in j for j in jumps)
        why = await refused_text(pilot, app, square_cell(9))
        assert why.startswith("you must capture: ") and jumps[0] in why
        app.screen.typed_move("9-14")
        assert app.screen.message.startswith("you must capture: ")
        assert "ply" not in app.screen.message

