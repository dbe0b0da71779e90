"""BrowserScreen: unfinished games, finished games, saved games and the shipped examples.

One row per game. Columns: game, players, result, length and where it is kept (sized
for 80 columns; the highlighted row's date and full file name show above the table).
Saved and finished games can be deleted, saved games renamed, each after asking; a
rename never replaces another saved game.
Games in progress come first, then the finished ones (newest first), so a game can be
replayed right after it ends. A file that cannot be read (damaged, not a regular file,
a dangling link) is one row; opening it shows the reader's one-line message. A file of
several games (a PDN archive, a WTHOR database) is one row too, listed without replaying
its games; Enter opens the list of its games (:class:`CollectionScreen`).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Header, Input, Static
from textual.widgets.data_table import ColumnKey

from engine.formats import EXTENSIONS, load_chunks
from engine.protocol import ParlorError
from engine.registry import get_game
from tui.app.dialogs.choose import ChooseDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.screens.base import ParlorScreen
from tui.app.screens.collection import CollectionScreen, Query, parse_query
from tui.app.widgets.footer import ParlorFooter
from tui.game.session import ALL_PLAYERS_TAGS
from tui.player import paths, store
from tui.player.store import Entry, scan

if TYPE_CHECKING:
    from engine.formats import Chunk

__all__ = ["BrowserScreen", "Entry", "FileEntry", "rename_new", "scan", "scan_files"]


def rename_new(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target``; FileExistsError if ``target`` exists (a hard link
    then unlink, so no race can replace another file)."""
    if target == source:
        return
    try:
        os.link(source, target)
    except FileExistsError:
        raise
    except OSError:  # no hard links here: check, then rename (best effort)
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "exists", str(target)) from None
        os.rename(source, target)
        return
    source.unlink()

@dataclass
class FileEntry(Entry):
    """A file of several games: one row, whose Enter lists its games."""

    chunks: list[Chunk] = field(default_factory=list)
    game: str = "?"
    """The game of its first game that reads (``?`` when none does)."""


def scan_files(sources: list[Path], limit: int | None = None,
               suffixes: tuple[str, ...] = (paths.RECORD_SUFFIX,)) -> list[Entry]:
    """One entry per game file in ``sources`` (record files, and the files of folders
    whose names end with one of ``suffixes``, newest first, at most ``limit`` a folder):
    a file of one game with its record (or its error), a file of several as a
    :class:`FileEntry` with its games found but not replayed (so a 10,000-game file is
    listed at once). Never raises."""
    entries: list[Entry] = []
    for source in sources:
        try:
            is_dir = source.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            files = store.record_files(source, suffixes)[:limit]
        else:
            try:
                info = source.stat()
            except OSError:
                continue
            files = [(source, info.st_mtime,
                      "" if stat.S_ISREG(info.st_mode) else "not a regular file")]
        for path, mtime, problem in files:
            if problem:
                entries.append(Entry(path, None, f"{store.short(path.name)}: {problem}", mtime))
                continue
            try:
                chunks = load_chunks(path, source=path.name)
                if len(chunks) == 1:
                    entries.append(Entry(path, chunks[0].parse(), "", mtime))
                    continue
            except ParlorError as exc:
                entries.append(Entry(path, None, str(exc), mtime))
                continue
            entries.append(FileEntry(path, None, "", mtime, chunks, _game_of(chunks)))
    return entries


def _game_of(chunks: list[Chunk]) -> str:
    """The game the file's first readable game is (one of its first few), else ``?``."""
    for chunk in chunks[:5]:
        try:
            return chunk.parse().game
        except ParlorError:
            continue
    return "?"


INTRO = ("Unfinished, finished, saved and example games. Enter replays, d deletes, "
         "n renames, / filters (words, player:NAME result:1-0 year:2026); Esc goes back.")
SUFFIXES = tuple(sorted(set(EXTENSIONS.values())))
"""The file name endings listed: Parlor's records and the formats other programs write
(PDN, GGF, WTHOR, Othello transcripts and Connect Four columns)."""
WIDTHS = {"Game": 12, "First": 11, "Second": 11, "Result": 7, "Moves": 5}
"""Column widths that leave the File column room at 80 columns."""


