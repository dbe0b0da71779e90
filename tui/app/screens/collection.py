"""CollectionScreen: the games of one file of many (a PDN archive, a WTHOR database, a
GGF server archive), listed at once and filtered as you type; Enter replays a game.

The list comes from the file's index (:func:`engine.formats.load_chunks`: every game's
number, players, date, event, result and first moves, read without replaying a move),
so a 10,000-game file is listed at once; a game is replayed only when it is opened.
Meanwhile a background check reads every game and reports the damaged ones (number,
line, reason) above the list and in their rows.

The filter line takes words, matched against every tag and the game's number, and
``player:NAME``, ``year:YYYY`` (or ``year:YYYY-YYYY``), ``result:1-0|0-1|draw|*``,
``opening:MOVES`` (the first moves, as written: ``f5d6c3``, ``11-15 23-18``) and ``#N``
(game N), all of which must match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.segment import Segment
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Header, Input, Static
from textual.worker import get_current_worker

from engine.formats import load_chunks
from engine.protocol import ParlorError
from engine.record import player_name
from tui.app.screens.base import ParlorScreen
from tui.app.widgets.footer import ParlorFooter
from tui.player import store

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.screen import Screen

    from engine.formats import Chunk
    from tui.app.api import ParlorApi

INTRO = ("Type to filter: words, player:NAME year:YYYY result:1-0 opening:f5d6 #N. "
         "Enter replays the game; Esc goes back.")
COLUMNS = {"#": 5, "Black": 13, "White": 13, "Result": 7, "Date": 10, "Event": 11,
           "Opening": 13}
"""The list's columns and widths, 78 columns in all so that the list fits 80 (the first
player is Black in PDN, GGF and WTHOR; Parlor's records give First and Second, shown in
the same columns)."""
RESULTS = {"draw": "1/2-1/2", "1/2": "1/2-1/2", "½-½": "1/2-1/2", "2-0": "1-0",
           "0-2": "0-1", "1-1": "1/2-1/2"}
"""Other ways to write a result in a filter."""


@dataclass
class Query:
    """A parsed filter line: every part must match."""

    words: list[str]
    players: list[str]
    years: tuple[int, int] | None = None
    result: str | None = None
    opening: str = ""
    number: int | None = None


def parse_query(text: str) -> Query:
    """The filter line ``text`` as a :class:`Query` (unknown ``key:`` parts are words)."""
    query = Query(words=[], players=[])
    for part in text.lower().split():
        key, _, value = part.partition(":")
        if part.startswith("#") and part[1:].isdigit():
            query.number = int(part[1:][:9])
        elif key == "player" and value:
            query.players.append(value)
        elif key == "year" and (m := re.fullmatch(r"(\d{1,4})(?:-(\d{1,4}))?", value)):
            query.years = (int(m.group(1)), int(m.group(2) or m.group(1)))
        elif key == "result" and value:
            query.result = RESULTS.get(value, value)
        elif key == "opening" and value:
            query.opening += _moves(value)
        else:
            query.words.append(part)
    return query


def _moves(text: str) -> str:
    """Moves as one string without separators, for prefix matching."""
    return re.sub(r"[\s,.]+|\d+\.", "", text.lower()) if "-" in text or "x" in text \
        else re.sub(r"[\s,.]+", "", text.lower())


@dataclass
class Row:
    """One game of the list: its chunk and the texts the filter searches."""

    chunk: Chunk
    first: str
    second: str
    date: str
    event: str
    opening: str
    haystack: str

    @classmethod
    def of(cls, chunk: Chunk) -> Row:
        tags = chunk.tags
        date = tags.get("Date", "") or tags.get("Year", "")
        opening = " ".join(chunk.opening)
        first, second = player_name(tags, 0), player_name(tags, 1)
        haystack = " ".join([str(chunk.number), *tags.values(), opening]).lower()
        return cls(chunk, first, second, date, tags.get("Event", ""), opening, haystack)

    def text(self, damaged: bool = False) -> str:
        """The row as one line of the list, in the columns of :data:`COLUMNS`."""
        cells = (str(self.chunk.number), self.first, self.second,
                 "damaged" if damaged else self.chunk.result, self.date, self.event,
                 self.opening)
        return " ".join(store.short(cell, width).ljust(width)
                        for cell, width in zip(cells, COLUMNS.values(), strict=True))

    def year(self) -> int | None:
        m = re.search(r"\d{4}", self.date)
        return int(m.group(0)) if m else None

    def matches(self, query: Query) -> bool:
        """True when this game meets every part of ``query``."""
        if query.number is not None and self.chunk.number != query.number:
            return False
        if query.result is not None and self.chunk.result != query.result:
            return False
        if query.years is not None:
            year = self.year()
            if year is None or not query.years[0] <= year <= query.years[1]:
                return False
        names = f"{self.first}\n{self.second}".lower()
        if any(player not in names for player in query.players):
            return False
        if query.opening and not _moves("".join(self.chunk.opening)).startswith(query.opening):
            return False
        return all(word in self.haystack for word in query.words)


class GameList(ScrollView, can_focus=True):
    """A list of any length that draws only the lines on screen (a DataTable measures
    every cell of every row, seconds for 10,000 games): one text per game, a cursor,
    Enter selects."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("enter", "select", "Replay", tooltip="Replay the highlighted game"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"game-list--cursor"}
    DEFAULT_CSS = """
    GameList { height: 1fr; }
    GameList > .game-list--cursor { background: $accent; color: $text; text-style: bold; }
    """

    cursor: reactive[int] = reactive(0)

    class Selected(Message):
        """Enter (or a click) on line ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.texts: list[str] = []

    def show(self, texts: list[str]) -> None:
        """List ``texts``, the cursor on the first."""
        self.texts = texts
        width = max((len(t) for t in texts[:200]), default=0)
        self.virtual_size = Size(width, len(texts))
        self.set_reactive(GameList.cursor, 0)
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.size.width
        if index >= len(self.texts):
            return Strip.blank(width, self.rich_style)
        style = (self.get_component_rich_style("game-list--cursor") if index == self.cursor
                 else self.rich_style)
        strip = Strip([Segment(self.texts[index], style)])
        return strip.crop_extend(scroll_x, scroll_x + width, style)

    def watch_cursor(self, old: int, new: int) -> None:
        top, height = self.scroll_offset.y, max(1, self.size.height)
        if new < top:
            self.scroll_to(y=new, animate=False)
        elif new >= top + height:
            self.scroll_to(y=new - height + 1, animate=False)
        self.refresh()

    def action_move(self, delta: int) -> None:
        if self.texts:
            self.cursor = max(0, min(len(self.texts) - 1, self.cursor + delta))

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.size.height - 1))

    def action_jump(self, index: int) -> None:
        if self.texts:
            self.cursor = len(self.texts) - 1 if index < 0 else index

    def action_select(self) -> None:
        if self.texts:
            self.post_message(self.Selected(self.cursor))

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if 0 <= index < len(self.texts):
            self.cursor = index
            self.post_message(self.Selected(index))


def open_file(parlor: ParlorApi, push: Callable[[Screen[Any]], object], path: Path,
              number: int | None = None) -> None:
    """Replay game ``number`` of the file at ``path``; without a number, its only game,
    or the list of its games (given to ``push``) when it holds several. A file or game
    that cannot be read gives one clear message."""
    try:
        chunks = load_chunks(path, source=Path(path).name)
    except ParlorError as exc:
        parlor.show_error("This game record cannot be opened", str(exc))
        return
    if number is None and len(chunks) > 1:
        push(CollectionScreen(Path(path), chunks))
        return
    open_game(parlor, Path(path), chunks, number or 1)


def open_game(parlor: ParlorApi, path: Path, chunks: list[Chunk], number: int) -> None:
    """Replay game ``number`` (from 1) of ``chunks``, read from ``path``."""
    if not 1 <= number <= len(chunks):
        parlor.show_error("No such game", f"{store.short(path.name)} holds {len(chunks)} "
                                          f"game{'s' if len(chunks) != 1 else ''}")
        return
    try:
        record = chunks[number - 1].parse()
    except ParlorError as exc:
        parlor.show_error(f"Game {number} cannot be opened", str(exc))
        return
    title = path.name if len(chunks) == 1 else f"{path.name} game {number}"
    parlor.open_replay(record, title=title, source=path)


class CollectionScreen(ParlorScreen):
    """The games of one file: a filter line above the list; Enter replays a game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", tooltip="Back to the previous screen"),
        Binding("ctrl+f", "focus_filter", "Filter", tooltip="Type a filter"),
        Binding("down", "to_list", show=False),
    ]

    def __init__(self, path: Path, chunks: list[Chunk]) -> None:
        super().__init__()
        self.path = path
        self.rows = [Row.of(chunk) for chunk in chunks]
        self.shown: list[Row] = []
        """The rows listed now (those the filter lets through), in order."""
        self.damaged: dict[int, str] = {}
        """Game number -> why it cannot be read (filled in by the background check)."""
        self.checked = False
        """True once every game has been read by the background check."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(INTRO, id="collection-intro", markup=False)
        yield Input(placeholder="filter", id="collection-filter")
        yield Static(" ".join(title.ljust(width) for title, width in COLUMNS.items()),
                     id="collection-columns", markup=False)
        yield GameList(id="collection-games")
        yield ParlorFooter()

    def on_mount(self) -> None:
        self.sub_title = f"{store.short(self.path.name, 40)}: {len(self.rows)} games"
        self.show_rows(self.rows)
        self.query_one(Input).focus()
        self.call_after_refresh(self.run_worker, self.check, thread=True, exclusive=True,
                                group="check")

    def show_rows(self, rows: list[Row]) -> None:
        """List ``rows`` (the table cleared first)."""
        self.shown = rows
        self.query_one(GameList).show([row.text(row.chunk.number in self.damaged)
                                       for row in rows])
        self.say()

    def say(self) -> None:
        """The line above the list: how many games are shown, and the damaged ones."""
        total = len(self.rows)
        text = (f"{len(self.shown)} of {total} games" if len(self.shown) != total
                else f"{total} games")
        if self.damaged:
            first = next(iter(self.damaged.items()))
            text += (f"; {len(self.damaged)} damaged: game {first[0]}: "
                     f"{store.short(first[1], 90)}")
            if len(self.damaged) > 1:
                text += f" (and {len(self.damaged) - 1} more: filter with 'damaged')"
        elif self.checked:
            text += ", all read"
        self.query_one("#collection-intro", Static).update(f"{INTRO}\n{text}")

    def check(self) -> None:
        """Read every game (in a thread), noting the damaged ones."""
        worker = get_current_worker()
        found: dict[int, str] = {}
        results: dict[int, str] = {}
        for row in self.rows:
            if worker.is_cancelled:
                return
            try:
                result = row.chunk.parse().result
            except ParlorError as exc:
                found[row.chunk.number] = _reason(exc)
            else:
                if result != row.chunk.result:
                    results[row.chunk.number] = result
        self.post_message(self.Checked(found, results))  # thread-safe, and never waits

    class Checked(Message):
        """The background check is over: ``found`` maps damaged games to reasons,
        ``results`` the games whose result is not the one their header gives (a game
        the rules end before the record does) to the result read."""

        def __init__(self, found: dict[int, str], results: dict[int, str]) -> None:
            super().__init__()
            self.found = found
            self.results = results

    def on_collection_screen_checked(self, event: Checked) -> None:
        event.stop()
        self.checked_all(event.found, event.results)

    def checked_all(self, found: dict[int, str], results: dict[int, str]) -> None:
        """The background check is over: mark the damaged games, correct results."""
        self.checked = True
        self.damaged = found
        for row in self.rows:
            if row.chunk.number in found:
                row.haystack += " damaged"
            row.chunk.result = results.get(row.chunk.number, row.chunk.result)
        if found or results:
            self.refilter()
        else:
            self.say()

    def refilter(self) -> None:
        """List the games the filter line lets through."""
        query = parse_query(self.query_one(Input).value)
        self.show_rows([row for row in self.rows if row.matches(query)])

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.refilter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_to_list()

    def on_game_list_selected(self, event: GameList.Selected) -> None:
        event.stop()
        if not self.shown:
            return
        row = self.shown[min(event.index, len(self.shown) - 1)]
        number = row.chunk.number
        if number in self.damaged:
            self.parlor.show_error(f"Game {number} cannot be opened",
                                   f"{self.path.name}: game {number}: {self.damaged[number]}")
            return
        open_game(self.parlor, self.path, [r.chunk for r in self.rows], number)

    def action_focus_filter(self) -> None:
        self.query_one(Input).focus()

    def action_to_list(self) -> None:
        self.query_one(GameList).focus()

    def action_back(self) -> None:
        self.workers.cancel_group(self, "check")
        self.app.pop_screen()


def _reason(exc: ParlorError) -> str:
    """A damaged game's line and reason (without the file name, shown elsewhere)."""
    from engine.formats import GameError

    if isinstance(exc, GameError):
        return f"line {exc.line}: {exc.reason}" if exc.line is not None else exc.reason
    return str(exc)
