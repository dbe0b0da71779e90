"""ParlorApp: the Textual application (Home, Play, Saved games, Replay, Help).

The app holds no game state. It starts screens: :meth:`ParlorApp.start_game` replaces
whatever is above Home with a :class:`PlayScreen`; :meth:`ParlorApp.open_replay` loads
a record (a damaged one gives one clear message, never a crash); the command palette
offers the same actions as the keys. Screens reach it through :class:`tui.app.api.ParlorApi`.

Games are kept by :mod:`tui.player.store`, one file per game. Leaving a game whose moves could
not be saved (quitting, or starting another) first asks: save elsewhere, leave anyway
or cancel.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen, Screen

from brains import kernels
from engine.protocol import AnyState, ParlorError
from engine.record import GameRecord
from engine.registry import new_game
from tui.app.dialogs.choose import ChooseDialog
from tui.app.dialogs.error import ErrorDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.screens.base import ParlorScreen
from tui.app.screens.browser import BrowserScreen
from tui.app.screens.help import HelpScreen
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.app.screens.replay import ReplayScreen
from tui.game import opponents
from tui.game.session import (
    CLOCK_TAG,
    ClockReadings,
    change_comment,
    join_comments,
    unrated_reason,
)
from tui.player import paths, settings, store
from tui.player.clock import TimeControl

SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the GIL while another waits (Python's default is 0.005): a
brain searching in a worker thread then delays key handling and drawing less."""


QUIT_KEYS = frozenset({"q", "ctrl+q", "ctrl+c"})
"""Keys that still work behind the "too small" notice."""


def ascii_default() -> bool:
    """True where the terminal cannot be trusted with box drawing: the Linux console."""
    return os.environ.get("TERM", "") == "linux"


TRUE_WORDS = frozenset({"1", "yes", "true", "on"})
FALSE_WORDS = frozenset({"0", "no", "false", "off"})


def screen_reader_default() -> bool | None:
    """Whether the environment asks for screen-reader mode: ``PARLOR_SCREEN_READER``
    (``1``/``0``, yes/no, on/off) says so either way; else ``ACCESSIBILITY=1`` (a hint
    some setups for blind users export) turns it on. None: nothing asks either way.

    Terminals do not tell a program that a screen reader (Orca, NVDA, VoiceOver,
    Speakup) is reading them, so that itself cannot be detected."""
    own = os.environ.get("PARLOR_SCREEN_READER", "").strip().lower()
    if own in TRUE_WORDS:
        return True
    if own in FALSE_WORDS:
        return False
    if os.environ.get("ACCESSIBILITY", "").strip().lower() in TRUE_WORDS:
        return True
    return None


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
    number: int | None = None
    """For ``replay``: the game's number in the file (None: its only game, or the list
    of its games)."""
    position: AnyState | None = None
    """For ``play``: start from this position instead of the game's start."""
    clock: TimeControl | None = None
    """The time control of a new game (``play``); None: no clock."""


