"""Home starts a game from a pasted position; Saved games lists the field's formats."""

from __future__ import annotations

from typing import Any

from engine.formats import load_records
from engine.positions import parse_position
from tests.tui.conftest import settle
from tui.app.dialogs.error import ErrorDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.main import ParlorApp
from tui.app.screens.browser import BrowserScreen
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.app.screens.replay import ReplayScreen
from tui.player import paths

TTT = "3/1x1/o2 x"
C4 = "7/7/7/7/3o3/2oxx2 x"

PDN = """[Event "club"]
[White "Ann"]
[Black "Bob"]
[GameType "21"]
[Result "*"]
1. 11-15 23-19 2. 8-11 22-17 *
"""
TRANSCRIPT = "f5d6c3d3c4\n"


async def paste(pilot: Any, text: str) -> None:
    """Choose a person to move first and "first" second, press f on Home, type ``text``
    into the prompt and confirm it."""
    pilot.app.screen.query_one("#first").value = "human"
    pilot.app.screen.query_one("#second").value = "first"
    await pilot.press("f")
    await settle(pilot)
    assert isinstance(pilot.app.screen, PromptDialog)
    pilot.app.screen.query_one("#prompt").value = text
    await pilot.press("enter")
    await settle(pilot)


async def play_one(pilot: Any, screen: PlayScreen) -> Any:
    """Play the first legal move by its notation (m), then read the kept record back."""
    state = screen.history[-1]
    move = state.format_move(state.legal_moves()[0])
    await pilot.press("m")
    await settle(pilot)
    for key in move:
        await pilot.press(key)
    await pilot.press("enter")
    await settle(pilot)
    kept = load_records(screen.store.unfinished_path)[0]
    assert kept.moves[:1] == [move]
    return kept


async def test_home_starts_the_chosen_game_from_a_pasted_position() -> None:
    app = ParlorApp(seed=1)
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen) and home.game_id == "tictactoe"
        assert any(b.action == "from_position" and b.description
                   for b in home.BINDINGS if hasattr(b, "action"))
        await paste(pilot, TTT)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        start = parse_position("tictactoe", TTT)
        assert screen.history[0].key() == start.key()
        kept = await play_one(pilot, screen)
        assert kept.game == "tictactoe" and kept.initial().key() == start.key()


async def test_a_position_of_another_game_starts_that_game_with_home_sides() -> None:
    app = ParlorApp(seed=1)
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(pilot)
        await pilot.click("#position")
        await settle(pilot)
        assert isinstance(app.screen, PromptDialog)
        await pilot.press("escape")
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen)
        await paste(pilot, C4)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.history[0].key() == parse_position("connect4", C4).key()
        assert screen.players[0] == "human"
        kept = await play_one(pilot, screen)
        assert kept.game == "connect4"
        assert kept.initial().key() == parse_position("connect4", C4).key()


async def test_a_text_that_is_no_position_is_one_line() -> None:
    app = ParlorApp(seed=1)
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(pilot)
        await paste(pilot, "no board at all " + "z" * 300)
        dialog = app.screen
        assert isinstance(dialog, ErrorDialog)
        assert "\n" not in dialog.message and len(dialog.message) <= 150
        assert "no game's position" in dialog.message
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


async def test_saved_games_lists_and_opens_pdn_and_othello_transcripts() -> None:
    folder = paths.saved_games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "club.pdn").write_text(PDN)
    (folder / "opening.txt").write_text(TRANSCRIPT)
    (folder / "broken.ggf").write_text("(;GM[Othello]PB[x];B[zz];)")
    app = ParlorApp(seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.open_browser()
        await settle(pilot)
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        by_name = {e.path.name: e for e in browser.entries}
        assert set(by_name) >= {"club.pdn", "opening.txt", "broken.ggf"}
        assert by_name["club.pdn"].record is not None
        assert by_name["club.pdn"].record.game == "checkers"
        assert by_name["opening.txt"].record is not None
        assert by_name["opening.txt"].record.game == "reversi"
        broken = by_name["broken.ggf"]
        assert broken.record is None and broken.error and "\n" not in broken.error
        for name, game, moves in (("club.pdn", "checkers", 4), ("opening.txt", "reversi", 5)):
            row = next(i for i, e in enumerate(browser.entries) if e.path.name == name)
            browser.query_one("#games").move_cursor(row=row)
            await pilot.press("enter")
            await settle(pilot)
            replay = app.screen
            assert isinstance(replay, ReplayScreen)
            assert replay.record.game == game and len(replay.record.moves) == moves
            await pilot.press("escape")
            await settle(pilot)
            assert app.screen is browser
