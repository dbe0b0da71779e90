"""Everyone who played a side is shown where a game is looked at, not only who played last.

A game whose opponent was switched part-way keeps ``FirstPlayers``/``SecondPlayers`` tags
(the Play screen writes them); Replay's header and Saved games' line for the game name
everyone, so "human v random" never hides that alphabeta:medium played most of it.
"""

from __future__ import annotations

from pathlib import Path

from engine.record import GameRecord, save_records
from engine.registry import new_game
from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.browser import BrowserScreen
from tui.app.screens.replay import ReplayScreen
from tui.player import paths

SIZE = (100, 30)


def switched_record() -> GameRecord:
    """A Connect Four game whose second side was alphabeta:medium, then random."""
    state = new_game("connect4")
    moves = []
    for text in ["4", "4", "3", "5"]:
        move = state.parse_move(text)
        moves.append(move)
        state = state.play(move)
    return GameRecord.from_moves(new_game("connect4"), moves, First="human", Second="random",
                                 SecondPlayers="alphabeta:medium, random")


def status_text(screen: ReplayScreen) -> str:
    return str(screen.query_one("#status").render())


async def test_replay_names_everyone_who_played_a_side(tmp_path: Path) -> None:
    path = tmp_path / "switched.pgn"
    save_records(path, switched_record())
    app = ParlorApp(Launch(kind="replay", path=path), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        text = status_text(screen)
        assert "random (played by alphabeta:medium, random)" in text
        assert "human (played by" not in text  # one player on that side: nothing added


async def test_saved_games_line_names_everyone_who_played_a_side() -> None:
    folder = paths.saved_games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    save_records(folder / "switched.pgn", switched_record())
    app = ParlorApp(Launch(), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_browser()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BrowserScreen)
        intro = str(screen.query_one("#browser-intro").render())
        assert "second side played by alphabeta:medium, random" in intro
