"""HomeScreen: choose the game, its options and each side; resume; open saved games."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Header, Label, Select, Static

from engine.protocol import ParlorError
from engine.registry import GAMES, get_game
from tui import opponents
from tui.screens.base import ParlorScreen

GAME_ORDER = ("morris", "reversi", "checkers", "tictactoe", "connect4")
"""The games in the order Home lists them."""


class HomeScreen(ParlorScreen):
    """The start screen: a small form, then Play, Resume and Saved games buttons."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "play", "Play", tooltip="Start the game chosen above"),
        Binding("c", "resume", "Resume", tooltip="Continue the unfinished game"),
        Binding("r", "open_saved", "Saved", tooltip="Open saved games"),
        Binding("x", "swap", "Swap sides", tooltip="Swap who moves first"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static("Choose a game and who plays each side. Tab moves between fields, "
                         "Enter opens a list or presses a button.", id="home-intro")
            with Horizontal(classes="field"):
                yield Label("Game", classes="field-label")
                yield Select([(GAMES[g].name, g) for g in GAME_ORDER if g in GAMES],
                             value="tictactoe", allow_blank=False, id="game")
            with Horizontal(classes="field", id="reversi-options"):
                yield Label("Board", classes="field-label")
                yield Select([("8×8", 8), ("6×6", 6), ("4×4", 4)], value=8,
                             allow_blank=False, id="size")
                yield Select([("standard start", "standard"), ("RandomStart", "randomstart"),
                              ("FlipColor", "flipcolor")], value="standard",
                             allow_blank=False, id="variant")
            with Horizontal(classes="field"):
                yield Label("", classes="field-label", id="first-label")
                yield Select([(opponents.HUMAN, opponents.HUMAN)], allow_blank=False, id="first")
            with Horizontal(classes="field"):
                yield Label("", classes="field-label", id="second-label")
                yield Select([(opponents.HUMAN, opponents.HUMAN)], allow_blank=False, id="second")
            with Horizontal(id="home-buttons"):
                yield Button("Play", id="play", variant="primary")
                yield Button("Swap sides", id="swap")
                yield Button("Resume", id="resume")
                yield Button("Saved games", id="saved")
            yield Static(id="resume-info", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "Home"
        self.update_sides("tictactoe", (opponents.HUMAN, None))
        self.refresh_resume()
        self.query_one("#play", Button).focus()

    def on_screen_resume(self) -> None:
        self.refresh_resume()

    def refresh_resume(self) -> None:
        """Enable Resume only when an unfinished game is autosaved."""
        from tui.app import load_autosave

        info = self.query_one("#resume-info", Static)
        button = self.query_one("#resume", Button)
        try:
            record = load_autosave()
        except ParlorError as exc:
            record = None
            info.update(f"The autosave is damaged and cannot be resumed: {exc}")
        else:
            info.update("" if record is None else
                        f"Unfinished (c resumes): {get_game(record.game).name}, "
                        f"{len(record.moves)} moves, {record.tags.get('First', '?')} vs "
                        f"{record.tags.get('Second', '?')}")
        button.disabled = record is None

    @property
    def game_id(self) -> str:
        """The game chosen in the form."""
        return str(self.query_one("#game", Select).value)

    def update_sides(self, game_id: str, keep: tuple[str | None, str | None]) -> None:
        """Fill the two side pickers for ``game_id``, keeping choices that still apply."""
        specs = [opponents.HUMAN, *opponents.brain_specs(game_id)]
        names = get_game(game_id).initial().PLAYERS
        default = (opponents.HUMAN, opponents.default_opponent(game_id))
        for side, wid in enumerate(("first", "second")):
            select = self.query_one(f"#{wid}", Select)
            select.set_options([(spec, spec) for spec in specs])
            want = keep[side] if keep[side] in specs else default[side]
            select.value = want
            who = "moves first" if side == 0 else "moves second"
            self.query_one(f"#{wid}-label", Label).update(f"{names[side]} ({who})")
        self.query_one("#reversi-options").display = game_id == "reversi"

    @on(Select.Changed, "#game")
    def game_changed(self, event: Select.Changed) -> None:
        self.update_sides(str(event.value), self.sides())

    def sides(self) -> tuple[str, str]:
        """The specs chosen for the first and second sides."""
        return (str(self.query_one("#first", Select).value),
                str(self.query_one("#second", Select).value))

    def options(self) -> dict[str, Any]:
        """The game options chosen in the form."""
        if self.game_id != "reversi":
            return {}
        import random

        variant = str(self.query_one("#variant", Select).value)
        options: dict[str, Any] = {"size": self.query_one("#size", Select).value,
                                   "variant": variant}
        if variant != "standard":
            options["seed"] = random.SystemRandom().randrange(1, 2**31)
        return options

    @on(Button.Pressed)
    def button(self, event: Button.Pressed) -> None:
        event.stop()
        action = {"play": self.action_play, "swap": self.action_swap,
                  "resume": self.action_resume, "saved": self.action_open_saved}
        action[str(event.button.id)]()

    def action_play(self) -> None:
        """Start the chosen game."""
        self.app.start_game(self.game_id, self.options(), self.sides())  # type: ignore[attr-defined]

    def action_swap(self) -> None:
        """Swap the players of the two sides."""
        first, second = self.sides()
        self.query_one("#first", Select).value = second
        self.query_one("#second", Select).value = first

    def action_resume(self) -> None:
        """Continue the autosaved game."""
        self.app.resume()  # type: ignore[attr-defined]

    def action_open_saved(self) -> None:
        """Open the saved-games browser."""
        self.app.open_browser()  # type: ignore[attr-defined]
