"""Pilot tests of replay, play-from-here, the saved-games browser and damaged records."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from textual.widgets import Input

from engine.formats import load_records
from engine.protocol import RecordError
from engine.record import GameRecord, save_records
from engine.registry import new_game
from tests.tui.conftest import settle
from tui.app.dialogs.error import ErrorDialog
from tui.app.main import Launch, ParlorApp
from tui.app.screens.browser import BrowserScreen, FileEntry
from tui.app.screens.collection import CollectionScreen, GameList, parse_query
from tui.app.screens.play import PlayScreen
from tui.app.screens.replay import ReplayScreen
from tui.app.widgets.board import BoardWidget
from tui.player import paths

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
    monkeypatch.setattr("tui.app.screens.replay.AUTOPLAY_SECONDS", 0.2)
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


# --------------------------------------------------------------------------- large files

FORMATS = Path(__file__).parent.parent / "data" / "formats"


def big_wthor(folder: Path, count: int = 10_000) -> tuple[Path, list[bytes]]:
    """A WTHOR file of ``count`` games, the 12 real games of 1977 over and over, game i
    between players i % 40 and (i + 1) % 40 of a names file beside it; and the 68 bytes
    of each game."""
    data = (FORMATS / "WTH_1977.wtb").read_bytes()
    real = [data[16 + i * 68:16 + (i + 1) * 68] for i in range(12)]
    games = [struct.pack("<HHH", 0, i % 40, (i + 1) % 40) + real[i % 12][6:]
             for i in range(count)]
    header = data[:4] + struct.pack("<I", count) + data[8:16]
    (folder / "WTHOR.JOU").write_bytes(bytes(16) + b"".join(
        f"Player{n:02d}".encode().ljust(20, b"\0") for n in range(40)))
    path = folder / "big.wtb"
    path.write_bytes(header + b"".join(games))
    return path, games


async def test_a_10000_game_file_lists_its_games_with_numbers_and_names_and_filters(
        tmp_path: Path) -> None:
    path, games = big_wthor(tmp_path)
    app = ParlorApp(Launch(kind="replay", path=path))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CollectionScreen)
        listed = screen.query_one(GameList)
        assert len(screen.shown) == len(listed.texts) == 10_000
        assert listed.texts[0].split()[:4] == ["1", "Player00", "Player01", "1-0"]
        assert listed.texts[-1].split()[:3] == ["10000", "Player39", "Player00"]
        await pilot.press(*"#5000")
        assert [row.chunk.number for row in screen.shown] == [5000]
        screen.query_one(Input).value = "player:player07 result:0-1"
        await pilot.pause()
        expected = [i + 1 for i, game in enumerate(games)
                    if 7 in (i % 40, (i + 1) % 40) and game[6] < 32]
        assert [row.chunk.number for row in screen.shown] == expected and expected
        opening = "".join(screen.rows[2].chunk.opening[:3])  # the third game's: f5f6e6
        screen.query_one(Input).value = f"opening:{opening}"
        await pilot.pause()
        assert len(screen.shown) == sum(g[8:11] == games[2][8:11] for g in games)
        await pilot.press("down", "down", "enter")  # the filter, then the list: its 2nd
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        number = screen.shown[1].chunk.number
        assert replay.sub_title == f"Replay big.wtb game {number}"
        status = str(replay.query_one("#status").render())
        assert f"Black: Player{(number - 1) % 40:02d}" in status
        assert f"White: Player{number % 40:02d}" in status


async def test_the_game_list_reports_damaged_games_and_replays_good_ones() -> None:
    path = FORMATS / "tinsley-damaged.pdn"
    app = ParlorApp(Launch(kind="replay", path=path))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)  # the background check has read every game
        await pilot.pause()  # and its message is handled
        screen = app.screen
        assert isinstance(screen, CollectionScreen) and screen.checked
        assert sorted(screen.damaged) == [3, 8, 18]
        # game 13's header says 0-1; the threefold repetition made it a draw
        assert screen.rows[12].chunk.result == "1/2-1/2"
        intro = str(screen.query_one("#collection-intro").render())
        assert "20 games; 3 damaged: game 3: line 36: move 123: illegal move '32-28'" in intro
        screen.query_one(Input).value = "damaged"
        await pilot.pause()
        assert [row.chunk.number for row in screen.shown] == [3, 8, 18]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ErrorDialog)
        assert "game 3: line 36: move 123" in str(app.screen.query_one("#error-message").render())


async def test_replay_game_n_of_a_file_opens_it_at_once() -> None:
    path = FORMATS / "tinsley-damaged.pdn"
    app = ParlorApp(Launch(kind="replay", path=path, number=13))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.sub_title == "Replay tinsley-damaged.pdn game 13"
        status = str(replay.query_one("#status").render())
        assert "Black: " in status and "Black: ?" not in status and "White: ?" not in status
        assert "Result 1/2-1/2" in status  # game 681: ended by the threefold repetition
    app = ParlorApp(Launch(kind="replay", path=path, number=8))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        message = str(app.screen.query_one("#error-message").render())
        assert message.startswith("tinsley-damaged.pdn: line 86: move 31:")


async def test_saved_games_lists_a_file_of_many_games_as_one_row(tmp_path: Path) -> None:
    big_wthor(tmp_path, count=500)
    write_record(tmp_path / "one.pgn")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(BrowserScreen([tmp_path]))
        await pilot.pause()
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        rows = {e.path.name: e for e in browser.entries}
        assert isinstance(rows["big.wtb"], FileEntry) and len(rows["big.wtb"].chunks) == 500
        assert rows["one.pgn"].record is not None
        names = [e.path.name for e in browser.entries]
        row = browser.query_one("#games").get_row_at(names.index("big.wtb"))
        assert row[:2] == ["Reversi", "500 games"]
        await pilot.press("home", *["down"] * names.index("big.wtb"), "enter")
        await pilot.pause()
        assert isinstance(app.screen, CollectionScreen) and len(app.screen.shown) == 500


def test_filters_of_the_game_list() -> None:
    query = parse_query("Tinsley year:1946-1950 result:draw opening:11-15,23-18 #7")
    assert query.words == ["tinsley"] and query.years == (1946, 1950)
    assert query.result == "1/2-1/2" and query.opening == "11-1523-18" and query.number == 7
    assert parse_query("year:2004").years == (2004, 2004)
    assert parse_query("player:vecchi x:y").players == ["vecchi"]
    assert parse_query("player:vecchi x:y").words == ["x:y"]
