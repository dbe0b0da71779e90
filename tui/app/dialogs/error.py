"""ErrorDialog: one clear message (a damaged record, a file that cannot be read)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class ErrorDialog(ModalScreen[None]):
    """Shows ``message`` under ``title``; Enter, Esc or OK closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "close", "Close")]

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog error-dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.message, id="error-message", markup=False)
            yield Button("OK", id="ok", variant="primary")

    def on_mount(self) -> None:
        self.query_one(Button).focus()
        from tui.app.screens.base import release_early_keys

        self.call_after_refresh(release_early_keys, self)  # an error as the app starts

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        """Close the dialog."""
        self.dismiss(None)
