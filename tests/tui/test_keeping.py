"""No game is ever lost: one file per game, failed saves, leaving, save-as, resuming.

Each test reproduces a way a game used to be lost (a failed autosave then ``q``, two
sessions sharing one file, a new game replacing the unfinished one, save-as replacing a
saved game, a record naming a model file, a spec too long to read back).
"""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList, Static

from brains import registry
from engine.formats import load_records
from engine.record import GameRecord
from engine.registry import new_game
from tests.tui.conftest import settle
from tui.app.dialogs.choose import ChooseDialog
from tui.app.dialogs.error import ErrorDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.main import Launch, ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.game import opponents
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


# -- a failed autosave ----------------------------------------------------------------


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


# -- one file per game ----------------------------------------------------------------


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


# -- save-as ------------------------------------------------------------------------


async def test_save_as_never_silently_replaces_a_saved_game() -> None:
    app = play_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("s", *"mine", "enter")
        await settle(pilot)
        saved = paths.saved_games_dir() / "mine.pgn"
        before = saved.read_text(encoding="utf-8")
        await pilot.press("m", *"c3", "enter")  # another move, then the same name
        await settle(pilot)
        await pilot.press("s", *"mine", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChooseDialog)
        assert saved.read_text(encoding="utf-8") == before
        await pilot.press("enter")  # "Choose another name" is highlighted
        await pilot.pause()
        assert isinstance(app.screen, PromptDialog)
        app.screen.query_one(Input).value = "mine too"
        await pilot.press("enter")
        await settle(pilot)
        assert saved.read_text(encoding="utf-8") == before
        assert len(load_records(paths.saved_games_dir() / "mine too.pgn")[0].moves) == 4
        await pilot.press("s", *"mine", "enter")
        await pilot.pause()
        await pilot.press("down", "enter")  # "Replace mine.pgn"
        await settle(pilot)
        assert len(load_records(saved)[0].moves) == 4


# -- what is written can be read back; what is read cannot load a model ---------------

LONG_SPEC = "alphabeta," + ",".join(["depth=2"] * 200)
"""A spec longer than a record tag may be (the brain registry refuses it too: specs are
capped below the record's tag limit, so whatever the registry accepts a record keeps)."""
TOO_LONG = ("too long", "longer than")


def test_a_spec_too_long_for_a_record_is_refused_by_parlor_play(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tui import cli

    monkeypatch.setattr(opponents, "make_brain", registry.make_brain)
    ran: list[Any] = []
    monkeypatch.setattr(ParlorApp, "run", lambda self: ran.append(self))
    assert cli.main(["play", "--game", "tictactoe", "--second", LONG_SPEC]) == 2
    err = capsys.readouterr().err.strip()
    assert not ran and len(err.splitlines()) == 1 and len(err) < 200
    assert any(reason in err for reason in TOO_LONG)
    assert cli.main(["play", "--game", "tictactoe", "--first", "alphabeta,depth=2\nx"]) == 2
    assert "control characters" in capsys.readouterr().err


async def test_a_spec_too_long_for_a_record_is_refused_at_the_start_of_a_game() -> None:
    app = play_app("tictactoe", ("human", LONG_SPEC))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        message = str(app.screen.query_one("#error-message").render())
        assert any(reason in message for reason in TOO_LONG)
    assert not paths.unfinished_dir().exists() or unfinished_moves() == []


async def test_a_model_path_in_a_record_is_never_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = opponents.make_brain

    def tracking(spec: str, game_id: str, seed: int | None = None) -> Any:
        made.append(spec)
        return real(spec, game_id, seed)

    monkeypatch.setattr(opponents, "make_brain", tracking)
    spec = "mlp,model=/tmp/hostile.joblib"
    keep_game("tictactoe", ["b2", "a1"], second=spec)
    app = ParlorApp(Launch(kind="resume"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and len(screen.moves) == 2
        assert screen.human_to_move()  # the human side resumes
        await pilot.press("m", *"c3", "enter")
        await settle(pilot)
        assert len(screen.moves) == 3
        text = str(screen.query_one("#status").render())
        assert "names a file (model=)" in text and "never loads a model" in text
        assert "press o" in text
        await pilot.press("t")  # a hint comes from another brain, not the record's
        await settle(pilot)
        await pilot.press("o", "home", "down", "enter")  # choose "first" instead
        await settle(pilot)
        assert len(screen.moves) == 4
    assert not any("model" in s for s in made) and "first" in made


def test_a_game_option_too_long_for_a_record_is_refused_by_parlor_play(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from tui import cli

    ran: list[Any] = []
    monkeypatch.setattr(ParlorApp, "run", lambda self: ran.append(self))
    seed = "7" * 1200  # a valid int, but the Seed tag could not be read back
    assert cli.main(["play", "--game", "reversi", "--first", "human", "--second", "first",
                     "-o", "variant=randomstart", "-o", f"seed={seed}"]) == 2
    err = capsys.readouterr().err.strip()
    assert not ran and "Seed is too long" in err and len(err.splitlines()) == 1


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
