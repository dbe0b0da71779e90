"""The TUI's structure: a typed path from screens to the app (import cycles and directions:
tests/test_layers.py), games and
their options read from the engine's registry, no stand-in brains."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Select

from brains import registry
from brains.protocol import UnknownBrainError
from engine import registry as engine_registry
from engine.games.tictactoe import TicTacToe
from engine.protocol import Option
from engine.registry import GAMES
from tests.tui.conftest import settle
from tui.app.api import ParlorApi
from tui.app.dialogs.error import ErrorDialog
from tui.app.main import ParlorApp
from tui.app.screens.home import HomeScreen, option_widget_id
from tui.app.screens.play import PlayScreen
from tui.game import opponents
from tui.game.opponents import brain_specs as real_brain_specs
from tui.game.opponents import make_brain as real_make_brain

TUI = Path(__file__).resolve().parents[2] / "tui"
SIZE = (80, 24)


def test_screens_reach_the_app_only_through_its_typed_interface() -> None:
    for path in [*TUI.glob("app/screens/*.py"), *TUI.glob("app/dialogs/*.py")]:
        text = path.read_text(encoding="utf-8")
        assert "type: ignore" not in text, path.name
        assert not re.search(r"getattr\(self\.app", text), path.name
        assert "tui.app.main" not in text, path.name
    assert isinstance(ParlorApp(), ParlorApi)


def test_home_lists_every_registered_game_with_its_declared_options(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Clone(TicTacToe):
        id = "clone"
        name = "Tic-tac-toe clone"
        options = (Option("colour", "red", ("red", "blue"), "colour of the marks"),
                   Option("handicap", 0, None, "free moves"))

        def _initial(self, **options: Any) -> Any:
            return super()._initial()

    module = type(engine_registry)("tests_tui_clone")
    module.Clone = Clone  # type: ignore[attr-defined]
    monkeypatch.setitem(__import__("sys").modules, "tests_tui_clone", module)
    monkeypatch.setitem(engine_registry._GAME_CLASSES, "clone", "tests_tui_clone:Clone")
    started: list[tuple[str, dict[str, Any]]] = []

    async def run() -> None:
        app = ParlorApp()
        monkeypatch.setattr(app, "start_game",
                            lambda game, options, players, **_: started.append((game, options)))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            home = app.screen
            assert isinstance(home, HomeScreen)
            game = home.query_one("#game", Select)
            assert [value for _, value in game._options if value is not Select.BLANK] \
                == list(GAMES)
            game.value = "clone"
            await pilot.pause()
            colour = home.query_one(f"#{option_widget_id('clone', Clone.options[0])}", Select)
            handicap = home.query_one(f"#{option_widget_id('clone', Clone.options[1])}", Input)
            assert colour.display and colour.value == "red"
            assert not home.query_one("#options-reversi").display
            colour.value = "blue"
            handicap.value = "2"
            await pilot.press("p")
            game.value = "reversi"
            await pilot.pause()
            size = home.query_one("#opt-reversi-size", Select)
            assert [v for _, v in size._options] == [8, 6, 4]
            size.value = 6
            await pilot.press("p")

    import asyncio
    asyncio.run(run())
    assert started[0] == ("clone", {"colour": "blue", "handicap": "2"})
    assert started[1][0] == "reversi"
    assert started[1][1]["size"] == 6 and started[1][1]["variant"] == "standard"
    assert isinstance(started[1][1]["seed"], int)  # a blank seed is a fresh random one


def test_a_brain_that_does_not_load_is_an_error_not_a_stand_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.BRAINS, "ghost", "brains.ghost_brain_missing:Ghost")
    monkeypatch.setattr(opponents, "make_brain", real_make_brain)
    with pytest.raises(UnknownBrainError, match="cannot be imported"):
        opponents.make_brain("ghost", "tictactoe")
    assert not hasattr(opponents, "_RandomMover")

    def broken(game_id: str | None = None) -> Any:
        raise UnknownBrainError("brain 'ghost' is not installed (brains.ghost is missing)")

    monkeypatch.setattr(opponents, "brain_specs", real_brain_specs)
    monkeypatch.setattr(registry, "list_brains", broken)
    with pytest.raises(UnknownBrainError):
        opponents.brain_specs("tictactoe")


async def test_home_says_when_the_opponents_cannot_be_listed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game_id: str | None = None) -> Any:
        raise UnknownBrainError("brain 'ghost' is not installed (brains.ghost is missing)")

    monkeypatch.setattr(opponents, "brain_specs", real_brain_specs)
    monkeypatch.setattr(registry, "list_brains", broken)
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        assert "ghost" in str(app.screen.query_one("#error-message").render())
        await pilot.press("enter")
        assert isinstance(app.screen, HomeScreen)
        assert app.screen.sides() == ("human", "human")
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
