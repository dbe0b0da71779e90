"""Every piece stands out from the square under it in every theme (colour, 16 colours and
the greys of NO_COLOR)."""

from __future__ import annotations

from typing import Any

import pytest
from rich.color import ColorSystem

from engine.registry import GAMES
from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.play import PlayScreen
from tui.app.widgets.board import BoardWidget

SIZE = (80, 24)


def play_app(game: str, players: tuple[str, str], **kw: Any) -> ParlorApp:
    """An app that opens straight into a game."""
    return ParlorApp(Launch(kind="play", game=game, players=players), seed=3, **kw)


THEMES = ("textual-dark", "textual-light", "catppuccin-latte",
          *(pytest.param(t, marks=pytest.mark.slow) for t in (
              "solarized-light", "rose-pine-dawn", "nord", "catppuccin-mocha", "ansi-light")))
"""Dark and light themes, the light ones that once drew white on white among them (the
last ones only in the slow run)."""


PIECES = set("●○◆◇XO")


@pytest.mark.parametrize("theme", THEMES)
async def test_every_piece_stands_out_from_the_square_under_it_in_every_theme(theme: str) -> None:
    """Each piece drawn on each board, against the background it is drawn on, differs in
    brightness (so it reads in colour, 16 colours and NO_COLOR greys) and in 16 colours."""
    app = play_app("checkers", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        app.theme = theme
        for game in GAMES:
            app.start_game(game, {}, ("human", "human"))
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            for _ in range(2):  # both colours on every board
                screen.play(screen.state.legal_moves()[0])
            await settle(pilot)
            board = screen.query_one(BoardWidget)
            canvas = board.base_canvas()
            behind = board.background_colors[1].rich_color
            seen = set()
            for y in range(canvas.height):
                for x in range(canvas.width):
                    style = canvas.styles[y][x]
                    if canvas.chars[y][x] not in PIECES or style is None or style.reverse:
                        continue
                    colour, bg = style.color, style.bgcolor or behind
                    assert colour is not None and bg is not None
                    seen.add(canvas.chars[y][x])
                    if colour.is_default and bg.is_default:
                        continue  # the terminal's own text colour on its own background
                    contrast = abs(brightness(colour.get_truecolor())
                                   - brightness(bg.get_truecolor()))
                    assert contrast > 0.2, (theme, game, canvas.chars[y][x], contrast)
                    standard = ColorSystem.STANDARD
                    assert colour.downgrade(standard).number != bg.downgrade(standard).number
            assert len(seen) >= 2, (game, seen)


def brightness(rgb: Any) -> float:
    """Perceived brightness in 0..1 (the weights Textual's monochrome filter uses)."""
    r, g, b = rgb
    return (299 * r + 587 * g + 114 * b) / 255_000

