"""PromptDialog: type one line (a move in notation, a name to save under)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

HELP = "Enter confirms, Esc cancels"


class PromptDialog(ModalScreen["str | None"]):
    """Asks for one line of text; Enter dismisses with it, Esc with None.

    The ``placeholder`` is an example, shown under the field as one ("e.g. f5"), never
    inside it, where it would look typed already. Enter with nothing typed does not
    close the dialog: it says to type something or cancel.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, placeholder: str = "", value: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.example = placeholder.strip()
        if self.example and not self.example.startswith("e.g."):
            self.example = f"e.g. {self.example}"
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(value=self.value, id="prompt")
            yield Label(self.help_text(), id="prompt-help", classes="dialog-help",
                        markup=False)

    def help_text(self, nothing: bool = False) -> str:
        """The line under the field: the example and the keys (and, after Enter with
        nothing typed, that something must be typed)."""
        example = f"{self.example}. " if self.example else ""
        if nothing:
            return f"Nothing typed: type it ({example.rstrip('. ') or 'one line'}), or Esc cancels"
        return f"{example}{HELP}"

    def on_mount(self) -> None:
        from tui.app.api import ParlorApi

        field = self.query_one(Input)
        if isinstance(self.app, ParlorApi) and self.app.screen_reader:
            field.cursor_blink = False  # screen-reader mode: nothing blinks
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self.app.bell()
            self.query_one("#prompt-help", Label).update(self.help_text(nothing=True))
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        """Close without an answer."""
        self.dismiss(None)
