"""HomeScreen: choose the game, its options, each side and the clock; resume any
unfinished game.

The games are those of :data:`engine.registry.GAMES`, and each game's option fields are
built from its declared :class:`engine.protocol.Option` s (a list for an option with
choices, a text field otherwise), so a newly registered game appears here as it is.
The player's own rating in the chosen game is shown (:mod:`tui.player.ratings`; under
``parlor host`` the host's database's rating of their account, as the host's ``account``
message says), and ``a`` picks a fair opponent: the rated level closest to it.
"""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import (
    Button,
    Header,
    Input,
    Label,
    OptionList,
    Select,
    Static,
)
from textual.widgets.option_list import Option as ListOption

from engine.positions import games_for, parse_position
from engine.protocol import AnyState, Game, Option, ParlorError
from engine.registry import GAMES, get_game
from tui.app.dialogs.choose import ChooseDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.screens.account import hosted_rating, rank_text
from tui.app.screens.base import ParlorScreen
from tui.app.screens.rooms import RoomButtons
from tui.app.widgets.footer import ParlorFooter
from tui.app.widgets.move_list import move_number
from tui.game import opponents
from tui.link.client import available as rooms_available
from tui.link.client import current_link
from tui.player import settings, store
from tui.player.clock import TimeControl
from tui.player.ratings import PlayerRating, PlayerRatings, closest_level

DEFAULT_GAME = "tictactoe"
"""The game chosen when Home opens (the first registered one if it is absent)."""
RANDOM_OPTION = "seed"
"""An option of this name left blank gets a fresh random value (a new random start)."""
NO_CLOCK = "none"
CLOCKS = (NO_CLOCK, "1+0", "3+2", "5+3", "10", "15+10")
"""The time controls the clock field lists (minutes for the game + seconds a move)."""
OTHER_CLOCK = "other"
"""The clock field's entry that asks for a time control to type."""


def option_widget_id(game_id: str, option: Option) -> str:
    """The id of the field for ``option`` of ``game_id``."""
    return "opt-" + re.sub(r"[^A-Za-z0-9_-]", "_", f"{game_id}-{option.name}")


def describe(entry: store.Entry) -> str:
    """One line for an unfinished game: game, players, move number and when."""
    rec = entry.record
    if rec is None:
        return f"cannot be resumed: {entry.error}"
    try:
        name = get_game(rec.game).name
    except ParlorError:
        name = rec.game
    players = " v ".join(side_players(rec.tags, side) for side in (0, 1))
    busy = " (open in another session)" if store.in_use(entry.game_id) else ""
    return f"{name}, move {move_number(len(rec.moves))}: {players}, {entry.when}{busy}"


def side_players(tags: dict[str, str], side: int) -> str:
    """Who played ``side`` (0 first, 1 second) by the record's tags, shortened: everyone
    who did (the ``FirstPlayers``/``SecondPlayers`` tag a change of players writes),
    else the ``First``/``Second`` player."""
    now = tags.get(("First", "Second")[side], "?")
    everyone = " ".join(tags.get(("FirstPlayers", "SecondPlayers")[side], "").split())
    if everyone and everyone.isprintable():
        return store.short(everyone, 40)
    return store.short(now, 18)


def side_choices(specs: list[str], game_id: str | None = None,
                 ascii: bool = False) -> list[tuple[str, str]]:
    """The side pickers' entries: the specs grouped by kind, strongest first (as the
    ``o`` dialog lists them), each with what it is in a few words (a rated level's
    rating, given the game; ``+/-`` for ``±`` when ``ascii``)."""
    out = []
    for label, value in opponents.grouped_choices(specs, None, game_id):
        if isinstance(value, str):
            text = label.strip()
            out.append((text.replace("±", "+/-") if ascii else text, value))
    return out


def clock_choices(extra: str | None = None) -> list[tuple[str, str]]:
    """The clock field's entries: no clock, the usual time controls, ``extra`` (one typed
    earlier) and the entry to type another."""
    values = list(CLOCKS)
    if extra is not None and extra not in values:
        values.append(extra)
    return [*((value, value) for value in values), ("other...", OTHER_CLOCK)]


