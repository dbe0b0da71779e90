"""The settings kept between runs: Home's game, options and sides, the theme; a damaged
settings file gives the defaults, fields are checked one by one, writes are atomic."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from textual.widgets import Select

from tests.tui.conftest import settle
from tui.app.main import ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.player import settings

SIZE = (80, 24)


async def test_home_remembers_game_options_and_sides() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        home = app.screen
        home.query_one("#game", Select).value = "reversi"
        await pilot.pause()
        home.query_one("#opt-reversi-size", Select).value = 6
        home.query_one("#first", Select).value = "last"
        home.query_one("#second", Select).value = "human"
        await pilot.pause()
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen.players == ("last", "human")
    saved = json.loads(settings.settings_path().read_text())
    assert saved["game"] == "reversi" and saved["options"]["reversi"]["size"] == 6
    again = ParlorApp()
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        home = again.screen
        assert isinstance(home, HomeScreen)
        assert home.game_id == "reversi"
        assert home.query_one("#opt-reversi-size", Select).value == 6
        assert home.sides() == ("last", "human")


@pytest.mark.parametrize("content", [
    b"{not json", b"\xff\xfe", b"[1, 2]", b'{"game": 5, "options": [], "players": {"reversi": 3}}',
    b'{"game": "nope", "options": {"reversi": {"size": 7, "variant": "evil"}}, "theme": 3}',
    b'{"players": {"tictactoe": ["x" , "' + b"y" * 500 + b'"]}}',
    b"[" * 100000,
])
async def test_a_damaged_settings_file_gives_the_defaults(content: bytes) -> None:
    path = settings.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    loaded = settings.load()
    assert loaded.game is None and loaded.theme is None and loaded.players == {}
    assert all(v not in (7, "evil") for opts in loaded.options.values() for v in opts.values())
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen) and app.screen.game_id == "tictactoe"


def test_settings_are_checked_field_by_field() -> None:
    data = {"game": "connect4", "theme": "nord",
            "options": {"reversi": {"size": 6, "variant": "evil", "seed": "12"}},
            "players": {"connect4": ["human", "first"], "morris": ["a"]}}
    loaded = settings.from_json(data)
    assert loaded.game == "connect4" and loaded.theme == "nord"
    assert loaded.options == {"reversi": {"size": 6, "seed": "12"}}
    assert loaded.players == {"connect4": ("human", "first")}


def test_settings_are_written_atomically(monkeypatch: pytest.MonkeyPatch) -> None:
    settings.save(settings.Settings(game="connect4"))
    before = settings.settings_path().read_bytes()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        settings.save(settings.Settings(game="reversi"))
    assert settings.settings_path().read_bytes() == before
    assert [p.name for p in settings.settings_path().parent.iterdir()] == ["settings.json"]


async def test_the_theme_is_remembered() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.theme = "catppuccin-latte"
        await pilot.pause()
    assert settings.load().theme == "catppuccin-latte"
    again = ParlorApp()
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == "catppuccin-latte"

