"""Saved games filters as a file's game list does: `/` opens the filter line, words and
`player:`/`result:`/`year:` narrow the list, Enter goes back to it, Esc clears the filter
before it leaves."""

from __future__ import annotations

from engine.record import GameRecord, save_records
from engine.registry import new_game
from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.browser import BrowserScreen
from tui.app.screens.replay import ReplayScreen
from tui.player import paths

SIZE = (100, 30)


def save(name: str, game: str, line: list[str], first: str, second: str, date: str) -> None:
    state = new_game(game)
    moves = []
    for text in line:
        move = state.parse_move(text)
        moves.append(move)
        state = state.play(move)
    folder = paths.saved_games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    save_records(folder / f"{name}.pgn", GameRecord.from_moves(
        new_game(game), moves, First=first, Second=second, Date=date))


def names(screen: BrowserScreen) -> list[str]:
    return [screen.entries[i].path.name for i in screen.shown]


async def test_the_filter_narrows_saved_games_and_esc_clears_it_first() -> None:
    save("alpha", "connect4", ["4", "4"], "ann", "alphabeta:hard", "2025.03.01")
    save("beta", "tictactoe", ["b2"], "bob", "random", "2026.05.02")
    save("gamma", "connect4", ["3"], "bob", "perfect", "2026.07.03")
    app = ParlorApp(Launch(), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_browser()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BrowserScreen)
        everything = names(screen)
        assert {"alpha.pgn", "beta.pgn", "gamma.pgn"} <= set(everything)
        await pilot.press("slash", *"player:bob")
        await settle(pilot)
        assert sorted(names(screen)) == ["beta.pgn", "gamma.pgn"]
        await pilot.press(*" connect")  # a word: the game's name
        await settle(pilot)
        assert names(screen) == ["gamma.pgn"]
        await pilot.press("enter", "enter")  # back to the list, then replay the one row
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        await pilot.press("slash", "ctrl+u", *"year:2025")
        await settle(pilot)
        assert names(screen) == ["alpha.pgn"]
        await pilot.press("escape")  # clears the filter, stays on Saved games
        await settle(pilot)
        assert app.screen is screen and names(screen) == everything
        await pilot.press("slash", *"nobody-plays-this")
        await settle(pilot)
        assert names(screen) == []
        assert "No game matches the filter" in str(screen.query_one("#browser-intro").render())
