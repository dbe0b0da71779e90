"""ASCII drawing: chosen by TERM=linux or parlor --ascii, the whole screen in ASCII, and
b switching the board to ASCII and back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.widgets.board import BoardWidget

SIZE = (80, 24)


def test_term_linux_picks_ascii(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "linux")
    assert ParlorApp().ascii_board
    assert not ParlorApp(ascii_board=False).ascii_board
    monkeypatch.setenv("TERM", "xterm-256color")
    assert not ParlorApp().ascii_board


def screen_text(app: ParlorApp) -> str:
    """The characters on the screen, row by row."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


@pytest.mark.parametrize("game", ["checkers", "connect4", "morris"])
async def test_ascii_mode_draws_the_whole_screen_in_ascii(game: str) -> None:
    app = ParlorApp(Launch(kind="play", game=game, players=("human", "first")),
                    ascii_board=True, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert text.isascii(), sorted({c for c in text if not c.isascii()})
        await pilot.press("escape")  # Home: buttons, lists, pickers
        await settle(pilot)
        text = screen_text(app)
        assert "Play" in text and text.isascii(), sorted({c for c in text if not c.isascii()})
        await pilot.press("b")  # and back to Unicode
        await settle(pilot)
        assert not screen_text(app).isascii()


def play_app(game: str, players: tuple[str, str], **kw: Any) -> ParlorApp:
    """An app that opens straight into a game."""
    return ParlorApp(Launch(kind="play", game=game, players=players), seed=3, **kw)


async def test_b_switches_to_a_plain_ascii_board_and_back() -> None:
    app = play_app("checkers", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.query_one(BoardWidget)
        assert not str(board.render()).isascii()
        await pilot.press("b")
        assert board.ascii and str(board.render()).isascii()
        await pilot.press("b")
        assert not board.ascii and not str(board.render()).isascii()


def test_parlor_ascii_without_a_command_opens_the_app_in_ascii(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tui import cli

    seen: list[tuple[bool, str | None]] = []
    monkeypatch.setattr(ParlorApp, "run", lambda self: seen.append(
        (self.ascii_board, self.launch.kind)))
    assert cli.main(["--ascii"]) == 0
    assert seen == [(True, "home")]