def entry_matches(entry: Entry, label: str, query: Query) -> bool:
    """True when the game listed as ``entry`` (its File column ``label``) meets every
    part of the filter ``query`` (as the game list of a file reads it: words, ``player:``,
    ``result:``, ``year:``; ``opening:`` and ``#N`` belong to a file's own list)."""
    rec = entry.record
    tags = rec.tags if rec is not None else {}
    players = " ".join(rec.players()) if rec is not None else ""
    everyone = " ".join(tags.get(tag, "") for tag in ALL_PLAYERS_TAGS)
    game = entry.game if isinstance(entry, FileEntry) else rec.game if rec is not None else ""
    result = rec.result if rec is not None else ""
    haystack = " ".join([label, entry.path.name, game, game_name(game) if game else "",
                         players, everyone, result, *tags.values(),
                         "damaged" if rec is None and not isinstance(entry, FileEntry)
                         else ""]).lower()
    if query.result is not None and result != query.result:
        return False
    if query.years is not None:
        found = re.search(r"\d{4}", tags.get("Date", "") or tags.get("Year", ""))
        if found is None or not query.years[0] <= int(found.group(0)) <= query.years[1]:
            return False
    names = f"{players} {everyone}".lower()
    if any(player not in names for player in query.players):
        return False
    return all(word in haystack for word in query.words)


def short_name(name: str, limit: int) -> str:
    """A file name cut in the middle (its start and its end both stay visible)."""
    if len(name) <= limit:
        return name
    head = (limit - 1) // 2
    return name[:head] + "…" + name[len(name) - (limit - 1 - head):]


def game_name(game_id: str) -> str:
    """The game's name, short enough for every column to fit 80 columns."""
    try:
        return store.short(get_game(game_id).name, 12)
    except ParlorError:
        return store.short(game_id, 12)


