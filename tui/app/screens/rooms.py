"""RoomsScreen: create a room (against a person, or a brain in the other seat), join one
by its code or from the list, or pick a game to watch (only under ``parlor host``; see
:mod:`tui.host`).

The screen talks to the room service through :func:`tui.link.client.get_link`; when
the service puts this session in a room it opens :class:`RoomPlayScreen`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option as ListOption

from engine.protocol import ParlorError
from engine.registry import GAMES, default_game, get_game, parse_options
from tui.app.screens.base import ParlorScreen
from tui.app.widgets.footer import ParlorFooter
from tui.app.widgets.move_list import move_number
from tui.game import opponents
from tui.link import client
from tui.player import store
from tui.player.clock import TimeControl

REFRESH_SECONDS = 2.0
PERSON = "human"
"""The opponent choice that opens the room to a person."""


def opponent_choices(game_id: str) -> list[tuple[str, str]]:
    """The opponent picker's entries: a person first, then the brains a room may seat,
    grouped as the app's opponent chooser lists them."""
    brains = list(opponents.room_brains(game_id))
    return [("a person (share the room's code)", PERSON),
            *[(label.strip(), value) for label, value
              in opponents.grouped_choices(brains, None, game_id) if isinstance(value, str)]]


def describe_room(room: dict[str, Any]) -> str:
    """One line for a room in a list: code, game, players, moves and clock."""
    try:
        game = get_game(str(room.get("game", ""))).name
    except ParlorError:
        game = "?"
    names = room.get("names") or ["", ""]
    who = " v ".join(store.short(n or "(open seat)", 20) for n in names[:2])
    clock = f", {store.short(room.get('clock'), 10)}" if room.get("clock") else ", no clock"
    mine = "  (your game: Enter goes back to it)" if room.get("mine") else ""
    code = store.short(room.get("code"), 8)
    moves = room.get("moves", 0)
    number = move_number(moves) if isinstance(moves, int) and moves >= 0 else 1
    return f"{code}  {game}: {who}, move {number}{clock}{mine}"


