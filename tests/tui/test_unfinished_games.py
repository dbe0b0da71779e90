"""No unfinished game is ever lost: one file per game, never replaced or wiped, listed on
Home and resumed (the cursor on a free square), kept safe between sessions, older
versions' autosaves and stale temporary files."""

from __future__ import annotations

import os
import time

from textual.widgets import OptionList

from engine.formats import load_records
from engine.record import GameRecord
from engine.registry import new_game
from tests.tui.conftest import settle
from tui.app.dialogs.choose import ChooseDialog
from tui.app.dialogs.error import ErrorDialog
from tui.app.main import Launch, ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.app.widgets.board import BoardWidget
from tui.player import paths, store

SIZE = (80, 24)


def play_app(game: str = "tictactoe", players: tuple[str, str] = ("human", "first")) -> ParlorApp:
    """An app that opens straight into a new game."""
    return ParlorApp(Launch(kind="play", game=game, players=players), seed=1)


def keep_game(game: str, texts: list[str], first: str = "human", second: str = "first",
              mtime: float | None = None) -> store.GameFile:
    """An unfinished game of ``texts`` kept in the store, as a session would leave it."""
    state = new_game(game)
    moves = []
    for text in texts:
        moves.append(state.parse_move(text))
        state = state.play(moves[-1])
    kept = store.GameFile()
    kept.save(GameRecord.from_moves(new_game(game), moves, First=first, Second=second))
    if mtime is not None:
        os.utime(kept.unfinished_path, (mtime, mtime))
    return kept


def unfinished_moves() -> list[list[str]]:
    """The moves of every unfinished game kept, sorted."""
    return sorted(e.record.moves for e in store.unfinished() if e.record is not None)


async def test_two_sessions_keep_their_own_games() -> None:
    first = play_app("tictactoe")
    async with first.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
    second = play_app("connect4")  # another terminal, or a browser through parlor serve
    async with second.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
    assert unfinished_moves() == [["4", "1"], ["b2", "a1"]]


async def test_new_games_never_replace_an_unfinished_one() -> None:
    app = play_app("tictactoe")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # game 1: b2 a1
        await settle(pilot)
        await pilot.press("n", "enter")  # game 2, same game again (yes, a new game)
        await settle(pilot)
        await pilot.press("m", *"c3", "enter")
        await settle(pilot)
        await pilot.press("g", "home", "down", "enter")  # game 3: Connect Four
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        app.back_to_home()
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert len(home.unfinished) == 3
        await pilot.press("p")  # Home's Play: game 4
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
    assert unfinished_moves() == [["4", "1"], ["b2", "a1"], ["b2", "a1"], ["c3", "a1"]]


async def test_after_a_dropped_connection_parlor_then_enter_wipes_nothing() -> None:
    keep_game("tictactoe", ["b2", "a1"])
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the focus is on Play: a new game starts
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen.moves == []
        await pilot.press("q")
    assert unfinished_moves() == [["b2", "a1"]]


async def test_home_lists_every_unfinished_game_and_resumes_any() -> None:
    now = time.time()
    older = keep_game("connect4", ["4", "4", "3"], second="last", mtime=now - 3600)
    keep_game("tictactoe", ["b2", "a1"], mtime=now)
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        listing = app.screen.query_one("#unfinished", OptionList)
        lines = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert lines[0].startswith("Tic-tac-toe, move 2: human v first, ")
        assert lines[1].startswith("Connect Four, move 2: human v last, ")
        assert time.strftime("%Y-%m-%d", time.localtime(now - 3600)) in lines[1]
        listing.focus()
        listing.highlighted = 0
        await pilot.press("down", "enter")  # the older one
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.game_id == "connect4" and screen.players == ("human", "last")
        assert screen.store.id == older.id  # it goes on in its own file
        await pilot.press("1")
        await settle(pilot)
    assert unfinished_moves() == [["4", "4", "3", "7", "1", "7"], ["b2", "a1"]]
    assert len(store.unfinished()) == 2


