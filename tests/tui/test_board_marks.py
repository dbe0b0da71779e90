"""What the boards mark: the winning line, flipped discs and taken pieces, a mill and the
piece it took, the last move under the cursor."""

from __future__ import annotations

from tests.tui.conftest import play_app, play_moves, settle

SIZE = (80, 24)


async def test_the_winning_line_is_marked() -> None:
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, [0, 3, 1, 4, 2])  # X: a1 b1 c1
        board = screen.board
        assert board.lit == {0, 1, 2}
        assert board.base_canvas().to_text().plain.count("*X*") == 3
        app.start_game("connect4", {}, ("human", "human"))  # the same app, another game
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, [0, 1, 0, 1, 0, 1, 0])
        assert screen.board.winning_cells() == {(0, 0), (0, 1), (0, 2), (0, 3)}
        assert screen.board.base_canvas().to_text().plain.count("*") == 8


async def test_flipped_discs_and_taken_pieces_are_marked() -> None:
    app = play_app("reversi", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        before = screen.state
        move = before.legal_moves()[0]
        await play_moves(pilot, screen, [move])
        flipped = {sq for sq in range(64) if before.cell(sq) not in (None, screen.state.cell(sq))}
        assert len(flipped) == 1 and screen.board.lit == flipped
        app.start_game("checkers", {}, ("human", "human"))  # the same app, another game
        await settle(pilot)
        screen = app.screen
        for text in ("11-15", "24-20", "15-19", "23x16"):
            screen.play(screen.state.parse_move(text))
        await settle(pilot)
        from tui.app.widgets.checkers_board import square_cell
        assert screen.board.gone == {square_cell(19)}
        assert "×" in screen.board.base_canvas().to_text().plain


async def test_a_mill_and_the_piece_it_took_are_marked() -> None:
    from tests.tui.test_play import key_test_line
    _, moves = key_test_line("morris")
    at = next(i for i, m in enumerate(moves) if m[-1] is not None)
    app = play_app("morris", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, moves[: at + 1])
        board = screen.board
        assert len(board.lit) == 3 and moves[at][1] in board.lit
        assert board.gone == {moves[at][-1]}
        assert board.base_canvas().to_text().plain.count("*") >= 6


async def test_the_cursor_keeps_the_other_mark_visible() -> None:
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, [4])
        board = screen.board
        board.cursor = 4  # on the last move
        await pilot.pause()
        assert "[X)" in board.base_canvas().to_text().plain
        assert board.marks(4, piece_target=True)[:2] == ["cursor", "target"]
        board.cursor = 0
        assert board.marks(4, piece_target=True) == ["target", "last"]  # +O+, not (O)

