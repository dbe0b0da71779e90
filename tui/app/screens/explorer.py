"""ExplorerScreen: the moves played from a position in the player's collections.

Opened with ``x`` from Replay and Play for the position shown: a row per move (games,
win / draw / loss share for the side to move, the exact value where a solver settles
the position quickly). The indexes are opened, and built where missing or out of date,
in a worker thread that reports its progress; Enter dismisses the screen with the
highlighted move (Replay steps to it when it is the game's next move), Esc without one.
See :mod:`tui.player.explorer`.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from engine.protocol import AnyState, ParlorError
from tui.player import explorer, store

COLUMNS = ("move", "games", "win %", "draw %", "loss %", "exact")
PROBLEM_CHARS = 90
"""A problem's line is cut to this many characters, from the left (where a long path's
folders are, so the file's name and the reason stay)."""


def tail(text: str, limit: int = PROBLEM_CHARS) -> str:
    """``text`` on one line, its start cut (``…``) to at most ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else "…" + line[-(limit - 1):]


class ExplorerScreen(ModalScreen[Any]):
    """The explorer's rows for ``state`` over ``collections``; dismisses with the move
    chosen (Enter) or None (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,x", "close", "Close", tooltip="Close the explorer"),
        Binding("j", "cursor('down')", show=False),
        Binding("k", "cursor('up')", show=False),
    ]

    def __init__(self, state: AnyState, collections: list[explorer.Collection],
                 seconds: float = explorer.EXACT_SECONDS) -> None:
        super().__init__()
        self.state = state
        self.collections = list(collections)
        self.seconds = seconds
        self.stop = threading.Event()
        self.rows: list[explorer.Row] = []
        self.done = False
        """True once every index is open and the rows are shown."""

    def compose(self) -> ComposeResult:
        side = self.state.PLAYERS[self.state.to_move]
        with Vertical(classes="dialog", id="explorer"):
            yield Label(f"Explorer: {side} to move", classes="dialog-title")
            yield Static("opening the indexes…", id="explorer-status", markup=False)
            table: DataTable[str | Text] = DataTable(id="explorer-rows", cursor_type="row")
            table.add_columns(*COLUMNS)
            yield table
            yield Static("Enter: step to the move · Esc: close", classes="dialog-help",
                         markup=False)

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.load()

    def on_unmount(self) -> None:
        self.stop.set()

    @work(thread=True, exclusive=True, group="explorer", exit_on_error=False)
    def load(self) -> None:
        """Open (or build) each index, then look the position up and ask the solver."""
        try:
            self.explore()
        except Exception as exc:  # a bug: said on the screen, not left spinning
            self.app.call_from_thread(self.status, tail(f"the explorer failed: {exc!r}"))
            raise

    def explore(self) -> None:
        """The worker's body (see :meth:`load`)."""
        indexes, problems = [], []
        for collection in self.collections:
            def progress(done: int, total: int, name: str = collection.name) -> None:
                self.app.call_from_thread(
                    self.status, f"indexing {store.short(name, 40)}: {done}/{total} games")
            try:
                indexes.append(explorer.open_index(collection, progress, self.stop))
            except explorer.BuildStopped:
                return
            except (ParlorError, OSError) as exc:
                problems.append(tail(str(exc)))
        try:
            rows = explorer.lookup(indexes, self.state)
        except ParlorError as exc:
            problems.append(tail(str(exc)))
            rows = []
        if self.stop.is_set():
            return
        self.app.call_from_thread(self.show_rows, rows, indexes, problems, False)
        if rows and self.seconds > 0:
            values = explorer.exact_values(self.state, self.seconds, self.stop)
            if values and not self.stop.is_set():
                for row in rows:
                    row.exact = values.get(row.move)
                self.app.call_from_thread(self.show_rows, rows, indexes, problems, True)

    def status(self, text: str) -> None:
        """Show ``text`` (progress, a count, a problem) above the rows (not once closed)."""
        if self.stop.is_set():
            return
        self.query_one("#explorer-status", Static).update(text)

    def show_rows(self, rows: list[explorer.Row], indexes: list[explorer.Index],
                  problems: list[str], exact: bool) -> None:
        """Fill the table with ``rows``; say how many games there are and what failed."""
        if self.stop.is_set():  # closed while the worker was busy
            return
        self.rows = rows
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear()
        for row in rows:
            shares = row.shares()
            cells = ("-", "-", "-") if shares is None else tuple(f"{s:.1f}" for s in shares)
            numbers = [Text(c, justify="right") for c in (str(row.games), *cells)]
            table.add_row(row.text, *numbers, row.exact.words() if row.exact is not None else "")
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1))
        games = sum(i.games for i in indexes)
        total = sum(r.games for r in rows)
        text = (f"{total} of {games} games went on from here" if rows
                else f"none of {games} games reached this position")
        if problems:
            text += "\n" + "\n".join(problems[:3])
        self.status(text)
        self.done = True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.rows):
            self.stop.set()
            self.dismiss(self.rows[event.cursor_row].move)

    def action_cursor(self, direction: str) -> None:
        """Move the row cursor (j/k as well as the arrows)."""
        table = self.query_one(DataTable)
        if direction == "down":
            table.action_cursor_down()
        else:
            table.action_cursor_up()

    def action_close(self) -> None:
        """Close without choosing (a build in progress stops and keeps nothing)."""
        self.stop.set()
        self.dismiss(None)