class BrowserScreen(ParlorScreen):
    """Saved games: Enter replays the highlighted game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", tooltip="Back to the previous screen"),
        Binding("d,delete", "delete", "Delete", tooltip="Delete the highlighted game (asks)"),
        Binding("n", "rename", "Rename", tooltip="Rename the highlighted saved game"),
        Binding("home", "jump(0)", "First", show=False, priority=True),
        Binding("end", "jump(-1)", "Last", show=False, priority=True),
        Binding("j", "cursor('down')", show=False),
        Binding("k", "cursor('up')", show=False),
        Binding("slash,ctrl+f", "focus_filter", "Filter", tooltip="Type a filter"),
    ]

    def __init__(self, folders: list[Path] | None = None) -> None:
        super().__init__()
        self.folders = folders or [paths.unfinished_dir(), paths.history_dir(),
                                   paths.saved_games_dir(), paths.examples_dir()]
        """Record files and folders listed, in this order."""
        self.entries: list[Entry] = []
        self.shown: list[int] = []
        """The entries listed now (those the filter lets through), by index, in order."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(INTRO, id="browser-intro", markup=False)
        yield Input(placeholder="filter (/)", id="browser-filter")
        yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield ParlorFooter()

    def on_mount(self) -> None:
        self.sub_title = "Saved games"
        self.fill()
        self.query_one(DataTable).focus()

    def fill(self, keep: int = 0) -> None:
        """List the games (again), the row cursor at ``keep``."""
        table = self.query_one(DataTable)
        table.clear(columns=True)
        for title, width in WIDTHS.items():
            table.add_column(title, width=width)
        file_width = max(12, self.app.size.width - sum(WIDTHS.values()) - 2 * 6 - 2)
        table.add_column("File", width=file_width, key="File")
        self.entries = scan_files(self.folders, limit=store.HISTORY_LISTED, suffixes=SUFFIXES)
        self.list_rows(keep)

    def list_rows(self, keep: int = 0) -> None:
        """List the entries the filter lets through, the row cursor at ``keep``."""
        table = self.query_one(DataTable)
        table.clear()
        file_width = table.columns[ColumnKey("File")].width if table.columns else 12
        query = parse_query(self.query_one("#browser-filter", Input).value)
        self.shown = [i for i, entry in enumerate(self.entries)
                      if entry_matches(entry, self.file_label(entry), query)]
        for i in self.shown:
            entry = self.entries[i]
            rec = entry.record
            label = short_name(self.file_label(entry), file_width)
            if isinstance(entry, FileEntry):
                table.add_row(game_name(entry.game), f"{len(entry.chunks)} games", "", "", "",
                              label, key=str(i))
                continue
            if rec is None:
                table.add_row("damaged", "", "", "-", "", label, key=str(i))
                continue
            first, second = rec.players()
            table.add_row(game_name(rec.game), store.short(first, 11),
                          store.short(second, 11), rec.result,
                          str(len(rec.moves)), label, key=str(i))
        if not self.entries:
            self.query_one("#browser-intro", Static).update(
                "No saved games yet: press s during a game to save one. Esc goes back.")
        elif not self.shown:
            self.query_one("#browser-intro", Static).update(
                f"No game matches the filter ({len(self.entries)} listed without it).")
        elif keep:
            table.move_cursor(row=min(keep, len(self.shown) - 1))

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
        if isinstance(entry, FileEntry):
            what = f"{where}: {len(entry.chunks)} games; Enter lists them"
        elif entry.record is None:
            what = f"damaged: {entry.error}"
        else:
            tags = entry.record.tags
            when = tags.get("Date", "")
            what = f"{where}, {when}" if when else where
            for side, tag in enumerate(ALL_PLAYERS_TAGS):  # a side others played earlier
                everyone = tags.get(tag, "").strip()
                if everyone:
                    what += f"; {('first', 'second')[side]} side played by {everyone}"
        self.query_one("#browser-intro", Static).update(f"{INTRO}\n{store.short(what, 150)}")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        entry = self.entries[int(event.row_key.value or 0)]
        if isinstance(entry, FileEntry):
            self.app.push_screen(CollectionScreen(entry.path, entry.chunks))
            return
        if entry.record is None:
            self.parlor.show_error("This game record cannot be opened", entry.error)
            return
        self.parlor.open_replay(entry.record, title=entry.path.name, source=entry.path)

    def action_cursor(self, direction: str) -> None:
        """Move the row cursor (j/k as well as the arrows)."""
        table = self.query_one(DataTable)
        if direction == "down":
            table.action_cursor_down()
        else:
            table.action_cursor_up()

    def highlighted(self) -> Entry | None:
        """The entry of the highlighted row (None when the list is empty)."""
        table = self.query_one(DataTable)
        if not self.shown or table.cursor_row < 0:
            return None
        return self.entries[self.shown[min(table.cursor_row, len(self.shown) - 1)]]

    def action_jump(self, row: int) -> None:
        """Highlight the first row (0) or the last (-1)."""
        if self.shown:
            self.query_one(DataTable).move_cursor(row=len(self.shown) - 1 if row < 0 else row)

    def action_focus_filter(self) -> None:
        """Type a filter (Enter or Tab goes back to the list)."""
        self.query_one("#browser-filter", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.list_rows()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one(DataTable).focus()

    def deletable(self, entry: Entry) -> bool:
        """Saved and finished games may be deleted here (unfinished ones on Home)."""
        return entry.path.parent in (paths.saved_games_dir(), paths.history_dir())

    def action_delete(self) -> None:
        """Delete the highlighted saved or finished game, after asking."""
        entry = self.highlighted()
        if entry is None or not self.deletable(entry):
            self.notify("only saved and finished games can be deleted here (unfinished ones "
                        "on Home, examples not at all)", severity="warning")
            return
        row = self.query_one(DataTable).cursor_row

        def chosen(choice: str | None) -> None:
            if choice != "delete":
                return
            try:
                entry.path.unlink()
            except OSError as exc:
                self.parlor.show_error("Not deleted", store.short(exc.strerror or exc))
            self.fill(keep=row)

        title = f"Delete {store.short(entry.path.name, 40)} for good?"
        self.app.push_screen(ChooseDialog(title, [("Keep it", "keep"), ("Delete it", "delete")],
                                          current="keep"), chosen)

    def action_rename(self) -> None:
        """Rename the highlighted saved game (never over another one)."""
        entry = self.highlighted()
        if entry is None or entry.path.parent != paths.saved_games_dir():
            self.notify("only saved games can be renamed", severity="warning")
            return
        row = self.query_one(DataTable).cursor_row

        def chosen(name: str | None) -> None:
            if not name:
                return
            try:
                target = paths.save_path(name)
                rename_new(entry.path, target)
            except FileExistsError:
                self.parlor.show_error("Not renamed", f"a saved game is called "
                                       f"{store.short(paths.save_path(name).name, 40)} already")
                return
            except (OSError, ValueError) as exc:
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                self.parlor.show_error("Not renamed", store.short(why))
                return
            self.fill(keep=row)

        self.app.push_screen(PromptDialog("Rename the saved game to", value=entry.path.stem),
                             chosen)

    def action_back(self) -> None:
        """Back to where the browser was opened from; in a filter with text, Esc clears
        it first."""
        field = self.query_one("#browser-filter", Input)
        if field.has_focus and field.value:
            field.value = ""
            self.query_one(DataTable).focus()
            return
        self.app.pop_screen()
