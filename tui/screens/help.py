"""HelpScreen: every key, the board marks, and where games are saved."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from tui.screens.base import ParlorScreen

HELP = """\
Cursor        arrows or h j k l        Select / drop   Enter or Space
Cancel        Esc drops a half-made move (checkers jump, Morris removal)
Connect Four  1-7 drop in that column
Type a move   m, then the notation: f5, 4, 11-15, 15x24x31, a5-c5xd2

In a game     g switch game   o switch opponent   n new game   t hint
              u undo (back to your previous turn)  s save under a name
              r saved games   ? this help         q quit (games are kept)
Replay        ← → step   Home/End first/last   a autoplay   p play from here
Anywhere      ctrl+p palette: every action by name   b plain ASCII board

Marks         [ ] cursor   { } chosen so far   ( ) last move   > < hint
              + legal target    +x+ a piece you may pick (or must remove)
              * FlipColor square (# when it is also a legal target)
Pieces        first player X or ●, second O or ○ (Morris: White ○, Black ●)
              checkers men ● ○ and kings ◆ ◇ (ASCII: b w men, B W kings)

A compound move is entered one point at a time; only legal continuations
are offered. Every game is kept after each move, in its own file: quit any
time; Home lists the unfinished games and resumes any of them.
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
