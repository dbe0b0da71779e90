"""A save that fails loses nothing: the warning stays until a save succeeds; quitting or
leaving with unsaved moves asks first and can save elsewhere."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from engine.formats import load_records
from tests.tui.conftest import settle
from tui.app.dialogs.choose import ChooseDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.main import Launch, ParlorApp
from tui.app.screens.play import PlayScreen
from tui.player import paths, store

SIZE = (80, 24)


def play_app(game: str = "tictactoe", players: tuple[str, str] = ("human", "first")) -> ParlorApp:
    """An app that opens straight into a new game."""
    return ParlorApp(Launch(kind="play", game=game, players=players), seed=1)


def unfinished_moves() -> list[list[str]]:
    """The moves of every unfinished game kept, sorted."""
    return sorted(e.record.moves for e in store.unfinished() if e.record is not None)


def warning(screen: Any) -> Static:
    """The Play screen's not-saved warning."""
    return screen.query_one("#save-warning", Static)


@pytest.fixture
def disk_full(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Make every write into the data directory fail with ENOSPC until ``.fixed`` is set
    (other places, where a game may be saved instead, still work)."""
    real = store.save_records

    class Switch:
        fixed = False

    def writer(path: Any, records: Any) -> Path:
        if not Switch.fixed and paths.data_dir() in Path(path).parents:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, records)

    monkeypatch.setattr(store, "save_records", writer)
    return Switch


async def test_a_failed_autosave_stays_visible_until_a_save_succeeds(disk_full: Any) -> None:
    app = play_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.unsaved and warning(screen).display
        assert ("NOT SAVED: autosave failed: No space left on device"
                in str(warning(screen).render()))
        await pilot.pause(0.5)
        await pilot.press("right")  # time passes, keys are pressed: a toast would be gone
        await pilot.pause()
        assert warning(screen).display
        disk_full.fixed = True
        await pilot.press("m", *"c3", "enter")
        await settle(pilot)
        assert not screen.unsaved and not warning(screen).display
        assert unfinished_moves() == [["b2", "a1", "c3", "b1"]]


async def test_quitting_with_unsaved_moves_asks_and_saves_elsewhere(
        disk_full: Any, tmp_path: Path) -> None:
    app = play_app()
    target = tmp_path / "rescued.pgn"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+q")  # quit (q in a game goes Home)
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ChooseDialog)
        await pilot.press("escape")  # cancel: back to the game
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, PlayScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("home", "enter")  # "Save it elsewhere…"
        await pilot.pause()
        assert isinstance(app.screen, PromptDialog)
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
    assert not app.is_running
    assert load_records(target)[0].moves == ["b2", "a1"]


async def test_quit_anyway_is_a_choice(disk_full: Any) -> None:
    app = play_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("home", "down", "enter")  # "Leave without saving"
        await pilot.pause()
    assert not app.is_running


async def test_leaving_a_game_with_unsaved_moves_asks_first(disk_full: Any) -> None:
    app = play_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        game = app.screen
        await pilot.press("n", "enter")  # a new game (yes) would leave this one
        await pilot.pause()
        assert isinstance(app.screen, ChooseDialog)
        assert "not saved" in app.screen.title_text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game and len(game.moves) == 2

