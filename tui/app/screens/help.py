"""HelpScreen: every key, the board marks, and where games are saved."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from engine.protocol import Game
from engine.registry import GAMES
from tui.app.screens.base import ParlorScreen
from tui.app.widgets.footer import ParlorFooter

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
              z puzzles of the game chosen
Puzzles       play the move on the board, or m to type it   n next
              s show the answer   y puzzles from your analysed games' ??
In a room     e, q or Esc leave it (a player's seat is kept a while)
              c say a line in the chat   t mute (or show) the chat
Replay        ← → step   Home/End first/last   a autoplay
              p play on from here   x explorer (Enter steps to its move)
Anywhere      ctrl+p palette: every action by name   b plain ASCII board
              ctrl+r screen-reader mode: the board and moves in words

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

A game of yours against a rated level (level:1 up to level:hard) from the usual
start moves your rating for that game; Home shows it (a: a fair opponent).
An undo, a hint or a change of players makes the game unrated (it says so).
"""

LABEL = 14
"""Columns of the label before each game's rules (a longer name has a line to itself)."""


def rules_block(game: Game) -> str:
    """``game``'s rules in short (its ``rules_summary``) under its name."""
    lines = game.rules_summary.strip("\n").splitlines() or [game.description]
    indent = "\n" + " " * LABEL
    if len(game.name) < LABEL:
        return f"{game.name:<{LABEL}}" + indent.join(lines)
    return game.name + indent + indent.join(lines)


RULES: dict[str, str] = {game_id: rules_block(game) for game_id, game in GAMES.items()}
"""Each game's rules in short, from the game's own module (docs/RULES.md has them in full)."""


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
        yield ParlorFooter()

    def on_mount(self) -> None:
        self.sub_title = "Help"

    def action_close(self) -> None:
        """Go back to the previous screen."""
        self.app.pop_screen()
