"""BrowserScreen: the last game, the user's saved games and the shipped examples.

One row per game. Columns: game, players, result, date, length and file. The last game
played (the autosave, finished or not) comes first, so a game can be replayed right
after it ends. A file that cannot be read is listed as damaged; opening it shows the
reader's one-line message.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Header, Static

from engine.protocol import ParlorError
from engine.record import GameRecord, load_records
from tui import paths
from tui.screens.base import ParlorScreen


@dataclass
class Entry:
    """One row: a game from a file, or the error that file gave."""

    path: Path
    record: GameRecord | None
    error: str = ""


def scan(sources: list[Path]) -> list[Entry]:
    """Every game in ``sources``: record files, and the ``.pgn`` files of folders (newest
    files first); missing sources are skipped."""
    entries: list[Entry] = []
    for source in sources:
        if source.is_file():
            files = [source]
        elif source.is_dir():
            files = sorted(source.glob(f"*{paths.RECORD_SUFFIX}"),
                           key=lambda p: p.stat().st_mtime, reverse=True)
        else:
            continue
        for path in files:
            try:
                records = load_records(path)
            except ParlorError as exc:
                entries.append(Entry(path, None, str(exc)))
                continue
            entries.extend(Entry(path, rec) for rec in records)
    return entries


INTRO = "Your last game, saved games and examples. Enter replays; Esc goes back."
SHORT_NAMES = {"morris": "Morris", "reversi": "Reversi", "checkers": "Checkers",
               "tictactoe": "Tic-tac-toe", "connect4": "Connect Four"}
"""Game names short enough for every column to fit 80 columns."""


class BrowserScreen(ParlorScreen):
    """Saved games: Enter replays the highlighted game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", tooltip="Back to the previous screen"),
        Binding("j", "cursor('down')", show=False),
        Binding("k", "cursor('up')", show=False),
    ]

    def __init__(self, folders: list[Path] | None = None) -> None:
        super().__init__()
        self.folders = folders or [paths.autosave_path(), paths.saved_games_dir(),
                                   paths.examples_dir()]
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
        self.entries = scan(self.folders)
        for i, entry in enumerate(self.entries):
            rec = entry.record
            if rec is None:
                table.add_row("damaged", "", "", "-", "", "", entry.path.name, key=str(i))
                continue
            table.add_row(SHORT_NAMES.get(rec.game, rec.game), rec.tags.get("First", "?"),
                          rec.tags.get("Second", "?"), rec.result, rec.tags.get("Date", ""),
                          str(len(rec.moves)), self.file_label(entry), key=str(i))
        if not self.entries:
            self.query_one("#browser-intro", Static).update(
                "No saved games yet: press s during a game to save one. Esc goes back.")
        table.focus()

    def file_label(self, entry: Entry) -> str:
        """What the File column says: ``last game`` for the autosave, else the name."""
        return "last game" if entry.path == paths.autosave_path() else entry.path.name

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
            self.app.show_error("This game record cannot be opened", entry.error)  # type: ignore[attr-defined]
            return
        self.app.open_replay(entry.record, title=entry.path.name)  # type: ignore[attr-defined]

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
