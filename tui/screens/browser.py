"""BrowserScreen: unfinished games, finished games, saved games and the shipped examples.

One row per game. Columns: game, players, result, date, length and where it is kept.
Games in progress come first, then the finished ones (newest first), so a game can be
replayed right after it ends. A file that cannot be read (damaged, not a regular file,
a dangling link) is one row; opening it shows the reader's one-line message.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Header, Static

from engine.protocol import ParlorError
from engine.registry import get_game
from tui import paths, store
from tui.screens.base import ParlorScreen
from tui.store import Entry, scan

__all__ = ["BrowserScreen", "Entry", "scan"]

INTRO = "Unfinished, finished, saved and example games. Enter replays; Esc goes back."


def game_name(game_id: str) -> str:
    """The game's name, short enough for every column to fit 80 columns."""
    try:
        return store.short(get_game(game_id).name, 16)
    except ParlorError:
        return store.short(game_id, 16)


class BrowserScreen(ParlorScreen):
    """Saved games: Enter replays the highlighted game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", tooltip="Back to the previous screen"),
        Binding("j", "cursor('down')", show=False),
        Binding("k", "cursor('up')", show=False),
    ]

    def __init__(self, folders: list[Path] | None = None) -> None:
        super().__init__()
        self.folders = folders or [paths.unfinished_dir(), paths.history_dir(),
                                   paths.saved_games_dir(), paths.examples_dir()]
        """Record files and folders listed, in this order."""
        self.entries: list[Entry] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(INTRO, id="browser-intro", markup=False)
        yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "Saved games"
        table = self.query_one(DataTable)
        table.add_columns("Game", "First", "Second", "Result", "Date", "Moves", "File")
        self.entries = scan(self.folders, limit=store.HISTORY_LISTED)
        for i, entry in enumerate(self.entries):
            rec = entry.record
            if rec is None:
                table.add_row("damaged", "", "", "-", "", "", store.short(entry.path.name, 30),
                              key=str(i))
                continue
            table.add_row(game_name(rec.game), store.short(rec.tags.get("First", "?"), 20),
                          store.short(rec.tags.get("Second", "?"), 20), rec.result,
                          rec.tags.get("Date", ""), str(len(rec.moves)), self.file_label(entry),
                          key=str(i))
        if not self.entries:
            self.query_one("#browser-intro", Static).update(
                "No saved games yet: press s during a game to save one. Esc goes back.")
        table.focus()

    def file_label(self, entry: Entry) -> str:
        """What the File column says: ``unfinished`` or ``finished`` for games the app
        keeps, else the file's name."""
        folder = entry.path.parent
        if folder == paths.unfinished_dir():
            return "unfinished"
        if folder == paths.history_dir():
            return "finished"
        return entry.path.name

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        entry = self.entries[int(event.row_key.value or 0)]
        label = self.file_label(entry)
        where = f"{label} ({entry.path.name})" if label != entry.path.name else label
        what = f"damaged: {entry.error}" if entry.record is None else where
        self.query_one("#browser-intro", Static).update(f"{INTRO}\n{what}")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        entry = self.entries[int(event.row_key.value or 0)]
        if entry.record is None:
            self.parlor.show_error("This game record cannot be opened", entry.error)
            return
        self.parlor.open_replay(entry.record, title=entry.path.name)

    def action_cursor(self, direction: str) -> None:
        """Move the row cursor (j/k as well as the arrows)."""
        table = self.query_one(DataTable)
        if direction == "down":
            table.action_cursor_down()
        else:
            table.action_cursor_up()

    def action_back(self) -> None:
        """Back to where the browser was opened from."""
        self.app.pop_screen()
