"""The saved-games browser: damaged files told apart at 80 columns, Home and End, deleting
and renaming after asking, never over another file."""

from __future__ import annotations

from typing import Any

from tests.tui.conftest import settle
from tui.app.main import ParlorApp

SIZE = (80, 24)


def screen_text(app: ParlorApp) -> str:
    """The characters on the screen, row by row."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def open_browser(pilot: Any, app: ParlorApp) -> Any:
    from tui.app.screens.browser import BrowserScreen
    await settle(pilot)
    await pilot.press("r")
    await settle(pilot)
    assert isinstance(app.screen, BrowserScreen)
    return app.screen


async def test_the_browser_at_80_columns_tells_damaged_files_apart_and_end_goes_last() -> None:
    from textual.widgets import DataTable

    from tui.player import paths
    folder = paths.saved_games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("a-very-long-name-of-a-damaged-game-number-1.pgn",
                 "a-very-long-name-of-a-damaged-game-number-2.pgn"):
        folder.joinpath(name).write_text('[Game "connect4"]\n\n1. 9 *\n', encoding="utf-8")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        browser = await open_browser(pilot, app)
        text = screen_text(app)
        assert "r-1.pgn" in text and "r-2.pgn" in text  # cut in the middle: the ends differ
        assert all(len(line) <= 80 for line in text.splitlines())
        await pilot.press("end")
        assert browser.query_one(DataTable).cursor_row == len(browser.entries) - 1
        await pilot.press("home")
        assert browser.query_one(DataTable).cursor_row == 0


async def test_a_saved_game_is_deleted_and_renamed_after_asking_never_over_another() -> None:
    from tests.tui.test_replay import write_record
    from tui.player import paths
    folder = paths.saved_games_dir()
    write_record(folder / "one.pgn")
    write_record(folder / "two.pgn")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        browser = await open_browser(pilot, app)
        names = [e.path.name for e in browser.entries]
        await pilot.press(*["down"] * names.index("one.pgn"))
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*["backspace"] * 10, *"two", "enter")  # taken: refused
        await settle(pilot)
        assert "already" in str(app.screen.query_one("#error-message").render())
        await pilot.press("escape")
        assert (folder / "one.pgn").exists() and (folder / "two.pgn").exists()
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*["backspace"] * 10, *"ché ckers: 1", "enter")
        await settle(pilot)
        assert sorted(p.name for p in folder.iterdir()) == ["ché ckers- 1.pgn", "two.pgn"]
        names = [e.path.name for e in browser.entries]
        await pilot.press("home", *["down"] * names.index("two.pgn"), "d")
        await pilot.pause()
        await pilot.press("escape")  # cancelled: kept
        assert (folder / "two.pgn").exists()
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("down", "enter")  # "Delete it"
        await settle(pilot)
        assert not (folder / "two.pgn").exists()
        names = [e.path.name for e in browser.entries if e.path.parent == folder]
        assert names == ["ché ckers- 1.pgn"]

