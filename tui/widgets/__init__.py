"""The TUI's widgets: one board view per game, the move list and the status panel."""

from __future__ import annotations

import importlib

from tui.widgets.board import BoardWidget

BOARDS: dict[str, str] = {
    "checkers": "tui.widgets.checkers_board:CheckersBoard",
    "connect4": "tui.widgets.connect4_board:ConnectFourBoard",
    "morris": "tui.widgets.morris_board:MorrisBoard",
    "reversi": "tui.widgets.reversi_board:ReversiBoard",
    "tictactoe": "tui.widgets.tictactoe_board:TicTacToeBoard",
}
"""Game id -> ``module:class`` of its board widget."""


def board_class(game_id: str) -> type[BoardWidget]:
    """The board widget class that draws ``game_id``."""
    module, _, name = BOARDS[game_id].partition(":")
    cls: type[BoardWidget] = getattr(importlib.import_module(module), name)
    return cls
