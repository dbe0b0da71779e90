"""The TUI's widgets: one board view per game, the move list and the status panel.

:data:`BOARDS` is the one place that says which widget draws which game: one line per
game of :data:`engine.registry.GAMES`. :func:`board_class` checks it, so a game without
its widget (or a widget drawing another game) is a clear error, and ``tests/tui`` checks
every registered game has one.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.registry import GAMES
from tui.app.widgets.board import BoardWidget

BOARDS: dict[str, str] = {
    "checkers": "tui.app.widgets.checkers_board:CheckersBoard",
    "connect4": "tui.app.widgets.connect4_board:ConnectFourBoard",
    "gomoku": "tui.app.widgets.gomoku_board:GomokuBoard",
    "morris": "tui.app.widgets.morris_board:MorrisBoard",
    "reversi": "tui.app.widgets.reversi_board:ReversiBoard",
    "tictactoe": "tui.app.widgets.tictactoe_board:TicTacToeBoard",
}
"""Game id -> ``module:class`` of its board widget."""


class MissingBoardError(LookupError):
    """A registered game with no board widget, or a widget that draws another game."""


def board_class(game_id: str) -> type[BoardWidget[Any, Any]]:
    """The board widget class that draws ``game_id``; MissingBoardError if there is none."""
    if game_id not in BOARDS:
        where = "registered" if game_id in GAMES else "not a registered game"
        raise MissingBoardError(f"no board widget for game {str(game_id)[:60]!r} ({where}); "
                                "add its line to tui.app.widgets.BOARDS")
    module, _, name = BOARDS[game_id].partition(":")
    cls: type[BoardWidget[Any, Any]] = getattr(importlib.import_module(module), name)
    if game_id != cls.GAME:
        raise MissingBoardError(f"tui.app.widgets.BOARDS maps {game_id!r} to {cls.__name__}, "
                                f"which draws {cls.GAME!r}")
    return cls
