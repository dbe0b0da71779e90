"""TextPanel: a Static drawn again only when its text changes.

A screen sets its panels' texts after every event (a move, a key, a message from the
host), most of them unchanged; and Textual's ``Static.update`` lays the whole screen out
again each time, by default. A TextPanel ignores an update that shows what is already
shown, and asks for a new layout only when the text's shape changes (how many lines, or
the width of one): the same lines with other words are drawn in place. That is most of
what a move costs a session's app, and with many sessions on one host, most of the host.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.visual import VisualType
from textual.widgets import Static


def shape(content: object, wraps: bool = True) -> tuple[int, ...] | None:
    """The width of each line of ``content`` (None: not plain text or a Text, whose size
    cannot be told without laying it out); if it never ``wraps`` (in a panel as wide as
    its container), only how many lines."""
    if isinstance(content, Text):
        content = content.plain
    if not isinstance(content, str):
        return None
    lines = content.split("\n")
    return tuple(cell_len(line) for line in lines) if wraps else (len(lines),)


class TextPanel(Static):
    """A Static (text without markup) that does nothing for an update to the same text,
    and lays out only when the text's shape changes."""

    WRAPS = True
    """Whether the text may wrap (False: a panel as wide as its container, whose lines
    are cropped, lays out only for a new number of lines)."""

    def __init__(self, content: VisualType = "", **kwargs: object) -> None:
        super().__init__(content, markup=False, **kwargs)  # type: ignore[arg-type]
        self.shown: VisualType | None = None
        """What the last update showed (None before the first)."""
        self.shape: tuple[int, ...] | None = None
        self.draws = 0
        """How many updates changed the text (for tests)."""

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        if self.shown is not None and type(content) is type(self.shown) \
                and content == self.shown:
            return
        new = shape(content, self.WRAPS)
        self.shown = content
        self.draws += 1
        super().update(content, layout=layout and (new is None or new != self.shape))
        self.shape = new
