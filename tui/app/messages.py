"""Messages the TUI's widgets and workers post to the screens that own the game.

Each is a small dataclass. Brain results carry ``token`` (which request they answer),
``ply`` and ``for_key`` (the position they were computed for), so that a screen can drop
a stale result after an undo, a new game or a change of opponent.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from textual.message import Message

from brains.protocol import Thought


@dataclass
class MoveEntered(Message):
    """The board (or the move prompt) entered a complete legal move."""

    move: Any


@dataclass
class SelectionRefused(Message):
    """The board refused a point: ``why``, in a player's words, for the status line."""

    why: str


@dataclass
class BrainThought(Message):
    """Progress from a thinking brain (depth, score, best line so far)."""

    token: int
    ply: int
    thought: Thought


@dataclass
class BrainMoved(Message):
    """A brain chose ``move`` for the position ``for_key`` at ``ply``."""

    token: int
    ply: int
    for_key: Hashable
    move: Any


@dataclass
class BrainFailed(Message):
    """A brain raised instead of moving; ``error`` is shown to the user."""

    token: int
    error: str


@dataclass
class HintReady(Message):
    """A suggested move for the position ``for_key`` (None if none was found)."""

    for_key: Hashable
    move: Any
    error: str = ""
    """Why there is no move, when the hint's brain failed."""
    sureness: str = ""
    """How sure the hint is, in words (an exact verdict or a search's score)."""
