"""ReplayScreen: step through a recorded game, autoplay it, analyse it, or play on from
any position."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Header, Static

from engine.protocol import ParlorError
from engine.record import GameRecord
from engine.registry import get_game
from tui.app.dialogs.choose import HEADING, ChooseDialog
from tui.app.screens.base import ParlorScreen
from tui.app.widgets import board_class
from tui.app.widgets.analysis_panel import AnalysisPanel
from tui.app.widgets.board import BoardWidget
from tui.app.widgets.eval_graph import EvalGraph
from tui.app.widgets.footer import ParlorFooter
from tui.app.widgets.move_list import MoveList
from tui.app.widgets.reader import ReaderLine
from tui.game import opponents
from tui.game.session import ALL_PLAYERS_TAGS, players_by_move
from tui.player import explorer, paths, store

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
        Binding("e", "evaluate", "Evaluate",
                tooltip="Analyse every move: values, marks, better moves (e again stops)"),
        Binding("w", "write_analysis", "Write",
                tooltip="Save the analysed game as a new file in the saved games"),
        Binding("x", "explore", "Explorer", show=False,
                tooltip="The moves played from here in this file and your games"),
        Binding("escape", "back", "Close", tooltip="Leave the replay"),
    ]

    def __init__(self, record: GameRecord, title: str = "", source: Path | None = None) -> None:
        super().__init__()
        self.record = record
        self.source = source
        """The file the game was read from, if any (the explorer explores it too)."""
        self.states = record.states()  # raises RecordError-like ParlorError if bad
        self.moves: list[Any] = [self.states[i].parse_move(t) for i, t in enumerate(record.moves)]
        self.index = len(self.moves)
        names = record.players(tuple(self.states[0].PLAYERS))
        self.by = [names[self.states[i].to_move] if by == "?" else by
                   for i, by in enumerate(players_by_move(record, self.states))]
        """Who played each move (the record's comments say when a player changed; a
        record from elsewhere names its players by colour)."""
        self.file_title = title
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield ReaderLine(id="reader-line")
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
            yield AnalysisPanel(self.record, self.states, id="analysis")
            yield EvalGraph(tuple(self.states[0].PLAYERS), id="eval-graph")
            with VerticalScroll(id="moves-scroll", can_focus=False):
                yield MoveList(id="moves")
        yield ParlorFooter()

    def on_mount(self) -> None:
        self.title = get_game(self.record.game).name
        self.sub_title = f"Replay {self.file_title}".strip()
        self.watch(self.query_one(BoardWidget), "ascii", self.graph_ascii)
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
        for side, name in enumerate(rec.players(tuple(names))):
            text.append(f"{names[side]}: {name}")
            everyone = rec.tags.get(ALL_PLAYERS_TAGS[side], "").strip()
            if everyone and everyone != name:  # others played this side earlier
                text.append(f" (played by {store.short(everyone, 80)})")
            text.append("\n")
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
        panel = self.query_one(AnalysisPanel)
        marked = [m + panel.mark(i) for i, m in enumerate(rec.moves)]
        self.query_one(MoveList).show(marked, self.index - 1 if self.index else None)
        self.show_analysis()

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
        choices = opponents.grouped_choices(specs, HEADING, self.record.game)
        self.app.push_screen(ChooseDialog(title, choices, current=current),
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
        """Leave the replay (a running analysis stops)."""
        self.stop_autoplay()
        self.query_one(AnalysisPanel).stop()
        self.app.pop_screen()

    # -- explorer -------------------------------------------------------------------
    def action_explore(self) -> None:
        """Open the explorer for the position shown (this file and the player's games)."""
        from tui.app.screens.explorer import ExplorerScreen

        self.stop_autoplay()
        try:
            collections = explorer.collections_for(self.source)
        except ParlorError as exc:
            self.notify(store.short(str(exc), 120), title="Explorer", severity="warning")
            collections = [explorer.own_collection()]
        self.app.push_screen(ExplorerScreen(self.states[self.index], collections),
                             self.explored)

    def explored(self, move: Any) -> None:
        """Step to the move chosen in the explorer when it is the game's next move."""
        if move is None:
            return
        if self.index < len(self.moves) and self.moves[self.index] == move:
            self.action_step(1)
            return
        state = self.states[self.index]
        self.notify(f"{state.format_move(move)} is not this game's next move; "
                    f"p plays on from here", title="Explorer")

    # -- analysis -------------------------------------------------------------------
    def show_analysis(self) -> None:
        """The analysis at ``index``: the panel, the graph's cursor, the better move
        drawn on the board as its hint."""
        panel = self.query_one(AnalysisPanel)
        panel.show_at(self.index)
        graph = self.query_one(EvalGraph)
        graph.display = panel.shown and not self.parlor.screen_reader  # blocks: not read
        graph.values = tuple(panel.evals())
        graph.cursor = self.index
        self.query_one(BoardWidget).hint = panel.better_move(self.index)

    def show_reader(self, reader: bool) -> None:
        """Screen-reader mode: the graph (block characters) is hidden, the panel says it."""
        super().show_reader(reader)
        if self.query(EvalGraph):
            self.show_analysis()

    def graph_ascii(self, ascii: bool) -> None:
        """The graph follows the board's ASCII setting."""
        self.query_one(EvalGraph).ascii = ascii

    def on_analysis_panel_changed(self, event: AnalysisPanel.Changed) -> None:
        event.stop()
        self.show()

    def on_eval_graph_picked(self, event: EvalGraph.Picked) -> None:
        event.stop()
        self.action_goto(event.index)

    def action_evaluate(self) -> None:
        """Analyse the game in the background (a run going is stopped instead)."""
        panel = self.query_one(AnalysisPanel)
        if panel.running:
            panel.stop()
        else:
            panel.start()

    def action_write_analysis(self) -> None:
        """Save the game with the analysis as comments to a new file in the saved games
        (``NAME.analysed.pgn``, then ``NAME.analysed-2.pgn``, …; no file is replaced)."""
        panel = self.query_one(AnalysisPanel)
        record = panel.annotated_record()
        if record is None:
            why = ("wait for the analysis to end (e stops it)" if panel.running
                   else "the record already carries this analysis" if panel.source == "record"
                   else "press e to analyse the game first" if not panel.done
                   else "nothing to write")
            self.notify(why, title="Nothing written", severity="warning")
            return
        stem = self.file_title.rsplit(".", 1)[0] if self.file_title else record.game
        for n in range(1, 1000):
            try:
                name = f"{stem[:60]}.analysed{'' if n == 1 else f'-{n}'}"
                target = store.save_new(paths.save_path(name), record)
            except FileExistsError:
                continue
            except (OSError, ValueError) as exc:
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                self.notify(store.short(why), title="Not written", severity="error")
                return
            self.notify(f"analysis written to {target.name} (saved games)")
            panel.written(target.name)
            return
        self.notify(f"no free name {store.short(stem)}.analysed-N", title="Not written",
                    severity="error")
