"""The command palette offers each screen's keys by name and runs them as the keys do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.replay import ReplayScreen
from tui.player import paths

SIZE = (80, 24)


def play_app(game: str, players: tuple[str, str], **kw: Any) -> ParlorApp:
    """An app that opens straight into a game."""
    return ParlorApp(Launch(kind="play", game=game, players=players), seed=3, **kw)


async def test_the_command_palette_offers_each_screens_keys_by_name(tmp_path: Path) -> None:
    app = play_app("tictactoe", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for wanted in ("Game (g)", "Opponent (o)", "New (n)", "Undo (u)", "Hint (t)",
                       "Save (s)", "Saved (r)", "Help (?)", "ASCII board (b)"):
            assert wanted in titles
        home = app.screen_stack[1]
        assert isinstance(home, HomeScreen)
        assert "Play (p)" in {c.title for c in app.get_system_commands(home)}
        example = min(paths.examples_dir().glob("*.pgn"))
        app.open_replay_file(example)
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Play here (p)", "Autoplay (a)", "Saved games"} <= titles
        # the palette runs a command with call_later; it does what the key does
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Start (home)")
        app.call_later(command.callback)
        await pilot.pause()
        await pilot.pause()
        assert app.screen.index == 0

