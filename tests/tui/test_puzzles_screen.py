"""The Puzzles screen by Pilot: a right move is solved and moves both ratings; a wrong
one shows its refutation and the right move; Home opens the screen with a key."""

from __future__ import annotations

from pathlib import Path

from brains.puzzles import judge
from engine.positions import parse_position
from tests.tui.conftest import enter_move, settle
from tui.app.main import ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.puzzles import PuzzlesScreen
from tui.app.widgets.board import BoardWidget
from tui.player.puzzles import PuzzleRatings

SIZE = (110, 36)
POSITION = "2o/3/xx1 o"
"""O to move: only c1 keeps the win (it blocks X's row and makes O's threats)."""


def _puzzle():
    puzzle = judge(parse_position("tictactoe", POSITION), {})
    assert puzzle is not None and puzzle.goal == "win"
    return puzzle


async def _open(pilot, puzzle, path: Path) -> PuzzlesScreen:
    screen = PuzzlesScreen("tictactoe", [puzzle], ratings=PuzzleRatings(path))
    await pilot.app.push_screen(screen)
    await settle(pilot)
    assert pilot.app.screen is screen
    return screen


async def test_the_right_move_is_solved_and_the_ratings_move(tmp_path: Path) -> None:
    puzzle = _puzzle()
    ratings = tmp_path / "puzzles.json"
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, puzzle, ratings)
        status = str(screen.query_one("#status").render())
        assert "O to play and keep the win" in status
        state = parse_position("tictactoe", POSITION)
        await enter_move(pilot, state.parse_move(puzzle.solution))
        assert screen.answered is True
        assert f"Right: {puzzle.solution}" in screen.message.plain
        assert screen.query_one(BoardWidget).interactive is False
    stored = PuzzleRatings(ratings)
    me = stored.player("tictactoe")
    assert me.attempts == 1 and me.solved == 1 and me.rating > 1500
    assert stored.puzzle(puzzle.id, puzzle.rating, puzzle.deviation).rating < puzzle.rating


async def test_a_wrong_move_shows_the_refutation_and_the_right_move(tmp_path: Path) -> None:
    puzzle = _puzzle()
    wrong = puzzle.wrong[0]
    assert wrong.line  # the solver's reply is known
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, puzzle, tmp_path / "puzzles.json")
        await pilot.press("m")
        await settle(pilot)
        pilot.app.screen.query_one("#prompt").value = wrong.move
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.screen is screen and screen.answered is False
        text = screen.message.plain
        assert f"Wrong: {wrong.move} ({wrong.value})" in text
        assert f"Refutation: {' '.join(wrong.line)}" in text
        assert f"The move was {puzzle.solution}" in text
        board = screen.query_one(BoardWidget)
        reply_state = parse_position("tictactoe", POSITION).play_line([wrong.move, wrong.line[0]])
        assert board.state is not None and board.state.key() == reply_state.key()
        await pilot.press("n")
        await settle(pilot)
        assert "every puzzle has been shown" in screen.message.plain
    me = PuzzleRatings(tmp_path / "puzzles.json").player("tictactoe")
    assert me.attempts == 1 and me.solved == 0 and me.rating < 1500


async def test_home_opens_the_puzzles_of_the_chosen_game() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(pilot.app.screen, HomeScreen)
        pilot.app.screen.query_one("#game").value = "tictactoe"
        await settle(pilot)
        await pilot.press("z")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, PuzzlesScreen) and screen.game_id == "tictactoe"
        assert screen.puzzle is not None  # the shipped tic-tac-toe puzzles
        assert "to play and keep the" in str(screen.query_one("#status").render())


async def test_your_mistakes_become_puzzles(tmp_path: Path) -> None:
    from brains.analysis import analyse_game, annotate
    from engine.record import GameRecord, save_records
    from tui.player import paths

    record = GameRecord("tictactoe", moves=["b2", "b1", "a1", "c3", "a3", "a2", "c1"],
                        result="1-0", termination="normal",
                        tags={"First": "Ann", "Second": "Bob"})
    folder = paths.saved_games_dir()
    folder.mkdir(parents=True)
    save_records(folder / "mine.analysed.pgn", annotate(record, analyse_game(record, 10)))
    (folder / "junk.pgn").write_bytes(b"\xff\xfe not a game")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, _puzzle(), tmp_path / "puzzles.json")
        await pilot.press("y")
        await settle(pilot)
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)
        assert screen.puzzle is not None and screen.puzzle.source.startswith("your game")
        assert "from your games" in screen.message.plain
        assert "junk.pgn" in screen.message.plain
        status = str(screen.query_one("#status").render())
        assert f"From {screen.puzzle.source}" in status
        assert screen.puzzle.source in {p.source for p in screen.puzzles}
