"""EvalGraph: the evaluation over a game as block characters, with a cursor column.

The graph is :func:`brains.analysis.eval_graph` fitted to the widget's width; the column
of the position shown (``cursor``) is drawn reversed and marked with ``^`` on the line
under it, so the cursor stays visible without colour. A click on a column posts
:class:`EvalGraph.Picked` with the position it shows.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from brains.analysis import column_of, eval_graph

GRAPH_ROWS = 2
"""Lines of blocks (each line is eight levels of the first player's expected score)."""


def index_at(column: int, count: int, width: int) -> int:
    """The position (0..count-1) that column ``column`` of a graph ``width`` wide shows:
    the inverse of :func:`brains.analysis.column_of` over the columns in use."""
    if count <= 1 or width <= 1:
        return 0
    columns = min(width, count)
    column = max(0, min(columns - 1, column))
    if columns == count:
        return column
    return round(column * (count - 1) / (columns - 1))


class EvalGraph(Widget):
    """The first player's expected score after every move: full at the top when the
    first player wins, empty when the second does, half-way when even."""

    DEFAULT_CSS = """
    EvalGraph {
        width: 100%;
        height: auto;
        padding: 0 1;
    }
    """

    values: reactive[tuple[Any, ...]] = reactive((), init=False, layout=True)
    """The value of every position, start first (None where unknown), first player's view."""
    cursor: reactive[int] = reactive(0, init=False)
    """The position shown on the board."""
    ascii: reactive[bool] = reactive(False, init=False)
    """Draw with plain ASCII characters only."""

    def __init__(self, names: tuple[str, ...] = (), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names = names
        """The players' names (first, second), for the label."""

    class Picked(Message):
        """The graph was clicked on the column of position ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def render(self) -> Text:
        width = max(1, self.content_size.width)
        count = len(self.values)
        rows = eval_graph(list(self.values), width, GRAPH_ROWS, ascii=self.ascii)
        text = Text(no_wrap=True, overflow="crop")
        if count == 0:
            return text
        at = column_of(max(0, min(self.cursor, count - 1)), count, width)
        for line in rows:
            text.append(line[:at])
            text.append(line[at:at + 1] or " ", "reverse")
            text.append(line[at + 1:])
            text.append("\n")
        text.append(" " * at + "^", "bold")
        label = f"evaluation (top: {self.names[0]} wins)" if self.names else "evaluation"
        gap = min(count, width) + 2 - (at + 1)  # the label goes right of the graph's columns
        if gap >= 1 and at + 1 + gap + len(label) <= width:
            text.append(" " * gap + label, "dim")
        return text

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return GRAPH_ROWS + 1

    def on_click(self, event: events.Click) -> None:
        count = len(self.values)
        offset = event.get_content_offset(self)
        if count and offset is not None:
            width = max(1, self.content_size.width)
            self.post_message(self.Picked(index_at(offset.x, count, width)))
