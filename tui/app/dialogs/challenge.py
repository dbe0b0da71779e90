"""ChallengeDialog: another player challenges this one (under ``parlor host``); y accepts,
n or Esc declines."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from engine.protocol import ParlorError
from engine.registry import get_game
from tui.player import store


def describe_challenge(invitation: dict[str, Any]) -> str:
    """``ann challenges you to Tic-tac-toe (5+3)``: one line, every part checked."""
    try:
        game = get_game(str(invitation.get("game", ""))).name
    except ParlorError:
        game = "a game"
    options = invitation.get("options")
    extra = ""
    if isinstance(options, dict) and options:
        extra = " " + " ".join(f"{store.short(k, 20)}={store.short(v, 20)}"
                               for k, v in list(options.items())[:4])
    clock = invitation.get("clock")
    timing = f", clock {store.short(clock, 12)}" if clock else ", no clock"
    who = store.short(invitation.get("from") or "someone", 24)
    return f"{who} challenges you to {game}{extra}{timing}"


class ChallengeDialog(ModalScreen[bool]):
    """Shows a challenge; dismisses with True (accepted) or False (declined)."""

    DEFAULT_CSS = """
    ChallengeDialog .dialog-buttons { height: auto; margin-top: 1; }
    ChallengeDialog .dialog-buttons Button { margin-right: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Accept"),
        Binding("n", "answer(False)", "Decline"),
        Binding("escape", "answer(False)", "Decline", show=False),
    ]

    def __init__(self, invitation: dict[str, Any]) -> None:
        super().__init__()
        self.invitation = invitation

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(describe_challenge(self.invitation), classes="dialog-title",
                        markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Accept (y)", id="accept", variant="primary")
                yield Button("Decline (n)", id="decline")
            yield Label("Accepting takes you to the room; the game begins at once.",
                        classes="dialog-help", markup=False)

    def on_mount(self) -> None:
        self.query_one("#accept", Button).focus()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "accept")

    def action_answer(self, accept: bool) -> None:
        self.dismiss(accept)
