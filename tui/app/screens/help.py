"""HelpScreen: every key, the board marks, and where games are saved."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from tui.app.screens.base import ParlorScreen

HELP = """\
Cursor        arrows or h j k l        Select / drop   Enter or Space
Cancel        Esc drops a half-made move (checkers jump, Morris removal)
Connect Four  1-7 drop in that column
Type a move   m, then the notation: f5, 4, 11-15, 15x24x31, a5-c5xd2

In a game     g switch game   o switch opponent   t hint   s save
              n new game (asks first while this one is unfinished)
              u undo (back to your previous turn)   r saved games
              q or Esc back to Home (the game is kept)   ? this help
              p pause/go on   + - slower/faster (computers playing)
              x explorer: the moves played from here in your games
Home          q quit (every game is kept)   ctrl+q quits anywhere
In a room     e, q or Esc leave it (a player's seat is kept a while)
Replay        ← → step   Home/End first/last   a autoplay
              p play on from here   x explorer (Enter steps to its move)
Anywhere      ctrl+p palette: every action by name   b plain ASCII board

Marks         [ ] cursor   { } chosen so far   ( ) last move   > < hint
              + legal target   +x+ a piece you may pick (or must remove)
              * FlipColor square (# when it is also a legal target)
              > before a player: that side is to move
Pieces        first X or ●, second O or ○ (Morris: White ○, Black ●)
              checkers men ● ○, kings ◆ ◇ (ASCII: b w men, B W kings)

              * * winning line, the mill just made, discs just flipped
              × a piece the last move took
              f turns the board round
              the mouse: a click on a point chooses it, as Enter does

A compound move is entered one point at a time; only legal continuations
are offered. Every game is kept after each move, in its own file: quit any
time; Home lists the unfinished games and resumes any of them.

A game of yours against a rated level (level:1 to level:8) from the usual
start moves your rating for that game; Home shows it (a: a fair opponent).
An undo, a hint or a change of players makes the game unrated (it says so).
"""

RULES = {
    "tictactoe": """Tic-tac-toe   X and O take turns on a 3×3 grid; three in a row (across,
              down or diagonal) wins; a full grid with none is a draw.""",
    "connect4": """Connect Four  Red and Yellow drop discs into 7 columns; a disc falls to
              the lowest free cell. Four in a row in any direction wins;
              a full rack with none is a draw.""",
    "gomoku": """Gomoku        Black and White place stones on empty points (9×9 or 15×15);
              five or more in an unbroken line wins at once (overlines
              count). A full board with no five is a draw.""",
    "reversi": """Reversi       A disc must outflank: it turns every line of the other
              side's discs it closes. With no such move you pass; when
              neither side can move, more discs wins. Variants: randomstart
              (a random central start), flipcolor (four drawn squares turn
              the discs placed on them); boards 8×8, 6×6 or 4×4.""",
    "checkers": """Checkers      English draughts: men move one square diagonally forward,
              kings (crowned on the far row) forward and back. Capturing is
              compulsory and a capture goes on while it can (multi-jump);
              any capture may be chosen. No move left loses. Draws: the same
              position three times, or 40 moves each without a capture or
              a man's move.""",
    "morris": """Morris        Five Men's Morris: place your five men, then move them along
              the lines. Three in a row on a line (a mill) takes one of the
              other side's men (not one in a mill while others are free).
              Down to three men, you may fly: move a man to any empty point.
              Fewer than three men, or no move, loses. Draws: the same
              position three times, or 100 plies without a removal.""",
}
"""Each game's rules in short (docs/RULES.md has them in full)."""


class HelpScreen(ParlorScreen):
    """Keys and board marks; Esc or ? goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1", "close", "Back", tooltip="Close the help"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="help"):
            yield Static(HELP, id="help-text", markup=False)
            yield Static("Rules in short\n\n" + "\n\n".join(RULES.values()),
                         id="help-rules", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "Help"

    def action_close(self) -> None:
        """Go back to the previous screen."""
        self.app.pop_screen()
