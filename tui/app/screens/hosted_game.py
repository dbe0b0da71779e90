"""HostedGameScreen: the part every screen of a game the host holds shares (a room's game,
a correspondence game).

The game lives on the host; such a screen shows the position the host last sent, rebuilt
here with the engine from its move list, and sends what the player does. This base holds
the link to the host (subscribed from the start, so no update is missed before the screen
is mounted), the positions, the board, a move chosen on the board or typed in notation,
and why a point chosen cannot be played. A subclass says what it shows
(:meth:`status_text`), when the player may move (:meth:`my_turn`), what the host's
messages do (:meth:`on_service`) and how a move is sent (:meth:`send_move`).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.widgets import Static

from engine.protocol import AnyState
from engine.registry import get_game
from tui.app.dialogs.prompt import PromptDialog
from tui.app.messages import MoveEntered, SelectionRefused
from tui.app.screens.base import ParlorScreen
from tui.app.widgets.board import BoardWidget
from tui.link import client

MOVE_CHARS = 64
"""The longest move text sent to the host."""


class HostedGameScreen(ParlorScreen):
    """A game the host holds, as one player (or a spectator) sees it."""

    NOT_CONNECTED = "not connected to the host"

    def __init__(self, snapshot: dict[str, Any]) -> None:
        super().__init__()
        self.snap: dict[str, Any] = {}
        """The host's latest word on the game (empty until the screen applies one)."""
        self.first = snapshot
        self.initial: AnyState = get_game(str(snapshot.get("game"))).initial(
            **dict(snapshot.get("options") or {}))
        self.states: list[AnyState] = [self.initial]
        self.texts: list[str] = []
        self.message = ""
        """Why the board refused the last point chosen (until the game changes)."""
        self.link = client.current_link()
        if self.link is not None:  # from now on, so no update is missed before mounting
            self.link.subscribe(self.on_service)

    @property
    def state(self) -> AnyState:
        return self.states[-1]

    @property
    def you(self) -> int:
        """0 or 1 for a player, -1 for a spectator."""
        you = self.snap.get("you", -1)
        return you if you in (0, 1) else -1

    @property
    def board(self) -> BoardWidget[Any, Any]:
        return self.query_one(BoardWidget)

    async def connect(self) -> None:
        """Reach the host's link if there was none when the screen was made."""
        if self.link is None:
            self.link = await client.get_link()
            self.link.subscribe(self.on_service)

    def on_unmount(self) -> None:
        if self.link is not None:
            self.link.unsubscribe(self.on_service)

    # -- what a subclass says -----------------------------------------------------------
    def on_service(self, message: dict[str, Any]) -> None:
        """A message from the host."""
        raise NotImplementedError

    def my_turn(self) -> bool:
        """Whether the player may move now."""
        raise NotImplementedError

    def status_text(self) -> Text:
        """The status panel's text."""
        raise NotImplementedError

    def send_move(self, text: str) -> None:
        """Send the move ``text`` (in notation) to the host."""
        raise NotImplementedError

    # -- what the player does -----------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        if self.link is None or not self.link.send(message):
            self.notify(self.NOT_CONNECTED, severity="error")

    def play(self, text: str) -> None:
        """Send a move; the board waits for the host's answer."""
        self.board.interactive = False
        self.send_move(text.strip()[:MOVE_CHARS])

    @on(MoveEntered)
    def on_move_entered(self, event: MoveEntered) -> None:
        event.stop()
        if not self.my_turn():
            self.app.bell()
            return
        self.play(self.state.format_move(event.move))

    @on(SelectionRefused)
    def on_selection_refused(self, event: SelectionRefused) -> None:
        """Say why the point chosen cannot be played (a taken square, not your turn)."""
        event.stop()
        self.message = event.why
        self.query_one("#status", Static).update(self.status_text())

    def example_move(self) -> str:
        """A legal move here in notation, as an example ("" when there is none)."""
        legal = self.state.legal_moves()
        return self.state.format_move(legal[0]) if legal else ""

    def action_type_move(self) -> None:
        """Enter a move in the game's notation."""
        if not self.my_turn():
            self.app.bell()
            return

        def entered(text: str | None) -> None:
            if text and self.my_turn():
                self.play(text)

        self.app.push_screen(PromptDialog("Your move in notation",
                                          placeholder=self.example_move()), entered)
