"""ChooseDialog: pick one value from a list (Enter) or cancel (Esc)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

HEADING = object()
"""The value of a choice that is a group's heading (shown, never chosen)."""


class ChooseDialog(ModalScreen[Any]):
    """A titled list of ``(label, value)`` choices; dismisses with the value or None.
    A choice whose value is :data:`HEADING` heads a group and cannot be chosen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("j", "cursor('down')", show=False),
        Binding("k", "cursor('up')", show=False),
    ]

    def __init__(self, title: str, choices: Sequence[tuple[str, Any]],
                 current: Any = None) -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield OptionList(*(Option(label, id=str(i), disabled=value is HEADING)
                               for i, (label, value) in enumerate(self.choices)),
                             id="choices")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        values = [value for _, value in self.choices]
        first = next((i for i, v in enumerate(values) if v is not HEADING), 0)
        options.highlighted = values.index(self.current) if self.current in values else first
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[int(event.option.id or 0)][1])

    def action_cursor(self, direction: str) -> None:
        """Move the highlight (j/k as well as the arrows)."""
        options = self.query_one(OptionList)
        if direction == "down":
            options.action_cursor_down()
        else:
            options.action_cursor_up()

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)