class HomeScreen(ParlorScreen):
    """The start screen: a small form with Play, and the list of unfinished games."""

    DEFAULT_CSS = """
    #rating-row, #rank-row { height: 1; }
    #player-rating { width: 32; }
    #fair { margin-left: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "play", "Play", tooltip="Start the game chosen above (a new game)"),
        Binding("c", "resume", "Resume", tooltip="Continue the highlighted unfinished game"),
        Binding("d", "discard", "Discard", tooltip="Discard the highlighted unfinished game"),
        Binding("r", "open_saved", "Saved", tooltip="Open saved games"),
        Binding("x", "swap", "Swap sides", tooltip="Swap who moves first"),
        Binding("f", "from_position", "From a position",
                tooltip="Start from a pasted position (the game chosen above if it fits)"),
        Binding("a", "fair_opponent", "Fair opponent", show=False,
                tooltip="Play the rated level closest to your rating"),
        Binding("z", "puzzles", "Puzzles",
                tooltip="Find the move that keeps the win (the game chosen above)"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.unfinished: list[store.Entry] = []
        """The unfinished games listed, newest first (and files that cannot be read)."""
        self.sides_for = ""
        """The game the side pickers were last filled for."""
        self.remembered = settings.Settings()
        """The choices remembered from earlier runs (read when Home opens)."""
        self.side_specs: list[str] = [opponents.HUMAN]
        """What the side pickers offer for the chosen game."""
        self.clock_value = NO_CLOCK
        """The clock field's time control (kept while ``other…`` asks for one)."""
        self.rating_problem: str | None = None
        """The trouble with the ratings file last shown (each is shown once)."""

    def compose(self) -> ComposeResult:
        yield Header()
        first = DEFAULT_GAME if DEFAULT_GAME in GAMES else next(iter(GAMES))
        with Vertical(id="home"):
            yield Static("Choose a game and who plays each side. Tab moves between fields, "
                         "Enter opens a list or presses a button.", id="home-intro")
            with Horizontal(classes="field"):
                yield Label("Game", classes="field-label")
                yield Select([(game.name, game_id) for game_id, game in GAMES.items()],
                             value=first, allow_blank=False, id="game", compact=True)
            for game_id, game in GAMES.items():
                with Vertical(classes="game-options", id=f"options-{game_id}"):
                    for option in game.options:
                        with Horizontal(classes="field"):
                            yield Label(option.name.capitalize(), classes="field-label")
                            yield self.option_field(game_id, option)
            for side in ("first", "second"):
                with Horizontal(classes="field"):
                    yield Label("", classes="field-label", id=f"{side}-label")
                    yield Select([(opponents.HUMAN, opponents.HUMAN)], allow_blank=False,
                                 id=side, compact=True)
            with Horizontal(classes="field"):
                yield Label("Clock", classes="field-label")
                yield Select(clock_choices(), value=NO_CLOCK, allow_blank=False, id="clock",
                             compact=True, tooltip="Time for each side: minutes for the "
                             "game + seconds added a move (none: no clock)")
            with Horizontal(classes="field", id="rating-row"):
                yield Label("Your rating", classes="field-label")
                yield Static("", id="player-rating", markup=False)
                fair = Button("a: fair opponent", id="fair", compact=True,
                              tooltip="Play the rated level closest to your rating")
                fair.styles.border = ("none", "black")  # one line, in ASCII mode too
                fair.styles.height = 1
                yield fair
            if rooms_available():  # under `parlor host`: the place on the leaderboard
                with Horizontal(classes="field", id="rank-row"):
                    yield Label("Your rank", classes="field-label")
                    yield Static("", id="player-rank", markup=False)
                yield Static("", id="corr-news", markup=False)
            with Horizontal(id="home-buttons"):
                yield Button("Play", id="play", variant="primary")
                yield Button("Swap sides", id="swap")
                yield Button("From a position...", id="position")
                yield Button("Resume", id="resume")
                yield Button("Saved games", id="saved")
            if rooms_available():  # under `parlor host`: Play a person, Watch
                yield RoomButtons(id="room-buttons")
            yield Static("", id="unfinished-title", markup=False)
            yield OptionList(id="unfinished")
        yield ParlorFooter()

    @staticmethod
    def option_field(game_id: str, option: Option) -> Select[Any] | Input:
        """A list for an option with choices, a text field (blank: default) otherwise."""
        wid = option_widget_id(game_id, option)
        if option.choices is not None:
            return Select([(str(c), c) for c in option.choices], value=option.default,
                          allow_blank=False, id=wid, compact=True, tooltip=option.help or None)
        blank = "random" if option.name == RANDOM_OPTION else f"{option.default}"
        return Input(placeholder=blank, id=wid, compact=True, tooltip=option.help or None)

    def on_mount(self) -> None:
        self.sub_title = "Home"
        self.remembered = settings.load()
        self.restore(self.remembered)
        self.refresh_unfinished()
        self.query_one("#play", Button).focus()

    def restore(self, remembered: settings.Settings) -> None:
        """Fill the form with the choices remembered from the last game started (each
        checked: a game, option or player that no longer applies keeps its default)."""
        if remembered.game is not None:
            self.sides_for = remembered.game  # the pickers are filled just below
            self.query_one("#game", Select).value = remembered.game
        if remembered.clock is not None:
            self.set_clock(remembered.clock)
        for game_id, values in remembered.options.items():
            for option in get_game(game_id).options:
                if option.name not in values:
                    continue
                field = self.query_one(f"#{option_widget_id(game_id, option)}")
                if isinstance(field, Select):
                    field.value = values[option.name]
                elif isinstance(field, Input):
                    field.value = str(values[option.name])
        keep = remembered.players.get(self.game_id, (opponents.HUMAN, None))
        self.update_sides(self.game_id, keep)

    def remember(self) -> None:
        """Keep the form's choices for the next start (blank fields are not kept)."""
        game: Game = get_game(self.game_id)
        values: dict[str, Any] = {}
        for option in game.options:
            field = self.query_one(f"#{option_widget_id(game.id, option)}")
            if isinstance(field, Select):
                values[option.name] = field.value
            elif isinstance(field, Input) and field.value.strip():
                values[option.name] = field.value.strip()
        self.remembered.players[game.id] = self.sides()
        settings.update(game=game.id, options={game.id: values},
                        players={game.id: self.sides()},
                        clock=settings.clock_text(self.clock_value))

    def on_screen_resume(self) -> None:
        self.refresh_unfinished()
        self.show_rating()

    # -- the clock ------------------------------------------------------------------
    def set_clock(self, value: str) -> None:
        """Show ``value`` (a time control's text, or ``none``) in the clock field: the
        listed entry of the same time control (``1`` is ``1+0``), else one added."""
        select = self.query_one("#clock", Select)
        control = TimeControl.parse(value)
        value = next((c for c in CLOCKS if TimeControl.parse(c) == control), value)
        self.clock_value = value
        if value not in CLOCKS:
            select.set_options(clock_choices(value))
        select.value = value

    def time_control(self) -> TimeControl | None:
        """The clock chosen for the game (None: no clock)."""
        return TimeControl.parse(self.clock_value)

    @on(Select.Changed, "#clock")
    def clock_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.value != OTHER_CLOCK:
            self.clock_value = str(event.value)
            return

        def typed(text: str | None) -> None:
            if text:
                try:
                    control = TimeControl.parse(text)
                except ParlorError as exc:
                    self.parlor.show_error("Not a time control", store.short(exc, 150))
                else:
                    self.set_clock(NO_CLOCK if control is None else str(control))
                    return
            self.set_clock(self.clock_value)  # cancelled or refused: as it was

        self.app.push_screen(PromptDialog("Time control: minutes for the game + seconds a "
                                          "move", placeholder="e.g. 5+3, 10 or none"), typed)

    # -- the player's rating --------------------------------------------------------
    def show_ascii(self, ascii: bool) -> None:
        super().show_ascii(ascii)
        if self.is_mounted and self.sides_for:
            self.update_sides(self.sides_for, self.sides())  # the rating labels

    def show_rank(self) -> None:
        """Under ``parlor host``: the player's rating and place on the chosen game's
        leaderboard, as the host last said (the host's answer to the request of
        show_rating)."""
        link = current_link()
        for label in self.query("#player-rank").results(Static):
            label.update(rank_text(link.account if link is not None else {}, self.game_id))
        if rooms_available():
            self.show_own_rating()

    def show_corr_news(self, count: int) -> None:
        """Under ``parlor host``: how many correspondence games wait for the player's
        move (F8 opens them)."""
        plural = "" if count == 1 else "s"
        for label in self.query("#corr-news").results(Static):
            label.update(f"Your move in {count} correspondence game{plural} (F8 opens them)"
                         if count else "")

    def show_rating(self) -> None:
        """Show the player's rating in the chosen game (with its 95 % interval, ``?``
        and "provisional" while the deviation is large)."""
        link = current_link()
        if link is not None:  # ask the host again: a game may have moved the rating
            link.send({"t": "account"})
        self.show_rank()
        if not rooms_available():
            self.show_own_rating()

    def show_own_rating(self) -> None:
        """The rating line: the player's own ``ratings.json``, or under ``parlor host``
        the host's database's rating of their account (as its last ``account`` said)."""
        label = self.query_one("#player-rating", Static)
        levels = opponents.level_ratings(self.game_id)
        self.query_one("#fair", Button).disabled = not levels
        if not levels and not rooms_available():
            label.update("no rated levels in this game")
            return
        mine = self.player_rating()
        if mine is None:
            label.update("asking the host…")
            return
        games = f"{mine.games} rated game" + ("" if mine.games == 1 else "s")
        ascii = self.parlor.ascii_board
        label.update(mine.text(ascii) + (" provisional" if mine.provisional else ""))
        label.tooltip = f"{games}; {'+/-' if ascii else '±'} is the 95 % interval"

    def player_rating(self, game_id: str | None = None) -> PlayerRating | None:
        """The player's rating in ``game_id`` (the chosen game): under ``parlor host`` the
        host's (None until it has said); else their ``ratings.json``'s, whose trouble is
        said once."""
        game_id = game_id or self.game_id
        if rooms_available():
            link = current_link()
            return hosted_rating(link.account if link is not None else {}, game_id)
        ratings = PlayerRatings()
        mine = ratings.current(game_id)
        if ratings.problem and ratings.problem != self.rating_problem:  # said once
            self.notify(store.short(ratings.problem, 200), title="Your ratings",
                        severity="warning", timeout=10)
        self.rating_problem = ratings.problem
        return mine

    def action_fair_opponent(self) -> None:
        """Let the rated level closest to the player's rating play the computer's side
        (the second side when both or neither are people; a person then plays first)."""
        game_id = self.game_id
        levels = {spec: rating for spec, rating in opponents.level_ratings(game_id).items()
                  if spec in self.side_specs}
        if not levels:
            self.notify(f"{get_game(game_id).name} has no rated levels", severity="warning")
            return
        mine = self.player_rating(game_id)
        if mine is None:
            self.notify("The host has not said your rating yet; try again.",
                        severity="warning")
            return
        spec = closest_level(mine.rating, levels)
        first, second = self.sides()
        human = opponents.is_human
        side = 0 if human(second) and not human(first) else 1
        if not human(first) and not human(second):
            self.query_one("#first", Select).value = opponents.HUMAN
        self.query_one(f"#{('first', 'second')[side]}", Select).value = spec
        label = opponents.rating_label(spec, game_id) or ""
        if self.parlor.ascii_board:
            label = label.replace("±", "+/-")
        self.notify(f"A fair opponent: {spec}" + (f", {label}" if label else ""))

    def refresh_unfinished(self) -> None:
        """List every unfinished game (and one line per file that cannot be read)."""
        self.unfinished = store.unfinished()
        listing = self.query_one("#unfinished", OptionList)
        listing.clear_options()
        listing.add_options(ListOption(describe(e), id=str(i))
                            for i, e in enumerate(self.unfinished))
        count = sum(e.record is not None for e in self.unfinished)
        title = self.query_one("#unfinished-title", Static)
        title.update(f"Unfinished games: {count} (Enter or c resumes, d discards)"
                     if self.unfinished else "No unfinished games.")
        listing.display = bool(self.unfinished)
        self.query_one("#resume", Button).disabled = count == 0

    @property
    def game_id(self) -> str:
        """The game chosen in the form."""
        return str(self.query_one("#game", Select).value)

    def update_sides(self, game_id: str, keep: tuple[str | None, str | None]) -> None:
        """Fill the two side pickers for ``game_id``, keeping choices that still apply."""
        self.sides_for = game_id
        try:
            specs = [opponents.HUMAN, *opponents.brain_specs(game_id)]
            default = (opponents.HUMAN, opponents.default_opponent(game_id))
        except ValueError as exc:
            specs, default = [opponents.HUMAN], (opponents.HUMAN, opponents.HUMAN)
            self.parlor.show_error("Cannot list the opponents", str(exc))
        self.side_specs = specs
        names = get_game(game_id).initial().PLAYERS
        for side, wid in enumerate(("first", "second")):
            select = self.query_one(f"#{wid}", Select)
            select.set_options(side_choices(specs, game_id, self.parlor.ascii_board))
            want = keep[side] if keep[side] in specs else default[side]
            select.value = want
            who = "first" if side == 0 else "second"
            self.query_one(f"#{wid}-label", Label).update(f"{names[side]} ({who})")
        for gid in GAMES:
            self.query_one(f"#options-{gid}").display = gid == game_id
        self.show_rating()

    @on(Select.Changed, "#game")
    def game_changed(self, event: Select.Changed) -> None:
        game_id = str(event.value)
        if game_id != self.sides_for:
            self.update_sides(game_id, self.remembered.players.get(game_id, self.sides()))

    def sides(self) -> tuple[str, str]:
        """The specs chosen for the first and second sides."""
        return (str(self.query_one("#first", Select).value),
                str(self.query_one("#second", Select).value))

    def options(self) -> dict[str, Any]:
        """The game options chosen in the form (validated by the game when it starts)."""
        game: Game = get_game(self.game_id)
        options: dict[str, Any] = {}
        for option in game.options:
            field = self.query_one(f"#{option_widget_id(game.id, option)}")
            if isinstance(field, Select):
                options[option.name] = field.value
            elif isinstance(field, Input):
                text = field.value.strip()
                if text:
                    options[option.name] = text
                elif option.name == RANDOM_OPTION:
                    options[option.name] = random.SystemRandom().randrange(1, 2**31)
        return options

    @on(Button.Pressed)
    def button(self, event: Button.Pressed) -> None:
        event.stop()
        action = {"play": self.action_play, "swap": self.action_swap,
                  "resume": self.action_resume, "saved": self.action_open_saved,
                  "position": self.action_from_position, "fair": self.action_fair_opponent}
        action[str(event.button.id)]()

    @on(OptionList.OptionSelected, "#unfinished")
    def unfinished_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.parlor.resume_entry(self.unfinished[int(event.option.id or 0)])

    def action_play(self) -> None:
        """Start the chosen game (a new game: unfinished ones stay listed)."""
        self.remember()
        self.parlor.start_game(self.game_id, self.options(), self.sides(),
                               clock=self.time_control())

    def position_game(self, text: str) -> tuple[str, AnyState]:
        """The game and position ``text`` is: the game chosen above if the text fits it,
        else the one game it fits; ParlorError (one line) when it fits none or several."""
        try:
            return self.game_id, parse_position(self.game_id, text)
        except ParlorError as exc:
            chosen_error = str(exc)
        fits = games_for(text)
        if len(fits) == 1:
            return fits[0], parse_position(fits[0], text)
        if fits:
            raise ParlorError(f"{store.short(text, 40)!r} is a position of several games "
                              f"({', '.join(fits)}): choose the game first")
        raise ParlorError(f"no game's position: {chosen_error}")

    def action_from_position(self) -> None:
        """Ask for a position, then start its game from it with the sides chosen above."""
        def chosen(text: str | None) -> None:
            if not text:
                return
            try:
                game_id, state = self.position_game(text)
            except ParlorError as exc:
                self.parlor.show_error("Not a position", store.short(exc, 150))
                return
            if game_id != self.game_id:  # the pickers then offer that game's players
                self.query_one("#game", Select).value = game_id
                self.update_sides(game_id, self.remembered.players.get(game_id, self.sides()))
            self.remember()
            self.parlor.start_game(game_id, {}, self.sides(), position=state,
                                   clock=self.time_control())

        self.app.push_screen(PromptDialog("Start from the position (FEN-style text)",
                                          placeholder="e.g. 3/1x1/o2 x"), chosen)

    def action_swap(self) -> None:
        """Swap the players of the two sides."""
        first, second = self.sides()
        self.query_one("#first", Select).value = second
        self.query_one("#second", Select).value = first

    def highlighted(self) -> store.Entry | None:
        """The unfinished game highlighted in the list (the newest if none is)."""
        if not self.unfinished:
            return None
        index = self.query_one("#unfinished", OptionList).highlighted
        return self.unfinished[index if index is not None else 0]

    def action_resume(self) -> None:
        """Continue the highlighted unfinished game (the newest if none is highlighted)."""
        entry = self.highlighted()
        if entry is None:
            self.notify("there is no unfinished game to resume", severity="warning")
            return
        self.parlor.resume_entry(entry)

    def action_discard(self) -> None:
        """Discard the highlighted unfinished game, after asking."""
        entry = self.highlighted()
        if entry is None:
            self.app.bell()
            return

        def chosen(choice: str | None) -> None:
            if choice != "discard" or entry is None:
                return
            try:
                store.discard(entry)
            except (OSError, ValueError) as exc:
                self.parlor.show_error("Not discarded", store.short(exc))
            self.refresh_unfinished()

        title = f"Discard this game for good?\n{store.short(describe(entry), 56)}"
        self.app.push_screen(ChooseDialog(title, [("Keep it", "keep"),
                                                  ("Discard it", "discard")],
                                          current="keep"), chosen)

    def action_puzzles(self) -> None:
        """Open the puzzles of the game chosen above."""
        from tui.app.screens.puzzles import PuzzlesScreen

        self.app.push_screen(PuzzlesScreen(self.game_id))

    def action_open_saved(self) -> None:
        """Open the saved-games browser."""
        self.parlor.open_browser()