class KernelNotice(Message):
    """A compiled kernel is being prepared (posted from a search worker's thread)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class ParlorApp(App[None]):
    """Classic board games in the terminal, by keyboard, against computer opponents."""

    CSS_PATH = "parlor.tcss"
    TITLE = "Parlor"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help", tooltip="Keys and rules"),
        Binding("q", "quit", "Quit", tooltip="Quit (every game is kept)"),
        Binding("b", "toggle_ascii", "ASCII board", show=False,
                tooltip="Switch between Unicode and plain ASCII boards"),
        Binding("ctrl+r", "toggle_screen_reader", "Screen reader", show=False,
                tooltip="Screen-reader mode: plain lines, the board and each move in words"),
    ]

    def __init__(self, launch: Launch | None = None, *, ascii_board: bool | None = None,
                 seed: int | None = None, screen_reader: bool | None = None) -> None:
        super().__init__()
        self.launch = launch or Launch()
        self.ascii_board = ascii_default() if ascii_board is None else ascii_board
        """Draw boards, frames and buttons with plain ASCII characters."""
        self.screen_reader_choice = screen_reader
        """Screen-reader mode as asked for on the command line (None: not asked; the
        environment, then the remembered setting, decide when the app mounts)."""
        self.animations = self.animation_level
        """The animation level outside screen-reader mode (Textual's default)."""
        self.screen_reader = bool(screen_reader)
        """Screen-reader mode: every screen as plain lines, boards and moves in words,
        no frames, block characters or animation (see :meth:`set_screen_reader`)."""
        self.seed = seed
        """Seed for the brains (None: fresh randomness)."""
        self.stop_listening: Callable[[], None] = lambda: None
        """Stops the notices of kernels being prepared (see :meth:`kernel_preparing`)."""
        self.early_keys: list[events.Key] | None = []
        """Keys pressed while the app starts, kept until the first screen is up (then
        handled in order); None once it is."""

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Run the app with a shorter GIL switch interval (restored afterwards)."""
        old = sys.getswitchinterval()
        sys.setswitchinterval(min(old, SWITCH_INTERVAL))
        try:
            return super().run(*args, **kwargs)
        finally:
            sys.setswitchinterval(old)

    def on_mount(self) -> None:
        store.start_up()
        self.stop_listening = kernels.listen(self.kernel_preparing)
        self.set_class(self.ascii_board, "-ascii")
        remembered = settings.load()
        reader = self.screen_reader_choice
        if reader is None:
            reader = screen_reader_default()
        if reader is None:
            reader = bool(remembered.screen_reader)
        self.set_screen_reader(reader, remember=False)
        theme = remembered.theme
        if theme is not None and theme in self.available_themes:
            self.theme = theme
        self.watch(self, "theme", self.remember_theme, init=False)
        self.push_screen(HomeScreen())
        launch = self.launch
        if launch.kind == "play":
            self.start_game(launch.game, launch.options, launch.players,
                            position=launch.position, clock=launch.clock)
        elif launch.kind == "resume":
            self.resume()
        elif launch.kind == "replay" and launch.path is not None:
            self.open_replay_file(launch.path, launch.number)

    def on_unmount(self) -> None:
        self.stop_listening()

    def kernel_preparing(self, message: str) -> None:
        """Say that a compiled kernel is being prepared ("preparing the Connect Four
        solver…"), once per kernel and process: the workers that search call this from
        their own thread when a kernel is first compiled or loaded, so it only posts a
        message (thread-safe, never waits; nothing happens once the app has closed)."""
        self.post_message(KernelNotice(message[:1].upper() + message[1:]
                                       + " (once: a few seconds)"))

    def on_kernel_notice(self, notice: KernelNotice) -> None:
        self.notify(notice.text, timeout=8)

    def release_early_keys(self) -> None:
        """Handle the keys pressed while the app started, in order, once the screen on
        top is mounted (each screen calls this when it is; the first call that finds
        the top screen ready releases them)."""
        keys = self.early_keys
        if keys is None or not self.screen.is_mounted or not isinstance(
                self.screen, (ParlorScreen, ModalScreen)):
            return
        self.early_keys = None
        for key in keys:  # sent by the app, as the terminal's keys are (they bubble up to it)
            self.post_message(events.Key(key.key, key.character).set_sender(self))

    async def on_event(self, event: events.Event) -> None:
        """Keep the keys pressed while the app starts (see :meth:`release_early_keys`);
        ignore keys and clicks while the screen is covered by its "too small" notice
        (all but the quit keys): nothing may happen that the player cannot see."""
        if isinstance(event, events.Key) and self.early_keys is not None:
            self.early_keys.append(event)
            self.release_early_keys()  # a screen that is up already never waits for them
            return
        screen = self.screen_stack[-1] if self.screen_stack else None
        if (isinstance(screen, ParlorScreen) and screen.too_small
                and isinstance(event, (events.Key, events.MouseDown, events.MouseUp,
                                       events.Click))
                and not (isinstance(event, events.Key) and event.key in QUIT_KEYS)):
            return
        await super().on_event(event)

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's title; ASCII mode joins title and subtitle with a plain dash."""
        if self.ascii_board and sub_title:
            return Content.assemble(Content(title), (" - ", "dim"), Content(sub_title))
        return super().format_title(title, sub_title)

    def remember_theme(self, theme: str) -> None:
        """Keep the chosen theme for the next start."""
        settings.update(theme=theme)

    # -- starting screens -----------------------------------------------------------
    def back_to_home(self) -> None:
        """Pop every screen above Home."""
        while len(self.screen_stack) > 2:
            self.pop_screen()

    def go_home(self) -> None:
        """Back to Home (the game on screen stays kept and listed there), after asking
        if its latest moves could not be saved."""
        self.confirm_leave(self.back_to_home)

    def start_game(self, game_id: str, options: dict[str, Any],
                   players: Iterable[str], *, position: AnyState | None = None,
                   clock: TimeControl | None = None) -> None:
        """Start a new game of ``game_id``, from ``position`` when given, on ``clock`` if
        given (errors are shown, the app goes on)."""
        sides = tuple(players)
        problems = [p for p in map(opponents.spec_problem, sides) if p]
        if len(sides) != 2 or problems:
            self.show_error("Cannot start the game", problems[0] if problems else "two players")
            return
        try:
            state = position if position is not None else new_game(game_id, **options)
            store.check_readable(state, (sides[0], sides[1]))
        except ParlorError as exc:
            self.show_error("Cannot start the game", str(exc))
            return
        self.play_from([state], [], (sides[0], sides[1]), clock=clock)

    def play_from(self, history: list[AnyState], moves: list[Any], players: tuple[str, str], *,
                  game_file: str | None = None, refused: dict[int, str] | None = None,
                  clock: TimeControl | None = None,
                  comments: dict[int, str] | None = None,
                  unrated: str | None = None,
                  readings: ClockReadings | None = None) -> None:
        """Show a PlayScreen for the game ``history`` (above Home), once any game being
        left is safe; ``game_file`` continues that stored game, else a new one is made.
        ``unrated`` says why the game may not count in the player's rating; ``readings``
        are the clocks of a resumed game (``clock`` its time control)."""
        def go() -> None:
            self.back_to_home()
            kept = store.GameFile(game_file)
            why = unrated
            if not kept.claim():
                kept = store.GameFile()
                kept.claim()
                why = why or "a copy of a game open in another session"
                self.notify("This game is open in another session: it goes on here as a copy "
                            "(both are kept).", severity="warning", timeout=10)
            self.push_screen(PlayScreen(history, moves, players, seed=self.seed,
                                        game_file=kept, refused=refused, clock=clock,
                                        comments=comments, unrated=why,
                                        readings=readings))
        self.confirm_leave(go)

    def play_record(self, record: GameRecord, upto: int | None = None,
                    players: tuple[str, str] | None = None, *,
                    game_file: str | None = None) -> None:
        """Play on from ``record`` after ``upto`` moves (all by default).

        Players not given come from the record's First and Second tags; one the record
        may not name (a model path, a tag too long) cannot play until another is chosen.
        A game the record marks unrated stays so; a new game played on from a record's
        moves is unrated (its start was not played against this opponent).
        """
        try:
            states = record.states()
            n = len(record.moves) if upto is None else upto
            moves = [states[i].parse_move(text) for i, text in enumerate(record.moves[:n])]
        except ParlorError as exc:
            self.show_error("This game cannot be played on", str(exc))
            return
        refused: dict[int, str] = {}
        comments = {i: text for i, text in record.comments.items() if i <= n}
        if players is not None:  # playing on with others: say so where they take over
            first = states[0].PLAYERS
            for side, (old, new) in enumerate(zip(
                    (record.tags.get("First", "?"), record.tags.get("Second", "?")), players,
                    strict=True)):
                if old != new:
                    comments[n] = join_comments(comments.get(n),
                                                change_comment(first[side], new, old))
        if players is None:
            tags = (record.tags.get("First", opponents.HUMAN),
                    record.tags.get("Second", opponents.HUMAN))
            for side, spec in enumerate(tags):
                problem = opponents.record_spec_problem(spec)
                if problem:
                    refused[side] = problem
            players = tags
        control, readings = None, None
        if game_file is not None:  # resumed: rated or not as it was, on its clock
            unrated = unrated_reason(record.tags)
            control, readings = self.kept_clock(record)
        else:
            unrated = "played on from a saved game" if n > 0 else None
        self.play_from(states[: n + 1], moves, players, game_file=game_file, refused=refused,
                       comments=comments, unrated=unrated, clock=control, readings=readings)

    def kept_clock(self, record: GameRecord) -> tuple[TimeControl | None, ClockReadings | None]:
        """The time control and clock readings an unfinished game's record keeps (its
        TimeControl and Clock tags); a damaged one is one warning: the game goes on
        without a clock, or with full time when only the readings are damaged."""
        try:
            control = TimeControl.parse(record.tags.get("TimeControl", "")[:40])
        except ParlorError as exc:
            self.notify(f"This game goes on without a clock: {store.short(exc, 80)}",
                        severity="warning", timeout=10)
            return None, None
        if control is None:
            return None, None
        text = record.tags.get(CLOCK_TAG)
        readings = ClockReadings.parse(text) if text is not None else None
        if readings is None and text is not None:
            self.notify("This game's clock readings could not be read: both clocks start "
                        f"from {control}.", severity="warning", timeout=10)
        return control, readings

    def resume_entry(self, entry: store.Entry) -> None:
        """Continue the stored unfinished game of ``entry``."""
        if entry.record is None:
            self.show_error("This game cannot be resumed", entry.error)
            return
        try:  # read again: another session may have played on, finished or discarded it
            record = store.read_records(entry.path)[-1]
        except ParlorError:
            self.show_error("This game cannot be resumed", "it was finished or discarded in "
                            "another session (finished games are under Saved games)")
            if isinstance(self.screen, HomeScreen):
                self.screen.refresh_unfinished()
            return
        self.play_record(record, game_file=entry.game_id)

    def resume(self) -> None:
        """Resume the most recent unfinished game, or say why it cannot be resumed."""
        entries = store.unfinished()
        for entry in entries:
            if entry.record is not None:
                self.resume_entry(entry)
                return
        if entries:
            self.show_error("The unfinished game cannot be resumed", entries[0].error)
        else:
            self.notify("there is no unfinished game to resume", severity="warning")

    def open_browser(self) -> None:
        """Show the saved games."""
        self.push_screen(BrowserScreen())

    def open_replay_file(self, path: Path, number: int | None = None) -> None:
        """Replay game ``number`` of ``path`` (without one: its only game, or the list of
        its games); a damaged file or game gives one clear message."""
        from tui.app.screens.collection import open_file

        open_file(self, self.push_screen, Path(path), number)

    def open_replay(self, record: GameRecord, title: str = "",
                    source: Path | None = None) -> None:
        """Show a ReplayScreen for ``record`` (read from the file ``source``, if any)."""
        try:
            screen = ReplayScreen(record, title=title, source=source)
        except ParlorError as exc:
            self.show_error("This game record cannot be opened", str(exc))
            return
        self.push_screen(screen)

    def show_error(self, title: str, message: str) -> None:
        """One clear message in a dialog."""
        self.push_screen(ErrorDialog(title, message))

    # -- never losing a game --------------------------------------------------------
    def unsaved_game(self) -> PlayScreen | None:
        """The game on the screen stack whose latest moves are not saved, if any."""
        for screen in self.screen_stack:
            if isinstance(screen, PlayScreen) and screen.unsaved:
                return screen
        return None

    def confirm_leave(self, then: Callable[[], None]) -> None:
        """Run ``then`` now, or after asking when the game being left has unsaved moves:
        save it elsewhere (a path), leave anyway, or cancel."""
        game = self.unsaved_game()
        if game is None:
            then()
            return
        # a hosted player (someone else's machine) names a game in their saved games,
        # never a path: their files stay in their own folder
        hosted = paths.hosted()
        choices = [("Save it in Saved games…" if hosted else "Save it elsewhere…", "save"),
                   ("Leave without saving", "leave"), ("Cancel", "cancel")]

        def chosen(choice: str | None) -> None:
            if choice == "leave":
                then()
            elif choice == "save" and hosted:
                self.push_screen(PromptDialog("Save the game in Saved games as",
                                              placeholder="my game"), saved)
            elif choice == "save":
                self.push_screen(PromptDialog("Save the game to (a file path)",
                                              placeholder="~/parlor-game.pgn"), saved)

        def saved(text: str | None) -> None:
            if not text:
                return
            try:
                target = paths.save_path(text) if hosted else Path(text).expanduser()
                store.save_new(target, game.record())
            except (OSError, ValueError) as exc:
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                self.show_error("Not saved", f"{store.short(text)}: {why}")
                return
            game.unsaved = False
            then()

        title = f"This game's last moves are not saved ({store.short(game.save_error)})."
        self.push_screen(ChooseDialog(title, choices, current="cancel"), chosen)

    async def action_quit(self) -> None:
        """Quit, after asking if a game's moves could not be saved."""
        self.confirm_leave(self.exit)

    # -- app-wide actions -----------------------------------------------------------
    def action_help(self) -> None:
        """Show the keys and the rules in brief."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Help (?)", "Keys and rules in brief", self.action_help)
        if not isinstance(screen, HomeScreen):
            yield SystemCommand("Home", "Back to the start screen (games are kept)",
                                self.go_home)
        yield SystemCommand("ASCII board (b)", "Switch between Unicode and plain ASCII boards",
                            self.action_toggle_ascii)
        yield SystemCommand("Screen-reader mode (ctrl+r)",
                            "Plain lines: the board and every move in words (on or off)",
                            self.action_toggle_screen_reader)
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
        self.ascii_board = not self.ascii_board
        self.set_class(self.ascii_board, "-ascii")
        for screen in self.screen_stack:
            if isinstance(screen, ParlorScreen):  # screen-reader mode keeps glyphs plain
                screen.show_ascii(self.ascii_board or self.screen_reader)

    def action_toggle_screen_reader(self) -> None:
        """Turn screen-reader mode on or off (remembered for the next start)."""
        self.set_screen_reader(not self.screen_reader)
        self.notify("Screen-reader mode " + ("on" if self.screen_reader else "off") + ".")

    def set_screen_reader(self, on: bool, *, remember: bool = True) -> None:
        """Screen-reader mode on or off: the app's ``-reader`` class (the stylesheet drops
        frames and scrollbars and puts panels one under another), no animation, and
        every screen's boards in words. ``remember`` keeps the choice in the settings."""
        self.screen_reader = on
        self.set_class(on, "-reader")
        self.animation_level = "none" if on else self.animations
        for screen in self.screen_stack:
            if isinstance(screen, ParlorScreen):
                screen.show_reader(on)
        if remember:
            settings.update(screen_reader=on)

