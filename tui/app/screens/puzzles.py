"""PuzzlesScreen: find the move that keeps the win (or the draw), proven by an exact solver.

The screen shows a puzzle's position and what to find ("White to play and keep the
win"); the player enters a move on the board (arrows and Enter, as in a game) or types it
(m). A right move says so; a wrong one shows its value, the solver's refutation (the
reply, played on the board) and the right move. Each attempt is rated (Glicko-2): the
player's puzzle rating in the game and the puzzle's local rating move
(:mod:`tui.player.puzzles`). n goes to the next puzzle: the untried one whose rating is
closest to the player's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Header, Static
from textual.worker import get_current_worker

from brains.puzzles import Puzzle, check_puzzle, from_record, load_shipped
from engine.protocol import AnyState, ParlorError
from engine.registry import get_game
from tui.app.dialogs.prompt import PromptDialog
from tui.app.messages import MoveEntered, SelectionRefused
from tui.app.screens.base import ParlorScreen
from tui.app.widgets import board_class
from tui.app.widgets.board import BoardWidget
from tui.app.widgets.footer import ParlorFooter
from tui.app.widgets.reader import ReaderLine
from tui.player import paths
from tui.player.puzzles import PuzzleRatings

MAX_FILES = 200
"""Saved game files looked through for your mistakes (the newest first)."""
MAX_MISTAKES = 50
"""Puzzles made from your games at most (the newest games first)."""
MISTAKES_SECONDS = 60.0
"""The most time the search of your games takes (the solver's time included)."""


def mistake_puzzles(game_id: str, folder: Path, stop: Callable[[], bool] | None = None
                    ) -> tuple[list[Puzzle], list[str]]:
    """Puzzles from the ``??`` moves of the analysed games of ``game_id`` saved in
    ``folder`` (:func:`brains.puzzles.from_record`), and one line per file that does not
    read."""
    from engine.formats import load_collection

    problems: list[str] = []
    found: list[Puzzle] = []
    try:
        files = sorted((p for p in folder.iterdir() if p.is_file()),
                       key=lambda p: p.stat().st_mtime, reverse=True)[:MAX_FILES]
    except OSError:
        return [], []
    seen: set[str] = set()
    for path in files:
        if stop is not None and stop():
            break
        try:
            records = load_collection(path).records
        except (ParlorError, OSError) as exc:
            problems.append(f"{path.name}: {str(exc).splitlines()[0][:100]}")
            continue
        for record in records:
            if record.game != game_id or not any("??" in n or "$4" in n
                                                 for n in record.nags.values()):
                continue
            for puzzle in from_record(record, stop=stop):
                if puzzle.id not in seen:
                    seen.add(puzzle.id)
                    found.append(puzzle)
            if len(found) >= MAX_MISTAKES:
                return found[:MAX_MISTAKES], problems
    return found, problems


class PuzzlesScreen(ParlorScreen):
    """Puzzles of one game, one at a time (``puzzles`` given, or the shipped ones)."""

    DEFAULT_CSS = """
    PuzzlesScreen { layout: horizontal; }
    #puzzle-result { height: auto; padding: 0 1; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "type_move", "Type move", tooltip="Enter the move in notation"),
        Binding("n", "next", "Next", tooltip="The next puzzle"),
        Binding("y", "mistakes", "Your mistakes",
                tooltip="Puzzles from the ?? moves of your analysed saved games"),
        Binding("s", "solution", "Solution",
                tooltip="Show the answer (counts as a miss when not yet answered)"),
        Binding("escape", "back", "Close", tooltip="Leave the puzzles"),
    ]

    def __init__(self, game_id: str, puzzles: list[Puzzle] | None = None,
                 ratings: PuzzleRatings | None = None) -> None:
        super().__init__()
        self.game_id = get_game(game_id).id
        self.problem: str | None = None
        if puzzles is None:
            try:
                puzzles = load_shipped(self.game_id)
            except ParlorError as exc:
                puzzles, self.problem = [], str(exc)
        self.puzzles: list[Puzzle] = [p for p in puzzles if p.game == self.game_id]
        self.ratings = ratings or PuzzleRatings()
        self.tried: set[str] = set()
        """Ids of the puzzles shown in this visit."""
        self.puzzle: Puzzle | None = None
        self.state: AnyState | None = None
        self.answered: bool | None = None
        """None while the puzzle is open, True once solved, False once missed."""
        self.message = Text()

    def compose(self) -> ComposeResult:
        yield Header()
        yield ReaderLine(id="reader-line")
        with Vertical(id="board-panel"):
            start = get_game(self.game_id).initial()
            yield board_class(self.game_id)(start, ascii=self.parlor.ascii_board, id="board")
            yield Static(id="summary", markup=False)
        with Vertical(id="side"):
            yield Static(id="status", markup=False)
            yield Static(id="puzzle-result", markup=False)
        yield ParlorFooter()

    def on_mount(self) -> None:
        self.title = f"{get_game(self.game_id).name} puzzles"
        self.action_next()
        self.query_one(BoardWidget).focus()
        self.fit_board()

    # -- choosing -------------------------------------------------------------------
    def pick(self) -> Puzzle | None:
        """The untried puzzle whose rating is closest to the player's (file order breaks
        ties); None when every puzzle was shown."""
        left = [p for p in self.puzzles if p.id not in self.tried]
        if not left:
            return None
        mine = self.ratings.player(self.game_id).rating
        local = self.ratings.ratings_of({p.id: (p.rating, p.deviation) for p in left})
        return min(left, key=lambda p: abs(local[p.id].rating - mine))

    def action_next(self) -> None:
        """Show the next puzzle (one whose position does not read is skipped, and said)."""
        skipped: list[str] = []
        while True:
            puzzle = self.pick()
            if puzzle is None:
                self.puzzle = self.state = None
                why = self.problem or ("no puzzles for this game" if not self.puzzles
                                       else "every puzzle has been shown")
                self.message = Text(why + "".join(f"\n{s}" for s in skipped))
                self.show()
                return
            self.tried.add(puzzle.id)
            try:
                self.state = check_puzzle(puzzle)
            except ParlorError as exc:
                skipped.append(f"skipped: {exc}")
                continue
            break
        self.puzzle, self.answered = puzzle, None
        self.message = Text("\n".join(skipped))
        board = self.query_one(BoardWidget)
        board.state = self.state
        board.last_move = None
        board.previous = None
        board.hint = None
        board.interactive = True
        self.show()

    # -- answering ------------------------------------------------------------------
    @on(MoveEntered)
    def on_move_entered(self, event: MoveEntered) -> None:
        event.stop()
        if self.state is None:
            return
        self.answer(self.state.format_move(event.move))

    @on(SelectionRefused)
    def on_selection_refused(self, event: SelectionRefused) -> None:
        event.stop()
        self.notify(event.why, severity="warning")

    def action_type_move(self) -> None:
        """Ask for the move in notation."""
        if self.state is None or self.answered is not None:
            self.notify("press n for the next puzzle", severity="warning")
            return
        example = self.state.format_move(self.state.legal_moves()[0])
        self.app.push_screen(PromptDialog("Your move in notation", placeholder=example),
                             self.typed)

    def typed(self, text: str | None) -> None:
        if not text or self.state is None:
            return
        try:
            move = self.state.parse_move(text)
        except ParlorError as exc:
            self.notify(str(exc), severity="warning")
            return
        self.answer(self.state.format_move(move))

    def answer(self, move: str) -> None:
        """Judge ``move`` (legal in the puzzle's position), rate the attempt, show it."""
        puzzle, state = self.puzzle, self.state
        if puzzle is None or state is None or self.answered is not None:
            return
        right = puzzle.is_right(move)
        self.answered = right
        before, after, _ = self.ratings.record(self.game_id, puzzle.id, puzzle.rating,
                                               puzzle.deviation, right)
        board = self.query_one(BoardWidget)
        board.interactive = False
        played = state.play(state.parse_move(move))
        board.previous, board.state, board.last_move = state, played, state.parse_move(move)
        text = Text()
        change = f"rating {before.rating:.0f} -> {after.rating:.0f}"
        if right:
            text.append(f"Right: {move} keeps the {puzzle.goal} ({puzzle.value}).\n", "bold")
        else:
            wrong = puzzle.refutation(move)
            text.append(f"Wrong: {move}", "bold")
            text.append(f" ({wrong.value})" if wrong else "")
            text.append(".\n")
            if wrong and wrong.line:
                text.append(f"Refutation: {' '.join(wrong.line)}\n")
                self.show_reply(played, wrong.line[0])
            text.append(f"The move was {puzzle.solution} ({puzzle.value}).\n")
        text.append(f"{change}. n: next puzzle")
        if self.ratings.problem:
            text.append(f"\n{self.ratings.problem}", "italic")
        self.message = text
        self.show()

    def show_reply(self, played: AnyState, reply: str) -> None:
        """Play the solver's reply on the board after the wrong move (if it reads)."""
        try:
            move = played.parse_move(reply)
        except ParlorError:
            return
        board = self.query_one(BoardWidget)
        board.previous, board.state, board.last_move = played, played.play(move), move

    def action_solution(self) -> None:
        """Show the right move (a miss if the puzzle was not answered yet)."""
        puzzle, state = self.puzzle, self.state
        if puzzle is None or state is None:
            return
        if self.answered is None:
            self.answered = False
            before, after, _ = self.ratings.record(self.game_id, puzzle.id, puzzle.rating,
                                                   puzzle.deviation, False)
            self.message = Text(f"The move was {puzzle.solution} ({puzzle.value}).\n"
                                f"rating {before.rating:.0f} -> {after.rating:.0f}. "
                                "n: next puzzle")
        board = self.query_one(BoardWidget)
        board.interactive = False
        board.state, board.previous = state, None
        board.hint = state.parse_move(puzzle.solution)
        self.show()

    def action_back(self) -> None:
        self.app.pop_screen()

    # -- your mistakes ----------------------------------------------------------------
    def action_mistakes(self) -> None:
        """Look for puzzles in your analysed saved games (in the background)."""
        self.message = Text("Looking for ?? moves in your analysed saved games...")
        self.show()
        self.run_worker(self.find_mistakes, thread=True, exclusive=True, group="mistakes")

    def find_mistakes(self) -> None:
        import time

        worker = get_current_worker()
        deadline = time.monotonic() + MISTAKES_SECONDS
        found, problems = mistake_puzzles(
            self.game_id, paths.saved_games_dir(),
            stop=lambda: worker.is_cancelled or time.monotonic() > deadline)
        if not worker.is_cancelled:
            self.app.call_from_thread(self.use_mistakes, found, problems)

    def use_mistakes(self, found: list[Puzzle], problems: list[str]) -> None:
        """Play the puzzles from your games (the shipped ones stay if there are none)."""
        note = "".join(f"\n{p}" for p in problems[:3])
        if not found:
            self.message = Text("No ?? move with a saving move in your analysed saved "
                                "games of this game (analyse a game in Replay, e, then "
                                "write it, w)" + note)
            self.show()
            return
        self.puzzles, self.tried = found, set()
        self.action_next()
        self.message = Text(f"{len(found)} puzzle{'s' if len(found) != 1 else ''} from "
                            f"your games{note}")
        self.show()

    # -- drawing --------------------------------------------------------------------
    def show(self) -> None:
        """The status panel: the task, the ratings, the last answer."""
        mine = self.ratings.player(self.game_id)
        text = Text()
        puzzle = self.puzzle
        if puzzle is not None:
            local = self.ratings.puzzle(puzzle.id, puzzle.rating, puzzle.deviation)
            text.append(f"{puzzle.prompt()}\n", "bold")
            text.append(f"Puzzle {puzzle.id}, rated {local.text()}\n")
            if puzzle.source.startswith("your game"):
                text.append(f"From {puzzle.source}\n", "italic")
        text.append(f"Your puzzle rating: {mine.text()} "
                    f"({mine.solved}/{mine.attempts} solved)")
        self.query_one("#status", Static).update(text)
        self.query_one("#puzzle-result", Static).update(self.message)
        board = self.query_one(BoardWidget)
        self.query_one("#summary", Static).update(board.summary())

    def puzzle_shown(self) -> dict[str, Any]:
        """What the screen shows, for tests and the host: the puzzle's id and the answer."""
        return {"id": self.puzzle.id if self.puzzle else None, "answered": self.answered,
                "message": self.message.plain}
