"""ReaderLine: the live line of screen-reader mode, at the top of a screen with a board.

A screen reader in a terminal reads the screen's text; a change it should speak has to
be words in one place. ReaderLine watches the screen's board (its ``state``,
``last_move``, ``previous``, ``interactive``, ``cursor`` and ``path``) and shows two
lines: what just happened as a sentence ("O plays a1. Your turn.", "Black plays f5,
flipping 1. White to move (alphabeta:medium)…") and the point under the cursor
("cursor c3: empty, legal"). The words come from the board widget
(:meth:`BoardWidget.said_move`, :meth:`BoardWidget.cursor_line`), so a screen only
yields one ReaderLine; it is hidden unless the app has the ``-reader`` class, and then
only follows the board, drawing nothing until it is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.protocol import AnyState
from tui.app.widgets.board import BoardWidget
from tui.app.widgets.text import TextPanel

HUMAN = "human"
"""The spec of a person (as ``tui.game.opponents.HUMAN``)."""


def sides(value: Any) -> tuple[str, str] | None:
    """``value`` as the two sides' specs or names if it is two short texts, else None (a
    room's names come from the service: trusted only as plain text)."""
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(p, str) and p.isprintable() and len(p) <= 100 for p in value)):
        return (value[0], value[1])
    return None


def turn_words(board: BoardWidget[Any, Any], players: Sequence[str] | None) -> str:
    """Whose turn it is, or how the game ended, as a sentence."""
    state = board.state
    if state is None:
        return ""
    names = state.PLAYERS
    outcome = state.outcome()
    if outcome is not None:
        winner = "a draw" if outcome.winner is None else f"{names[outcome.winner]} wins"
        return f"Game over: {winner}, {outcome.termination}."
    mover = names[state.to_move]
    if board.interactive:
        humans = [p for p in players or () if p == HUMAN]
        return "Your turn." if len(humans) <= 1 else f"{mover} to move, your turn."
    spec = players[state.to_move] if players and len(players) == 2 else None
    if spec and spec != HUMAN:
        return f"{mover} to move ({spec})…"
    return f"{mover} to move."


class ReaderLine(TextPanel):
    """The latest move as a sentence and the cursor's point, for a screen reader.

    ``players`` gives the sides' specs (``human``, ``alphabeta:medium``) or names, to say
    who is to move; without it only the side's name is said.
    """

    DEFAULT_CSS = """
    ReaderLine { display: none; height: auto; padding: 0 1; }
    """

    def __init__(self, players: Callable[[], Sequence[str]] | None = None, *,
                 id: str | None = None) -> None:
        super().__init__("", id=id)
        self.players = players
        self.board: BoardWidget[Any, Any] | None = None
        self.seen: AnyState | None = None
        """The position the sentence was last made for."""
        self.view: tuple[Any, Any, Any] | None = None
        """The board's position, last move and position before it, when last said."""
        self.said = ""
        """What happened last, as a sentence (without whose turn it is)."""
        self.pending = False
        self.lines: list[str] = []
        """The two lines, shown or not."""

    def on_mount(self) -> None:
        self.call_later(self.attach)

    def attach(self) -> None:
        """Start watching the screen's board (composed beside this line)."""
        boards = self.screen.query(BoardWidget)
        if not boards:
            return
        self.board = boards.first()
        for name in ("state", "last_move", "previous", "interactive", "cursor", "path"):
            self.watch(self.board, name, self.changed, init=False)
        self.speak()

    def changed(self) -> None:
        """A board value changed: speak once its screen has set them all."""
        if not self.pending:
            self.pending = True
            self.call_later(self.speak)

    def speak(self) -> None:
        """Make the two lines for the board as it is now."""
        self.pending = False
        board = self.board
        if board is None or board.state is None:
            return
        state = board.state
        view = (state, board.last_move, board.previous)
        if (self.view is None or state is not self.view[0] or board.previous is not self.view[2]
                or board.last_move != self.view[1]):
            self.view = view
            before, move = board.previous, board.last_move
            if before is None and move is not None and self.seen is not None:
                before = self.after_one(self.seen, move, state)  # a board told no previous
            if move is None:
                back = self.seen is not None and self.seen is not state and self.seen.ply > 0
                self.said = "Back to the start." if back else "The start position."
            elif before is None:  # a board told the move but not the position before it
                self.said = f"{state.PLAYERS[1 - state.to_move]} played."
            else:
                try:
                    sentence = board.said_move(before, move, state)
                except Exception:  # noqa: BLE001 - words about a move never break the game
                    sentence = f"{before.PLAYERS[before.to_move]} played."
                fresh = self.seen is not None and before.key() == self.seen.key()
                self.said = sentence if fresh else f"Now after: {sentence}"
            self.seen = state
        players = sides(self.players() if self.players is not None else None)
        lines = [f"{self.said} {turn_words(board, players)}".strip()]
        if board.interactive:
            lines.append(board.cursor_line())
        self.lines = lines
        if self.display:  # hidden (not in screen-reader mode), it draws nothing
            self.update(self.text)

    def on_show(self) -> None:
        """Shown (screen-reader mode on): draw the lines as they are now."""
        self.update(self.text)

    @staticmethod
    def after_one(seen: AnyState, move: Any, state: AnyState) -> AnyState | None:
        """``seen`` if ``move`` played there gives ``state`` (else None)."""
        try:
            if move in seen.legal_moves() and seen.play(move).key() == state.key():
                return seen
        except Exception:  # noqa: BLE001 - a move of another game: not the one before
            return None
        return None

    @property
    def text(self) -> str:
        """The lines (as shown, in screen-reader mode; for tests and tools)."""
        return "\n".join(self.lines)