async def test_discarding_an_unfinished_game_asks_first() -> None:
    keep_game("tictactoe", ["b2", "a1"])
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ChooseDialog)
        await pilot.press("enter")  # "Keep it" is highlighted
        await pilot.pause()
        assert unfinished_moves() == [["b2", "a1"]]
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("down", "enter")  # "Discard it"
        await pilot.pause()
        assert unfinished_moves() == []
        assert "No unfinished games" in str(app.screen.query_one("#unfinished-title").render())


async def test_parlor_play_resume_takes_the_most_recent_unfinished_game() -> None:
    now = time.time()
    keep_game("connect4", ["4", "4"], mtime=now - 60)
    keep_game("tictactoe", ["b2", "a1"], mtime=now)
    app = ParlorApp(Launch(kind="resume"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen.game_id == "tictactoe"


async def test_a_finished_game_moves_to_the_history() -> None:
    app = play_app("tictactoe", ("first", "first"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        for _ in range(200):
            await pilot.pause(0.02)
            if screen.state.outcome() is not None:
                break
        await settle(pilot)
        assert screen.state.outcome() is not None
        await pilot.press("n")  # the next game (brains again) starts: the first stays
        await settle(pilot)
    history = list(paths.history_dir().glob("*.pgn"))
    assert len(history) == 2 and all(load_records(p)[0].result != "*" for p in history)
    assert unfinished_moves() == []


async def test_stale_temp_files_are_removed_at_start_but_fresh_ones_kept() -> None:
    folder = paths.unfinished_dir()
    folder.mkdir(parents=True)
    stale = folder / ".20260101-x.pgn.abc123.tmp"
    fresh = folder / ".20260101-y.pgn.def456.tmp"
    stale.write_text("half a game")
    fresh.write_text("a save in progress in another session")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
    assert not stale.exists() and fresh.exists()


async def test_an_autosave_of_an_older_version_is_kept_resumable() -> None:
    legacy = paths.legacy_autosave_path()
    legacy.parent.mkdir(parents=True)
    state = new_game("tictactoe")
    record = GameRecord.from_moves(state, [4], First="human", Second="first")
    legacy.write_text(record.to_text(), encoding="utf-8")
    app = ParlorApp(Launch(kind="resume"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen.moves[:1] == [4]


async def test_a_game_open_in_another_session_goes_on_here_as_a_copy() -> None:
    kept = keep_game("tictactoe", ["b2", "a1"])
    other = store.GameFile(kept.id)
    assert other.claim()  # another session plays it
    original = kept.unfinished_path.read_text(encoding="utf-8")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        listing = app.screen.query_one("#unfinished", OptionList)
        assert "(open in another session)" in str(listing.get_option_at_index(0).prompt)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("down", "enter")  # "Discard it": refused, it is in use
        await pilot.pause()
        assert isinstance(app.screen, ErrorDialog) and kept.unfinished_path.exists()
        await pilot.press("enter", "c")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.store.id != kept.id
        await pilot.press("m", *"c3", "enter")
        await settle(pilot)
    other.release()
    assert kept.unfinished_path.read_text(encoding="utf-8") == original
    assert unfinished_moves() == [["b2", "a1"], ["b2", "a1", "c3", "b1"]]


async def test_a_game_finished_elsewhere_since_home_listed_it_is_not_brought_back() -> None:
    kept = keep_game("tictactoe", ["b2", "a1"])
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert len(app.screen.unfinished) == 1
        kept.unfinished_path.unlink()  # another session finished (or discarded) it
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        assert "another session" in str(app.screen.query_one("#error-message").render())
    assert unfinished_moves() == []


async def test_a_resumed_game_puts_the_cursor_on_a_free_square() -> None:
    app = play_app("tictactoe", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # b2 (the centre), then the brain plays a1
        await settle(pilot)
        app.resume()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and len(screen.moves) == 2
        board = screen.query_one(BoardWidget)
        assert board.cursor in screen.state.legal_moves()

