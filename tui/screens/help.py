"""HelpScreen: every key, the board marks, and where games are saved."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from tui.screens.base import ParlorScreen

HELP = """\
Move the cursor   arrows or h j k l         Select / drop   Enter or Space
Cancel a move     Esc (drops a half-made move, e.g. a jump or a removal)
Connect Four      1-7 drop in that column   Type a move     m (e.g. f5, 11x18, a5-c5xd2)

In a game         g switch game     o switch opponent     n new game
                  u undo (back to your previous turn)     t hint
                  s save under a name      r saved games   ? help    q quit
Replay            ← → step   Home/End first/last   a autoplay   p play from here
Anywhere          ctrl+p command palette (the same actions by name)

Board marks       [ ] cursor   { } chosen so far   ( ) last move   > < hint
                  + legal target   * FlipColor square (# when also legal)
Pieces            X/● first player, O/○ second; checkers kings ◆ ◇ (ASCII B W)

Compound moves are entered one point at a time: a checkers jump square by square,
a Morris removal after the mill. Only legal continuations are offered.
Every move is autosaved; quit at any time and `parlor` offers to resume.
"""


class HelpScreen(ParlorScreen):
    """Keys and board marks; Esc or ? goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1", "close", "Back", tooltip="Close the help"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="help"):
            yield Static(HELP, id="help-text", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "Help"

    def action_close(self) -> None:
        """Go back to the previous screen."""
        self.app.pop_screen()
