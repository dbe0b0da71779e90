"""The Connect Four board: seven columns of six cells; the cursor picks a column."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.style import Style
from textual.binding import Binding, BindingType

from engine.games.connect4 import ConnectFourState
from tui.app.widgets.board import BoardWidget, Canvas, run_through
from tui.app.widgets.move_list import counted

WIDTH, HEIGHT = 7, 6
GLYPHS = {False: ("●", "○"), True: ("X", "O")}
"""Disc glyphs by ascii flag: Red (first) then Yellow (second)."""


class ConnectFourBoard(BoardWidget[ConnectFourState, int]):
    """Connect Four: points are the columns 0..6; Enter or a digit 1-7 drops a disc."""

    GAME = "connect4"

    DEFAULT_CSS = """
    ConnectFourBoard {
        & > .board--dark { background: #1e3a8a; }
        & > .board--first { color: #ff5a5a; text-style: bold; }
        & > .board--second { color: #ffd60a; text-style: bold; }
        & > .board--target { color: #ffffff; text-style: bold; }
    }
    """
    """The game's own colours in every theme: red and yellow discs in a blue rack (and
    distinct glyphs, ● and ○, where there is no colour)."""
    CAN_FLIP = False

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(str(c + 1), f"drop({c})", f"Drop {c + 1}", show=False) for c in range(WIDTH)
    ]

    def points(self) -> Iterable[int]:
        return range(WIDTH)

    def coord(self, point: int) -> tuple[int, int]:
        return point, 0

    def steps(self, move: int) -> tuple[int, ...]:
        return (move,)

    def start_point(self, state: ConnectFourState) -> int:
        return WIDTH // 2

    def point_name(self, point: int) -> str:
        return f"column {point + 1}"

    def column_words(self, column: int) -> str:
        """A column from the bottom up: ``Red, Yellow, then 4 empty``."""
        state = self.state
        assert state is not None
        height = state.height(column)
        discs = [str(state.PLAYERS[owner]) for r in range(height)
                 if (owner := state.cell(column, r)) is not None]
        if not discs:
            return "empty"
        return ", ".join(discs) + ("" if height >= HEIGHT else f", then {HEIGHT - height} empty")

    def reader_lines(self) -> list[str]:
        """One line per column, its discs from the bottom up."""
        if self.state is None:
            return []
        return [f"column {c + 1}: {self.column_words(c)}" for c in range(WIDTH)]

    def cursor_line(self) -> str:
        if self.state is None:
            return ""
        column = self.cursor
        height = self.state.height(column)
        words = "full" if height >= HEIGHT else f"next disc lands in row {height + 1}"
        return f"cursor column {column + 1}: {counted(height, 'disc')}, {words}"

    def said_move(self, before: ConnectFourState, move: int, after: ConnectFourState) -> str:
        row = after.height(int(move))
        return f"{before.PLAYERS[before.to_move]} plays column {int(move) + 1}, row {row}."

    def action_drop(self, column: int) -> None:
        """Drop a disc in ``column`` (0-based) at once."""
        self.cursor = column
        self.action_select()

    def refusal(self, point: int) -> str:
        if self.state is not None and self.state.height(point) >= HEIGHT:
            return f"column {point + 1} is full"
        return super().refusal(point)

    def winning_cells(self) -> set[tuple[int, int]]:
        """The (column, row) cells of the four in a row, once the game is won."""
        state = self.state
        if state is None or self.last_move is None or state.outcome() is None:
            return set()

        def owner(x: int, y: int) -> int | None:
            return state.cell(x, y) if 0 <= x < WIDTH and 0 <= y < HEIGHT else None

        column = int(self.last_move)
        return run_through(owner, column, state.height(column) - 1, 4)

    def draw(self) -> Canvas:
        state = self.state
        assert state is not None
        canvas = Canvas(2 + 3 * WIDTH, HEIGHT + 3)
        label, line = self.style("label"), self.style("line")
        wall, floor = ("|", "+" + "-" * 3 * WIDTH + "+") if self.ascii else (
            "│", "└" + "─" * 3 * WIDTH + "┘")
        targets = self.targets()
        won = self.winning_cells()
        rack = self.style("dark")
        empty = Style(color="#8fa8e8")
        for c in range(WIDTH):
            x = 1 + 3 * c
            canvas.put(x + 1, 0, str(c + 1), self.style("target") if c in targets else label)
            if c == self.cursor and self.interactive:
                canvas.put(x + 1, 1, "v" if self.ascii else "▼", self.style("cursor"))
            height = state.height(c)
            for r in range(HEIGHT):
                y = 1 + HEIGHT - r
                owner = state.cell(c, r)
                mark = None
                if r == height:
                    if c == self.cursor and self.interactive:
                        mark = "cursor"
                    elif c == self.hint:
                        mark = "hint"
                elif (c, r) in won:
                    mark = "win"
                elif r == height - 1 and c == self.last_move:
                    mark = "last"
                if owner is None:
                    glyph, gstyle = self.empty_glyph(c if r == height else None, targets)
                else:
                    glyph, gstyle = GLYPHS[self.ascii][owner], self.piece_style(owner)
                if owner is None and not (r == height and c in targets):
                    gstyle = empty
                self.put_marked(canvas, x, y, mark, glyph, gstyle, rack)
                canvas.fill(x, y, 3, rack)
            for y in range(2 + HEIGHT):
                canvas.hit(x, y, 3, c)
        for y in range(2, 2 + HEIGHT):
            canvas.put(0, y, wall, line)
            canvas.put(1 + 3 * WIDTH, y, wall, line)
        canvas.put(0, 2 + HEIGHT, floor, line)
        return canvas
