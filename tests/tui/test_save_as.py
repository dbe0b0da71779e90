"""Save-as never silently replaces a saved game: it asks, offers another name, or replaces
when told to."""

from __future__ import annotations

from textual.widgets import Input

from engine.formats import load_records
from tests.tui.conftest import settle
from tui.app.dialogs.choose import ChooseDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.main import Launch, ParlorApp
from tui.player import paths

SIZE = (80, 24)


def play_app(game: str = "tictactoe", players: tuple[str, str] = ("human", "first")) -> ParlorApp:
    """An app that opens straight into a new game."""
    return ParlorApp(Launch(kind="play", game=game, players=players), seed=1)


async def test_save_as_never_silently_replaces_a_saved_game() -> None:
    app = play_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("s", *"mine", "enter")
        await settle(pilot)
        saved = paths.saved_games_dir() / "mine.pgn"
        before = saved.read_text(encoding="utf-8")
        await pilot.press("m", *"c3", "enter")  # another move, then the same name
        await settle(pilot)
        await pilot.press("s", *"mine", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChooseDialog)
        assert saved.read_text(encoding="utf-8") == before
        await pilot.press("enter")  # "Choose another name" is highlighted
        await pilot.pause()
        assert isinstance(app.screen, PromptDialog)
        app.screen.query_one(Input).value = "mine too"
        await pilot.press("enter")
        await settle(pilot)
        assert saved.read_text(encoding="utf-8") == before
        assert len(load_records(paths.saved_games_dir() / "mine too.pgn")[0].moves) == 4
        await pilot.press("s", *"mine", "enter")
        await pilot.pause()
        await pilot.press("down", "enter")  # "Replace mine.pgn"
        await settle(pilot)
        assert len(load_records(saved)[0].moves) == 4