class RoomButtons(Horizontal):
    """Home's two buttons under the host: Play a person, Watch."""

    DEFAULT_CSS = """
    RoomButtons { height: 3; margin-top: 1; }
    RoomButtons Button { margin-right: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Button("Play a person (F2)", id="rooms-play")
        yield Button("Watch (F3)", id="rooms-watch")

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.app.push_screen(RoomsScreen(watch=event.button.id == "rooms-watch"))


class RoomsScreen(ParlorScreen):
    """Play a person (create / join) or Watch (games in progress)."""

    DEFAULT_CSS = """
    RoomsScreen #room-code { width: 12; margin-right: 1; }
    RoomsScreen #rooms-title { padding: 1 1 0 1; }
    RoomsScreen #challenge-row Button { margin-left: 1; }
    RoomsScreen #challenge-help { height: 1; padding: 0 1; color: $text-muted; }
    RoomsScreen #rooms-list { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", tooltip="Back to Home"),
        Binding("f4", "create", "Create room", tooltip="Create a room with the choices above"),
        Binding("f5", "refresh", "Refresh", tooltip="List the rooms again"),
    ]

    def __init__(self, watch: bool = False) -> None:
        super().__init__()
        self.watch_mode = watch
        self.rooms: list[dict[str, Any]] = []
        self.lines: list[str] | None = None
        """The list's lines as shown (None before the first list)."""
        self.link: client.RoomLink | None = None
        self.opened_room = False
        """True while a room opened from here is shown (back from it, the focus is set)."""
        self.asked = False
        """A create, join or watch was sent and its room not yet opened: the service
        sends every change of a room to its players, and only the answer to this
        screen's own request opens a room screen (once)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            if self.watch_mode:
                yield Static("Games in progress: Enter watches the highlighted one.",
                             id="rooms-intro", markup=False)
            else:
                yield Static("Type a room's code and Enter to join it, or pick one from the "
                             "list; or choose a game (and a person or a brain to play) and "
                             "F4 creates a room, or challenge a player by name.",
                             id="rooms-intro", markup=False)
                with Horizontal(classes="field"):
                    yield Label("Game", classes="field-label")
                    yield Select([(g.name, gid) for gid, g in GAMES.items()], value=default_game(),
                                 allow_blank=False, id="room-game", compact=True)
                with Horizontal(classes="field"):
                    yield Label("Opponent", classes="field-label")
                    yield Select([("a person (share the room's code)", PERSON)], value=PERSON,
                                 allow_blank=False, id="room-opponent", compact=True)
                with Horizontal(classes="field"):
                    yield Label("Options", classes="field-label")
                    yield Input(placeholder="none (e.g. size=6)", id="room-options", compact=True)
                with Horizontal(classes="field"):
                    yield Label("Clock", classes="field-label")
                    yield Input(value="5+3", placeholder="5+3, 10 or none", id="room-clock",
                                compact=True)
                with Horizontal(classes="field"):
                    yield Label("I play", classes="field-label")
                    yield Select([("first", "first"), ("second", "second"),
                                  ("random", "random")], value="first", allow_blank=False,
                                 id="room-side", compact=True)
                with Horizontal(id="home-buttons"):
                    yield Button("Create room (F4)", id="room-create", variant="primary")
                    yield Input(placeholder="code", id="room-code", compact=True, max_length=8)
                    yield Button("Join", id="room-join")
                with Horizontal(classes="field", id="challenge-row"):
                    yield Label("Or challenge", classes="field-label")
                    yield Input(placeholder="a player's name (online now)",
                                id="challenge-name", compact=True, max_length=24)
                    yield Button("Challenge", id="room-challenge", compact=True)
                yield Static("", id="challenge-help", markup=False)
            yield Static("", id="rooms-title", markup=False)
            yield OptionList(id="rooms-list")
        yield ParlorFooter()

    async def on_mount(self) -> None:
        self.sub_title = "Watch" if self.watch_mode else "Play a person"
        if not self.watch_mode:
            self.fill_opponents()
        try:
            self.link = await client.get_link()
        except (OSError, ValueError) as exc:
            self.query_one("#rooms-title", Static).update(
                f"The rooms cannot be reached: {store.short(exc)}")
            return
        self.link.subscribe(self.on_service)
        self.action_refresh()
        self.set_interval(REFRESH_SECONDS, self.action_refresh)
        if self.watch_mode:
            self.query_one("#rooms-list", OptionList).focus()
        else:  # type a code and Enter to join; F4 creates a room
            self.query_one("#room-code", Input).focus()

    def on_unmount(self) -> None:
        if self.link is not None:
            self.link.unsubscribe(self.on_service)

    def on_screen_resume(self) -> None:
        """Back from a room: the list shown may be old (that room may have ended), and
        the focus goes back to the code field (or the list when watching), wherever it
        was, so a code typed next lands there."""
        self.action_refresh()
        if not self.opened_room:  # first shown: on_mount sets the focus
            return
        self.opened_room = False
        if self.watch_mode:
            self.query_one("#rooms-list", OptionList).focus()
        else:
            self.query_one("#room-code", Input).focus()

    @on(Select.Changed, "#room-game")
    def fill_opponents(self) -> None:
        """The opponents the chosen game offers (a person stays the choice unless the
        brain chosen before plays this game too)."""
        game = str(self.query_one("#room-game", Select).value)
        picker = self.query_one("#room-opponent", Select)
        before = picker.value
        choices = opponent_choices(game)
        picker.set_options(choices)
        picker.value = before if any(v == before for _, v in choices) else PERSON

    def action_refresh(self) -> None:
        """Ask for the list again."""
        if self.link is not None and self.in_view:
            self.link.send({"t": "list", "kind": "live" if self.watch_mode else "open"})

    def on_service(self, message: dict[str, Any]) -> None:
        """A message from the room service."""
        kind = message.get("t")
        if kind == "rooms" and message.get("kind") == ("live" if self.watch_mode else "open"):
            rooms = message.get("rooms")
            self.show_rooms([r for r in rooms if isinstance(r, dict)]
                            if isinstance(rooms, list) else [])
        elif kind == "room" and self.is_current and self.asked:
            from tui.app.screens.room_play import RoomPlayScreen

            self.asked = False
            for field in self.query("#room-code").results(Input):  # none when watching
                field.value = ""  # the next room has another code
            self.opened_room = True
            self.app.push_screen(RoomPlayScreen(message))
        elif kind == "error" and self.is_current:
            self.asked = False
            self.notify(store.short(message.get("message", "error"), 120), severity="error")
        elif kind == "closed":
            self.query_one("#rooms-title", Static).update("The room service has gone away.")

    def show_rooms(self, rooms: list[dict[str, Any]]) -> None:
        """Show the list the service sent (redrawn only when a line changed: it comes
        every few seconds)."""
        listing = self.query_one("#rooms-list", OptionList)
        keep = listing.highlighted
        self.rooms = rooms
        lines = [describe_room(r) for r in rooms]
        if lines == self.lines:
            return
        self.lines = lines
        listing.clear_options()
        listing.add_options(ListOption(line, id=str(i)) for i, line in enumerate(lines))
        if rooms:
            listing.highlighted = 0 if keep is None else min(keep, len(rooms) - 1)
        what = "Games in progress" if self.watch_mode else "Open rooms"
        self.query_one("#rooms-title", Static).update(
            f"{what}: {len(rooms)}" if rooms else f"{what}: none yet (F5 refreshes)")

    @on(OptionList.OptionSelected, "#rooms-list")
    def room_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        room = self.rooms[int(event.option.id or 0)]
        self.ask({"t": "watch" if self.watch_mode else "join",
                  "code": str(room.get("code", ""))[:8]})

    @on(Button.Pressed)
    def button(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "room-create":
            self.create()
        elif event.button.id == "room-join":
            self.join()
        elif event.button.id == "room-challenge":
            self.challenge()

    @on(Input.Changed, "#challenge-name")
    def challenge_typed(self) -> None:
        """Say what the challenge field does while it has the focus."""
        field = self.query_one("#challenge-name", Input)
        name = field.value.strip()
        self.query_one("#challenge-help", Static).update(
            "" if not field.has_focus else
            f"Enter challenges {name} to the game chosen above" if name else
            "Type the name of a player who is online: Enter challenges them")

    def mark_focused_field(self) -> None:
        """The focus moved: mark its form row, and say what the challenge field does."""
        super().mark_focused_field()
        for _ in self.query("#challenge-help"):  # none when watching
            self.challenge_typed()

    @on(Input.Submitted, "#challenge-name")
    def challenge_entered(self, event: Input.Submitted) -> None:
        event.stop()
        self.challenge()

    @on(Input.Submitted, "#room-code")
    def code_entered(self, event: Input.Submitted) -> None:
        event.stop()
        self.join()

    def join(self) -> None:
        """Join the room whose code is typed."""
        code = self.query_one("#room-code", Input).value.strip().upper()
        if not code:
            self.notify("type the room's code first", severity="warning")
        else:
            self.ask({"t": "join", "code": code[:8]})

    def action_create(self) -> None:
        """Create a room with the game, options, clock and side chosen."""
        if not self.watch_mode:
            self.create()

    def challenge(self) -> None:
        """Create a room with the choices above and invite the player named to it (the
        host shows them the challenge, if they are online)."""
        name = self.query_one("#challenge-name", Input).value.strip()
        if not name:
            self.notify("type the name of the player to challenge", severity="warning")
            return
        request = self.room_request()
        if request is not None:
            request.pop("opponent", None)
            self.ask({**request, "t": "challenge", "name": name})

    def create(self) -> None:
        """Create a room with the game, options, clock and side chosen."""
        request = self.room_request()
        if request is not None:
            self.ask(request)

    def room_request(self) -> dict[str, Any] | None:
        """The create request for the game, options, clock, side and opponent chosen
        (None, with a notice, when they do not make a game)."""
        game = str(self.query_one("#room-game", Select).value)
        clock = self.query_one("#room-clock", Input).value.strip()
        try:
            options = parse_options(self.query_one("#room-options", Input).value.split())
            get_game(game).initial(**options)
            TimeControl.parse(clock)
        except ParlorError as exc:
            self.notify(store.short(exc, 120), title="Cannot create the room", severity="error")
            return None
        opponent = str(self.query_one("#room-opponent", Select).value)
        return {"t": "create", "game": game, "options": options, "clock": clock,
                "side": str(self.query_one("#room-side", Select).value),
                "opponent": "" if opponent == PERSON else opponent}

    def ask(self, request: dict[str, Any]) -> None:
        """Send a request whose answer is a room to open."""
        if self.link is not None and self.link.send(request):
            self.asked = True
