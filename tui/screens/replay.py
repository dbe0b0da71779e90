"""ReplayScreen: step through a recorded game, autoplay it, or play on from any position."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Footer, Header, Static

from engine.record import GameRecord
from engine.registry import get_game
from tui import opponents, store
from tui.dialogs.choose import HEADING, ChooseDialog
from tui.screens.base import ParlorScreen
from tui.screens.play import players_by_move
from tui.widgets import board_class
from tui.widgets.board import BoardWidget
from tui.widgets.move_list import MoveList

AUTOPLAY_SECONDS = 0.8
"""Delay between moves while autoplaying."""


class ReplayScreen(ParlorScreen):
    """A recorded game: ``index`` is how many of its moves are shown played."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Prev", tooltip="One move back"),
        Binding("right", "step(1)", "Next", tooltip="One move forward"),
        Binding("h", "step(-1)", "Prev", show=False),
        Binding("l", "step(1)", "Next", show=False),
        Binding("home", "goto(0)", "Start", tooltip="The start position"),
        Binding("end", "goto(-1)", "End", tooltip="The final position"),
        Binding("a", "autoplay", "Autoplay", tooltip="Play the moves one by one"),
        Binding("p", "play_here", "Play here", tooltip="Play on from here against a brain"),
        Binding("escape", "back", "Close", tooltip="Leave the replay"),
    ]

    def __init__(self, record: GameRecord, title: str = "") -> None:
        super().__init__()
        self.record = record
        self.states = record.states()  # raises RecordError-like ParlorError if bad
        self.moves: list[Any] = [self.states[i].parse_move(t) for i, t in enumerate(record.moves)]
        self.index = len(self.moves)
        self.by = players_by_move(record, self.states)
        """Who played each move (the record's comments say when a player changed)."""
        self.file_title = title
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="board-panel"):
            board = board_class(self.record.game)(self.states[self.index],
                                                 ascii=self.parlor.ascii_board,
                                                 id="board")
            board.can_focus = False
            board.interactive = False
            yield board
            yield Static(id="summary", markup=False)
        with Vertical(id="side"):
            yield Static(id="status", markup=False)
            with VerticalScroll(id="moves-scroll", can_focus=False):
                yield MoveList(id="moves")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.title = get_game(self.record.game).name
        self.sub_title = f"Replay {self.file_title}".strip()
        self.show()

    def show(self) -> None:
        """Draw the position after ``index`` moves."""
        board = self.query_one(BoardWidget)
        board.interactive = False
        board.state = self.states[self.index]
        board.last_move = self.moves[self.index - 1] if self.index else None
        board.previous = self.states[self.index - 1] if self.index else None
        self.query_one("#summary", Static).update(board.summary())
        rec = self.record
        state = self.states[self.index]
        text = Text()
        names = state.PLAYERS
        text.append(f"{names[0]}: {rec.tags.get('First', '?')}\n")
        text.append(f"{names[1]}: {rec.tags.get('Second', '?')}\n")
        if self.index:
            before = self.states[self.index - 1]
            number = f"{(self.index + 1) // 2}{'.' if before.to_move == 0 else '...'}"
            text.append(f"{number} {before.format_move(self.moves[self.index - 1])}", "bold")
            text.append(f" by {self.by[self.index - 1]}")
        else:
            text.append("The start", "bold")
        text.append(f"  (ply {self.index} of {len(self.moves)})")
        comment = rec.comments.get(self.index)
        if comment:
            text.append(f"\n{{{store.short(comment, 120)}}}", "italic")
        text.append(f"\nResult {rec.result}" + (" (unfinished)" if rec.result == "*" else ""))
        if rec.termination:
            text.append(f": {rec.termination}")
        outcome = state.outcome()
        if outcome is not None:
            text.append(f"\nHere: {outcome.result.value}: {outcome.termination}")
        if self.timer is not None:
            text.append("\nautoplay on (a stops)", "italic")
        self.query_one("#status", Static).update(text)
        self.query_one(MoveList).show(list(rec.moves), self.index - 1 if self.index else None)

    def action_step(self, delta: int) -> None:
        """Move ``delta`` moves forward (or back)."""
        new = max(0, min(len(self.moves), self.index + delta))
        if new == self.index:
            self.app.bell()
            self.stop_autoplay()
            return
        self.index = new
        self.show()

    def action_goto(self, index: int) -> None:
        """Jump to the position after ``index`` moves (-1: the end)."""
        self.stop_autoplay()
        self.index = len(self.moves) if index < 0 else index
        self.show()

    def action_autoplay(self) -> None:
        """Start or stop stepping forward on a timer."""
        if self.timer is not None:
            self.stop_autoplay()
        else:
            if self.index == len(self.moves):
                self.index = 0
            self.timer = self.set_interval(AUTOPLAY_SECONDS, lambda: self.action_step(1))
        self.show()

    def stop_autoplay(self) -> None:
        """Stop the autoplay timer if it runs."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def action_play_here(self) -> None:
        """Choose a brain and play on from this position, you to move."""
        state = self.states[self.index]
        if state.outcome() is not None:
            self.notify("the game is over here; step back first", severity="warning")
            return
        try:
            specs = [opponents.HUMAN, *opponents.brain_specs(self.record.game)]
            current = opponents.default_opponent(self.record.game)
        except ValueError as exc:
            self.parlor.show_error("Cannot list the opponents", str(exc))
            return
        title = f"You play {state.PLAYERS[state.to_move]}; opponent:"
        self.app.push_screen(ChooseDialog(title, opponents.grouped_choices(specs, HEADING),
                                          current=current),
                             self.play_here)

    def play_here(self, spec: str | None) -> None:
        """Start a game from the shown position with ``spec`` as the opponent."""
        if spec is None:
            return
        self.stop_autoplay()
        side = self.states[self.index].to_move
        players = [spec, spec]
        players[side] = opponents.HUMAN
        self.parlor.play_record(self.record, self.index, (players[0], players[1]))

    def action_back(self) -> None:
        """Leave the replay."""
        self.stop_autoplay()
        self.app.pop_screen()
