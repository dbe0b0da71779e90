"""A hosted player's files stay in their own folder: no path prompt, no path anywhere.

The app runs as ``parlor host`` runs it (the room service's variables set, the data
directory the player's own); the host itself is not needed to show what the app lets
a player read and write.
"""

from __future__ import annotations

import asyncio
import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from engine.formats import load_records
from engine.protocol import ParlorError
from engine.record import GameRecord
from tui.app.dialogs.choose import ChooseDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.main import Launch, ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.link import client
from tui.player import paths, store


@pytest.fixture
def hosted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This process is a hosted session whose player's folder is ``tmp_path/player``."""
    home = tmp_path / "player"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv(client.ENV_SOCKET, str(tmp_path / "rooms.sock"))
    monkeypatch.setenv(client.ENV_TOKEN, "token")
    return home


async def until(condition: Callable[[], object], what: str) -> None:
    """Let the app (a task in this loop) run until ``condition`` holds: a loaded machine
    may take a while (the brain and the saving run in workers), so the safety net is
    minutes, and the test goes on as soon as the condition holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 300
    while not condition():
        assert loop.time() < end, f"waited minutes for {what}"
        await asyncio.sleep(0.02)


def a_record() -> GameRecord:
    return GameRecord(game="tictactoe", moves=["b2"], tags={"First": "a", "Second": "b"})


def test_a_hosted_player_writes_and_reads_only_inside_their_folder(hosted, tmp_path):
    outside = tmp_path / "elsewhere" / "game.pgn"
    with pytest.raises(ValueError, match="own saved games"):
        store.save_new(outside, a_record())
    assert not outside.parent.exists()
    link = paths.saved_games_dir() / "sneaky.pgn"  # a path inside that leads outside
    link.parent.mkdir(parents=True)
    outside.parent.mkdir()
    link.symlink_to(outside)
    with pytest.raises(ValueError):
        store.save_new(paths.saved_games_dir() / "sneaky.pgn", a_record(), replace=True)
    assert not outside.exists()
    store.save_records(outside, a_record())  # (the host's own file, written by the host)
    with pytest.raises(ParlorError, match="own saved games"):
        store.read_records(outside)
    with pytest.raises(ParlorError):
        store.read_records(Path("/etc/passwd"))
    inside = store.save_new(paths.save_path("mine"), a_record())
    assert store.read_records(inside)[0].moves == ["b2"]
    examples = sorted(paths.examples_dir().glob("*.pgn"))
    assert examples and store.read_records(examples[0])  # the shipped games still open


def test_outside_a_host_a_path_is_a_path(tmp_path, monkeypatch):
    monkeypatch.delenv(client.ENV_SOCKET, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    target = store.save_new(tmp_path / "anywhere.pgn", a_record())
    assert store.read_records(target)[0].moves == ["b2"]


async def test_a_hosted_player_who_cannot_leave_a_game_unsaved_is_asked_a_name_not_a_path(
        hosted, tmp_path, monkeypatch):
    real = store.save_records

    def autosave_fails(path: Any, records: Any) -> Path:
        if paths.unfinished_dir() in Path(path).parents:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, records)

    monkeypatch.setattr(store, "save_records", autosave_fails)
    target = tmp_path / "evil" / "x.pgn"
    app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "random")),
                    seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        # Enter plays the board's move: only once the board has the focus
        await until(lambda: isinstance(app.screen, PlayScreen)
                    and app.focused is app.screen.board, "the game's board")
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await pilot.press("enter")  # a move: its autosave fails
        await until(lambda: screen.unsaved, "the failed autosave")
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, ChooseDialog), "the leave question")
        await pilot.press("home", "enter")  # the first choice: save
        await until(lambda: isinstance(app.screen, PromptDialog), "the name prompt")
        prompt = app.screen
        assert isinstance(prompt, PromptDialog)
        assert "path" not in (prompt.title_text + prompt.example).lower()
        prompt.query_one(Input).value = str(target)  # a path typed anyway is a name
        await pilot.press("enter")  # saved by name, and q goes Home (it quits only there)
        await until(lambda: isinstance(app.screen, HomeScreen), "Home")
    assert not target.parent.exists()
    [kept] = list(paths.saved_games_dir().glob("*.pgn"))
    assert load_records(kept)[0].game == "tictactoe"
