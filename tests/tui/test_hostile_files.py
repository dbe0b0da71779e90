"""No file in the data directory can hang or crash the app.

A FIFO or a symlink to ``/dev/zero`` as a saved game or an unfinished game, and a
dangling symlink: the app starts, lists what it can with one line per bad entry, and
never blocks. Each check runs in a thread joined with a generous timeout, so a hang
fails the test instead of freezing the suite.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList

from engine.protocol import ParlorError
from engine.record import GameRecord
from engine.registry import new_game
from tests.tui.conftest import settle
from tui.app.main import ParlorApp
from tui.app.screens.browser import BrowserScreen
from tui.app.screens.home import HomeScreen
from tui.player import paths, store

SIZE = (80, 24)
HANG = 60.0
"""Seconds after which a check counts as hung (it takes well under one)."""


def bounded(run: Callable[[], Any]) -> Any:
    """``run()`` in a daemon thread; fail if it does not finish within ``HANG`` seconds."""
    out: dict[str, Any] = {}

    def target() -> None:
        try:
            out["value"] = run()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            out["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), "blocked on a file (a FIFO or a device was opened)"
    if "error" in out:
        raise out["error"]
    return out.get("value")


def hostile(folder: Path) -> None:
    """A good game, a FIFO, a link to /dev/zero and a dangling link in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    record = GameRecord.from_moves(new_game("tictactoe"), [4, 0], First="human", Second="first")
    (folder / "good.pgn").write_text(record.to_text(), encoding="utf-8")
    os.mkfifo(folder / "fifo.pgn")
    os.symlink("/dev/zero", folder / "zero.pgn")
    os.symlink(folder / "missing.pgn", folder / "dangling.pgn")


def test_scanning_a_folder_of_hostile_entries_never_blocks(tmp_path: Path) -> None:
    hostile(tmp_path)
    entries = bounded(lambda: store.scan([tmp_path]))
    by_name = {e.path.name: e for e in entries}
    assert set(by_name) == {"good.pgn", "fifo.pgn", "zero.pgn", "dangling.pgn"}
    assert by_name["good.pgn"].record is not None
    assert by_name["fifo.pgn"].error == "fifo.pgn: not a regular file"
    assert by_name["zero.pgn"].error == "zero.pgn: not a regular file"
    assert "cannot read" in by_name["dangling.pgn"].error
    for name in ("fifo.pgn", "zero.pgn"):  # read directly, too
        path = tmp_path / name
        with pytest.raises(ParlorError, match="not a regular file"):
            bounded(lambda p=path: store.read_records(p))


def test_the_app_starts_lists_what_it_can_and_quits(tmp_path: Path) -> None:
    hostile(paths.unfinished_dir())
    hostile(paths.saved_games_dir())
    os.mkfifo(paths.legacy_autosave_path())  # the old single autosave, as a FIFO

    async def session() -> tuple[list[str], list[str]]:
        app = ParlorApp()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            home = app.screen
            assert isinstance(home, HomeScreen)
            listing = home.query_one("#unfinished", OptionList)
            lines = [str(listing.get_option_at_index(i).prompt)
                     for i in range(listing.option_count)]
            await pilot.press("r")
            await settle(pilot)
            browser = app.screen
            assert isinstance(browser, BrowserScreen)
            errors = [e.error for e in browser.entries if e.record is None]
            await pilot.press("escape", "q")
        assert not app.is_running
        return lines, errors

    lines, errors = bounded(lambda: asyncio.run(session()))
    assert len(lines) == 4 and sum(line.startswith("Tic-tac-toe, move 2") for line in lines) == 1
    assert sum("not a regular file" in line for line in lines) == 2
    assert sum("cannot read" in line for line in lines) == 1
    assert len(errors) == 6  # three bad entries in each of the two folders
    assert all(len(e) < 120 and "\n" not in e for e in errors)
