"""Pilot tests of the explorer: `x` opens it with rows in Replay and in Play; Enter steps
to the chosen move in Replay; Esc closes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import DataTable

from engine.record import GameRecord, save_records
from engine.registry import new_game
from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.explorer import ExplorerScreen
from tui.app.screens.play import PlayScreen
from tui.app.screens.replay import ReplayScreen
from tui.player import store

SIZE = (100, 32)
WAIT_PAUSES = 600
"""A safety net only: pauses to wait for the explorer's worker before giving up."""


def record(game: str, line: str, result: str = "1-0") -> GameRecord:
    state, moves = new_game(game), []
    for text in line.split():
        moves.append(state.parse_move(text))
        state = state.play(moves[-1])
    tags = {} if state.outcome() is not None else {"Result": result,
                                                   "Termination": "resignation"}
    return GameRecord.from_moves(new_game(game), moves, Date="2026.01.02", **tags)


async def rows_of(pilot: Any) -> list[list[str]]:
    """The explorer's rows, once its worker has shown them."""
    screen = pilot.app.screen
    assert isinstance(screen, ExplorerScreen)
    for _ in range(WAIT_PAUSES):
        if screen.done:
            break
        await pilot.pause(0.05)
    assert screen.done
    await settle(pilot)
    table = screen.query_one(DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_x_in_replay_opens_the_explorer_and_enter_steps(tmp_path: Path) -> None:
    path = tmp_path / "one.pgn"
    save_records(path, record("tictactoe", "a1 b2 a2 a3 c1 b1 c3 c2 b3", "1/2-1/2"))
    # the player's own games count too: one more game from the same start
    store.GameFile().save(record("tictactoe", "c3 b2 a1", "0-1"))
    app = ParlorApp(Launch(kind="replay", path=path), seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await pilot.press("home", "x")
        rows = await rows_of(pilot)
        # a1 and c3 are mirror images, yet the empty board keeps every symmetry: apart
        assert sorted(row[:2] for row in rows) == [["a1", "1"], ["c3", "1"]]
        status = str(app.screen.query_one("#explorer-status").render())
        assert "2 of 2 games" in status
        # Enter on the game's own next move steps to it
        table = app.screen.query_one(DataTable)
        table.move_cursor(row=[r[0] for r in rows].index("a1"))
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is replay and replay.index == 1
        # after a1: this file's game (b2, a draw) and your game from c3, its mirror
        # image (b2, a win for O, who is to move)
        await pilot.press("x")
        rows = await rows_of(pilot)
        assert [row[:5] for row in rows] == [["b2", "2", "50.0", "50.0", "0.0"]]
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is replay and replay.index == 1


async def test_x_in_play_opens_the_explorer_on_your_games() -> None:
    store.GameFile().save(record("connect4", "4 4 4 4 4 4 3 3 3 3 2 2 2 2 1"))
    store.GameFile().save(record("connect4", "1 7", "0-1"))
    app = ParlorApp(Launch(kind="play", game="connect4", players=("human", "first")), seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        play = app.screen
        assert isinstance(play, PlayScreen)
        await pilot.press("x")
        rows = await rows_of(pilot)
        # Red to move at the start: 4 went on to win, 1 to lose
        by_move = {row[0]: row[1:5] for row in rows}
        assert by_move == {"4": ["1", "100.0", "0.0", "0.0"], "1": ["1", "0.0", "0.0", "100.0"]}
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is play


async def test_a_missing_file_is_one_line_and_your_games_still_show(tmp_path: Path) -> None:
    path = tmp_path / "gone.pgn"
    save_records(path, record("tictactoe", "a1 b2"))
    store.GameFile().save(record("tictactoe", "b2 a1", "0-1"))
    app = ParlorApp(Launch(kind="replay", path=path), seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        path.unlink()
        await pilot.press("home", "x")
        rows = await rows_of(pilot)
        assert [row[:2] for row in rows] == [["b2", "1"]]
        status = str(app.screen.query_one("#explorer-status").render())
        assert "gone.pgn" in status and len(status.splitlines()) == 2


async def test_closing_at_once_leaves_the_replay_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "one.pgn"
    save_records(path, record("tictactoe", "a1 b2 a2"))
    app = ParlorApp(Launch(kind="replay", path=path), seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        replay = app.screen
        await pilot.press("x", "escape")
        await settle(pilot)
        assert app.screen is replay and replay.index == 3
        # and it opens again, with the index kept or built whole
        await pilot.press("home", "x")
        assert [row[:2] for row in await rows_of(pilot)] == [["a1", "1"]]
