"""Correspondence games under ``parlor host`` (F8): days per move, one move at a time.

:class:`CorrScreen` lists the player's correspondence games (``your move``, ``their
move``, a challenge to answer, a game waiting for an opponent, a game over, with the time
left in days and hours) and the open games of others, and creates one (a challenge to a
named player, or an open game). :class:`CorrGameScreen` shows one game: its board, whose
turn it is and the time left; the player moves by keys as in any game, and leaves. The
games live in the host's database (:mod:`tui.host.correspondence`): every move is sent
there and checked by the engine; nothing is kept here.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Header, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option as ListOption

from engine.protocol import ParlorError
from engine.registry import GAMES, default_game, get_game, parse_options
from tui.app.dialogs.choose import ChooseDialog
from tui.app.screens.base import ParlorScreen
from tui.app.screens.home import HomeScreen
from tui.app.screens.hosted_game import HostedGameScreen
from tui.app.screens.play import TO_MOVE
from tui.app.widgets import board_class
from tui.app.widgets.footer import ParlorFooter
from tui.app.widgets.move_list import MoveList, move_number
from tui.app.widgets.reader import ReaderLine
from tui.link import client
from tui.player import store

DAYS = (1, 3, 7)


def days_left(seconds: float) -> str:
    """Time left as the lists show it: ``2 days 5 h``, ``7 h``, ``under an hour``."""
    hours = int(max(0.0, seconds) // 3600)
    if hours >= 24:
        return f"{hours // 24} day{'s' if hours >= 48 else ''} {hours % 24} h"
    return f"{hours} h" if hours else "under an hour"


def game_name(game_id: object) -> str:
    return GAMES[game_id].name if isinstance(game_id, str) and game_id in GAMES \
        else store.short(game_id, 20)


def opponent(item: dict[str, Any]) -> str:
    names = item.get("names")
    you = item.get("you")
    if not (isinstance(names, list) and len(names) == 2):
        return "?"
    other = names[1 - you] if you in (0, 1) else next((n for n in names if n), "")
    return store.short(other, 24) if isinstance(other, str) and other else "(open seat)"


def describe_game(item: dict[str, Any]) -> str:
    """One line of the list: the state in words first (never a colour alone)."""
    status = str(item.get("status", "?"))
    days = item.get("days")
    line = f"{status.upper():<11} {game_name(item.get('game'))} against {opponent(item)}"
    if isinstance(days, int):
        line += f", {days} day{'s' if days > 1 else ''} a move"
    left = item.get("left")
    if status in ("your move", "their move") and isinstance(left, (int, float)):
        line += f": {days_left(left)} left"
    if status == "over":
        how = store.short(item.get("termination", ""), 20)
        line += f": {store.short(item.get('result', ''), 8)} ({how})"
    return line


def describe_open(item: dict[str, Any]) -> str:
    days = item.get("days")
    side = "first" if item.get("side") == 0 else "second"
    return (f"OPEN        {game_name(item.get('game'))} with {store.short(item.get('name'), 24)}"
            f", {days} day{'s' if days != 1 else ''} a move (you would play {side})")


class CorrScreen(ParlorScreen):
    """The player's correspondence games, the open ones, and a form to start one."""

    DEFAULT_CSS = """
    CorrScreen #corr-title { padding: 1 1 0 1; }
    CorrScreen #corr-list { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", tooltip="Back to Home"),
        Binding("f4", "create", "Create", tooltip="Start a correspondence game"),
        Binding("f5", "refresh", "Refresh", tooltip="List the games again"),
        Binding("x", "resign", "Resign/decline",
                tooltip="Resign the highlighted game, or decline a challenge (asks first)"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.link: client.RoomLink | None = None
        self.items: list[tuple[str, dict[str, Any]]] = []
        self.asked = False
        """A game was asked for (open or join): its answer opens it."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static("Correspondence games: days per move. Enter opens the highlighted "
                         "game (or joins an open one); F4 starts one with the choices "
                         "below: a name challenges that player, no name opens it to anyone.",
                         id="corr-intro", markup=False)
            with Horizontal(classes="field"):
                yield Label("Game", classes="field-label")
                yield Select([(g.name, gid) for gid, g in GAMES.items()], value=default_game(),
                             allow_blank=False, id="corr-game", compact=True)
            with Horizontal(classes="field"):
                yield Label("Options", classes="field-label")
                yield Input(placeholder="none (e.g. size=6)", id="corr-options", compact=True)
            with Horizontal(classes="field"):
                yield Label("Days a move", classes="field-label")
                yield Select([(f"{d} day{'s' if d > 1 else ''}", d) for d in DAYS], value=3,
                             allow_blank=False, id="corr-days", compact=True)
            with Horizontal(classes="field"):
                yield Label("I play", classes="field-label")
                yield Select([("first", "first"), ("second", "second"),
                              ("random", "random")], value="first", allow_blank=False,
                             id="corr-side", compact=True)
            with Horizontal(classes="field"):
                yield Label("Opponent", classes="field-label")
                yield Input(placeholder="a player's name (none: open to anyone)",
                            id="corr-name", compact=True, max_length=24)
            with Horizontal(id="home-buttons"):
                yield Button("Create (F4)", id="corr-create", variant="primary")
            yield Static("", id="corr-title", markup=False)
            yield OptionList(id="corr-list")
        yield ParlorFooter()

    async def on_mount(self) -> None:
        self.sub_title = "Correspondence"
        try:
            self.link = await client.get_link()
        except (OSError, ValueError) as exc:
            self.query_one("#corr-title", Static).update(
                f"The host cannot be reached: {store.short(exc)}")
            return
        self.link.subscribe(self.on_service)
        self.action_refresh()
        self.query_one("#corr-list", OptionList).focus()

    def on_unmount(self) -> None:
        if self.link is not None:
            self.link.unsubscribe(self.on_service)

    def on_screen_resume(self) -> None:
        self.action_refresh()

    def action_refresh(self) -> None:
        if self.link is not None and self.in_view:
            self.link.send({"t": "corr_list"})

    def on_service(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        if kind == "corr_list":
            self.show_list(message)
        elif kind == "corr_made":
            name = store.short(message.get("name") or "", 24)
            self.notify(f"Challenge sent to {name}" if name else
                        "Open game created: it waits for an opponent")
            self.action_refresh()
        elif kind == "corr_game" and self.is_current and self.asked:
            self.asked = False
            self.app.push_screen(CorrGameScreen(message))
        elif kind == "corr_note" and self.is_current:
            self.action_refresh()
        elif kind == "error" and self.is_current:
            self.asked = False
            self.notify(store.short(message.get("message", "error"), 120), severity="error")
        elif kind == "closed":
            self.query_one("#corr-title", Static).update("The host has gone away.")

    def show_list(self, message: dict[str, Any]) -> None:
        games = message.get("games")
        opened = message.get("open")
        mine = [g for g in games if isinstance(g, dict)] if isinstance(games, list) else []
        others = [g for g in opened if isinstance(g, dict)] if isinstance(opened, list) else []
        self.items = [("mine", g) for g in mine] + [("open", g) for g in others]
        listing = self.query_one("#corr-list", OptionList)
        keep = listing.highlighted
        listing.clear_options()
        listing.add_options(ListOption(describe_game(g) if kind == "mine" else describe_open(g),
                                       id=str(i)) for i, (kind, g) in enumerate(self.items))
        if self.items:
            listing.highlighted = 0 if keep is None else min(keep, len(self.items) - 1)
        yours = sum(g.get("status") == "your move" for g in mine)
        for home in [s for s in self.app.screen_stack if isinstance(s, HomeScreen)]:
            home.show_corr_news(yours)  # Home's line follows the list
        self.query_one("#corr-title", Static).update(
            f"Your games: {len(mine)} (your move in {yours}); open games: {len(others)}"
            " (F5 refreshes)")

    @on(OptionList.OptionSelected, "#corr-list")
    def selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        kind, item = self.items[int(event.option.id or 0)]
        game_id = str(item.get("id", ""))[:40]
        join = kind == "open" or item.get("status") == "challenge"
        self.ask({"t": "corr_join" if join else "corr_open", "id": game_id})

    def action_resign(self) -> None:
        """Resign the highlighted game of mine, or decline the challenge, after asking."""
        if not self.query_one("#corr-list", OptionList).has_focus:
            return
        index = self.query_one("#corr-list", OptionList).highlighted
        if index is None or index >= len(self.items) or self.items[index][0] != "mine" \
                or self.items[index][1].get("status") == "over":
            self.app.bell()
            return
        item = self.items[index][1]
        challenge = item.get("status") == "challenge"
        question = "Decline this challenge?" if challenge else "Resign this game?"
        verb = "Decline" if challenge else "Resign"

        def chosen(choice: str | None) -> None:
            if choice == "resign" and self.link is not None:
                self.link.send({"t": "corr_resign", "id": str(item.get("id", ""))[:40]})

        self.app.push_screen(ChooseDialog(question, [("Keep it", "keep"), (verb, "resign")],
                                          current="keep"), chosen)

    def ask(self, request: dict[str, Any]) -> None:
        if self.link is not None and self.link.send(request):
            self.asked = True
        else:
            self.notify("not connected to the host", severity="error")

    @on(Button.Pressed, "#corr-create")
    def create_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_create()

    @on(Input.Submitted, "#corr-name")
    def name_entered(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_create()

    def action_create(self) -> None:
        """Start a correspondence game with the choices above."""
        game = str(self.query_one("#corr-game", Select).value)
        try:
            options = parse_options(self.query_one("#corr-options", Input).value.split())
            get_game(game).initial(**options)
        except ParlorError as exc:
            self.notify(store.short(exc, 120), title="Cannot create the game", severity="error")
            return
        request = {"t": "corr_new", "game": game, "options": options,
                   "days": self.query_one("#corr-days", Select).value,
                   "side": str(self.query_one("#corr-side", Select).value),
                   "name": self.query_one("#corr-name", Input).value.strip()[:24]}
        if self.link is None or not self.link.send(request):
            self.notify("not connected to the host", severity="error")


class CorrGameScreen(HostedGameScreen):
    """One correspondence game: the board, whose turn, the time left; a move by keys."""

    DEFAULT_CSS = """
    CorrGameScreen { layout: horizontal; }
    CorrGameScreen #moves-scroll { min-height: 3; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "type_move", "Move", tooltip="Enter a move in notation"),
        Binding("x", "resign", "Resign", tooltip="Resign this game (asks first)"),
        Binding("e,q,escape", "leave", "Leave", tooltip="Back to the list of games"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield ReaderLine(lambda: self.snap.get("names") or (), id="reader-line")
        with Vertical(id="board-panel"):
            yield board_class(self.initial.GAME)(self.initial, ascii=self.parlor.ascii_board,
                                                 id="board")
            yield Static(id="summary", markup=False)
        with Vertical(id="side"):
            yield Static(id="status", markup=False)
            with VerticalScroll(id="moves-scroll", can_focus=False):
                yield MoveList(id="moves")
        yield ParlorFooter()

    async def on_mount(self) -> None:
        self.title = f"{get_game(self.initial.GAME).name} by correspondence"
        self.board.focus()
        await self.connect()
        self.apply(self.first)

    def on_service(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        if kind == "corr_game" and message.get("id") == self.first.get("id"):
            if self.is_mounted:
                self.apply(message)
            else:
                self.first = message
        elif kind == "corr_note" and message.get("id") == self.first.get("id"):
            self.send({"t": "corr_open", "id": str(self.first.get("id", ""))[:40]})
        elif kind == "error" and self.is_current:
            self.notify(store.short(message.get("message", "error"), 120), severity="error")
            self.refresh_views()

    def apply(self, snap: dict[str, Any]) -> None:
        """Show the game as the host sent it (its moves replayed with the engine)."""
        moves = snap.get("moves")
        moves = [m for m in moves if isinstance(m, str)] if isinstance(moves, list) else []
        states, texts = [self.initial], []
        try:
            for text in moves:
                states.append(states[-1].play_text(text))
                texts.append(text)
        except ParlorError as exc:
            self.notify(store.short(exc, 120), title="Bad move from the host", severity="error")
        self.states, self.texts, self.snap = states, texts, snap
        self.message = ""
        self.refresh_views()

    def my_turn(self) -> bool:
        return (self.snap.get("status") == "your move" and self.you == self.state.to_move
                and self.state.outcome() is None)

    def refresh_views(self) -> None:
        board = self.board
        board.state = self.state
        board.last_move = (self.states[-2].parse_move(self.texts[-1]) if self.texts else None)
        board.previous = self.states[-2] if self.texts else None
        board.interactive = self.my_turn()
        self.query_one("#summary", Static).update(board.summary())
        self.query_one("#status", Static).update(self.status_text())
        self.query_one(MoveList).show(list(self.texts))

    def status_text(self) -> Text:
        snap = self.snap
        names = self.state.PLAYERS
        given = snap.get("names")
        people: list[Any] = given if isinstance(given, list) else ["", ""]
        text = Text()
        days = snap.get("days")
        role = f"you play {names[self.you]}" if self.you >= 0 else "challenge"
        text.append(f"Correspondence, {days} day{'s' if days != 1 else ''} a move ({role})\n",
                    "bold")
        status = str(snap.get("status", ""))
        moving = self.state.to_move if status in ("your move", "their move") else -1
        for side in (0, 1):
            who = store.short(people[side] if side < len(people) and people[side]
                              else "(open seat)", 24)
            mark = TO_MOVE if side == moving else "  "
            text.append(f"{mark}{names[side]}: {who}\n", "bold" if side == moving else "")
        left = snap.get("left")
        if status == "over":
            result = str(snap.get("result") or "*")
            outcome = {"1-0": f"{names[0]} wins", "0-1": f"{names[1]} wins",
                       "1/2-1/2": "Draw"}.get(result, "No result")
            text.append(f"Game over: {outcome} {result} ({snap.get('termination', '')})",
                        "bold reverse")
        elif status == "your move":
            text.append(f"Move {move_number(self.state.ply)}: your move", "bold")
        elif status == "their move":
            text.append(f"Move {move_number(self.state.ply)}: their move")
        else:
            text.append("Waiting for an opponent" if status == "waiting"
                        else "A challenge: leave and Enter on it in the list accepts")
        if status in ("your move", "their move") and isinstance(left, (int, float)):
            text.append(f"\nTime left for this move: {days_left(left)}")
        if self.message:
            text.append(f"\n{self.message}", "italic")
        return text

    def send_move(self, text: str) -> None:
        self.send({"t": "corr_move", "id": str(self.snap.get("id", ""))[:40],
                   "move": text, "ply": len(self.texts)})

    def action_resign(self) -> None:
        """Resign (a game no one has moved in yet is withdrawn, unrated), after asking."""
        if self.snap.get("status") == "over":
            self.app.bell()
            return

        def chosen(choice: str | None) -> None:
            if choice == "resign":
                self.send({"t": "corr_resign", "id": str(self.snap.get("id", ""))[:40]})

        self.app.push_screen(ChooseDialog("Resign this game?", [("Play on", "play"),
                                                                ("Resign", "resign")],
                                          current="play"), chosen)

    def action_leave(self) -> None:
        self.app.pop_screen()
