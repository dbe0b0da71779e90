"""The move list: the game's moves in notation, numbered in pairs, newest at the bottom."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from tui.app.widgets.text import TextPanel


def move_number(plies: int) -> int:
    """The number of the move being played after ``plies`` moves of either side, as the
    status and the move list count them (a move is one of each side's)."""
    return plies // 2 + 1


def counted(count: int, noun: str) -> str:
    """``1 stone``, ``2 stones``: ``count`` and the noun, singular or plural."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def numbered(moves: list[str], current: int | None = None) -> Text:
    """``1. f5 d6`` lines; the move at index ``current`` (0-based) is highlighted."""
    text = Text(no_wrap=True)
    for i in range(0, len(moves), 2):
        if i:
            text.append("\n")
        text.append(f"{i // 2 + 1:>3}. ", "dim")
        for j in (i, i + 1):
            if j < len(moves):
                style = "reverse bold" if j == current else ""
                marker = ">" if j == current else " "
                text.append(f"{marker}{moves[j]:<10}", style)
    return text


class MoveList(TextPanel):
    """The moves of the game so far (one TextPanel; the parent scrolls)."""

    DEFAULT_CSS = """
    MoveList { width: 100%; height: auto; }
    """
    WRAPS = False  # numbered() lines are never wrapped

    def show(self, moves: list[str], current: int | None = None) -> None:
        """Show ``moves`` (notation) with move ``current`` highlighted if given (and
        scroll to it: only when the list changed)."""
        drawn = self.draws
        self.update(numbered(moves, current) if moves else Text("no moves yet", "dim"))
        parent = self.parent
        if isinstance(parent, Widget) and self.draws != drawn:
            if current is None or current >= len(moves) - 2:
                self.call_after_refresh(parent.scroll_end, animate=False)
            else:
                self.call_after_refresh(parent.scroll_to, y=max(0, current // 2 - 3),
                                        animate=False)
