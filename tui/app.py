"""ParlorApp: the Textual application (Home, Play, Saved games, Replay, Help).

The app holds no game state. It starts screens: :meth:`ParlorApp.start_game` replaces
whatever is above Home with a :class:`PlayScreen`; :meth:`ParlorApp.open_replay` loads
a record (a damaged one gives one clear message, never a crash); the command palette
offers the same actions as the keys.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from engine.protocol import ParlorError
from engine.record import GameRecord, load_records
from engine.registry import new_game
from tui import opponents, paths
from tui.dialogs.error import ErrorDialog


SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the GIL while another waits (Python's default is 0.005): a
brain searching in a worker thread then delays key handling and drawing less."""


@dataclass(frozen=True)
class Launch:
    """What the app shows first: Home, a new game, the resumed game or a replay."""

    kind: str = "home"
    """``home``, ``play``, ``resume`` or ``replay``."""
    game: str = "tictactoe"
    options: dict[str, Any] = field(default_factory=dict)
    players: tuple[str, str] = (opponents.HUMAN, opponents.DEFAULT_OPPONENT)
    path: Path | None = None
    """The record for ``replay``."""


def load_autosave() -> GameRecord | None:
    """The autosaved game if it exists and is unfinished; raises RecordError if damaged."""
    path = paths.autosave_path()
    if not path.exists():
        return None
    record = load_records(path)[-1]
    return record if record.result == "*" and record.moves else None


class ParlorApp(App[None]):
    """Classic board games in the terminal, by keyboard, against computer opponents."""

    CSS_PATH = "parlor.tcss"
    TITLE = "Parlor"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help", tooltip="Keys and rules"),
        Binding("q", "quit", "Quit", tooltip="Quit (the game is autosaved)"),
        Binding("b", "toggle_ascii", "ASCII board", show=False,
                tooltip="Switch between Unicode and plain ASCII boards"),
    ]

    def __init__(self, launch: Launch | None = None, *, ascii_board: bool = False,
                 seed: int | None = None) -> None:
        super().__init__()
        self.launch = launch or Launch()
        self.ascii_board = ascii_board
        """Draw boards with plain ASCII characters."""
        self.seed = seed
        """Seed for the brains (None: fresh randomness)."""

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Run the app with a shorter GIL switch interval (restored afterwards)."""
        old = sys.getswitchinterval()
        sys.setswitchinterval(min(old, SWITCH_INTERVAL))
        try:
            return super().run(*args, **kwargs)
        finally:
            sys.setswitchinterval(old)

    def on_mount(self) -> None:
        from tui.screens.home import HomeScreen

        self.push_screen(HomeScreen())
        launch = self.launch
        if launch.kind == "play":
            self.start_game(launch.game, launch.options, launch.players)
        elif launch.kind == "resume":
            self.resume()
        elif launch.kind == "replay" and launch.path is not None:
            self.open_replay_file(launch.path)

    # -- starting screens -----------------------------------------------------------
    def back_to_home(self) -> None:
        """Pop every screen above Home."""
        while len(self.screen_stack) > 2:
            self.pop_screen()

    def start_game(self, game_id: str, options: dict[str, Any],
                   players: Iterable[str]) -> None:
        """Start a new game of ``game_id`` (errors are shown, the app goes on)."""
        try:
            state = new_game(game_id, **options)
        except ParlorError as exc:
            self.show_error("Cannot start the game", str(exc))
            return
        self.play_from([state], [], tuple(players))  # type: ignore[arg-type]

    def play_from(self, history: list[Any], moves: list[Any], players: tuple[str, str]) -> None:
        """Show a PlayScreen for the game ``history`` (above Home)."""
        from tui.screens.play import PlayScreen

        self.back_to_home()
        self.push_screen(PlayScreen(history, moves, players, seed=self.seed))

    def play_record(self, record: GameRecord, upto: int | None = None,
                    players: tuple[str, str] | None = None) -> None:
        """Play on from ``record`` after ``upto`` moves (all by default)."""
        states = record.states()
        n = len(record.moves) if upto is None else upto
        moves = [states[i].parse_move(text) for i, text in enumerate(record.moves[:n])]
        if players is None:
            players = (record.tags.get("First", opponents.HUMAN),
                       record.tags.get("Second", opponents.DEFAULT_OPPONENT))
        self.play_from(states[: n + 1], moves, players)

    def resume(self) -> None:
        """Resume the autosaved game, or say why it cannot be resumed."""
        try:
            record = load_autosave()
        except ParlorError as exc:
            self.show_error("The autosaved game cannot be resumed", str(exc))
            return
        if record is None:
            self.notify("there is no unfinished game to resume", severity="warning")
            return
        self.play_record(record)

    def open_browser(self) -> None:
        """Show the saved games."""
        from tui.screens.browser import BrowserScreen

        self.push_screen(BrowserScreen())

    def open_replay_file(self, path: Path) -> None:
        """Replay the first game in ``path``; a damaged file gives one clear message."""
        try:
            record = load_records(path)[0]
        except ParlorError as exc:
            self.show_error("This game record cannot be opened", str(exc))
            return
        self.open_replay(record, title=Path(path).name)

    def open_replay(self, record: GameRecord, title: str = "") -> None:
        """Show a ReplayScreen for ``record``."""
        from tui.screens.replay import ReplayScreen

        try:
            screen = ReplayScreen(record, title=title)
        except ParlorError as exc:
            self.show_error("This game record cannot be opened", str(exc))
            return
        self.push_screen(screen)

    def show_error(self, title: str, message: str) -> None:
        """One clear message in a dialog."""
        self.push_screen(ErrorDialog(title, message))

    # -- app-wide actions -----------------------------------------------------------
    def action_help(self) -> None:
        """Show the keys and the rules in brief."""
        from tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        from tui.screens.play import PlayScreen

        from tui.screens.base import ParlorScreen

        yield SystemCommand("Help (?)", "Keys and rules in brief", self.action_help)
        yield SystemCommand("ASCII board (b)", "Switch between Unicode and plain ASCII boards",
                            self.action_toggle_ascii)
        if not isinstance(screen, PlayScreen):
            yield SystemCommand("Saved games", "Browse saved and example games",
                                self.open_browser)
        if isinstance(screen, ParlorScreen):  # the screen's own keys, by name
            for binding in screen.BINDINGS:
                if isinstance(binding, Binding) and binding.show and binding.description:
                    key = binding.key.split(",")[0]
                    yield SystemCommand(f"{binding.description} ({key})",
                                        binding.tooltip or str(binding.description),
                                        lambda a=binding.action: screen.run_action(a))

    def action_toggle_ascii(self) -> None:
        """Switch between Unicode and plain ASCII boards."""
        from tui.widgets.board import BoardWidget

        self.ascii_board = not self.ascii_board
        for board in self.screen.query(BoardWidget):
            board.ascii = self.ascii_board
