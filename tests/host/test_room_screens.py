"""The room screens without a host: the opponent picker follows the game chosen."""

from __future__ import annotations

from textual.widgets import Select

from tui.game.opponents import room_brains
from tui.link.client import ENV_SOCKET, ENV_TOKEN


async def test_the_opponent_picker_offers_the_chosen_games_brains(tmp_path, monkeypatch):
    from tui.app.main import ParlorApp
    from tui.app.screens.rooms import PERSON, RoomsScreen

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv(ENV_SOCKET, raising=False)
    monkeypatch.delenv(ENV_TOKEN, raising=False)
    app = ParlorApp()
    async with app.run_test(size=(110, 34)) as pilot:
        await app.push_screen(RoomsScreen())
        await pilot.pause()
        screen = app.screen
        game = screen.query_one("#room-game", Select)
        picker = screen.query_one("#room-opponent", Select)
        offered = [value for _, value in picker._options]
        assert offered == [PERSON, *offered[1:]]
        assert set(offered[1:]) == set(room_brains(str(game.value)))
        game.value = "tictactoe"  # whichever game the screen opened on, one with "table"
        await pilot.pause()
        picker.value = "table"  # a brain only some games have
        game.value = "gomoku"
        await pilot.pause()
        offered = [value for _, value in picker._options]
        assert set(offered[1:]) == set(room_brains("gomoku")) and "table" not in offered
        assert picker.value == PERSON
        picker.value = "level:3"
        game.value = "connect4"
        await pilot.pause()
        assert picker.value == "level:3"  # kept: connect4 has it too
        assert "cannot be reached" in str(screen.query_one("#rooms-title").render())
