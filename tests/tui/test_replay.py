"""Pilot tests of replay, play-from-here, the saved-games browser and damaged records."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.protocol import RecordError
from engine.record import GameRecord, load_records, save_records
from engine.registry import new_game
from tests.tui.conftest import settle
from tui import paths
from tui.app import Launch, ParlorApp
from tui.dialogs.error import ErrorDialog
from tui.screens.browser import BrowserScreen
from tui.screens.play import PlayScreen
from tui.screens.replay import ReplayScreen
from tui.widgets.board import BoardWidget

SIZE = (80, 24)
DATA = Path(__file__).parent.parent / "data" / "records"


def write_record(path: Path, game: str = "connect4", line: str = "4 4 3 5 2 1 6") -> GameRecord:
    """A finished or unfinished record of ``line`` saved at ``path``."""
    state = new_game(game)
    moves = []
    for text in line.split():
        move = state.parse_move(text)
        moves.append(move)
        state = state.play(move)
    record = GameRecord.from_moves(new_game(game), moves, First="human", Second="first",
                                   Date="2026.01.02")
    save_records(path, record)
    return record


async def test_replay_steps_and_plays_on_from_here(tmp_path: Path) -> None:
    path = tmp_path / "c4.pgn"
    record = write_record(path)
    states = record.states()
    app = ParlorApp(Launch(kind="replay", path=path), seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        board = screen.query_one(BoardWidget)
        assert screen.index == 7 and board.state.key() == states[7].key()
        await pilot.press("left", "left")
        assert screen.index == 5 and board.state.key() == states[5].key()
        await pilot.press("home")
        assert screen.index == 0 and board.state.key() == states[0].key()
        await pilot.press("right", "l")
        assert screen.index == 2 and board.last_move == 3
        await pilot.press("end")
        assert screen.index == 7
        await pilot.press("home", "right", "right", "right")
        await pilot.press("p")  # opponent dialog: human, first, last, slow
        await pilot.press("home", "down", "enter")
        await settle(pilot)
        play = app.screen
        assert isinstance(play, PlayScreen)
        assert play.moves[:3] == [3, 3, 2]
        assert play.players == ("first", "human")  # you take the side to move (Yellow)
        assert len(play.moves) == 3 and play.human_to_move()


async def test_autoplay_steps_forward(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.screens.replay.AUTOPLAY_SECONDS", 0.2)
    path = tmp_path / "c4.pgn"
    write_record(path)
    app = ParlorApp(Launch(kind="replay", path=path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("home", "a")
        await pilot.pause(0.5)
        assert 1 <= screen.index < 7
        await pilot.press("a")
        stopped = screen.index
        await pilot.pause(0.3)
        assert screen.index == stopped


async def test_damaged_record_shows_one_clear_message() -> None:
    bad = DATA / "bad" / "illegal-move.pgn"
    try:
        load_records(bad)
    except RecordError as exc:
        expected = str(exc).replace(str(bad), bad.name)  # the app names files, not paths
    app = ParlorApp(Launch(kind="replay", path=bad))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        assert str(app.screen.query_one("#error-message").render()) == expected
        assert "line 4: move 2: illegal move 'b2'" in expected
        await pilot.press("enter")
        assert not isinstance(app.screen, ErrorDialog)


async def test_browser_lists_games_and_reports_a_damaged_file() -> None:
    folder = paths.saved_games_dir()
    write_record(folder / "good.pgn")
    folder.joinpath("broken.pgn").write_text('[Game "connect4"]\n\n1. 9 *\n', encoding="utf-8")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await settle(pilot)
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        rows = {e.path.name: e for e in browser.entries}
        assert rows["good.pgn"].record is not None
        assert rows["broken.pgn"].error.endswith(
            "line 3: move 1: invalid connect4 move '9': expected a column 1-7")
        names = [e.path.name for e in browser.entries]
        await pilot.press(*["down"] * names.index("broken.pgn"), "enter")
        await pilot.pause()
        assert isinstance(app.screen, ErrorDialog)
        assert str(app.screen.query_one("#error-message").render()) == rows["broken.pgn"].error
        await pilot.press("escape")
        await pilot.press("home", *["down"] * names.index("good.pgn"), "enter")
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.record.moves == ["4", "4", "3", "5", "2", "1", "6"]


async def test_save_under_a_name() -> None:
    app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "first")))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("s", *"my game", "enter")
        await settle(pilot)
    saved = load_records(paths.saved_games_dir() / "my game.pgn")[0]
    assert saved.moves == ["b2", "a1"] and saved.tags["Second"] == "first"


async def test_a_finished_game_can_be_replayed_from_the_browser_at_once() -> None:
    app = ParlorApp(Launch(kind="play", game="tictactoe", players=("first", "first")))
    async with app.run_test(size=SIZE) as pilot:
        played = app.screen
        assert isinstance(played, PlayScreen)
        for _ in range(200):  # two brains play the whole game
            await pilot.pause(0.02)
            if played.state.outcome() is not None:
                break
        assert played.state.outcome() is not None
        assert "r replay it" in str(played.query_one("#status").render())
        await pilot.press("r")
        await settle(pilot)
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        assert browser.entries[0].path == played.store.history_path  # first row: just finished
        assert "finished" in str(browser.query_one("#games").get_row_at(0))
        intro = str(browser.query_one("#browser-intro").render())
        assert f"finished ({played.store.id}.pgn)" in intro
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen)
        texts = [s.format_move(m) for s, m in zip(played.history, played.moves, strict=False)]
        assert app.screen.record.moves == texts and app.screen.record.result != "*"
